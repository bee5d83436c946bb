/*
 * record.c - the record applet: record events through tracefs into a trace.dat.
 * Only its usage for now; the work comes with issue 5.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox record [OPTIONS] [COMMAND [ARGS...]]\n"
"\n"
"Record events through tracefs into a trace.dat file.  With a COMMAND,\n"
"trace until it exits (its exit status is reported); without one, until\n"
"SIGINT or SIGTERM.  Needs root.\n"
"\n"
"  -e SYSTEM[:EVENT]   enable these events (repeatable; \"all\": every one)\n"
"  -f FILTER           filter for the preceding -e\n"
"  -C CLOCK            trace clock: local, global, mono, x86-tsc, ...\n"
"  -b KB               ring buffer size per CPU, in KiB\n"
"  -B NAME             record into a new instance NAME; the -e options\n"
"                      after it apply to that instance\n"
"  -M CPUMASK          trace only the CPUs in this hexadecimal mask\n"
"  -m KB               keep at most KB KiB of data per CPU\n"
"  -o FILE             output file (default trace.dat)\n"
"  -q, --quiet         print nothing but errors\n"
"  --file-version 6|7  output format version (default 7)\n"
"  --compression ALG   none, zlib, zstd or any (default any, that is zstd)\n"
"  --subbuf-size KB    ring buffer sub-buffer size, where the kernel has it\n"
"  --temp DIR          directory for the per-CPU files (default: beside FILE)\n"
"  -h, --help          show this help\n"
"\n"
"If record is killed, \"tracebox restore FILE\" turns what reached the disk\n"
"into FILE.\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_record(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox record: not implemented yet\n");
	return 2;
}
