/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_timeshift.c - a guest's TIME_SHIFT samples (libfmt/timeshift.c):
 * the rules trace-cmd 3.1.6's and 3.4's reports follow (found by asking
 * them, see tests/e2e/49-guest-timeshift.sh) and hostile counts.
 */
#include <stdint.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

struct sample { int64_t time, offset; uint64_t scaling, fraction; };

/* A TIME_SHIFT option body for one CPU, little endian, in buf; with
 * fraction bits after the samples when frac is set. */
static size_t one_cpu_frac(uint8_t *buf, uint32_t flags,
			   const struct sample *s, uint32_t n, int frac)
{
	size_t at = 0;
	uint32_t i;

	tdat_store64(0, buf, 0x1234);
	tdat_store32(0, buf + 8, flags);
	tdat_store32(0, buf + 12, 1);
	tdat_store32(0, buf + 16, n);
	at = 20;
	for (i = 0; i < n; i++)
		tdat_store64(0, buf + at + 8 * i, (uint64_t)s[i].time);
	at += 8 * n;
	for (i = 0; i < n; i++)
		tdat_store64(0, buf + at + 8 * i, (uint64_t)s[i].offset);
	at += 8 * n;
	for (i = 0; i < n; i++)
		tdat_store64(0, buf + at + 8 * i, s[i].scaling);
	at += 8 * n;
	for (i = 0; frac && i < n; i++)
		tdat_store64(0, buf + at + 8 * i, s[i].fraction);
	return at + (frac ? 8 * n : 0);
}

static size_t one_cpu(uint8_t *buf, uint32_t flags, const struct sample *s,
		      uint32_t n)
{
	return one_cpu_frac(buf, flags, s, n, 0);
}

static struct tdat_time_shift *parse(uint8_t *buf, size_t len)
{
	struct tdat_file f;
	struct tdat_option o = { .id = TDAT_OPT_TIME_SHIFT };

	memset(&f, 0, sizeof(f));
	f.path = "guest.dat";
	o.size = (uint32_t)len;
	o.data = buf;
	return timeshift_parse(&f, &o);
}

static void test_pairs(void)
{
	static const struct sample s[] = {	/* out of order, repeated */
		{ 300, 30, 1, 0 }, { 100, 10, 1, 0 }, { 200, 20, 1, 0 },
		{ 300, 99, 1, 0 },
	};
	uint8_t buf[256];
	struct tdat_time_shift *t = parse(buf, one_cpu(buf, 0, s, 4));

	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 50), 60);	/* before: first */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 150), 160);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 250), 270);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 300), 320);	/* last pair: lower */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 900), 920);
	CU_ASSERT_EQUAL(timeshift_apply(t, 1, 900), 900);	/* no such CPU */
	timeshift_free(t);
}

static void test_interpolate(void)
{
	static const struct sample s[] = { { 1000, 0, 1, 0 }, { 2000, 3, 1, 0 } };
	uint8_t buf[256];
	struct tdat_time_shift *t = parse(buf, one_cpu(buf, 1, s, 2));

	CU_ASSERT_FATAL(t != NULL);
	/* 0 + (3 * 500 + 500) / 1000 = 2; (3 * 100 + 500) / 1000 = 0 */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 1500), 1502);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 1100), 1100);
	/* beyond the ends: the line goes on; truncating division */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 3000), 3006);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 0), 0 - 2);	/* (-3000+500)/1000 */
	timeshift_free(t);
}

/* Two samples or more: (t * scaling) >> fraction of the lower sample,
 * wrapping in 64 bits, shift modulo 64; offset from the unscaled t. */
static void test_scaling(void)
{
	static const struct sample one[] = { { 0, 5, 3, 0 } };
	static const struct sample s[] = {	/* sorted with their scaling */
		{ 2000, 0, 4, 1 }, { 1000, 0, 3, 0 }, { 3000, 0, 5, 65 },
	};
	static const struct sample kvm[] = {
		{ 0, 10, 1ull << 48, 48 }, { 1ull << 40, 10, 1ull << 48, 48 },
	};
	uint8_t buf[512];
	struct tdat_time_shift *t = parse(buf, one_cpu_frac(buf, 0, one, 1, 0));

	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 100), 105);	/* not scaled */
	timeshift_free(t);
	t = parse(buf, one_cpu_frac(buf, 0, s, 3, 1));
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 500), 1500);	/* 1000's */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 2500), 5000);	/* x4 >> 1 */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 9000), 18000);	/* last pair */
	timeshift_free(t);
	t = parse(buf, one_cpu_frac(buf, 1, kvm, 2, 1));
	CU_ASSERT_FATAL(t != NULL);
	/* 2^48 * t wraps: what is left is t mod 2^16 */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 0x123456789ull), 0x6789 + 10);
	timeshift_free(t);
	/* fraction bits cut short: the option is malformed */
	CU_ASSERT_PTR_NULL(parse(buf, one_cpu_frac(buf, 0, s, 3, 1) - 8));
}

/* Negative sample times sort first and, taken unsigned, lie past every
 * timestamp: the first pair is taken.  The interpolation wraps in 64
 * bits as trace-cmd's does, and its dt of -1 does not trap. */
static void test_wrapping(void)
{
	static const struct sample neg[] = {
		{ 300, 3, 1, 0 }, { -200, 1, 1, 0 }, { 100, 2, 1, 0 },
	};
	static const struct sample far[] = {
		{ 0, 0, 1, 0 }, { 600000000000, 6000000000, 1, 0 },
	};
	static const struct sample ends[] = {
		{ INT64_MIN, 0, 1, 0 }, { INT64_MAX, 7, 1, 0 },
	};
	uint8_t buf[512];
	struct tdat_time_shift *t = parse(buf, one_cpu(buf, 0, neg, 3));

	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 1000), 1001);	/* -200's */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 1ull << 63), (1ull << 63) + 1);
	/* past -200 taken unsigned: past every sample, the last pair */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 0 - 100ull), 0 - 98ull);
	timeshift_free(t);
	t = parse(buf, one_cpu(buf, 1, far, 2));
	CU_ASSERT_FATAL(t != NULL);
	/* 6e9 * 534057240572 wraps: trace-cmd prints 534.048257197 */
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 534057240572ull), 534048257197ull);
	timeshift_free(t);
	t = parse(buf, one_cpu(buf, 1, ends, 2));
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_EQUAL(timeshift_apply(t, 0, 534057240572ull),
			9223368832511332376ull);
	timeshift_free(t);
}

static void test_hostile(void)
{
	static const struct sample s[] = { { 1, 2, 1, 0 } };
	uint8_t buf[256];
	size_t n = one_cpu(buf, 0, s, 1);

	CU_ASSERT_PTR_NULL(parse(buf, n - 1));		/* cut short */
	tdat_store32(0, buf + 16, 0x10000000);		/* counts past it */
	CU_ASSERT_PTR_NULL(parse(buf, n));
	tdat_store32(0, buf + 12, 0xffffffff);		/* CPU count */
	CU_ASSERT_PTR_NULL(parse(buf, n));
	CU_ASSERT_EQUAL(timeshift_apply(NULL, 0, 7), 7);
}

void suite_timeshift(void)
{
	CU_pSuite s = CU_add_suite("timeshift", NULL, NULL);

	CU_add_test(s, "pairs: the lower sample of the pair around t",
		    test_pairs);
	CU_add_test(s, "interpolation, rounded as trace-cmd",
		    test_interpolate);
	CU_add_test(s, "scaling and fraction bits, wrapping as trace-cmd",
		    test_scaling);
	CU_add_test(s, "negative times and wrapping interpolation",
		    test_wrapping);
	CU_add_test(s, "hostile counts and sizes", test_hostile);
}
