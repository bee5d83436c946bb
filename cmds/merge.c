/*
 * merge.c - the merge applet: join trace.dat files or pieces into one.
 * Only its usage for now; the work comes with issue 4.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox merge [OPTIONS] -o OUT IN...\n"
"\n"
"Put trace.dat files back together.  Pieces of one recording (such as\n"
"split output) become one file whose per-CPU data are in time order;\n"
"recordings of different instances of one kernel become one file with\n"
"each instance as its own buffer.  Inputs that cannot share one file\n"
"(different event formats or page sizes, say) are refused and nothing is\n"
"written.\n"
"\n"
"  -o FILE             output file (required)\n"
"  --file-version 6|7  output version (default 7)\n"
"  --compression ALG   none, zlib, zstd or any (default any, that is zstd)\n"
"  --level N           compression level (default: the codec's)\n"
"  --chunk-size SIZE   uncompressed bytes per chunk, K/M suffix allowed\n"
"                      (default 10 pages)\n"
"  --threads N         compression threads (default: online CPUs)\n"
"  -q                  no progress line\n"
"  -h, --help          show this help\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_merge(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox merge: not implemented yet\n");
	return 2;
}
