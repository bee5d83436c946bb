/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chunkpages.c - a compressed CPU stream page by page, each page with
 * the stored chunk it came from.
 *
 * For engines that need more than the pages: merge passes a chunk on
 * as stored when all its pages go out whole, split names a damaged page
 * by its chunk.  Each chunk is found by the header walk (chunkindex.c),
 * read as stored into the caller's buffer and decoded whole into the
 * walk's own, under the memory budget.  The buffer and the decoder are
 * the caller's so that many walks of one thread can share them.
 */
#include <string.h>
#include "libfmt/chunkindex.h"

int tdat_chunk_pages_init(struct tdat_chunk_pages *p, struct tdat_file *f,
			  int buf, int idx, struct tdat_error *err)
{
	memset(p, 0, sizeof(*p));
	return tdat_chunk_walk_init(&p->cw, f, buf, idx, err);
}

/* The next chunk read and decoded: 1, 0 after the last, -1. */
static int next_chunk(struct tdat_chunk_pages *p,
		      struct tdat_chunk_decoder *dec, uint8_t **stored,
		      size_t *cap, struct tdat_error *err)
{
	struct tdat_chunk *c = &p->chunk;
	int got = tdat_chunk_walk_read(&p->cw, c, stored, cap, err);

	if (got <= 0)
		return got;
	if (tdat_bytes_reserve_held(&p->pages, c->usize))
		return tdat_budget_fail(err, p->cw.f->path, c->offset, "chunk",
					c->usize);
	if (tdat_chunk_decode(dec, *stored, c->csize, p->pages.data, c->usize,
			      c->offset, err))
		return -1;
	p->data = *stored;
	p->seq++;
	p->npages = c->usize / p->cw.page_size;
	p->page = UINT32_MAX;	/* before its first */
	return 1;
}

int tdat_chunk_pages_next(struct tdat_chunk_pages *p,
			  struct tdat_chunk_decoder *dec, uint8_t **stored,
			  size_t *cap, const uint8_t **page,
			  struct tdat_error *err)
{
	int got;

	/* (page is UINT32_MAX before a chunk's first: page + 1 is 0) */
	while (p->page + 1 >= p->npages) {
		got = next_chunk(p, dec, stored, cap, err);
		if (got <= 0) {
			tdat_bytes_free(&p->pages);	/* give it back */
			p->npages = 0;
			return got;
		}
	}
	p->page++;
	*page = p->pages.data + (size_t)p->page * p->cw.page_size;
	return 1;
}

void tdat_chunk_pages_free(struct tdat_chunk_pages *p)
{
	tdat_bytes_free(&p->pages);
}
