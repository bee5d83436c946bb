/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_json.c - report --json's writer: string escaping, exact 64-bit
 * numbers, every kind of field, and whole events of real fixtures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/events/stream.h"
#include "convert/report/print.h"
#include "convert/report/json.h"
#include "tests/unit/units.h"

/* An outbuf writing to memory: what was written is read with got(). */
struct sink {
	FILE *fp;
	char *text;
	size_t len;
	struct outbuf o;
};

static void sink_open(struct sink *s)
{
	memset(s, 0, sizeof(*s));
	s->fp = open_memstream(&s->text, &s->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->fp);
	outbuf_init(&s->o, s->fp);
}

/* Everything written since sink_open, as a string; the sink is closed. */
static char *sink_close(struct sink *s)
{
	CU_ASSERT_EQUAL(outbuf_flush(&s->o), 0);
	outbuf_free(&s->o);
	fclose(s->fp);
	return s->text;
}

static void check_string(const char *in, size_t n, const char *want)
{
	struct sink s;
	char *got;

	sink_open(&s);
	json_put_string(&s.o, in, n);
	got = sink_close(&s);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n  json_put_string: got %s, want %s\n", got,
			want);
	free(got);
}

static void test_string_escapes(void)
{
	check_string("", 0, "\"\"");
	check_string("plain text", 10, "\"plain text\"");
	check_string("a\"b\\c/", 6, "\"a\\\"b\\\\c/\"");
	check_string("l1\nl2\r\t", 7, "\"l1\\nl2\\r\\t\"");
	check_string("\x01\x1f\x7f\b\f", 5,
		     "\"\\u0001\\u001f\\u007f\\u0008\\u000c\"");
	/* n counts: a NUL inside is a character like any other */
	check_string("a\0b", 3, "\"a\\u0000b\"");
	check_string("abc", 2, "\"ab\"");
}

static void test_string_utf8(void)
{
	/* valid UTF-8 of 2, 3 and 4 bytes goes through as it is */
	check_string("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");
	check_string("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");
	check_string("\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"");
	check_string("\xf4\x8f\xbf\xbf", 4, "\"\xf4\x8f\xbf\xbf\"");
	/* each byte of anything else is \u00XX of its value */
	check_string("\xff\xfe", 2, "\"\\u00ff\\u00fe\"");
	check_string("\x80x", 2, "\"\\u0080x\"");		/* stray */
	check_string("\xc0\x80", 2, "\"\\u00c0\\u0080\"");	/* overlong */
	check_string("\xe0\x80\xaf", 3, "\"\\u00e0\\u0080\\u00af\"");
	check_string("\xed\xa0\x80", 3,			/* surrogate */
		     "\"\\u00ed\\u00a0\\u0080\"");
	check_string("\xf4\x90\x80\x80", 4,		/* > U+10FFFF */
		     "\"\\u00f4\\u0090\\u0080\\u0080\"");
	check_string("\xf5\x80", 2, "\"\\u00f5\\u0080\"");
	/* cut short at the end, or by a byte that does not continue it */
	check_string("ok\xe2\x82", 4, "\"ok\\u00e2\\u0082\"");
	check_string("\xc3" "A", 2, "\"\\u00c3A\"");
}

static void check_number(int is_signed, uint64_t v, const char *want)
{
	struct sink s;
	char *got;

	sink_open(&s);
	if (is_signed)
		json_put_i64(&s.o, (int64_t)v);
	else
		json_put_u64(&s.o, v);
	got = sink_close(&s);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_numbers(void)
{
	check_number(0, 0, "0");
	check_number(0, 7, "7");
	check_number(0, 1000000000000000000ull, "1000000000000000000");
	check_number(0, UINT64_MAX, "18446744073709551615");
	check_number(1, 0, "0");
	check_number(1, (uint64_t)-1, "-1");
	check_number(1, (uint64_t)INT64_MAX, "9223372036854775807");
	check_number(1, (uint64_t)INT64_MIN, "-9223372036854775808");
	check_number(1, (uint64_t)(INT64_MIN + 1), "-9223372036854775807");
}

/* ---- fields, on a made-up payload ---- */

static struct tep_handle *tep_endian(enum tep_endian e)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	tep_set_file_bigendian(tep, e);
	return tep;
}

static void check_field(struct tep_handle *tep, const char *type, int offset,
			int size, unsigned elementsize, unsigned long flags,
			const uint8_t *data, size_t n, const char *want)
{
	struct tep_format_field f;
	struct sink s;
	char *got;

	memset(&f, 0, sizeof(f));
	f.type = (char *)type;
	f.name = (char *)"x";
	f.offset = offset;
	f.size = size;
	f.elementsize = elementsize;
	f.flags = flags;
	sink_open(&s);
	json_put_field(&s.o, tep, &f, data, n);
	got = sink_close(&s);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n  field %s @%d+%d: got %s, want %s\n", type,
			offset, size, got, want);
	free(got);
}

static const uint8_t payload[32] = {
	0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* 0: -2 as s64 */
	0x01, 0x02, 0x03, 0x04, 'h', 'i', 0, 'z',	/* 8 */
	0x14, 0x00, 0x04, 0x00, 'a', 'b', 'c', 0,	/* 16: data_loc */
	0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,	/* 24 */
};

/* __rel_loc word: len 3 << 16 | offset 2, from the end of the word */
static const uint8_t rel[9] = { 0x02, 0x00, 0x03, 0x00, 0xee, 0xee,
				'o', 'k', 0 };

static void test_fields(void)
{
	struct tep_handle *le = tep_endian(TEP_LITTLE_ENDIAN);
	struct tep_handle *be = tep_endian(TEP_BIG_ENDIAN);
	const unsigned long S = TEP_FIELD_IS_SIGNED, A = TEP_FIELD_IS_ARRAY;
	const unsigned long STR = TEP_FIELD_IS_STRING;
	const unsigned long DYN = TEP_FIELD_IS_DYNAMIC;
	const uint8_t *p = payload;

	/* integers of each size, signed or not, in the file's order */
	check_field(le, "long", 0, 8, 0, S, p, 32, "-2");
	check_field(le, "u64", 0, 8, 0, 0, p, 32, "18446744073709551614");
	check_field(le, "int", 0, 4, 0, S, p, 32, "-2");
	check_field(le, "short", 0, 2, 0, S, p, 32, "-2");
	check_field(le, "char", 0, 1, 0, S, p, 32, "-2");
	check_field(le, "u8", 0, 1, 0, 0, p, 32, "254");
	check_field(be, "s16", 0, 2, 0, S, p, 32, "-257");
	check_field(le, "u32", 8, 4, 0, 0, p, 32, "67305985");
	check_field(be, "u32", 8, 4, 0, 0, p, 32, "16909060");
	check_field(be, "s16", 8, 2, 0, S, p, 32, "258");
	check_field(le, "s64", 24, 8, 0, S, p, 32, "-9223372036854775680");
	/* pointers are addresses: unsigned whatever the flags say */
	check_field(le, "void *", 0, 8, 0, TEP_FIELD_IS_POINTER | S, p, 32,
		    "18446744073709551614");
	/* char arrays: text up to the first NUL, or the whole array */
	check_field(le, "char", 12, 4, 1, A | STR | S, p, 32, "\"hi\"");
	check_field(le, "char", 12, 2, 1, A | STR | S, p, 32, "\"hi\"");
	/* other arrays: numbers, by element size */
	check_field(le, "u16", 8, 4, 2, A, p, 32, "[513,1027]");
	check_field(le, "s8", 0, 2, 1, A | S, p, 32, "[-2,-1]");
	check_field(le, "unsigned char", 12, 4, 1, A | STR, p, 32,
		    "[104,105,0,122]");
	/* libtraceevent flags u8/s8 arrays as strings too: still numbers */
	check_field(le, "u8", 12, 4, 1, A | STR, p, 32, "[104,105,0,122]");
	check_field(le, "s8", 0, 2, 1, A | STR | S, p, 32, "[-2,-1]");
	/* an element size that does not fit: bytes */
	check_field(le, "u16", 8, 3, 2, A, p, 32, "[1,2,3]");
	/* odd sizes that are no integer: bytes */
	check_field(le, "struct x", 8, 3, 0, 0, p, 32, "[1,2,3]");
	/* __data_loc: len 4 << 16 | offset 20 from the payload's start */
	check_field(le, "__data_loc char[]", 16, 4, 1, A | DYN | STR | S, p,
		    32, "\"abc\"");
	/* __rel_loc: the offset counts from the end of the word */
	check_field(le, "__rel_loc char[]", 0, 4, 1,
		    A | DYN | STR | S | TEP_FIELD_IS_RELATIVE, rel, 9,
		    "\"ok\"");
	check_field(le, "__rel_loc char[]", 0, 4, 1,
		    A | DYN | STR | S | TEP_FIELD_IS_RELATIVE, rel, 8, "null");
	/* a flexible array runs to the end of the payload */
	check_field(le, "char", 20, 0, 1, A | STR | S, p, 24, "\"abc\"");
	check_field(le, "u8", 20, 0, 1, A, p, 24, "[97,98,99,0]");
	/* anything outside the payload is null, not read */
	check_field(le, "u64", 20, 8, 0, 0, p, 24, "null");
	check_field(le, "int", -4, 4, 0, S, p, 24, "null");
	check_field(le, "char", 12, 4, 1, A | STR, p, 14, "null");
	check_field(le, "__data_loc char[]", 16, 4, 1, A | DYN | STR, p, 22,
		    "null");
	check_field(le, "__data_loc char[]", 16, 2, 1, A | DYN | STR, p, 32,
		    "null");
	tep_free(le);
	tep_free(be);
}

/* ---- whole events of real recordings ---- */

/*
 * The JSON line of the first event of fixture name whose event is want
 * (NULL: the very first event), read through report's own stream; its
 * comm the handle's for its pid, or comm when not NULL.
 */
static char *event_line_comm(const char *name, const char *want,
			     const char *comm)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	struct tep_handle *tep;
	struct event_view v;
	struct tep_record rec;
	struct stream_cpu *c;
	struct printer p;
	struct stream st;
	struct sink s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tep = tep_from_file(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL_FATAL(stream_add_buffer(&st, f, 0, 0, &err), 0);
	sink_open(&s);
	memset(&p, 0, sizeof(p));
	p.o = &s.o;
	json_printer_init(&p, 0);
	for (; (c = stream_peek(&st)); stream_advance(&st, c)) {
		struct tep_event *ev;

		memset(&rec, 0, sizeof(rec));
		rec.ts = c->ts;
		rec.size = (int)c->ev.size;
		rec.data = (void *)c->ev.data;
		rec.cpu = c->cpu;
		rec.missed_events = c->missed;
		ev = tep_find_event_by_record(tep, &rec);
		if (want && (!ev || strcmp(ev->name, want)))
			continue;
		memset(&v, 0, sizeof(v));
		v.tep = tep;
		v.rec = &rec;
		v.ts = c->ts;
		v.buffer = "";
		v.path = name;
		v.pid = tep_data_pid(tep, &rec);	/* as the reader does */
		v.comm = comm ? comm : tep_data_comm_from_pid(tep, v.pid);
		p.line(&p, &v);
		break;
	}
	stream_free(&st);
	tep_free(tep);
	tdat_close(f);
	return sink_close(&s);
}

static char *event_line(const char *name, const char *want)
{
	return event_line_comm(name, want, NULL);
}

/* The comm is the one the reader looked up in stream order, not what a
 * worker's handle knows (found under qemu-s390x: a threaded --json
 * printed "<...>" where the reader's handle had learnt the comm from a
 * sched_switch the plugin printed). */
static void test_comm_of_view(void)
{
	char *got = event_line_comm("v6-sched-irq.dat", NULL, "from-reader");

	CU_ASSERT_PTR_NOT_NULL(strstr(got, "\"comm\":\"from-reader\""));
	free(got);
}

static void check_event(const char *file, const char *event, const char *want)
{
	char *got = event_line(file, event);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\n  %s %s:\n  got  %s  want %s", file,
			event ? event : "first event", got, want);
	free(got);
}

/*
 * Each expected object says what the fixture's .report.txt line says:
 *   sleep-9847 [000] 517.125845: sched_prepare_exec: interp=/usr/bin/sleep
 *     filename=/usr/bin/sleep pid=9847 comm=trace-cmd
 */
static void test_fixture_events(void)
{
	check_event("v6-sched-irq.dat", NULL,
		"{\"timestamp\":517125844783,\"cpu\":0,\"buffer\":\"\","
		"\"pid\":9847,\"comm\":\"sleep\",\"system\":\"sched\","
		"\"event\":\"sched_prepare_exec\",\"common\":{\"common_type\":"
		"364,\"common_flags\":0,\"common_preempt_count\":0,"
		"\"common_pid\":9847},\"fields\":{\"interp\":\"/usr/bin/sleep\","
		"\"filename\":\"/usr/bin/sleep\",\"pid\":9847,"
		"\"comm\":\"trace-cmd\"}}\n");
	/* trace-cmd-9846 [001] 517.126703: sched_switch: trace-cmd:9846
	 * [120] S ==> zstd:8959 [120]; -R shows prev_state=1 */
	check_event("v6-sched-irq.dat", "sched_switch",
		"{\"timestamp\":517126703164,\"cpu\":1,\"buffer\":\"\","
		"\"pid\":9846,\"comm\":\"trace-cmd\",\"system\":\"sched\","
		"\"event\":\"sched_switch\",\"common\":{\"common_type\":372,"
		"\"common_flags\":1,\"common_preempt_count\":2,\"common_pid\":"
		"9846},\"fields\":{\"prev_comm\":\"trace-cmd\",\"prev_pid\":"
		"9846,\"prev_prio\":120,\"prev_state\":1,\"next_comm\":\"zstd\","
		"\"next_pid\":8959,\"next_prio\":120}}\n");
	/* markers.sh-10426 [001] 552.189309: print: tracing_mark_write:
	 * corpus-marker 1: hello from trace_marker (pid 10426) */
	check_event("v7-zstd-markers-raw_syscalls.dat", "print",
		"{\"timestamp\":552189308936,\"cpu\":1,\"buffer\":\"\","
		"\"pid\":10426,\"comm\":\"markers.sh\",\"system\":\"ftrace\","
		"\"event\":\"print\",\"common\":{\"common_type\":5,"
		"\"common_flags\":0,\"common_preempt_count\":1,\"common_pid\":"
		"10426},\"fields\":{\"ip\":18446744071583735809,\"buf\":"
		"\"corpus-marker 1: hello from trace_marker (pid 10426)\\n\"}}\n");
	/* markers.sh-10426 [000] 552.472081: raw_data: # 2a 72 61 77 2d 70
	 * 61 79 6c 6f 61 64 2d 31 00 00 00  (id 0x2a, then the bytes) */
	check_event("v7-zstd-markers-raw_syscalls.dat", "raw_data",
		"{\"timestamp\":552472080670,\"cpu\":0,\"buffer\":\"\","
		"\"pid\":10426,\"comm\":\"markers.sh\",\"system\":\"ftrace\","
		"\"event\":\"raw_data\",\"common\":{\"common_type\":19,"
		"\"common_flags\":0,\"common_preempt_count\":1,\"common_pid\":"
		"10426},\"fields\":{\"id\":42,\"buf\":[114,97,119,45,112,97,"
		"121,108,111,97,100,45,49,0,0,0]}}\n");
}

/* An event id the file has no format for: null names, the id, no
 * fields (the text report says [UNKNOWN EVENT]). */
static void test_unknown_event(void)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	/* common_type 9999, flags 0, preempt 0, common_pid 0 */
	uint8_t data[8] = { 0x0f, 0x27, 0, 0, 0, 0, 0, 0 };
	struct tep_handle *tep;
	struct tep_record rec;
	struct event_view v;
	struct printer p;
	struct sink s;
	char *got;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tep = tep_from_file(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	rec.cpu = 1;
	rec.missed_events = -1;
	memset(&v, 0, sizeof(v));
	v.tep = tep;
	v.rec = &rec;
	v.ts = 12;
	v.buffer = "inst";
	v.path = "x.dat";
	v.comm = tep_data_comm_from_pid(tep, 0);	/* as the reader does */
	sink_open(&s);
	memset(&p, 0, sizeof(p));
	p.o = &s.o;
	json_printer_init(&p, 1);
	p.line(&p, &v);
	json_printer_init(&p, 0);
	got = sink_close(&s);
	CU_ASSERT_STRING_EQUAL(got, "{\"timestamp\":12,\"cpu\":1,"
		"\"missed_events\":-1,\"buffer\":\"inst\",\"file\":\"x.dat\","
		"\"pid\":0,\"comm\":\"<idle>\",\"type\":9999,"
		"\"system\":null,\"event\":null,\"fields\":{}}\n");
	free(got);
	tep_free(tep);
	tdat_close(f);
}

void suite_json(void)
{
	CU_pSuite s = CU_add_suite("json", NULL, NULL);

	CU_add_test(s, "string escapes", test_string_escapes);
	CU_add_test(s, "strings and UTF-8", test_string_utf8);
	CU_add_test(s, "64-bit numbers", test_numbers);
	CU_add_test(s, "fields of each kind", test_fields);
	CU_add_test(s, "events of fixtures", test_fixture_events);
	CU_add_test(s, "an event without a format", test_unknown_event);
	CU_add_test(s, "the comm is the reader's, not the handle's",
		    test_comm_of_view);
}
