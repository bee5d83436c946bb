/* run.c - report's main loop: inputs, the merged stream, the lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "print.h"
#include "run.h"
#include "info.h"

struct input {
	struct tdat_file *f;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	char **labels;		/* per buffer: the line prefix, or NULL */
};

static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "tracebox report: %s\n", msg);
}

void input_adjust(const struct report_opts *ro, const struct report_input *in,
		  const struct tdat_file *f, struct ts_adjust *a)
{
	struct tdat_tsc2nsec t;
	long long v;

	memset(a, 0, sizeof(*a));
	if (ro->raw_ts)
		return;
	if (!ro->nodate && tdat_opt_number(f, TDAT_OPT_DATE, &v))
		a->offset += v * 1000;		/* microseconds */
	if (tdat_opt_number(f, TDAT_OPT_OFFSET, &v))
		a->offset += v;
	a->offset += in->ts_offset;
	if (tdat_opt_tsc2nsec(f, &t) && t.shift < 64) {
		a->mult = t.mult;
		a->shift = t.shift;
	}
}

/* Instance lines are prefixed "NAME: ", top lines with as many spaces. */
static int make_labels(struct input *in)
{
	const struct tdat_file *f = in->f;
	size_t width = 0;
	int i;

	for (i = 0; i < f->nbuffers; i++)
		if (strlen(f->buffers[i].name) > width)
			width = strlen(f->buffers[i].name);
	in->labels = calloc((size_t)f->nbuffers + 1, sizeof(char *));
	if (!in->labels)
		return -1;
	if (width == 0)
		return 0;
	for (i = 0; i < f->nbuffers; i++) {
		const char *name = f->buffers[i].name;

		in->labels[i] = malloc(width + 3);
		if (!in->labels[i])
			return -1;
		if (name[0])
			sprintf(in->labels[i], "%*s: ", (int)width, name);
		else
			sprintf(in->labels[i], "%*s", (int)width + 2, "");
	}
	return 0;
}

static void input_free(struct input *in)
{
	int i;

	if (in->labels)
		for (i = 0; i < in->f->nbuffers; i++)
			free(in->labels[i]);
	free(in->labels);
	if (in->plugins)
		tep_unload_plugins(in->plugins, in->tep);
	if (in->tep)
		tep_free(in->tep);
	tdat_close(in->f);
}

static void print_missed(struct outbuf *o, const struct stream_cpu *c)
{
	if (c->missed > 0)
		outbuf_printf(o, "CPU:%d [%lld EVENTS DROPPED]\n", c->cpu,
			      (long long)c->missed);
	else
		outbuf_printf(o, "CPU:%d [EVENTS DROPPED]\n", c->cpu);
}

static void print_events(struct outbuf *o, struct stream *s,
			 struct input *in, const struct print_opts *po)
{
	struct trace_seq seq;
	struct tep_record rec;
	struct stream_cpu *c;

	trace_seq_init(&seq);
	memset(&rec, 0, sizeof(rec));
	while ((c = stream_peek(s))) {
		struct input *i = &in[c->input];

		if (c->missed)
			print_missed(o, c);
		rec.ts = c->ts;
		rec.offset = c->page_offset + c->ev.offset;
		rec.missed_events = c->missed;
		rec.size = (int)c->ev.size;
		rec.record_size = (int)c->ev.size;
		rec.data = (void *)c->ev.data;
		rec.cpu = c->cpu;
		print_event(o, po, i->tep, &seq, &rec, c->ts,
			    i->labels[c->buf]);
		stream_advance(s, c);
		if (o->error)
			break;
	}
	trace_seq_destroy(&seq);
}

/*
 * Options parsed but not built yet: refused by name rather than ignored,
 * so that no script gets output that silently differs from trace-cmd's.
 * Each entry goes when its feature lands.
 */
static int refuse_unsupported(const struct report_opts *ro)
{
	const struct { int set; const char *what; } later[] = {
		{ ro->ninputs > 1, "more than one input file" },
		{ ro->nfilters > 0, "-F" },
		{ ro->test_filters, "-T" },
		{ ro->cpu_list != NULL, "--cpu" },
		{ ro->event_regex != NULL, "--event" },
		{ ro->latency, "-l" },
		{ ro->no_hardirq || ro->no_softirq, "-I and -S" },
		{ ro->ts_diff, "--ts-diff" },
		{ ro->align_ts, "--align-ts" },
		{ ro->inputs[0].ts2secs_hz != 0, "--ts2secs" },
		{ ro->json, "--json" },
	};
	size_t i;

	for (i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		if (later[i].set) {
			fprintf(stderr, "tracebox report: %s: not supported"
				" yet\n", later[i].what);
			return 1;
		}
	}
	return 0;
}

int report_run(const struct report_opts *ro)
{
	struct input in[1];
	struct stream s;
	struct outbuf o;
	struct print_opts po;
	struct tdat_error err;
	char clock[64];
	int b, ret = 0;

	memset(in, 0, sizeof(in));
	memset(&s, 0, sizeof(s));
	s.warn = warn_stderr;
	if (refuse_unsupported(ro))
		return 2;
	if (ro->show)
		return report_info(ro);
	in[0].f = tdat_open(ro->inputs[0].path, &err);
	if (!in[0].f) {
		fprintf(stderr, "tracebox report: %s\n", err.msg);
		return 1;
	}
	in[0].tep = tep_from_file(in[0].f, !ro->no_plugins, &in[0].plugins,
				  &err);
	if (!in[0].tep || make_labels(&in[0])) {
		fprintf(stderr, "tracebox report: %s\n", err.msg);
		input_free(&in[0]);
		return 1;
	}
	memset(&po, 0, sizeof(po));
	/* Without a TRACECLOCK option trace-cmd assumes nanoseconds. */
	po.time_is_ns = !tdat_opt_clock(in[0].f, clock, sizeof(clock)) ||
			clock_is_time(clock) ||
			tdat_find_option(in[0].f, TDAT_OPT_TSC2NSEC);
	po.full_ns = ro->full_ns;
	po.raw = ro->raw;
	input_adjust(ro, &ro->inputs[0], in[0].f, &s.adjust[0]);
	outbuf_init(&o, stdout);
	outbuf_printf(&o, "cpus=%u\n", tdat_cpus(in[0].f));
	for (b = 0; b < in[0].f->nbuffers; b++)
		stream_add_buffer(&s, in[0].f, 0, b, &err);
	print_events(&o, &s, in, &po);
	if (outbuf_flush(&o)) {
		fprintf(stderr, "tracebox report: write error on output\n");
		ret = 1;
	}
	if (s.skipped)
		ret = 1;
	outbuf_free(&o);
	stream_free(&s);
	input_free(&in[0]);
	return ret;
}
