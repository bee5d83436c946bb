/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tsdiff.c - report --ts-diff's "(+N)" column as trace-cmd 3.1.6
 * prints it: it keeps the last timestamp as it computed the difference
 * (rounded to microseconds for a file that names its clock, unless -t)
 * and leaves the column blank while that kept value is 0.  A counter
 * clock's first events round to 0 (seen in the VM test bed's -C counter
 * recording).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/events/stream.h"
#include "convert/report/print.h"
#include "tests/unit/units.h"

/*
 * The --ts-diff columns of events at timestamps ts[0..n-1], each line's
 * 8 characters after the task and time parts and a space, joined by "|".
 * The events have no format, so those parts are "[UNKNOWN EVENT]" each,
 * as trace-cmd prints them.
 */
#define PARTS "[UNKNOWN EVENT][UNKNOWN EVENT] "
static char *diff_columns(const uint64_t *ts, int n, int has_clock,
			  int time_is_ns, int full_ns)
{
	struct tep_plugin_list *plugins = NULL;
	struct print_opts po = { .ts_diff = 1, .full_ns = full_ns };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	/* common_type 9999: no format */
	uint8_t data[8] = { 0x0f, 0x27, 0, 0, 0, 0, 0, 0 };
	struct tep_handle *tep;
	struct tep_record rec;
	struct event_view v;
	struct printer p;
	struct tepfmt_trial trial = { 0, NULL };
	struct outbuf o;
	char *text = NULL, *out, *line, *col;
	size_t len = 0;
	FILE *fp;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tep = tep_from_file(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	fp = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	outbuf_init(&o, fp);
	print_init(&p, &o, &po);
	for (i = 0; i < n; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.data = data;
		rec.size = sizeof(data);
		rec.ts = ts[i];
		memset(&v, 0, sizeof(v));
		v.tep = tep;
		v.rec = &rec;
		v.ts = ts[i];
		v.time_is_ns = time_is_ns;
		v.has_clock = has_clock;
		v.comm = "x";
		v.pid = 1;
		p.line(&p, &v);
	}
	print_done(&p);
	CU_ASSERT_EQUAL(outbuf_flush(&o), 0);
	outbuf_free(&o);
	fclose(fp);
	out = calloc(1, (size_t)n * 9 + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		CU_ASSERT_FATAL(!strncmp(line, PARTS, strlen(PARTS)));
		col = line + strlen(PARTS);
		if (*out)
			strcat(out, "|");
		strncat(out, col, 8);
	}
	free(text);
	tep_free(tep);
	tdat_close(f);
	return out;
}

static void check(const uint64_t *ts, int n, int has_clock, int time_is_ns,
		  int full_ns, const char *want)
{
	char *got = diff_columns(ts, n, has_clock, time_is_ns, full_ns);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n  --ts-diff columns: got  \"%s\"\n"
			"                     want \"%s\"\n", got, want);
	free(got);
}

static const uint64_t small[] = { 100, 300, 1200, 2600, 2700 };

/* counter: shown raw, but named, so rounded: 0, 0, 1, 3, 3. */
static void test_counter_clock(void)
{
	check(small, 5, 1, 0, 0,
	      "        |        |        |(+2)    |(+0)    ");
}

/* A nanosecond clock the same way; with -t no rounding. */
static void test_ns_clock(void)
{
	check(small, 5, 1, 1, 0,
	      "        |        |        |(+2)    |(+0)    ");
	check(small, 5, 1, 1, 1,
	      "        |(+200)  |(+900)  |(+1400) |(+100)  ");
}

/* A file that names no clock: raw differences. */
static void test_no_clock(void)
{
	check(small, 5, 0, 0, 0,
	      "        |(+200)  |(+900)  |(+1400) |(+100)  ");
}

void suite_tsdiff(void)
{
	CU_pSuite s = CU_add_suite("tsdiff", NULL, NULL);

	CU_add_test(s, "counter clock near 0", test_counter_clock);
	CU_add_test(s, "nanosecond clock, with and without -t", test_ns_clock);
	CU_add_test(s, "no clock named", test_no_clock);
}
