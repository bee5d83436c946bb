/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - the record applet: record events through tracefs into a
 * trace.dat.  Its command line is read here into a struct record_opts
 * (convert/record/record.h); the recording is record_run's.
 *
 * trace-cmd record's meaning: -e and -f apply to the buffer named by the
 * last -B (the top buffer before any), -f to the -e just before it, and
 * the first argument that is not an option starts the COMMAND, whose own
 * options are left alone.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "convert/record/record.h"

static const char usage[] =
"usage: tdat record [OPTIONS] [COMMAND [ARGS...]]\n"
"\n"
"Record events through tracefs into a trace.dat file.  With a COMMAND,\n"
"trace until it exits (its exit status is reported and becomes record's);\n"
"without one, until SIGINT or SIGTERM.  Needs root.\n"
"\n"
"  -e SYSTEM[:EVENT]   enable these events (repeatable; EVENT alone or\n"
"                      \"all\": every one)\n"
"  -f FILTER           filter for the preceding -e\n"
"  -C CLOCK            trace clock: local, global, mono, x86-tsc, ...\n"
"  -b KB               ring buffer size per CPU, in KiB\n"
"  -B NAME             record into the instance NAME (made if missing);\n"
"                      the -e options after it apply to that instance\n"
"  -M CPUMASK          trace only the CPUs in this hexadecimal mask\n"
"  -m KB               keep at most about KB KiB of data per CPU (newest)\n"
"  -o FILE             output file (default trace.dat)\n"
"  -q, --quiet         print nothing but errors\n"
"  --file-version 6|7  output format version (default 7)\n"
"  --compression ALG   none, zlib, zstd or any (default any, that is zstd)\n"
"  --subbuf-size KB    ring buffer sub-buffer size, where the kernel has it\n"
"  --no-filter         no effect: record's own threads are never filtered\n"
"                      out (accepted because trace-cmd has it)\n"
"  -h, --help          show this help\n"
"\n"
"While recording, FILE.rec/ holds the pages; if record is killed,\n"
"\"tdat restore FILE\" turns what reached the disk into FILE.\n";

enum {
	OPT_FILE_VERSION = 256,
	OPT_COMPRESSION,
	OPT_SUBBUF,
	OPT_NO_FILTER,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "subbuf-size", required_argument, NULL, OPT_SUBBUF },
	{ "no-filter", no_argument, NULL, OPT_NO_FILTER },
	{ NULL, 0, NULL, 0 },
};

static int bad(char *msg, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *msg, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(msg, cap, fmt, ap);
	va_end(ap);
	return -1;
}

/* A positive decimal number of KiB, at most 64 GiB. */
static int parse_kb(const char *s, long *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n <= 0 || n > (64L << 20))
		return -1;
	*v = n;
	return 0;
}

static int valid_cpumask(const char *s)
{
	int digits = 0;

	for (; *s; s++) {
		if (*s == ',')
			continue;
		if (!strchr("0123456789abcdefABCDEF", *s))
			return 0;
		digits++;
	}
	return digits > 0;
}

/* Instance names become directory names under instances/. */
static int valid_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..") &&
	       !strchr(s, '\n') && !strchr(s, ' ');
}

static struct rec_buf_opts *add_buffer(struct record_opts *o, const char *name)
{
	struct rec_buf_opts *b;

	b = realloc(o->bufs, (size_t)(o->nbufs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	o->bufs = b;
	b = &o->bufs[o->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name)
		return NULL;
	o->nbufs++;
	return b;
}

/* SYSTEM, SYSTEM:EVENT, EVENT (system NULL and event set) or all. */
static int add_event(struct rec_buf_opts *b, const char *spec)
{
	struct rec_event *e;
	const char *colon = strchr(spec, ':');

	e = realloc(b->events, (size_t)(b->nevents + 1) * sizeof(*e));
	if (!e)
		return -1;
	b->events = e;
	e = &b->events[b->nevents++];
	memset(e, 0, sizeof(*e));
	if (!strcmp(spec, "all"))
		return 0;
	if (colon) {
		e->system = strndup(spec, (size_t)(colon - spec));
		if (colon[1] && strcmp(colon + 1, "*"))
			e->event = strdup(colon + 1);
		return !e->system || (colon[1] && strcmp(colon + 1, "*") &&
				      !e->event) ? -1 : 0;
	}
	/* SYSTEM or EVENT: told apart against tracefs at setup; kept as
	 * system for now, with event NULL. */
	e->system = strdup(spec);
	return e->system ? 0 : -1;
}

static int check_event_spec(const char *spec)
{
	const char *colon = strchr(spec, ':');

	if (!*spec || spec[0] == ':' || strchr(spec, '/') ||
	    (colon && strchr(colon + 1, ':')))
		return -1;
	return 0;
}

static int parse_compression(const char *s, enum tdat_codec *c)
{
	if (!strcmp(s, "any")) {
		*c = TDAT_CODEC_ZSTD;
		return 0;
	}
	return tdat_codec_by_name(s, c);
}

/* -e, -f and -B: what is recorded, in which buffer.  0, or -1 with msg. */
static int buffer_option(int c, const char *arg, struct record_opts *o,
			 char *msg, size_t cap)
{
	struct rec_buf_opts *b = &o->bufs[o->nbufs - 1];
	struct rec_event *last;

	switch (c) {
	case 'e':
		if (check_event_spec(arg))
			return bad(msg, cap, "-e %s: not SYSTEM, SYSTEM:EVENT,"
				   " EVENT or all", arg);
		return add_event(b, arg) ? bad(msg, cap, "out of memory") : 0;
	case 'f':
		if (!b->nevents)
			return bad(msg, cap, "-f %s: a filter must follow the"
				   " -e it applies to", arg);
		last = &b->events[b->nevents - 1];
		if (last->filter)
			return bad(msg, cap, "-f %s: the -e before it has a"
				   " filter already", arg);
		last->filter = strdup(arg);
		return last->filter ? 0 : bad(msg, cap, "out of memory");
	case 'B':
		if (!valid_name(arg))
			return bad(msg, cap, "-B %s: not a usable instance"
				   " name", arg);
		return add_buffer(o, arg) ? 0 : bad(msg, cap, "out of memory");
	}
	return bad(msg, cap, "unknown option (see --help)");
}

/* One option; 0, 1 for help, -1 with msg. */
static int one_option(int c, const char *arg, struct record_opts *o,
		      int *have_comp, char *msg, size_t cap)
{
	switch (c) {
	case 'h':
		return 1;
	case 'q':
		o->quiet = 1;
		return 0;
	case 'e':
	case 'f':
	case 'B':
		return buffer_option(c, arg, o, msg, cap);
	case 'C':
		if (!*arg || strchr(arg, ' ') || strchr(arg, '\n'))
			return bad(msg, cap, "-C '%s': not a clock name", arg);
		free(o->clock);
		o->clock = strdup(arg);
		return 0;
	case 'b':
		return parse_kb(arg, &o->buffer_kb) ?
		       bad(msg, cap, "-b %s: not a size in KiB", arg) : 0;
	case 'm':
		return parse_kb(arg, &o->max_kb) ?
		       bad(msg, cap, "-m %s: not a size in KiB", arg) : 0;
	case 'M':
		if (!valid_cpumask(arg))
			return bad(msg, cap, "-M %s: not a hexadecimal CPU"
				   " mask", arg);
		free(o->cpumask);
		o->cpumask = strdup(arg);
		return 0;
	case 'o':
		if (!*arg)
			return bad(msg, cap, "-o: empty file name");
		free(o->output);
		o->output = strdup(arg);
		return 0;
	case OPT_FILE_VERSION:
		if (strcmp(arg, "6") && strcmp(arg, "7"))
			return bad(msg, cap, "--file-version %s: only 6 and 7"
				   " exist", arg);
		o->version = arg[0] - '0';
		return 0;
	case OPT_COMPRESSION:
		if (parse_compression(arg, &o->codec))
			return bad(msg, cap, "--compression %s: not none,"
				   " zlib, zstd or any", arg);
		*have_comp = 1;
		return 0;
	case OPT_SUBBUF:
		return parse_kb(arg, &o->subbuf_kb) ?
		       bad(msg, cap, "--subbuf-size %s: not a size in KiB",
			   arg) : 0;
	case OPT_NO_FILTER:	/* trace-cmd's; record sets no pid filters */
		return 0;
	}
	return bad(msg, cap, "unknown option (see --help)");
}

/* What the options say together. */
static int check_all(struct record_opts *o, int have_comp, char *msg,
		     size_t cap)
{
	int i, j, total = 0;

	for (i = 0; i < o->nbufs; i++) {
		total += o->bufs[i].nevents;
		if (i && !o->bufs[i].nevents)
			return bad(msg, cap, "-B %s: no -e after it",
				   o->bufs[i].name);
		for (j = 1; j < i; j++)
			if (!strcmp(o->bufs[i].name, o->bufs[j].name))
				return bad(msg, cap, "-B %s given twice",
					   o->bufs[i].name);
	}
	if (!total)
		return bad(msg, cap, "no events to record (give -e)");
	if (o->version == 6 && have_comp && o->codec != TDAT_CODEC_NONE)
		return bad(msg, cap, "--compression %s needs --file-version 7",
			   tdat_codec_name(o->codec));
	if (o->version == 6)
		o->codec = TDAT_CODEC_NONE;
	if (!o->output)
		o->output = strdup("trace.dat");
	return o->output ? 0 : bad(msg, cap, "out of memory");
}

int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      char *msg, size_t cap)
{
	int c, r, have_comp = 0;

	memset(o, 0, sizeof(*o));
	o->version = 7;
	o->codec = TDAT_CODEC_ZSTD;
	if (!add_buffer(o, ""))
		return bad(msg, cap, "out of memory");
	optind = 0;
	opterr = 0;
	/* "+": the first non-option starts the command. */
	while ((c = getopt_long(argc, argv, "+:he:f:B:C:b:m:M:o:q", longopts,
				NULL)) != -1) {
		if (c == '?' || c == ':') {
			getopt_msg(msg, cap, c, argv, optind, longopts);
			return -1;
		}
		r = one_option(c, optarg, o, &have_comp, msg, cap);
		if (r)
			return r;
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	return check_all(o, have_comp, msg, cap);
}

void record_opts_free(struct record_opts *o)
{
	int i, j;

	for (i = 0; i < o->nbufs; i++) {
		for (j = 0; j < o->bufs[i].nevents; j++) {
			free(o->bufs[i].events[j].system);
			free(o->bufs[i].events[j].event);
			free(o->bufs[i].events[j].filter);
		}
		free(o->bufs[i].events);
		free(o->bufs[i].name);
	}
	free(o->bufs);
	free(o->clock);
	free(o->cpumask);
	free(o->output);
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
	if (r < 0) {
		record_opts_free(&o);
		return usage_error("%s", msg);
	}
	r = record_run(&o);
	record_opts_free(&o);
	return r;
}
