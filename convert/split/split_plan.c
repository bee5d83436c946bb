/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_plan.c - where each piece of a split starts in each stream.
 *
 * Without -c the chosen streams are walked together in report order (by
 * timestamp, ties in buffer and CPU order), so "N events" and "N seconds"
 * mean what a reader of the whole file sees: piece k holds report lines
 * [kN, (k+1)N), or the events from its first one's time (or START) to
 * that time + N, inclusive, like trace-cmd.  With -c (and -p) every
 * stream is walked on its own with its own count or window.
 *
 * A piece's part of a stream is contiguous: it starts at the position of
 * its first event and ends where the next piece starts (the stream's
 * next event when the split stops), so pages without events stay with
 * the piece before them and nothing is lost or doubled.
 *
 * Times are the ones readers show: raw record times adjusted by the
 * file's DATE, OFFSET and TSC2NSEC options (tdat_ts_apply), for START,
 * END, the windows and the order of the walk.  The pieces keep those
 * options and the raw pages, so they show the same times.
 *
 * Memory stays flat whatever the CPU count: an uncompressed stream is
 * read RAW_SPAN pages at a time, a compressed one holds one decoded
 * chunk, and all share one decompression context.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/split/split.h"
#include "convert/split/split_walk.h"

#define SPLIT_MAX_PIECES 100000

static int oom(const struct tdat_file *in, struct tdat_error *err)
{
	tdat_fail_nooff(err, in->path, "out of memory");
	return -1;
}

/* Give stream w's event at its position to piece k. */
static int assign(const struct tdat_file *in, struct walker *w, int k,
		  struct tdat_error *err)
{
	if (k < 0 || k >= SPLIT_MAX_PIECES) {
		return tdat_fail_nooff(err, in->path, "more than %d pieces;"
				       " choose a larger unit",
				       SPLIT_MAX_PIECES);
	}
	while (w->last < k) {
		if (w->last + 1 >= w->cap) {
			int cap = w->cap ? w->cap * 2 : 16;
			struct split_pos *s = realloc(w->starts,
						      (size_t)cap * sizeof(*s));

			if (!s)
				return oom(in, err);
			w->starts = s;
			w->cap = cap;
		}
		w->starts[++w->last] = w->at;
	}
	return 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* ---- the pieces of the whole timeline (no -c) ---- */

struct timeline {
	int piece;		/* current piece, -1 before the first event */
	uint64_t window_end;
	uint64_t count;
};

/* Which piece event ev goes to, or -1 to stop. */
static int timeline_piece(const struct split_opts *o, struct timeline *t,
			  uint64_t ts)
{
	int next = t->piece < 0;

	if (t->piece >= 0 && o->unit == SPLIT_TIME && ts > t->window_end)
		next = 1;
	if (t->piece >= 0 && o->unit == SPLIT_EVENTS && t->count >= o->amount)
		next = 1;
	if (next) {
		if (t->piece >= 0 && !o->repeat)
			return -1;
		t->piece++;
		t->count = 0;
		t->window_end = add_sat(t->piece == 0 && o->has_start ?
					o->start : ts, o->amount);
	}
	t->count++;
	return t->piece;
}

/* A binary heap of walkers ordered by (next timestamp, stream order). */
struct heap {
	int n;
	int *ix;
	struct walker *w;
};

static int heap_less(const struct heap *h, int a, int b)
{
	uint64_t ta = h->w[h->ix[a]].ts, tb = h->w[h->ix[b]].ts;

	return ta < tb || (ta == tb && h->ix[a] < h->ix[b]);
}

static void heap_swap(struct heap *h, int a, int b)
{
	int t = h->ix[a];

	h->ix[a] = h->ix[b];
	h->ix[b] = t;
}

static void heap_down(struct heap *h, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && heap_less(h, l, m))
			m = l;
		if (r < h->n && heap_less(h, r, m))
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

static void heap_up(struct heap *h, int i)
{
	while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* Stream s's next event; in a time split, when s is in the current
 * piece, past the pages that end before the window does (no cut there). */
static int timeline_step(struct tdat_file *in, const struct split_opts *o,
			 const struct timeline *t, struct walker *s,
			 struct tdat_error *err)
{
	uint64_t limit = t->window_end;

	if (o->unit != SPLIT_TIME || t->piece < 0 || s->last != t->piece ||
	    s->at.ev != 0)
		return split_walk_next(in, s, err);
	if (o->has_end && o->end < limit)
		limit = o->end;
	return split_walk_next_after(in, s, limit, err);
}

static int plan_timeline(struct tdat_file *in, const struct split_opts *o,
			 struct walker *w, int nw, struct tdat_error *err)
{
	struct timeline t = { -1, 0, 0 };
	struct heap h = { 0, NULL, w };
	int i, r = 0;

	h.ix = malloc((nw ? (size_t)nw : 1) * sizeof(*h.ix));
	if (!h.ix)
		return oom(in, err);
	for (i = 0; i < nw; i++) {
		r = split_walk_next(in, &w[i], err);
		if (r < 0)
			goto out;
		if (r == 1) {
			h.ix[h.n++] = i;
			heap_up(&h, h.n - 1);
		}
	}
	r = 0;
	while (h.n) {
		struct walker *s = &w[h.ix[0]];
		int k;

		if (o->has_end && s->ts > o->end)
			break;
		if (s->last >= 0 || !o->has_start || s->ts >= o->start) {
			k = timeline_piece(o, &t, s->ts);
			if (k < 0)
				break;
			if (assign(in, s, k, err)) {
				r = -1;
				break;
			}
		}
		r = timeline_step(in, o, &t, s, err);
		if (r < 0)
			break;
		if (r == 0)
			h.ix[0] = h.ix[--h.n];
		r = 0;
		heap_down(&h, 0);
	}
out:
	free(h.ix);
	return r;
}

/* ---- every stream on its own (-c, -p) ---- */

static int stream_piece(const struct split_opts *o, struct walker *w)
{
	int next = w->last < 0;

	if (o->unit == SPLIT_PAGES) {
		uint64_t k;

		if (w->last < 0)
			w->first_page = o->has_start ? w->at.page : 0;
		k = (w->at.page - w->first_page) / o->amount;
		if (k > 0 && !o->repeat)
			return -1;
		return k >= SPLIT_MAX_PIECES ? -2 : (int)k;
	}
	if (w->last >= 0 && o->unit == SPLIT_TIME && w->ts > w->window)
		next = 1;
	if (w->last >= 0 && o->unit == SPLIT_EVENTS && w->count >= o->amount)
		next = 1;
	if (!next) {
		w->count++;
		return w->last;
	}
	if (w->last >= 0 && !o->repeat)
		return -1;
	w->count = 1;
	w->window = add_sat(w->last < 0 && o->has_start ? o->start : w->ts,
			    o->amount);
	return w->last + 1;
}

static int plan_stream(struct tdat_file *in, const struct split_opts *o,
		       struct walker *w, struct tdat_error *err)
{
	int r, k;

	while ((r = split_walk_next(in, w, err)) == 1) {
		if (o->has_end && w->ts > o->end)
			break;
		if (w->last < 0 && o->has_start && w->ts < o->start)
			continue;
		k = stream_piece(o, w);
		if (k == -1)
			break;
		if (assign(in, w, k, err))
			return -1;
	}
	return r < 0 ? -1 : 0;
}

/* ---- the plan ---- */

static int chosen_cpu(const struct split_opts *o, int cpu)
{
	return o->only_cpu < 0 || o->only_cpu == cpu;
}

/* The streams to split, in output order: buffer, then CPU id. */
static int list_streams(struct tdat_file *in, const struct split_opts *o,
			struct split_plan *p, struct tdat_error *err)
{
	int b, i, n = 0;

	for (b = 0; b < o->nbuffers; b++)
		n += in->buffers[o->buffers[b].in_buf].ncpus;
	p->streams = calloc(n ? (size_t)n : 1, sizeof(*p->streams));
	if (!p->streams)
		return oom(in, err);
	for (b = 0; b < o->nbuffers; b++) {
		const struct tdat_buffer *tb = &in->buffers[o->buffers[b].in_buf];
		int first = p->nstreams;

		if (tb->latency)
			continue;
		for (i = 0; i < tb->ncpus; i++) {
			struct split_stream *s;
			int j;

			if (!chosen_cpu(o, tb->cpus[i].cpu))
				continue;
			/* insertion by CPU id */
			for (j = p->nstreams; j > first &&
			     p->streams[j - 1].cpu > tb->cpus[i].cpu; j--)
				p->streams[j] = p->streams[j - 1];
			s = &p->streams[j];
			s->out_buf = b;
			s->in_buf = o->buffers[b].in_buf;
			s->idx = i;
			s->cpu = tb->cpus[i].cpu;
			p->nstreams++;
		}
	}
	return 0;
}

/*
 * Walkers go in input order (top buffer first, instances as listed,
 * CPUs ascending): the order trace-cmd report breaks timestamp ties in.
 */
static int walker_order(const struct split_plan *p, int *ord)
{
	int i, j;

	for (i = 0; i < p->nstreams; i++) {
		const struct split_stream *s = &p->streams[i];

		for (j = i; j > 0; j--) {
			const struct split_stream *q = &p->streams[ord[j - 1]];

			if (q->in_buf < s->in_buf ||
			    (q->in_buf == s->in_buf && q->cpu < s->cpu))
				break;
			ord[j] = ord[j - 1];
		}
		ord[j] = i;
	}
	return 0;
}

/* Fill p->pos from the walkers; streams not reached end where they are. */
static int fill_positions(struct tdat_file *in, const struct split_opts *o,
			  struct split_plan *p, struct walker *w, const int *ord,
			  struct tdat_error *err)
{
	int i, k, n = 0;

	for (i = 0; i < p->nstreams; i++)
		if (w[i].last + 1 > n)
			n = w[i].last + 1;
	p->npieces = n = n ? n : 1;	/* nothing in range: one empty piece */
	p->pos = calloc((size_t)p->nstreams * (n + 1) + 1, sizeof(*p->pos));
	if (!p->pos)
		return oom(in, err);
	for (i = 0; i < p->nstreams; i++) {
		struct walker *x = &w[i];
		struct split_pos *pos = &p->pos[(size_t)ord[i] * (n + 1)];

		for (k = 0; k <= n; k++)
			pos[k] = k <= x->last ? x->starts[k] : x->at;
		/* with no START, pages before the first event go with it */
		if (!o->has_start && x->last >= 0)
			pos[0] = (struct split_pos){ 0, 0 };
		for (k = 1; o->unit == SPLIT_PAGES && k <= x->last; k++)
			pos[k] = (struct split_pos){ x->first_page +
						      k * o->amount, 0 };
	}
	return 0;
}

/*
 * Stream s's walker.  Without -c the walk is merged later: every stream
 * keeps its span or chunk open.  With -c each is walked here, alone.
 */
static int walker_start(struct tdat_file *in, const struct split_opts *o,
			const struct split_stream *s, struct walker *w,
			struct walk_shared *sh, struct tdat_error *err)
{
	int r;

	w->last = -1;
	w->sh = sh;
	w->page_size = in->buffers[s->in_buf].page_size;
	if (!in->buffers[s->in_buf].cpus[s->idx].size) {
		w->done = 1;
		return 0;
	}
	w->in = in;
	w->buf = s->in_buf;
	w->idx = s->idx;
	if (split_walk_open(w, err))
		return -1;
	if (!o->per_cpu)
		return 0;
	r = plan_stream(in, o, w, err);
	tdat_cpu_close(w->r);
	w->r = NULL;
	tdat_chunk_pages_free(&w->cp);
	return r;
}

int split_plan(struct tdat_file *in, const struct split_opts *o,
	       struct split_plan *p, struct tdat_error *err)
{
	struct walk_shared sh;
	struct walker *w = NULL;
	int *ord = NULL, i, r = -1;

	memset(p, 0, sizeof(*p));
	memset(&sh, 0, sizeof(sh));
	if (list_streams(in, o, p, err))
		return -1;
	tdat_ts_adjust_init(in, 0, &sh.adj);
	sh.raw = !sh.adj.offset && !sh.adj.mult && !sh.adj.guest;
	sh.dec = tdat_chunk_decoder_new(in);
	if (!sh.dec) {
		oom(in, err);
		goto out;
	}
	w = calloc(p->nstreams ? (size_t)p->nstreams : 1, sizeof(*w));
	ord = calloc(p->nstreams ? (size_t)p->nstreams : 1, sizeof(*ord));
	if (!w || !ord) {
		oom(in, err);
		goto out;
	}
	walker_order(p, ord);
	for (i = 0; i < p->nstreams; i++)
		if (walker_start(in, o, &p->streams[ord[i]], &w[i], &sh, err))
			goto out;
	if (!o->per_cpu && plan_timeline(in, o, w, p->nstreams, err))
		goto out;
	r = fill_positions(in, o, p, w, ord, err);
out:
	for (i = 0; w && i < p->nstreams; i++) {
		tdat_cpu_close(w[i].r);
		tdat_chunk_pages_free(&w[i].cp);
		free(w[i].starts);
	}
	tdat_chunk_decoder_free(sh.dec);
	free(sh.cbuf);
	free(sh.probe);
	free(w);
	free(ord);
	if (r)
		split_plan_free(p);
	return r;
}

void split_plan_free(struct split_plan *p)
{
	free(p->streams);
	free(p->pos);
	memset(p, 0, sizeof(*p));
}
