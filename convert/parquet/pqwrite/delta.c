/* SPDX-License-Identifier: GPL-2.0-or-later */
/* delta.c - DELTA_BINARY_PACKED: blocks of 128 deltas, 4 miniblocks of 32. */
#include <stdint.h>
#include "convert/parquet/pqwrite/pqwrite.h"

enum { BLOCK = 128, MINIBLOCKS = 4, MINI = BLOCK / MINIBLOCKS };

#define SIGN64 ((uint64_t)1 << 63)

/* The values: an int64_t array, or PLAIN bytes of width 4 or 8.  INT32
 * values are taken sign-extended and their deltas computed in 32 bits,
 * as a reader of the INT32 column adds them back. */
struct delta_src {
	const int64_t *v;
	const uint8_t *plain;
	int width;
};

static uint64_t get(const struct delta_src *s, size_t i)
{
	if (s->v)
		return (uint64_t)s->v[i];
	if (s->width == 4)
		return pq_sext32(pq_load_le32(s->plain + 4 * i));
	return pq_load_le64(s->plain + 8 * i);
}

/* One miniblock: 32 values of width w (the last one padded with 0). */
static int put_mini(struct pq_buf *b, const uint64_t *d, size_t m, int w)
{
	struct pq_bits bits = { 0 };
	size_t k;

	if (pq_buf_reserve(b, (size_t)MINI * (size_t)w / 8))
		return -1;
	bits.p = b->p + b->len;
	for (k = 0; k < MINI; k++)
		pq_bits_put(&bits, k < m ? d[k] : 0, w);
	b->len += (size_t)MINI * (size_t)w / 8;
	return 0;
}

/* m (1..128) deltas: the min delta, 4 widths (0 for the miniblocks the
 * last block does not need), then the miniblocks, less the min delta. */
static int put_block(struct pq_buf *b, uint64_t *d, size_t m)
{
	uint64_t min = d[0], max;
	uint8_t widths[MINIBLOCKS] = { 0 };
	size_t j, k;

	for (k = 1; k < m; k++)
		if ((d[k] ^ SIGN64) < (min ^ SIGN64))
			min = d[k];
	for (k = 0; k < m; k++)
		d[k] -= min;	/* wraps: the reader's add wraps back */
	for (j = 0; j * MINI < m; j++) {
		max = 0;
		for (k = j * MINI; k < m && k < (j + 1) * MINI; k++)
			max |= d[k];
		widths[j] = (uint8_t)pq_bit_width(max);
	}
	if (pq_put_uvarint(b, pq_zigzag_u(min)) ||
	    pq_buf_put(b, widths, sizeof(widths)))
		return -1;
	for (j = 0; j * MINI < m; j++)
		if (put_mini(b, d + j * MINI, m - j * MINI < MINI ?
			     m - j * MINI : MINI, widths[j]))
			return -1;
	return 0;
}

static int delta_encode(struct pq_buf *b, const struct delta_src *s,
			size_t n, int w32)
{
	uint64_t d[BLOCK], prev = n ? get(s, 0) : 0, cur;
	size_t i, k, m;

	if (pq_put_uvarint(b, BLOCK) || pq_put_uvarint(b, MINIBLOCKS) ||
	    pq_put_uvarint(b, n) || pq_put_uvarint(b, pq_zigzag_u(prev)))
		return -1;
	for (i = 1; i < n; i += m) {
		m = n - i < BLOCK ? n - i : BLOCK;
		for (k = 0; k < m; k++) {
			cur = get(s, i + k);
			d[k] = w32 ? pq_sext32(cur - prev) : cur - prev;
			prev = cur;
		}
		if (put_block(b, d, m))
			return -1;
	}
	return 0;
}

int pq_delta_encode(struct pq_buf *b, const int64_t *v, size_t n)
{
	struct delta_src s = { v, NULL, 8 };

	return delta_encode(b, &s, n, 0);
}

int pq_delta_encode_plain(struct pq_buf *b, const uint8_t *plain, size_t n,
			  int width)
{
	struct delta_src s = { NULL, plain, width };

	if (width != 4 && width != 8)
		return -1;
	return delta_encode(b, &s, n, width == 4);
}
