/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_funcgraph.c - the pure parts of report's function_graph text
 * (convert/report/funcgraph.c): overhead marks, durations, indentation,
 * field reads, and whole info texts.  Every expected string is one
 * trace-cmd 3.1.6 printed for files made by tests/tools/mkfgraph.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/tracedat.h"
#include "convert/report/funcgraph.h"

/* A 32-bit kernel's formats (kinmax.dat, Linux 4.13). */
static const char entry_fmt[] =
	"name: funcgraph_entry\nID: 11\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %lx (%d)\", REC->func, REC->depth\n";

static const char exit_fmt[] =
	"name: funcgraph_exit\nID: 10\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long overrun;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int depth;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"<-- %lx (%d)\", REC->func, REC->depth\n";

static const char *dur(uint64_t ns)
{
	static char buf[64];

	fgraph_duration(buf, sizeof(buf), ns);
	return buf;
}

static void test_marks(void)
{
	CU_ASSERT_EQUAL(fgraph_mark(0), ' ');
	CU_ASSERT_EQUAL(fgraph_mark(10000), ' ');
	CU_ASSERT_EQUAL(fgraph_mark(10001), '+');
	CU_ASSERT_EQUAL(fgraph_mark(100000), '+');
	CU_ASSERT_EQUAL(fgraph_mark(100001), '!');
	CU_ASSERT_EQUAL(fgraph_mark(1000000), '!');
	CU_ASSERT_EQUAL(fgraph_mark(1000001), '#');
	CU_ASSERT_EQUAL(fgraph_mark(100000001), '#');	/* no '*' or '@' */
	CU_ASSERT_EQUAL(fgraph_mark(1000000000), '#');
	CU_ASSERT_EQUAL(fgraph_mark(1000000001), '$');
}

static void test_durations(void)
{
	CU_ASSERT_STRING_EQUAL(dur(0), "  0.000 us   ");
	CU_ASSERT_STRING_EQUAL(dur(999), "  0.999 us   ");
	CU_ASSERT_STRING_EQUAL(dur(10000), "  10.000 us  ");
	CU_ASSERT_STRING_EQUAL(dur(10001), "+ 10.001 us  ");
	CU_ASSERT_STRING_EQUAL(dur(100000), "+ 100.000 us ");
	CU_ASSERT_STRING_EQUAL(dur(1000000), "! 1000.000 us ");
	CU_ASSERT_STRING_EQUAL(dur(10000001), "# 10000.001 us ");
	CU_ASSERT_STRING_EQUAL(dur(999999999), "# 999999.999 us ");
	/* From 1 s on, whole microseconds, cut not rounded. */
	CU_ASSERT_STRING_EQUAL(dur(1000000000), "# 1000000 us ");
	CU_ASSERT_STRING_EQUAL(dur(1000000001), "$ 1000000 us ");
	CU_ASSERT_STRING_EQUAL(dur(UINT64_MAX - 999999000),
			       "$ 18446744072709552 us ");
}

static void test_small_buffer(void)
{
	char buf[6];

	CU_ASSERT_EQUAL(fgraph_duration(buf, sizeof(buf), 10001), 5);
	CU_ASSERT_STRING_EQUAL(buf, "+ 10.");
	CU_ASSERT_EQUAL(fgraph_duration(buf, 0, 1), 0);
}

static void test_indent(void)
{
	CU_ASSERT_EQUAL(fgraph_indent(0), 0);
	CU_ASSERT_EQUAL(fgraph_indent(1), 2);
	CU_ASSERT_EQUAL(fgraph_indent(1000), 2000);
	CU_ASSERT_EQUAL(fgraph_indent(0x7fffffff), 0xfffffffeull);
	/* Read as an int: negative depths indent nothing. */
	CU_ASSERT_EQUAL(fgraph_indent(0x80000000u), 0);
	CU_ASSERT_EQUAL(fgraph_indent(0xffffffffu), 0);
}

static void test_get(void)
{
	struct fgraph g;
	struct fg_field f4 = { 4, 4 }, f8 = { 0, 8 }, out = { 6, 4 };
	const uint8_t d[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(&g, 0, sizeof(g));
	CU_ASSERT_EQUAL(fgraph_get(&g, &f4, d, 8), 0x08070605u);
	CU_ASSERT_EQUAL(fgraph_get(&g, &f8, d, 8), 0x0807060504030201ull);
	CU_ASSERT_EQUAL(fgraph_get(&g, &out, d, 8), 0);
	g.big_endian = 1;
	CU_ASSERT_EQUAL(fgraph_get(&g, &f4, d, 8), 0x05060708u);
}

static struct tep_handle *tep_fgraph(struct fgraph *g)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_FATAL(tep != NULL);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, 4);
	CU_ASSERT_FATAL(tep_parse_event(tep, entry_fmt, sizeof(entry_fmt) - 1,
					"ftrace") == 0);
	CU_ASSERT_FATAL(tep_parse_event(tep, exit_fmt, sizeof(exit_fmt) - 1,
					"ftrace") == 0);
	CU_ASSERT_FATAL(fgraph_init(g, tep, 0) == 1);
	return tep;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The info text of a record made of (id, func, depth[, call, ret]). */
static char *info(struct tep_handle *tep, const struct fgraph *g, int id,
		  uint32_t depth, uint64_t call, uint64_t ret, int leaf,
		  uint64_t leaf_ns)
{
	static uint8_t data[36];
	static char text[256];
	struct tep_record rec;
	struct outbuf o;
	FILE *fp = fmemopen(text, sizeof(text), "w");

	memset(data, 0, sizeof(data));
	memset(&rec, 0, sizeof(rec));
	put_le(data, (uint64_t)id, 2);
	put_le(data + 8, 0xc1d4c120u, 4);
	put_le(data + (id == 11 ? 12 : 32), depth, 4);
	put_le(data + 16, call, 8);
	put_le(data + 24, ret, 8);
	rec.data = data;
	rec.size = id == 11 ? 16 : 36;
	CU_ASSERT_FATAL(fp != NULL);
	memset(text, 0, sizeof(text));
	/* Through a stream: the buffer's insides are outbuf's own. */
	outbuf_init(&o, fp);
	fgraph_put_info(&o, tep, g, &rec, leaf, leaf_ns);
	CU_ASSERT_EQUAL(outbuf_flush(&o), 0);
	outbuf_free(&o);
	fclose(fp);
	return text;
}

static void test_info(void)
{
	struct fgraph g;
	struct tep_handle *tep = tep_fgraph(&g);

	CU_ASSERT_EQUAL(g.entry_id, 11);
	CU_ASSERT_EQUAL(g.exit_id, 10);
	/* No kallsyms here: the address in hex. */
	CU_ASSERT_STRING_EQUAL(info(tep, &g, 11, 0, 0, 0, 0, 0),
			       "             |  c1d4c120() {");
	CU_ASSERT_STRING_EQUAL(info(tep, &g, 11, 2, 0, 0, 1, 90),
			       "  0.090 us   |      c1d4c120();");
	CU_ASSERT_STRING_EQUAL(info(tep, &g, 10, 1, 1000, 17000, 0, 0),
			       "+ 16.000 us  |    }");
	CU_ASSERT_STRING_EQUAL(info(tep, &g, 10, 0xffffffffu, 0, 2189721, 0,
				    0), "# 2189.721 us |  }");
	tep_free(tep);
}

static void test_no_formats(void)
{
	struct fgraph g;
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_FATAL(tep != NULL);
	CU_ASSERT_EQUAL(fgraph_init(&g, tep, 0), 0);
	CU_ASSERT_EQUAL(g.entry_id, -1);
	tep_free(tep);
}

void suite_funcgraph(void)
{
	CU_pSuite s = CU_add_suite("funcgraph", NULL, NULL);

	CU_add_test(s, "overhead marks", test_marks);
	CU_add_test(s, "durations and their padding", test_durations);
	CU_add_test(s, "a duration cut to a small buffer", test_small_buffer);
	CU_add_test(s, "indentation by depth", test_indent);
	CU_add_test(s, "field reads, both byte orders", test_get);
	CU_add_test(s, "entry, leaf and exit texts", test_info);
	CU_add_test(s, "files without funcgraph formats", test_no_formats);
}
