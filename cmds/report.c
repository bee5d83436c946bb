/*
 * report.c - the report applet: print the events of trace.dat files as text.
 * Only its usage for now; the work comes with issue 3.
 */
#include <stdio.h>
#include <string.h>
#include "cmds.h"

static const char usage[] =
"usage: tracebox report [OPTIONS] [-i FILE]...\n"
"\n"
"Print the events of trace.dat files as text, as trace-cmd report does.\n"
"Several -i files are interleaved by time.\n"
"\n"
"  -i FILE             input file (default trace.dat; repeatable)\n"
"  --cpu LIST          only these CPUs, e.g. 0,2-3\n"
"  -F FILTER           show only events matching FILTER (libtraceevent\n"
"                      syntax, e.g. 'sched_switch: prev_pid == 0')\n"
"  -v                  negate the -F filters that follow\n"
"  -R                  raw: print field values, not the print formats\n"
"  -t                  full timestamps, in nanoseconds\n"
"  -l                  latency format\n"
"  -N                  do not load libtraceevent plugins\n"
"  -E                  show the event formats stored in the file\n"
"  -f                  show the function list (kallsyms)\n"
"  -P                  show the printk formats\n"
"  -e                  show the file's byte order\n"
"  -q                  quiet: no warnings\n"
"  --stat              show the per-CPU statistics saved by record\n"
"  --uname             show the uname of the recording machine\n"
"  --version           show the version of the tool that wrote the file\n"
"  --cpus              list the CPUs that have data, then exit\n"
"  --first-event       show the first event's timestamp for each CPU\n"
"  --last-event        show the last event's timestamp for each CPU\n"
"  --ts-offset NS      add NS to the timestamps of the preceding -i file\n"
"  --ts2secs HZ        timestamps count at HZ per second\n"
"  --ts-diff           show the time since the previous event\n"
"  --json              print one JSON object per event\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 ok, 1 when a page or chunk had to be skipped or the file\n"
"cannot be read, 2 on usage errors.\n"
"\n"
"This applet is not implemented yet.\n";

int cmd_report(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	}
	fprintf(stderr, "tracebox report: not implemented yet\n");
	return 2;
}
