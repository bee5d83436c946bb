/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.c - the report's event loop.
 *
 * libtraceevent's formatting is most of a report's time, so with several
 * CPUs it runs on worker threads.  The calling thread reads the merged
 * stream, applies the filters and copies each event into a batch; a
 * worker turns a whole batch into text with its own tep handles; the
 * reader writes the batches' text in the order it filled them.  A fixed
 * ring of batches bounds the memory.
 *
 * Some plugins keep state across events: the sched_switch plugin
 * registers each next_comm, which later lines' comm depends on, and the
 * function plugin tracks call depth.  Such events are formatted by the
 * reader itself, in stream order, with the input's main handle, and
 * every event's comm is looked up there too, so that lines come out as
 * they would from one thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/report/pipeline.h"
#include "libfmt/bytes.h"

#define BATCH_EVENTS 4096
#define BATCH_BYTES (512u << 10)	/* arena size that closes a batch */
#define MAX_WORKERS 8
#define NO_ID 65536			/* common_type is 16 bits */

/* One event of a batch: its record, or its line already made. */
struct entry {
	uint64_t ts, offset;
	int64_t missed;
	uint32_t data, size;	/* payload, in the arena */
	uint32_t readable;	/* bytes of it libtraceevent may read */
	uint32_t comm;		/* NUL-terminated, in the arena */
	uint32_t text, text_len;/* the line, when made */
	int made;
	int fg_leaf;		/* event_view's, for funcgraph entries */
	uint64_t fg_ns;
	int pid, cpu, input, buf;
	int has_type, type;	/* event_view's */
};

enum { SLOT_FREE, SLOT_FILLED, SLOT_BUSY, SLOT_DONE };

struct batch {
	struct entry *ents;
	int n;
	struct tdat_bytes arena;	/* events' bytes, 8-byte aligned */
	struct outbuf out;	/* the batch's text, in memory */
	uint64_t seq;
	int state;		/* SLOT_*, under pipeline.lock */
};

struct pipeline;

struct worker {
	pthread_t thread;
	struct pipeline *pl;
	struct printer p;
	struct tep_handle **tep;	/* per input */
	struct tep_plugin_list **plugins;
	struct ksyms **ksyms;
	int started;
};

struct pipeline {
	pthread_mutex_t lock;
	pthread_cond_t work;	/* a batch was filled, or the end came */
	pthread_cond_t done;	/* a batch was formatted */
	struct batch *slots;
	int nslots;
	uint64_t filled;	/* batches handed over so far */
	uint64_t next_claim;	/* the batch the next idle worker takes */
	int end;		/* no batch comes after filled */
	struct input *in;
	struct input_view *views;	/* report's of each input */
	int ninputs;
	struct worker w[MAX_WORKERS];
	int nworkers;
};

/* The reader's side. */
struct reader {
	struct pipeline *pl;
	struct batch *b;	/* being filled, or NULL */
	uint64_t seq;
	struct outbuf *o;	/* the real output */
	struct printer p;	/* makes the lines of stateful events */
	struct outbuf scratch;
	unsigned char **kind;	/* per input, per event id: 0 not known
				 * yet, 1 any thread, 2 the reader's */
};

/* ---- shared by both loops ---- */

static void fill_view(struct event_view *v, struct tep_record *rec,
		      const struct input *i, const struct input_view *iv,
		      int buf)
{
	v->rec = rec;
	v->tep = i->tep;
	v->ts = rec->ts;
	v->time_is_ns = iv->time_is_ns;
	v->has_clock = iv->has_clock;
	v->label = iv->labels[buf];
	v->path = i->path;
	v->buffer = i->f->buffers[buf].name;
	v->fg = iv->fg_on ? &iv->fg : NULL;
	v->fg_leaf = 0;
	v->fg_ns = 0;
	v->has_type = 0;
}

static int keep(const struct input *i, struct input_view *iv,
		struct tep_record *rec, uint32_t readable)
{
	const struct tep_record *r;
	struct tep_record tmp;

	if (!iv->filtering)
		return 1;
	r = host_dataloc(i->tep, rec, readable, &tmp, &iv->filter_copy);
	return event_filter_keep(&iv->filter, i->tep,
				 (struct tep_record *)(r ? r : rec));
}

/* The event's pid and comm, as libtraceevent gives them, without its
 * field-by-field read and its bsearch for every event. */
static void set_task(struct event_view *v, struct input *i)
{
	v->pid = input_pid(i, v->rec);
	v->comm = comm_cache_get(i->comms, i->tep, v->pid);
}

/* The next event the filters keep, in rec and v; NULL at the end, or
 * with v->readable 0 when out of memory.  The caller calls
 * stream_advance(s, c) when it is done with the event. */
static struct stream_cpu *next_kept(struct stream *s, struct input *in,
				    struct input_view *views,
				    struct tep_record *rec,
				    struct event_view *v)
{
	struct stream_cpu *c;
	uint32_t readable;
	int type;

	v->readable = 1;
	while ((c = stream_peek(s))) {
		struct input *i = &in[c->input];

		readable = input_record(i, c, rec, &type);
		if (!readable) {
			v->readable = 0;
			return NULL;
		}
		if (!c->hidden && keep(i, &views[c->input], rec, readable)) {
			fill_view(v, rec, i, &views[c->input], c->buf);
			v->readable = readable;
			v->has_type = 1;
			v->type = type;
			set_task(v, i);
			return c;
		}
		stream_advance(s, c);
	}
	return NULL;
}

/* A copy of an event's bytes, for when its CPU moves on first. */
struct copy {
	uint8_t *p;
	size_t cap;
};

/*
 * A function_graph entry is a leaf or not by the event that follows it
 * (funcgraph.c), which moves its CPU on: rec is first pointed at a copy.
 * 1 when c was moved, -1 out of memory.
 */
static int fgraph_step(struct stream *s, struct stream_cpu *c,
		       struct input *i, struct tep_record *rec,
		       struct event_view *v, struct copy *cp)
{
	const struct fgraph *g = v->fg;
	uint64_t func;

	if (!g || !fgraph_is_entry(g, rec->data, (uint32_t)rec->size))
		return 0;
	if (cp->cap < v->readable) {
		uint8_t *p = realloc(cp->p, v->readable);

		if (!p)
			return -1;
		cp->p = p;
		cp->cap = v->readable;
	}
	memcpy(cp->p, rec->data, v->readable);
	rec->data = cp->p;
	func = fgraph_get(g, &g->e_func, rec->data, (uint32_t)rec->size);
	v->fg_leaf = fgraph_take_leaf(s, c, i->tep, g, v->pid, func,
				      &v->fg_ns);
	return 1;
}

static void out_of_memory(struct outbuf *o)
{
	fprintf(stderr, "tdat report: out of memory\n");
	o->error = 1;
}

/* One thread does it all: -ts-diff, one CPU, or no threads. */
static void print_serial(struct printer *p, struct stream *s,
			 struct input *in, struct input_view *views)
{
	struct event_view v;
	struct tep_record rec;
	struct stream_cpu *c;
	struct copy cp = { NULL, 0 };
	int moved = 0;

	memset(&rec, 0, sizeof(rec));
	memset(&v, 0, sizeof(v));
	while ((c = next_kept(s, in, views, &rec, &v))) {
		moved = fgraph_step(s, c, &in[c->input], &rec, &v, &cp);
		if (moved < 0)
			break;
		p->line(p, &v);
		if (!moved)
			stream_advance(s, c);
		if (p->o->error)
			break;
	}
	free(cp.p);
	if (!v.readable || moved < 0)
		out_of_memory(p->o);
}

/* ---- workers ---- */

static void format_batch(struct worker *w, struct batch *b)
{
	struct event_view v;
	struct tep_record rec;
	int k;

	memset(&rec, 0, sizeof(rec));
	memset(&v, 0, sizeof(v));
	w->p.o = &b->out;
	for (k = 0; k < b->n; k++) {
		const struct entry *e = &b->ents[k];

		if (e->made) {
			outbuf_put(&b->out, (const char *)b->arena.data + e->text,
				   e->text_len);
			continue;
		}
		rec.ts = e->ts;
		rec.offset = e->offset;
		rec.missed_events = e->missed;
		rec.size = rec.record_size = (int)e->size;
		rec.data = b->arena.data + e->data;
		rec.cpu = e->cpu;
		fill_view(&v, &rec, &w->pl->in[e->input],
			  &w->pl->views[e->input], e->buf);
		v.readable = e->readable;
		v.tep = w->tep[e->input];
		v.pid = e->pid;
		v.comm = (const char *)b->arena.data + e->comm;
		v.fg_leaf = e->fg_leaf;
		v.fg_ns = e->fg_ns;
		v.has_type = e->has_type;
		v.type = e->type;
		w->p.line(&w->p, &v);
	}
}

/* The next filled batch in order, or NULL at the end. */
static struct batch *claim(struct pipeline *pl)
{
	struct batch *b = NULL;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		b = &pl->slots[pl->next_claim % (uint64_t)pl->nslots];
		if (pl->next_claim < pl->filled && b->state == SLOT_FILLED &&
		    b->seq == pl->next_claim)
			break;
		if (pl->end && pl->next_claim >= pl->filled) {
			b = NULL;
			break;
		}
		pthread_cond_wait(&pl->work, &pl->lock);
	}
	if (b) {
		b->state = SLOT_BUSY;
		pl->next_claim++;
	}
	pthread_mutex_unlock(&pl->lock);
	return b;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pipeline *pl = w->pl;
	struct batch *b;

	while ((b = claim(pl))) {
		format_batch(w, b);
		pthread_mutex_lock(&pl->lock);
		b->state = SLOT_DONE;
		pthread_cond_broadcast(&pl->done);
		pthread_mutex_unlock(&pl->lock);
	}
	return NULL;
}

/* Its own handles for every input: tep handles are not thread-safe. */
static int worker_init(struct worker *w, struct pipeline *pl,
		       const struct printer *p, int load_plugins)
{
	struct tdat_error err;
	int k, n = pl->ninputs;

	w->pl = pl;
	w->p = *p;
	w->p.cache = NULL;
	w->p.fast = NULL;
	w->p.memo = NULL;
	memset(&w->p.swapped, 0, sizeof(w->p.swapped));
	trace_seq_init(&w->p.seq);
	w->tep = calloc((size_t)n, sizeof(*w->tep));
	w->plugins = calloc((size_t)n, sizeof(*w->plugins));
	w->ksyms = calloc((size_t)n, sizeof(*w->ksyms));
	if (!w->tep || !w->plugins || !w->ksyms)
		return -1;
	for (k = 0; k < n; k++) {
		w->tep[k] = tep_from_file_nosyms(pl->in[k].f, load_plugins,
						 &w->plugins[k],
						 &pl->in[k].trial, &err);
		if (!w->tep[k])
			return -1;
		w->ksyms[k] = ksyms_attach(w->tep[k], pl->in[k].tep);
		if (!w->ksyms[k] ||
		    kvm_guests_alias(w->tep[k], pl->in[k].tep))
			return -1;
	}
	return 0;
}

static void worker_free(struct worker *w, int n)
{
	int k;

	for (k = 0; k < n && w->tep; k++) {
		if (w->plugins[k])
			tep_unload_plugins(w->plugins[k], w->tep[k]);
		if (w->tep[k])
			tep_free(w->tep[k]);
		ksyms_free(w->ksyms[k]);
	}
	free(w->tep);
	free(w->plugins);
	free(w->ksyms);
	print_done(&w->p);
}

/* ---- the reader ---- */

/* A batch's text goes out as it is, after what the buffer holds. */
static void write_batch(struct reader *r, struct batch *b)
{
	struct outbuf *o = r->o;

	if (!o->fp) {
		outbuf_put(o, (const char *)b->out.b.data, b->out.b.len);
	} else if (!outbuf_flush(o) && b->out.b.len &&
		   fwrite(b->out.b.data, 1, b->out.b.len, o->fp) !=
		   b->out.b.len) {
		o->error = 1;
	}
	tdat_bytes_reset(&b->out.b);
}

/* Wait until the slot of seq is formatted (or free); write its text. */
static struct batch *take_slot(struct reader *r, uint64_t seq)
{
	struct pipeline *pl = r->pl;
	struct batch *b = &pl->slots[seq % (uint64_t)pl->nslots];
	int state;

	pthread_mutex_lock(&pl->lock);
	while (b->state == SLOT_FILLED || b->state == SLOT_BUSY)
		pthread_cond_wait(&pl->done, &pl->lock);
	state = b->state;
	b->state = SLOT_FREE;
	pthread_mutex_unlock(&pl->lock);
	if (state == SLOT_DONE)
		write_batch(r, b);
	b->n = 0;
	tdat_bytes_reset(&b->arena);
	b->seq = seq;
	return b;
}

static void hand_over(struct reader *r)
{
	struct pipeline *pl = r->pl;

	pthread_mutex_lock(&pl->lock);
	r->b->state = SLOT_FILLED;
	pl->filled = r->seq + 1;
	pthread_cond_broadcast(&pl->work);
	pthread_mutex_unlock(&pl->lock);
	r->b = NULL;
	r->seq++;
}

/* Room for n more bytes in the arena, 8-byte aligned; its offset. */
static int arena_take(struct batch *b, size_t n, uint32_t *at)
{
	size_t start = (b->arena.len + 7) & ~(size_t)7;
	size_t cap = b->arena.cap * 2 > start + n ? b->arena.cap * 2 :
						    start + n;

	if (start + n > b->arena.cap && tdat_bytes_reserve(&b->arena, cap))
		return -1;
	*at = (uint32_t)start;
	b->arena.len = start + n;
	return 0;
}

static int arena_copy(struct batch *b, const void *p, size_t n, uint32_t *at)
{
	if (arena_take(b, n, at))
		return -1;
	memcpy(b->arena.data + *at, p, n);
	return 0;
}

/* Whether the event's line must be made by the reader (see the top). */
static int reader_made(struct reader *r, int input, struct tep_handle *tep,
		       const struct event_view *v)
{
	unsigned char *kind = r->kind[input];
	struct tep_event *ev;
	int id = v->has_type ? v->type : tep_data_type(tep, v->rec);

	if (id < 0 || id >= NO_ID)
		return 0;
	if (!kind[id]) {
		ev = tep_find_event(tep, id);
		kind[id] = ev && event_has_state(ev) ? 2 : 1;
	}
	return kind[id] == 2;
}

static int add_event(struct reader *r, struct tep_record *rec,
		     struct event_view *v, int input, int buf)
{
	struct entry *e;
	struct batch *b;

	if (!r->b)
		r->b = take_slot(r, r->seq);
	b = r->b;
	e = &b->ents[b->n];
	e->ts = rec->ts;
	e->offset = rec->offset;
	e->missed = rec->missed_events;
	e->cpu = rec->cpu;
	e->pid = v->pid;
	e->input = input;
	e->buf = buf;
	e->size = (uint32_t)rec->size;
	e->readable = v->readable;
	e->fg_leaf = v->fg_leaf;
	e->fg_ns = v->fg_ns;
	e->has_type = v->has_type;
	e->type = v->type;
	e->made = reader_made(r, input, v->tep, v);
	if (e->made) {
		tdat_bytes_reset(&r->scratch.b);
		r->p.line(&r->p, v);
		e->text_len = (uint32_t)r->scratch.b.len;
		if (arena_copy(b, r->scratch.b.data, r->scratch.b.len,
			       &e->text))
			return -1;
	} else if (arena_copy(b, rec->data, e->readable, &e->data) ||
		   arena_copy(b, v->comm, strlen(v->comm) + 1, &e->comm)) {
		return -1;
	}
	if (++b->n == BATCH_EVENTS || b->arena.len >= BATCH_BYTES)
		hand_over(r);
	return 0;
}

static void read_all(struct reader *r, struct stream *s)
{
	struct input *in = r->pl->in;
	struct event_view v;
	struct tep_record rec;
	struct stream_cpu *c;
	struct copy cp = { NULL, 0 };
	int moved;

	memset(&rec, 0, sizeof(rec));
	memset(&v, 0, sizeof(v));
	while ((c = next_kept(s, in, r->pl->views, &rec, &v))) {
		moved = fgraph_step(s, c, &in[c->input], &rec, &v, &cp);
		if (moved < 0 || add_event(r, &rec, &v, c->input, c->buf))
			out_of_memory(r->o);
		if (!moved)
			stream_advance(s, c);
		if (r->o->error)
			break;
	}
	free(cp.p);
	if (!v.readable)
		out_of_memory(r->o);
	if (r->b && r->b->n)
		hand_over(r);
}

/* The end: workers finish, the rest is written in order. */
static void drain(struct reader *r)
{
	struct pipeline *pl = r->pl;
	uint64_t seq = pl->filled > (uint64_t)pl->nslots ?
		       pl->filled - (uint64_t)pl->nslots : 0;

	pthread_mutex_lock(&pl->lock);
	pl->end = 1;
	pthread_cond_broadcast(&pl->work);
	pthread_mutex_unlock(&pl->lock);
	for (; seq < pl->filled; seq++)
		take_slot(r, seq);
}

static int slots_init(struct pipeline *pl)
{
	int k;

	pl->slots = calloc((size_t)pl->nslots, sizeof(*pl->slots));
	if (!pl->slots)
		return -1;
	for (k = 0; k < pl->nslots; k++) {
		struct batch *b = &pl->slots[k];

		b->ents = malloc(BATCH_EVENTS * sizeof(*b->ents));
		outbuf_init(&b->out, NULL);
		if (!b->ents || b->out.error ||
		    tdat_bytes_reserve(&b->arena, BATCH_BYTES + (64u << 10)))
			return -1;
	}
	return 0;
}

static void slots_free(struct pipeline *pl)
{
	int k;

	for (k = 0; pl->slots && k < pl->nslots; k++) {
		free(pl->slots[k].ents);
		tdat_bytes_free(&pl->slots[k].arena);
		outbuf_free(&pl->slots[k].out);
	}
	free(pl->slots);
}

static int reader_init(struct reader *r, struct pipeline *pl,
		       const struct printer *p)
{
	int k;

	r->pl = pl;
	r->o = p->o;
	r->p = *p;
	r->p.cache = NULL;
	r->p.fast = NULL;
	r->p.memo = NULL;
	trace_seq_init(&r->p.seq);
	outbuf_init(&r->scratch, NULL);
	r->p.o = &r->scratch;
	r->kind = calloc((size_t)pl->ninputs, sizeof(*r->kind));
	if (!r->kind || r->scratch.error)
		return -1;
	for (k = 0; k < pl->ninputs; k++) {
		r->kind[k] = calloc(NO_ID, 1);
		if (!r->kind[k])
			return -1;
	}
	return 0;
}

static void reader_free(struct reader *r)
{
	int k;

	for (k = 0; r->kind && k < r->pl->ninputs; k++)
		free(r->kind[k]);
	free(r->kind);
	outbuf_free(&r->scratch);
	print_done(&r->p);
}

/*
 * Workers pay for themselves only on big inputs: each builds its own
 * event handles first, which costs more than formatting a small file.
 */
#define THREADS_MIN_DATA (1u << 20)	/* stored bytes of trace data */

/* TDAT_REPORT_THREADS=N sets the number of workers (0: none). */
static int worker_count(const struct input *in, int ninputs)
{
	const char *env = getenv("TDAT_REPORT_THREADS");
	uint64_t data = 0;
	long n;
	int k;

	if (env && *env)
		n = strtol(env, NULL, 10);
	else
		n = tdat_usable_cpus();
	for (k = 0; k < ninputs; k++)
		data += tdat_data_size(in[k].f);
	if (!env && (n < 2 || data < THREADS_MIN_DATA))
		n = 0;
	return n < 0 ? 0 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

static int run_threads(struct printer *p, struct stream *s, struct input *in,
		       struct input_view *views, const struct report_opts *ro,
		       int nworkers)
{
	struct pipeline pl;
	struct reader r;
	int k, ok = 0;

	memset(&pl, 0, sizeof(pl));
	memset(&r, 0, sizeof(r));
	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.work, NULL);
	pthread_cond_init(&pl.done, NULL);
	pl.in = in;
	pl.views = views;
	pl.ninputs = ro->ev.ninputs;
	pl.nworkers = nworkers;
	pl.nslots = 2 * nworkers + 2;
	for (k = 0; k < pl.ninputs; k++)
		ksyms_prepare(in[k].tep);
	if (slots_init(&pl) || reader_init(&r, &pl, p))
		goto out;
	for (k = 0; k < nworkers; k++)
		if (worker_init(&pl.w[k], &pl, p, !ro->ev.no_plugins))
			goto out;
	for (k = 0; k < nworkers; k++) {
		if (pthread_create(&pl.w[k].thread, NULL, work, &pl.w[k]))
			break;
		pl.w[k].started = 1;
	}
	if (k == 0)
		goto out;
	ok = 1;
	read_all(&r, s);
	drain(&r);
out:
	for (k = 0; k < nworkers; k++)
		if (pl.w[k].started)
			pthread_join(pl.w[k].thread, NULL);
	for (k = 0; k < nworkers; k++)
		worker_free(&pl.w[k], pl.ninputs);
	if (r.pl)
		reader_free(&r);
	slots_free(&pl);
	pthread_cond_destroy(&pl.done);
	pthread_cond_destroy(&pl.work);
	pthread_mutex_destroy(&pl.lock);
	return ok ? 0 : -1;
}

void report_print_events(struct printer *p, struct stream *s,
			 struct input *in, struct input_view *views,
			 const struct report_opts *ro)
{
	int n = worker_count(in, ro->ev.ninputs);

	/* --ts-diff depends on the line before: one thread. */
	if (n > 0 && !p->opts.ts_diff &&
	    !run_threads(p, s, in, views, ro, n))
		return;
	print_serial(p, s, in, views);
}
