/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - the report's event loop: the merged stream read on one
 * thread, its lines formatted on others, written in order.
 */
#ifndef PIPELINE_H
#define PIPELINE_H

#include "convert/events/stream.h"
#include "convert/report/print.h"
#include "convert/report/inview.h"
#include "convert/report/report.h"

/*
 * Print every event of s that passes its input's filter through p's
 * line hook, in stream order.  With several CPUs the lines are made by
 * worker threads, each with its own copy of *p (o and seq its own) and
 * its own tep handles: line() must keep any other state of p read-only.
 */
void report_print_events(struct printer *p, struct stream *s,
			 struct input *in, struct input_view *views,
			 const struct report_opts *ro);

/* ---- ksyms.c ---- */

/* Functions of a worker handle resolved through a main handle that
 * holds the kallsyms; src is only read, after ksyms_prepare(src). */
struct ksyms;
void ksyms_prepare(struct tep_handle *src);
struct ksyms *ksyms_attach(struct tep_handle *tep, struct tep_handle *src);
void ksyms_free(struct ksyms *k);

#endif
