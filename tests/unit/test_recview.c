/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_recview.c - records libtraceevent cannot read past
 * (convert/events/recview.c), on a format with kernel_stack's layout: a
 * static array caller[8] that the kernel fills only in part, and one
 * with a dynamic string (printed with "%s", up to a NUL wherever that
 * is); and a __print_hex count taken from the record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/tracedat.h"
#include "convert/events/recview.h"
#include "convert/tepfmt/tepfmt.h"

static const char stack_fmt[] =
	"name: kernel_stack\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"%d\", REC->size\n";

static const char name_fmt[] =
	"name: named\nID: 9\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __get_str(name)\n";

/* A dynamic field 2 bytes wide: libtraceevent reads a 2-byte offset. */
static const char narrow_fmt[] =
	"name: narrow\nID: 10\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] name;\toffset:8;\tsize:2;\tsigned:0;\n\n"
	"print fmt: \"%s\", __get_str(name)\n";

static struct tep_handle *tep_with_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;

	CU_ASSERT_FATAL(tep != NULL);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 8);
	CU_ASSERT_FATAL(!tep_parse_format(tep, &ev, stack_fmt,
					  sizeof(stack_fmt) - 1, "ftrace"));
	CU_ASSERT_FATAL(!tep_parse_format(tep, &ev, name_fmt,
					  sizeof(name_fmt) - 1, "test"));
	CU_ASSERT_FATAL(!tep_parse_format(tep, &ev, narrow_fmt,
					  sizeof(narrow_fmt) - 1, "test"));
	return tep;
}

/* What every case needs: the formats, the id table, a pad, a record. */
struct view_case {
	struct tep_handle *tep;
	struct recview_ids *ids;
	struct recview_pad pad;
	struct tep_record rec;
};

static void case_open(struct view_case *c)
{
	memset(c, 0, sizeof(*c));
	c->tep = tep_with_formats();
	c->ids = recview_ids_new();
	CU_ASSERT_FATAL(c->ids != NULL);
}

static void case_close(struct view_case *c)
{
	free(c->pad.buf);
	recview_ids_free(c->ids);
	tep_free(c->tep);
}

/* recview_fill for the event at data (size bytes) in page[0..n); the
 * type it gives is the one tep_data_type reads. */
static uint32_t fill(struct view_case *c, const uint8_t *data, uint32_t size,
		     const uint8_t *page, size_t n)
{
	uint32_t got;
	int type = -2;

	got = recview_fill(c->ids, c->tep, &c->rec, data, size, page + n,
			   &c->pad, &type);
	if (got)
		CU_ASSERT_EQUAL(type, tep_data_type(c->tep, &c->rec));
	return got;
}

/* A page of 0xaa with an event of id at pos: common_type, then 0x11,
 * the last byte 0 (as most records end: a high byte, padding).  Numbers
 * are little endian, the handle's file order, whatever the host's. */
static void put_event(uint8_t *page, uint32_t pos, uint16_t id, uint32_t size)
{
	memset(page + pos, 0x11, size);
	tdat_store16(0, page + pos, id);
	page[pos + size - 1] = 0;
}

static void test_whole_record(void)
{
	struct view_case c;
	uint8_t page[256];

	case_open(&c);
	memset(page, 0xaa, sizeof(page));
	put_event(page, 16, 7, 80);
	CU_ASSERT_EQUAL(fill(&c, page + 16, 80, page, sizeof(page)), 80);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page + 16);
	CU_ASSERT_PTR_NULL(c.pad.buf);
	case_close(&c);
}

/* Short record inside the page: the page's bytes follow it, read where
 * they are (the view ends on a NUL there). */
static void test_short_in_page(void)
{
	struct view_case c;
	uint8_t page[256];

	case_open(&c);
	memset(page, 0xaa, sizeof(page));
	put_event(page, 16, 7, 56);	/* 5 of the 8 callers */
	page[16 + 79] = 0;
	CU_ASSERT_EQUAL(fill(&c, page + 16, 56, page, sizeof(page)), 80);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page + 16);
	CU_ASSERT_PTR_NULL(c.pad.buf);
	case_close(&c);
}

/* Short record at the page's end: zeros past it. */
static void test_short_at_page_end(void)
{
	struct view_case c;
	uint8_t page[136], zeros[20] = { 0 };

	case_open(&c);
	memset(page, 0xaa, sizeof(page));
	put_event(page, 76, 7, 56);	/* 4 bytes of page after it */
	CU_ASSERT_EQUAL(fill(&c, page + 76, 56, page, sizeof(page)), 80);
	CU_ASSERT(!memcmp(c.pad.buf, page + 76, 60));
	CU_ASSERT(!memcmp(c.pad.buf + 60, zeros, 20));
	case_close(&c);
}

/* A dynamic field's descriptor pointing past the record. */
static void test_dynamic_past_record(void)
{
	struct view_case c;
	uint8_t page[256];
	uint32_t loc = (10u << 16) | 30;	/* 10 bytes at offset 30 */

	case_open(&c);
	memset(page, 0xaa, sizeof(page));
	put_event(page, 0, 9, 16);
	tdat_store32(0, page + 8, loc);
	page[39] = 0;
	CU_ASSERT_EQUAL(fill(&c, page, 16, page, sizeof(page)), 40);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page);
	loc = (8u << 16) | 8;		/* inside the record */
	tdat_store32(0, page + 8, loc);
	CU_ASSERT_EQUAL(fill(&c, page, 16, page, sizeof(page)), 16);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page);
	case_close(&c);
}

/* An id no format has: the record as it is. */
static void test_unknown_id(void)
{
	struct view_case c;
	uint8_t page[64];

	case_open(&c);
	memset(page, 0xaa, sizeof(page));
	put_event(page, 0, 500, 12);
	CU_ASSERT_EQUAL(fill(&c, page, 12, page, sizeof(page)), 12);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page);
	case_close(&c);
}

/* The text of the record in c->rec. */
static const char *text_of(struct view_case *c, struct trace_seq *seq)
{
	trace_seq_reset(seq);
	tep_print_event(c->tep, seq, &c->rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(seq);
	return seq->buffer;
}

/*
 * A dynamic string without a NUL in its length: libtraceevent prints it
 * with "%s".  The view goes on up to the first NUL in the page, or is a
 * copy ending on one when the page has none after it (found by the
 * fuzzer: libtraceevent read past the page's buffer).
 */
static void test_string_without_nul(void)
{
	struct view_case c;
	struct trace_seq seq;
	uint8_t page[64];
	uint32_t loc = (4u << 16) | 12;	/* "AAAA" at offset 12 */
	uint16_t id = 9;

	case_open(&c);
	trace_seq_init(&seq);
	memset(page, 'A', sizeof(page));
	tdat_store16(0, page + 32, id);
	memset(page + 34, 0, 6);
	tdat_store32(0, page + 40, loc);
	c.rec.size = 16;
	page[52] = 0;		/* 4 bytes past the record */
	CU_ASSERT_EQUAL(fill(&c, page + 32, 16, page, sizeof(page)), 21);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page + 32);
	CU_ASSERT_STRING_EQUAL(text_of(&c, &seq), "AAAAAAAA");
	page[52] = 'A';		/* none: a copy, one zero after the page */
	CU_ASSERT_EQUAL(fill(&c, page + 32, 16, page, sizeof(page)), 33);
	CU_ASSERT_PTR_EQUAL(c.rec.data, c.pad.buf);
	CU_ASSERT_STRING_EQUAL(text_of(&c, &seq), "AAAAAAAAAAAAAAAAAAAA");
	trace_seq_destroy(&seq);
	case_close(&c);
}

/*
 * A dynamic field 2 bytes wide whose offset (40) is past the record:
 * the view goes there (found by fuzz_format: libtraceevent read up to
 * 64 KiB past the view).  tepfmt refuses such formats; the view does
 * not rely on it.
 */
static void test_narrow_descriptor(void)
{
	struct view_case c;
	uint8_t page[64];
	uint16_t id = 10, loc = 40;

	case_open(&c);
	memset(page, 'A', sizeof(page));
	tdat_store16(0, page, id);
	memset(page + 2, 0, 6);
	tdat_store16(0, page + 8, loc);
	page[11] = 0;		/* the record ends on a NUL */
	page[50] = 0;
	CU_ASSERT_EQUAL(fill(&c, page, 12, page, sizeof(page)), 51);
	CU_ASSERT_PTR_EQUAL(c.rec.data, page);
	case_close(&c);
}

/*
 * An empty dynamic string whose offset is the record's end:
 * libtraceevent prints its field (report -R) with "%s" from there, up
 * to a NUL.  The view goes on in the page up to one (it ended with the
 * record, and libtraceevent read what followed the view: in a worker's
 * batch, another record's bytes).
 */
static void test_empty_string_at_end(void)
{
	struct view_case c;
	struct trace_seq seq;
	uint8_t page[64];
	uint32_t loc = 12;		/* 0 bytes at offset 12 */
	uint16_t id = 9;

	case_open(&c);
	trace_seq_init(&seq);
	memset(page, 'A', sizeof(page));
	tdat_store16(0, page, id);
	memset(page + 2, 0, 6);
	tdat_store32(0, page + 8, loc);	/* page[11]: the record ends on 0 */
	page[20] = 0;
	c.rec.size = 12;
	CU_ASSERT_EQUAL(fill(&c, page, 12, page, sizeof(page)), 21);
	tep_print_event(c.tep, &seq, &c.rec, "%s", TEP_PRINT_INFO_RAW);
	trace_seq_terminate(&seq);
	CU_ASSERT_STRING_EQUAL(seq.buffer, " name=AAAAAAAA");
	trace_seq_destroy(&seq);
	case_close(&c);
}

/*
 * A __print_hex count taken from the record (len): libtraceevent read
 * len bytes, however many the record holds, and died on a forged one.
 * recview_fill() bounds it by the record for the handle it is given
 * (tepfmt_bound_counts), so that whatever prints the view with that
 * handle next reads only the record.
 */
static void test_counts_bounded(void)
{
	static const char hex_fmt[] =
		"name: hexed\nID: 11\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned int len;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 buf[4];\toffset:12;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", __print_hex(REC->buf, REC->len)\n";
	struct view_case c;
	struct trace_seq seq;
	uint8_t page[64];
	uint32_t len = 0xfffffff0u;
	uint16_t id = 11;
	const char *why;

	case_open(&c);
	trace_seq_init(&seq);
	CU_ASSERT_EQUAL(tepfmt_parse(c.tep, NULL, hex_fmt, sizeof(hex_fmt) - 1,
				     "test", &why), TEP_ERRNO__SUCCESS);
	CU_ASSERT_PTR_NULL(why);
	memset(page, 0xaa, sizeof(page));
	tdat_store16(0, page, id);
	memset(page + 2, 0, 6);
	tdat_store32(0, page + 8, len);
	memcpy(page + 12, "\x01\x02\x03\x00", 4);
	c.rec.size = 16;
	CU_ASSERT_EQUAL(fill(&c, page, 16, page, sizeof(page)), 16);
	CU_ASSERT_STRING_EQUAL(text_of(&c, &seq), "01 02 03 00");
	len = 2;		/* a count that fits: as it says */
	tdat_store32(0, page + 8, len);
	CU_ASSERT_EQUAL(fill(&c, page, 16, page, sizeof(page)), 16);
	CU_ASSERT_STRING_EQUAL(text_of(&c, &seq), "01 02");
	trace_seq_destroy(&seq);
	case_close(&c);
}

void suite_recview(void)
{
	CU_pSuite s = CU_add_suite("recview", NULL, NULL);

	CU_add_test(s, "a record holding its fields is used as it is",
		    test_whole_record);
	CU_add_test(s, "a short record goes on with its page",
		    test_short_in_page);
	CU_add_test(s, "past the page's end: zeros", test_short_at_page_end);
	CU_add_test(s, "dynamic fields pointing past the record",
		    test_dynamic_past_record);
	CU_add_test(s, "unknown ids", test_unknown_id);
	CU_add_test(s, "a dynamic string without a NUL",
		    test_string_without_nul);
	CU_add_test(s, "a dynamic field 2 bytes wide", test_narrow_descriptor);
	CU_add_test(s, "an empty dynamic string at the record's end",
		    test_empty_string_at_end);
	CU_add_test(s, "helper counts bounded by the record",
		    test_counts_bounded);
}
