/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - report's main loop: inputs, the merged stream, the lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/report/report.h"
#include "convert/report/info.h"
#include "convert/report/inview.h"
#include "convert/report/event_formats.h"
#include "convert/report/json.h"
#include "convert/report/pipeline.h"

/*
 * Each input's cpus= line, in order.  -T instead prints the first
 * input's filters that has any and stops there: 1 then.
 */
static int print_heads(struct outbuf *o, const struct report_opts *ro,
		       struct input *in, struct input_view *views)
{
	int k;

	for (k = 0; k < ro->ev.ninputs; k++) {
		if (ro->test_filters && views[k].filter.n) {
			event_filter_dump(&views[k].filter, o);
			return 1;
		}
		outbuf_printf(o, "%scpus=%u\n", views[k].cpus_label,
			      tdat_cpus(in[k].f));
	}
	return 0;
}

/* A latency tracer's file: the kernel's "trace" text, no events. */
static int is_latency(const struct input *in)
{
	const struct tdat_buffer *top = tdat_top_buffer(in->f);

	return top && top->latency;
}

/* trace-cmd prints the text (up to a NUL, as printf's "%.*s") after the
 * cpus= line, then a newline, and nothing else. */
static int print_latency(struct outbuf *o, struct input *in)
{
	struct tdat_error err;
	struct tdat_blob text;
	int buf = (int)(tdat_top_buffer(in->f) - in->f->buffers);

	if (tdat_read_latency(in->f, buf, &text, &err)) {
		fprintf(stderr, "tdat report: %s\n", err.msg);
		return 1;
	}
	outbuf_put(o, (const char *)text.data,
		   text.data ? strnlen((const char *)text.data, text.len) : 0);
	outbuf_putc(o, '\n');
	free(text.data);
	return 0;
}

static int report_events(const struct report_opts *ro, struct input *in,
			 struct input_view *views, const struct cpu_set *cpus)
{
	struct print_opts po;
	struct printer p;
	struct stream s;
	struct outbuf o;
	int k, ret = 0;

	stream_init(&s, &ro->ev);
	memset(&po, 0, sizeof(po));
	po.full_ns = ro->full_ns;
	po.raw = ro->raw;
	po.latency = ro->latency;
	po.ts_diff = ro->ts_diff;
	po.layout34 = ro->layout34;
	outbuf_init(&o, stdout);
	print_init(&p, &o, &po);
	for (k = 0; k < ro->ev.ninputs; k++)
		if (is_latency(&in[k]) && ro->ev.ninputs > 1) {
			fprintf(stderr, "tdat report: %s: latency traces do not"
				" work with multiple inputs\n", in[k].path);
			ret = 1;
			goto out;
		}
	if (ro->json)	/* no cpus= lines: every line is an object */
		json_printer_init(&p, ro->ev.ninputs > 1);
	else if (print_heads(&o, ro, in, views))
		goto out;
	if (is_latency(&in[0])) {
		if (!ro->json)
			ret = print_latency(&o, &in[0]);
		goto out;
	}
	if (stream_start(&s, &ro->ev, in, cpus ? cpu_set_has : NULL, cpus))
		ret = 1;
	else
		report_print_events(&p, &s, in, views, ro);
	stream_report_progress(&s);	/* all read: the line goes */
out:
	if (outbuf_flush(&o)) {
		fprintf(stderr, "tdat report: write error on output\n");
		ret = 1;
	}
	stream_tell(&s);
	if (s.skipped)
		ret = 1;
	print_done(&p);
	outbuf_free(&o);
	stream_free(&s);
	return ret;
}

int report_run(const struct report_opts *ro)
{
	struct cpu_set cpus, *only = NULL;
	struct input_view *views = NULL;
	struct input *in = NULL;
	char err[600];
	int ret;

	/* trace-cmd's order: -e, --events, --event, then the others. */
	if (ro->event_regex && !(ro->show & (SHOW_ENDIAN | SHOW_FORMATS)))
		return report_event_formats(ro);
	if (ro->show)
		return report_info(ro);
	if (ro->cpu_list) {
		if (cpu_set_parse(&cpus, ro->cpu_list, err, sizeof(err))) {
			fprintf(stderr, "tdat report: %s\n", err);
			cpu_set_free(&cpus);
			return 2;
		}
		only = &cpus;
	}
	if (views_open(&in, &views, ro, err, sizeof(err), &ret))
		inputs_open_failed(&ro->ev, err);
	else
		ret = report_events(ro, in, views, only);
	views_close(in, views, ro->ev.ninputs);
	if (only)
		cpu_set_free(only);
	return ret;
}
