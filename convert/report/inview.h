/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inview.h - how report shows each input of the stream: its filters,
 * the labels trace-cmd puts before its lines, its function_graph
 * events, and whether its times are sec.usec.
 */
#ifndef INVIEW_H
#define INVIEW_H

#include "convert/events/inputs.h"
#include "convert/report/report.h"
#include "convert/report/filter.h"
#include "convert/report/funcgraph.h"

struct input_view {
	struct event_filter filter;
	struct tdat_bytes filter_copy;	/* a record as -F reads it on a
					 * big-endian host (hostptr.c) */
	int filtering;		/* filter has anything to check */
	int time_is_ns;		/* show sec.usec, not raw clock counts */
	int has_clock;		/* the input has a TRACECLOCK option */
	char *cpus_label;	/* before "cpus=N" ("" with one input) */
	char **labels;		/* per buffer: line prefix, or NULL */
	int nlabels;
	struct fgraph fg;	/* its function_graph events */
	int fg_on;		/* printed as trace-cmd does (not -N, -R,
				 * --json) */
};

/*
 * Open every input of ro (inputs_open) with its view, in order.  0, or
 * -1 with a one-line message in err; *status is then the exit status (1
 * an unreadable file, 2 a bad filter).  views_close() is needed either
 * way.
 */
int views_open(struct input **in, struct input_view **views,
	       const struct report_opts *ro, char *err, size_t cap,
	       int *status);
void views_close(struct input *in, struct input_view *views, int n);

/* Whether f's timestamps show as sec.usec (else raw clock counts). */
int input_time_is_ns(const struct report_opts *ro, const struct tdat_file *f,
		     int *has_clock);
/* The label before input k's cpus= line: its base name right-aligned to
 * the longest input's, "" with one input. */
void input_cpus_label(const struct report_opts *ro, int k, char *buf,
		      size_t cap);

#endif
