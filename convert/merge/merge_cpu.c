/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_cpu.c - one output CPU stream from the inputs' streams of that
 * CPU.
 *
 * The streams are merged by event timestamp, a page at a time: the
 * stream whose next event is the earliest goes first (ties: the earlier
 * input on the command line), and its page is copied whole when no other
 * stream has an event inside the page's time range.  Streams are opened
 * only when the merge reaches their first event, so pieces that follow
 * each other in time are read one after the other, and a stream that
 * lies wholly before every other is copied as stored, unread
 * (merge_copy.c).
 *
 * Duplicates (inputs that overlap): at each timestamp T that several
 * streams hold, every distinct event goes out as many times as the
 * stream holding most copies of it has it (merge_dups.c), whatever the
 * streams' page boundaries or their order of events at T; streams that
 * hold other events at T (readers that shared one ring buffer) add up,
 * and so do a piece ending inside T's events and one starting there.
 * The first stream at T (the one with earlier events, then the earlier
 * input) writes its events there as they come.  Once they are all known
 * (a later timestamp follows in its page), every other stream's events
 * at T are gathered, over as many of its pages as they take, judged
 * together, and those to write go out right after (merge_gather.c).  So
 * the first stream's page goes on whole unless another adds events
 * inside it.  Cheap cases first: a stream alone at T, or others holding
 * T's events byte for byte within their pages as it does, and identical
 * pages at the same point skip the counting (merge_twins.c).  Pages not
 * written whole give their kept events to one gathering page
 * (merge_out.c), so interleaving costs few pages.
 *
 * The files of this part: merge_cpu.c (this loop), merge_heads.c (an
 * input stream read page by page), merge_twins.c, merge_gather.c,
 * merge_out.c (the output's pages); they share merge_cpu_internal.h.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_cpu_internal.h"

/*
 * Does a (at ts, fresh or not, input ia) go before b?  At one timestamp
 * a stream that had events before it goes before one whose events start
 * there (pieces cut inside the timestamp's events: the earlier piece
 * holds the first ones), then the earlier input.
 */
static int before(uint64_t ts, int fa, int ia, uint64_t tb, int fb, int ib)
{
	if (ts != tb)
		return ts < tb;
	if (fa != fb)
		return fb;
	return ia < ib;
}

/* May h write its events at ts before every other stream's? */
static int h_goes_first(struct cpu_merge *c, struct head *h, uint64_t ts,
			const struct merge_stream *next)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done &&
		    !before(ts, fresh(h, ts), h->s->input, head_ts(t),
			    fresh(t, head_ts(t)), t->s->input))
			return 0;
	}
	return !next || before(ts, fresh(h, ts), h->s->input, next->key, 1,
			       next->input);
}

/*
 * h's events [j, j + n), all at one timestamp, judged: keep[] set for
 * those to write; how many they are.
 */
static uint32_t judge(struct cpu_merge *c, struct head *h, uint32_t j,
		      uint32_t n)
{
	uint32_t k, kept = 0;

	if ((!c->dset || c->dts != h->ts[j]) &&
	    (c->nh == 1 || same_groups(c, h, j, n))) {
		/* alone, or the others' repeats dropped: nothing more to
		 * count at ts */
		c->dset = 1;
		c->dts = h->ts[j];
		c->dactive = 0;
	} else if (dups_at(c, h, h->ts[j])) {
		for (k = j; k < j + n; k++)
			kept += h->keep[k] = (uint8_t)take(c, h, k);
		return kept;
	}
	memset(h->keep + j, 1, n);
	return n;
}

/*
 * h's events [h->pos, j) judged, kept of them to write: the page goes
 * whole when all of it is written, else its kept events are gathered.
 */
static int put_judged(struct cpu_merge *c, struct head *h, uint32_t j,
		      uint32_t kept, struct tdat_error *err)
{
	h->dropped += j - h->pos - kept;
	if (!h->nev || (h->pos == 0 && j == h->nev && kept == h->nev))
		return put_whole(c, h, err);
	if (!kept)
		return 0;
	memset(h->keep, 0, h->pos);
	memset(h->keep + j, 0, h->nev - j);
	return put_kept(c, h, err);
}

/* Write what h can of its page before the other streams' events. */
static int step(struct cpu_merge *c, struct head *h,
		const struct merge_stream *next, struct tdat_error *err)
{
	uint32_t j = h->pos, n, kept = 0;
	int twins = 0, r;

	/* a later stream at the timestamp being counted */
	if (h->nev && c->dset && c->dactive && c->dts == h->ts[h->pos] &&
	    c->dfirst != h->s && !dups_gave_up(c->d))
		return gather(c, h, c->dts, err) || emit_held(c, err) ? -1 : 0;
	if (h->pos == 0) {
		twins = mark_twins(c, h, err);
		if (twins < 0)
			return -1;
	}
	while (j < h->nev) {
		n = group(h, j);
		/* the front's first group always goes */
		if (j > h->pos && !h_goes_first(c, h, h->ts[j], next))
			break;
		kept += judge(c, h, j, n);
		j += n;
		if (j == h->nev || !c->dactive)
			continue;
		r = drop_repeats(c, h, h->ts[j - n], err);
		if (r < 0)
			return -1;
		if (twins) {
			skip_twins(c, h, j);
			twins = 0;
		}
		if (r)
			break;
	}
	if (twins)
		skip_twins(c, h, UINT32_MAX);	/* only unmarks them */
	if (put_judged(c, h, j, kept, err) ||
	    (c->held.n && emit_held(c, err)))
		return -1;
	h->pos = j;
	if (h->pos < h->nev)
		return 0;
	return head_next(c, h, err);
}

/* The stream whose next event comes first, or NULL when all are done. */
static struct head *front(struct cpu_merge *c)
{
	struct head *best = NULL;
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *h = &c->h[i];

		if (!h->done &&
		    (!best || before(head_ts(h), fresh(h, head_ts(h)),
				     h->s->input, head_ts(best),
				     fresh(best, head_ts(best)),
				     best->s->input)))
			best = h;
	}
	return best;
}

/* Forget the streams that ended. */
static void compact(struct cpu_merge *c)
{
	int i, k = 0;

	for (i = 0; i < c->nh; i++) {
		if (c->h[i].done) {
			head_free(&c->h[i]);
			continue;
		}
		c->h[k++] = c->h[i];
	}
	c->nh = k;
}

/* The latest timestamp of h's page: streams starting before it may
 * interleave with the page, or repeat its events. */
static uint64_t page_last(const struct head *h)
{
	return h->nev ? h->ts[h->nev - 1] : h->prev;
}

/* The next streams to open, while one lies wholly before every other
 * stream (open or not): written as stored (merge_copy.c). */
static int copy_whole(struct cpu_merge *c, struct merge_stream *s, int n,
		      int *next, struct tdat_error *err)
{
	for (; *next < n; ++*next) {
		int i, has = *next + 1 < n;
		uint64_t limit = has ? s[*next + 1].key : UINT64_MAX;

		for (i = 0; i < c->nh; i++)
			if (!c->h[i].done && (!has ||
					      head_ts(&c->h[i]) < limit)) {
				limit = head_ts(&c->h[i]);
				has = 1;
			}
		if (!merge_copy_fits(&s[*next], has, limit))
			return 0;
		c->run_h = NULL;
		/* events kept in the gathering page go before the copy */
		if (pend_flush(c, err) || batch_flush(c, err) ||
		    merge_copy_stream(c->m, c->w, &s[*next], err))
			return -1;
	}
	return 0;
}

static int run(struct cpu_merge *c, struct merge_stream *s, int n,
	       struct tdat_error *err)
{
	struct head *h;
	int next = 0;

	for (;;) {
		if (copy_whole(c, s, n, &next, err))
			return -1;
		h = front(c);
		/* Open the streams that start inside the front's page. */
		while (next < n && (!h || s[next].key <= page_last(h))) {
			if (head_open(c, &c->h[c->nh++], &s[next++], err))
				return -1;
			h = front(c);
		}
		if (!h)
			return 0;
		if (step(c, h, next < n ? &s[next] : NULL, err))
			return -1;
		compact(c);
	}
}

static void cpu_merge_free(struct cpu_merge *c)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		if (c->h[i].r)
			c->m->in[c->h[i].s->input].busy = 0;
		head_free(&c->h[i]);
	}
	free(c->h);
	free(c->batch);
	dups_free(c->d);
	free(c->pend);
	gather_free(c);
}

int merge_cpu(struct merge_ctx *m, struct tdat_writer *w,
	      struct merge_stream *s, int n, struct tdat_error *err)
{
	struct cpu_merge c;
	int r;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.w = w;
	c.cpu = s[0].cpu;
	c.bufname = m->meta->buffers[s[0].out_buf].name;
	c.ps = m->meta->buffers[s[0].out_buf].page_size;
	if (tdat_writer_begin_cpu(w, s[0].out_buf, c.cpu, err))
		return -1;
	c.h = calloc((size_t)n, sizeof(*c.h));
	c.batch = malloc((size_t)BATCH_PAGES * c.ps);
	c.d = dups_new();
	c.pend = malloc(c.ps);
	if (!c.h || !c.batch || !c.d || !c.pend) {
		r = tdat_fail_nooff(err, m->in[s[0].input].path,
				    "out of memory");
		goto out;
	}
	r = run(&c, s, n, err);
	if (!r)
		r = pend_flush(&c, err);
	if (!r)
		r = batch_flush(&c, err);
	if (!r)
		r = tdat_writer_end_cpu(w, err);
out:
	cpu_merge_free(&c);
	return r;
}
