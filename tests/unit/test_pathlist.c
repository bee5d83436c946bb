/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pathlist.c - --files-from's lists: lines or NUL-separated (-0),
 * empty entries skipped, paths kept byte for byte (spaces, a newline in
 * a -0 list), a NUL in a list of lines refused with its offset, files
 * and standard input read.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "convert/fleet/fleet.h"
#include "libfmt/tracedat.h"
#include "tests/unit/units.h"

static int parse(struct pathlist *l, const char *buf, size_t n, int nul,
		 struct tdat_error *err)
{
	memset(l, 0, sizeof(*l));
	return pathlist_parse(l, buf, n, nul, "list", err);
}

static void test_lines(void)
{
	static const char text[] = "a.dat\n\n dir/b c.dat\nlast";
	struct tdat_error err;
	struct pathlist l;

	CU_ASSERT_EQUAL_FATAL(parse(&l, text, sizeof(text) - 1, 0, &err), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 3);
	CU_ASSERT_STRING_EQUAL(l.v[0], "a.dat");
	CU_ASSERT_STRING_EQUAL(l.v[1], " dir/b c.dat");
	CU_ASSERT_STRING_EQUAL(l.v[2], "last");
	pathlist_free(&l);
	CU_ASSERT_EQUAL(parse(&l, "", 0, 0, &err), 0);
	CU_ASSERT_EQUAL(l.n, 0);
	pathlist_free(&l);
	CU_ASSERT_EQUAL(parse(&l, "\n\n", 2, 0, &err), 0);
	CU_ASSERT_EQUAL(l.n, 0);
	pathlist_free(&l);
}

static void test_nul(void)
{
	static const char text[] = "a\nb.dat\0\0c.dat\0";
	struct tdat_error err;
	struct pathlist l;

	CU_ASSERT_EQUAL_FATAL(parse(&l, text, sizeof(text) - 1, 1, &err), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);
	CU_ASSERT_STRING_EQUAL(l.v[0], "a\nb.dat");
	CU_ASSERT_STRING_EQUAL(l.v[1], "c.dat");
	pathlist_free(&l);
	/* no separator after the last */
	CU_ASSERT_EQUAL_FATAL(parse(&l, "x\0y", 3, 1, &err), 0);
	CU_ASSERT_EQUAL(l.n, 2);
	pathlist_free(&l);
}

static void test_nul_in_lines(void)
{
	static const char text[] = "a.dat\nb\0.dat\n";
	struct tdat_error err;
	struct pathlist l;

	CU_ASSERT_EQUAL(parse(&l, text, sizeof(text) - 1, 0, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "list: offset 7: a NUL byte"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "-0"));
	pathlist_free(&l);
}

static void test_read_file(void)
{
	char path[4096];
	struct tdat_error err;
	struct pathlist l = { 0 };
	int fd, saved;

	snprintf(path, sizeof(path), "%s/list.txt", test_tmpdir());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "x.dat\ny.dat\n", 12), 12);
	close(fd);
	CU_ASSERT_EQUAL(pathlist_read(&l, path, 0, &err), 0);
	CU_ASSERT_EQUAL(l.n, 2);
	/* "-" is standard input */
	saved = dup(0);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(saved >= 0 && fd >= 0);
	dup2(fd, 0);
	close(fd);
	CU_ASSERT_EQUAL(pathlist_read(&l, "-", 0, &err), 0);
	dup2(saved, 0);
	close(saved);
	CU_ASSERT_EQUAL_FATAL(l.n, 4);
	CU_ASSERT_STRING_EQUAL(l.v[3], "y.dat");
	pathlist_free(&l);
	unlink(path);
	CU_ASSERT_EQUAL(pathlist_read(&l, path, 0, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "No such file"));
	CU_ASSERT_EQUAL(pathlist_read(&l, test_tmpdir(), 0, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Is a directory"));
	pathlist_free(&l);
}

void suite_pathlist(void)
{
	CU_pSuite s = CU_add_suite("pathlist", NULL, NULL);

	CU_add_test(s, "one path a line", test_lines);
	CU_add_test(s, "NUL-separated (-0)", test_nul);
	CU_add_test(s, "a NUL in a list of lines", test_nul_in_lines);
	CU_add_test(s, "a file and standard input", test_read_file);
}
