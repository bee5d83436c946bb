/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pbwrite.c - the protocol buffer writer (convert/perfetto/pbwrite/)
 * against bytes worked out by hand from the wire format: varints, the
 * ten-byte form of negative ints, zigzag, doubles, strings, nested
 * messages whose length fits the room kept for it, needs less (padded)
 * or more (moved along), PERFETTO.md's minimal trace byte for byte, and
 * every allocation failing.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tests/unit/units.h"
#include "convert/perfetto/pbwrite/pbwrite.h"

static int same(const struct pb *b, const uint8_t *want, size_t n)
{
	size_t i;

	if (b->len != n || (n && memcmp(b->data, want, n))) {
		fprintf(stderr, "\n  got %zu bytes:", b->len);
		for (i = 0; i < b->len && i < 64; i++)
			fprintf(stderr, " %02x", b->data[i]);
		fprintf(stderr, "\n  want %zu bytes:", n);
		for (i = 0; i < n && i < 64; i++)
			fprintf(stderr, " %02x", want[i]);
		fprintf(stderr, "\n");
		return 0;
	}
	return 1;
}

static void test_varints(void)
{
	/* 7 bits a byte, low first, 0x80 on all but the last: 300 =
	 * 0b10_0101100 is ac 02; 2^64 - 1 is nine ff then 01. */
	static const uint8_t want[] = {
		0x00, 0x01, 0x7f, 0x80, 0x01, 0xac, 0x02,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
	};
	struct pb b = { 0 };

	pb_varint(&b, 0);
	pb_varint(&b, 1);
	pb_varint(&b, 127);
	pb_varint(&b, 128);
	pb_varint(&b, 300);
	pb_varint(&b, UINT64_MAX);
	CU_ASSERT(same(&b, want, sizeof(want)));
	CU_ASSERT_EQUAL(pb_varint_size(0), 1);
	CU_ASSERT_EQUAL(pb_varint_size(127), 1);
	CU_ASSERT_EQUAL(pb_varint_size(128), 2);
	CU_ASSERT_EQUAL(pb_varint_size(16383), 2);
	CU_ASSERT_EQUAL(pb_varint_size(16384), 3);
	CU_ASSERT_EQUAL(pb_varint_size(UINT64_MAX), 10);
	pb_free(&b);
}

static void test_scalars(void)
{
	/* field 1 varint 150: 08 96 01 (the protobuf guide's example);
	 * field 4 int -11: 20 then the 64-bit two's complement, ten bytes
	 * (f5 ff ff ff ff ff ff ff ff 01); field 2 sint -4: zigzag 7, 10 07;
	 * field 16 uint 1: tag 16 << 3 = 128 takes two bytes, 80 01 01;
	 * field 6 double 1.0: 31 then 3ff0000000000000 low byte first. */
	static const uint8_t want[] = {
		0x08, 0x96, 0x01,
		0x20, 0xf5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x01,
		0x10, 0x07,
		0x80, 0x01, 0x01,
		0x31, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
		0x12, 0x02, 'h', 'i',
		0x1a, 0x00,
	};
	struct pb b = { 0 };

	pb_uint(&b, 1, 150);
	pb_int(&b, 4, -11);
	pb_sint(&b, 2, -4);
	pb_uint(&b, 16, 1);
	pb_double(&b, 6, 1.0);
	pb_string(&b, 2, "hi");
	pb_bytes(&b, 3, NULL, 0);
	CU_ASSERT(same(&b, want, sizeof(want)));
	CU_ASSERT_FALSE(pb_failed(&b));
	pb_reset(&b);
	CU_ASSERT_EQUAL(b.len, 0);
	/* zigzag at the ends: INT64_MIN -> 2^64 - 1, INT64_MAX -> 2^64 - 2 */
	pb_sint(&b, 1, INT64_MIN);
	pb_sint(&b, 1, INT64_MAX);
	{
		static const uint8_t z[] = {
			0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0x01,
			0x08, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			0xff, 0x01,
		};
		CU_ASSERT(same(&b, z, sizeof(z)));
	}
	pb_free(&b);
}

/* PERFETTO.md section 2: a trace of one sched_switch, 39 bytes. */
static void test_minimal_trace(void)
{
	static const uint8_t want[] = {
		0x0a, 0x25, 0x0a, 0x23, 0x08, 0x00, 0x12, 0x1f,
		0x08, 0xe8, 0x07, 0x10, 0x00, 0x22, 0x18,
		0x0a, 0x09, 's', 'w', 'a', 'p', 'p', 'e', 'r', '/', '0',
		0x10, 0x00, 0x18, 0x78, 0x20, 0x00, 0x2a, 0x01, 'a',
		0x30, 0x0a, 0x38, 0x78,
	};
	struct pb_mark trace, bundle, ev, sw;
	struct pb b = { 0 };

	trace = pb_open(&b, 1, 1);
	bundle = pb_open(&b, 1, 1);
	pb_uint(&b, 1, 0);
	ev = pb_open(&b, 2, 1);
	pb_uint(&b, 1, 1000);
	pb_uint(&b, 2, 0);
	sw = pb_open(&b, 4, 1);
	pb_string(&b, 1, "swapper/0");
	pb_int(&b, 2, 0);
	pb_int(&b, 3, 120);
	pb_int(&b, 4, 0);
	pb_string(&b, 5, "a");
	pb_int(&b, 6, 10);
	pb_int(&b, 7, 120);
	pb_close(&b, sw);
	pb_close(&b, ev);
	pb_close(&b, bundle);
	pb_close(&b, trace);
	CU_ASSERT(same(&b, want, sizeof(want)));
	pb_free(&b);
}

static void test_nested_room(void)
{
	static const uint8_t padded[] = {
		/* 3 bytes of content in 4 bytes of room: 83 80 80 00 */
		0x12, 0x83, 0x80, 0x80, 0x00, 0x08, 0x96, 0x01,
	};
	uint8_t want[3 + 200];
	struct pb b = { 0 };
	struct pb_mark m;
	int i;

	m = pb_open(&b, 2, 4);
	pb_uint(&b, 1, 150);
	pb_close(&b, m);
	CU_ASSERT(same(&b, padded, sizeof(padded)));
	pb_reset(&b);
	/* 200 bytes in 1 byte of room: the length takes 2 (c8 01), the
	 * contents move along one byte */
	m = pb_open(&b, 2, 1);
	for (i = 0; i < 200; i++)
		pb_raw(&b, "\x5a", 1);
	pb_close(&b, m);
	want[0] = 0x12;
	want[1] = 0xc8;
	want[2] = 0x01;
	memset(want + 3, 0x5a, 200);
	CU_ASSERT(same(&b, want, sizeof(want)));
	pb_reset(&b);
	/* an empty message: 12 00 */
	m = pb_open(&b, 2, 1);
	pb_close(&b, m);
	CU_ASSERT(same(&b, (const uint8_t *)"\x12\x00", 2));
	pb_free(&b);
}

/* Each allocation failing in turn: the buffer says so, never crashes,
 * and with none failing the bytes are whole (tag, a 3-byte length of
 * 25000, 1000 strings of 1 + 1 + 23 bytes). */
static void test_alloc_failures(void)
{
	struct pb b;
	struct pb_mark m;
	long k, n = 1;
	int i;

	for (k = 0; k < n + 1; k++) {
		memset(&b, 0, sizeof(b));
		failalloc_arm(k);
		m = pb_open(&b, 1, 1);
		for (i = 0; i < 1000; i++)
			pb_string(&b, 2, "a string of some length");
		pb_close(&b, m);
		n = failalloc_disarm();
		if (k < n) {
			CU_ASSERT(pb_failed(&b));
		} else {
			CU_ASSERT(!pb_failed(&b) && b.len == 4 + 1000 * 25);
		}
		pb_free(&b);
	}
}

void suite_pbwrite(void)
{
	CU_pSuite s = CU_add_suite("pbwrite", NULL, NULL);

	CU_add_test(s, "varints", test_varints);
	CU_add_test(s, "scalars, strings, doubles", test_scalars);
	CU_add_test(s, "PERFETTO.md's minimal trace", test_minimal_trace);
	CU_add_test(s, "nested: padded and moved lengths", test_nested_room);
	CU_add_test(s, "every allocation failing", test_alloc_failures);
}
