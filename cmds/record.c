/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - the record applet: record events through tracefs into a
 * trace.dat.  Its command line is read here into a struct record_opts
 * (convert/record/record.h); the recording is record_run's.
 *
 * trace-cmd record's meaning: -e, -f, -R, -p, -O, -T, -l, -n, -P, -c and
 * --max-graph-depth apply to the buffer named by the last -B (the top
 * buffer before any), -f and -R to the -e just before it, -v to the -e
 * options after it, and the first argument that is not an option starts
 * the COMMAND, whose own options are left alone.
 * (-v before -B deletes the instance in trace-cmd: refused here.)
 * Options trace-cmd has and record has not are refused with exit 2.
 */
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/record_args.h"
#include "convert/record/record.h"

static const char usage[] =
"usage: tdat record [OPTIONS] [COMMAND [ARGS...]]\n"
"\n"
"Record events through tracefs into a trace.dat file.  With a COMMAND,\n"
"trace until it exits (its exit status is reported and becomes record's);\n"
"without one, until SIGINT or SIGTERM (or, with -P, until those processes\n"
"end).  Needs root.  The options are trace-cmd record's (3.1.6); those\n"
"marked [buffer] apply to the buffer of the last -B (the top before any).\n"
"\n"
"What is recorded:\n"
"  -e SYSTEM[:EVENT]   enable these events [buffer] (repeatable; EVENT\n"
"                      alone, globs, or \"all\")\n"
"  -f FILTER           filter for the preceding -e\n"
"  -R TRIGGER          trigger for the preceding -e (repeatable)\n"
"  -v                  the -e after it are disabled, not enabled; their\n"
"                      -R triggers are still set (a -B after it, which\n"
"                      deletes the instance in trace-cmd, is refused)\n"
"  -a                  store every event format, not only those recorded\n"
"  -i                  warn about -e events that do not exist, go on\n"
"  -T                  a kernel stack trace after each event [buffer]\n"
"  -O [no]OPTION       set or clear a trace option (options/) [buffer]\n"
"  -p TRACER           use this tracer: function, function_graph,\n"
"                      irqsoff, wakeup... [buffer]\n"
"  -l FUNC             trace only this function (set_ftrace_filter)\n"
"                      [buffer]\n"
"  -n FUNC             do not trace this function [buffer]\n"
"  -g FUNC             graph this function (set_graph_function)\n"
"  --func-stack        a stack trace at each function (with -p function\n"
"                      and -l)\n"
"  --max-graph-depth N function_graph depth limit [buffer]\n"
"  -d                  no function tracing for the tracer (option\n"
"                      function-trace off)\n"
"  -D                  that, and /proc/sys/kernel/ftrace_enabled 0\n"
"Which processes:\n"
"  -F                  only the COMMAND's events\n"
"  -P PID[,PID...]     only these processes' events [buffer]\n"
"  -c                  with -F or -P: their children too [buffer]\n"
"  --user USER         run the COMMAND as USER\n"
"Time:\n"
"  -C CLOCK            trace clock: local, global, mono, x86-tsc, ...\n"
"  --date              store how the clock maps to the wall clock (report\n"
"                      then prints the time of day)\n"
"  --ts-offset NSECS   add NSECS to every timestamp when reported\n"
"The ring buffers and the recorder:\n"
"  -b KB               ring buffer size per CPU, in KiB\n"
"  -B NAME             record into the instance NAME (made if missing)\n"
"  -M CPUMASK          trace only the CPUs in this hexadecimal mask\n"
"  -m KB               keep at most about KB KiB of data per CPU (newest)\n"
"  -s USECS            readers sleep at most USECS between moves (default\n"
"                      500000, or until a tenth of a ring buffer is full)\n"
"  --poll              readers never wait in the kernel (no wakeups; they\n"
"                      look every -s USECS)\n"
"  --flush-interval SECS  put what was read on disk (fdatasync) this often,\n"
"                      so that a panic or a power cut loses only the last\n"
"                      SECS or so (default 1; 0: leave it to the kernel's\n"
"                      writeback, half a minute or more); readers then\n"
"                      sleep at most SECS/2\n"
"  -r PRIO             readers run SCHED_FIFO at PRIO (1-99)\n"
"  --subbuf-size KB    ring buffer sub-buffer size, where the kernel has it\n"
"  --cmdlines-size N   saved_cmdlines_size while recording\n"
"  -k                  keep the tracing state at the end (events, tracer,\n"
"                      options, filters...): only tracing_on goes off\n"
"The file:\n"
"  -o FILE             output file (default trace.dat)\n"
"  --file-version 6|7  output format version (default 7)\n"
"  --compression ALG   none, zlib, zstd or any (default any, that is zstd)\n"
"Other:\n"
"  -q, --quiet         print nothing but errors\n"
"  --no-filter         trace record's own threads too (by default their\n"
"                      events are left out, as trace-cmd leaves its own)\n"
"  --stderr, --verbose[=LEVEL]  accepted, no effect (record prints on\n"
"                      stderr only)\n"
"  -h, --help          show this help\n"
"\n"
"Not implemented (refused, exit status 2): -A, -N, -V, -t, --proxy,\n"
"--name, --tsync-interval (guests, network), --profile, --by-comm, -S,\n"
"-G, -H (profiling), --proc-map, --module, --temp, --tsc2nsec,\n"
"--nosplice, --nofifos, --debug, --fork, and -v before -B (deleting an\n"
"instance).\n"
"\n"
"While recording, FILE.rec/ holds the pages and what tracefs held before;\n"
"if record is killed, \"tdat restore FILE\" turns what reached the disk\n"
"into FILE and puts tracefs back.\n";

enum {
	OPT_FILE_VERSION = 256,
	OPT_COMPRESSION,
	OPT_SUBBUF,
	OPT_NO_FILTER,
	OPT_DATE,
	OPT_TS_OFFSET,
	OPT_MAX_GRAPH_DEPTH,
	OPT_FUNC_STACK,
	OPT_USER,
	OPT_CMDLINES_SIZE,
	OPT_POLL,
	OPT_FLUSH_INTERVAL,
	OPT_STDERR,
	OPT_VERBOSE,
	/* trace-cmd's, not implemented */
	OPT_TEMP,
	OPT_MODULE,
	OPT_BY_COMM,
	OPT_PROFILE,
	OPT_PROC_MAP,
	OPT_TSC2NSEC,
	OPT_TSYNC,
	OPT_NAME,
	OPT_PROXY,
	OPT_DEBUG,
	OPT_NOSPLICE,
	OPT_NOFIFOS,
	OPT_FORK,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "subbuf-size", required_argument, NULL, OPT_SUBBUF },
	{ "no-filter", no_argument, NULL, OPT_NO_FILTER },
	{ "date", no_argument, NULL, OPT_DATE },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "max-graph-depth", required_argument, NULL, OPT_MAX_GRAPH_DEPTH },
	{ "func-stack", no_argument, NULL, OPT_FUNC_STACK },
	{ "user", required_argument, NULL, OPT_USER },
	{ "cmdlines-size", required_argument, NULL, OPT_CMDLINES_SIZE },
	{ "poll", no_argument, NULL, OPT_POLL },
	{ "flush-interval", required_argument, NULL, OPT_FLUSH_INTERVAL },
	{ "stderr", no_argument, NULL, OPT_STDERR },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "temp", required_argument, NULL, OPT_TEMP },
	{ "module", required_argument, NULL, OPT_MODULE },
	{ "by-comm", no_argument, NULL, OPT_BY_COMM },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "proc-map", no_argument, NULL, OPT_PROC_MAP },
	{ "tsc2nsec", no_argument, NULL, OPT_TSC2NSEC },
	{ "tsync-interval", required_argument, NULL, OPT_TSYNC },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "proxy", required_argument, NULL, OPT_PROXY },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "nosplice", no_argument, NULL, OPT_NOSPLICE },
	{ "nofifos", no_argument, NULL, OPT_NOFIFOS },
	{ "fork", no_argument, NULL, OPT_FORK },
	{ NULL, 0, NULL, 0 },
};

/* trace-cmd record's options that record refuses, and what they do. */
static const struct {
	int c;
	const char *name, *what;
} not_implemented[] = {
	{ 'A', "-A", "recording a guest" },
	{ 'N', "-N", "recording over the network" },
	{ 'V', "-V", "recording over a vsocket" },
	{ 't', "-t", "TCP for -N" },
	{ 'S', "-S", "--profile's own events only" },
	{ 'G', "-G", "--profile's global interrupts" },
	{ 'H', "-H", "event hooks for report --profile" },
	{ OPT_TEMP, "--temp", "temporary files elsewhere" },
	{ OPT_MODULE, "--module", "function filters by module" },
	{ OPT_BY_COMM, "--by-comm", "profiling by command name" },
	{ OPT_PROFILE, "--profile", "profiling" },
	{ OPT_PROC_MAP, "--proc-map", "process address maps" },
	{ OPT_TSC2NSEC, "--tsc2nsec", "TSC to nanoseconds" },
	{ OPT_TSYNC, "--tsync-interval", "guest time synchronization" },
	{ OPT_NAME, "--name", "naming an agent" },
	{ OPT_PROXY, "--proxy", "recording a guest through a proxy" },
	{ OPT_DEBUG, "--debug", "trace-cmd's debug output" },
	{ OPT_NOSPLICE, "--nosplice", "reading without splice" },
	{ OPT_NOFIFOS, "--nofifos", "guest FIFOs" },
	{ OPT_FORK, "--fork", "trace-cmd start's background mode" },
};

/* Parser state that is not in record_opts. */
struct parse_state {
	int neg;		/* -v seen */
	int have_comp;
	char *msg;
	size_t cap;
};

static int bad(struct parse_state *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct parse_state *ps, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(ps->msg, ps->cap, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(struct parse_state *ps)
{
	return bad(ps, "out of memory");
}

static struct rec_buf_opts *cur_buf(struct record_opts *o)
{
	return &o->bufs[o->nbufs - 1];
}

static struct rec_event *last_event(struct record_opts *o)
{
	struct rec_buf_opts *b = cur_buf(o);

	return b->nevents ? &b->events[b->nevents - 1] : NULL;
}

static int set_string(char **dst, const char *s, struct parse_state *ps)
{
	free(*dst);
	*dst = strdup(s);
	return *dst ? 0 : oom(ps);
}

/* -e, -f, -R, -B, -v: what is recorded, in which buffer. */
static int event_option(int c, const char *arg, struct record_opts *o,
			struct parse_state *ps)
{
	struct rec_event *last = last_event(o);

	switch (c) {
	case 'e':
		if (rarg_event_spec(arg))
			return bad(ps, "-e %s: not SYSTEM, SYSTEM:EVENT, EVENT"
				   " or all", arg);
		return rarg_add_event(cur_buf(o), arg, ps->neg) ? oom(ps) : 0;
	case 'f':
		if (!last)
			return bad(ps, "-f %s: a filter must follow the -e it"
				   " applies to", arg);
		if (last->filter)
			return bad(ps, "-f %s: the -e before it has a filter"
				   " already", arg);
		return set_string(&last->filter, arg, ps);
	case 'R':
		if (!last)
			return bad(ps, "-R %s: a trigger must follow the -e it"
				   " applies to", arg);
		if (!*arg || strchr(arg, '\n'))
			return bad(ps, "-R: not a trigger");
		return rarg_words_add(&last->triggers, arg) ? oom(ps) : 0;
	case 'v':
		ps->neg = 1;
		return 0;
	}
	/* 'B' */
	if (ps->neg)
		return bad(ps, "-v -B %s (deleting an instance) is not"
			   " implemented", arg);
	if (rarg_name(arg))
		return bad(ps, "-B %s: not a usable instance name", arg);
	return rarg_add_buffer(o, arg) ? 0 : oom(ps);
}

static int tracer_option(const char *arg, struct record_opts *o,
			 struct parse_state *ps)
{
	struct rec_buf_opts *b = cur_buf(o);
	size_t len;

	while (*arg == ' ' || *arg == '\t')
		arg++;
	len = strcspn(arg, " \t");
	if (!len || arg[len + strspn(arg + len, " \t")] || strchr(arg, '/'))
		return bad(ps, "-p '%s': not a tracer name", arg);
	if (b->tracer)
		return bad(ps, "-p %s: only one tracer per buffer (-p %s came"
			   " first)", arg, b->tracer);
	b->tracer = strndup(arg, len);
	return b->tracer ? 0 : oom(ps);
}

/* -p, -O, -T, -l, -n, -g, -P, -c, --max-graph-depth. */
static int buffer_option(int c, const char *arg, struct record_opts *o,
			 struct parse_state *ps)
{
	struct rec_buf_opts *b = cur_buf(o);
	struct rec_words *w = c == 'l' ? &b->funcs : c == 'n' ? &b->notrace :
			      &o->graph_funcs;
	long v;

	switch (c) {
	case 'p':
		return tracer_option(arg, o, ps);
	case 'O':
		if (rarg_word(arg))
			return bad(ps, "-O '%s': not an option name", arg);
		return rarg_words_add(&b->options, arg) ? oom(ps) : 0;
	case 'T':
		return rarg_words_add(&b->options, "stacktrace") ? oom(ps) : 0;
	case 'P':
		return rarg_add_pids(b, arg) ?
		       bad(ps, "-P %s: not a list of process ids", arg) : 0;
	case 'c':
		b->children = 1;
		return 0;
	case OPT_MAX_GRAPH_DEPTH:
		if (rarg_long(arg, 0, 0x7fffffff, &v))
			return bad(ps, "--max-graph-depth %s: not a depth", arg);
		b->graph_depth = v;
		return 0;
	}
	/* -l, -n, -g */
	if (!*arg || strchr(arg, '\n'))
		return bad(ps, "-%c: not a function name", c);
	return rarg_words_add(w, arg) ? oom(ps) : 0;
}

/* -C, -b, -m, -M, -o, -s, -r, --flush-interval, --subbuf-size,
 * --cmdlines-size. */
static int setting_option(int c, const char *arg, struct record_opts *o,
			  struct parse_state *ps)
{
	long v;

	switch (c) {
	case 'C':
		if (rarg_word(arg))
			return bad(ps, "-C '%s': not a clock name", arg);
		return set_string(&o->clock, arg, ps);
	case 'b':
	case 'm':
	case OPT_SUBBUF:
		if (rarg_kb(arg, &v))
			return bad(ps, "%s %s: not a size in KiB",
				   c == OPT_SUBBUF ? "--subbuf-size" :
				   c == 'b' ? "-b" : "-m", arg);
		*(c == 'b' ? &o->buffer_kb : c == 'm' ? &o->max_kb :
		  &o->subbuf_kb) = v;
		return 0;
	case 'M':
		if (rarg_cpumask(arg))
			return bad(ps, "-M %s: not a hexadecimal CPU mask", arg);
		return set_string(&o->cpumask, arg, ps);
	case 'o':
		if (!*arg)
			return bad(ps, "-o: empty file name");
		return set_string(&o->output, arg, ps);
	case 's':
		if (rarg_long(arg, 0, 60000000, &o->sleep_us))
			return bad(ps, "-s %s: not a number of microseconds"
				   " (at most 60 s)", arg);
		return 0;
	case OPT_FLUSH_INTERVAL:
		if (rarg_seconds(arg, 3600000, &o->flush_ms))
			return bad(ps, "--flush-interval %s: not a number of"
				   " seconds (at most 3600, 0: off)", arg);
		return 0;
	case 'r':
		if (rarg_long(arg, 1, 99, &v))
			return bad(ps, "-r %s: not a real-time priority (1-99)",
				   arg);
		o->rt_prio = (int)v;
		return 0;
	}
	/* --cmdlines-size */
	if (rarg_long(arg, 1, 0x7fffffff, &o->cmdlines_size))
		return bad(ps, "--cmdlines-size %s: not a number of entries",
			   arg);
	return 0;
}

/* Flags and the file format. */
static int global_option(int c, const char *arg, struct record_opts *o,
			 struct parse_state *ps)
{
	switch (c) {
	case 'q':	o->quiet = 1;			return 0;
	case 'F':	o->follow = 1;			return 0;
	case 'i':	o->ignore_missing = 1;		return 0;
	case 'k':	o->keep = 1;			return 0;
	case 'a':	o->all_formats = 1;		return 0;
	case 'd':
		if (o->ftrace_off < REC_FTRACE_OFF_OPT)
			o->ftrace_off = REC_FTRACE_OFF_OPT;
		return 0;
	case 'D':	o->ftrace_off = REC_FTRACE_OFF_ALL;	return 0;
	case OPT_DATE:	o->date = 1;			return 0;
	case OPT_FUNC_STACK: o->func_stack = 1;		return 0;
	case OPT_POLL:	o->poll = 1;			return 0;
	case OPT_NO_FILTER: o->no_filter = 1;		return 0;
	case OPT_STDERR:
	case OPT_VERBOSE:
		return 0;
	case OPT_TS_OFFSET:
		if (rarg_offset(arg))
			return bad(ps, "--ts-offset %s: not a number", arg);
		return set_string(&o->ts_offset, arg, ps);
	case OPT_USER:
		if (!*arg)
			return bad(ps, "--user: empty user name");
		return set_string(&o->user, arg, ps);
	case OPT_FILE_VERSION:
		if (strcmp(arg, "6") && strcmp(arg, "7"))
			return bad(ps, "--file-version %s: only 6 and 7 exist",
				   arg);
		o->version = arg[0] - '0';
		return 0;
	case OPT_COMPRESSION:
		if (rarg_compression(arg, &o->codec))
			return bad(ps, "--compression %s: not none, zlib, zstd"
				   " or any", arg);
		ps->have_comp = 1;
		return 0;
	}
	return 1;	/* not one of these */
}

/* c is a short option of set (long ones are 256 and up). */
static int is_one_of(int c, const char *set)
{
	return c > 0 && c < 256 && strchr(set, c);
}

/* One option; 0, 1 for help, -1 with the message. */
static int one_option(int c, const char *arg, struct record_opts *o,
		      struct parse_state *ps)
{
	size_t i;
	int r;

	if (c == 'h')
		return 1;
	if (is_one_of(c, "efRvB"))
		return event_option(c, arg, o, ps);
	if (is_one_of(c, "pOTPlngc") || c == OPT_MAX_GRAPH_DEPTH)
		return buffer_option(c, arg, o, ps);
	if (is_one_of(c, "CbmMosr") || c == OPT_SUBBUF ||
	    c == OPT_CMDLINES_SIZE || c == OPT_FLUSH_INTERVAL)
		return setting_option(c, arg, o, ps);
	r = global_option(c, arg, o, ps);
	if (r <= 0)
		return r;
	for (i = 0; i < sizeof(not_implemented) / sizeof(not_implemented[0]);
	     i++)
		if (not_implemented[i].c == c)
			return bad(ps, "%s (%s) is not implemented",
				   not_implemented[i].name,
				   not_implemented[i].what);
	return bad(ps, "unknown option (see --help)");
}

/* What the buffers' options say together. */
static int check_buffers(struct record_opts *o, struct parse_state *ps)
{
	int i, j, recorded = 0, children = 0, pids = o->follow;

	for (i = 0; i < o->nbufs; i++) {
		struct rec_buf_opts *b = &o->bufs[i];

		recorded += b->nevents || b->tracer;
		children |= b->children;
		pids |= b->npids > 0;
		if (i && !b->nevents && !b->tracer)
			return bad(ps, "-B %s: no -e or -p after it", b->name);
		for (j = 1; j < i; j++)
			if (!strcmp(b->name, o->bufs[j].name))
				return bad(ps, "-B %s given twice", b->name);
		if (i && rec_is_latency_tracer(b->tracer))
			return bad(ps, "-p %s: a latency tracer records in the"
				   " top buffer only", b->tracer);
	}
	if (!recorded)
		return bad(ps, "nothing to record (give -e or -p)");
	if (rec_is_latency_tracer(o->bufs[0].tracer) && o->nbufs > 1)
		return bad(ps, "-p %s: a latency tracer records alone (no -B)",
			   o->bufs[0].tracer);
	if (children && !pids)
		return bad(ps, "-c: follows the children of -F or -P, and"
			   " neither was given");
	return 0;
}

/* What the options say together. */
static int check_all(struct record_opts *o, struct parse_state *ps)
{
	const char *top_tracer = o->bufs[0].tracer;

	if (check_buffers(o, ps))
		return -1;
	if (o->func_stack && (!top_tracer ||
			      strncmp(top_tracer, "function", 8) ||
			      !o->bufs[0].funcs.n))
		return bad(ps, "--func-stack needs -p function and -l (a stack"
			   " at every function of the kernel stalls it)");
	if (o->date && o->ts_offset)
		return bad(ps, "--date and --ts-offset do not go together");
	if (o->user && !o->cmd)
		return bad(ps, "--user %s: there is no COMMAND to run",
			   o->user);
	if (o->version == 6 && ps->have_comp && o->codec != TDAT_CODEC_NONE)
		return bad(ps, "--compression %s needs --file-version 7",
			   tdat_codec_name(o->codec));
	if (o->version == 6)
		o->codec = TDAT_CODEC_NONE;
	if (!o->output)
		o->output = strdup("trace.dat");
	return o->output ? 0 : oom(ps);
}

/* trace-cmd's short options; those it has and record has not are taken
 * too, to be refused by name. */
#define SHORTOPTS "+:hae:f:R:p:FP:cC:Tl:g:n:m:M:vdDo:O:s:r:b:B:kiqA:N:V:tSGH:"

int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      char *msg, size_t cap)
{
	struct parse_state ps = { 0, 0, msg, cap };
	int c, r;

	memset(o, 0, sizeof(*o));
	o->version = 7;
	o->codec = TDAT_CODEC_ZSTD;
	o->sleep_us = -1;
	o->flush_ms = REC_FLUSH_MS;
	if (!rarg_add_buffer(o, ""))
		return oom(&ps);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, SHORTOPTS, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			getopt_msg(msg, cap, c, argv, optind, longopts);
			return -1;
		}
		r = one_option(c, optarg, o, &ps);
		if (r)
			return r;
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	return check_all(o, &ps);
}

void record_opts_free(struct record_opts *o)
{
	int i;

	for (i = 0; i < o->nbufs; i++)
		rarg_buffer_free(&o->bufs[i]);
	free(o->bufs);
	free(o->clock);
	free(o->cpumask);
	free(o->output);
	free(o->ts_offset);
	free(o->user);
	rarg_words_free(&o->graph_funcs);
	memset(o, 0, sizeof(*o));
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	char msg[512];
	int r;

	cmd_name = "record";
	r = record_opts_parse(argc, argv, &o, msg, sizeof(msg));
	if (r == 1) {
		fputs(usage, stdout);
		record_opts_free(&o);
		return 0;
	}
	if (r == 0 && o.user && !getpwnam(o.user))
		r = bad(&(struct parse_state){ 0, 0, msg, sizeof(msg) },
			"--user %s: no such user", o.user);
	if (r < 0) {
		record_opts_free(&o);
		return usage_error("%s", msg);
	}
	r = record_run(&o);
	record_opts_free(&o);
	return r;
}
