/* SPDX-License-Identifier: GPL-2.0-or-later */
/* encode.c - varints, zigzag, bit widths and the RLE/bit-packed hybrid. */
#include <stdint.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

/* An RLE run holds at most 2^31 - 1 values (Encodings.md).  A
 * bit-packed run is cut at 63 groups of 8, so that its header is one
 * byte, written once the run's end is known. */
#define PQ_RUN_MAX 0x7fffffffu
#define PQ_PACKED_GROUPS 63

int pq_put_uvarint(struct pq_buf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	while (v >= 0x80) {
		tmp[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (uint8_t)v;
	return pq_buf_put(b, tmp, n);
}

/* In unsigned arithmetic: the sign is spread from bit 63 by negation,
 * not by a right shift of a negative number. */
uint64_t pq_zigzag_u(uint64_t v)
{
	return v << 1 ^ (0 - (v >> 63));
}

uint64_t pq_zigzag(int64_t v)
{
	return pq_zigzag_u((uint64_t)v);
}

int pq_bit_width(uint64_t max)
{
	int w = 0;

	while (max) {
		w++;
		max >>= 1;
	}
	return w;
}

/* The values to encode, in host order: 32 or 16-bit (dictionary
 * indices) or bytes (levels).  The size is the same for the whole
 * call, so its tests predict well. */
struct rle_src {
	const uint8_t *p;
	size_t size;		/* 1, 2 or 4 */
	uint32_t mask;
};

static inline uint32_t at(const struct rle_src *s, size_t i)
{
	uint16_t h;
	uint32_t w;

	if (s->size == 1)
		return s->p[i] & s->mask;
	if (s->size == 2) {
		memcpy(&h, s->p + 2 * i, 2);
		return h & s->mask;
	}
	memcpy(&w, s->p + 4 * i, 4);
	return w & s->mask;
}

/* Does an RLE run start at i: 8 equal values, or all the rest?  Values
 * are all equal when their bytes equal themselves moved by one value:
 * a fixed-size compare, no branch per value (random data would
 * mispredict them).  Equal bytes are equal after the mask too; values
 * that differ only above the width (a caller's bug) just miss a run. */
static int run_starts(const struct rle_src *s, size_t i, size_t n)
{
	const uint8_t *p = s->p + i * s->size;
	size_t j;
	uint32_t x = 0;

	if (n - i >= 8) {
		if (s->size == 1)
			return !memcmp(p, p + 1, 7);
		if (s->size == 2)
			return !memcmp(p, p + 2, 14);
		return !memcmp(p, p + 4, 28);
	}
	for (j = i + 1; j < n; j++)
		x |= at(s, j) ^ at(s, i);
	return !x;
}

/* Byte values (levels) equal to the one at i, 8 at a time: a page's
 * definition levels are mostly one long run. */
static size_t byte_run(const struct rle_src *s, size_t i, size_t n)
{
	uint64_t pattern = 0x0101010101010101ull * s->p[i], w;
	size_t j = i + 1;

	while (j + 8 <= n && j - i < PQ_RUN_MAX - 8) {
		memcpy(&w, s->p + j, 8);
		if (w != pattern)
			break;
		j += 8;
	}
	return j;
}

static int put_rle(struct pq_buf *b, const struct rle_src *s, size_t i,
		   size_t n, int width)
{
	uint32_t v = at(s, i);
	size_t j = s->size == 1 ? byte_run(s, i, n) : i + 1, k;
	uint8_t val[4];

	while (j < n && j - i < PQ_RUN_MAX && at(s, j) == v)
		j++;
	for (k = 0; k < (size_t)(width + 7) / 8; k++)
		val[k] = (uint8_t)(v >> 8 * k);
	if (pq_put_uvarint(b, (uint64_t)(j - i) << 1) || pq_buf_put(b, val, k))
		return -1;
	return (int)(j - i);
}

/* Groups of 8 bit-packed from i until a run starts, the values end or
 * PQ_PACKED_GROUPS; the last group padded with zeros.  The run is one
 * stream of bits, gathered in a register and stored 32 at a time (a
 * group is width bytes, so whole bytes are left at its end).  *end:
 * where it ended. */
static int put_packed(struct pq_buf *b, const struct rle_src *s, size_t i,
		      size_t n, int width, size_t *end)
{
	size_t k = i, groups = 0, q, m;
	uint8_t *head, *out;
	uint64_t acc = 0;
	int nb = 0;

	if (pq_buf_reserve(b, 1 + PQ_PACKED_GROUPS * 32 + 4))
		return -1;
	head = b->p + b->len;
	out = head + 1;
	do {
		m = n - k < 8 ? n - k : 8;
		for (q = 0; q < 8; q++) {
			acc |= (uint64_t)(q < m ? at(s, k + q) : 0) << nb;
			nb += width;
			if (nb >= 32) {
				pq_store_le32(out, (uint32_t)acc);
				out += 4;
				acc >>= 32;
				nb -= 32;
			}
		}
		k += m;
		groups++;
	} while (k < n && groups < PQ_PACKED_GROUPS && !run_starts(s, k, n));
	pq_store_le32(out, (uint32_t)acc);
	out += nb / 8;
	*head = (uint8_t)(groups << 1 | 1);
	b->len = (size_t)(out - b->p);
	*end = k;
	return 0;
}

/* Runs of repeats as RLE runs; what lies between them bit-packed, in
 * groups of 8 (a group may end with the start of the next run). */
static int rle_encode(struct pq_buf *b, const struct rle_src *s, size_t n,
		      int width)
{
	size_t i = 0;
	int r;

	if (width < 0 || width > 32)
		return -1;
	while (i < n) {
		if (run_starts(s, i, n)) {
			r = put_rle(b, s, i, n, width);
			if (r < 0)
				return -1;
			i += (size_t)r;
			continue;
		}
		if (put_packed(b, s, i, n, width, &i))
			return -1;
	}
	return 0;
}

static uint32_t width_mask(int width)
{
	if (width <= 0)
		return 0;
	return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

int pq_rle_encode(struct pq_buf *b, const uint32_t *v, size_t n, int width)
{
	struct rle_src s = { (const uint8_t *)v, 4, width_mask(width) };

	return rle_encode(b, &s, n, width);
}

int pq_rle_encode_u8(struct pq_buf *b, const uint8_t *v, size_t n,
		     int width)
{
	struct rle_src s = { v, 1, width_mask(width) };

	return rle_encode(b, &s, n, width);
}

int pq_rle_encode_u16(struct pq_buf *b, const uint16_t *v, size_t n,
		      int width)
{
	struct rle_src s = { (const uint8_t *)v, 2, width_mask(width) };

	return rle_encode(b, &s, n, width);
}
