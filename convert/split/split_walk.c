/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_walk.c - walking one stream for split's plan: an uncompressed
 * stream is read RAW_SPAN pages at a time, a compressed one a decoded
 * chunk at a time; every event comes with its adjusted time and its
 * (page, event) position.
 */
#include <stdlib.h>
#include "convert/split/split_walk.h"

#define RAW_SPAN 16

int split_walk_open(struct walker *w, struct tdat_error *err)
{
	struct tdat_buffer *b = &w->in->buffers[w->buf];
	struct tdat_cpu save = b->cpus[w->idx];
	uint64_t n;

	tdat_cpu_close(w->r);
	w->r = NULL;
	if (b->compressed) {
		w->compressed = 1;
		return tdat_chunk_pages_init(&w->cp, w->in, w->buf, w->idx,
					     err);
	}
	w->raw_pages = save.size / w->page_size;
	if (w->raw_next >= w->raw_pages && save.size % w->page_size == 0)
		return 0;
	n = w->raw_pages - w->raw_next;
	if (n > RAW_SPAN)
		n = RAW_SPAN;
	b->cpus[w->idx].offset += w->raw_next * w->page_size;
	/* the last span keeps a partial page, for the reader to refuse */
	b->cpus[w->idx].size = w->raw_next + n < w->raw_pages ?
			       n * w->page_size :
			       save.size - w->raw_next * w->page_size;
	w->r = tdat_cpu_open(w->in, w->buf, w->idx, err);
	b->cpus[w->idx] = save;
	w->raw_next += n ? n : 1;
	return w->r ? 0 : -1;
}

/* w's next page: 1 with it and its file offset (a compressed stream's:
 * its chunk's), 0 at the end, -1 on error. */
static int walk_page(struct walker *w, const uint8_t **page, uint64_t *off,
		     struct tdat_error *err)
{
	int got;

	if (w->compressed) {
		got = tdat_chunk_pages_next(&w->cp, w->sh->dec, &w->sh->cbuf,
					    &w->sh->ccap, page, err);
		*off = w->cp.chunk.offset;
		return got;
	}
	got = w->r ? tdat_cpu_next_page(w->r, page, off, err) : 0;
	while (got == 0 && w->r) {
		if (split_walk_open(w, err))
			return -1;
		got = w->r ? tdat_cpu_next_page(w->r, page, off, err) : 0;
	}
	return got;
}

/* w's current page is broken at byte pos of it: where in the file (a
 * compressed stream's page: its chunk, and which page), and what. */
static int bad_page(const struct walker *w, const char *what, uint32_t pos,
		    struct tdat_error *err)
{
	const struct tdat_buffer *b = &w->in->buffers[w->buf];

	if (w->compressed)
		return tdat_fail(err, w->in->path, w->page_off, "buffer \"%s\""
				 " CPU %d: %s (byte %u of page %u of the"
				 " chunk here)", b->name, b->cpus[w->idx].cpu,
				 what, pos, w->cp.page);
	return tdat_fail(err, w->in->path, w->page_off + pos, "buffer \"%s\""
			 " CPU %d: %s", b->name, b->cpus[w->idx].cpu, what);
}

int split_walk_next(struct tdat_file *in, struct walker *w,
		     struct tdat_error *err)
{
	const uint8_t *page;
	uint64_t off;
	int got;

	for (;;) {
		if (w->have_page) {
			got = tdat_page_iter_next(&w->it, &w->cur);
			if (got == 1) {
				w->ts = w->sh->raw ? w->cur.ts :
					tdat_ts_apply_cpu(&w->sh->adj,
						w->in->buffers[w->buf]
						.cpus[w->idx].cpu, w->cur.ts);
				w->at.page = w->page;
				w->at.ev = w->ev++;
				return 1;
			}
			if (got < 0)
				return bad_page(w, "a corrupt event in the"
						" page", w->it.pos, err);
			w->page++;
		}
		got = walk_page(w, &page, &off, err);
		if (got <= 0) {
			w->have_page = 0;
			w->done = 1;
			w->at.page = w->page;
			w->at.ev = 0;
			return got;
		}
		w->page_off = off;
		if (tdat_page_iter_init(&w->it, in, page, w->page_size))
			return bad_page(w, "a page whose commit is larger than"
					" the page", 8, err);
		w->have_page = 1;
		w->ev = 0;
	}
}


/*
 * Skipping pages in a time split.  A stream's times do not go back (the
 * kernel fills its pages in time order), so every event of a page is at
 * or before the next page's start: a run of pages that all start at or
 * before LIMIT ends no window and holds no cut.  The plan need not read
 * them: only a few page headers are probed, galloping ahead then halving
 * back.  A probe that is empty, goes back in time or passes LIMIT ends
 * the run, so a damaged stream is walked event by event as before.
 */

/* The start time of page p of w's stream: 1, 0 if it is empty, -1. */
static int probe_page(struct tdat_file *in, struct walker *w, uint64_t p,
		      uint64_t *ts, struct tdat_error *err)
{
	const struct tdat_cpu *c = &in->buffers[w->buf].cpus[w->idx];
	struct walk_shared *sh = w->sh;
	struct tdat_page_iter it;

	if (sh->pcap < w->page_size) {
		free(sh->probe);
		sh->pcap = 0;
		if (!(sh->probe = malloc(w->page_size)))
			return tdat_fail_nooff(err, in->path, "out of memory");
		sh->pcap = w->page_size;
	}
	if (tdat_read_stored(in, c->offset + p * w->page_size, sh->probe,
			     w->page_size, err))
		return -1;
	if (tdat_page_iter_init(&it, in, sh->probe, w->page_size) ||
	    it.end <= it.pos)
		return 0;
	*ts = sh->raw ? it.ts : tdat_ts_apply_cpu(&sh->adj, c->cpu, it.ts);
	return 1;
}

/* Is page p a page of the run: starts at or after *from, at or before
 * limit?  1 (and *from its start), 0, -1 on error. */
static int in_run(struct tdat_file *in, struct walker *w, uint64_t p,
		  uint64_t *from, uint64_t limit, struct tdat_error *err)
{
	uint64_t ts;
	int got = probe_page(in, w, p, &ts, err);

	if (got <= 0)
		return got;
	if (ts < *from || ts > limit)
		return 0;
	*from = ts;
	return 1;
}

/* The last page of w's stream after its current one that starts the run
 * (*last = the current page when none does): 0, -1 on error. */
static int run_end(struct tdat_file *in, struct walker *w, uint64_t limit,
		   uint64_t *last, struct tdat_error *err)
{
	const struct tdat_cpu *c = &in->buffers[w->buf].cpus[w->idx];
	uint64_t good = w->page, hi = w->raw_pages, step = 1, from = w->ts;
	uint64_t whole = c->offset < in->file_size ?
			 (in->file_size - c->offset) / w->page_size : 0;
	int got;

	*last = good;
	/* pages past the end of a truncated file are left to the walk,
	 * which says what is wrong */
	if (whole < hi)
		hi = whole;
	if (hi <= good + 1)
		return 0;

	while (good + step < hi) {	/* gallop */
		got = in_run(in, w, good + step, &from, limit, err);
		if (got < 0)
			return -1;
		if (!got) {
			hi = good + step;
			break;
		}
		good += step;
		step *= 2;
	}
	while (hi - good > 1) {		/* halve back */
		uint64_t mid = good + (hi - good) / 2;

		got = in_run(in, w, mid, &from, limit, err);
		if (got < 0)
			return -1;
		if (got)
			good = mid;
		else
			hi = mid;
	}
	*last = good;
	return 0;
}

int split_walk_next_after(struct tdat_file *in, struct walker *w,
			  uint64_t limit, struct tdat_error *err)
{
	uint64_t to;

	if (w->compressed || !w->r || w->sh->adj.guest || w->ts > limit)
		return split_walk_next(in, w, err);
	if (run_end(in, w, limit, &to, err))
		return -1;
	if (to == w->page)
		return split_walk_next(in, w, err);
	w->raw_next = to;	/* reopen the span at page to */
	if (split_walk_open(w, err))
		return -1;
	w->page = to;
	w->have_page = 0;
	return split_walk_next(in, w, err);
}
