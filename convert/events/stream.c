/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stream.c - every CPU of every buffer merged into one timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/events/stream.h"
#include "convert/repair_hint.h"

/*
 * ts * (ns per tick) in double precision, as trace-cmd computes it; a
 * product past 64 bits comes out 0, as it does there on x86-64.
 */
static uint64_t ts_scale(uint64_t ts, double ts2secs)
{
	double ns = (double)ts * ts2secs;

	return ns < 18446744073709551616.0 ? (uint64_t)ns : 0;
}

/* A TIME_SHIFT, TSC2NSEC or --ts2secs to apply (not inline: its
 * setting up would go before ts_apply's quick test). */
static __attribute__((noinline)) uint64_t ts_apply_scaled(const struct ts_adjust *a, int cpu,
				uint64_t ts)
{
	struct tdat_ts_adjust t = { a->offset, a->mult, a->shift, a->guest };
	struct tdat_ts_adjust guest_only = { 0, 0, 0, a->guest };

	if (a->ts2secs)
		return ts_scale(tdat_ts_apply_cpu(&guest_only, cpu, ts),
				a->ts2secs) + (uint64_t)a->offset;
	return tdat_ts_apply_cpu(&t, cpu, ts);
}

/* Most files have none of them: an offset at most, added at once. */
uint64_t ts_apply(const struct ts_adjust *a, int cpu, uint64_t ts)
{
	if (!a->guest && !a->mult && !a->ts2secs)
		return ts + (uint64_t)a->offset;
	return ts_apply_scaled(a, cpu, ts);
}

/* The offset of a "PATH: offset N: ..." message, or UINT64_MAX. */
static uint64_t msg_offset(const char *msg, const char *path)
{
	size_t n = strlen(path);

	if (strncmp(msg, path, n) || strncmp(msg + n, ": offset ", 9))
		return UINT64_MAX;
	return strtoull(msg + n + 9, NULL, 10);
}

/*
 * Damage of a hidden CPU (--cpu, run.c) is not reported: the CPU is
 * only read so that leaves can be told, and it just ends there.  Of an
 * input's damage, the place first in the file is kept for stream_tell.
 */
static void warn(struct stream *s, const struct stream_cpu *c,
		 const struct tdat_error *e)
{
	struct stream_damage *d;
	uint64_t off;

	if (c->hidden)
		return;
	s->skipped++;
	if (!s->warn || c->input < 0 || c->input >= 64)
		return;
	/* Memory is short for every CPU alike, and it is no damage: said
	 * at once, and once. */
	if (e->memory) {
		if (!s->memory_said++)
			s->warn(s->warn_ctx, e->msg);
		return;
	}
	if (!s->damage && !(s->damage = calloc(64, sizeof(*s->damage)))) {
		s->warn(s->warn_ctx, e->msg);	/* told at once, then */
		return;
	}
	d = &s->damage[c->input];
	off = msg_offset(e->msg, c->f->path);
	if (!d->n++ || off < d->off) {
		snprintf(d->msg, sizeof(d->msg), "%s", e->msg);
		d->off = off;
		d->path = c->f->path;
	}
}

void stream_tell(struct stream *s)
{
	char line[1200], hint[600];
	int k, more;

	for (k = 0; s->damage && k < 64; k++) {
		struct stream_damage *d = &s->damage[k];

		more = d->n - 1;
		if (more < 0)
			continue;
		snprintf(hint, sizeof(hint), repair_hint_fmt, d->path);
		if (more)
			snprintf(line, sizeof(line), "%s; %d more damaged"
				 " place%s skipped as well%s", d->msg, more,
				 more > 1 ? "s" : "", hint);
		else
			snprintf(line, sizeof(line), "%s%s", d->msg, hint);
		s->warn(s->warn_ctx, line);
		s->damage[k].n = 0;
	}
}

/* Load the next page that has a valid header; 0 at the end of the CPU. */
static int next_page(struct stream *s, struct stream_cpu *c)
{
	struct tdat_error err;
	const uint8_t *page;
	int got;

	for (;;) {
		got = tdat_cpu_next_page(c->r, &page, &c->page_offset, &err);
		if (got < 0) {
			/* Said once; the reader goes on past a bad chunk
			 * and ends the stream when nothing else is left. */
			warn(s, c, &err);
			continue;
		}
		if (got == 0)
			return 0;
		if (!tdat_page_iter_init(&c->it, c->f, page, c->page_size)) {
			c->missed = c->it.missed;
			return 1;
		}
		tdat_fail(&err, c->f->path, c->page_offset, "buffer \"%s\""
			  " CPU %d: page commit size exceeds the page; page"
			  " skipped", c->f->buffers[c->buf].name, c->cpu);
		warn(s, c, &err);
	}
}

/* Fill c->ev with the CPU's next event, crossing pages as needed. */
static void load_event(struct stream *s, struct stream_cpu *c)
{
	struct tdat_error e;
	int got;

	for (;;) {
		if (!c->in_page) {
			if (!next_page(s, c)) {
				c->has_event = 0;
				return;
			}
			c->in_page = 1;
		}
		got = tdat_page_iter_next(&c->it, &c->ev);
		if (got > 0) {
			c->has_event = 1;
			c->ts = ts_apply(&s->adjust[c->input], c->cpu,
					 c->ev.ts);
			return;
		}
		if (got < 0) {
			tdat_fail(&e, c->f->path, c->page_offset, "buffer"
				  " \"%s\" CPU %d: corrupt event at page"
				  " offset %u; rest of page skipped",
				  c->f->buffers[c->buf].name, c->cpu,
				  c->it.pos);
			warn(s, c, &e);
		}
		c->in_page = 0;
		c->missed = 0;
	}
}

/* Heap order: CPUs not held first, then those held in the order they
 * were; then earlier timestamp first, then earlier in scan order. */
static int before(const struct stream *s, int a, int b)
{
	const struct stream_cpu *x = &s->cpus[a], *y = &s->cpus[b];

	if (x->held != y->held)
		return x->held < y->held;
	return x->ts < y->ts || (x->ts == y->ts && a < b);
}

static void heap_set(struct stream *s, int pos, int idx)
{
	s->heap[pos] = idx;
	s->cpus[idx].heap_pos = pos;
}

static void sift_up(struct stream *s, int pos)
{
	int idx = s->heap[pos];

	while (pos > 0 && before(s, idx, s->heap[(pos - 1) / 2])) {
		heap_set(s, pos, s->heap[(pos - 1) / 2]);
		pos = (pos - 1) / 2;
	}
	heap_set(s, pos, idx);
}

static void sift_down(struct stream *s, int pos)
{
	int idx = s->heap[pos], child;

	for (;;) {
		child = 2 * pos + 1;
		if (child >= s->nheap)
			break;
		if (child + 1 < s->nheap &&
		    before(s, s->heap[child + 1], s->heap[child]))
			child++;
		if (!before(s, s->heap[child], idx))
			break;
		heap_set(s, pos, s->heap[child]);
		pos = child;
	}
	heap_set(s, pos, idx);
}

static void heap_remove(struct stream *s, int pos)
{
	int last = s->heap[--s->nheap];

	s->cpus[s->heap[pos]].heap_pos = -1;
	if (pos == s->nheap)
		return;
	heap_set(s, pos, last);
	sift_up(s, pos);
	sift_down(s, s->cpus[last].heap_pos);
}

static int grow(struct stream *s, struct tdat_file *f, int more,
		struct tdat_error *err)
{
	size_t n = (size_t)s->ncpus + (size_t)more;
	struct stream_cpu *c = realloc(s->cpus, n * sizeof(*c));
	int *h;

	if (c)
		s->cpus = c;
	h = c ? realloc(s->heap, n * sizeof(*h)) : NULL;
	if (!h) {
		tdat_fail_nooff(err, f->path, "out of memory");
		return -1;
	}
	s->heap = h;
	return 0;
}

static int add_cpus(struct stream *s, struct tdat_file *f, int input,
		    int buf, int (*want)(const void *ctx, int cpu),
		    const void *ctx, int hide, struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	int i;

	if (b->latency || b->ncpus == 0)
		return 0;
	if (grow(s, f, b->ncpus, err))
		return -1;
	for (i = 0; i < b->ncpus; i++) {
		struct stream_cpu *c = &s->cpus[s->ncpus];

		memset(c, 0, sizeof(*c));
		c->f = f;
		c->input = input;
		c->buf = buf;
		c->idx = i;
		c->cpu = b->cpus[i].cpu;
		c->page_size = b->page_size;
		c->heap_pos = -1;
		c->hidden = want && !want(ctx, c->cpu);
		if (b->cpus[i].size == 0 || (c->hidden && !hide))
			continue;
		c->r = tdat_cpu_open(f, buf, i, err);
		if (!c->r) {
			warn(s, c, err);
			continue;
		}
		s->ncpus++;
		load_event(s, c);
		if (c->has_event) {
			s->heap[s->nheap] = s->ncpus - 1;
			sift_up(s, s->nheap++);
		}
	}
	return 0;
}

int stream_add_cpus(struct stream *s, struct tdat_file *f, int input,
		    int buf, int (*want)(const void *ctx, int cpu),
		    const void *ctx, struct tdat_error *err)
{
	return add_cpus(s, f, input, buf, want, ctx, 0, err);
}

int stream_add_cpus_hidden(struct stream *s, struct tdat_file *f, int input,
			   int buf, int (*want)(const void *ctx, int cpu),
			   const void *ctx, struct tdat_error *err)
{
	return add_cpus(s, f, input, buf, want, ctx, 1, err);
}

int stream_add_buffer(struct stream *s, struct tdat_file *f, int input,
		      int buf, struct tdat_error *err)
{
	return stream_add_cpus(s, f, input, buf, NULL, NULL, err);
}

struct stream_cpu *stream_peek(struct stream *s)
{
	return s->nheap ? &s->cpus[s->heap[0]] : NULL;
}

void stream_report_progress(struct stream *s)
{
	uint64_t done = 0, total = 0, d, t;
	int i;

	if (!s->progress)
		return;
	for (i = 0; i < s->ncpus; i++) {
		if (!s->cpus[i].r)
			continue;
		tdat_cpu_position(s->cpus[i].r, &d, &t);
		done += s->cpus[i].has_event ? d : t;
		total += t;
	}
	s->progress(s->progress_ctx, done, total);
}

void stream_advance(struct stream *s, struct stream_cpu *c)
{
	int pos = c->heap_pos;

	if (s->progress && !(++s->nadvanced & 8191))
		stream_report_progress(s);
	c->missed = 0;
	load_event(s, c);
	if (pos < 0)
		return;
	if (!c->has_event) {
		heap_remove(s, pos);
		return;
	}
	if (s->any_order && pos == 0)	/* no merge: the top goes on */
		return;
	/* Events of one CPU come in time order, mostly: both ways (the
	 * top, the usual case, only down). */
	if (pos > 0)
		sift_up(s, pos);
	sift_down(s, c->heap_pos);
}

void stream_hold(struct stream *s, struct stream_cpu *c)
{
	c->held = ++s->nheld;
	if (c->heap_pos >= 0)
		sift_down(s, c->heap_pos);
}

int stream_first_ts(struct tdat_file *f, int buf, const struct ts_adjust *a,
		    uint64_t *ts)
{
	struct tdat_error err;
	struct stream t;
	int got = 0;

	memset(&t, 0, sizeof(t));
	t.adjust[0] = *a;
	if (stream_add_buffer(&t, f, 0, buf, &err) == 0 && t.nheap) {
		*ts = stream_peek(&t)->ts;
		got = 1;
	}
	stream_free(&t);
	return got;
}

void stream_free(struct stream *s)
{
	int i;

	for (i = 0; i < s->ncpus; i++) {
		tdat_cpu_close(s->cpus[i].r);
		free(s->cpus[i].pad.buf);
	}
	free(s->cpus);
	free(s->heap);
	free(s->damage);
	s->cpus = NULL;
	s->heap = NULL;
	s->damage = NULL;
	s->ncpus = s->nheap = 0;
}
