/*
 * restore.c - the restore applet: rebuild a trace.dat from what is left.
 * Only its usage for now; the work comes with issue 5.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox restore -c [-o HEAD] [-t TRACING_DIR] [-k KALLSYMS]\n"
"       tracebox restore [-i HEAD] [-o OUT] CPUFILE...\n"
"       tracebox restore -o OUT DAMAGED\n"
"       tracebox restore OUT\n"
"\n"
"Rebuild a trace.dat.\n"
"\n"
"  -c                  write a header-only file (metadata, no data) from\n"
"                      the running system (default name trace-partial.dat)\n"
"  -t DIR              with -c: read formats from this tracing directory\n"
"  -k FILE             with -c: read kallsyms from this file\n"
"  -i HEAD             take the metadata from this header-only file\n"
"  -o FILE             output file (default trace.dat)\n"
"  CPUFILE...          raw per-CPU page files for CPU 0, 1, ... (such as\n"
"                      the trace.dat.cpuN left by a killed recorder)\n"
"  DAMAGED             a truncated or corrupt trace.dat: keep every\n"
"                      complete page and decodable chunk, and say what\n"
"                      was dropped (buffer, CPU, offset, bytes)\n"
"  OUT                 alone: finish the file of a killed \"record -o OUT\"\n"
"                      from what it left on disk\n"
"  -h, --help          show this help\n"
"\n"
"The input is never modified; the output is written under a temporary\n"
"name and renamed when complete.\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_restore(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox restore: not implemented yet\n");
	return 2;
}
