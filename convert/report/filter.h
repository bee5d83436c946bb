/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter.h - which events report shows: --cpu, -F/-v, -I and -S.
 *
 * Semantics are trace-cmd 3.1.6's (checked live): each -F is its own
 * libtraceevent filter; an event is shown when it matches one of the
 * positive filters (or there are none) and none of the -v ones.  -F
 * options given before the second -i belong to the first input, later
 * ones to the -i before them.
 */
#ifndef FILTER_H
#define FILTER_H

#include <stdint.h>
#include <event-parse.h>
#include "convert/report/print.h"
#include "convert/report/report.h"

/* --cpu LIST: "0,2-3" (',' ':' or ' ' between items). */
struct cpu_set {
	struct { int lo, hi; } *ranges;
	int n;
};

/* 0, or -1 with a one-line message in err. */
int cpu_set_parse(struct cpu_set *set, const char *list, char *err,
		  size_t cap);
/* For stream_add_cpus(): 1 if cpu is in the set. */
int cpu_set_has(const void *set, int cpu);
void cpu_set_free(struct cpu_set *set);

/* The filters of one input (all its buffers share them). */
struct event_filter {
	struct tep_event_filter **f;	/* one per -F, command-line order */
	uint8_t *negate;
	int n, npos;			/* all, and those without -v */
	int no_hardirq, no_softirq;	/* -I, -S */
};

/* Build input number input's filters on its tep handle; -1 with err. */
int event_filter_init(struct event_filter *ef, const struct report_opts *ro,
		      int input, struct tep_handle *tep, char *err,
		      size_t cap);
/* 1 if rec is to be shown. */
int event_filter_keep(const struct event_filter *ef, struct tep_handle *tep,
		      struct tep_record *rec);
/* -T: every filter as libtraceevent understood it, per event. */
void event_filter_dump(const struct event_filter *ef, struct outbuf *o);
void event_filter_free(struct event_filter *ef);

#endif
