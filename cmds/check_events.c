/*
 * check_events.c - the check-events applet: parse event formats.
 * Only its usage for now; the work comes with issue 3.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox check-events [-N] [-i FILE] [--verbose[=LEVEL]]\n"
"\n"
"Parse every event format of the live tracefs (mounted if needed), or of\n"
"the formats stored in FILE, with libtraceevent; print each format that\n"
"fails and why.\n"
"\n"
"  -i FILE             check the formats stored in this trace.dat\n"
"  -N                  do not load libtraceevent plugins\n"
"  --verbose[=LEVEL]   libtraceevent messages: 0 none ... 6 all\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 when every format parses, 1 when one does not, 2 on\n"
"usage errors.\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_check_events(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox check-events: not implemented yet\n");
	return 2;
}
