/*
 * report.c - the report applet: print the events of trace.dat files as
 * text, as trace-cmd report does, or as JSON lines.  The options are
 * read by report/args.c, the work is in report/.
 */
#include <stdio.h>
#include "cmds/cmds.h"
#include "convert/report/run.h"
#include "convert/report/args.h"

static const char usage[] =
"usage: tdat report [OPTIONS] [-i FILE]...\n"
"\n"
"Print the events of trace.dat files as text, as trace-cmd report does\n"
"(or as JSON lines with --json).\n"
"Several -i files are interleaved by time.\n"
"\n"
"  -i FILE             input file (default trace.dat; repeatable)\n"
"  --cpu LIST          only these CPUs, e.g. 0,2-3\n"
"  -F FILTER           show only events matching FILTER (libtraceevent\n"
"                      syntax, e.g. 'sched_switch: prev_pid == 0')\n"
"  -v                  negate the -F filters that follow\n"
"  -T                  print the -F filters as understood, then exit\n"
"  -I                  hide events flagged as in hard interrupt context\n"
"  -S                  hide events flagged as in soft interrupt context\n"
"  --event REGEX       show the formats of matching events (SYSTEM:EVENT)\n"
"  -R                  raw: print field values, not the print formats\n"
"  -t                  full timestamps, in nanoseconds\n"
"  -l                  latency format\n"
"  -N                  do not load libtraceevent plugins\n"
"  -E                  list the events the file can describe (system:event)\n"
"  --events            show the event formats stored in the file\n"
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
"  --ts2secs HZ        timestamps count at HZ per second (before the\n"
"                      second -i: the default of every file)\n"
"  --ts-diff           show the time since the previous event\n"
"  --align-ts          count time from the first event\n"
"  --raw-ts            timestamps as recorded, without corrections\n"
"  --nodate            ignore the date offset saved by record --date\n"
"  --json              one JSON object per line per event, every field\n"
"                      by name (schema: man tdat-report)\n"
"  -V[LEVEL], --verbose[=LEVEL]  accepted; no effect\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 ok, 1 when a page or chunk had to be skipped or the file\n"
"cannot be read, 2 on usage errors.\n"
"\n"
"Not supported (exit status 2): -r, -n, -O, -H, -L, -w, -G, --profile,\n"
"--by-comm, --ts-check, --check-events (see tdat check-events).\n";

int cmd_report(int argc, char **argv)
{
	static struct report_opts ro;
	char err[300];

	switch (report_parse_args(argc, argv, &ro, err, sizeof(err))) {
	case REPORT_ARGS_RUN:
		return report_run(&ro);
	case REPORT_ARGS_HELP:
		fputs(usage, stdout);
		return 0;
	}
	fprintf(stderr, "tdat report: %s\n", err);
	return 2;
}
