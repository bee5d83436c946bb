/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_commcache.c - convert/events/commcache.c against libtraceevent. */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/events/commcache.h"
#include "tests/unit/units.h"

/* What it answers is what libtraceevent answers, before and after the
 * sched_switch plugin's way of adding comms (tep_register_comm), for
 * pids that share a slot too. */
static void test_same_answers(void)
{
	struct tep_handle *tep = tep_alloc();
	struct comm_cache *c = comm_cache_new();
	int pids[] = { 0, 100, 200, 300, 100 + 4096, 300 + 4096, -1 };
	char name[32];
	int k, round;

	CU_ASSERT_FATAL(tep && c);
	CU_ASSERT_EQUAL(tep_parse_saved_cmdlines(tep, "100 foo\n200 bar\n"
				"4196 baz\n"), 0);
	for (round = 0; round < 3; round++) {
		for (k = 0; k < (int)(sizeof(pids) / sizeof(pids[0])); k++)
			CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, pids[k]),
				tep_data_comm_from_pid(tep, pids[k]));
		/* then pids the cache said were unknown, and one it knew */
		snprintf(name, sizeof(name), "new%d", round);
		tep_register_comm(tep, name, 300 + 4096 * round);
		tep_register_comm(tep, "other", 100);
	}
	/* unknown, then added: its slot is nobody else's */
	CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, 555), "<...>");
	tep_register_comm(tep, "late", 555);
	CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, 555), "late");
	CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, 300), "new0");
	CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, 300 + 4096), "new1");
	CU_ASSERT_STRING_EQUAL(comm_cache_get(c, tep, 100), "foo");
	CU_ASSERT_STRING_EQUAL(comm_cache_get(NULL, tep, 200), "bar");
	comm_cache_free(c);
	tep_free(tep);
}

void suite_commcache(void)
{
	CU_pSuite s = CU_add_suite("commcache", NULL, NULL);

	CU_add_test(s, "the answers libtraceevent gives", test_same_answers);
}
