/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_eventmemo.c - convert/report/eventmemo.c against libtraceevent. */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/report/print.h"
#include "tests/unit/units.h"

static void add_event(struct tep_handle *tep, const char *name, int id)
{
	char fmt[512];

	snprintf(fmt, sizeof(fmt), "name: %s\nID: %d\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
		 "\tsigned:0;\n\tfield:int common_pid;\toffset:4;\tsize:4;"
		 "\tsigned:1;\n\n\tfield:int x;\toffset:8;\tsize:4;"
		 "\tsigned:1;\n\nprint fmt: \"x=%%d\", REC->x\n", name, id);
	CU_ASSERT_EQUAL(tep_parse_event(tep, fmt, strlen(fmt), "test"), 0);
}

/* The event libtraceevent finds, for types that share a slot and for
 * two handles whose same type is a different event; -1 asks it. */
static void test_same_events(void)
{
	struct tep_handle *tep[2] = { tep_alloc(), tep_alloc() };
	static const int types[] = { 5, 5 + 1024, 7, 5, 9999, 5 + 1024, -1 };
	struct event_memo *memo = NULL;
	struct tep_record rec;
	struct event_view v;
	unsigned char data[12];
	int k, h, round;

	CU_ASSERT_FATAL(tep[0] && tep[1]);
	for (h = 0; h < 2; h++)
		tep_set_file_bigendian(tep[h], TEP_LITTLE_ENDIAN);
	add_event(tep[0], "five", 5);
	add_event(tep[0], "far", 5 + 1024);
	add_event(tep[1], "other_five", 5);
	add_event(tep[1], "seven", 7);
	memset(&rec, 0, sizeof(rec));
	memset(&v, 0, sizeof(v));
	memset(data, 0, sizeof(data));
	rec.data = data;
	rec.size = sizeof(data);
	v.rec = &rec;
	for (round = 0; round < 2; round++) {
		for (k = 0; k < (int)(sizeof(types) / sizeof(types[0])); k++) {
			for (h = 0; h < 2; h++) {
				int t = types[k] < 0 ? 7 : types[k];

				data[0] = (unsigned char)t;
				data[1] = (unsigned char)(t >> 8);
				v.tep = tep[h];
				v.has_type = types[k] >= 0;
				v.type = types[k];
				CU_ASSERT_PTR_EQUAL(event_memo_find(&memo, &v),
					tep_find_event_by_record(tep[h], &rec));
			}
		}
	}
	v.tep = tep[1];
	v.has_type = 1;
	v.type = 5;
	CU_ASSERT_STRING_EQUAL(event_memo_find(&memo, &v)->name, "other_five");
	v.type = 5 + 1024;
	CU_ASSERT_PTR_NULL(event_memo_find(&memo, &v));
	event_memo_free(memo);
	tep_free(tep[0]);
	tep_free(tep[1]);
}

void suite_eventmemo(void)
{
	CU_pSuite s = CU_add_suite("eventmemo", NULL, NULL);

	CU_add_test(s, "the events libtraceevent finds", test_same_events);
}
