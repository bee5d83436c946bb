/*
 * split.c - the split applet: cut a trace.dat into pieces.
 * Only its usage for now; the work comes with issue 4.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox split [OPTIONS] [START [END]]\n"
"\n"
"Cut a trace.dat into pieces.  Every event between START and END lands in\n"
"exactly one piece; each piece is a complete trace.dat.  START and END are\n"
"seconds, e.g. 75678.923853 (default: the whole file).\n"
"\n"
"  -i FILE             input file (default trace.dat)\n"
"  -o FILE             output file; with -r the pieces are FILE.0001,\n"
"                      FILE.0002, ... (default: the input name + .1)\n"
"  -s N                N seconds per piece\n"
"  -m N                N milliseconds per piece\n"
"  -u N                N microseconds per piece\n"
"  -e N                N events per piece\n"
"  -p N                N pages per CPU per piece (implies -c)\n"
"  -r                  repeat: pieces until END or the end of the data\n"
"  -c                  count -e and -p per CPU\n"
"  -C CPU              keep the events of this CPU only\n"
"  --top               keep the top buffer\n"
"  -b NAME             after --top: store it as instance NAME\n"
"  -B NAME             keep instance NAME (repeatable)\n"
"  -t                  after -B NAME: make that instance the top buffer\n"
"  --file-version 6|7  output version (default: the input's)\n"
"  --compression ALG   none, zlib, zstd or any (default: the input's)\n"
"  -h, --help          show this help\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_split(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox split: not implemented yet\n");
	return 2;
}
