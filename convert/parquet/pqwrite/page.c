/* SPDX-License-Identifier: GPL-2.0-or-later */
/* page.c - a page out: zstd, its PageHeader, the bytes to the sink. */
#include <stdint.h>
#include <stdlib.h>
#include <zstd.h>
#include "convert/parquet/pqwrite/pqwrite.h"

struct pq_scratch *pq_scratch_new(struct pq_writer *w)
{
	struct pq_scratch *s = calloc(1, sizeof(*s));

	if (s && w->zstd_level && !(s->zstd = ZSTD_createCCtx())) {
		free(s);
		return NULL;
	}
	return s;
}

void pq_scratch_free(struct pq_scratch *s)
{
	if (!s)
		return;
	pq_buf_free(&s->page);
	pq_buf_free(&s->comp);
	pq_buf_free(&s->hdr);
	pq_buf_free(&s->idx);
	ZSTD_freeCCtx(s->zstd);
	free(s);
}

/* s->page through zstd into s->comp, or as it is at level 0. */
static int compress(struct pq_writer *w, struct pq_scratch *s,
		    const uint8_t **body, size_t *clen)
{
	size_t bound, r;

	*body = s->page.p;
	*clen = s->page.len;
	if (!w->zstd_level)
		return 0;
	bound = ZSTD_compressBound(s->page.len);
	if (ZSTD_isError(bound))
		return pq_fail(w, "a page of %zu bytes is too large",
			       s->page.len);
	s->comp.len = 0;
	if (pq_buf_reserve(&s->comp, bound))
		return pq_fail(w, "out of memory");
	r = ZSTD_compressCCtx(s->zstd, s->comp.p, bound, s->page.p,
			      s->page.len, w->zstd_level);
	if (ZSTD_isError(r))
		return pq_fail(w, "zstd: %s", ZSTD_getErrorName(r));
	*body = s->comp.p;
	*clen = r;
	return 0;
}

/* PageHeader { 1: type, 2: uncompressed size, 3: compressed size,
 * 5: DataPageHeader | 7: DictionaryPageHeader }. */
static int page_header(struct pq_buf *hdr, int type, size_t ulen,
		       size_t clen, uint32_t nvalues, int enc)
{
	struct pq_thrift t;

	hdr->len = 0;
	pq_thrift_init(&t, hdr);
	pq_thrift_struct_begin(&t);
	pq_thrift_i32(&t, 1, type);
	pq_thrift_i32(&t, 2, (int32_t)ulen);
	pq_thrift_i32(&t, 3, (int32_t)clen);
	pq_thrift_field(&t, type == PQ_PAGE_DATA ? 5 : 7, PQ_T_STRUCT);
	pq_thrift_struct_begin(&t);
	pq_thrift_i32(&t, 1, (int32_t)nvalues);
	pq_thrift_i32(&t, 2, type == PQ_PAGE_DATA ? enc : PQ_E_PLAIN);
	if (type == PQ_PAGE_DATA) {
		pq_thrift_i32(&t, 3, PQ_E_RLE);	/* definition levels */
		pq_thrift_i32(&t, 4, PQ_E_RLE);	/* repetition levels */
	}
	pq_thrift_struct_end(&t);
	pq_thrift_struct_end(&t);
	return t.error ? -1 : 0;
}

/* The page in s->page, compressed, after its header; its sizes with
 * the header's added to *usize and *csize. */
int pq_page_write(struct pq_writer *w, struct pq_scratch *s, int type,
		  size_t nvalues, int enc, uint64_t *usize, uint64_t *csize)
{
	const uint8_t *body;
	size_t clen;

	if (compress(w, s, &body, &clen))
		return -1;
	if (s->page.len > 0x7fffffff || clen > 0x7fffffff ||
	    nvalues > 0x7fffffff)
		return pq_fail(w, "a page of %zu bytes is too large",
			       s->page.len);
	if (page_header(&s->hdr, type, s->page.len, clen, (uint32_t)nvalues,
			enc))
		return pq_fail(w, "out of memory");
	if (pq_emit(w, s->hdr.p, s->hdr.len) || pq_emit(w, body, clen))
		return -1;
	*usize += s->hdr.len + s->page.len;
	*csize += s->hdr.len + clen;
	return 0;
}
