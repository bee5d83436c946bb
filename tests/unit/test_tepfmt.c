/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tepfmt.c - event formats libtraceevent 1.7 would crash on
 * (convert/tepfmt/tepfmt.c): refused (their fields alone handed over),
 * or its left-over mark cleared, or their helpers' counts bounded
 * (counts.c); sound ones parsed and printed as before.  Without tepfmt each case
 * below crashes the test program (found by the fuzz_report and
 * fuzz_format targets).
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/tracedat.h"
#include "convert/tepfmt/tepfmt.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* softirq_raise with its field renamed: the print fmt names "vec". */
static const char renamed[] =
	"name: softirq_raise\nID: 21\nformat:\n" COMMON
	"\tfield:unsigned int vex;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"vec=%u [action=%s]\", REC->vec, "
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" })\n";

static const char sound[] =
	"name: softirq_raise\nID: 22\nformat:\n" COMMON
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"vec=%u [action=%s]\", REC->vec, "
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" })\n";

/* __print_flags( whose first argument does not parse: libtraceevent
 * stops there with its mark set, and takes the next format's first
 * field reference for it. */
static const char broken[] =
	"name: broken\nID: 23\nformat:\n" COMMON
	"\tfield:unsigned int x;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __print_flags(+, REC->x)\n";

/* No field "nope": harmless alone (the event prints its error). */
static const char unknown_field[] =
	"name: after\nID: 24\nformat:\n" COMMON
	"\tfield:unsigned int y;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d\", REC->nope\n";

/* __print_symbolic( never followed by a field: the mark is left over. */
static const char left_over[] =
	"name: left\nID: 25\nformat:\n" COMMON
	"\tfield:unsigned int z;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __print_symbolic(1, { 1, \"one\" })\n";

/* Divisions: "%s" is replaced by the divisor. */
static const char divides[] =
	"name: div\nID: 26\nformat:\n" COMMON
	"\tfield:unsigned int v;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"v=%%u\", 7 / %s\n";

/* "REC->" with no name after it, after a mark (the scan looped). */
static const char nameless[] =
	"name: nameless\nID: 27\nformat:\n" COMMON
	"\tfield:unsigned int x;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __print_flags(REC->\031, \"|\", { 1, \"A\" })\n";

static struct tep_handle *new_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	CU_ASSERT_EQUAL(tepfmt_prepare(tep), 0);
	return tep;
}

static enum tep_errno parse(struct tep_handle *tep, const char *text,
			    const char **why)
{
	return tepfmt_parse(tep, NULL, text, strlen(text), "irq", why);
}

static void test_refused(void)
{
	struct tep_handle *tep = new_tep();
	const char *why;

	CU_ASSERT_EQUAL(parse(tep, renamed, &why),
			TEP_ERRNO__READ_PRINT_FAILED);
	CU_ASSERT_PTR_NOT_NULL(why);
	/* its fields alone (test_refused_prints) */
	CU_ASSERT_PTR_NOT_NULL(tep_find_event(tep, 21));
	CU_ASSERT_EQUAL(parse(tep, left_over, &why),
			TEP_ERRNO__READ_PRINT_FAILED);
	CU_ASSERT_PTR_NOT_NULL(why);
	/* found by fuzz_format: this one made the check loop forever */
	CU_ASSERT_EQUAL(parse(tep, nameless, &why),
			TEP_ERRNO__READ_PRINT_FAILED);
	CU_ASSERT_PTR_NOT_NULL(why);
	/* the next format is parsed as usual */
	CU_ASSERT_EQUAL(parse(tep, unknown_field, &why), TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NULL(why);
	tep_free(tep);
}

static void test_mark_cleared(void)
{
	struct tep_handle *tep = new_tep();
	const char *why;

	parse(tep, broken, &why);
	CU_ASSERT_PTR_NULL(why);	/* handed over: it names field x */
	CU_ASSERT_EQUAL(parse(tep, unknown_field, &why), TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NOT_NULL(tep_find_event(tep, 24));
	tep_free(tep);
}

static void test_sound_printed(void)
{
	struct tep_handle *tep = new_tep();
	struct tep_record rec;
	struct trace_seq seq;
	struct tep_event *ev;
	uint8_t data[12] = { 22, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
	const char *why;

	CU_ASSERT_EQUAL(tepfmt_parse(tep, &ev, sound, sizeof(sound) - 1,
				     "irq", &why), TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	CU_ASSERT_STRING_EQUAL(seq.buffer, "vec=1 [action=TIMER]");
	trace_seq_destroy(&seq);
	tep_free(tep);
}

/* divides[] with this divisor parsed and printed for v = 0. */
static enum tep_errno parse_division(const char *divisor, const char **why,
				     char *text, size_t cap)
{
	struct tep_handle *tep = new_tep();
	uint8_t data[12] = { 26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
	struct tep_record rec;
	struct trace_seq seq;
	enum tep_errno e;
	char fmt[512];

	snprintf(fmt, sizeof(fmt), divides, divisor);
	e = parse(tep, fmt, why);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	snprintf(text, cap, "%s", seq.buffer);
	trace_seq_destroy(&seq);
	tep_free(tep);
	return e;
}

static void test_divisions(void)
{
	static const char *const refused[] = {
		"0", "(0)", "0x0", "0UL", "REC->v", "(REC->v)", "(2 - 2)", "-1",
	};
	const char *why;
	char text[256];
	size_t k;

	for (k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
		CU_ASSERT_EQUAL(parse_division(refused[k], &why, text,
					       sizeof(text)),
				TEP_ERRNO__READ_PRINT_FAILED);
		CU_ASSERT_PTR_NOT_NULL(why);
	}
	CU_ASSERT_EQUAL(parse_division("7", &why, text, sizeof(text)),
			TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NULL(why);
	CU_ASSERT_STRING_EQUAL(text, "v=1");
	CU_ASSERT_EQUAL(parse_division("sizeof(u64)", &why, text,
				       sizeof(text)), TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NULL(why);
	/* (libtraceevent 1.7 fails to print this one, without harm) */
}

/* The info text of the record data[0..size) as tep prints it. */
static void print_info(struct tep_handle *tep, const uint8_t *data,
		       size_t size, char *text, size_t cap)
{
	struct tep_record rec;
	struct trace_seq seq;

	memset(&rec, 0, sizeof(rec));
	rec.data = (void *)data;
	rec.size = (int)size;
	tepfmt_bound_counts(tep, &rec, (uint32_t)size);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	snprintf(text, cap, "%s", seq.buffer);
	trace_seq_destroy(&seq);
}

/*
 * A refused format's records print as trace-cmd prints those of a print
 * fmt libtraceevent cannot parse: "[FAILED TO PARSE]" and the fields by
 * name (they printed as [UNKNOWN EVENT]).  A __data_loc field not 4
 * bytes wide is left out of them.
 */
static void test_refused_prints(void)
{
	static const char odd[] =
		"name: odd\nID: 29\nformat:\n" COMMON
		"\tfield:__data_loc char[] name;\toffset:8;\tsize:8;"
		"\tsigned:0;\n"
		"\tfield:unsigned int after;\toffset:16;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", __get_str(name)\n";
	uint8_t data[12] = { 21, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0 };
	uint8_t odd_data[20] = { 29, 0, 0, 0, 1, 0, 0, 0,
				 0, 0, 0, 0, 0xff, 0xff, 0, 0, 7, 0, 0, 0 };
	struct tep_handle *tep = new_tep();
	struct tep_event *ev;
	const char *why;
	char text[256];

	CU_ASSERT_EQUAL(tepfmt_parse(tep, &ev, renamed, sizeof(renamed) - 1,
				     "irq", &why),
			TEP_ERRNO__READ_PRINT_FAILED);
	CU_ASSERT_PTR_NOT_NULL(why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	CU_ASSERT(ev->flags & TEP_EVENT_FL_FAILED);
	CU_ASSERT_STRING_EQUAL(ev->name, "softirq_raise");
	print_info(tep, data, sizeof(data), text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "[FAILED TO PARSE] vex=9");
	CU_ASSERT_EQUAL(tepfmt_parse(tep, &ev, odd, sizeof(odd) - 1, "test",
				     &why), TEP_ERRNO__READ_FORMAT_FAILED);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	CU_ASSERT_PTR_NULL(tep_find_field(ev, "name"));
	print_info(tep, odd_data, sizeof(odd_data), text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "[FAILED TO PARSE] after=7");
	tep_free(tep);
}

/* The helpers' format: a static array, a dynamic one, a __rel_loc one. */
static const char helpers[] =
	"name: helpers\nID: 30\nformat:\n" COMMON
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int len;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 vals[4];\toffset:16;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc u8[] buf;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc u16[] rel;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%%s\", %s\n";

/* helpers[] with this print fmt argument, parsed into a new handle of
 * this byte order and long size. */
static struct tep_handle *helpers_tep(const char *arg, int big, int lsize,
				      const char **why)
{
	struct tep_handle *tep = tep_alloc();
	char text[2048];

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, lsize);
	snprintf(text, sizeof(text), helpers, arg);
	tepfmt_parse(tep, NULL, text, strlen(text), "test", why);
	return tep;
}

static void put_u(uint8_t *p, int size, uint32_t v, int big)
{
	int k;

	for (k = 0; k < size; k++)
		p[big ? size - 1 - k : k] = (uint8_t)(v >> (8 * k));
}

/*
 * A record of helpers[]: n and len as given, vals 1..4, buf 0a 0b 0c
 * at 40, rel 5 6 at 43 (counted from 40), 48 bytes in all.
 */
static size_t helpers_record(uint8_t *d, int32_t n, uint32_t len, int big)
{
	int k;

	memset(d, 0, 48);
	put_u(d, 2, 30, big);
	put_u(d + 4, 4, 1, big);
	put_u(d + 8, 4, (uint32_t)n, big);
	put_u(d + 12, 4, len, big);
	for (k = 0; k < 4; k++)
		put_u(d + 16 + 4 * k, 4, (uint32_t)k + 1, big);
	put_u(d + 32, 4, 3u << 16 | 40, big);
	d[40] = 0x0a;
	d[41] = 0x0b;
	d[42] = 0x0c;
	put_u(d + 36, 4, 4u << 16 | 3, big);
	put_u(d + 43, 2, 5, big);
	put_u(d + 45, 2, 6, big);
	return 48;
}

/* The text of a helpers[] record under arg (n, len), for this byte
 * order and long size. */
static void helpers_text(const char *arg, int big, int lsize, int32_t n,
			 uint32_t len, char *text, size_t cap)
{
	const char *why;
	struct tep_handle *tep = helpers_tep(arg, big, lsize, &why);
	uint8_t d[48];

	CU_ASSERT_PTR_NULL(why);
	print_info(tep, d, helpers_record(d, n, len, big), text, cap);
	tep_free(tep);
}

/*
 * __print_array, __print_hex and __print_hex_str take their count from
 * the record: a forged one (huge, or negative and taken as huge) made
 * libtraceevent read far past the record and die.  The count is bounded
 * by the elements the record holds, whatever its expression (a field,
 * an expression on fields, a dynamic array's length), on both byte
 * orders and long sizes: a forged count prints what the largest count
 * that fits prints.  Counts that fit print as before.
 */
static void test_counts_bounded(void)
{
	static const struct {
		const char *arg;
		int32_t n;		/* forged */
		uint32_t len;
		int32_t fit_n;		/* the elements the record holds */
		uint32_t fit_len;
	} cases[] = {
		{ "__print_array(REC->vals, REC->n, 4)", -1, 0, 8, 0 },
		{ "__print_array(REC->vals, REC->n, 4)", 0x7fffffff, 0, 8, 0 },
		{ "__print_hex(REC->vals, REC->len)", 0, 0xffffffffu, 0, 32 },
		{ "__print_hex(REC->vals, REC->len + REC->n * 2)", 3,
		  0xfffffff0u, 0, 32 },
		{ "__print_hex_str(__get_dynamic_array(buf), REC->len)", 0,
		  100000, 0, 8 },
		{ "__print_array(__get_dynamic_array(buf), REC->n, 1)", -7, 0,
		  8, 0 },
		{ "__print_array(__get_rel_dynamic_array(rel), REC->len, 2)", 0,
		  0x80000000u, 0, 2 },
		/* libtraceevent reads a bad element size's elements a byte
		 * each; one it computes may be up to 8 bytes */
		{ "__print_array(REC->vals, REC->len, 3)", 0, 1000, 0, 32 },
		{ "__print_array(REC->vals, REC->len, REC->n)", 4, 1000, 4, 4 },
	};
	char text[1024], want[1024];
	size_t k;
	int big, lsize, host;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		for (big = 0; big < 2; big++)
			for (lsize = 4; lsize <= 8; lsize += 4) {
				helpers_text(cases[k].arg, big, lsize,
					     cases[k].n, cases[k].len, text,
					     sizeof(text));
				helpers_text(cases[k].arg, big, lsize,
					     cases[k].fit_n, cases[k].fit_len,
					     want, sizeof(want));
				CU_ASSERT_STRING_EQUAL(text, want);
				CU_ASSERT(strlen(want) > 0);
			}
	/* counts that fit, as libtraceevent prints them: __print_array's
	 * elements in the host's order, which it reads them in (report
	 * turns a file's of the other order: hostptr.c) */
	host = tdat_host_big_endian();
	helpers_text("__print_array(REC->vals, REC->n, 4)", host, 8, 2, 0, text,
		     sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "1 2");
	helpers_text("__print_array(REC->vals, REC->n, 4)", host, 8, 8, 0, text,
		     sizeof(text));
	/* past vals: the descriptors, buf and rel, as u32 in that order */
	CU_ASSERT_STRING_EQUAL(text, host ?
			       "1 2 3 4 196648 262147 168496128 83887616" :
			       "1 2 3 4 196648 262147 84675338 1536");
	helpers_text("__print_hex(REC->vals, REC->len)", 1, 4, 0, 6, text,
		     sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "00 00 00 01 00 00");
	helpers_text("__print_hex_str(__get_dynamic_array(buf), "
		     "__get_dynamic_array_len(buf))", 1, 8, 0, 0, text,
		     sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "0a0b0c");
	helpers_text("__print_array(__get_rel_dynamic_array(rel), REC->len, 2)",
		     host, 4, 0, 2, text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "5 6");
}

/* The bytes of helpers[]'s record that __print_array reads under arg
 * with count n (one span expected), as tepfmt_int_arrays() finds. */
static uint32_t span_bytes(const char *arg, int32_t n, uint32_t *start)
{
	const char *why;
	struct tep_handle *tep = helpers_tep(arg, 0, 8, &why);
	struct tep_event *ev = tep_find_event(tep, 30);
	struct tepfmt_span sp[2];
	uint8_t d[48];
	size_t size = helpers_record(d, n, 0, 0);
	int got;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	tepfmt_bound_counts(tep, &(struct tep_record){ .data = d,
			    .size = (int)size }, (uint32_t)size);
	got = tepfmt_int_arrays(ev, d, (uint32_t)size, sp, 2);
	tep_free(tep);
	CU_ASSERT_EQUAL_FATAL(got, 1);
	*start = sp[0].start;
	return sp[0].bytes;
}

/*
 * The span a big-endian host turns (report's hostptr.c) is what
 * libtraceevent reads: the field's bytes, or more when a count that is
 * a field or arithmetic on one says so (a forged record), up to the
 * record's end.  cross 46-report-counts on s390x printed the elements
 * past the field untouched before.
 */
static void test_int_array_spans(void)
{
	static const char a[] = "__print_array(REC->vals, REC->n, 4)";
	static const char twice[] = "__print_array(REC->vals, REC->n * 2, 4)";
	uint32_t start;

	CU_ASSERT_EQUAL(span_bytes(a, 2, &start), 16);
	CU_ASSERT_EQUAL(start, 16);
	CU_ASSERT_EQUAL(span_bytes(a, 6, &start), 24);
	CU_ASSERT_EQUAL(span_bytes(a, 0x7fffffff, &start), 32);
	CU_ASSERT_EQUAL(span_bytes(a, -1, &start), 32);
	CU_ASSERT_EQUAL(span_bytes(twice, 3, &start), 24);
	CU_ASSERT_EQUAL(span_bytes(twice, -3, &start), 32);
}

/*
 * What cannot be bounded is not handed over: the event prints as
 * [FAILED TO PARSE] with its fields.  An array argument that is not a
 * field (libtraceevent reads it as one, from a wrong member), a count
 * of something never seen in one, the length of a __rel_loc field
 * (libtraceevent 1.7 dereferences NULL for it, whatever the record).
 */
static void test_counts_refused(void)
{
	static const char *const args[] = {
		"__print_hex(REC->vals + 1, 2)",
		"__print_hex((u8 *)REC->vals, 2)",
		"__print_hex(__get_str(buf), 2)",
		"__print_array(REC->vals, __get_str(buf), 4)",
		"__print_hex(REC->vals, __get_rel_dynamic_array_len(rel))",
		"__print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(rel))",
	};
	uint8_t d[48];
	char text[1024];
	const char *why;
	size_t k, size;

	for (k = 0; k < sizeof(args) / sizeof(args[0]); k++) {
		struct tep_handle *tep = helpers_tep(args[k], 0, 8, &why);
		struct tep_event *ev = tep_find_event(tep, 30);

		CU_ASSERT_PTR_NOT_NULL(why);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
		CU_ASSERT(ev->flags & TEP_EVENT_FL_FAILED);
		size = helpers_record(d, 0x7fffffff, 0x7fffffff, 0);
		print_info(tep, d, size, text, sizeof(text));
		CU_ASSERT(!strncmp(text, "[FAILED TO PARSE] n=2147483647 ",
				   31));
		tep_free(tep);
	}
}

/* Which format (tdat_each_format order) is sched_wakeup's. */
static int find_wakeup(void *ctx, const char *system, const char *text,
		       size_t len)
{
	int *at = ctx;

	if (len > 19 && !memcmp(text, "name: sched_wakeup\n", 19))
		at[1] = at[0];
	at[0]++;
	return 0;
}

/*
 * v6-sched-irq.dat with sched_wakeup's "REC->target_cpu" made
 * "REC->pid[0]]   ": libtraceevent dies parsing it, and no check of
 * the text foresees it.  The trial finds that format, and only it.
 */
static void test_trial(void)
{
	char path[4096];
	struct tepfmt_trial t;
	struct tdat_error err;
	struct tdat_file *f;
	struct tep_handle *tep;
	uint8_t *d, *p;
	int at[2] = { 0, -1 }, i, bad = 0;
	size_t len;
	FILE *fp;

	d = slurp_file(fixture("v6-sched-irq.dat"), &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	p = memmem(d, len, "name: sched_wakeup\n", 19);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p = memmem(p, len - (size_t)(p - d), "REC->target_cpu\n", 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(p, "REC->pid[0]]   ", 15);
	snprintf(path, sizeof(path), "%s/index.dat", test_tmpdir());
	fp = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_EQUAL(fwrite(d, 1, len, fp), len);
	fclose(fp);
	free(d);
	f = tdat_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(tdat_each_format(f, find_wakeup, at, &err), 0);
	CU_ASSERT_FATAL(at[1] >= 0);
	tep = new_tep();
	CU_ASSERT_EQUAL(tepfmt_trial(tep, f, &t), 0);
	CU_ASSERT_EQUAL(t.n, 1 + at[0]);
	for (i = 0; i < t.n; i++)
		bad += !tepfmt_trial_ok(&t, i);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT(!tepfmt_trial_ok(&t, 1 + at[1]));
	/* its fields alone were tried next, and survived */
	for (i = 0; i < t.n; i++)
		CU_ASSERT(tepfmt_trial_fields_ok(&t, i));
	tepfmt_trial_free(&t);
	tep_free(tep);
	tdat_close(f);
}

/* __data_loc fields 2 and 8 bytes wide are refused, 4 parse. */
static void test_dynamic_widths(void)
{
	static const char fmt[] =
		"name: dyn\nID: 28\nformat:\n" COMMON
		"\tfield:__data_loc char[] name;\toffset:8;\tsize:%s;"
		"\tsigned:0;\n\n"
		"print fmt: \"%%s\", __get_str(name)\n";
	static const char *const sizes[] = { "2", "8", "0x8", "4" };
	struct tep_handle *tep = new_tep();
	const char *why;
	char text[512];
	size_t k;

	for (k = 0; k < 4; k++) {
		snprintf(text, sizeof(text), fmt, sizes[k]);
		if (k < 3) {
			CU_ASSERT_EQUAL(parse(tep, text, &why),
					TEP_ERRNO__READ_FORMAT_FAILED);
			CU_ASSERT_PTR_NOT_NULL(why);
			/* the event, without that field */
			CU_ASSERT_PTR_NOT_NULL(tep_find_event(tep, 28));
			CU_ASSERT_PTR_NULL(tep_find_field(
				tep_find_event(tep, 28), "name"));
		} else {
			CU_ASSERT_EQUAL(parse(tep, text, &why),
					TEP_ERRNO__SUCCESS);
			CU_ASSERT_PTR_NULL(why);
		}
	}
	tep_free(tep);
}

/* ---- wideptr.c: plain %p of a field printed whole ---- */

static void check_widen(const char *pf, const char *want)
{
	char text[512], *got;
	size_t n = 0;

	snprintf(text, sizeof(text), "name: e\nID: 9\nformat:\n" COMMON
		 "print fmt: %s\n", pf);
	got = tepfmt_widen(text, strlen(text), &n);
	if (!want) {
		CU_ASSERT_PTR_NULL(got);
		free(got);
		return;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(n, strlen(got));
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(got, "print fmt: "));
	CU_ASSERT_STRING_EQUAL(strstr(got, "print fmt: ") + 11, want);
	if (strcmp(strstr(got, "print fmt: ") + 11, want))
		fprintf(stderr, "\n  widened: [%s]\n  want:    [%s]\n",
			strstr(got, "print fmt: ") + 11, want);
	free(got);
}

static void test_widen_text(void)
{
	check_widen("\"bo=%p, from=%d\", REC->bo, REC->from",
		    "\"bo=%s, from=%d\", __tdat_ptr(( REC->bo)), REC->from\n");
	/* %pS and friends are libtraceevent's: left */
	check_widen("\"%pS %p\", REC->a, REC->b",
		    "\"%pS %s\", REC->a, __tdat_ptr(( REC->b))\n");
	/* a '*' width takes an argument of its own; %% takes none */
	check_widen("\"%*d %%p %p\", REC->w, REC->v, REC->p",
		    "\"%*d %%p %s\", REC->w, REC->v, __tdat_ptr(( REC->p))\n");
	/* commas inside an argument do not end it */
	check_widen("\"%s %p\", __print_flags(REC->f, \"|\", { 1, \"A,B\" }), REC->p",
		    "\"%s %s\", __print_flags(REC->f, \"|\", { 1, \"A,B\" }),"
		    " __tdat_ptr(( REC->p))\n");
	/* numbers of the record, expressions too; not helpers' results */
	check_widen("\"%p\", ((struct page *)vmemmap_base) + (REC->pfn)",
		    "\"%s\", __tdat_ptr(( ((struct page *)vmemmap_base) +"
		    " (REC->pfn)))\n");
	check_widen("\"%p %p\", __get_dynamic_array(d), REC->q",
		    "\"%p %s\", __get_dynamic_array(d), __tdat_ptr(( REC->q))\n");
	check_widen("\"%p\", __get_str(s)", NULL);
	check_widen("\"%d\", REC->a", NULL);
	check_widen("\"%p\"", NULL);	/* no argument */
}

static void test_widen_printk(void)
{
	static const char in[] =
		"0xffffffc0008f3fc0 : \"a=%p b=%pS c=%%p d=%d e=%p\"\n"
		"0xffffffc0008f3f50 : \"%p\"\n";
	static const char want[] =
		"0xffffffc0008f3fc0 : \"a=0x%llx b=%pS c=%%p d=%d e=0x%llx\"\n"
		"0xffffffc0008f3f50 : \"0x%llx\"\n";
	char *got = tepfmt_widen_printk(in, sizeof(in) - 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

#define WIDE_PTR "\x40\xc2\x38\x96\xbf\x9e\xff\xff"

static const char wide_fmt[] = "name: e\nID: 9\nformat:\n" COMMON
	"\tfield:void * p;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"p=%p.\", REC->p\n";

/* tep's text of an event 9 whose pointer field holds the 8 bytes ptr. */
static void assert_prints(struct tep_handle *tep, const char *ptr,
			  const char *want)
{
	uint8_t data[16] = { 9, 0, 0, 0, 1, 0, 0, 0 };
	struct tep_record rec;
	struct trace_seq seq;

	memcpy(data + 8, ptr, 8);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	CU_ASSERT_STRING_EQUAL(seq.buffer, want);
	trace_seq_destroy(&seq);
}

/* The helper prints what x86_64's printf %p prints, on any host. */
static void test_widen_prints(void)
{
	struct tep_handle *tep = new_tep();
	size_t n;
	char *wide = tepfmt_widen(wide_fmt, sizeof(wide_fmt) - 1, &n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(wide);
	if (!tepfmt_cuts_pointers(tep))	/* tepfmt_prepare did not */
		CU_ASSERT_EQUAL(tepfmt_register_wide(tep), 0);
	CU_ASSERT_EQUAL(parse(tep, wide, NULL), TEP_ERRNO__SUCCESS);
	assert_prints(tep, WIDE_PTR, "p=0xffff9ebf9638c240.");
	assert_prints(tep, "\0\0\0\0\0\0\0\0", "p=(nil).");
	free(wide);
	tep_free(tep);
}

/* The format as the file has it, through tepfmt_parse: whole on every
 * host (libtraceevent alone cuts it on a 32-bit one), a ternary's too. */
static void test_widen_parsed(void)
{
	static const char odd[] = "name: f\nID: 9\nformat:\n" COMMON
		"\tfield:void * p;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"p=%p.\", REC->p ? REC->p : 0\n";
	struct tep_handle *tep = new_tep();

	CU_ASSERT_EQUAL(parse(tep, wide_fmt, NULL), TEP_ERRNO__SUCCESS);
	assert_prints(tep, WIDE_PTR, "p=0xffff9ebf9638c240.");
	tep_free(tep);
	tep = new_tep();
	CU_ASSERT_EQUAL(parse(tep, odd, NULL), TEP_ERRNO__SUCCESS);
	assert_prints(tep, WIDE_PTR, "p=0xffff9ebf9638c240.");
	tep_free(tep);
}

void suite_tepfmt(void)
{
	CU_pSuite s = CU_add_suite("tepfmt", NULL, NULL);

	CU_add_test(s, "a mark on a missing field is refused", test_refused);
	CU_add_test(s, "a plain %p of a field goes to the wide helper",
		    test_widen_text);
	CU_add_test(s, "the wide helper prints pointers as x86_64",
		    test_widen_prints);
	CU_add_test(s, "a file's %p prints whole through tepfmt_parse",
		    test_widen_parsed);
	CU_add_test(s, "bprint's plain %p read as 8 bytes in hex",
		    test_widen_printk);
	CU_add_test(s, "a mark left set is cleared", test_mark_cleared);
	CU_add_test(s, "sound formats parse and print", test_sound_printed);
	CU_add_test(s, "divisions by anything but a number are refused",
		    test_divisions);
	CU_add_test(s, "a trial in a child finds what kills libtraceevent",
		    test_trial);
	CU_add_test(s, "dynamic fields must be 4 bytes wide",
		    test_dynamic_widths);
	CU_add_test(s, "a refused format prints [FAILED TO PARSE] and fields",
		    test_refused_prints);
	CU_add_test(s, "__print_array spans follow their counts",
		    test_int_array_spans);
	CU_add_test(s, "helper counts are bounded by the record",
		    test_counts_bounded);
	CU_add_test(s, "helpers that cannot be bounded are not handed over",
		    test_counts_refused);
}
