/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the report applet: print the events of trace.dat files as
 * text, as trace-cmd report does, or as JSON lines.  Its command line is
 * read here as trace-cmd report 3.1.6 reads it, into struct report_opts
 * (convert/report/report.h); the work is in convert/report/.  Parse
 * messages go to the caller's buffer, so the unit tests can call
 * report_parse_args.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "cmds/progress.h"
#include "convert/report/report.h"
#include "libfmt/tracedat.h"

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
"  --layout VERSION    lines as trace-cmd VERSION prints them: 3.1 (the\n"
"                      default, Debian's 3.1.6) or 3.4 (3.3 and later:\n"
"                      latency flags after the CPU)\n"
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

enum {
	OPT_NODATE = 256,
	OPT_RAW_TS,
	OPT_TS_OFFSET,
	OPT_TS2SECS,
	OPT_TS_DIFF,
	OPT_LAYOUT,
	OPT_ALIGN_TS,
	OPT_CPU,
	OPT_EVENT,
	OPT_JSON,
	OPT_VERBOSE,
	OPT_SHOW,		/* print something and exit: bit in show_opts */
	OPT_LATER,		/* known to trace-cmd, not supported */
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

/*
 * '+': options end at the first other word, as in trace-cmd (which
 * ignores whatever follows it).  ':' tells a missing value from an
 * unknown option.  -r -n -O -H -L -w -G are trace-cmd's, not supported.
 */
static const char short_opts[] = "+:hi:RtNqF:vlEfPeISTV::r:n:O:H:LwG";

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "nodate", no_argument, NULL, OPT_NODATE },
	{ "raw-ts", no_argument, NULL, OPT_RAW_TS },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "ts2secs", required_argument, NULL, OPT_TS2SECS },
	{ "ts-diff", no_argument, NULL, OPT_TS_DIFF },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
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
	{ "by-comm", no_argument, NULL, OPT_LATER },
	{ "ts-check", no_argument, NULL, OPT_LATER },
	{ "check-events", no_argument, NULL, OPT_LATER },
	{ NULL, 0, NULL, 0 },
};

static int bad(char *err, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(err, cap, fmt, ap);
	va_end(ap);
	return REPORT_ARGS_BAD;
}

static unsigned show_bit(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(show_opts) / sizeof(show_opts[0]); i++)
		if (!strcmp(show_opts[i].name, name))
			return show_opts[i].bit;
	return 0;
}

static int add_input(struct report_opts *ro, const char *path, char *err,
		     size_t cap)
{
	if (ro->ev.ninputs == EVENTS_MAX_INPUTS)
		return bad(err, cap, "at most %d input files",
			   EVENTS_MAX_INPUTS);
	ro->ev.inputs[ro->ev.ninputs++].path = path;
	return 0;
}

static int add_filter(struct report_opts *ro, const char *text, int negate,
		      char *err, size_t cap)
{
	struct report_filter *f;

	if (ro->nfilters == REPORT_MAX_FILTERS)
		return bad(err, cap, "at most %d -F filters",
			   REPORT_MAX_FILTERS);
	f = &ro->filters[ro->nfilters++];
	f->text = text;
	f->after = ro->ev.ninputs;
	f->negate = negate;
	return 0;
}

/* Several --cpu add up, as in trace-cmd: their lists are joined. */
static int add_cpu_list(struct report_opts *ro, const char *list, char *err,
			size_t cap)
{
	char *buf = ro->cpu_lists;
	const char *prev = ro->cpu_list;
	size_t n, len = strlen(list);

	if (!prev) {
		ro->cpu_list = list;
		return 0;
	}
	n = strlen(prev);
	while (n && (prev[n - 1] == ',' || prev[n - 1] == ':' ||
		     prev[n - 1] == ' '))
		n--;
	if (n + 1 + len >= sizeof(ro->cpu_lists))
		return bad(err, cap, "--cpu lists too long");
	memmove(buf, prev, n);
	buf[n] = ',';
	memcpy(buf + n + 1, list, len + 1);
	ro->cpu_list = buf;
	return 0;
}

/* --ts-offset NS and --ts2secs HZ: whole numbers (0x.. and 0.. too). */
static int parse_number_opt(struct report_opts *ro, int c, const char *v,
			    char *err, size_t cap)
{
	const char *name = c == OPT_TS_OFFSET ? "--ts-offset" : "--ts2secs";
	struct events_input *in;
	char *end;

	if (c == OPT_TS_OFFSET) {
		if (!ro->ev.ninputs)
			return bad(err, cap, "--ts-offset must come after"
				   " the -i it applies to");
		in = &ro->ev.inputs[ro->ev.ninputs - 1];
		in->ts_offset = strtoll(v, &end, 0);
	} else {
		/* Before the second -i it sets the default (report.h). */
		in = &ro->ev.inputs[ro->ev.ninputs < 2 ? 0 : ro->ev.ninputs - 1];
		in->ts2secs_hz = strtoull(v, &end, 0);
		if (!in->ts2secs_hz || *v == '-')
			end = (char *)v;
	}
	if (*end || end == v)
		return bad(err, cap, "bad %s value '%s'", name, v);
	return 0;
}

/* The option getopt refused, in every applet's wording. */
static int refused(int c, char **argv, char *err, size_t cap)
{
	getopt_msg(err, cap, c, argv, optind, long_opts);
	return REPORT_ARGS_BAD;
}

/*
 * --json prints events: the options that print something else instead
 * do not go with it.  The text-only ones (-R, -t, -l, --ts-diff) are
 * accepted and have no effect.
 */
static int check_json(const struct report_opts *ro, char *err, size_t cap)
{
	const char *what = NULL;

	if (!ro->json)
		return 0;
	if (ro->show & (SHOW_ENDIAN | SHOW_FUNCS | SHOW_PRINTK |
			SHOW_EVENT_LIST | SHOW_FORMATS))
		what = "-e -f -P -E or --events";
	else if (ro->event_regex)
		what = "--event";
	else if (ro->test_filters)
		what = "-T";
	if (!what)
		return 0;
	return bad(err, cap, "--json does not go with %s", what);
}

/* --layout: the trace-cmd whose event lines to print. */
static int parse_layout(struct report_opts *ro, const char *arg, char *err,
			size_t cap)
{
	if (!strcmp(arg, "3.1"))
		ro->layout34 = 0;
	else if (!strcmp(arg, "3.4"))
		ro->layout34 = 1;
	else
		return bad(err, cap, "--layout: \"%s\" is not 3.1 or 3.4",
			   arg);
	return 0;
}

static int parse_one(struct report_opts *ro, int c, int idx, int *negate,
		     char **argv, char *err, size_t cap)
{
	switch (c) {
	case 'h': return REPORT_ARGS_HELP;
	case 'i': return add_input(ro, optarg, err, cap);
	case 'F': return add_filter(ro, optarg, *negate, err, cap);
	case 'v': *negate = 1; break;
	case 'R': ro->raw = 1; break;
	case 't': ro->full_ns = 1; break;
	case 'N': ro->ev.no_plugins = 1; break;
	case 'q': ro->quiet = 1; break;
	case 'l': ro->latency = 1; break;
	case 'I': ro->no_hardirq = 1; break;
	case 'S': ro->no_softirq = 1; break;
	case 'T': ro->test_filters = 1; break;
	case 'e': ro->show |= SHOW_ENDIAN; break;
	case 'f': ro->show |= SHOW_FUNCS; break;
	case 'P': ro->show |= SHOW_PRINTK; break;
	case 'E': ro->show |= SHOW_EVENT_LIST; break;
	case OPT_SHOW: ro->show |= show_bit(long_opts[idx].name); break;
	case OPT_NODATE: ro->ev.nodate = 1; break;
	case OPT_RAW_TS: ro->ev.raw_ts = 1; break;
	case OPT_TS_DIFF: ro->ts_diff = 1; break;
	case OPT_LAYOUT: return parse_layout(ro, optarg, err, cap);
	case OPT_ALIGN_TS: ro->ev.align_ts = 1; break;
	case OPT_CPU: return add_cpu_list(ro, optarg, err, cap);
	case OPT_EVENT: ro->event_regex = optarg; break;
	case OPT_JSON: ro->json = 1; break;
	case 'V':		/* library messages: tdat has none */
	case OPT_VERBOSE: break;
	case OPT_TS_OFFSET:
	case OPT_TS2SECS:
		return parse_number_opt(ro, c, optarg, err, cap);
	case 'r': case 'n': case 'O': case 'H':
	case 'L': case 'w': case 'G':
		return bad(err, cap, "-%c is not supported", c);
	case OPT_LATER:
		return bad(err, cap, "--%s is not supported",
			   long_opts[idx].name);
	default:
		return refused(c, argv, err, cap);
	}
	return 0;
}

int report_parse_args(int argc, char **argv, struct report_opts *ro,
		      char *err, size_t cap)
{
	int c, idx = 0, negate = 0, r = 0, saved_opterr = opterr;

	memset(ro, 0, sizeof(*ro));
	if (cap)
		err[0] = '\0';
	optind = 0;		/* glibc: start afresh, even after an error */
	opterr = 0;		/* the caller prints err */
	while (!r && (c = getopt_long(argc, argv, short_opts, long_opts,
				      &idx)) != -1)
		r = parse_one(ro, c, idx, &negate, argv, err, cap);
	opterr = saved_opterr;
	if (r)
		return r;
	/* As in trace-cmd, the input may be the last word, without -i. */
	if (optind < argc && !ro->ev.ninputs &&
	    add_input(ro, argv[optind++], err, cap))
		return REPORT_ARGS_BAD;
	/* trace-cmd ignores these; silently dropped options would be worse */
	if (optind < argc && argv[optind][0] == '-')
		return bad(err, cap, "option '%s' after the input file: options"
			   " go before it", argv[optind]);
	if (optind < argc)
		return bad(err, cap, "unexpected argument '%s'", argv[optind]);
	if (!ro->ev.ninputs)
		add_input(ro, "trace.dat", err, cap);
	return check_json(ro, err, cap);
}

/* A report going to a file or a pipe shows its progress on a terminal's
 * stderr; one on the terminal itself is its own progress. */
static int run(struct report_opts *ro)
{
	struct progress prog;
	int r;

	progress_start(&prog, ro->quiet || isatty(1));
	ro->ev.progress = show_progress;
	ro->ev.progress_ctx = &prog;
	r = report_run(ro);
	end_progress(&prog);
	return r;
}

int cmd_report(int argc, char **argv)
{
	static struct report_opts ro;
	char err[300];

	cmd_name = "report";
	switch (report_parse_args(argc, argv, &ro, err, sizeof(err))) {
	case REPORT_ARGS_RUN:
		return run(&ro);
	case REPORT_ARGS_HELP:
		fputs(usage, stdout);
		return 0;
	}
	return usage_error("%s", err);
}
