/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_bytes.c - byte order (endian.c), the bounded cursor (cursor.c)
 * and the one-line errors (error.c) that everything else builds on.
 */
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

/* True when the error line names the file and the given offset. */
static int names(const struct tdat_error *e, const char *file,
		 unsigned long long off)
{
	char want[128];

	snprintf(want, sizeof(want), "%s: offset %llu: ", file, off);
	return strncmp(e->msg, want, strlen(want)) == 0 &&
	       !strchr(e->msg, '\n');
}

static void test_load_little(void)
{
	static const uint8_t b[8] = { 0x01, 0x02, 0x03, 0x04,
				      0x05, 0x06, 0x07, 0x88 };

	CU_ASSERT_EQUAL(tdat_load16(0, b), 0x0201);
	CU_ASSERT_EQUAL(tdat_load32(0, b), 0x04030201u);
	CU_ASSERT_EQUAL(tdat_load64(0, b), 0x8807060504030201ull);
}

static void test_load_big(void)
{
	static const uint8_t b[8] = { 0x81, 0x02, 0x03, 0x04,
				      0x05, 0x06, 0x07, 0x08 };

	CU_ASSERT_EQUAL(tdat_load16(1, b), 0x8102);
	CU_ASSERT_EQUAL(tdat_load32(1, b), 0x81020304u);
	CU_ASSERT_EQUAL(tdat_load64(1, b), 0x8102030405060708ull);
}

static void test_load_unaligned(void)
{
	uint8_t b[16];
	int i;

	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(0xa0 + i);
	/* Odd addresses must work: file data is never aligned. */
	CU_ASSERT_EQUAL(tdat_load32(0, b + 1), 0xa4a3a2a1u);
	CU_ASSERT_EQUAL(tdat_load32(1, b + 3), 0xa3a4a5a6u);
	CU_ASSERT_EQUAL(tdat_load64(0, b + 5), 0xacabaaa9a8a7a6a5ull);
	CU_ASSERT_EQUAL(tdat_load64(1, b + 7), 0xa7a8a9aaabacadaeull);
}

static void test_store_both_orders(void)
{
	static const uint8_t le[14] = { 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
					0xef, 0xcd, 0xab, 0x90, 0x78, 0x56,
					0x34, 0x12 };
	static const uint8_t be[14] = { 0x12, 0x34, 0x12, 0x34, 0x56, 0x78,
					0x12, 0x34, 0x56, 0x78, 0x90, 0xab,
					0xcd, 0xef };
	uint8_t b[14];

	memset(b, 0xee, sizeof(b));
	tdat_store16(0, b, 0x1234);
	tdat_store32(0, b + 2, 0x12345678u);
	tdat_store64(0, b + 6, 0x1234567890abcdefull);
	CU_ASSERT_EQUAL(memcmp(b, le, sizeof(b)), 0);

	memset(b, 0xee, sizeof(b));
	tdat_store16(1, b, 0x1234);
	tdat_store32(1, b + 2, 0x12345678u);
	tdat_store64(1, b + 6, 0x1234567890abcdefull);
	CU_ASSERT_EQUAL(memcmp(b, be, sizeof(b)), 0);
}

static void test_round_trip(void)
{
	static const uint64_t v[] = { 0, 1, 0x80, 0xff, 0x8000, 0xffff,
				      0x80000000u, 0xffffffffu,
				      0x8000000000000000ull, ~0ull,
				      0x0123456789abcdefull };
	uint8_t b[8];
	size_t i;
	int big, n;

	for (big = 0; big <= 1; big++) {
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			tdat_store16(big, b, (uint16_t)v[i]);
			CU_ASSERT_EQUAL(tdat_load16(big, b), (uint16_t)v[i]);
			tdat_store32(big, b, (uint32_t)v[i]);
			CU_ASSERT_EQUAL(tdat_load32(big, b), (uint32_t)v[i]);
			tdat_store64(big, b, v[i]);
			CU_ASSERT_EQUAL(tdat_load64(big, b), v[i]);
			for (n = 1; n <= 8; n *= 2) {
				memset(b, 0xa5, sizeof(b));
				tdat_store_n(big, b, n, v[i]);
				CU_ASSERT_EQUAL(tdat_load_n(big, b, n),
						n == 8 ? v[i] : v[i] &
						((1ull << (8 * n)) - 1));
				if (n < 8)	/* not a byte past n */
					CU_ASSERT_EQUAL(b[n], 0xa5);
			}
		}
	}
}

/* tdat_get / tdat_put follow the file's endian flag. */
static void test_file_order(void)
{
	struct tdat_file f;
	uint8_t b[8];

	memset(&f, 0, sizeof(f));
	tdat_put32(&f, b, 0x11223344u);
	CU_ASSERT_EQUAL(b[0], 0x44);
	CU_ASSERT_EQUAL(tdat_get32(&f, b), 0x11223344u);
	f.big_endian = 1;
	CU_ASSERT_EQUAL(tdat_get32(&f, b), 0x44332211u);
	tdat_put16(&f, b, 0xabcd);
	CU_ASSERT_EQUAL(b[0], 0xab);
	CU_ASSERT_EQUAL(tdat_get16(&f, b), 0xabcd);
	tdat_put64(&f, b, 0x0102030405060708ull);
	CU_ASSERT_EQUAL(b[0], 0x01);
	CU_ASSERT_EQUAL(b[7], 0x08);
	CU_ASSERT_EQUAL(tdat_get64(&f, b), 0x0102030405060708ull);
}

static void test_cursor_reads(void)
{
	static const uint8_t b[] = { 0x07, 0x02, 0x01, 0x04, 0x03, 0x02, 0x01,
				     8, 7, 6, 5, 4, 3, 2, 1, 'a', 'b', 0,
				     0, 'z' };
	struct tdat_error err = { 0 };
	struct cursor c;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	const char *s;
	const uint8_t *p;

	cur_init(&c, b, sizeof(b), 0, "t.dat", 1000, &err);
	CU_ASSERT_EQUAL(cur_left(&c), sizeof(b));
	CU_ASSERT_EQUAL(cur_offset(&c), 1000);
	CU_ASSERT_EQUAL(cur_u8(&c, &u8, "a"), 0);
	CU_ASSERT_EQUAL(u8, 7);
	CU_ASSERT_EQUAL(cur_u16(&c, &u16, "b"), 0);
	CU_ASSERT_EQUAL(u16, 0x0102);
	CU_ASSERT_EQUAL(cur_u32(&c, &u32, "c"), 0);
	CU_ASSERT_EQUAL(u32, 0x01020304u);
	CU_ASSERT_EQUAL(cur_u64(&c, &u64, "d"), 0);
	CU_ASSERT_EQUAL(u64, 0x0102030405060708ull);
	CU_ASSERT_EQUAL(cur_offset(&c), 1015);
	CU_ASSERT_EQUAL(cur_cstr(&c, &s, "e"), 0);
	CU_ASSERT_STRING_EQUAL(s, "ab");
	CU_ASSERT_EQUAL(cur_cstr(&c, &s, "empty"), 0);
	CU_ASSERT_STRING_EQUAL(s, "");
	CU_ASSERT_EQUAL(cur_bytes(&c, 1, &p, "f"), 0);
	CU_ASSERT_EQUAL(*p, 'z');
	CU_ASSERT_EQUAL(cur_left(&c), 0);
	CU_ASSERT_EQUAL(cur_bytes(&c, 0, &p, "nothing"), 0);
	CU_ASSERT_STRING_EQUAL(err.msg, "");
}

static void test_cursor_big_endian(void)
{
	static const uint8_t b[] = { 1, 2, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct tdat_error err;
	struct cursor c;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	cur_init(&c, b, sizeof(b), 1, "be.dat", 0, &err);
	CU_ASSERT_EQUAL(cur_u16(&c, &u16, "a"), 0);
	CU_ASSERT_EQUAL(cur_u32(&c, &u32, "b"), 0);
	CU_ASSERT_EQUAL(cur_u64(&c, &u64, "c"), 0);
	CU_ASSERT_EQUAL(u16, 0x0102);
	CU_ASSERT_EQUAL(u32, 0x01020304u);
	CU_ASSERT_EQUAL(u64, 0x0102030405060708ull);
}

/* Every read that would pass the end fails, says where, and moves nothing. */
static void test_cursor_past_end(void)
{
	static const uint8_t b[7] = { 1, 2, 3, 4, 5, 6, 7 };
	struct tdat_error err;
	struct cursor c;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64 = 42;
	const uint8_t *p;

	cur_init(&c, b, sizeof(b), 0, "cut.dat", 500, &err);
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(cur_u64(&c, &u64, "CPU offset"), -1);
	CU_ASSERT_EQUAL(u64, 42);
	CU_ASSERT(names(&err, "cut.dat", 500));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU offset"));
	CU_ASSERT_EQUAL(cur_left(&c), 7);

	CU_ASSERT_EQUAL(cur_u32(&c, &u32, "x"), 0);
	CU_ASSERT_EQUAL(cur_u16(&c, &u16, "y"), 0);
	CU_ASSERT_EQUAL(cur_u32(&c, &u32, "option size"), -1);
	CU_ASSERT(names(&err, "cut.dat", 506));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "option size"));
	CU_ASSERT_EQUAL(cur_u16(&c, &u16, "id"), -1);
	CU_ASSERT(names(&err, "cut.dat", 506));
	CU_ASSERT_EQUAL(cur_bytes(&c, 2, &p, "data"), -1);
	CU_ASSERT_EQUAL(cur_bytes(&c, (size_t)-1, &p, "huge"), -1);
	CU_ASSERT(names(&err, "cut.dat", 506));
	CU_ASSERT_EQUAL(cur_offset(&c), 506);
	CU_ASSERT_EQUAL(cur_u8(&c, &u8, "last"), 0);
	CU_ASSERT_EQUAL(u8, 7);
	CU_ASSERT_EQUAL(cur_u8(&c, &u8, "one more"), -1);
	CU_ASSERT(names(&err, "cut.dat", 507));
}

static void test_cursor_unterminated(void)
{
	static const uint8_t b[] = { 'l', 'o', 'c', 'a', 'l' };
	struct tdat_error err;
	struct cursor c;
	const char *s = NULL;

	cur_init(&c, b, sizeof(b), 0, "clock.dat", 77, &err);
	CU_ASSERT_EQUAL(cur_cstr(&c, &s, "BUFFER clock"), -1);
	CU_ASSERT_PTR_NULL(s);
	CU_ASSERT(names(&err, "clock.dat", 77));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "BUFFER clock"));
	CU_ASSERT_EQUAL(cur_left(&c), sizeof(b));

	/* An empty range has no string either. */
	cur_init(&c, b, 0, 0, "clock.dat", 3, &err);
	CU_ASSERT_EQUAL(cur_cstr(&c, &s, "name"), -1);
	CU_ASSERT(names(&err, "clock.dat", 3));
}

/* Offsets above 4 GiB are printed whole. */
static void test_error_lines(void)
{
	struct tdat_error err;

	CU_ASSERT_EQUAL(tdat_fail(&err, "big.dat", 0x123456789ull,
				  "chunk %d is bad", 7), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "big.dat: offset 4886718345: chunk 7"
			       " is bad");
	CU_ASSERT_EQUAL(tdat_fail_nooff(&err, "x.dat", "cannot open: %s",
					"No such file"), -1);
	CU_ASSERT_STRING_EQUAL(err.msg, "x.dat: cannot open: No such file");
	CU_ASSERT_EQUAL(tdat_fail(NULL, "x.dat", 1, "no error struct"), -1);

	/* Text quoted from a damaged file cannot break the line. */
	tdat_fail(&err, "x.dat", 18, "unsupported compression \"%s\"",
		  "z\nst\001d\177");
	CU_ASSERT_STRING_EQUAL(err.msg, "x.dat: offset 18: unsupported"
			       " compression \"z?st?d?\"");
	tdat_fail_nooff(&err, "x.dat", "%s", "a\r\tb");
	CU_ASSERT_STRING_EQUAL(err.msg, "x.dat: a??b");

	/* Long messages are cut, never overflow. */
	memset(err.msg, 'x', sizeof(err.msg));
	tdat_fail(&err, "f", 1, "%600s", "y");
	CU_ASSERT_EQUAL(strlen(err.msg), sizeof(err.msg) - 1);
}

void suite_bytes(void)
{
	CU_pSuite s = CU_add_suite("bytes", NULL, NULL);

	CU_add_test(s, "load little endian", test_load_little);
	CU_add_test(s, "load big endian", test_load_big);
	CU_add_test(s, "load unaligned", test_load_unaligned);
	CU_add_test(s, "store both orders", test_store_both_orders);
	CU_add_test(s, "store/load round trip", test_round_trip);
	CU_add_test(s, "tdat_get/put follow the file", test_file_order);
	CU_add_test(s, "cursor reads in range", test_cursor_reads);
	CU_add_test(s, "cursor big endian", test_cursor_big_endian);
	CU_add_test(s, "cursor reads past the end fail", test_cursor_past_end);
	CU_add_test(s, "cursor unterminated cstr fails",
		    test_cursor_unterminated);
	CU_add_test(s, "error lines", test_error_lines);
}
