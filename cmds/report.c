/*
 * report.c - the report applet: print the events of trace.dat files as
 * text, as trace-cmd report does.  The work is in report/.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds.h"
#include "run.h"

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
"Implemented so far: -i (one file), -R, -t, -N, -q, --nodate, --raw-ts,\n"
"--ts-offset.  The other options are refused with exit status 2.\n";

enum {
	OPT_NODATE = 256,
	OPT_RAW_TS,
	OPT_TS_OFFSET,
	OPT_LATER,		/* known to trace-cmd, not built yet */
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "nodate", no_argument, NULL, OPT_NODATE },
	{ "raw-ts", no_argument, NULL, OPT_RAW_TS },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "cpu", required_argument, NULL, OPT_LATER },
	{ "stat", no_argument, NULL, OPT_LATER },
	{ "uname", no_argument, NULL, OPT_LATER },
	{ "version", no_argument, NULL, OPT_LATER },
	{ "cpus", no_argument, NULL, OPT_LATER },
	{ "first-event", no_argument, NULL, OPT_LATER },
	{ "last-event", no_argument, NULL, OPT_LATER },
	{ "ts2secs", required_argument, NULL, OPT_LATER },
	{ "ts-diff", no_argument, NULL, OPT_LATER },
	{ "json", no_argument, NULL, OPT_LATER },
	{ NULL, 0, NULL, 0 },
};

static int not_yet(const char *opt)
{
	fprintf(stderr, "tracebox report: %s is not supported yet\n", opt);
	return 2;
}

int cmd_report(int argc, char **argv)
{
	static const char *inputs[64];
	struct report_opts ro;
	char *end;
	int c;

	memset(&ro, 0, sizeof(ro));
	ro.inputs = inputs;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hi:RtNqF:vlEfPe", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'i':
			if (ro.ninputs == 1)
				return not_yet("more than one -i");
			inputs[ro.ninputs++] = optarg;
			break;
		case 'R': ro.raw = 1; break;
		case 't': ro.full_ns = 1; break;
		case 'N': ro.no_plugins = 1; break;
		case 'q': break;	/* nothing is printed that -q hides */
		case OPT_NODATE: ro.nodate = 1; break;
		case OPT_RAW_TS: ro.raw_ts = 1; break;
		case OPT_TS_OFFSET:
			ro.ts_offset = strtoll(optarg, &end, 0);
			if (*end || end == optarg) {
				fprintf(stderr, "tracebox report: bad"
					" --ts-offset '%s'\n", optarg);
				return 2;
			}
			break;
		case OPT_LATER:
			return not_yet(argv[optind - 1]);
		case '?':
			fputs("Try 'tracebox report --help'.\n", stderr);
			return 2;
		default:
			return not_yet(argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (ro.ninputs)
			return not_yet("more than one input");
		inputs[ro.ninputs++] = argv[optind++];
	}
	if (optind < argc) {
		fprintf(stderr, "tracebox report: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (!ro.ninputs)
		inputs[ro.ninputs++] = "trace.dat";
	return report_run(&ro);
}
