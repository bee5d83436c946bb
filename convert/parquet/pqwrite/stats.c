/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.c - a column chunk's Statistics: min_value, max_value, null_count. */
#include <stdint.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

#define SIGN64 ((uint64_t)1 << 63)

/* An integer as the column's sort order sees it: unsigned as is, signed
 * with the sign bit flipped so that an unsigned compare orders it. */
static uint64_t order_key(const struct pq_col *c, uint64_t v)
{
	return c->is_signed ? v ^ SIGN64 : v;
}

static void see_int(const struct pq_col *c, struct pq_stats *st, uint64_t v)
{
	if (!st->has) {
		st->imin = st->imax = v;
		st->has = 1;
	} else if (order_key(c, v) < order_key(c, st->imin)) {
		st->imin = v;
	} else if (order_key(c, v) > order_key(c, st->imax)) {
		st->imax = v;
	}
}

/* Unsigned bytes, then the shorter first: memcmp's order. */
static int bytes_cmp(const uint8_t *a, uint32_t la, const uint8_t *b,
		     uint32_t lb)
{
	int r = memcmp(a, b, la < lb ? la : lb);

	if (r)
		return r;
	return la < lb ? -1 : la > lb;
}

/* The byte array whose PLAIN bytes start at p. */
static void see_bytes(struct pq_stats *st, const uint8_t *p)
{
	uint32_t n = pq_load_le32(p);

	p += 4;
	if (!st->has) {
		st->bmin = st->bmax = p;
		st->lmin = st->lmax = n;
		st->has = 1;
	} else if (bytes_cmp(p, n, st->bmin, st->lmin) < 0) {
		st->bmin = p;
		st->lmin = n;
	} else if (bytes_cmp(p, n, st->bmax, st->lmax) > 0) {
		st->bmax = p;
		st->lmax = n;
	}
}

/* Integers in the sort order's keys, without a branch per value. */
static void scan_ints(const struct pq_col *c, struct pq_stats *st)
{
	const uint8_t *p = c->vals.p, *end = p + c->vals.len;
	uint64_t flip = c->is_signed ? SIGN64 : 0, lo = UINT64_MAX, hi = 0, k;

	for (; p < end; p += c->width) {
		k = pq_load_int(c, p) ^ flip;
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	st->imin = lo ^ flip;
	st->imax = hi ^ flip;
	st->has = 1;
}

/* Over the dictionary's entries when there is one (each value once),
 * else over every value. */
void pq_stats_scan(const struct pq_col *c, int from_dict, struct pq_stats *st)
{
	const uint8_t *p = c->vals.p, *end;
	uint32_t i;

	memset(st, 0, sizeof(*st));
	if (!c->nvals)
		return;
	if (from_dict) {
		for (i = 0; i < c->dict.n; i++) {
			if (c->width)
				see_int(c, st, c->dict.key[i]);
			else
				see_bytes(st, c->vals.p + c->dict.key[i]);
		}
		return;
	}
	if (c->width) {
		scan_ints(c, st);
		return;
	}
	end = p + c->vals.len;
	for (; p < end; p += 4 + pq_load_le32(p))
		see_bytes(st, p);
}

/* Statistics { 3: null_count, 5: max_value, 6: min_value }, values as
 * PLAIN bytes of the physical type (byte arrays without the length). */
void pq_stats_write(struct pq_thrift *t, int16_t id, const struct pq_col *c,
		    const struct pq_stats *st)
{
	uint8_t min[8], max[8];

	pq_thrift_field(t, id, PQ_T_STRUCT);
	pq_thrift_struct_begin(t);
	pq_thrift_i64(t, 3, (int64_t)c->nulls);
	if (st->has && c->width) {
		pq_store_le64(min, st->imin);
		pq_store_le64(max, st->imax);
		pq_thrift_binary(t, 5, max, (size_t)c->width);
		pq_thrift_binary(t, 6, min, (size_t)c->width);
	} else if (st->has && st->lmin <= PQ_STAT_MAX &&
		   st->lmax <= PQ_STAT_MAX) {
		pq_thrift_binary(t, 5, st->bmax, st->lmax);
		pq_thrift_binary(t, 6, st->bmin, st->lmin);
	}
	pq_thrift_struct_end(t);
}
