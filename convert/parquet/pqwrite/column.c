/* SPDX-License-Identifier: GPL-2.0-or-later */
/* column.c - the put calls: each value appended to its column's buffers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

static int valid_bits(int bits)
{
	return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

/* Levels: a flat optional column defines 1 (null 0); a list defines 2
 * for an element, 1 for an empty list, 0 for a null one (one less each
 * when the list is required) and repeats at 1. */
int pq_col_init(struct pq_col *c, const struct pq_column *d)
{
	int is_int = d->kind == PQ_INT || d->kind == PQ_INT_LIST;

	if (!d->name || !d->name[0] || d->kind < PQ_INT ||
	    d->kind > PQ_INT_LIST || d->enc < PQ_ENC_AUTO ||
	    d->enc > PQ_ENC_DELTA || (is_int && !valid_bits(d->bits)) ||
	    (d->enc == PQ_ENC_DELTA && d->kind != PQ_INT))
		return -1;
	c->kind = d->kind;
	c->enc = d->enc;
	c->is_signed = is_int && d->is_signed;
	c->optional = !!d->optional;
	c->bits = is_int ? d->bits : 0;
	c->width = !is_int ? 0 : d->bits <= 32 ? 4 : 8;
	c->maxdef = c->optional + (d->kind == PQ_INT_LIST);
	c->maxrep = d->kind == PQ_INT_LIST;
	c->mask = is_int && d->bits < 64 ? ((uint64_t)1 << d->bits) - 1 :
					   ~(uint64_t)0;
	c->sign = c->is_signed && d->bits < 64 ?
		  (uint64_t)1 << (d->bits - 1) : 0;
	c->name = strdup(d->name);
	if (!c->name)
		return -1;
	pq_col_reset(c);
	return 0;
}

/* Everything of the row group goes: an idle writer holds nothing but
 * the sizes to take at once next time. */
void pq_col_reset(struct pq_col *c)
{
	c->hint_vals = c->vals.len;
	if (c->def.len)
		c->hint_levels = c->def.len;
	pq_buf_free(&c->vals);
	pq_buf_free(&c->def);
	pq_buf_free(&c->rep);
	pq_dict_free(&c->dict);
	c->nvals = 0;
	c->nulls = 0;
	c->lists = 0;
	c->list_empty = 0;
	c->def_kept = c->maxrep;
	c->quick_int = c->kind == PQ_INT;
	c->quick_bytes = c->kind == PQ_STRING || c->kind == PQ_BINARY;
}

static const char *kind_name(enum pq_kind k)
{
	switch (k) {
	case PQ_INT:
		return "an integer";
	case PQ_STRING:
		return "a string";
	case PQ_BINARY:
		return "a binary";
	default:
		return "an integer list";
	}
}

/* Why a put was refused: kept for pq_end_row. */
static void put_error(struct pq_writer *w, int col)
{
	if (w->failed)
		return;
	if (w->ncols && !w->live)
		pq_fail(w, "a value given after pq_finish");
	else
		pq_fail(w, "no column %d", col);
}

/* The column a put is for, or NULL (the error kept). */
static inline struct pq_col *target(struct pq_writer *w, int col)
{
	if ((unsigned)col < (unsigned)w->live)
		return &w->cols[col];
	put_error(w, col);
	return NULL;
}

static inline struct pq_col *target_kind(struct pq_writer *w, int col,
					 enum pq_kind want,
					 enum pq_kind also, const char *name)
{
	struct pq_col *c = target(w, col);

	if (c && c->kind != want && c->kind != also) {
		pq_fail(w, "column %s is %s column, not %s", c->name,
			kind_name(c->kind), name);
		return NULL;
	}
	return c;
}

/* The first growth of a row group takes the last one's size. */
static int grow(struct pq_writer *w, struct pq_buf *b, size_t n,
		size_t hint)
{
	if (pq_buf_grow(b, !b->cap && hint > n ? hint : n))
		return pq_fail(w, "out of memory");
	return 0;
}

static inline int reserve(struct pq_writer *w, struct pq_buf *b, size_t n,
			  size_t hint)
{
	return b->cap - b->len >= n ? 0 : grow(w, b, n, hint);
}

static inline int put_level(struct pq_writer *w, struct pq_col *c,
			    struct pq_buf *b, int level)
{
	if (reserve(w, b, 1, c->hint_levels))
		return -1;
	b->p[b->len++] = (uint8_t)level;
	return 0;
}

/* Definition level `level` for the next entry.  A flat column keeps
 * none while it has no null: its entries so far are values, all 1. */
static int put_def(struct pq_writer *w, struct pq_col *c, int level)
{
	size_t n;

	if (!c->def_kept) {
		if (level == c->maxdef)
			return 0;
		n = c->nvals;
		if (grow(w, &c->def, n + 1, c->hint_levels))
			return -1;
		memset(c->def.p, c->maxdef, n);
		c->def.len = n;
		c->def_kept = 1;
		c->quick_int = 0;
		c->quick_bytes = 0;
	}
	return put_level(w, c, &c->def, level);
}

/* An integer cut to the column's bits, sign-extended when signed (an
 * INT32 holds INT_8 -1 as -1), as its PLAIN bytes. */
static inline void put_int_value(struct pq_writer *w, struct pq_col *c,
				 uint64_t v)
{
	uint8_t *p;

	v = ((v & c->mask) ^ c->sign) - c->sign;
	if (reserve(w, &c->vals, 8, c->hint_vals))
		return;
	p = c->vals.p + c->vals.len;
	if (c->width == 4)
		pq_store_le32(p, (uint32_t)v);
	else
		pq_store_le64(p, v);
	c->vals.len += (size_t)c->width;
	c->nvals++;
}

void pq_put_int_slow(struct pq_writer *w, int col, uint64_t v)
{
	struct pq_col *c = target_kind(w, col, PQ_INT, PQ_INT, "an integer");

	if (!c)
		return;
	w->nput++;
	if (c->maxdef && put_def(w, c, 1))
		return;
	put_int_value(w, c, v);
}

void pq_put_bytes_slow(struct pq_writer *w, int col, const void *p,
		       size_t n)
{
	struct pq_col *c = target_kind(w, col, PQ_STRING, PQ_BINARY, "a byte array");
	size_t off;

	if (!c)
		return;
	w->nput++;
	if (n > 0x7fffffff) {
		pq_fail(w, "column %s: a value of %zu bytes", c->name, n);
		return;
	}
	if ((c->maxdef && put_def(w, c, 1)) ||
	    reserve(w, &c->vals, 4 + n, c->hint_vals))
		return;
	off = c->vals.len;
	pq_store_le32(c->vals.p + off, (uint32_t)n);
	if (n)
		memcpy(c->vals.p + off + 4, p, n);
	c->vals.len += 4 + n;
	c->nvals++;
}

void pq_put_null_slow(struct pq_writer *w, int col)
{
	struct pq_col *c = target(w, col);	/* any kind takes a null */

	if (!c)
		return;
	w->nput++;
	if (!c->optional) {
		pq_fail(w, "column %s: a null in a required column", c->name);
		return;
	}
	if ((c->maxrep && put_level(w, c, &c->rep, 0)) || put_def(w, c, 0))
		return;
	c->nulls++;
}

/* An empty list until its first element turns that entry into the
 * element's (repetition 0); the next elements repeat at 1. */
void pq_list_begin(struct pq_writer *w, int col)
{
	struct pq_col *c = target_kind(w, col, PQ_INT_LIST, PQ_INT_LIST, "a list");

	if (!c)
		return;
	w->nput++;
	c->list_row = w->rows + 1;
	c->list_empty = 1;
	if (put_level(w, c, &c->rep, 0) ||
	    put_level(w, c, &c->def, c->maxdef - 1))
		return;
	c->lists++;
}

void pq_list_add_slow(struct pq_writer *w, int col, uint64_t v)
{
	struct pq_col *c = target_kind(w, col, PQ_INT_LIST, PQ_INT_LIST, "a list");

	if (!c)
		return;
	if (c->list_row != w->rows + 1) {
		pq_fail(w, "column %s: an element without pq_list_begin",
			c->name);
		return;
	}
	if (c->list_empty) {
		c->def.p[c->def.len - 1] = (uint8_t)c->maxdef;
		c->list_empty = 0;
	} else if (put_level(w, c, &c->rep, 1) ||
		   put_level(w, c, &c->def, c->maxdef)) {
		return;
	}
	put_int_value(w, c, v);
}
