/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_bytebuf.c - the growable byte buffer (bytes.c): appends keep every
 * byte in order, reserve gives exactly what was asked, and a size that
 * would overflow is refused with the buffer left as it was.
 */
#include <stdint.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/bytes.h"

static void test_add_in_order(void)
{
	struct tdat_bytes b = { 0 };
	uint8_t one[1000];
	size_t i;

	for (i = 0; i < sizeof(one); i++)
		one[i] = (uint8_t)(i * 7);
	/* Many small appends cross several doublings. */
	for (i = 0; i < 50; i++)
		CU_ASSERT_EQUAL_FATAL(tdat_bytes_add(&b, one, sizeof(one)), 0);
	CU_ASSERT_EQUAL(b.len, 50 * sizeof(one));
	CU_ASSERT(b.cap >= b.len);
	for (i = 0; i < 50; i++)
		CU_ASSERT(!memcmp(b.data + i * sizeof(one), one, sizeof(one)));
	tdat_bytes_free(&b);
	CU_ASSERT_PTR_NULL(b.data);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_EQUAL(b.cap, 0);
}

static void test_add_nothing(void)
{
	struct tdat_bytes b = { 0 };

	CU_ASSERT_EQUAL(tdat_bytes_add(&b, NULL, 0), 0);
	CU_ASSERT_EQUAL(b.len, 0);
	tdat_bytes_free(&b);
}

static void test_reserve_and_reset(void)
{
	struct tdat_bytes b = { 0 };
	uint8_t *kept;

	CU_ASSERT_EQUAL_FATAL(tdat_bytes_reserve(&b, 100), 0);
	CU_ASSERT_EQUAL(b.cap, 100);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_EQUAL(tdat_bytes_reserve(&b, 50), 0);	/* no shrink */
	CU_ASSERT_EQUAL(b.cap, 100);
	CU_ASSERT_EQUAL_FATAL(tdat_bytes_add(&b, "abc", 3), 0);
	kept = b.data;
	tdat_bytes_reset(&b);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_EQUAL(b.cap, 100);
	CU_ASSERT_PTR_EQUAL(b.data, kept);
	CU_ASSERT_EQUAL_FATAL(tdat_bytes_add(&b, "xy", 2), 0);
	CU_ASSERT(!memcmp(b.data, "xy", 2));
	tdat_bytes_free(&b);
}

/* len + n past SIZE_MAX: refused before any allocation, nothing moved. */
static void test_overflow(void)
{
	struct tdat_bytes b = { 0 };
	uint8_t *data;

	CU_ASSERT_EQUAL_FATAL(tdat_bytes_add(&b, "abcd", 4), 0);
	data = b.data;
	b.len = SIZE_MAX - 1;	/* pretend; nothing is written */
	CU_ASSERT_EQUAL(tdat_bytes_add(&b, "xy", 2), -1);
	CU_ASSERT_EQUAL(tdat_bytes_add(&b, "x", SIZE_MAX), -1);
	CU_ASSERT_EQUAL(b.len, SIZE_MAX - 1);
	CU_ASSERT_PTR_EQUAL(b.data, data);
	b.len = 4;
	CU_ASSERT(!memcmp(b.data, "abcd", 4));
	tdat_bytes_free(&b);
}

/* tdat_copy_short copies exactly n bytes, every n, at odd offsets,
 * and not one byte more. */
static void test_copy_short(void)
{
	unsigned char src[64], dst[64], want[64];
	size_t n, at;

	for (n = 0; n < sizeof(src); n++)
		src[n] = (unsigned char)(n * 7 + 1);
	for (n = 0; n <= 40; n++) {
		for (at = 0; at < 3; at++) {
			memset(dst, 0xee, sizeof(dst));
			memset(want, 0xee, sizeof(want));
			memcpy(want + at, src + 3 - at, n);
			tdat_copy_short(dst + at, src + 3 - at, n);
			CU_ASSERT_EQUAL(memcmp(dst, want, sizeof(dst)), 0);
		}
	}
}

void suite_bytebuf(void)
{
	CU_pSuite s = CU_add_suite("bytebuf", NULL, NULL);

	CU_add_test(s, "appends keep every byte in order", test_add_in_order);
	CU_add_test(s, "an empty append", test_add_nothing);
	CU_add_test(s, "reserve, then reset keeps the memory",
		    test_reserve_and_reset);
	CU_add_test(s, "a size past SIZE_MAX is refused", test_overflow);
	CU_add_test(s, "short copies copy n bytes, no more", test_copy_short);
}
