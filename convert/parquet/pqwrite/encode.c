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
 * indices) or bytes (levels).  Every function below is inline down to
 * rle_encode, which each entry point calls with a constant size: the
 * compiler makes one copy a size, with no test of it per value. */
struct rle_src {
	const uint8_t *p;
	size_t size;		/* 1, 2 or 4 */
	uint32_t mask;
};

#define RLE_INLINE static inline __attribute__((always_inline))

/* Value i's bytes as they are (raw), and cut to the width (at). */
RLE_INLINE uint32_t raw(const struct rle_src *s, size_t i)
{
	uint16_t h;
	uint32_t w;

	if (s->size == 1)
		return s->p[i];
	if (s->size == 2) {
		memcpy(&h, s->p + 2 * i, 2);
		return h;
	}
	memcpy(&w, s->p + 4 * i, 4);
	return w;
}

RLE_INLINE uint32_t at(const struct rle_src *s, size_t i)
{
	return raw(s, i) & s->mask;
}

/* A 64-bit word of values all equal to v (raw), in any byte order:
 * every lane holds v. */
RLE_INLINE uint64_t lanes(const struct rle_src *s, uint32_t v)
{
	if (s->size == 1)
		return 0x0101010101010101ull * v;
	if (s->size == 2)
		return 0x0001000100010001ull * v;
	return 0x0000000100000001ull * v;
}

/* Does an RLE run start at i: 8 equal values, or all the rest?  The 8
 * are compared a word at a time against the first one's lanes: no
 * branch per value (random data would mispredict them).  Equal bytes
 * are equal after the mask too; values that differ only above the
 * width (a caller's bug) just miss a run. */
RLE_INLINE int run_starts(const struct rle_src *s, size_t i, size_t n)
{
	const uint8_t *p = s->p + i * s->size;
	uint64_t want, w, diff = 0;
	size_t j;
	uint32_t x = 0;

	if (n - i >= 8) {
		want = lanes(s, raw(s, i));
		for (j = 0; j < s->size; j++) {
			memcpy(&w, p + 8 * j, 8);
			diff |= w ^ want;
		}
		return !diff;
	}
	for (j = i + 1; j < n; j++)
		x |= at(s, j) ^ at(s, i);
	return !x;
}

/* The end of the run of values equal to the one at i, a word at a time
 * while whole words match, then value by value. */
RLE_INLINE size_t run_end(const struct rle_src *s, size_t i, size_t n)
{
	uint64_t want = lanes(s, raw(s, i)), w;
	size_t per = 8 / s->size, j = i + 1;
	uint32_t v = at(s, i);

	while (j + per <= n && j - i < PQ_RUN_MAX - per) {
		memcpy(&w, s->p + j * s->size, 8);
		if (w != want)
			break;
		j += per;
	}
	while (j < n && j - i < PQ_RUN_MAX && at(s, j) == v)
		j++;
	return j;
}

RLE_INLINE int put_rle(struct pq_buf *b, const struct rle_src *s, size_t i,
		       size_t n, int width)
{
	uint32_t v = at(s, i);
	size_t j = run_end(s, i, n), k;
	uint8_t val[4];

	for (k = 0; k < (size_t)(width + 7) / 8; k++)
		val[k] = (uint8_t)(v >> 8 * k);
	if (pq_put_uvarint(b, (uint64_t)(j - i) << 1) || pq_buf_put(b, val, k))
		return -1;
	return (int)(j - i);
}

/* Bits gathered LSB first in a register, stored 32 at a time. */
struct packer {
	uint8_t *out;
	uint64_t acc;
	int nb;
};

RLE_INLINE void pack(struct packer *pk, uint32_t v, int width)
{
	pk->acc |= (uint64_t)v << pk->nb;
	pk->nb += width;
	if (pk->nb >= 32) {
		pq_store_le32(pk->out, (uint32_t)pk->acc);
		pk->out += 4;
		pk->acc >>= 32;
		pk->nb -= 32;
	}
}

/* Groups of 8 bit-packed from i until a run starts, the values end or
 * PQ_PACKED_GROUPS; the last group padded with zeros.  A group is
 * width bytes, so whole bytes are left at its end.  *end: where it
 * ended. */
RLE_INLINE int put_packed(struct pq_buf *b, const struct rle_src *s,
			  size_t i, size_t n, int width, size_t *end)
{
	size_t k = i, groups = 0, q;
	struct packer pk;
	uint8_t *head;

	if (pq_buf_reserve(b, 1 + PQ_PACKED_GROUPS * 32 + 4))
		return -1;
	head = b->p + b->len;
	pk.out = head + 1;
	pk.acc = 0;
	pk.nb = 0;
	do {
		if (n - k >= 8) {
			for (q = 0; q < 8; q++)
				pack(&pk, at(s, k + q), width);
			k += 8;
		} else {
			for (q = 0; q < 8; q++)
				pack(&pk, k + q < n ? at(s, k + q) : 0, width);
			k = n;
		}
		groups++;
	} while (k < n && groups < PQ_PACKED_GROUPS && !run_starts(s, k, n));
	pq_store_le32(pk.out, (uint32_t)pk.acc);
	pk.out += pk.nb / 8;
	*head = (uint8_t)(groups << 1 | 1);
	b->len = (size_t)(pk.out - b->p);
	*end = k;
	return 0;
}

/* Runs of repeats as RLE runs; what lies between them bit-packed, in
 * groups of 8 (a group may end with the start of the next run). */
RLE_INLINE int rle_encode(struct pq_buf *b, const struct rle_src *s,
			  size_t n, int width)
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
