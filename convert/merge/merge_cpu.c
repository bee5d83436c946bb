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
 * lies wholly before every other (its time range known from pass 1) is
 * copied as stored, unread (convert/copy's copy_stream_data).
 *
 * Each open stream is a head (merge_streams.c): its current page and
 * that page's events.  A page of a stored chunk whose pages all go out
 * whole, in a row, makes the chunk go out as it was stored (no
 * recompression).
 *
 * Pages go out in batches of BATCH_PAGES.  Pages that streams interleave
 * in, or that lose repeats (merge_repeats.c), give their kept events to
 * one pending "gathering" page (libfmt's tdat_page_fill_*), written when
 * full or when a whole page or a copied stream must follow it: so
 * interleaving costs few pages.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/copy/copy.h"
#include "convert/merge/merge_internal.h"
#include "libfmt/chunkindex.h"
#include "libfmt/pagecut.h"

/* ---- the output's pages ---- */

static int batch_flush(struct cpu_merge *c, struct tdat_error *err)
{
	int r = 0;

	if (c->nbatch)
		r = tdat_writer_put_pages(c->w, c->batch, c->nbatch * c->ps,
					  err);
	c->nbatch = 0;
	return r;
}

static uint8_t *slot(struct cpu_merge *c, struct tdat_error *err)
{
	if (c->nbatch == BATCH_PAGES) {
		c->run_h = NULL;	/* its first pages are gone */
		if (batch_flush(c, err))
			return NULL;
	}
	return c->batch + c->nbatch++ * c->ps;
}

/* A chunk whose pages all went out whole, in a row, as it was stored. */
static int put_stored_chunk(struct cpu_merge *c, struct head *h,
			    struct tdat_error *err)
{
	int r;

	c->run_h = NULL;
	if (!tdat_writer_chunk_passes(c->w, h->f, h->s->buf,
				      h->cp.chunk.usize))
		return 0;	/* the pages stay: the writer rechunks */
	c->nbatch = c->run_start;
	if (batch_flush(c, err))
		return -1;
	/* decoded already (its events were read): not checked again */
	r = tdat_writer_put_chunk_stored(c->w, h->cp.data, h->cp.chunk.csize,
					 h->cp.chunk.usize, err);
	if (r == -2)
		return streams_bad_page(c, h, "chunk is corrupt (its sizes or"
					" frame header are not sane)", err);
	if (r)
		return -1;
	c->m->st->chunks_copied++;
	return 0;
}

static int pend_flush(struct cpu_merge *c, struct tdat_error *err)
{
	uint8_t *p;

	if (!c->pf_open)
		return 0;
	c->pf_open = 0;
	if (!c->pf.nev)
		return 0;
	c->run_h = NULL;
	p = slot(c, err);
	if (!p)
		return -1;
	tdat_page_fill_finish(c->m->meta, &c->pf);
	memcpy(p, c->pend, c->ps);
	c->m->st->pages_cut++;
	return 0;
}

static int put_whole(struct cpu_merge *c, struct head *h,
		     struct tdat_error *err)
{
	uint8_t *p;

	if (pend_flush(c, err))
		return -1;
	if (h->chunked && h->cp.page == 0) {
		if (c->nbatch + h->cp.npages > BATCH_PAGES &&
		    batch_flush(c, err))
			return -1;
		c->run_h = h;
		c->run_seq = h->cp.seq;
		c->run_start = c->nbatch;
		c->run_pages = 0;
	}
	if (c->run_h != h || c->run_seq != h->cp.seq ||
	    c->run_pages != h->cp.page)
		c->run_h = NULL;
	p = slot(c, err);
	if (!p)
		return -1;
	memcpy(p, h->page, c->ps);
	c->m->st->pages_copied++;
	if (c->run_h == h && ++c->run_pages == h->cp.npages)
		return put_stored_chunk(c, h, err);
	return 0;
}

/*
 * The events of h's page whose keep[] is set, added to the page that
 * gathers them (pagecut.c): pages that streams interleave in, or that
 * lose repeats, take as few output pages as they can.
 */
static int put_kept(struct cpu_merge *c, struct head *h, struct tdat_error *err)
{
	uint32_t next = 0;
	int r;

	c->run_h = NULL;
	for (;;) {
		if (!c->pf_open) {
			tdat_page_fill_init(c->m->meta, &c->pf, c->pend, c->ps);
			c->pf_open = 1;
		}
		r = tdat_page_fill_keep(h->f, &c->pf, h->page, h->keep, h->nev,
					&next, h->off, err);
		if (r)
			return r < 0 ? -1 : 0;
		if (pend_flush(c, err))
			return -1;
	}
}

/* A held event no page can take: where it was read, and why. */
static int held_unfit(const struct cpu_merge *c, const struct item *it,
		      struct tdat_error *err)
{
	const char *where = it->in_chunk ? " (in the chunk here)" : "";
	unsigned long long ts = c->dts;

	if (it->len % 4)
		return tdat_fail(err, c->m->in[it->input].path, it->at,
				 "buffer \"%s\" CPU %d: the event at %llu%s"
				 " is %u bytes long, not whole 4-byte words:"
				 " corrupt", c->bufname, c->cpu, ts, where,
				 it->len);
	return tdat_fail(err, c->m->in[it->input].path, it->at, "buffer"
			 " \"%s\" CPU %d: the event at %llu%s (%u bytes) does"
			 " not fit a page", c->bufname, c->cpu, ts, where,
			 it->len);
}

/* The held events of other streams, after what was written. */
static int emit_held(struct cpu_merge *c, struct tdat_error *err)
{
	const struct tdat_file *f = c->m->meta;
	uint32_t k;
	int r;

	c->run_h = NULL;
	for (k = 0; k < c->held.n; k++) {
		const struct item *it = &c->held.it[k];

		do {
			if (!c->pf_open) {
				tdat_page_fill_init(f, &c->pf, c->pend, c->ps);
				c->pf_open = 1;
			}
			r = tdat_page_fill_item(f, &c->pf, c->held.b.data + it->off,
						it->len, c->dts);
			if (r < 0)
				return held_unfit(c, it, err);
			if (!r && pend_flush(c, err))
				return -1;
		} while (!r);
	}
	c->held.n = 0;
	tdat_bytes_reset(&c->held.b);
	return 0;
}

/* ---- streams that need no merging ---- */

/*
 * Pieces cut from one recording follow each other in time: most of an
 * output CPU's input streams lie wholly before every other stream of
 * that CPU.  Such a stream has nothing to interleave with and nothing to
 * repeat (a repeat has an equal timestamp, and the order is strict), so
 * its events need not be read: it is copied as convert copies, its
 * stored chunks unread when the writer takes them.  Is s such a stream:
 * its whole time range strictly before limit, the earliest next event
 * of every other stream of the CPU, open or yet to open (has_limit 0:
 * there is no other)?
 */
static int copy_fits(const struct merge_stream *s, int has_limit,
		     uint64_t limit)
{
	return s->last_known && s->key <= s->last &&
	       (!has_limit || s->last < limit);
}

static int copy_stream(struct cpu_merge *c, struct merge_stream *s,
		       struct tdat_error *err)
{
	struct merge_ctx *m = c->m;
	struct copy_progress pr = { m->done, m->total, m->o->progress,
				    m->o->progress_ctx, 0, 0, 0 };
	struct tdat_file *f = merge_input_get(m, s->input, err);
	int r;

	if (!f)
		return -1;
	m->in[s->input].busy = 1;
	r = copy_stream_data(f, s->buf, s->idx, c->w, COPY_UNREAD, &pr,
			     err);
	m->in[s->input].busy = 0;
	if (r)
		return -1;
	m->st->pages_in += pr.pages;
	m->st->pages_copied += pr.pages;
	m->st->pages_raw_copied += pr.pages;
	m->st->chunks_stored += pr.chunks_unread;
	m->st->chunks_copied += pr.chunks;
	m->st->streams_copied++;
	m->done += s->size;
	if (m->o->progress)
		m->o->progress(m->o->progress_ctx, m->done, m->total);
	merge_input_trim(m);
	return 0;
}

/* ---- the merge ---- */

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
 * h's events [j, j + n), all at one timestamp, written: the first
 * stream at a timestamp writes every event it has there.  Counted when
 * other streams hold events at it, so that their repeats are found
 * (merge_repeats.c).
 */
static void judge(struct cpu_merge *c, struct head *h, uint32_t j,
		  uint32_t n)
{
	if ((!c->dset || c->dts != h->ts[j]) &&
	    (c->nh == 1 || repeats_same_groups(c, h, j, n))) {
		/* alone, or the others' repeats dropped: nothing more to
		 * count at ts */
		c->dset = 1;
		c->dts = h->ts[j];
		c->dactive = 0;
	} else if (repeats_counting(c, h, h->ts[j])) {
		repeats_count(c, h, j, n);
	}
}

/* h's events [h->pos, j) written: the whole page when they are all of
 * it, else they are gathered. */
static int put_judged(struct cpu_merge *c, struct head *h, uint32_t j,
		      struct tdat_error *err)
{
	if (!h->nev || (h->pos == 0 && j == h->nev))
		return put_whole(c, h, err);
	if (j == h->pos)
		return 0;
	memset(h->keep, 0, h->nev);
	memset(h->keep + h->pos, 1, j - h->pos);
	return put_kept(c, h, err);
}

/* Write what h can of its page before the other streams' events. */
static int step(struct cpu_merge *c, struct head *h,
		const struct merge_stream *next, struct tdat_error *err)
{
	uint32_t j = h->pos, n;
	int twins = 0, r;

	/* a later stream at the timestamp being counted */
	if (h->nev && c->dset && c->dactive && c->dts == h->ts[h->pos] &&
	    c->dfirst != h->s && !repeats_gave_up(c))
		return repeats_gather(c, h, c->dts, err) ||
		       emit_held(c, err) ? -1 : 0;
	if (h->pos == 0) {
		twins = repeats_mark_twins(c, h, err);
		if (twins < 0)
			return -1;
	}
	while (j < h->nev) {
		n = group(h, j);
		/* the front's first group always goes */
		if (j > h->pos && !h_goes_first(c, h, h->ts[j], next))
			break;
		judge(c, h, j, n);
		j += n;
		if (j == h->nev || !c->dactive)
			continue;
		r = repeats_drop(c, h, h->ts[j - n], err);
		if (r < 0)
			return -1;
		if (twins) {
			repeats_skip_twins(c, h, j);
			twins = 0;
		}
		if (r)
			break;
	}
	if (twins)
		repeats_skip_twins(c, h, UINT32_MAX);	/* only unmarks them */
	if (put_judged(c, h, j, err) || (c->held.n && emit_held(c, err)))
		return -1;
	h->pos = j;
	if (h->pos < h->nev)
		return 0;
	return streams_next(c, h, err);
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
			streams_free(&c->h[i]);
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
		if (!copy_fits(&s[*next], has, limit))
			return 0;
		c->run_h = NULL;
		/* events kept in the gathering page go before the copy */
		if (pend_flush(c, err) || batch_flush(c, err) ||
		    copy_stream(c, &s[*next], err))
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
			if (streams_open(c, &c->h[c->nh++], &s[next++], err))
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
		if (c->h[i].f && !c->h[i].done)
			c->m->in[c->h[i].s->input].busy = 0;
		streams_free(&c->h[i]);
	}
	free(c->h);
	free(c->batch);
	repeats_free(c->rp);
	free(c->pend);
	free(c->held.it);
	tdat_bytes_free(&c->held.b);
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
	c.rp = repeats_new();
	c.pend = malloc(c.ps);
	if (!c.h || !c.batch || !c.rp || !c.pend) {
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
