/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - the report engine's interface: the options cmds/report.c
 * parses, and the call that prints the events (text or --json) of the
 * event stream (convert/events/).  The engine's own declarations are
 * in the headers beside it.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "convert/events/events.h"

#define REPORT_MAX_FILTERS 64

struct report_filter {
	const char *text;	/* -F, libtraceevent filter syntax */
	int negate;		/* a -v came before it */
	int after;		/* how many -i came before it */
};

/* What to show instead of the events (print and exit), as bits. */
enum {
	SHOW_ENDIAN = 1 << 0,	/* -e */
	SHOW_FUNCS = 1 << 1,	/* -f */
	SHOW_PRINTK = 1 << 2,	/* -P */
	SHOW_EVENT_LIST = 1 << 3,	/* -E */
	SHOW_FORMATS = 1 << 4,	/* --events */
	SHOW_STAT = 1 << 5,	/* --stat */
	SHOW_UNAME = 1 << 6,	/* --uname */
	SHOW_VERSION = 1 << 7,	/* --version */
	SHOW_CPUS = 1 << 8,	/* --cpus */
	SHOW_FIRST = 1 << 9,	/* --first-event */
	SHOW_LAST = 1 << 10,	/* --last-event */
};

struct report_opts {
	struct events_opts ev;	/* the inputs (-i) and how their times
				 * show: -N, --raw-ts, --nodate, ... */
	struct report_filter filters[REPORT_MAX_FILTERS];
	int nfilters;
	unsigned show;		/* SHOW_* bits; 0 = print the events */
	const char *event_regex;/* --event */
	const char *cpu_list;	/* --cpu (several: cpu_lists) */
	char cpu_lists[256];	/* several --cpu: joined, as they add up */
	int raw;		/* -R */
	int full_ns;		/* -t */
	int latency;		/* -l */
	int no_hardirq;		/* -I */
	int no_softirq;		/* -S */
	int test_filters;	/* -T */
	int quiet;		/* -q */
	int ts_diff;		/* --ts-diff */
	int layout34;		/* --layout 3.4: trace-cmd 3.3+'s line layout */
	int json;		/* --json */
};

/* Print the events (or what ro->show asks for) to stdout, warnings and
 * errors to stderr.  Returns the exit status: 0, 1, or 2 for a filter or
 * --cpu list that does not parse. */
int report_run(const struct report_opts *ro);

#endif
