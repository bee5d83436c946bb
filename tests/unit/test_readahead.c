/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_readahead.c - a CPU stream read with tdat_cpu_read_ahead gives what
 * it gives without: the same results, pages, offsets, errors and
 * positions, call for call, on every compressed fixture, on a chunk that
 * does not decompress, on a chunk running past the end of the file, and when the memory budget
 * holds one large chunk but not the ring of chunks decoded ahead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

/* Every call's outcome as a line of text. */
struct log {
	char *text;
	size_t len, cap;
};

static void log_add(struct log *l, const char *line)
{
	size_t n = strlen(line);

	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2;
		l->text = realloc(l->text, l->cap);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l->text);
	}
	memcpy(l->text + l->len, line, n + 1);
	l->len += n;
}

static uint32_t page_sum(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/*
 * Read buffer buf's stream idx to its end (or up to 64 errors), with or
 * without read-ahead; pause_ms lets the threads fill their ring first.
 * Whole windows (next_pages) and single pages alternate.
 */
static int read_stream(struct tdat_file *f, int buf, int idx, int ahead,
		       int pause_ms, struct log *l)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, buf, idx, &err);
	uint64_t off, done, total;
	const uint8_t *p;
	char line[700];
	size_t len;
	int got, errors = 0, k = 0, threads = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	if (ahead)
		threads = tdat_cpu_read_ahead(r);
	if (pause_ms)
		usleep((useconds_t)pause_ms * 1000);
	do {
		memset(&err, 0, sizeof(err));
		len = f->buffers[buf].page_size;
		got = k++ % 2 ? tdat_cpu_next_pages(r, &p, &len, &off, &err) :
				tdat_cpu_next_page(r, &p, &off, &err);
		tdat_cpu_position(r, &done, &total);
		if (got == 1)
			snprintf(line, sizeof(line), "1 %llu %zu %08x %llu/%llu\n",
				 (unsigned long long)off, len, page_sum(p, len),
				 (unsigned long long)done,
				 (unsigned long long)total);
		else
			snprintf(line, sizeof(line), "%d %s %llu/%llu\n", got,
				 got ? err.msg : "", (unsigned long long)done,
				 (unsigned long long)total);
		log_add(l, line);
	} while (got == 1 || (got == -1 && ++errors < 64));
	tdat_cpu_close(r);
	return threads;
}

/* The stream read both ways must log the same; returns the log.  A
 * stream of more than one chunk must have had its threads. */
static char *same_both_ways(struct tdat_file *f, int buf, int idx,
			    int pause_ms)
{
	struct log plain = { 0 }, ahead = { 0 };
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, buf, idx, &err);
	const uint8_t *d;
	uint32_t c, u;
	int chunks = 0, got;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((got = tdat_cpu_next_chunk(r, &d, &c, &u, &err)) != 0)
		if (++chunks && got < 0)
			break;	/* the header count goes on: the chunk counts */
	tdat_cpu_close(r);
	read_stream(f, buf, idx, 0, 0, &plain);
	CU_ASSERT_EQUAL(read_stream(f, buf, idx, 1, pause_ms, &ahead),
			chunks > 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(plain.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ahead.text);
	CU_ASSERT_STRING_EQUAL(ahead.text, plain.text);
	free(ahead.text);
	return plain.text;
}

static void test_fixtures(void)
{
	static const char *const names[] = {
		"v7-zstd-sched-irq.dat", "v7-zlib-sched-irq-tc34.dat",
		"v7-zstd-2inst-irq-top-sched-inst1.dat",
		"v7-zstd-kmem-tc.dat", "v7-zstd-markers-raw_syscalls.dat",
	};
	struct tdat_error err;
	struct tdat_file *f;
	size_t i;
	int b, c, streams = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		f = tdat_open(fixture(names[i]), &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		for (b = 0; b < f->nbuffers; b++)
			for (c = 0; c < f->buffers[b].ncpus; c++, streams++)
				free(same_both_ways(f, b, c, i % 2 ? 20 : 0));
		tdat_close(f);
	}
	CU_ASSERT(streams >= 10);
}

/* File offset of chunk k (its header) of buffer 0's stream idx. */
static uint64_t chunk_at(struct tdat_file *f, int idx, int k)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, 0, idx, &err);
	uint64_t off = f->buffers[0].cpus[idx].offset + 4;
	const uint8_t *d;
	uint32_t c, u;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (i = 0; i <= k; i++) {
		CU_ASSERT_EQUAL_FATAL(tdat_cpu_next_chunk(r, &d, &c, &u, &err),
				      1);
		if (i < k)
			off += 8 + (uint64_t)c;
	}
	tdat_cpu_close(r);
	return off;
}

/* A copy of the fixture with len bytes at the file offset at replaced. */
static char *patched(const char *name, uint64_t at, const void *p,
		     size_t len)
{
	static int n;
	char *path = malloc(512);
	size_t size;
	uint8_t *d = slurp_file(fixture(name), &size);
	FILE *out;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_FATAL(at + len <= size);
	memcpy(d + at, p, len);
	snprintf(path, 512, "%s/readahead-%d.dat", test_tmpdir(), n++);
	out = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(fwrite(d, 1, size, out), size);
	fclose(out);
	free(d);
	return path;
}

#define FIX "v7-zstd-markers-raw_syscalls.dat"	/* 34 chunks on CPU 0 */

/* A copy of FIX with len bytes replaced, into bytes of chunk k of
 * stream idx (0: its header). */
static char *patch_chunk(int idx, int k, uint64_t into, const void *p,
			 size_t len)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(FIX), &err);
	uint64_t at;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	at = chunk_at(f, idx, k);
	tdat_close(f);
	return patched(FIX, at + into, p, len);
}

/* Stream idx of the file at path read both ways: the same, saying want. */
static void same_saying(const char *path, int idx, int pause_ms,
			const char *want)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);
	char *log;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	log = same_both_ways(f, 0, idx, pause_ms);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, want));
	free(log);
	tdat_close(f);
}

static void test_bad_chunk(void)
{
	uint8_t junk[16];
	char *path;

	memset(junk, 0xa5, sizeof(junk));
	path = patch_chunk(0, 20, 8, junk, sizeof(junk));
	same_saying(path, 0, 20, "does not decompress");
	free(path);
}

/* CPU 1's second chunk claims to run past the end of the file: the walk
 * ends there with an error. */
static void test_truncated(void)
{
	static const uint8_t huge[4] = { 0xff, 0xff, 0xff, 0x7f };
	char *path = patch_chunk(1, 1, 0, huge, 4);

	same_saying(path, 1, 0, "truncated");
	free(path);
}

/*
 * Chunk 12 claims 16 MiB (its data does not decompress to that), and the
 * budget holds that one window but not it beside the twelve before it,
 * which the threads hold decoded while the caller waits: read-ahead
 * must wait for the caller to take them, then claim it alone, and so
 * fail as reading without it does (the chunk skipped), not over the
 * budget.
 */
static void test_budget(void)
{
	const uint32_t big = 16u << 20;
	const uint8_t le[4] = { (uint8_t)big, (uint8_t)(big >> 8),
				(uint8_t)(big >> 16), (uint8_t)(big >> 24) };
	char *path = patch_chunk(0, 12, 4, le, 4), *log;
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);
	uint64_t limit, allowance;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	allowance = tdat_budget_limit() - TDAT_BUDGET_BASE;
	limit = tdat_budget_held() + big + (256u << 10);
	CU_ASSERT_FATAL(limit > allowance);
	tdat_budget_set_base(limit - allowance);
	log = same_both_ways(f, 0, 0, 50);
	tdat_budget_set_base(TDAT_BUDGET_BASE);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "does not decompress"));
	CU_ASSERT_PTR_NULL(strstr(log, "budget"));
	free(log);
	tdat_close(f);
	free(path);
}

void suite_readahead(void)
{
	CU_pSuite s = CU_add_suite("readahead", NULL, NULL);

	CU_add_test(s, "same as without, every compressed fixture",
		    test_fixtures);
	CU_add_test(s, "a chunk that does not decompress", test_bad_chunk);
	CU_add_test(s, "a stream cut short", test_truncated);
	CU_add_test(s, "one large chunk within the budget", test_budget);
}
