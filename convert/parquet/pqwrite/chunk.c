/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chunk.c - one column chunk: dictionary page, data pages v1, metadata. */
#include <stdint.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

enum { CODEC_NONE = 0, CODEC_ZSTD = 6 };

/* A chunk as its pages go out. */
struct chunk {
	int mode;		/* PQ_E_PLAIN, PQ_E_RLE_DICT or PQ_E_DELTA */
	int dw;			/* bit width of dictionary indices */
	int one;		/* a dictionary of one value: every index 0,
				 * one RLE run a page (no idx array) */
	uint64_t entries;	/* level entries: ColumnMetaData's num_values */
	uint64_t dict_off, data_off;	/* dict_off 0: no dictionary */
	uint64_t usize, csize;	/* pages with their headers */
};

/* Where a page starts or ends: level entry, value, byte of vals. */
struct pos {
	size_t e, v, b;
};

/* The dictionary's entries, PLAIN, in the order they came. */
static int dict_page(struct pq_writer *w, struct pq_col *c,
		     struct pq_scratch *s, struct chunk *k)
{
	const struct pq_dict *d = &c->dict;
	uint8_t *out;
	const uint8_t *p;
	size_t n;
	uint32_t i;

	s->page.len = 0;
	if (pq_buf_reserve(&s->page, d->bytes))	/* the page's size */
		return pq_fail(w, "out of memory");
	for (i = 0, out = s->page.p; i < d->n; i++, out += n) {
		n = c->width ? (size_t)c->width :
			       4 + (size_t)pq_load_le32(c->vals.p + d->key[i]);
		if (c->width == 4) {
			pq_store_le32(out, (uint32_t)d->key[i]);
		} else if (c->width == 8) {
			pq_store_le64(out, d->key[i]);
		} else {
			p = c->vals.p + d->key[i];
			memcpy(out, p, n);
		}
	}
	s->page.len = d->bytes;
	k->dict_off = w->off;
	return pq_page_write(w, s, PQ_PAGE_DICT, d->n, PQ_E_PLAIN, &k->usize,
			     &k->csize);
}

/* Bits a value adds to a page: about, but exact for PLAIN. */
static uint64_t value_bits(const struct pq_col *c, const struct chunk *k,
			   const uint8_t *plain)
{
	if (k->mode == PQ_E_RLE_DICT)
		return (uint64_t)k->dw;
	if (c->width)
		return 8 * (uint64_t)c->width;
	return 8 * (4 + (uint64_t)pq_load_le32(plain));
}

/* The end of the page that starts at *from: about limit bits of values
 * and levels, PQ_PAGE_VALUES entries at most, ending at a row's end
 * (repetition level 0 next), as readers and page indexes expect. */
static void next_page(const struct pq_col *c, const struct chunk *k,
		      uint64_t limit, const struct pos *from, struct pos *to)
{
	const uint8_t *def = c->def_kept ? c->def.p : NULL;
	const uint8_t *rep = c->maxrep ? c->rep.p : NULL;
	size_t e = from->e, v = from->v, b = from->b, n = pq_col_entries(c), m;
	uint64_t bits = 0, per, fit;

	if ((!def || (!c->nulls && !rep)) &&
	    (c->width || k->mode == PQ_E_RLE_DICT)) {
		/* An entry a value (no levels, or no nulls), every value
		 * the same size: counted at once */
		per = value_bits(c, k, NULL);
		fit = limit / per + (limit % per != 0);
		m = n - e;
		if (m > PQ_PAGE_VALUES)
			m = PQ_PAGE_VALUES;
		if (m > fit)
			m = fit ? (size_t)fit : 1;
		to->e = to->v = e + m;
		to->b = to->v * (size_t)c->width;
		return;
	}
	for (; e < n; e++) {
		if (e > from->e && (bits >= limit ||
				    e - from->e >= PQ_PAGE_VALUES) &&
		    (!rep || !rep[e]))
			break;
		bits++;		/* a level or two, about */
		if (def && def[e] != c->maxdef)
			continue;
		bits += value_bits(c, k, c->vals.p + b);
		b += c->width ? (size_t)c->width :
				4 + (size_t)pq_load_le32(c->vals.p + b);
		v++;
	}
	to->e = e;
	to->v = v;
	to->b = b;
}

/* Levels of a data page v1: their hybrid after its 4-byte length. */
static int levels(struct pq_buf *b, const uint8_t *lv, size_t n, int width)
{
	size_t at = b->len;

	if (pq_buf_reserve(b, 4))
		return -1;
	b->len += 4;
	if (pq_rle_encode_u8(b, lv, n, width))
		return -1;
	pq_store_le32(b->p + at, (uint32_t)(b->len - at - 4));
	return 0;
}

/* n definition levels of value v: one RLE run (a column of no null
 * keeps none), a varint of n << 1 and v's byte. */
static int levels_all(struct pq_buf *b, size_t n, uint8_t v)
{
	size_t at = b->len;

	if (pq_buf_reserve(b, 4))
		return -1;
	b->len += 4;
	if (pq_put_uvarint(b, (uint64_t)n << 1) || pq_buf_put(b, &v, 1))
		return -1;
	pq_store_le32(b->p + at, (uint32_t)(b->len - at - 4));
	return 0;
}

/* Repetition levels, definition levels, then the values. */
static int page_body(const struct pq_col *c, const struct chunk *k,
		     const struct pos *from, const struct pos *to,
		     struct pq_buf *page)
{
	size_t n = to->e - from->e, nv = to->v - from->v;
	uint8_t dw = (uint8_t)k->dw;

	page->len = 0;
	if (c->maxrep && levels(page, c->rep.p + from->e, n, 1))
		return -1;
	if (c->def_kept ? levels(page, c->def.p + from->e, n,
				 pq_bit_width((uint64_t)c->maxdef)) :
			  c->maxdef && levels_all(page, n, (uint8_t)c->maxdef))
		return -1;
	if (!nv)
		return 0;
	switch (k->mode) {
	case PQ_E_RLE_DICT:
		if (k->one)	/* a run of nv zeros, a byte wide */
			return pq_buf_put(page, &dw, 1) ||
			       pq_put_uvarint(page, (uint64_t)nv << 1) ||
			       pq_buf_put(page, "", 1) ? -1 : 0;
		return pq_buf_put(page, &dw, 1) ||
		       pq_rle_encode_u16(page, c->dict.idx +
					 from->v, nv, k->dw) ? -1 : 0;
	case PQ_E_DELTA:
		return pq_delta_encode_plain(page, c->vals.p + from->b, nv,
					     c->width);
	default:
		return pq_buf_put(page, c->vals.p + from->b, to->b - from->b);
	}
}

/* ColumnMetaData's encodings, in Parquet's numbering order. */
static uint32_t encodings(const struct pq_col *c, const struct chunk *k,
			  int32_t *enc)
{
	uint32_t n = 0;

	if (k->mode != PQ_E_DELTA)
		enc[n++] = PQ_E_PLAIN;	/* values, or the dictionary page */
	if (c->maxdef || c->maxrep)
		enc[n++] = PQ_E_RLE;
	if (k->mode != PQ_E_PLAIN)
		enc[n++] = k->mode;
	return n;
}

/* ColumnChunk { 2: file_offset, 3: ColumnMetaData { 1: type,
 * 2: encodings, 3: path_in_schema, 4: codec, 5: num_values,
 * 6, 7: sizes, 9: data_page_offset, 11: dictionary_page_offset,
 * 12: statistics } }. */
static void chunk_meta(struct pq_writer *w, struct pq_thrift *t,
		       const struct pq_col *c, const struct chunk *k,
		       const struct pq_stats *st, uint64_t start)
{
	int32_t enc[3];
	uint32_t i, n = encodings(c, k, enc);

	pq_thrift_struct_begin(t);
	pq_thrift_i64(t, 2, (int64_t)start);
	pq_thrift_field(t, 3, PQ_T_STRUCT);
	pq_thrift_struct_begin(t);
	pq_thrift_i32(t, 1, !c->width ? PQ_PT_BYTE_ARRAY :
			    c->width == 4 ? PQ_PT_INT32 : PQ_PT_INT64);
	pq_thrift_list(t, 2, PQ_T_I32, n);
	for (i = 0; i < n; i++)
		pq_thrift_i32_elem(t, enc[i]);
	pq_thrift_list(t, 3, PQ_T_BINARY, c->maxrep ? 3 : 1);
	pq_thrift_binary_elem(t, c->name, strlen(c->name));
	if (c->maxrep) {
		pq_thrift_binary_elem(t, "list", 4);
		pq_thrift_binary_elem(t, "element", 7);
	}
	pq_thrift_i32(t, 4, w->zstd_level ? CODEC_ZSTD : CODEC_NONE);
	pq_thrift_i64(t, 5, (int64_t)k->entries);
	pq_thrift_i64(t, 6, (int64_t)k->usize);
	pq_thrift_i64(t, 7, (int64_t)k->csize);
	pq_thrift_i64(t, 9, (int64_t)k->data_off);
	if (k->dict_off)
		pq_thrift_i64(t, 11, (int64_t)k->dict_off);
	pq_stats_write(t, 12, c, st);
	pq_thrift_struct_end(t);
	pq_thrift_struct_end(t);
}

/* page_bytes in bits; a size_t of 64 bits may not have room for them. */
static uint64_t page_bits(const struct pq_writer *w)
{
	uint64_t bytes = w->page_bytes;

	return bytes > UINT64_MAX / 8 ? UINT64_MAX : 8 * bytes;
}

static int data_pages(struct pq_writer *w, struct pq_col *c,
		      struct pq_scratch *s, struct chunk *k)
{
	struct pos from = { 0 }, to;

	k->data_off = w->off;
	do {
		next_page(c, k, page_bits(w), &from, &to);
		if (page_body(c, k, &from, &to, &s->page))
			return pq_fail(w, "out of memory");
		if (pq_page_write(w, s, PQ_PAGE_DATA, to.e - from.e, k->mode,
				  &k->usize, &k->csize))
			return -1;
		from = to;
	} while (from.e < k->entries);
	return 0;
}

/* AUTO on integers of 16 bits or fewer: zstd packs their PLAIN bytes
 * better than a hash a value would, but a chunk of one value is a
 * dictionary of one (its statistics, which show it, are had anyway). */
static int small_ints(struct pq_writer *w, struct pq_col *c,
		      struct chunk *k, struct pq_stats *st)
{
	pq_stats_scan(c, 0, st);
	if (!st->has || st->imin != st->imax)
		return 0;
	if (pq_dict_one(c, st->imin))
		return pq_fail(w, "out of memory");
	k->mode = PQ_E_RLE_DICT;
	k->one = 1;
	return 0;
}

/* AUTO: a dictionary when the chunk's values fit one, else PLAIN (small
 * integers: see small_ints); PLAIN or DELTA as the column asks. */
static int choose(struct pq_writer *w, struct pq_col *c,
		  struct pq_scratch *s, struct chunk *k, struct pq_stats *st)
{
	int r;

	k->mode = c->enc == PQ_ENC_DELTA ? PQ_E_DELTA : PQ_E_PLAIN;
	if (c->enc != PQ_ENC_AUTO || c->kind == PQ_INT_LIST)
		return 0;
	if (c->kind == PQ_INT && c->bits <= 16)
		return small_ints(w, c, k, st);
	r = pq_dict_build(w, c, &s->idx);
	if (r > 0)
		k->mode = PQ_E_RLE_DICT;
	return r < 0 ? -1 : 0;
}

int pq_chunk_write(struct pq_writer *w, struct pq_col *c,
		   struct pq_scratch *s, struct pq_thrift *t,
		   uint64_t *usize, uint64_t *csize)
{
	struct chunk k = { 0 };
	struct pq_stats st = { 0 };
	uint64_t start = w->off;
	int r = 0;

	if (choose(w, c, s, &k, &st))
		return -1;
	k.entries = pq_col_entries(c);
	if (k.mode == PQ_E_RLE_DICT) {
		/* width 1 at least: some readers mishandle 0 */
		k.dw = pq_bit_width(c->dict.n - 1);
		k.dw = k.dw ? k.dw : 1;
		r = dict_page(w, c, s, &k);
	}
	if (!r)
		r = data_pages(w, c, s, &k);
	if (!r) {
		if (!st.has)
			pq_stats_scan(c, k.mode == PQ_E_RLE_DICT, &st);
		chunk_meta(w, t, c, &k, &st, start);
		*usize += k.usize;
		*csize += k.csize;
	}
	pq_dict_free(&c->dict);
	return r;
}
