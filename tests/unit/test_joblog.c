/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_joblog.c - --log's lines: each a whole JSON object ending in a
 * newline, paths escaped (quotes, controls, bytes that are not UTF-8),
 * appended to what is there, never through a symlink; lines read back
 * (logline.c, logdone.c): whole JSON objects only, a cut line or one
 * that is not JSON passed over, the last word on a file counting.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "convert/fleet/fleet.h"
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"
#include "tests/unit/units.h"

static void test_json_string(void)
{
	struct tdat_bytes b = { 0 };

	CU_ASSERT_EQUAL(fleet_json_string(&b, "a\"b\\c\n\x01\x7f"
					  "\xc3\xa9\xff.dat"), 0);
	CU_ASSERT_EQUAL(tdat_bytes_add(&b, "", 1), 0);
	CU_ASSERT_STRING_EQUAL((char *)b.data, "\"a\\\"b\\\\c\\n\\u0001"
			       "\\u007f\xc3\xa9\\u00ff.dat\"");
	tdat_bytes_free(&b);
}

static void test_lines(void)
{
	struct joblog_entry e = { "x\ny.dat", "archived", 1, 100, 40, 1.5,
				  NULL, NULL };
	struct shard s = { 2, 4 };
	struct tdat_error err;
	struct joblog lg;
	char path[4096], link_path[4200];
	uint8_t *text;
	size_t n;

	snprintf(path, sizeof(path), "%s/log.jsonl", test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(joblog_open(&lg, path, &s, &err), 0);
	CU_ASSERT_EQUAL(joblog_write(&lg, &e), 0);
	joblog_close(&lg);
	CU_ASSERT_EQUAL_FATAL(joblog_open(&lg, path, NULL, &err), 0);
	e.sized = 0;
	e.result = "failed";
	e.reason = "x.dat: offset 5: bad";
	CU_ASSERT_EQUAL(joblog_write(&lg, &e), 0);
	joblog_close(&lg);
	text = slurp_file(path, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	text = realloc(text, n + 1);
	text[n] = 0;
	CU_ASSERT_PTR_NOT_NULL(strstr((char *)text, "\"task\":\"2/4\","
		"\"path\":\"x\\ny.dat\",\"result\":\"archived\","
		"\"bytes_before\":100,\"bytes_after\":40,\"seconds\":1.500,"
		"\"reason\":null}\n{\"time\":\""));
	CU_ASSERT_PTR_NOT_NULL(strstr((char *)text, "\"task\":null,"
		"\"path\":\"x\\ny.dat\",\"result\":\"failed\","
		"\"bytes_before\":null,\"bytes_after\":null,\"seconds\":1.500,"
		"\"reason\":\"x.dat: offset 5: bad\"}\n"));
	CU_ASSERT_EQUAL(text[n - 1], '\n');
	free(text);
	/* a symlink at the log's name is never written through */
	snprintf(link_path, sizeof(link_path), "%s.link", path);
	CU_ASSERT_EQUAL(symlink(path, link_path), 0);
	CU_ASSERT_EQUAL(joblog_open(&lg, link_path, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "symlink"));
	unlink(link_path);
	unlink(path);
}

static int parses(const char *s)
{
	struct logline l = { 0 };
	int r = logline_parse(&l, s, strlen(s));

	logline_free(&l);
	return r == 0;
}

static void test_logline(void)
{
	static const char good[] = "{\"time\":\"t\",\"n\":[1,-2.5e3,{\"a\":"
		"[]},true,false,null],\"path\":\"x\\ny\\u00ff\\u00e9\\ud83d"
		"\\ude00.dat\",\"result\":\"valid\",\"bytes_before\":"
		"18446744073709551615,\"mtime\":\"m\",\"reason\":null} ";
	struct logline l = { 0 };

	CU_ASSERT_EQUAL_FATAL(logline_parse(&l, good, strlen(good)), 0);
	CU_ASSERT(l.has_path && l.has_result && l.has_mtime);
	CU_ASSERT(!l.has_reason);
	/* \u00XX is the byte XX, as fleet_json_string writes bytes */
	CU_ASSERT_EQUAL(l.path.len, 14);	/* with its NUL */
	CU_ASSERT_EQUAL(memcmp(l.path.data, "x\ny\xff\xe9\xf0\x9f\x98\x80"
			       ".dat", 14), 0);
	CU_ASSERT_STRING_EQUAL((char *)l.result.data, "valid");
	CU_ASSERT(l.sized && l.size == UINT64_MAX);
	/* every cut of a whole line is refused */
	for (size_t n = 0; n < strlen(good) - 1; n++)
		CU_ASSERT_EQUAL(logline_parse(&l, good, n), -1);
	CU_ASSERT(!parses("{\"a\":1}x"));
	CU_ASSERT(!parses("[1]"));
	CU_ASSERT(!parses("{\"a\":01}"));
	CU_ASSERT_EQUAL(logline_parse(&l, "{\"bytes_before\":18446744073709551616}",
				      37), 0);
	CU_ASSERT(!l.sized);		/* 2^64: a number, not a size */
	logline_free(&l);
	CU_ASSERT(!parses("{\"a\":\"\\x\"}"));
	CU_ASSERT(!parses("{\"a\":\"\t\"}"));
	CU_ASSERT(!parses("{\"a\":\"\\udc00\"}"));
	CU_ASSERT(!parses("{\"a\" 1}"));
	CU_ASSERT(!parses("{\"a\":1,}"));
	CU_ASSERT(parses("{}"));
	CU_ASSERT(parses(" {\"a\" : [ ] , \"b\":{}}"));
}

/* One line of a dump --validate run to lg. */
static void logged(struct joblog *lg, const char *path, const char *result,
		   uint64_t size, const char *mtime, const char *reason)
{
	struct joblog_entry e = { path, result, 1, size, size, 0.1, reason,
				  mtime };

	CU_ASSERT_EQUAL(joblog_write(lg, &e), 0);
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static const char *const results[] = { "valid", "invalid", NULL };

static void test_logdone(void)
{
	struct joblog_entry other = { "c.dat", "archived", 1, 9, 9, 0, NULL,
				      NULL };
	struct tdat_error err;
	struct logline l = { 0 };
	struct logdone d;
	struct joblog lg;
	char path[4096];
	uint64_t off;

	snprintf(path, sizeof(path), "%s/done.jsonl", test_tmpdir());
	CU_ASSERT_EQUAL(logdone_read(&d, path, results, &err), 0);
	CU_ASSERT_EQUAL(d.n, 0);	/* no log yet: nothing done */
	logdone_free(&d);
	CU_ASSERT_EQUAL_FATAL(joblog_open(&lg, path, NULL, &err), 0);
	logged(&lg, "a.dat", "valid", 10, "T1", NULL);
	logged(&lg, "b \"x\n\xff.dat", "invalid", 20, "T2", "b: offset 3: bad");
	CU_ASSERT_EQUAL(joblog_write(&lg, &other), 0);	/* no mtime */
	logged(&lg, "a.dat", "valid already", 10, "T1", NULL);
	logged(&lg, "d.dat", "valid", 30, "T3", NULL);
	joblog_close(&lg);
	append(path, "not json\n{\"path\":\"d.dat\",\"result\":\"invalid\","
	       "\"bytes_before\":30,\"mtime\":\"T3\"}\n");
	append(path, "{\"time\":\"2026\",\"path\":\"e.dat\",\"resu");	/* cut */
	CU_ASSERT_EQUAL_FATAL(logdone_read(&d, path, results, &err), 0);
	CU_ASSERT_EQUAL(d.lines, 8);
	CU_ASSERT_EQUAL(d.ignored, 2);	/* not json, and the cut line */
	CU_ASSERT_EQUAL(d.n, 3);
	CU_ASSERT_EQUAL(logdone_find(&d, "a.dat", 10, "T1", NULL), 0);
	CU_ASSERT_EQUAL(logdone_find(&d, "a.dat", 11, "T1", NULL), -1);
	CU_ASSERT_EQUAL(logdone_find(&d, "a.dat", 10, "T9", NULL), -1);
	CU_ASSERT_EQUAL(logdone_find(&d, "./a.dat", 10, "T1", NULL), -1);
	CU_ASSERT_EQUAL(logdone_find(&d, "c.dat", 9, "", NULL), -1);
	/* the last line of a key counts */
	CU_ASSERT_EQUAL(logdone_find(&d, "d.dat", 30, "T3", NULL), 1);
	CU_ASSERT_EQUAL(logdone_find(&d, "b \"x\n\xff.dat", 20, "T2", &off),
			1);
	CU_ASSERT_EQUAL_FATAL(logdone_line(&d, off, &l), 0);
	CU_ASSERT_STRING_EQUAL((char *)l.reason.data, "b: offset 3: bad");
	logdone_free(&d);
	logline_free(&l);
	/* a line appended after the cut one starts a line of its own */
	CU_ASSERT_EQUAL_FATAL(joblog_open(&lg, path, NULL, &err), 0);
	logged(&lg, "e.dat", "valid", 40, "T4", NULL);
	joblog_close(&lg);
	CU_ASSERT_EQUAL_FATAL(logdone_read(&d, path, results, &err), 0);
	CU_ASSERT_EQUAL(d.ignored, 2);
	CU_ASSERT_EQUAL(logdone_find(&d, "e.dat", 40, "T4", NULL), 0);
	logdone_free(&d);
	unlink(path);
}

static void test_logdone_long_line(void)
{
	struct tdat_error err;
	struct logdone d;
	char path[4096];
	char *big = malloc(600 * 1024);
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, 'x', 600 * 1024 - 1);
	big[600 * 1024 - 1] = 0;
	snprintf(path, sizeof(path), "%s/long.jsonl", test_tmpdir());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "{\"path\":\"%s\"}\n", big);
	fprintf(f, "{\"path\":\"a\",\"result\":\"valid\",\"bytes_before\":1,"
		"\"mtime\":\"m\"}\n");
	fclose(f);
	free(big);
	CU_ASSERT_EQUAL_FATAL(logdone_read(&d, path, results, &err), 0);
	CU_ASSERT_EQUAL(d.ignored, 1);
	CU_ASSERT_EQUAL(d.lines, 2);
	CU_ASSERT_EQUAL(logdone_find(&d, "a", 1, "m", NULL), 0);
	logdone_free(&d);
	unlink(path);
}

static void test_mtime(void)
{
	struct timespec t = { 1733500955, 7 };
	char buf[JOBLOG_MTIME_MAX];

	joblog_mtime(&t, buf);
	CU_ASSERT_STRING_EQUAL(buf, "2024-12-06T16:02:35.000000007Z");
}

void suite_joblog(void)
{
	CU_pSuite s = CU_add_suite("joblog", NULL, NULL);

	CU_add_test(s, "paths as JSON strings", test_json_string);
	CU_add_test(s, "whole lines, appended", test_lines);
	CU_add_test(s, "a line read back: whole JSON only", test_logline);
	CU_add_test(s, "what earlier runs did", test_logdone);
	CU_add_test(s, "a line too long passed over", test_logdone_long_line);
	CU_add_test(s, "modification times to the nanosecond", test_mtime);
}
