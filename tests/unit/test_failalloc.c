/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_failalloc.c - every allocation failing in turn (issue 12, point 2).
 *
 * The unit-test binary is linked with --wrap for malloc, calloc, realloc,
 * strdup and strndup (Makefile), so the calls made by libfmt and the
 * engines come here first.  A job (open a fixture and read every page
 * and event; convert it to v7 zstd and to v6; merge it with another) is
 * run once to count its
 * allocations, then once more for each of them with that one failing.
 * Each run must succeed or fail with a filled, printable one-line error
 * naming the input or the output; the sanitizers (make check-asan) catch
 * what a failure path leaks or touches after freeing.  The error is
 * filled with 0xff bytes before each run: "tdat report: \377\377..." was
 * what a reader once printed when a failed grow left it untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "convert/copy/copy.h"
#include "convert/merge/merge.h"
#include "libfmt/tracedat.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

/* Allocations counted while armed; the one numbered fail_at fails.  The
 * jobs run on one thread (threads = 1), so plain ints do. */
static int armed;
static long counted, fail_at = -1;

static int fail_now(void)
{
	if (!armed)
		return 0;
	if (counted++ != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

/* For other suites (test_pqwrite.c): allocation k fails (-1: none
 * does, only count), until failalloc_disarm(), which gives the count. */
void failalloc_arm(long k)
{
	fail_at = k;
	counted = 0;
	armed = 1;
}

long failalloc_disarm(void)
{
	armed = 0;
	fail_at = -1;
	return counted;
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

/* Every page and event of every CPU of every buffer. */
static int read_all(struct tdat_file *f, struct tdat_error *err)
{
	int b, i, r = 0;

	for (b = 0; b < f->nbuffers && !r; b++) {
		for (i = 0; i < f->buffers[b].ncpus && !r; i++) {
			struct tdat_cpu_reader *cr = tdat_cpu_open(f, b, i, err);
			const uint8_t *page;
			struct tdat_page_iter it;
			struct tdat_event ev;
			int got;

			if (!cr)
				return -1;
			while ((got = tdat_cpu_next_page(cr, &page, NULL,
							 err)) > 0)
				if (!tdat_page_iter_init(&it, f, page,
						f->buffers[b].page_size))
					while (tdat_page_iter_next(&it, &ev) > 0)
						;
			tdat_cpu_close(cr);
			r = got < 0 ? -1 : 0;
		}
	}
	return r;
}

struct job {
	const char *fixture;
	int version;		/* 0: only read; else convert to it */
	const char *merge_with;	/* merge the two instead */
};

static int merge_job(const struct job *j, const char *out,
		     struct tdat_error *err)
{
	struct merge_opts o = { .version = 7, .threads = 1 };
	const char *in[2] = { fixture(j->fixture), fixture(j->merge_with) };

	return merge_files(in, 2, out, &o, NULL, err);
}

static int run_job(const struct job *j, const char *out,
		   struct tdat_error *err)
{
	struct convert_opts o = { .version = j->version, .threads = 1,
				  .codec = TDAT_CODEC_ZSTD };
	struct tdat_file *f;
	int r;

	if (j->merge_with)
		return merge_job(j, out, err);
	f = tdat_open(fixture(j->fixture), err);
	if (!f)
		return -1;
	r = j->version ? convert_file(f, out, &o, err) : read_all(f, err);
	tdat_close(f);
	return r;
}

/* err after a failed run: filled, one printable line, naming a file. */
static void check_error(const struct job *j, long k, const char *out,
			const struct tdat_error *err)
{
	size_t i, n = strnlen(err->msg, sizeof(err->msg));
	int ok = n > 0 && n < sizeof(err->msg);

	for (i = 0; ok && i < n; i++)
		ok = (unsigned char)err->msg[i] >= 0x20 &&
		     (unsigned char)err->msg[i] < 0x7f;
	ok = ok && (strstr(err->msg, j->fixture) || strstr(err->msg, out) ||
		    (j->merge_with && strstr(err->msg, j->merge_with)));
	if (!ok)
		fprintf(stderr, "\n  %s, allocation %ld failing: bad error"
			" \"%.80s\"\n", j->fixture, k, err->msg);
	CU_ASSERT(ok);
}

static void fail_each(const struct job *j)
{
	char out[512];
	struct tdat_error err;
	long total, k;
	int r;

	snprintf(out, sizeof(out), "%s/failalloc-v%d.dat", test_tmpdir(),
		 j->version);
	fail_at = -1;
	counted = 0;
	armed = 1;
	r = run_job(j, out, &err);
	armed = 0;
	total = counted;
	CU_ASSERT_EQUAL_FATAL(r, 0);
	CU_ASSERT(total > 10);
	for (k = 0; k < total; k++) {
		memset(err.msg, 0xff, sizeof(err.msg));
		fail_at = k;
		counted = 0;
		armed = 1;
		r = run_job(j, out, &err);
		armed = 0;
		if (r)
			check_error(j, k, out, &err);
		unlink(out);
	}
	fail_at = -1;
}

static void test_read_v6(void)
{
	fail_each(&(struct job){ "v6-sched-irq.dat", 0, NULL });
}

static void test_read_v7_zstd(void)
{
	fail_each(&(struct job){ "v7-zstd-2inst-irq-top-sched-inst1.dat", 0,
				 NULL });
}

static void test_read_v7_zlib(void)
{
	fail_each(&(struct job){ "v7-zlib-sched-irq-tc34.dat", 0, NULL });
}

static void test_convert_v6_to_v7(void)
{
	fail_each(&(struct job){ "v6-2inst-irq-top-sched-inst1.dat", 7, NULL });
}

static void test_convert_v7_to_v6(void)
{
	fail_each(&(struct job){ "v7-zstd-2inst-irq-top-sched-inst1.dat", 6,
				 NULL });
}

static void test_merge(void)
{
	fail_each(&(struct job){ "v7-zstd-sched-irq.dat", 0,
				 "v7-zstd-markers-raw_syscalls.dat" });
}

void suite_failalloc(void)
{
	CU_pSuite s = CU_add_suite("failalloc", NULL, NULL);

	CU_add_test(s, "read v6, each allocation failing", test_read_v6);
	CU_add_test(s, "read v7 zstd, each allocation failing",
		    test_read_v7_zstd);
	CU_add_test(s, "read v7 zlib, each allocation failing",
		    test_read_v7_zlib);
	CU_add_test(s, "convert v6 to v7, each allocation failing",
		    test_convert_v6_to_v7);
	CU_add_test(s, "convert v7 to v6, each allocation failing",
		    test_convert_v7_to_v6);
	CU_add_test(s, "merge, each allocation failing", test_merge);
}
