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
"  --json              print one JSON object per event\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 ok, 1 when a page or chunk had to be skipped or the file\n"
"cannot be read, 2 on usage errors.\n"
"\n"
"Not built yet: --json.  It is refused with exit status 2.\n";

enum {
	OPT_NODATE = 256,
	OPT_RAW_TS,
	OPT_TS_OFFSET,
	OPT_TS2SECS,
	OPT_TS_DIFF,
	OPT_ALIGN_TS,
	OPT_CPU,
	OPT_EVENT,
	OPT_JSON,
	OPT_VERBOSE,
	OPT_SHOW,		/* print something and exit: flag in .val */
	OPT_LATER,		/* known to trace-cmd, not built yet */
};

/* Long options that only set a SHOW_* bit are looked up here. */
static const struct { const char *name; unsigned bit; } show_opts[] = {
	{ "events", SHOW_FORMATS },
	{ "stat", SHOW_STAT },
	{ "uname", SHOW_UNAME },
	{ "version", SHOW_VERSION },
	{ "cpus", SHOW_CPUS },
	{ "first-event", SHOW_FIRST },
	{ "last-event", SHOW_LAST },
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "nodate", no_argument, NULL, OPT_NODATE },
	{ "raw-ts", no_argument, NULL, OPT_RAW_TS },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "ts2secs", required_argument, NULL, OPT_TS2SECS },
	{ "ts-diff", no_argument, NULL, OPT_TS_DIFF },
	{ "align-ts", no_argument, NULL, OPT_ALIGN_TS },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "events", no_argument, NULL, OPT_SHOW },
	{ "stat", no_argument, NULL, OPT_SHOW },
	{ "uname", no_argument, NULL, OPT_SHOW },
	{ "version", no_argument, NULL, OPT_SHOW },
	{ "cpus", no_argument, NULL, OPT_SHOW },
	{ "first-event", no_argument, NULL, OPT_SHOW },
	{ "last-event", no_argument, NULL, OPT_SHOW },
	{ "profile", no_argument, NULL, OPT_LATER },
	{ "ts-check", no_argument, NULL, OPT_LATER },
	{ "check-events", no_argument, NULL, OPT_LATER },
	{ NULL, 0, NULL, 0 },
};

static int not_yet(const char *opt)
{
	fprintf(stderr, "tracebox report: %s is not supported yet\n", opt);
	return 2;
}

static int bad_value(const char *opt, const char *v)
{
	fprintf(stderr, "tracebox report: bad %s value '%s'\n", opt, v);
	return 2;
}

static unsigned show_bit(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(show_opts) / sizeof(show_opts[0]); i++)
		if (!strcmp(show_opts[i].name, name))
			return show_opts[i].bit;
	return 0;
}

static int add_input(struct report_opts *ro, const char *path)
{
	if (ro->ninputs == REPORT_MAX_INPUTS) {
		fprintf(stderr, "tracebox report: at most %d input files\n",
			REPORT_MAX_INPUTS);
		return 2;
	}
	ro->inputs[ro->ninputs++].path = path;
	return 0;
}

static int add_filter(struct report_opts *ro, const char *text, int negate)
{
	if (ro->nfilters == REPORT_MAX_FILTERS) {
		fprintf(stderr, "tracebox report: at most %d -F filters\n",
			REPORT_MAX_FILTERS);
		return 2;
	}
	ro->filters[ro->nfilters].text = text;
	ro->filters[ro->nfilters].after = ro->ninputs;
	ro->filters[ro->nfilters++].negate = negate;
	return 0;
}

/* The -i file an option after it applies to (the last one given). */
static struct report_input *last_input(struct report_opts *ro)
{
	return ro->ninputs ? &ro->inputs[ro->ninputs - 1] : NULL;
}

static int parse_long_value(struct report_opts *ro, int c, const char *name,
			    const char *v)
{
	struct report_input *in = last_input(ro);
	char *end;

	switch (c) {
	case OPT_TS_OFFSET:
		if (!in)
			return bad_value("--ts-offset (no -i before it)", v);
		in->ts_offset = strtoll(v, &end, 0);
		return *end || end == v ? bad_value(name, v) : 0;
	case OPT_TS2SECS:
		/* Before the second -i it sets the default (run.h). */
		if (ro->ninputs < 2)
			in = &ro->inputs[0];
		in->ts2secs_hz = strtoull(v, &end, 0);
		return *end || end == v || !in->ts2secs_hz ?
		       bad_value(name, v) : 0;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static struct report_opts ro;
	int c, idx, negate = 0, r;

	memset(&ro, 0, sizeof(ro));
	optind = 1;
	while ((c = getopt_long(argc, argv, "hi:RtNqF:vlEfPeIST", long_opts,
				&idx)) != -1) {
		r = 0;
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'i': r = add_input(&ro, optarg); break;
		case 'F': r = add_filter(&ro, optarg, negate); break;
		case 'v': negate = 1; break;
		case 'R': ro.raw = 1; break;
		case 't': ro.full_ns = 1; break;
		case 'N': ro.no_plugins = 1; break;
		case 'q': ro.quiet = 1; break;
		case 'l': ro.latency = 1; break;
		case 'I': ro.no_hardirq = 1; break;
		case 'S': ro.no_softirq = 1; break;
		case 'T': ro.test_filters = 1; break;
		case 'e': ro.show |= SHOW_ENDIAN; break;
		case 'f': ro.show |= SHOW_FUNCS; break;
		case 'P': ro.show |= SHOW_PRINTK; break;
		case 'E': ro.show |= SHOW_EVENT_LIST; break;
		case OPT_SHOW: ro.show |= show_bit(long_opts[idx].name); break;
		case OPT_NODATE: ro.nodate = 1; break;
		case OPT_RAW_TS: ro.raw_ts = 1; break;
		case OPT_TS_DIFF: ro.ts_diff = 1; break;
		case OPT_ALIGN_TS: ro.align_ts = 1; break;
		case OPT_CPU: ro.cpu_list = optarg; break;
		case OPT_EVENT: ro.event_regex = optarg; break;
		case OPT_JSON: ro.json = 1; break;
		case OPT_VERBOSE: break;	/* library messages: none */
		case OPT_TS_OFFSET:
		case OPT_TS2SECS:
			r = parse_long_value(&ro, c, argv[optind - 1], optarg);
			break;
		case OPT_LATER:
			return not_yet(argv[optind - 1]);
		default:
			fputs("Try 'tracebox report --help'.\n", stderr);
			return 2;
		}
		if (r)
			return r;
	}
	/* trace-cmd takes the input as the last word too. */
	if (optind < argc && !ro.ninputs && add_input(&ro, argv[optind++]))
		return 2;
	if (optind < argc) {
		fprintf(stderr, "tracebox report: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (!ro.ninputs)
		add_input(&ro, "trace.dat");
	return report_run(&ro);
}
