/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.c - the stream started, and walked for a consumer that makes no
 * text (events_walk: the exports).
 *
 * Such a walk skips what printing needs: the record goes as it is
 * (stream_event_printable makes the padded view for the few printed),
 * and each id's event and layout are looked up once (each pid's comm
 * too, in the input's comm cache; the pid is read where libtraceevent
 * reads it, input_pid).  A record too short for its type, or a hidden
 * CPU, goes the careful way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/events/inputs.h"

#define NO_ID 65536			/* common_type is 16 bits */

static const char *applet(const struct events_opts *eo)
{
	return eo->applet ? eo->applet : "report";
}

static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat %s: %s\n", (const char *)ctx, msg);
}

void stream_init(struct stream *s, const struct events_opts *eo)
{
	memset(s, 0, sizeof(*s));
	s->warn = warn_stderr;
	s->warn_ctx = (void *)applet(eo);
	s->progress = eo->progress;
	s->progress_ctx = eo->progress_ctx;
	s->any_order = eo->any_order;
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

static int add_cpus(struct stream *s, struct input *in, int k,
		    int (*want)(const void *, int), const void *cpus,
		    struct tdat_error *err)
{
	if (in[k].all_cpus)
		return stream_add_cpus_hidden(s, in[k].f, k, 0, want, cpus,
					      err);
	return stream_add_cpus(s, in[k].f, k, 0, want, cpus, err);
}

static int add_buffers(struct stream *s, struct input *in, int n,
		       int (*want)(const void *, int), const void *cpus,
		       const char *who)
{
	struct tdat_error err;
	int k, b;

	for (k = 0; k < n; k++) {
		if (!tdat_top_buffer(in[k].f))
			continue;
		if (!want) {
			if (stream_add_buffer(s, in[k].f, k, 0, &err))
				goto fail;
			continue;
		}
		if (add_cpus(s, in, k, want, cpus, &err))
			goto fail;
		return 0;
	}
	for (k = 0; k < n && !want; k++)
		for (b = 0; b < in[k].f->nbuffers; b++)
			if (in[k].f->buffers[b].name[0] &&
			    stream_add_buffer(s, in[k].f, k, b, &err))
				goto fail;
	return 0;
fail:
	fprintf(stderr, "tdat %s: %s\n", who, err.msg);
	return -1;
}

int stream_start(struct stream *s, const struct events_opts *eo,
		 struct input *in, int (*want)(const void *cpus, int cpu),
		 const void *cpus)
{
	int k;

	for (k = 0; k < eo->ninputs; k++)
		input_adjust(eo, k, in[k].f, &s->adjust[k]);
	if (eo->align_ts && !eo->raw_ts)
		align_ts(s, in, eo->ninputs);
	return add_buffers(s, in, eo->ninputs, want, cpus, applet(eo));
}

/* What the walk learns of each event id of an input, on first use. */
struct visit_id {
	struct tep_event *ev;
	struct event_layout *layout;	/* ev's, made with it */
	int known;
};

struct visit {
	struct input *in;
	int ninputs;
	struct visit_id *ids;	/* per input, NO_ID each */
	struct stream_cpu *c;	/* the event being visited */
	struct input *i;
	struct tep_record view;	/* stream_event_printable's */
	int no_memory;
};

/* The entry of id type of input k; NULL for an id no format can have,
 * or without memory for its layout (vs->no_memory set). */
static struct visit_id *visit_id(struct visit *vs, int k, int type)
{
	struct visit_id *v;

	if (type < 0 || type >= NO_ID)
		return NULL;
	v = &vs->ids[(size_t)k * NO_ID + (size_t)type];
	if (v->known)
		return v;
	v->ev = tep_find_event(vs->in[k].tep, type);
	if (v->ev) {
		v->layout = event_layout_new(v->ev);
		if (!v->layout) {
			vs->no_memory = 1;
			return NULL;
		}
	}
	v->known = 1;
	return v;
}

/* e for c's event, the quick way; 0, or -1 when it must go the careful
 * way. */
static int visit_quick(struct visit *vs, struct stream_cpu *c,
		       struct tep_record *rec, struct stream_event *e)
{
	struct input *i = &vs->in[c->input];
	const uint8_t *d = c->ev.data;
	struct visit_id *v;

	if (c->hidden || c->ev.size < 2 || !input_pid_inside(i, c->ev.size))
		return -1;
	v = visit_id(vs, c->input, tdat_load16(c->f->big_endian, d));
	if (!v || !v->ev)
		return -1;
	rec->ts = c->ts;
	rec->offset = c->page_offset + c->ev.offset;
	rec->missed_events = c->missed;
	rec->size = rec->record_size = (int)c->ev.size;
	rec->cpu = c->cpu;
	rec->data = (void *)d;
	e->event = v->ev;
	e->layout = v->layout;
	e->pid = input_pid(i, rec);
	e->comm = comm_cache_get(i->comms, i->tep, e->pid);
	return 0;
}

/* The careful way: the next event not hidden, its record padded where
 * libtraceevent would read past it; NULL at the end or without memory
 * (vs->no_memory set). */
static struct stream_cpu *visit_careful(struct visit *vs, struct stream *s,
					struct tep_record *rec,
					struct stream_event *e)
{
	struct visit_id *v;
	struct stream_cpu *c;
	struct input *i;
	int type;

	while ((c = stream_peek(s))) {
		i = &vs->in[c->input];
		if (!input_record(i, c, rec, &type)) {
			vs->no_memory = 1;
			return NULL;
		}
		if (!c->hidden)
			break;
		stream_advance(s, c);
	}
	if (!c)
		return NULL;
	e->event = tep_find_event_by_record(i->tep, rec);
	v = e->event ? visit_id(vs, c->input, e->event->id) : NULL;
	e->layout = v && v->ev == e->event ? v->layout : NULL;
	if (e->event && !e->layout) {
		vs->no_memory = 1;
		return NULL;
	}
	e->pid = input_pid(i, rec);
	e->comm = comm_cache_get(i->comms, i->tep, e->pid);
	return c;
}

/* The events of s to fn, in order. */
static int visit_all(struct visit *vs, struct stream *s, stream_event_fn fn,
		     void *ctx)
{
	struct stream_event e;
	struct tep_record rec;
	struct stream_cpu *c;
	int r = 0;

	memset(&rec, 0, sizeof(rec));
	memset(&e, 0, sizeof(e));
	e.rec = &rec;
	e.priv = vs;
	while (!r && !vs->no_memory && (c = stream_peek(s))) {
		if (visit_quick(vs, c, &rec, &e) &&
		    !(c = visit_careful(vs, s, &rec, &e)))
			break;
		e.tep = vs->in[c->input].tep;
		e.ts = c->ts;
		e.input = c->input;
		e.buffer = c->f->buffers[c->buf].name;
		vs->c = c;
		vs->i = &vs->in[c->input];
		r = fn(ctx, &e);
		stream_advance(s, c);
	}
	return r;
}

static void visit_free(struct visit *vs)
{
	size_t k;

	for (k = 0; k < (size_t)vs->ninputs * NO_ID; k++)
		event_layout_free(vs->ids[k].layout);
	free(vs->ids);
}

/* The events of in, from the start, to fn. */
static int walk_inputs(const struct events_opts *eo, struct input *in,
		       stream_event_fn fn, void *ctx)
{
	struct visit vs;
	struct stream s;
	int k, ret;

	for (k = 0; k < eo->ninputs; k++)
		if (tdat_top_buffer(in[k].f) &&
		    tdat_top_buffer(in[k].f)->latency)	/* text, no events */
			return 0;
	memset(&vs, 0, sizeof(vs));
	vs.in = in;
	vs.ninputs = eo->ninputs;
	vs.ids = calloc((size_t)eo->ninputs * NO_ID, sizeof(*vs.ids));
	if (!vs.ids) {
		fprintf(stderr, "tdat %s: out of memory\n", applet(eo));
		return 1;
	}
	stream_init(&s, eo);
	if (stream_start(&s, eo, in, NULL, NULL))
		ret = 1;
	else
		ret = visit_all(&vs, &s, fn, ctx);
	if (!ret && vs.no_memory) {
		fprintf(stderr, "tdat %s: out of memory\n", applet(eo));
		ret = 1;
	}
	stream_report_progress(&s);
	stream_tell(&s);
	if (s.skipped && !ret)
		ret = 1;
	stream_free(&s);
	visit_free(&vs);
	return ret;
}

/* eo->opened, as inputs_open calls a consumer's hook. */
struct opened {
	const struct events_opts *eo;
	void *ctx;
};

static int call_opened(void *ctx, struct input *in, int k, char *err,
		       size_t cap, int *status)
{
	struct opened *o = ctx;

	if (!o->eo->opened(o->ctx, k, in->tep, in->f, err, cap))
		return 0;
	*status = 2;
	return -1;
}

int events_walk(const struct events_opts *eo, stream_event_fn fn, void *ctx)
{
	struct opened o = { eo, ctx };
	struct input *in = NULL;
	char err[600];
	int ret;

	if (inputs_open(&in, eo, eo->opened ? call_opened : NULL, &o, err,
			sizeof(err), &ret))
		inputs_open_failed(eo, err);
	else
		ret = walk_inputs(eo, in, fn, ctx);
	inputs_free(in, eo->ninputs);
	return ret;
}

const struct tep_record *stream_event_printable(const struct stream_event *e)
{
	struct visit *vs = e->priv;
	struct tdat_error err;

	/* loaded only now (events_opts.lazy_kallsyms); a part report
	 * would not have opened prints addresses */
	if (vs->i->syms_later)
		tep_add_kallsyms(vs->i->tep, vs->i->f, &err);
	vs->i->syms_later = 0;

	vs->view = *e->rec;
	return input_record(vs->i, vs->c, &vs->view, NULL) ? &vs->view : NULL;
}
