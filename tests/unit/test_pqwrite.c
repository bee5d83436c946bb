/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pqwrite.c - the Parquet writer (convert/parquet/pqwrite/) against
 * bytes worked out by hand from the format's documents: Thrift compact
 * protocol, varints, the RLE/bit-packed hybrid, DELTA_BINARY_PACKED, the
 * pages of a tiny file; its footer read back with a small compact reader
 * of our own; then row groups, pages, the dictionary's fallback, zstd,
 * the caller's mistakes, sink errors and every allocation failing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "tests/unit/units.h"
#include "convert/parquet/pqwrite/pqwrite.h"

static int same(const struct pq_buf *b, const uint8_t *want, size_t n)
{
	size_t i;

	if (b->len != n || (n && memcmp(b->p, want, n))) {
		fprintf(stderr, "\n  got %zu bytes:", b->len);
		for (i = 0; i < b->len && i < 64; i++)
			fprintf(stderr, " %02x", b->p[i]);
		fprintf(stderr, "\n  want %zu bytes:", n);
		for (i = 0; i < n && i < 64; i++)
			fprintf(stderr, " %02x", want[i]);
		fprintf(stderr, "\n");
		return 0;
	}
	return 1;
}

/* ---- varints, zigzag, bit widths ---- */

static void test_uvarint_zigzag(void)
{
	/* LEB128: 7 bits a byte, low first, 0x80 on all but the last;
	 * 300 = 0b10_0101100: 0xac 0x02; 2^64 - 1: nine 0xff, then 0x01
	 * (64 = 9 * 7 + 1 bits). */
	static const uint8_t want[] = {
		0x00, 0x01, 0x7f, 0x80, 0x01, 0xac, 0x02,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
	};
	struct pq_buf b = { 0 };

	CU_ASSERT_EQUAL(pq_put_uvarint(&b, 0), 0);
	pq_put_uvarint(&b, 1);
	pq_put_uvarint(&b, 127);
	pq_put_uvarint(&b, 128);
	pq_put_uvarint(&b, 300);
	pq_put_uvarint(&b, UINT64_MAX);
	CU_ASSERT(same(&b, want, sizeof(want)));
	pq_buf_free(&b);
	/* Zigzag: 0, -1, 1, -2, 2... to 0, 1, 2, 3, 4... */
	CU_ASSERT_EQUAL(pq_zigzag(0), 0);
	CU_ASSERT_EQUAL(pq_zigzag(-1), 1);
	CU_ASSERT_EQUAL(pq_zigzag(1), 2);
	CU_ASSERT_EQUAL(pq_zigzag(-2), 3);
	CU_ASSERT_EQUAL(pq_zigzag(INT64_MAX), UINT64_MAX - 1);
	CU_ASSERT_EQUAL(pq_zigzag(INT64_MIN), UINT64_MAX);
	CU_ASSERT_EQUAL(pq_zigzag(INT32_MIN), 0xffffffffu);
}

static void test_bit_width(void)
{
	CU_ASSERT_EQUAL(pq_bit_width(0), 0);
	CU_ASSERT_EQUAL(pq_bit_width(1), 1);
	CU_ASSERT_EQUAL(pq_bit_width(2), 2);
	CU_ASSERT_EQUAL(pq_bit_width(3), 2);
	CU_ASSERT_EQUAL(pq_bit_width(4), 3);
	CU_ASSERT_EQUAL(pq_bit_width(255), 8);
	CU_ASSERT_EQUAL(pq_bit_width(256), 9);
	CU_ASSERT_EQUAL(pq_bit_width(0xffffffffu), 32);
	CU_ASSERT_EQUAL(pq_bit_width((uint64_t)1 << 63), 64);
	CU_ASSERT_EQUAL(pq_bit_width(UINT64_MAX), 64);
}

/* ---- Thrift compact protocol ---- */

static void test_thrift(void)
{
	static const uint8_t want[] = {
		/* field 1 (delta 1), i32 (5): 0x15; zigzag(5) = 10 */
		0x15, 0x0a,
		/* field 3 (delta 2), i32: 0x25; zigzag(-3) = 5 */
		0x25, 0x05,
		/* field 20: delta 17 > 15, long form: type i64 (6), then
		 * zigzag(20) = 40; the value zigzag(300) = 600 = 0xd8 0x04 */
		0x06, 0x28, 0xd8, 0x04,
		/* field 21 binary (8): length 2, "ab" */
		0x18, 0x02, 'a', 'b',
		/* fields 22 true, 23 false: the value is the type, 1 or 2 */
		0x11, 0x12,
		/* field 24 struct (12); inside, ids count from 0 again:
		 * field 1 i32 -1 (zigzag 1), field 2 i8 (3) -1 as the byte
		 * 0xff; stop */
		0x1c, 0x15, 0x01, 0x13, 0xff, 0x00,
		/* field 25: delta 1 from 24, restored after the struct */
		0x15, 0x00,
		/* field 26 list (9): 3 i32 in the header's high nibble
		 * (0x35), zigzag 2, 1, 128 (= 0x80 0x01) */
		0x19, 0x35, 0x02, 0x01, 0x80, 0x01,
		/* field 27 list of 14 i32: still short (0xe5), elements 0 */
		0x19, 0xe5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		/* field 28 list of 15 binaries: long, 0xf8 then varint 15;
		 * each element length 1, one byte */
		0x19, 0xf8, 0x0f,
		1, 'a', 1, 'b', 1, 'c', 1, 'd', 1, 'e', 1, 'f', 1, 'g',
		1, 'h', 1, 'i', 1, 'j', 1, 'k', 1, 'l', 1, 'm', 1, 'n',
		1, 'o',
		/* field 2 after 28: a negative delta, long form: 0x05,
		 * zigzag(2) = 4; zigzag(7) = 14 */
		0x05, 0x04, 0x0e,
		/* field 300 i64 -1: long form, zigzag(300) = 600 */
		0x06, 0xd8, 0x04, 0x01,
		/* stop */
		0x00,
	};
	struct pq_buf b = { 0 };
	struct pq_thrift t;
	char one;
	int i;

	pq_thrift_init(&t, &b);
	pq_thrift_struct_begin(&t);
	pq_thrift_i32(&t, 1, 5);
	pq_thrift_i32(&t, 3, -3);
	pq_thrift_i64(&t, 20, 300);
	pq_thrift_binary(&t, 21, "ab", 2);
	pq_thrift_bool(&t, 22, 1);
	pq_thrift_bool(&t, 23, 0);
	pq_thrift_field(&t, 24, PQ_T_STRUCT);
	pq_thrift_struct_begin(&t);
	pq_thrift_i32(&t, 1, -1);
	pq_thrift_byte(&t, 2, -1);
	pq_thrift_struct_end(&t);
	pq_thrift_i32(&t, 25, 0);
	pq_thrift_list(&t, 26, PQ_T_I32, 3);
	pq_thrift_i32_elem(&t, 1);
	pq_thrift_i32_elem(&t, -1);
	pq_thrift_i32_elem(&t, 64);
	pq_thrift_list(&t, 27, PQ_T_I32, 14);
	for (i = 0; i < 14; i++)
		pq_thrift_i32_elem(&t, 0);
	pq_thrift_list(&t, 28, PQ_T_BINARY, 15);
	for (i = 0; i < 15; i++) {
		one = (char)('a' + i);
		pq_thrift_binary_elem(&t, &one, 1);
	}
	pq_thrift_i32(&t, 2, 7);
	pq_thrift_i64(&t, 300, -1);
	pq_thrift_struct_end(&t);
	CU_ASSERT_EQUAL(t.error, 0);
	CU_ASSERT_EQUAL(t.depth, 0);
	CU_ASSERT(same(&b, want, sizeof(want)));
	/* An end without a begin is an error, not a crash. */
	pq_thrift_struct_end(&t);
	CU_ASSERT_EQUAL(t.error, 1);
	pq_buf_free(&b);
}

/* ---- the RLE / bit-packed hybrid ---- */

static int rle(const uint32_t *v, size_t n, int width, const uint8_t *want,
	       size_t wn)
{
	struct pq_buf b = { 0 };
	int ok = pq_rle_encode(&b, v, n, width) == 0 && same(&b, want, wn);

	pq_buf_free(&b);
	return ok;
}

static void test_rle_runs(void)
{
	static const uint32_t ones[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	/* 10 repeats: an RLE run, header varint(10 << 1) = 0x14, then the
	 * value in (1 + 7) / 8 = 1 byte */
	static const uint8_t want_ones[] = { 0x14, 0x01 };
	static const uint32_t zeros[5] = { 0 };
	/* width 0: the run's value takes no byte */
	static const uint8_t want_zeros[] = { 0x0a };
	static const uint32_t wide[8] = { 0x1abcd, 0x1abcd, 0x1abcd, 0x1abcd,
					  0x1abcd, 0x1abcd, 0x1abcd,
					  0x1abcd };
	/* width 17: the value in 3 bytes, little-endian */
	static const uint8_t want_wide[] = { 0x10, 0xcd, 0xab, 0x01 };
	static const uint32_t three[3] = { 3, 3, 3 };
	/* fewer than 8 repeats, but all the rest: one RLE run too */
	static const uint8_t want_three[] = { 0x06, 0x03 };

	CU_ASSERT(rle(ones, 10, 1, want_ones, sizeof(want_ones)));
	CU_ASSERT(rle(zeros, 5, 0, want_zeros, sizeof(want_zeros)));
	CU_ASSERT(rle(wide, 8, 17, want_wide, sizeof(want_wide)));
	CU_ASSERT(rle(three, 3, 2, want_three, sizeof(want_three)));
	CU_ASSERT(rle(NULL, 0, 3, NULL, 0));
}

static void test_rle_packed(void)
{
	static const uint32_t eight[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	/* Encodings.md's own example: 0..7 at width 3 packed LSB first is
	 * 10001000 11000110 11111010; header (1 group << 1) | 1 = 0x03 */
	static const uint8_t want_eight[] = { 0x03, 0x88, 0xc6, 0xfa };
	static const uint32_t ten[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	/* 2 groups (header 0x05) at width 4: two values a byte, low nibble
	 * first; the second group padded with six zeros */
	static const uint8_t want_ten[] = { 0x05, 0x10, 0x32, 0x54, 0x76,
					    0x98, 0x00, 0x00, 0x00 };
	static const uint32_t mixed[24] = { 1, 2, 3, 4, 5, 5, 5, 5, 5, 5,
					    5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
					    5, 5, 5, 5 };
	/* No run at 0: a group of 8 (1 2 3 4 5 5 5 5 at width 3 =
	 * 001 010 011 100 101 101 101 101 LSB first: 0xd1 0xd8 0xb6),
	 * then a run starts at 8: the 16 fives left, header 32 = 0x20 */
	static const uint8_t want_mixed[] = { 0x03, 0xd1, 0xd8, 0xb6,
					      0x20, 0x05 };
	static const uint32_t run_then[11] = { 7, 7, 7, 7, 7, 7, 7, 7, 7,
					       1, 2 };
	/* 9 sevens: run 0x12 0x07; then 1 2 bit-packed in one padded
	 * group: 001 010 000... = 0x11 0x00 0x00 */
	static const uint8_t want_run_then[] = { 0x12, 0x07, 0x03, 0x11,
						 0x00, 0x00 };

	CU_ASSERT(rle(eight, 8, 3, want_eight, sizeof(want_eight)));
	CU_ASSERT(rle(ten, 10, 4, want_ten, sizeof(want_ten)));
	CU_ASSERT(rle(mixed, 24, 3, want_mixed, sizeof(want_mixed)));
	CU_ASSERT(rle(run_then, 11, 3, want_run_then, sizeof(want_run_then)));
}

static void test_rle_wide(void)
{
	static const uint32_t eight[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	/* width 11: value q at bits 11q.. (LSB first): 1 at bit 11 (byte 1
	 * 0x08), 2 at bit 23 (byte 2 0x80), 3 at 33, 34 (byte 4 0x06), 4 at
	 * 46 (byte 5 0x40), 5 at 55, 57 (byte 6 0x80, byte 7 0x02), 6 at
	 * 67, 68 (byte 8 0x18), 7 at 77..79 (byte 9 0xe0): 11 bytes */
	static const uint8_t want11[] = { 0x03, 0x00, 0x08, 0x80, 0x00, 0x06,
					  0x40, 0x80, 0x02, 0x18, 0xe0,
					  0x00 };
	static const uint32_t big[3] = { 0xffffffff, 0, 0x12345678 };
	/* width 32: each value's 4 bytes, little-endian, padded to 8 */
	static const uint8_t want32[1 + 32] = { 0x03, 0xff, 0xff, 0xff, 0xff,
						0, 0, 0, 0,
						0x78, 0x56, 0x34, 0x12 };
	uint32_t many[520];
	struct pq_buf b = { 0 };
	int i;

	CU_ASSERT(rle(eight, 8, 11, want11, sizeof(want11)));
	CU_ASSERT(rle(big, 3, 32, want32, sizeof(want32)));
	/* a bit-packed run stops at 63 groups (a one-byte header, 0x7f):
	 * 504 values, then 16 more in a second run of 2 groups */
	for (i = 0; i < 520; i++)
		many[i] = (uint32_t)i & 0xff;
	CU_ASSERT_EQUAL_FATAL(pq_rle_encode(&b, many, 520, 8), 0);
	CU_ASSERT_EQUAL_FATAL(b.len, 1 + 504 + 1 + 16);
	CU_ASSERT_EQUAL(b.p[0], 0x7f);
	CU_ASSERT_EQUAL(b.p[1 + 255], 0xff);
	CU_ASSERT_EQUAL(b.p[1 + 504], 0x05);
	CU_ASSERT_EQUAL(b.p[1 + 504 + 1], 504 & 0xff);
	pq_buf_free(&b);
}

static void test_rle_levels(void)
{
	/* Definition levels at width 1: no run at 0 (1 1 0), so two
	 * groups: 1 1 0 1 1 1 1 1 = 0b11111011 = 0xfb, then 1 0 (padded)
	 * = 0x01; header (2 << 1) | 1 = 0x05 */
	static const uint8_t lv[10] = { 1, 1, 0, 1, 1, 1, 1, 1, 1, 0 };
	static const uint8_t want[] = { 0x05, 0xfb, 0x01 };
	/* All defined: one run, 1000 << 1 = 2000 = 0xd0 0x0f */
	static const uint8_t want_all[] = { 0xd0, 0x0f, 0x01 };
	uint8_t all[1000];
	struct pq_buf b = { 0 };

	CU_ASSERT_EQUAL(pq_rle_encode_u8(&b, lv, 10, 1), 0);
	CU_ASSERT(same(&b, want, sizeof(want)));
	b.len = 0;
	memset(all, 1, sizeof(all));
	CU_ASSERT_EQUAL(pq_rle_encode_u8(&b, all, sizeof(all), 1), 0);
	CU_ASSERT(same(&b, want_all, sizeof(want_all)));
	pq_buf_free(&b);
}

/* ---- DELTA_BINARY_PACKED ---- */

/* Every sequence starts with the header: block size 128 (0x80 0x01), 4
 * miniblocks, the count, zigzag(first value). */
static int delta(const int64_t *v, size_t n, const uint8_t *want, size_t wn)
{
	struct pq_buf b = { 0 };
	int ok = pq_delta_encode(&b, v, n) == 0 && same(&b, want, wn);

	pq_buf_free(&b);
	return ok;
}

static void test_delta_small(void)
{
	static const int64_t up[5] = { 1, 2, 3, 4, 5 };
	/* deltas 1 1 1 1: min delta 1 (zigzag 2), all widths 0, no
	 * miniblock bytes */
	static const uint8_t want_up[] = { 0x80, 0x01, 0x04, 0x05, 0x02,
					   0x02, 0x00, 0x00, 0x00, 0x00 };
	static const int64_t one[1] = { 7 };
	/* one value: the header alone, zigzag(7) = 14 */
	static const uint8_t want_one[] = { 0x80, 0x01, 0x04, 0x01, 0x0e };
	static const int64_t down[5] = { 5, 4, 3, 2, 1 };
	/* first zigzag(5) = 10, min delta -1 (zigzag 1), widths 0 */
	static const uint8_t want_down[] = { 0x80, 0x01, 0x04, 0x05, 0x0a,
					     0x01, 0x00, 0x00, 0x00, 0x00 };
	static const int64_t bumpy[4] = { 10, 12, 11, 15 };
	/* deltas 2 -1 4: min -1 (zigzag 1), less the min 3 0 5, width 3;
	 * the miniblock is 32 values * 3 bits = 12 bytes: 011 000 101
	 * LSB first = 0x43 0x01, then zeros */
	static const uint8_t want_bumpy[] = {
		0x80, 0x01, 0x04, 0x04, 0x14, 0x01, 0x03, 0x00, 0x00, 0x00,
		0x43, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t want_none[] = { 0x80, 0x01, 0x04, 0x00, 0x00 };

	CU_ASSERT(delta(up, 5, want_up, sizeof(want_up)));
	CU_ASSERT(delta(one, 1, want_one, sizeof(want_one)));
	CU_ASSERT(delta(down, 5, want_down, sizeof(want_down)));
	CU_ASSERT(delta(bumpy, 4, want_bumpy, sizeof(want_bumpy)));
	CU_ASSERT(delta(NULL, 0, want_none, sizeof(want_none)));
}

static void test_delta_blocks(void)
{
	/* 129 values 0..128: 128 deltas fill exactly one block */
	static const uint8_t want_129[] = { 0x80, 0x01, 0x04, 0x81, 0x01,
					    0x00, 0x02, 0x00, 0x00, 0x00,
					    0x00 };
	/* 130 values: 128 deltas alternating 1, 2 (min 1, so 0 1 0 1...
	 * at width 1 in each miniblock: 0b10101010 bytes, 4 a miniblock),
	 * then a second block of one delta, -5 (zigzag 9), width 0 */
	uint8_t want_130[6 + 5 + 16 + 5] = { 0x80, 0x01, 0x04, 0x82, 0x01,
					     0x00, 0x02, 0x01, 0x01, 0x01,
					     0x01 };
	int64_t v[130];
	int i;

	for (i = 0; i < 129; i++)
		v[i] = i;
	CU_ASSERT(delta(v, 129, want_129, sizeof(want_129)));
	v[0] = 0;
	for (i = 0; i < 128; i++)
		v[i + 1] = v[i] + 1 + (i & 1);
	v[129] = v[128] - 5;
	memset(want_130 + 11, 0xaa, 16);
	memcpy(want_130 + 27, "\x09\x00\x00\x00\x00", 5);
	CU_ASSERT(delta(v, 130, want_130, sizeof(want_130)));
}

static void test_delta_wrap(void)
{
	static const int64_t ends[2] = { INT64_MIN, INT64_MAX };
	/* zigzag(INT64_MIN) = 2^64 - 1: nine 0xff, 0x01; the delta
	 * INT64_MAX - INT64_MIN wraps to -1 (zigzag 1) */
	static const uint8_t want_ends[] = {
		0x80, 0x01, 0x04, 0x02,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0x01, 0x00, 0x00, 0x00, 0x00,
	};
	/* INT32 PLAIN INT32_MAX, INT32_MIN: in 32 bits the delta wraps to
	 * +1, as an INT32 reader adds it back; zigzag(INT32_MAX) =
	 * 0xfffffffe = 0xfe 0xff 0xff 0xff 0x0f */
	static const uint8_t plain32[8] = { 0xff, 0xff, 0xff, 0x7f,
					    0x00, 0x00, 0x00, 0x80 };
	static const uint8_t want32[] = { 0x80, 0x01, 0x04, 0x02, 0xfe, 0xff,
					  0xff, 0xff, 0x0f, 0x02, 0x00, 0x00,
					  0x00, 0x00 };
	static const int64_t far[3] = { 0, INT64_MAX, 0 };
	struct pq_buf b = { 0 };
	size_t i;
	int zero = 1;

	CU_ASSERT(delta(ends, 2, want_ends, sizeof(want_ends)));
	CU_ASSERT_EQUAL(pq_delta_encode_plain(&b, plain32, 2, 4), 0);
	CU_ASSERT(same(&b, want32, sizeof(want32)));
	/* deltas INT64_MAX, INT64_MIN + 1: less the min, 2^64 - 2 and 0,
	 * width 64: a miniblock of 32 * 8 bytes */
	b.len = 0;
	CU_ASSERT_EQUAL_FATAL(pq_delta_encode(&b, far, 3), 0);
	CU_ASSERT_EQUAL_FATAL(b.len, 5 + 10 + 4 + 256);
	CU_ASSERT(!memcmp(b.p + 5, "\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01"
			  "\x40\x00\x00\x00"
			  "\xfe\xff\xff\xff\xff\xff\xff\xff", 22));
	for (i = 27; i < b.len; i++)
		zero = zero && !b.p[i];
	CU_ASSERT(zero);
	pq_buf_free(&b);
}

/* ---- a small Thrift compact reader, to read footers back ---- */

struct rd {
	const uint8_t *p, *end;
	int bad;
};

#define ABSENT INT64_MIN

static uint8_t rd_byte(struct rd *r)
{
	if (r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	return *r->p++;
}

static uint64_t rd_varint(struct rd *r)
{
	uint64_t v = 0;
	uint8_t c;
	int s;

	for (s = 0; s < 64; s += 7) {
		c = rd_byte(r);
		v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static int64_t rd_zz(struct rd *r)
{
	uint64_t u = rd_varint(r);

	return (int64_t)(u >> 1 ^ (0 - (u & 1)));
}

/* The next field of a struct: its type, 0 at the stop. */
static int rd_field(struct rd *r, int *id)
{
	uint8_t c = rd_byte(r);

	if (!c)
		return 0;
	if (c >> 4)
		*id += c >> 4;
	else
		*id = (int)rd_zz(r);
	return c & 15;
}

static uint32_t rd_list(struct rd *r, int *elem)
{
	uint8_t c = rd_byte(r);
	uint32_t n = c >> 4;

	*elem = c & 15;
	return n == 15 ? (uint32_t)rd_varint(r) : n;
}

static void rd_skip(struct rd *r, int type)
{
	uint64_t n;
	uint32_t k;
	int id = 0, t;

	switch (type) {
	case PQ_T_TRUE:
	case PQ_T_FALSE:
		return;
	case PQ_T_BYTE:
		rd_byte(r);
		return;
	case PQ_T_I16:
	case PQ_T_I32:
	case PQ_T_I64:
		rd_varint(r);
		return;
	case PQ_T_BINARY:
		n = rd_varint(r);
		if (n > (uint64_t)(r->end - r->p))
			r->bad = 1;
		else
			r->p += n;
		return;
	case PQ_T_LIST:
		for (k = rd_list(r, &t); k && !r->bad; k--)
			rd_skip(r, t);
		return;
	case PQ_T_STRUCT:
		while (!r->bad && (t = rd_field(r, &id)))
			rd_skip(r, t);
		return;
	default:
		r->bad = 1;
	}
}

/* Field want of the struct at s: its type (-1: absent), *out at it. */
static int rd_find(struct rd s, int want, struct rd *out)
{
	int id = 0, t;

	while (!s.bad && (t = rd_field(&s, &id))) {
		if (id == want) {
			*out = s;
			return t;
		}
		rd_skip(&s, t);
	}
	return -1;
}

static int64_t rd_int(struct rd s, int id)
{
	struct rd v;
	int t = rd_find(s, id, &v);

	if (t == PQ_T_TRUE || t == PQ_T_FALSE)
		return t == PQ_T_TRUE;
	if (t == PQ_T_BYTE)
		return (int8_t)rd_byte(&v);
	return t < 0 ? ABSENT : rd_zz(&v);
}

static struct rd rd_sub(struct rd s, int id)
{
	struct rd v = { NULL, NULL, 1 };

	if (rd_find(s, id, &v) != PQ_T_STRUCT)
		v.bad = 1;
	return v;
}

/* Element i of list field id (any type), *n its length. */
static struct rd rd_elem(struct rd s, int id, uint32_t i, uint32_t *n)
{
	struct rd v = { NULL, NULL, 1 };
	uint32_t k;
	int t;

	*n = 0;
	if (rd_find(s, id, &v) != PQ_T_LIST) {
		v.bad = 1;
		return v;
	}
	*n = rd_list(&v, &t);
	for (k = 0; k < i && k < *n; k++)
		rd_skip(&v, t);
	return v;
}

static int rd_bin_is(struct rd s, int id, const void *want, size_t n)
{
	struct rd v;
	uint64_t len;

	if (rd_find(s, id, &v) != PQ_T_BINARY)
		return 0;
	len = rd_varint(&v);
	return !v.bad && len == n && (uint64_t)(v.end - v.p) >= n &&
	       !memcmp(v.p, want, n);
}

/* Element i of a list of i32 field id. */
static int64_t rd_i32_elem(struct rd s, int id, uint32_t i)
{
	uint32_t n;
	struct rd v = rd_elem(s, id, i, &n);

	return i < n ? rd_zz(&v) : ABSENT;
}

/* ---- whole files, written to memory ---- */

struct mem {
	struct pq_buf b;
	int fail_after;		/* writes that succeed, -1 all */
};

static int mem_sink(void *ctx, const void *p, size_t n)
{
	struct mem *m = ctx;

	if (m->fail_after == 0)
		return -1;
	if (m->fail_after > 0)
		m->fail_after--;
	return pq_buf_put(&m->b, p, n);
}

/* The footer of a finished file, or a bad reader. */
static struct rd footer(const struct pq_buf *b)
{
	struct rd r = { NULL, NULL, 1 };
	uint32_t n;

	if (b->len < 12 || memcmp(b->p, "PAR1", 4) ||
	    memcmp(b->p + b->len - 4, "PAR1", 4))
		return r;
	n = (uint32_t)b->p[b->len - 8] | (uint32_t)b->p[b->len - 7] << 8 |
	    (uint32_t)b->p[b->len - 6] << 16 | (uint32_t)b->p[b->len - 5] << 24;
	if (n > b->len - 12)
		return r;
	r.p = b->p + b->len - 8 - n;
	r.end = b->p + b->len - 8;
	r.bad = 0;
	return r;
}

/* ColumnMetaData of column c of row group g. */
static struct rd col_meta(struct rd fm, uint32_t g, uint32_t c)
{
	uint32_t n;
	struct rd rg = rd_elem(fm, 4, g, &n), cc;

	if (g >= n)
		rg.bad = 1;
	cc = rd_elem(rg, 1, c, &n);
	if (c >= n)
		cc.bad = 1;
	return rd_sub(cc, 3);
}

/* The tiny file: a (INT32, dictionary) and s (optional string, PLAIN),
 * 3 rows, uncompressed.  Its bytes up to the footer, worked out by hand
 * from parquet.thrift and Encodings.md: */
static const uint8_t tiny_pages[] = {
	'P', 'A', 'R', '1',
	/* a: PageHeader { 1: DICTIONARY_PAGE (2, zigzag 4),
	 * 2, 3: 8 bytes (zigzag 16), 7 (delta 4, struct 0x4c):
	 * { 1: 2 values, 2: PLAIN } } */
	0x15, 0x04, 0x15, 0x10, 0x15, 0x10, 0x4c, 0x15, 0x04, 0x15,
	0x00, 0x00, 0x00,
	/* the dictionary: -2 and 5 as INT32 PLAIN */
	0xfe, 0xff, 0xff, 0xff, 0x05, 0x00, 0x00, 0x00,
	/* { 1: DATA_PAGE, 2, 3: 3 bytes, 5 (delta 2): { 1: 3 values,
	 * 2: RLE_DICTIONARY (8, zigzag 16), 3, 4: RLE (3) } } */
	0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x2c, 0x15, 0x06, 0x15,
	0x10, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00,
	/* bit width 1 (two entries); indices 0 1 0: no run, one
	 * bit-packed group 0b010 */
	0x01, 0x03, 0x02,
	/* s: { DATA_PAGE, 17 bytes (zigzag 34), 3 values, PLAIN } */
	0x15, 0x00, 0x15, 0x22, 0x15, 0x22, 0x2c, 0x15, 0x06, 0x15,
	0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00,
	/* definition levels 1 0 1: length 2, a group 0b101 */
	0x02, 0x00, 0x00, 0x00, 0x03, 0x05,
	/* "x", "yz" PLAIN: 4-byte length, bytes */
	0x01, 0x00, 0x00, 0x00, 'x', 0x02, 0x00, 0x00, 0x00, 'y', 'z',
};

static void write_tiny(struct mem *m)
{
	static const struct pq_column cols[] = {
		{ "a", PQ_INT, 32, 1, 0, PQ_ENC_AUTO },
		{ "s", PQ_STRING, 0, 0, 1, PQ_ENC_PLAIN },
	};
	struct pq_options o = { 0, 0, 0, "tdat test" };
	struct pq_writer *w;

	memset(m, 0, sizeof(*m));
	m->fail_after = -1;
	w = pq_writer_new(cols, 2, &o, mem_sink, m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(pq_writer_kv(w, "k", "v"), 0);
	pq_put_int(w, 0, (uint64_t)-2);
	pq_put_bytes(w, 1, "x", 1);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	pq_put_null(w, 1);	/* any order */
	pq_put_int(w, 0, 5);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	pq_put_int(w, 0, (uint64_t)-2);
	pq_put_bytes(w, 1, "yz", 2);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	CU_ASSERT(m->b.len == 0);	/* nothing before the first row group */
	CU_ASSERT_EQUAL(pq_rows(w), 3);
	CU_ASSERT_EQUAL(pq_finish(w), 0);
	pq_writer_free(w);
}

static void test_tiny_pages(void)
{
	struct mem m;
	struct rd fm;

	write_tiny(&m);
	CU_ASSERT_FATAL(m.b.len > sizeof(tiny_pages));
	CU_ASSERT(!memcmp(m.b.p, tiny_pages, sizeof(tiny_pages)));
	fm = footer(&m.b);
	CU_ASSERT_FATAL(!fm.bad);
	/* the footer starts right after the pages */
	CU_ASSERT_EQUAL(fm.p - m.b.p, sizeof(tiny_pages));
	pq_buf_free(&m.b);
}

/* FileMetaData read back: version, rows, schema, key/value, created_by,
 * a TypeDefinedOrder per leaf. */
static void test_tiny_footer(void)
{
	struct mem m;
	struct rd fm, el, st;
	uint32_t n;

	write_tiny(&m);
	fm = footer(&m.b);
	CU_ASSERT_FATAL(!fm.bad);
	CU_ASSERT_EQUAL(rd_int(fm, 1), 2);
	CU_ASSERT_EQUAL(rd_int(fm, 3), 3);
	el = rd_elem(fm, 2, 0, &n);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT(rd_bin_is(el, 4, "schema", 6));
	CU_ASSERT_EQUAL(rd_int(el, 5), 2);
	CU_ASSERT_EQUAL(rd_int(el, 3), ABSENT);
	el = rd_elem(fm, 2, 1, &n);
	CU_ASSERT(rd_bin_is(el, 4, "a", 1));
	CU_ASSERT_EQUAL(rd_int(el, 1), 1);	/* INT32 */
	CU_ASSERT_EQUAL(rd_int(el, 3), 0);	/* REQUIRED */
	CU_ASSERT_EQUAL(rd_int(el, 6), 17);	/* INT_32 */
	st = rd_sub(rd_sub(el, 10), 10);	/* LogicalType.INTEGER */
	CU_ASSERT_EQUAL(rd_int(st, 1), 32);
	CU_ASSERT_EQUAL(rd_int(st, 2), 1);
	el = rd_elem(fm, 2, 2, &n);
	CU_ASSERT(rd_bin_is(el, 4, "s", 1));
	CU_ASSERT_EQUAL(rd_int(el, 1), 6);	/* BYTE_ARRAY */
	CU_ASSERT_EQUAL(rd_int(el, 3), 1);	/* OPTIONAL */
	CU_ASSERT_EQUAL(rd_int(el, 6), 0);	/* UTF8 */
	CU_ASSERT(!rd_sub(rd_sub(el, 10), 1).bad);	/* STRING */
	el = rd_elem(fm, 5, 0, &n);
	CU_ASSERT(n == 1 && rd_bin_is(el, 1, "k", 1) && rd_bin_is(el, 2, "v", 1));
	CU_ASSERT(rd_bin_is(fm, 6, "tdat test", 9));
	el = rd_elem(fm, 7, 1, &n);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT(!rd_sub(el, 1).bad);
	pq_buf_free(&m.b);
}

/* The row group and its two ColumnChunks: sizes and offsets of the
 * pages above, encodings, statistics. */
static void test_tiny_chunks(void)
{
	struct mem m;
	struct rd fm, el, a, s, st;
	uint32_t n;

	write_tiny(&m);
	fm = footer(&m.b);
	el = rd_elem(fm, 4, 0, &n);	/* 75 bytes of pages from offset 4 */
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(rd_int(el, 2), 75);
	CU_ASSERT_EQUAL(rd_int(el, 3), 3);
	CU_ASSERT_EQUAL(rd_int(el, 5), 4);
	CU_ASSERT_EQUAL(rd_int(el, 6), 75);
	a = col_meta(fm, 0, 0);
	CU_ASSERT_EQUAL(rd_int(a, 1), 1);
	CU_ASSERT_EQUAL(rd_i32_elem(a, 2, 0), 0);	/* PLAIN */
	CU_ASSERT_EQUAL(rd_i32_elem(a, 2, 1), 8);	/* RLE_DICTIONARY */
	rd_elem(a, 2, 0, &n);
	CU_ASSERT_EQUAL(n, 2);
	el = rd_elem(a, 3, 0, &n);
	CU_ASSERT(n == 1 && rd_varint(&el) == 1 && *el.p == 'a');
	CU_ASSERT_EQUAL(rd_int(a, 4), 0);	/* UNCOMPRESSED */
	CU_ASSERT_EQUAL(rd_int(a, 5), 3);
	CU_ASSERT_EQUAL(rd_int(a, 6), 41);	/* 13 + 8 + 17 + 3 */
	CU_ASSERT_EQUAL(rd_int(a, 7), 41);
	CU_ASSERT_EQUAL(rd_int(a, 9), 25);
	CU_ASSERT_EQUAL(rd_int(a, 11), 4);
	st = rd_sub(a, 12);
	CU_ASSERT_EQUAL(rd_int(st, 3), 0);
	CU_ASSERT(rd_bin_is(st, 5, "\x05\x00\x00\x00", 4));
	CU_ASSERT(rd_bin_is(st, 6, "\xfe\xff\xff\xff", 4));
	CU_ASSERT_EQUAL(rd_int(st, 1), ABSENT);	/* no deprecated min/max */
	s = col_meta(fm, 0, 1);
	CU_ASSERT_EQUAL(rd_int(s, 1), 6);
	CU_ASSERT_EQUAL(rd_i32_elem(s, 2, 0), 0);	/* PLAIN */
	CU_ASSERT_EQUAL(rd_i32_elem(s, 2, 1), 3);	/* RLE, levels */
	CU_ASSERT_EQUAL(rd_int(s, 5), 3);
	CU_ASSERT_EQUAL(rd_int(s, 6), 34);
	CU_ASSERT_EQUAL(rd_int(s, 9), 45);
	CU_ASSERT_EQUAL(rd_int(s, 11), ABSENT);
	st = rd_sub(s, 12);
	CU_ASSERT_EQUAL(rd_int(st, 3), 1);
	CU_ASSERT(rd_bin_is(st, 5, "yz", 2));
	CU_ASSERT(rd_bin_is(st, 6, "x", 1));
	pq_buf_free(&m.b);
}

/* The pages of a column chunk, walked by their headers: sizes must
 * chain to the chunk's end and add up to its totals; zstd pages must
 * decompress to their uncompressed size.  *values: the data pages'
 * num_values; *first_reps: data pages whose first repetition level is
 * 0 (uncompressed list pages). */
struct walk {
	int pages;
	int64_t values;
	int first_reps;
};

static int page_first_rep(const uint8_t *body)
{
	/* after the 4-byte length: an RLE run (even header) has its value
	 * next; a bit-packed one has it in the low bit */
	return body[4] & 1 ? body[5] & 1 : body[5];
}

static int walk_pages(const struct pq_buf *b, struct rd meta, int zstd,
		      struct walk *wk)
{
	int64_t off = rd_int(meta, 11), end, usize = 0;
	struct rd h, hh;
	uint8_t *tmp;
	int64_t ulen, clen;

	memset(wk, 0, sizeof(*wk));
	if (off == ABSENT)
		off = rd_int(meta, 9);
	end = off + rd_int(meta, 7);
	while (off < end && off > 0 && (size_t)end <= b->len) {
		h = (struct rd){ b->p + off, b->p + end, 0 };
		hh = h;
		rd_skip(&hh, PQ_T_STRUCT);
		ulen = rd_int(h, 2);
		clen = rd_int(h, 3);
		if (hh.bad || clen > b->p + end - hh.p)
			return 0;
		if (zstd) {
			tmp = malloc((size_t)ulen + 1);
			if (!tmp || ZSTD_decompress(tmp, (size_t)ulen + 1, hh.p,
						    (size_t)clen) != (size_t)ulen) {
				free(tmp);
				return 0;
			}
			free(tmp);
		} else if (clen != ulen) {
			return 0;
		}
		if (rd_int(h, 1) == 0) {
			wk->pages++;
			wk->values += rd_int(rd_sub(h, 5), 1);
			if (!zstd && page_first_rep(hh.p) == 0)
				wk->first_reps++;
		}
		usize += (hh.p - h.p) + ulen;
		off = hh.p - b->p + clen;
	}
	return off == end && usize == rd_int(meta, 6);
}

/* A writer of cols into m, or a failed test. */
static struct pq_writer *new_writer(const struct pq_column *cols, int n,
				    int level, size_t rg, size_t page,
				    struct mem *m)
{
	struct pq_options o = { level, rg, page, NULL };

	memset(m, 0, sizeof(*m));
	m->fail_after = -1;
	return pq_writer_new(cols, n, &o, mem_sink, m);
}

static void test_row_groups_by_size(void)
{
	static const struct pq_column col = { "v", PQ_INT, 64, 1, 0,
					      PQ_ENC_PLAIN };
	struct mem m;
	struct pq_writer *w = new_writer(&col, 1, 0, 64, 0, &m);
	struct rd fm, rg;
	uint32_t n;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	/* 8 bytes a row: the 8th row holds 64 and closes the group */
	for (i = 0; i < 7; i++) {
		pq_put_int(w, 0, (uint64_t)i);
		CU_ASSERT_EQUAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL(pq_buffered(w), 56);
	CU_ASSERT_EQUAL(m.b.len, 0);
	pq_put_int(w, 0, 7);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	CU_ASSERT_EQUAL(pq_buffered(w), 0);
	CU_ASSERT(m.b.len > 4 + 64);
	for (i = 8; i < 20; i++) {
		pq_put_int(w, 0, (uint64_t)i);
		CU_ASSERT_EQUAL(pq_end_row(w), 0);
	}
	/* pq_flush closes the open one early; once more does nothing */
	pq_put_int(w, 0, 20);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	CU_ASSERT_EQUAL(pq_flush(w), 0);
	CU_ASSERT_EQUAL(pq_flush(w), 0);
	pq_put_int(w, 0, 21);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	CU_ASSERT_EQUAL(pq_finish(w), 0);
	CU_ASSERT_EQUAL(pq_rows(w), 22);
	pq_writer_free(w);
	fm = footer(&m.b);
	CU_ASSERT_EQUAL(rd_int(fm, 3), 22);
	rg = rd_elem(fm, 4, 0, &n);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(rd_int(rg, 3), 8);
	CU_ASSERT_EQUAL(rd_int(rd_elem(fm, 4, 1, &n), 3), 8);
	CU_ASSERT_EQUAL(rd_int(rd_elem(fm, 4, 2, &n), 3), 5);
	CU_ASSERT_EQUAL(rd_int(rd_elem(fm, 4, 3, &n), 3), 1);
	/* the last group's statistics: min = max = 21 */
	CU_ASSERT(rd_bin_is(rd_sub(col_meta(fm, 3, 0), 12), 6,
			    "\x15\0\0\0\0\0\0\0", 8));
	pq_buf_free(&m.b);
}

static void test_pages(void)
{
	static const struct pq_column cols[] = {
		{ "n", PQ_INT, 64, 1, 0, PQ_ENC_PLAIN },
		{ "o", PQ_INT, 16, 0, 1, PQ_ENC_DELTA },
		{ "l", PQ_INT_LIST, 32, 1, 1, PQ_ENC_AUTO },
		{ "s", PQ_STRING, 0, 0, 0, PQ_ENC_PLAIN },
	};
	struct mem m;
	struct pq_writer *w = new_writer(cols, 4, 0, 0, 80, &m);
	struct walk wk;
	struct rd fm;
	int64_t entries = 0;
	char str[40];
	int i, j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 1000; i++) {
		pq_put_int(w, 0, (uint64_t)i * 3);
		if (i % 5 == 2)
			pq_put_null(w, 1);
		else
			pq_put_int(w, 1, (uint64_t)(i * 7) & 0xffff);
		if (i % 11 == 3) {
			pq_put_null(w, 2);
		} else {
			pq_list_begin(w, 2);
			for (j = 0; j < i % 7; j++)
				pq_list_add(w, 2, (uint64_t)(i + j));
		}
		entries += i % 11 == 3 || i % 7 == 0 ? 1 : i % 7;
		snprintf(str, sizeof(str), "value %d", i);
		pq_put_bytes(w, 3, str, strlen(str));
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	fm = footer(&m.b);
	/* 80-byte pages of 8-byte values: 10 a page */
	CU_ASSERT(walk_pages(&m.b, col_meta(fm, 0, 0), 0, &wk));
	CU_ASSERT_EQUAL(wk.pages, 100);
	CU_ASSERT_EQUAL(wk.values, 1000);
	CU_ASSERT(walk_pages(&m.b, col_meta(fm, 0, 1), 0, &wk));
	CU_ASSERT(wk.pages > 10);
	CU_ASSERT_EQUAL(wk.values, 1000);
	CU_ASSERT_EQUAL(rd_i32_elem(col_meta(fm, 0, 1), 2, 1), 5);
	/* list pages end where rows end: each starts at repetition 0 */
	CU_ASSERT(walk_pages(&m.b, col_meta(fm, 0, 2), 0, &wk));
	CU_ASSERT(wk.pages > 10);
	CU_ASSERT_EQUAL(wk.values, entries);
	CU_ASSERT_EQUAL(wk.first_reps, wk.pages);
	CU_ASSERT_EQUAL(rd_int(col_meta(fm, 0, 2), 5), entries);
	/* a list's null count counts null lists: i % 11 == 3, 91 of them */
	CU_ASSERT_EQUAL(rd_int(rd_sub(col_meta(fm, 0, 2), 12), 3), 91);
	CU_ASSERT_EQUAL(rd_int(rd_sub(col_meta(fm, 0, 1), 12), 3), 200);
	CU_ASSERT(walk_pages(&m.b, col_meta(fm, 0, 3), 0, &wk));
	CU_ASSERT(wk.pages > 10);
	pq_buf_free(&m.b);
}

/* Whether the n bytes at want appear in b. */
static int holds(const struct pq_buf *b, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i + n <= b->len; i++)
		if (!memcmp(b->p + i, want, n))
			return 1;
	return 0;
}

/* A flat optional column keeps no definition levels until its row
 * group's first null: a row group without one gets a single run of 1s,
 * one with a null late gets the 1s before it back. */
static void test_lazy_levels(void)
{
	static const struct pq_column col = { "o", PQ_INT, 32, 1, 1,
					      PQ_ENC_PLAIN };
	/* 20 levels 1: length 2, RLE run (20 << 1) of 1 */
	static const uint8_t no_null[] = { 0x02, 0, 0, 0, 0x28, 0x01 };
	/* 1 x 9, 0, 1, 1: length 4, RLE run (9 << 1) of 1, a bit-packed
	 * group (1 << 1 | 1) of 0 1 1 and padding */
	static const uint8_t late_null[] = { 0x04, 0, 0, 0, 0x12, 0x01,
					     0x03, 0x06 };
	uint8_t body[sizeof(no_null) + 20 * 4];
	struct mem m;
	struct pq_writer *w = new_writer(&col, 1, 0, 0, 0, &m);
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 20; i++) {
		pq_put_int(w, 0, (uint64_t)i + 100);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_flush(w), 0);
	for (i = 0; i < 12; i++) {
		if (i == 9)
			pq_put_null(w, 0);
		else
			pq_put_int(w, 0, (uint64_t)i + 200);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	memcpy(body, no_null, sizeof(no_null));
	for (i = 0; i < 20; i++)
		pq_store_le32(body + sizeof(no_null) + 4 * i, (uint32_t)i + 100);
	CU_ASSERT(holds(&m.b, body, sizeof(no_null) + 20 * 4));
	memcpy(body, late_null, sizeof(late_null));
	for (i = 0; i < 11; i++)
		pq_store_le32(body + sizeof(late_null) + 4 * i,
			      (uint32_t)(i < 9 ? i : i + 1) + 200);
	CU_ASSERT(holds(&m.b, body, sizeof(late_null) + 11 * 4));
	pq_buf_free(&m.b);
}

static void test_zstd_pages(void)
{
	static const struct pq_column cols[] = {
		{ "ts", PQ_INT, 64, 0, 0, PQ_ENC_DELTA },
		{ "comm", PQ_STRING, 0, 0, 1, PQ_ENC_AUTO },
	};
	struct mem m;
	struct pq_writer *w = new_writer(cols, 2, 3, 0, 4096, &m);
	struct walk wk;
	struct rd fm, meta;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 5000; i++) {
		pq_put_int(w, 0, 1000000000u + (uint64_t)i * 1234);
		pq_put_bytes(w, 1, i % 3 ? "bash" : "kworker/0:1",
			     i % 3 ? 4 : 11);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	fm = footer(&m.b);
	meta = col_meta(fm, 0, 0);
	CU_ASSERT_EQUAL(rd_int(meta, 4), 6);	/* ZSTD */
	CU_ASSERT(walk_pages(&m.b, meta, 1, &wk));
	CU_ASSERT(wk.pages > 1);
	CU_ASSERT_EQUAL(wk.values, 5000);
	CU_ASSERT(rd_int(meta, 7) < rd_int(meta, 6));
	meta = col_meta(fm, 0, 1);
	CU_ASSERT(walk_pages(&m.b, meta, 1, &wk));
	CU_ASSERT_EQUAL(wk.values, 5000);
	CU_ASSERT(rd_int(meta, 11) != ABSENT);
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 5, "kworker/0:1", 11));
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 6, "bash", 4));
	pq_buf_free(&m.b);
}

static void test_dictionary_fallback(void)
{
	static const struct pq_column cols[] = {
		{ "v", PQ_INT, 64, 1, 0, PQ_ENC_AUTO },
		{ "s", PQ_BINARY, 0, 0, 0, PQ_ENC_AUTO },
	};
	struct mem m;
	/* a dictionary page holds 64 bytes at most: 8 INT64 entries */
	struct pq_writer *w = new_writer(cols, 2, 0, 0, 64, &m);
	struct rd fm, meta;
	uint32_t n;
	char s[8];
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 100; i++) {
		pq_put_int(w, 0, (uint64_t)(i % 8));
		pq_put_bytes(w, 1, "ab", 2);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL(pq_flush(w), 0);
	for (i = 0; i < 100; i++) {
		pq_put_int(w, 0, (uint64_t)i);
		snprintf(s, sizeof(s), "%d", i);
		pq_put_bytes(w, 1, s, strlen(s));
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	fm = footer(&m.b);
	/* first row group: dictionaries */
	meta = col_meta(fm, 0, 0);
	CU_ASSERT(rd_int(meta, 11) > 0);
	CU_ASSERT_EQUAL(rd_i32_elem(meta, 2, 1), 8);
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 5, "\7\0\0\0\0\0\0\0", 8));
	meta = col_meta(fm, 0, 1);
	CU_ASSERT(rd_int(meta, 11) > 0);
	/* second: 9 entries would pass 64 bytes, so PLAIN for v; the 100
	 * strings' 4 + 1 or 2 bytes each, too */
	meta = col_meta(fm, 1, 0);
	CU_ASSERT_EQUAL(rd_int(meta, 11), ABSENT);
	rd_elem(meta, 2, 0, &n);
	CU_ASSERT(n == 1 && rd_i32_elem(meta, 2, 0) == 0);
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 5, "\x63\0\0\0\0\0\0\0", 8));
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 6, "\0\0\0\0\0\0\0\0", 8));
	meta = col_meta(fm, 1, 1);
	CU_ASSERT_EQUAL(rd_int(meta, 11), ABSENT);
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 5, "99", 2));
	CU_ASSERT(rd_bin_is(rd_sub(meta, 12), 6, "0", 1));
	pq_buf_free(&m.b);
}

static void test_dictionary_entries(void)
{
	static const struct pq_column col = { "v", PQ_INT, 32, 0, 0,
					      PQ_ENC_AUTO };
	struct mem m;
	struct pq_writer *w = new_writer(&col, 1, 0, 0, 0, &m);
	struct rd fm;
	uint32_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	/* 65536 distinct fit (a 256 KiB dictionary page), one more not */
	for (i = 0; i < 70000; i++) {
		pq_put_int(w, 0, i < 65536 ? i : 0);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL(pq_flush(w), 0);
	for (i = 0; i < 70000; i++) {
		pq_put_int(w, 0, i);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	fm = footer(&m.b);
	CU_ASSERT(rd_int(col_meta(fm, 0, 0), 11) > 0);
	CU_ASSERT_EQUAL(rd_int(col_meta(fm, 1, 0), 11), ABSENT);
	pq_buf_free(&m.b);
}

/* AUTO on a small integer: a row group of one value (-3, with a null)
 * is a dictionary of one and a run of index 0; one of two values is
 * PLAIN. */
static void test_small_ints(void)
{
	static const struct pq_column col = { "v", PQ_INT, 8, 1, 1,
					      PQ_ENC_AUTO };
	/* dictionary page: { DICTIONARY_PAGE, 4 bytes, 4 bytes,
	 * 7: { 1 value, PLAIN } }, -3 as INT32 */
	static const uint8_t dict[] = { 0x15, 0x04, 0x15, 0x08, 0x15, 0x08,
		0x4c, 0x15, 0x02, 0x15, 0x00, 0x00, 0x00,
		0xfd, 0xff, 0xff, 0xff };
	/* the data page's values, after its levels: bit width 1, one
	 * RLE run (9 << 1) of index 0 */
	static const uint8_t run[] = { 0x01, 0x12, 0x00 };
	struct mem m;
	struct pq_writer *w = new_writer(&col, 1, 0, 0, 0, &m);
	struct rd fm;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (i = 0; i < 10; i++) {
		if (i == 5)
			pq_put_null(w, 0);
		else
			pq_put_int(w, 0, (uint64_t)-3);
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL(pq_flush(w), 0);
	for (i = 0; i < 10; i++) {
		pq_put_int(w, 0, (uint64_t)(i & 1));
		CU_ASSERT_EQUAL_FATAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL_FATAL(pq_finish(w), 0);
	pq_writer_free(w);
	fm = footer(&m.b);
	CU_ASSERT_EQUAL(rd_int(col_meta(fm, 0, 0), 11), 4);
	CU_ASSERT_FATAL(m.b.len > 4 + sizeof(dict));
	CU_ASSERT(!memcmp(m.b.p + 4, dict, sizeof(dict)));
	CU_ASSERT(holds(&m.b, run, sizeof(run)));
	CU_ASSERT_EQUAL(rd_i32_elem(col_meta(fm, 0, 0), 2, 2), 8);
	CU_ASSERT_EQUAL(rd_int(col_meta(fm, 1, 0), 11), ABSENT);
	CU_ASSERT_EQUAL(rd_i32_elem(col_meta(fm, 1, 0), 2, 0), 0);
	CU_ASSERT_EQUAL(rd_i32_elem(col_meta(fm, 1, 0), 2, 2), ABSENT);
	pq_buf_free(&m.b);
}

/* Integers of each width and sign (with their extremes), a byte array
 * over 64 bytes and a required list: 3 rows. */
static void write_types(struct mem *m)
{
	static const struct pq_column cols[] = {
		{ "u64", PQ_INT, 64, 0, 0, PQ_ENC_AUTO },
		{ "i64", PQ_INT, 64, 1, 0, PQ_ENC_PLAIN },
		{ "u8", PQ_INT, 8, 0, 0, PQ_ENC_DELTA },
		{ "i8", PQ_INT, 8, 1, 0, PQ_ENC_AUTO },
		{ "u32", PQ_INT, 32, 0, 0, PQ_ENC_PLAIN },
		{ "i16", PQ_INT, 16, 1, 1, PQ_ENC_PLAIN },
		{ "long", PQ_BINARY, 0, 0, 1, PQ_ENC_PLAIN },
		{ "l", PQ_INT_LIST, 8, 0, 0, PQ_ENC_PLAIN },
	};
	static const uint64_t u64[3] = { 5, UINT64_MAX, 0 };
	static const uint64_t i64[3] = { 5, (uint64_t)INT64_MIN, UINT64_MAX };
	/* only the low bits count: 0x1ff is 0xff */
	static const uint64_t u8[3] = { 0x1ff, 1, 7 };
	static const uint64_t i8[3] = { 0x80, 127, (uint64_t)-1 };
	static const uint64_t u32[3] = { 0xffffffff, 7, 8 };
	struct pq_writer *w = new_writer(cols, 8, 0, 0, 0, m);
	uint8_t big[65];
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	memset(big, 'z', sizeof(big));
	for (i = 0; i < 3; i++) {
		pq_put_int(w, 0, u64[i]);
		pq_put_int(w, 1, i64[i]);
		pq_put_int(w, 2, u8[i]);
		pq_put_int(w, 3, i8[i]);
		pq_put_int(w, 4, u32[i]);
		if (i == 1)
			pq_put_null(w, 5);
		else
			pq_put_int(w, 5, (uint64_t)(i ? 3 : -2));
		pq_put_bytes(w, 6, big, i == 2 ? sizeof(big) : 1);
		pq_list_begin(w, 7);
		pq_list_add(w, 7, (uint64_t)i);
		CU_ASSERT_EQUAL(pq_end_row(w), 0);
	}
	CU_ASSERT_EQUAL(pq_finish(w), 0);
	pq_writer_free(w);
}

/* Statistics in each column's order, as PLAIN bytes of its physical
 * type; converted types for older readers. */
static void test_int_types(void)
{
	static const int conv[6] = { 14, 18, 11, 15, 13, 16 };
	static const char *const max[6] = {
		"\xff\xff\xff\xff\xff\xff\xff\xff", "\5\0\0\0\0\0\0\0",
		"\xff\0\0\0", "\x7f\0\0\0", "\xff\xff\xff\xff", "\3\0\0\0",
	};
	static const char *const min[6] = {
		"\0\0\0\0\0\0\0\0", "\0\0\0\0\0\0\0\x80", "\1\0\0\0",
		"\x80\xff\xff\xff", "\7\0\0\0", "\xfe\xff\xff\xff",
	};
	struct mem m;
	struct rd fm, st, el;
	uint32_t n;
	int i;

	write_types(&m);
	fm = footer(&m.b);
	for (i = 0; i < 6; i++) {
		el = rd_elem(fm, 2, (uint32_t)i + 1, &n);
		CU_ASSERT_EQUAL(rd_int(el, 6), conv[i]);
		CU_ASSERT_EQUAL(rd_int(el, 1), i < 2 ? 2 : 1);
		st = rd_sub(col_meta(fm, 0, (uint32_t)i), 12);
		CU_ASSERT(rd_bin_is(st, 5, max[i], i < 2 ? 8 : 4));
		CU_ASSERT(rd_bin_is(st, 6, min[i], i < 2 ? 8 : 4));
		CU_ASSERT_EQUAL(rd_int(st, 3), i == 5);
	}
	/* a byte array over 64 bytes: no min or max, the null count */
	st = rd_sub(col_meta(fm, 0, 6), 12);
	CU_ASSERT(!st.bad);
	CU_ASSERT_EQUAL(rd_int(st, 3), 0);
	CU_ASSERT_EQUAL(rd_int(st, 5), ABSENT);
	CU_ASSERT_EQUAL(rd_int(st, 6), ABSENT);
	/* column orders: one per leaf, not per schema element */
	rd_elem(fm, 7, 0, &n);
	CU_ASSERT_EQUAL(n, 8);
	pq_buf_free(&m.b);
}

/* required group l (LIST) { repeated group list { required INT32
 * element (INT(8, false)) } }: its path, its elements' statistics. */
static void test_list_schema(void)
{
	struct mem m;
	struct rd fm, st, el;
	uint32_t n;

	write_types(&m);
	fm = footer(&m.b);
	el = rd_elem(fm, 2, 8, &n);
	CU_ASSERT_EQUAL(n, 11);
	CU_ASSERT(rd_bin_is(el, 4, "l", 1));
	CU_ASSERT_EQUAL(rd_int(el, 3), 0);
	CU_ASSERT_EQUAL(rd_int(el, 5), 1);
	CU_ASSERT_EQUAL(rd_int(el, 6), 3);
	CU_ASSERT(!rd_sub(rd_sub(el, 10), 3).bad);
	el = rd_elem(fm, 2, 9, &n);
	CU_ASSERT(rd_bin_is(el, 4, "list", 4));
	CU_ASSERT_EQUAL(rd_int(el, 3), 2);
	el = rd_elem(fm, 2, 10, &n);
	CU_ASSERT(rd_bin_is(el, 4, "element", 7));
	CU_ASSERT_EQUAL(rd_int(el, 1), 1);
	CU_ASSERT_EQUAL(rd_int(el, 3), 0);
	CU_ASSERT_EQUAL(rd_int(el, 6), 11);
	CU_ASSERT_EQUAL(rd_int(rd_sub(rd_sub(el, 10), 10), 1), 8);
	CU_ASSERT_EQUAL(rd_int(rd_sub(rd_sub(el, 10), 10), 2), 0);
	el = rd_elem(col_meta(fm, 0, 7), 3, 2, &n);
	CU_ASSERT(n == 3 && rd_varint(&el) == 7 && !memcmp(el.p, "element", 7));
	st = rd_sub(col_meta(fm, 0, 7), 12);
	CU_ASSERT(rd_bin_is(st, 5, "\2\0\0\0", 4));
	CU_ASSERT(rd_bin_is(st, 6, "\0\0\0\0", 4));
	pq_buf_free(&m.b);
}

static const struct pq_column two[] = {
	{ "pid", PQ_INT, 32, 1, 0, PQ_ENC_AUTO },
	{ "args", PQ_INT_LIST, 64, 0, 1, PQ_ENC_PLAIN },
};

/* After the error, every call fails with the same message. */
static void expect_failed(struct pq_writer *w, const char *msg)
{
	CU_ASSERT_PTR_NOT_NULL(strstr(pq_error(w), msg));
	if (!strstr(pq_error(w), msg))
		fprintf(stderr, "\n  error \"%s\", not \"%s\"\n", pq_error(w),
			msg);
	pq_put_int(w, 0, 1);
	CU_ASSERT_EQUAL(pq_end_row(w), -1);
	CU_ASSERT_EQUAL(pq_flush(w), -1);
	CU_ASSERT_EQUAL(pq_finish(w), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(pq_error(w), msg));
	pq_writer_free(w);
}

static void test_caller_errors(void)
{
	struct mem m;
	struct pq_writer *w;

	w = new_writer(two, 2, 0, 0, 0, &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_STRING_EQUAL(pq_error(w), "no error");
	pq_put_int(w, 0, 1);
	CU_ASSERT_EQUAL(pq_end_row(w), -1);
	expect_failed(w, "row 1: no value for column args");

	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_put_int(w, 0, 1);
	pq_put_null(w, 1);
	CU_ASSERT_EQUAL(pq_end_row(w), 0);
	pq_put_int(w, 0, 1);
	pq_put_int(w, 0, 2);
	pq_list_begin(w, 1);
	CU_ASSERT_EQUAL(pq_end_row(w), -1);
	expect_failed(w, "row 2: column pid given 2 times");

	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_list_add(w, 1, 5);
	expect_failed(w, "args: an element without pq_list_begin");

	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_put_null(w, 0);
	expect_failed(w, "pid: a null in a required column");

	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_put_bytes(w, 0, "x", 1);
	expect_failed(w, "column pid is an integer column");

	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_put_int(w, 2, 0);
	expect_failed(w, "no column 2");

	/* a row begun but not ended cannot be flushed */
	w = new_writer(two, 2, 0, 0, 0, &m);
	pq_put_int(w, 0, 1);
	CU_ASSERT_EQUAL(pq_flush(w), -1);
	expect_failed(w, "row 1: not ended");

	w = new_writer(two, 2, 0, 0, 0, &m);
	CU_ASSERT_EQUAL(pq_finish(w), 0);
	pq_put_int(w, 0, 1);
	expect_failed(w, "after pq_finish");
	pq_buf_free(&m.b);
}

static void test_bad_columns(void)
{
	struct pq_column c[2] = { two[0], two[1] };
	struct mem m = { { 0 }, -1 };

	CU_ASSERT_PTR_NULL(pq_writer_new(c, 0, NULL, mem_sink, &m));
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, NULL, &m));
	c[0].bits = 12;
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, mem_sink, &m));
	c[0] = two[0];
	c[1].enc = PQ_ENC_DELTA;	/* a list */
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, mem_sink, &m));
	c[1] = two[0];			/* the same name twice */
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, mem_sink, &m));
	c[1].name = "";
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, mem_sink, &m));
	c[1].name = "x";
	c[1].kind = PQ_STRING;
	c[1].enc = PQ_ENC_DELTA;
	CU_ASSERT_PTR_NULL(pq_writer_new(c, 2, NULL, mem_sink, &m));
}

static void test_sink_error(void)
{
	struct mem m;
	struct pq_writer *w;
	int k;

	/* the sink failing at each of its writes (PAR1, headers, pages,
	 * footer, tail) */
	for (k = 0; k < 9; k++) {
		w = new_writer(two, 2, 3, 0, 0, &m);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		m.fail_after = k;
		pq_put_int(w, 0, 7);
		pq_list_begin(w, 1);
		pq_list_add(w, 1, 1);
		CU_ASSERT_EQUAL(pq_end_row(w), 0);
		CU_ASSERT_EQUAL(pq_finish(w), -1);
		expect_failed(w, "write failed");
		pq_buf_free(&m.b);
	}
}

/* The job of the allocation test: two row groups of every kind. */
static int oom_job(uint8_t *out, size_t cap, size_t *len)
{
	static const struct pq_column cols[] = {
		{ "ts", PQ_INT, 64, 0, 0, PQ_ENC_DELTA },
		{ "comm", PQ_STRING, 0, 0, 1, PQ_ENC_AUTO },
		{ "cpu", PQ_INT, 32, 0, 0, PQ_ENC_AUTO },
		{ "args", PQ_INT_LIST, 64, 0, 1, PQ_ENC_PLAIN },
	};
	struct pq_options o = { 1, 600, 200, "oom test" };
	struct mem m = { { out, 0, cap }, -1 };
	struct pq_writer *w = pq_writer_new(cols, 4, &o, mem_sink, &m);
	char s[16];
	int i, r = 0;

	*len = 0;
	if (!w)
		return 1;
	if (pq_writer_kv(w, "origin", "unit test")) {
		r = -1;
	}
	for (i = 0; i < 120 && !r; i++) {
		pq_put_int(w, 0, (uint64_t)i * 1000);
		snprintf(s, sizeof(s), "task%d", i % 40);
		pq_put_bytes(w, 1, s, strlen(s));
		pq_put_int(w, 2, (uint64_t)(i % 4));
		pq_list_begin(w, 3);
		pq_list_add(w, 3, (uint64_t)i);
		r = pq_end_row(w);
	}
	if (!r)
		r = pq_finish(w);
	if (r && strcmp(pq_error(w), "out of memory")) {
		fprintf(stderr, "\n  error \"%s\"\n", pq_error(w));
		r = -2;
	}
	if (r)
		CU_ASSERT_EQUAL(pq_finish(w), -1);
	pq_writer_free(w);
	*len = m.b.len;
	return r;
}

static void test_out_of_memory(void)
{
	static uint8_t ref[1 << 16], out[1 << 16];
	size_t rlen, len;
	long total, k;
	int r;

	failalloc_arm(-1);
	r = oom_job(ref, sizeof(ref), &rlen);
	total = failalloc_disarm();
	CU_ASSERT_EQUAL_FATAL(r, 0);
	CU_ASSERT(total > 20);
	for (k = 0; k < total; k++) {
		failalloc_arm(k);
		r = oom_job(out, sizeof(out), &len);
		failalloc_disarm();
		/* refused cleanly, or (an allocation that a retry
		 * replaces) the very same file */
		CU_ASSERT(r == 1 || r == -1 || (r == 0 && len == rlen &&
						!memcmp(out, ref, len)));
		if (r == -2 || (r == 0 && (len != rlen || memcmp(out, ref, len))))
			fprintf(stderr, "\n  allocation %ld failing: %d\n", k, r);
	}
}

void suite_pqwrite(void)
{
	CU_pSuite s = CU_add_suite("pqwrite", NULL, NULL);

	CU_add_test(s, "uvarint and zigzag", test_uvarint_zigzag);
	CU_add_test(s, "bit widths", test_bit_width);
	CU_add_test(s, "thrift compact protocol", test_thrift);
	CU_add_test(s, "hybrid: RLE runs", test_rle_runs);
	CU_add_test(s, "hybrid: bit-packed groups", test_rle_packed);
	CU_add_test(s, "hybrid: wide values, long runs", test_rle_wide);
	CU_add_test(s, "hybrid: levels", test_rle_levels);
	CU_add_test(s, "delta: small sequences", test_delta_small);
	CU_add_test(s, "delta: two blocks", test_delta_blocks);
	CU_add_test(s, "delta: wrapping, 32 and 64 bits", test_delta_wrap);
	CU_add_test(s, "a tiny file: pages, byte for byte", test_tiny_pages);
	CU_add_test(s, "a tiny file: footer read back", test_tiny_footer);
	CU_add_test(s, "a tiny file: its column chunks", test_tiny_chunks);
	CU_add_test(s, "row groups closed by size", test_row_groups_by_size);
	CU_add_test(s, "data pages", test_pages);
	CU_add_test(s, "zstd pages", test_zstd_pages);
	CU_add_test(s, "definition levels kept from the first null",
		    test_lazy_levels);
	CU_add_test(s, "dictionary falls back to PLAIN",
		    test_dictionary_fallback);
	CU_add_test(s, "dictionary of 64 Ki entries", test_dictionary_entries);
	CU_add_test(s, "small integers: one value, a dictionary of one",
		    test_small_ints);
	CU_add_test(s, "integer types and statistics", test_int_types);
	CU_add_test(s, "list schema", test_list_schema);
	CU_add_test(s, "caller's mistakes", test_caller_errors);
	CU_add_test(s, "bad columns", test_bad_columns);
	CU_add_test(s, "sink errors", test_sink_error);
	CU_add_test(s, "each allocation failing", test_out_of_memory);
}
