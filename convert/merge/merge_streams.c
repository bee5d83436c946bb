/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_streams.c - the input streams of one output CPU, each read a
 * page at a time (a "head").
 *
 * The merge looks at one page of each open stream: its events'
 * timestamps, payloads and offsets are listed once when the page is
 * read, so the merge can compare, skip and copy them by index.  When the
 * writer takes the input's chunks as they are stored, a compressed
 * stream is read with each page's stored chunk beside it (libfmt's
 * tdat_chunk_pages), so that a chunk whose pages all go out whole can be
 * written as it was stored (merge_cpu.c).
 * A stream is closed as soon as it ends, to keep the inputs' file
 * descriptors bounded.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"
#include "libfmt/chunkindex.h"

int streams_bad_page(struct cpu_merge *c, struct head *h, const char *what,
		     struct tdat_error *err)
{
	return tdat_fail(err, h->f->path, h->off, "buffer \"%s\" CPU %d: %s",
			 c->bufname, c->cpu, what);
}

static void head_close(struct cpu_merge *c, struct head *h)
{
	struct merge_input *in = &c->m->in[h->s->input];

	tdat_cpu_close(h->r);
	h->r = NULL;
	h->done = 1;
	in->busy = 0;
	c->m->done += h->s->size;
	if (c->m->o->progress)
		c->m->o->progress(c->m->o->progress_ctx, c->m->done,
				  c->m->total);
	merge_input_trim(c->m);
}

/* The next page of a stream in chunk mode: 1, 0 at the end, -1. */
static int next_chunk_page(struct head *h, struct tdat_error *err)
{
	int got = tdat_chunk_pages_next(&h->cp, h->dec, &h->stored, &h->cap,
					&h->page, err);

	h->off = h->cp.chunk.offset;
	return got;
}

/* The page left: its repeats counted in the stats. */
static void page_done(struct cpu_merge *c, struct head *h)
{
	if (h->nev)
		h->prev = h->ts[h->nev - 1];
	if (h->nev && h->dropped == h->nev)
		c->m->st->dup_pages++;
	else
		c->m->st->dup_events += h->dropped;
	h->nev = h->pos = h->dropped = 0;
}

/* The events of h's page listed: timestamps, payloads, offsets. */
static int list_events(struct cpu_merge *c, struct head *h,
		       struct tdat_error *err)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int got;

	if (tdat_page_iter_init(&it, h->f, h->page, c->ps))
		return streams_bad_page(c, h, "page commit is larger than"
					" the page", err);
	while ((got = tdat_page_iter_next(&it, &ev)) == 1) {
		h->ts[h->nev] = ev.ts;
		h->data[h->nev] = ev.data;
		h->ioff[h->nev] = ev.offset;
		h->size[h->nev++] = ev.size;
		if (h->nev > 1 && ev.ts < h->ts[h->nev - 2])
			return streams_bad_page(c, h, "timestamps go"
						" backwards", err);
	}
	if (got < 0)
		return streams_bad_page(c, h, "an event runs past the page",
					err);
	return 0;
}

int streams_next(struct cpu_merge *c, struct head *h, struct tdat_error *err)
{
	int got;

	page_done(c, h);
	got = h->chunked ? next_chunk_page(h, err) :
			   tdat_cpu_next_page(h->r, &h->page, &h->off, err);
	if (got <= 0) {
		/* a piece that ends inside a timestamp's events (it had
		 * earlier ones): a piece starting there may go on with them */
		if (!got && c->dset && c->dactive && c->dts == h->prev &&
		    h->s->key < h->prev)
			repeats_end(c, h);
		head_close(c, h);
		return got;
	}
	c->m->st->pages_in++;
	return list_events(c, h, err);
}

int streams_open(struct cpu_merge *c, struct head *h, struct merge_stream *s,
		 struct tdat_error *err)
{
	uint32_t cap = c->ps / 4 + 1;

	memset(h, 0, sizeof(*h));
	h->s = s;
	h->prev = s->key;
	h->ts = malloc(cap * sizeof(*h->ts));
	h->data = malloc(cap * sizeof(*h->data));
	h->size = malloc(cap * sizeof(*h->size));
	h->keep = malloc(cap);
	h->ioff = malloc(cap * sizeof(*h->ioff));
	if (!h->ts || !h->data || !h->size || !h->keep || !h->ioff)
		return tdat_fail_nooff(err, c->m->in[s->input].path,
				       "out of memory");
	h->f = merge_input_get(c->m, s->input, err);
	if (!h->f)
		return -1;
	c->m->in[s->input].busy = 1;
	h->chunked = tdat_writer_chunk_passes(c->w, h->f, s->buf,
			tdat_writer_chunk_size(c->w, s->out_buf));
	if (h->chunked) {
		h->dec = tdat_chunk_decoder_new(h->f);
		if (!h->dec)
			return tdat_fail_nooff(err, h->f->path,
					       "out of memory");
		if (tdat_chunk_pages_init(&h->cp, h->f, s->buf, s->idx, err))
			return -1;
	} else if (!(h->r = tdat_cpu_open(h->f, s->buf, s->idx, err))) {
		return -1;
	}
	return streams_next(c, h, err);
}

void streams_free(struct head *h)
{
	tdat_cpu_close(h->r);
	tdat_chunk_decoder_free(h->dec);
	tdat_chunk_pages_free(&h->cp);
	free(h->stored);
	free(h->ts);
	free(h->data);
	free(h->size);
	free(h->keep);
	free(h->ioff);
}
