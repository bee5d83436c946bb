/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_joblog.c - --log's lines: each a whole JSON object ending in a
 * newline, paths escaped (quotes, controls, bytes that are not UTF-8),
 * appended to what is there, never through a symlink.
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
				  NULL };
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

void suite_joblog(void)
{
	CU_pSuite s = CU_add_suite("joblog", NULL, NULL);

	CU_add_test(s, "paths as JSON strings", test_json_string);
	CU_add_test(s, "whole lines, appended", test_lines);
}
