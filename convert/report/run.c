/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - report's main loop: inputs, the merged stream, the lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/report_internal.h"
#include "convert/report/print.h"
#include "convert/report/report.h"
#include "convert/report/info.h"
#include "convert/report/inputs.h"
#include "convert/report/event_formats.h"
#include "convert/report/json.h"
#include "convert/report/pipeline.h"
#include "convert/repair_hint.h"

static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat %s: %s\n", (const char *)ctx, msg);
}

static const char *applet(const struct report_opts *ro)
{
	return ro->applet ? ro->applet : "report";
}

/*
 * --align-ts: timestamps count from the earliest first event of the
 * inputs' top buffers (instances are not looked at, as in trace-cmd:
 * their earlier events wrap around below zero).
 */
static void align_ts(struct stream *s, struct input *in, int n)
{
	uint64_t first, base = UINT64_MAX;
	int k;

	for (k = 0; k < n; k++)
		if (tdat_top_buffer(in[k].f) &&	/* buffer 0 then */
		    stream_first_ts(in[k].f, 0, &s->adjust[k], &first) &&
		    first < base)
			base = first;
	if (base == UINT64_MAX)
		return;
	for (k = 0; k < n; k++)
		s->adjust[k].offset -= (int64_t)base;
}

/*
 * Scan order (FORMAT.md 7.7): the top buffer of each input, then the
 * instances of each.  --cpu keeps the first input's top buffer only,
 * as trace-cmd 3.1.6 does.
 */
static int add_buffers(struct stream *s, struct input *in, int n,
		       const struct cpu_set *cpus, const char *who)
{
	struct tdat_error err;
	int k, b;

	for (k = 0; k < n; k++) {
		if (!tdat_top_buffer(in[k].f))
			continue;
		/* With function_graph events, trace-cmd decides a leaf by
		 * the next event of any CPU (funcgraph.c): all are read. */
		if (cpus && (in[k].fg_on ?
			     stream_add_cpus_hidden(s, in[k].f, k, 0,
						    cpu_set_has, cpus, &err) :
			     stream_add_cpus(s, in[k].f, k, 0, cpu_set_has,
					     cpus, &err)))
			goto fail;
		if (cpus)
			return 0;
		if (stream_add_buffer(s, in[k].f, k, 0, &err))
			goto fail;
	}
	for (k = 0; k < n && !cpus; k++)
		for (b = 0; b < in[k].f->nbuffers; b++)
			if (in[k].f->buffers[b].name[0] &&
			    stream_add_buffer(s, in[k].f, k, b, &err))
				goto fail;
	return 0;
fail:
	fprintf(stderr, "tdat %s: %s\n", who, err.msg);
	return -1;
}

/*
 * Each input's cpus= line, in order.  -T instead prints the first
 * input's filters that has any and stops there: 1 then.
 */
static int print_heads(struct outbuf *o, const struct report_opts *ro,
		       struct input *in)
{
	int k;

	for (k = 0; k < ro->ninputs; k++) {
		if (ro->test_filters && in[k].filter.n) {
			event_filter_dump(&in[k].filter, o);
			return 1;
		}
		outbuf_printf(o, "%scpus=%u\n", in[k].cpus_label,
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

static void stream_init(struct stream *s, const struct report_opts *ro)
{
	memset(s, 0, sizeof(*s));
	s->warn = warn_stderr;
	s->warn_ctx = (void *)applet(ro);
	s->progress = ro->progress;
	s->progress_ctx = ro->progress_ctx;
	s->any_order = ro->any_order;
}

/* Every input's buffers in s, timestamps adjusted as ro says.  0, or -1
 * (said on stderr). */
static int stream_start(struct stream *s, const struct report_opts *ro,
			struct input *in, const struct cpu_set *cpus)
{
	int k;

	for (k = 0; k < ro->ninputs; k++)
		input_adjust(ro, &ro->inputs[k], in[k].f, &s->adjust[k]);
	if (ro->align_ts && !ro->raw_ts)
		align_ts(s, in, ro->ninputs);
	return add_buffers(s, in, ro->ninputs, cpus, applet(ro));
}

static int report_events(const struct report_opts *ro, struct input *in,
			 const struct cpu_set *cpus)
{
	struct print_opts po;
	struct printer p;
	struct stream s;
	struct outbuf o;
	int k, ret = 0;

	stream_init(&s, ro);
	memset(&po, 0, sizeof(po));
	po.full_ns = ro->full_ns;
	po.raw = ro->raw;
	po.latency = ro->latency;
	po.ts_diff = ro->ts_diff;
	po.layout34 = ro->layout34;
	outbuf_init(&o, stdout);
	print_init(&p, &o, &po);
	for (k = 0; k < ro->ninputs; k++)
		if (is_latency(&in[k]) && ro->ninputs > 1) {
			fprintf(stderr, "tdat report: %s: latency traces do not"
				" work with multiple inputs\n", in[k].path);
			ret = 1;
			goto out;
		}
	if (ro->json)	/* no cpus= lines: every line is an object */
		json_printer_init(&p, ro->ninputs > 1);
	else if (print_heads(&o, ro, in))
		goto out;
	if (is_latency(&in[0])) {
		if (!ro->json)
			ret = print_latency(&o, &in[0]);
		goto out;
	}
	if (stream_start(&s, ro, in, cpus))
		ret = 1;
	else
		report_print_events(&p, &s, in, ro);
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

/* An input that would not open; damage at an offset points at restore. */
static void open_failed(const struct report_opts *ro, const char *err)
{
	const char *path;
	size_t len;
	int k;

	fprintf(stderr, "tdat %s: %s", applet(ro), err);
	for (k = 0; k < ro->ninputs; k++) {
		path = ro->inputs[k].path;
		len = strlen(path);
		if (!strncmp(err, path, len) &&
		    !strncmp(err + len, ": offset ", 9) &&
		    !strstr(err, "memory budget")) {
			fprintf(stderr, repair_hint_fmt, path);
			break;
		}
	}
	fputc('\n', stderr);
}

int report_run(const struct report_opts *ro)
{
	struct cpu_set cpus, *only = NULL;
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
	if (inputs_open(&in, ro, err, sizeof(err), &ret))
		open_failed(ro, err);
	else
		ret = report_events(ro, in, only);
	inputs_free(in, ro->ninputs);
	if (only)
		cpu_set_free(only);
	return ret;
}

/* The events of in, as --json would print them, to fn. */
static int visit_events(const struct report_opts *ro, struct input *in,
			const struct cpu_set *cpus, report_event_fn fn,
			void *ctx)
{
	struct stream s;
	int k, ret = 0;

	stream_init(&s, ro);
	for (k = 0; k < ro->ninputs; k++)
		if (is_latency(&in[k]))	/* text, no events */
			return 0;
	if (stream_start(&s, ro, in, cpus))
		ret = 1;
	else
		ret = report_visit_events(&s, in, ro->ninputs, fn, ctx,
					  applet(ro));
	stream_report_progress(&s);
	stream_tell(&s);
	if (s.skipped && !ret)
		ret = 1;
	stream_free(&s);
	return ret;
}

int report_each_event(const struct report_opts *ro, report_event_fn fn,
		      void *ctx)
{
	struct cpu_set cpus, *only = NULL;
	struct report_opts o = *ro;
	struct input *in = NULL;
	char err[600];
	int ret;

	o.json = 1;
	o.show = 0;
	if (o.cpu_list) {
		if (cpu_set_parse(&cpus, o.cpu_list, err, sizeof(err))) {
			fprintf(stderr, "tdat %s: %s\n", applet(&o), err);
			cpu_set_free(&cpus);
			return 2;
		}
		only = &cpus;
	}
	if (inputs_open(&in, &o, err, sizeof(err), &ret))
		open_failed(&o, err);
	else
		ret = visit_events(&o, in, only, fn, ctx);
	inputs_free(in, o.ninputs);
	if (only)
		cpu_set_free(only);
	return ret;
}
