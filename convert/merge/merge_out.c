/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_out.c - the pages of an output CPU stream being merged.
 *
 * Pages go out in batches of BATCH_PAGES.  A page with nothing to merge
 * into it is copied whole; when all the pages of an input's stored chunk
 * go out whole and in a row, the chunk is written as it was stored
 * instead (no recompression).  Pages that streams interleave in, or that
 * lose repeats, give their kept events to one pending "gathering" page
 * (libfmt's tdat_page_fill_*), written when full or when a whole page or
 * a copied stream must follow it: so interleaving costs few pages.
 */
#include <string.h>
#include "convert/merge/merge_cpu_internal.h"
#include "libfmt/pagecut.h"

int batch_flush(struct cpu_merge *c, struct tdat_error *err)
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
	if (c->m->o->chunk_size && h->usize != c->m->o->chunk_size)
		return 0;	/* the pages stay: the writer rechunks */
	c->nbatch = c->run_start;
	if (batch_flush(c, err))
		return -1;
	/* decoded already (its events were read): not checked again */
	r = tdat_writer_put_chunk_stored(c->w, h->cdata, h->csize, h->usize,
					 err);
	if (r == -2)
		return head_bad_page(c, h, "chunk is corrupt (its sizes or"
				     " frame header are not sane)", err);
	if (r)
		return -1;
	c->m->st->chunks_copied++;
	return 0;
}

int pend_flush(struct cpu_merge *c, struct tdat_error *err)
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

int put_whole(struct cpu_merge *c, struct head *h, struct tdat_error *err)
{
	uint8_t *p;

	if (pend_flush(c, err))
		return -1;
	if (h->chunked && h->pg == 0) {
		if (c->nbatch + h->npg > BATCH_PAGES && batch_flush(c, err))
			return -1;
		c->run_h = h;
		c->run_seq = h->seq;
		c->run_start = c->nbatch;
		c->run_pages = 0;
	}
	if (c->run_h != h || c->run_seq != h->seq || c->run_pages != h->pg)
		c->run_h = NULL;
	p = slot(c, err);
	if (!p)
		return -1;
	memcpy(p, h->page, c->ps);
	c->m->st->pages_copied++;
	if (c->run_h == h && ++c->run_pages == h->npg)
		return put_stored_chunk(c, h, err);
	return 0;
}

/*
 * The events of h's page whose keep[] is set, added to the page that
 * gathers them (pagecut.c): pages that streams interleave in, or that
 * lose repeats, take as few output pages as they can.
 */
int put_kept(struct cpu_merge *c, struct head *h, struct tdat_error *err)
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
int emit_held(struct cpu_merge *c, struct tdat_error *err)
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
