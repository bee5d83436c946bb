/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_options.c - decoded known options, on real files and made-up ones. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"
#include "tests/unit/units.h"

static struct tdat_file *open_fixture(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	return f;
}

/* Values from `trace-cmd dump --options` of the fixture. */
static void test_recorded_options(void)
{
	struct tdat_file *f = open_fixture("v6-sched-irq.dat");
	const char *s;
	char clock[32];
	uint64_t id;
	long long v;

	CU_ASSERT_EQUAL(tdat_opt_clock(f, clock, sizeof(clock)), 1);
	CU_ASSERT_STRING_EQUAL(clock, "local");
	CU_ASSERT_EQUAL(tdat_opt_string(f, TDAT_OPT_UNAME, &s), 1);
	CU_ASSERT_STRING_EQUAL(s, "Linux vm 6.18.44-fc-v769 x86_64");
	CU_ASSERT_EQUAL(tdat_opt_string(f, TDAT_OPT_VERSION, &s), 1);
	CU_ASSERT_STRING_EQUAL(s, "3.1.6 not-a-git-repo");
	CU_ASSERT_EQUAL(tdat_opt_u64(f, TDAT_OPT_TRACEID, &id), 1);
	CU_ASSERT_EQUAL(id, 0x3913081D82F3B4D6ull);
	CU_ASSERT_EQUAL(tdat_opt_number(f, TDAT_OPT_DATE, &v), 0);
	tdat_close(f);
}

static void test_clock_names(void)
{
	static const struct { const char *file, *clock; } cases[] = {
		{ "v6-clock-global.dat", "global" },
		{ "v7-zstd-clock-mono-tc34.dat", "mono" },
		{ "v7-zstd-clock-x86tsc-tc34.dat", "x86-tsc" },
	};
	char clock[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tdat_file *f = open_fixture(cases[i].file);

		CU_ASSERT_EQUAL(tdat_opt_clock(f, clock, sizeof(clock)), 1);
		CU_ASSERT_STRING_EQUAL(clock, cases[i].clock);
		/* too small a buffer is a refusal, not a cut name */
		CU_ASSERT_EQUAL(tdat_opt_clock(f, clock, 3), 0);
		tdat_close(f);
	}
}

static void add(struct tdat_file *f, uint16_t id, const void *p, uint32_t n)
{
	f->options = realloc(f->options, (size_t)(f->noptions + 1) *
				       sizeof(*f->options));
	f->options[f->noptions].id = id;
	f->options[f->noptions].size = n;
	f->options[f->noptions].data = malloc(n);
	memcpy(f->options[f->noptions].data, p, n);
	f->noptions++;
}

/* Options no fixture has: DATE, OFFSET, TSC2NSEC, and malformed ones. */
static void test_made_up_options(void)
{
	struct tdat_file *f = tdat_meta_new(0, 0, 0, 0, NULL);
	uint8_t tsc[16] = { 0 };
	struct tdat_tsc2nsec t;
	const char *s;
	long long v;
	int i;

	f->big_endian = 1;
	add(f, TDAT_OPT_DATE, "0x1f\0", 5);
	add(f, TDAT_OPT_OFFSET, "-1500\0", 6);
	add(f, TDAT_OPT_OFFSET, "2500\0", 5);		/* last one wins */
	add(f, TDAT_OPT_UNAME, "no terminator", 13);
	tdat_put32(f, tsc, 7);
	tdat_put32(f, tsc + 4, 3);
	tdat_put64(f, tsc + 8, 99);
	add(f, TDAT_OPT_TSC2NSEC, tsc, 16);
	add(f, TDAT_OPT_CPUCOUNT, "\0\0", 2);		/* too short */

	CU_ASSERT_EQUAL(tdat_opt_number(f, TDAT_OPT_DATE, &v), 1);
	CU_ASSERT_EQUAL(v, 31);
	CU_ASSERT_EQUAL(tdat_opt_number(f, TDAT_OPT_OFFSET, &v), 1);
	CU_ASSERT_EQUAL(v, 2500);
	CU_ASSERT_EQUAL(tdat_opt_string(f, TDAT_OPT_UNAME, &s), 0);
	CU_ASSERT_EQUAL(tdat_opt_tsc2nsec(f, &t), 1);
	CU_ASSERT_EQUAL(t.mult, 7);
	CU_ASSERT_EQUAL(t.shift, 3);
	CU_ASSERT_EQUAL(t.offset, 99);
	CU_ASSERT_EQUAL(tdat_opt_u32(f, TDAT_OPT_CPUCOUNT, (uint32_t *)&i), 0);
	for (i = 0; i < f->noptions; i++)
		free(f->options[i].data);
	free(f->options);
	free(f);
}

/* GUEST options, big endian: walked in file order, a count past the
 * payload cut to the pairs it holds, malformed ones skipped. */
static void test_guest_options(void)
{
	struct tdat_file *f = tdat_meta_new(0, 0, 0, 0, NULL);
	uint8_t a[3 + 12 + 16], b[2 + 12 + 12];
	struct tdat_guest g;
	int pos = 0, i;

	f->big_endian = 1;
	memcpy(a, "vm", 3);
	tdat_put64(f, a + 3, 0x1111);
	tdat_put32(f, a + 11, 2);
	tdat_put32(f, a + 15, 0);
	tdat_put32(f, a + 19, 4242);
	tdat_put32(f, a + 23, 1);
	tdat_put32(f, a + 27, (uint32_t)-1);	/* a network guest's */
	memcpy(b, "w", 2);
	tdat_put64(f, b + 2, 0x2222);
	tdat_put32(f, b + 10, 9);		/* says 9, holds 1 and a half */
	tdat_put32(f, b + 14, 0);
	tdat_put32(f, b + 18, 5000);
	add(f, TDAT_OPT_GUEST, a, sizeof(a));
	add(f, TDAT_OPT_TRACEID, a + 3, 8);
	add(f, TDAT_OPT_GUEST, "no terminator", 13);
	add(f, TDAT_OPT_GUEST, "x\0\0\0", 4);	/* no room for id, count */
	add(f, TDAT_OPT_GUEST, b, sizeof(b) - 4);
	CU_ASSERT_EQUAL_FATAL(tdat_guest_next(f, &pos, &g), 1);
	CU_ASSERT_EQUAL(g.trace_id, 0x1111);
	CU_ASSERT_EQUAL_FATAL(g.nvcpus, 2);
	CU_ASSERT_EQUAL(tdat_guest_task(&g, 0), 4242);
	CU_ASSERT_EQUAL(tdat_guest_task(&g, 1), -1);
	CU_ASSERT_EQUAL_FATAL(tdat_guest_next(f, &pos, &g), 1);
	CU_ASSERT_EQUAL(g.trace_id, 0x2222);
	CU_ASSERT_EQUAL_FATAL(g.nvcpus, 1);
	CU_ASSERT_EQUAL(tdat_guest_task(&g, 0), 5000);
	CU_ASSERT_EQUAL(tdat_guest_next(f, &pos, &g), 0);
	CU_ASSERT_EQUAL(tdat_guest_next(f, &pos, &g), 0);
	for (i = 0; i < f->noptions; i++)
		free(f->options[i].data);
	free(f->options);
	free(f);
}

void suite_options(void)
{
	CU_pSuite s = CU_add_suite("options", NULL, NULL);

	CU_add_test(s, "recorded options decode", test_recorded_options);
	CU_add_test(s, "clock names", test_clock_names);
	CU_add_test(s, "made-up and malformed options", test_made_up_options);
	CU_add_test(s, "GUEST options", test_guest_options);
}
