/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tsadjust.c - the timestamps readers show: tdat_ts_adjust_init/apply. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"
#include "tests/unit/units.h"

/* A file with only options, in the given byte order. */
static struct tdat_file *bare(int big_endian)
{
	struct tdat_file *f = tdat_meta_new(0, 0, 0, 0, NULL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	f->big_endian = big_endian;
	return f;
}

static void add(struct tdat_file *f, uint16_t id, const void *p, uint32_t n)
{
	struct tdat_option *o = realloc(f->options, (size_t)(f->noptions + 1) *
						    sizeof(*o));

	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	f->options = o;
	o[f->noptions].id = id;
	o[f->noptions].size = n;
	o[f->noptions].data = malloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o[f->noptions].data);
	memcpy(o[f->noptions].data, p, n);
	f->noptions++;
}

static void add_tsc2nsec(struct tdat_file *f, uint32_t mult, uint32_t shift,
			 uint64_t offset)
{
	uint8_t b[16];

	tdat_put32(f, b, mult);
	tdat_put32(f, b + 4, shift);
	tdat_put64(f, b + 8, offset);
	add(f, TDAT_OPT_TSC2NSEC, b, sizeof(b));
}

static void drop(struct tdat_file *f)
{
	int i;

	for (i = 0; i < f->noptions; i++)
		free(f->options[i].data);
	free(f->options);
	free(f);
}

/* No option: times are the raw ones. */
static void test_none(void)
{
	struct tdat_file *f = bare(0);
	struct tdat_ts_adjust a;

	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(a.offset, 0);
	CU_ASSERT_EQUAL(a.mult, 0);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 0), 0);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 123456789012ull), 123456789012ull);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, UINT64_MAX), UINT64_MAX);
	drop(f);
}

/* DATE is microseconds (hex text), OFFSET nanoseconds; they add up. */
static void test_date_offset(void)
{
	struct tdat_file *f = bare(0);
	struct tdat_ts_adjust a;

	add(f, TDAT_OPT_DATE, "0x1f4", 6);		/* 500 us */
	add(f, TDAT_OPT_OFFSET, "-123456789", 11);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(a.offset, 500000 - 123456789);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 1000000000), 1000000000ull + 500000 -
			123456789);
	/* --nodate leaves DATE out, --raw-ts everything */
	tdat_ts_adjust_init(f, TDAT_TS_NODATE, &a);
	CU_ASSERT_EQUAL(a.offset, -123456789);
	tdat_ts_adjust_init(f, TDAT_TS_RAW, &a);
	CU_ASSERT_EQUAL(a.offset, 0);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 42), 42);
	/* a negative sum below zero wraps as unsigned, as in trace-cmd */
	tdat_ts_adjust_init(f, TDAT_TS_NODATE, &a);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 100), (uint64_t)100 - 123456789);
	drop(f);
}

/* TSC2NSEC: (ts * mult) >> shift in 128 bits; its offset is not used;
 * DATE and OFFSET come after the scaling. */
static void test_tsc2nsec(void)
{
	struct tdat_file *f = bare(1);	/* big-endian payload */
	struct tdat_ts_adjust a;
	uint64_t big = 0xF000000000000001ull;

	add_tsc2nsec(f, 3, 1, 999999);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(a.mult, 3);
	CU_ASSERT_EQUAL(a.shift, 1);
	CU_ASSERT_EQUAL(a.offset, 0);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 7), 10);	/* 21 >> 1 */
	/* the 64-bit product would overflow; the 128-bit one does not */
	a.shift = 4;
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, big), 0x2D00000000000000ull);
	CU_ASSERT_NOT_EQUAL(tdat_ts_apply(&a, big), (big * 3) >> 4);
	/* every shift, against products worked out in Python */
	a.mult = 0xFFFFFFFFu;
	a.shift = 0;
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 0xFFFFFFFFFFFFFFFFull),
			0xFFFFFFFF00000001ull);	/* low 64 bits */
	a.shift = 31;
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 0x123456789ABCDEF0ull),
			0x2468ACF1111110EEull);
	a.shift = 32;
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 0x123456789ABCDEF0ull),
			0x1234567888888877ull);
	a.shift = 63;
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 0xFFFFFFFFFFFFFFFFull),
			0x1FFFFFFFDull);
	a.mult = 3;
	a.shift = 1;
	/* rounding: different raw times become one */
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 4), tdat_ts_apply(&a, 5) - 1);
	add(f, TDAT_OPT_OFFSET, "1000", 5);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 7), 1010);	/* scaled, then + */
	drop(f);
	/* the last TSC2NSEC wins; a shift of 64 or more is ignored */
	f = bare(0);
	add_tsc2nsec(f, 5, 12, 0);
	add_tsc2nsec(f, 1, 64, 0);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(a.mult, 0);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 77), 77);
	drop(f);
	f = bare(0);
	add_tsc2nsec(f, 1, 64, 0);
	add_tsc2nsec(f, 5, 12, 0);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(tdat_ts_apply(&a, 4096 * 3 + 4095), 15 + 4);
	drop(f);
}

/* A real file without adjusting options shows its raw times. */
static void test_fixture(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v7-zstd-sched-irq.dat"), &err);
	struct tdat_ts_adjust a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tdat_ts_adjust_init(f, 0, &a);
	CU_ASSERT_EQUAL(a.offset, 0);
	CU_ASSERT_EQUAL(a.mult, 0);
	tdat_close(f);
}

void suite_tsadjust(void)
{
	CU_pSuite s = CU_add_suite("tsadjust", NULL, NULL);

	CU_add_test(s, "no options: raw times", test_none);
	CU_add_test(s, "DATE and OFFSET", test_date_offset);
	CU_add_test(s, "TSC2NSEC", test_tsc2nsec);
	CU_add_test(s, "a recording without adjustments", test_fixture);
}
