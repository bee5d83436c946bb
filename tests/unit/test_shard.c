/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_shard.c - --shard: K/N and slurm parsed or refused; every file
 * in exactly one part whatever the order of the list, the same parts on
 * every host (fixed values of the rule), parts even in count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/fleet/fleet.h"
#include "tests/unit/units.h"

static int parse(const char *arg, const char *id, const char *min,
		 const char *count, struct shard *s)
{
	char why[256];

	return shard_parse(s, arg, id, min, count, why, sizeof(why));
}

static void test_parse(void)
{
	struct shard s;

	CU_ASSERT_EQUAL(parse("0/1", NULL, NULL, NULL, &s), 0);
	CU_ASSERT(s.k == 0 && s.n == 1);
	CU_ASSERT_EQUAL(parse("15/16", NULL, NULL, NULL, &s), 0);
	CU_ASSERT(s.k == 15 && s.n == 16);
	CU_ASSERT_EQUAL(parse("3/1000000", NULL, NULL, NULL, &s), 0);
	CU_ASSERT_EQUAL(parse("16/16", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("0/0", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("1/1000001", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("-1/4", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("+1/4", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse(" 1/4", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("1/4 ", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("1/", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("/4", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("1", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("1/2/3", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("99999999999/4", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("", NULL, NULL, NULL, &s), -1);
}

static void test_slurm(void)
{
	struct shard s;

	CU_ASSERT_EQUAL(parse("slurm", "3", NULL, "8", &s), 0);
	CU_ASSERT(s.k == 3 && s.n == 8);
	/* --array=1-8: ids 1..8 */
	CU_ASSERT_EQUAL(parse("slurm", "8", "1", "8", &s), 0);
	CU_ASSERT(s.k == 7 && s.n == 8);
	CU_ASSERT_EQUAL(parse("slurm", NULL, NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("slurm", "3", NULL, NULL, &s), -1);
	CU_ASSERT_EQUAL(parse("slurm", "8", NULL, "8", &s), -1);
	/* --array=0-14:2: ids 0, 2, ... 14, count 8 */
	CU_ASSERT_EQUAL(parse("slurm", "14", "0", "8", &s), -1);
	CU_ASSERT_EQUAL(parse("slurm", "0", "1", "8", &s), -1);
	CU_ASSERT_EQUAL(parse("slurm", "x", NULL, "8", &s), -1);
	CU_ASSERT_EQUAL(parse("slurm", "1", NULL, "0", &s), -1);
	CU_ASSERT_EQUAL(parse("Slurm", "1", NULL, "2", &s), -1);
}

/* The rule is part of the interface: tasks of two tdat builds on two
 * hosts must agree, so its values are pinned here. */
static void test_fixed_values(void)
{
	CU_ASSERT_EQUAL(shard_of("", 1), 0);
	CU_ASSERT_EQUAL(shard_of("a.dat", 16), shard_of("a.dat", 16));
	CU_ASSERT_EQUAL(shard_of("fixtures/v6-sched-irq.dat", 1000000),
			130809);
	CU_ASSERT_EQUAL(shard_of("/srv/traces/host7/trace.dat", 1000000),
			134104);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Within five standard deviations of a count's mean, as a hash's
 * parts should be (the binomial's spread is at most root-mean). */
static int near_mean(int count, int mean)
{
	long d = count - mean;

	return d * d <= 25L * mean + 4;
}

/* Every name in exactly one of n parts, listed forwards, backwards or
 * sorted; the parts' counts near the mean. */
static void test_partition(void)
{
	static const uint32_t ns[] = { 1, 2, 4, 16, 100 };
	enum { FILES = 4000 };
	char *names[FILES], buf[64];
	int seen[FILES], count[100], i, j, k;

	for (i = 0; i < FILES; i++) {
		snprintf(buf, sizeof(buf), "/srv/traces/node%03d/%d.dat",
			 i % 37, i);
		names[i] = strdup(buf);
		CU_ASSERT_PTR_NOT_NULL_FATAL(names[i]);
	}
	for (j = 0; j < 5; j++) {
		uint32_t n = ns[j];
		struct shard s = { 0, n };

		memset(seen, 0, sizeof(seen));
		memset(count, 0, sizeof(count));
		for (s.k = 0; s.k < n; s.k++)
			for (i = 0; i < FILES; i++)
				if (shard_takes(&s, names[i])) {
					seen[i]++;
					count[s.k]++;
				}
		for (i = 0; i < FILES; i++)
			CU_ASSERT_EQUAL(seen[i], 1);
		for (k = 0; k < (int)n; k++)
			CU_ASSERT(near_mean(count[k], FILES / (int)n));
	}
	/* the order of the list makes no difference */
	for (i = 0; i < FILES; i++)
		seen[i] = (int)shard_of(names[i], 16);
	qsort(names, FILES, sizeof(*names), by_name);
	for (i = 0; i < FILES; i++) {
		k = atoi(strrchr(names[i], '/') + 1);
		CU_ASSERT_EQUAL((int)shard_of(names[i], 16), seen[k]);
	}
	for (i = 0; i < FILES; i++)
		free(names[i]);
}

void suite_shard(void)
{
	CU_pSuite s = CU_add_suite("shard", NULL, NULL);

	CU_add_test(s, "K/N parsed or refused", test_parse);
	CU_add_test(s, "slurm's job array", test_slurm);
	CU_add_test(s, "the rule's values are fixed", test_fixed_values);
	CU_add_test(s, "parts: disjoint, whole, even, any order",
		    test_partition);
}
