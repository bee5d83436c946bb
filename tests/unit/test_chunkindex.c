/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_chunkindex.c - the chunk header walk (libfmt/chunkindex.c) and
 * the last timestamp read from a stream's end (libfmt/streamtail.c).
 *
 * On every compressed fixture the walk must see exactly the chunks the
 * full reader sees, chunks read one at a time and decoded with one
 * decoder must give the reader's pages, runs must hold whole chunks as
 * stored, and the last
 * timestamp must be the last event the full read yields (raw fixtures
 * too).  Then copies of a real file with hostile chunk headers and frame
 * headers: every one refused with its file and offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

static const char *const compressed[] = {
	"v7-zstd-sched-irq.dat", "v7-zstd-markers-raw_syscalls.dat",
	"v7-zstd-sched-irq-tc34.dat", "v7-zlib-sched-irq-tc34.dat",
	"v7-zstd-2inst-irq-top-sched-inst1.dat",
	"v7-zstd-2inst-irq-top-sched-inst1-tc34.dat",
};
static const char *const all[] = {
	"v6-sched-irq.dat", "v6-2inst-irq-top-sched-inst1.dat",
	"v7-none-sched-irq.dat", "v7-zstd-sched-irq.dat",
	"v7-zstd-markers-raw_syscalls.dat", "v7-zlib-sched-irq-tc34.dat",
	"v7-zstd-2inst-irq-top-sched-inst1-tc34.dat",
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The walk against tdat_cpu_next_chunk, chunk by chunk. */
static void walk_matches_reader(struct tdat_file *f, int b, int k)
{
	struct tdat_error err;
	struct tdat_chunk_walk cw, lw;
	struct tdat_chunk c, last;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, k, &err);
	const uint8_t *data;
	uint32_t cs, us, n = 0;
	uint64_t usum = 0, stored = 0;
	int got;

	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FATAL(tdat_chunk_walk_init(&cw, f, b, k, &err) == 0);
	while ((got = tdat_cpu_next_chunk(r, &data, &cs, &us, &err)) == 1) {
		CU_ASSERT_EQUAL(tdat_chunk_walk_next(&cw, &c, &err), 1);
		CU_ASSERT_EQUAL(c.csize, cs);
		CU_ASSERT_EQUAL(c.usize, us);
		usum += us;
		stored += 8 + (uint64_t)cs;
		n++;
	}
	CU_ASSERT_EQUAL(got, 0);
	CU_ASSERT_EQUAL(tdat_chunk_walk_next(&cw, &c, &err), 0);
	CU_ASSERT_EQUAL(cw.done, n);
	CU_ASSERT_EQUAL(cw.nchunks, n);
	CU_ASSERT_EQUAL(cw.usize, usum);
	CU_ASSERT_EQUAL(cw.next, f->buffers[b].cpus[k].offset + 4 + stored);
	tdat_cpu_close(r);

	CU_ASSERT_FATAL(tdat_chunk_walk_init(&lw, f, b, k, &err) == 0);
	CU_ASSERT_EQUAL(tdat_chunk_walk_last(&lw, &last, &err), n ? 1 : 0);
	if (n) {
		CU_ASSERT_EQUAL(last.offset + 8 + last.csize, cw.next);
		CU_ASSERT_EQUAL(last.usize, us);
	}
}

/* Chunks read one at a time (as split's first pass does), decoded with
 * the one decoder d: the reader's pages, all of them, and nothing after. */
static void reads_match_pages(struct tdat_file *f, int b, int k,
			      struct tdat_chunk_decoder *d)
{
	struct tdat_error err;
	struct tdat_chunk_walk cw;
	struct tdat_chunk c;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, k, &err);
	uint32_t ps = f->buffers[b].page_size, j;
	uint8_t *data = NULL, *out = NULL;
	const uint8_t *page;
	size_t cap = 0;
	uint64_t pages = 0;
	int got;

	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FATAL(tdat_chunk_walk_init(&cw, f, b, k, &err) == 0);
	while ((got = tdat_chunk_walk_read(&cw, &c, &data, &cap, &err)) == 1) {
		CU_ASSERT_FATAL(cap >= c.csize);
		out = realloc(out, c.usize ? c.usize : 1);
		CU_ASSERT_FATAL(out != NULL);
		CU_ASSERT_FATAL(tdat_chunk_decode(d, data, c.csize, out,
						  c.usize, c.offset, &err) == 0);
		for (j = 0; j < c.usize / ps; j++, pages++) {
			CU_ASSERT_EQUAL_FATAL(tdat_cpu_next_page(r, &page, NULL,
								 &err), 1);
			CU_ASSERT(!memcmp(page, out + (size_t)j * ps, ps));
		}
	}
	CU_ASSERT_EQUAL(got, 0);
	CU_ASSERT_EQUAL(tdat_chunk_walk_read(&cw, &c, &data, &cap, &err), 0);
	CU_ASSERT_EQUAL(tdat_cpu_next_page(r, &page, NULL, &err), 0);
	CU_ASSERT(pages > 0);
	free(data);
	free(out);
	tdat_cpu_close(r);
}

/* Runs of about want bytes: whole chunks, and all of them. */
static void runs_cover(struct tdat_file *f, int b, int k, size_t want)
{
	struct tdat_error err;
	struct tdat_chunk_walk cw;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint32_t nc, total = 0;
	int64_t n;

	CU_ASSERT_FATAL(tdat_chunk_walk_init(&cw, f, b, k, &err) == 0);
	while ((n = tdat_chunk_walk_run(&cw, &buf, &cap, want, &nc,
					&err)) > 0) {
		int64_t at = 0;
		uint32_t i;

		CU_ASSERT(nc >= 1);
		for (i = 0; i < nc; i++)
			at += 8 + (int64_t)tdat_get32(f, buf + at);
		CU_ASSERT_EQUAL(at, n);	/* whole chunks, nothing more */
		total += nc;
	}
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(total, cw.nchunks);
	free(buf);
}

static void test_walk_fixtures(void)
{
	struct tdat_error err;
	size_t i;
	int b, k;

	for (i = 0; i < N(compressed); i++) {
		struct tdat_file *f = tdat_open(fixture(compressed[i]), &err);
		struct tdat_chunk_decoder *d;

		CU_ASSERT_FATAL(f != NULL);
		d = tdat_chunk_decoder_new(f);
		CU_ASSERT_FATAL(d != NULL);
		for (b = 0; b < f->nbuffers; b++)
			for (k = 0; k < f->buffers[b].ncpus; k++) {
				if (f->buffers[b].latency ||
				    !f->buffers[b].cpus[k].size)
					continue;
				walk_matches_reader(f, b, k);
				reads_match_pages(f, b, k, d);
				runs_cover(f, b, k, 1);
				runs_cover(f, b, k, 10000);
				runs_cover(f, b, k, 1 << 20);
			}
		tdat_chunk_decoder_free(d);
		tdat_close(f);
	}
}

/* The last event of a stream, by reading all of it. */
static int last_by_reading(struct tdat_file *f, int b, int k, uint64_t *ts)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, k, &err);
	struct tdat_page_iter it;
	struct tdat_event ev;
	const uint8_t *page;
	int found = 0;

	if (!r)
		return -1;
	while (tdat_cpu_next_page(r, &page, NULL, &err) == 1) {
		if (tdat_page_iter_init(&it, f, page,
					f->buffers[b].page_size))
			continue;
		while (tdat_page_iter_next(&it, &ev) == 1) {
			*ts = ev.ts;
			found = 1;
		}
	}
	tdat_cpu_close(r);
	return found;
}

static void test_last_ts(void)
{
	struct tdat_error err;
	size_t i;
	int b, k, checked = 0;

	for (i = 0; i < N(all); i++) {
		struct tdat_file *f = tdat_open(fixture(all[i]), &err);

		CU_ASSERT_FATAL(f != NULL);
		for (b = 0; b < f->nbuffers; b++)
			for (k = 0; k < f->buffers[b].ncpus; k++) {
				uint64_t want = 0, got = 0;
				int r;

				if (f->buffers[b].latency ||
				    !f->buffers[b].cpus[k].size)
					continue;
				r = last_by_reading(f, b, k, &want);
				CU_ASSERT_EQUAL(tdat_cpu_last_ts(f, b, k, &got,
								 &err), r);
				if (r == 1) {
					CU_ASSERT_EQUAL(got, want);
					checked++;
				}
			}
		tdat_close(f);
	}
	CU_ASSERT(checked >= 10);
}

/* tdat_cpu_next_pages hands out the same pages as tdat_cpu_next_page. */
static void test_next_pages(void)
{
	struct tdat_error err;
	size_t i;
	int b, k;

	for (i = 0; i < N(all); i++) {
		struct tdat_file *f = tdat_open(fixture(all[i]), &err);

		CU_ASSERT_FATAL(f != NULL);
		for (b = 0; b < f->nbuffers; b++)
			for (k = 0; k < f->buffers[b].ncpus; k++) {
				uint32_t ps = f->buffers[b].page_size;
				struct tdat_cpu_reader *one, *run;
				const uint8_t *p, *q;
				size_t len, at;
				uint64_t n = 0;

				if (f->buffers[b].latency)
					continue;
				one = tdat_cpu_open(f, b, k, &err);
				run = tdat_cpu_open(f, b, k, &err);
				CU_ASSERT_FATAL(one && run);
				while (tdat_cpu_next_pages(run, &q, &len, NULL,
							   &err) == 1) {
					CU_ASSERT(len && len % ps == 0);
					for (at = 0; at < len; at += ps, n++) {
						CU_ASSERT_EQUAL_FATAL(
							tdat_cpu_next_page(one,
							&p, NULL, &err), 1);
						CU_ASSERT(!memcmp(p, q + at, ps));
					}
				}
				CU_ASSERT_EQUAL(tdat_cpu_next_page(one, &p, NULL,
								   &err), 0);
				CU_ASSERT_EQUAL(n * ps == 0,
						f->buffers[b].cpus[k].size == 0);
				tdat_cpu_close(one);
				tdat_cpu_close(run);
			}
		tdat_close(f);
	}
}

/* ---- hostile headers ---- */

/* A copy of in with 4 bytes at off set to v (little-endian). */
static const char *patched(const uint8_t *d, size_t len, uint64_t off,
			   uint32_t v, const char *name)
{
	static char path[4096];
	uint8_t *c = malloc(len);
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	memcpy(c, d, len);
	tdat_store32(0, c + off, v);
	fp = fopen(path, "wb");
	CU_ASSERT_FATAL(fp != NULL);
	CU_ASSERT(fwrite(c, 1, len, fp) == len);
	fclose(fp);
	free(c);
	return path;
}

/* How walk_all goes through the stream. */
enum { BY_HEADER, BY_RUN, BY_READ };

/* Walk CPU 0 of path to the end by headers, runs or reads: 0, or -1
 * with err. */
static int walk_all(const char *path, int how, struct tdat_error *err)
{
	struct tdat_file *f = tdat_open(path, err);
	struct tdat_chunk_walk cw;
	struct tdat_chunk c;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint32_t nc;
	int64_t got;

	CU_ASSERT_FATAL(f != NULL);
	if (tdat_chunk_walk_init(&cw, f, 0, 0, err))
		got = -1;
	else if (how == BY_RUN)
		while ((got = tdat_chunk_walk_run(&cw, &buf, &cap, 1 << 16,
						  &nc, err)) > 0)
			;
	else if (how == BY_READ)
		while ((got = tdat_chunk_walk_read(&cw, &c, &buf, &cap,
						   err)) > 0)
			;
	else
		while ((got = tdat_chunk_walk_next(&cw, &c, err)) > 0)
			;
	free(buf);
	tdat_close(f);
	return got < 0 ? -1 : 0;
}

/* Refused, naming the file and the offset. */
static void refused(const char *path, int how, uint64_t off,
		    const char *what)
{
	struct tdat_error err;
	char want[64];

	CU_ASSERT_EQUAL(walk_all(path, how, &err), -1);
	snprintf(want, sizeof(want), "offset %llu:", (unsigned long long)off);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, what));
	CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
}

static void test_hostile(void)
{
	const char *in = fixture("v7-zstd-markers-raw_syscalls.dat");
	const char *raw = fixture("v6-sched-irq.dat");
	struct tdat_error err;
	struct tdat_file *f = tdat_open(in, &err);
	uint64_t s, s6, h1, h2;
	uint8_t *d;
	size_t len;
	uint32_t c0, c1;
	char *count, *csize, *upart, *uhuge, *ratio, *magic, *fewer;
	int how;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_FATAL(f->buffers[0].cpus[0].cpu == 0);
	s = f->buffers[0].cpus[0].offset;
	tdat_close(f);
	d = slurp_file(in, &len);
	CU_ASSERT_FATAL(d != NULL);
	c0 = tdat_load32(0, d + s + 4);
	c1 = tdat_load32(0, d + s + 4 + 8 + c0);
	h1 = s + 4 + 8 + c0;		/* second chunk's header */
	h2 = h1 + 8 + c1;		/* third's */
	CU_ASSERT_FATAL(c1 > codec_bound(TDAT_CODEC_ZSTD, 4096));
	count = strdup(patched(d, len, s, 0x7fffffff, "count.dat"));
	csize = strdup(patched(d, len, h2, 0x7fffffff, "csize.dat"));
	upart = strdup(patched(d, len, h2 + 4, 4095, "upart.dat"));
	uhuge = strdup(patched(d, len, h2 + 4, 0xfffff000, "uhuge.dat"));
	ratio = strdup(patched(d, len, h1 + 4, 4096, "ratio.dat"));
	magic = strdup(patched(d, len, h2 + 8, 0, "magic.dat"));
	fewer = strdup(patched(d, len, s, 2, "fewer.dat"));
	free(d);
	f = tdat_open(raw, &err);
	CU_ASSERT_FATAL(f != NULL);
	s6 = f->buffers[0].cpus[0].offset;
	tdat_close(f);

	/* every header rule holds however the stream is gone through */
	for (how = BY_HEADER; how <= BY_READ; how++) {
		CU_ASSERT_EQUAL(walk_all(in, how, &err), 0);
		refused(count, how, s, "chunk count runs past");
		refused(csize, how, h2, "runs past the end of the stream");
		refused(upart, how, h2, "implausible uncompressed size");
		refused(uhuge, how, h2, "implausible uncompressed size");
		refused(ratio, how, h1, "larger than any compression");
		/* the stream's count says fewer chunks than there are: the
		 * walk ends there, as the reader does */
		CU_ASSERT_EQUAL(walk_all(fewer, how, &err), 0);
	}
	/* a header walk or read cannot see a bad frame; a run checks it */
	CU_ASSERT_EQUAL(walk_all(magic, BY_HEADER, &err), 0);
	CU_ASSERT_EQUAL(walk_all(magic, BY_READ, &err), 0);
	refused(magic, BY_RUN, h2, "is not a zstd frame");
	/* raw data has no chunks to walk */
	refused(raw, BY_READ, s6, "not compressed");
	free(count);
	free(csize);
	free(upart);
	free(uhuge);
	free(ratio);
	free(magic);
	free(fewer);
}

static void test_frame_check(void)
{
	static const uint8_t zlib_ok[] = { 0x78, 0xda, 1, 2, 3, 4, 5, 6 };
	static const uint8_t zlib_dict[] = { 0x78, 0xbb, 1, 2, 3, 4, 5, 6 };
	static const uint8_t zlib_sum[] = { 0x78, 0xdb, 1, 2, 3, 4, 5, 6 };
	uint8_t raw[4096], z[8192];
	struct codec_ctx x;
	size_t n;

	memset(raw, 'a', sizeof(raw));
	CU_ASSERT_PTR_NULL(chunk_frame_check(TDAT_CODEC_ZLIB, zlib_ok, 8,
					     4096));
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZLIB, zlib_dict,
						 8, 4096));
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZLIB, zlib_sum,
						 8, 4096));
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZLIB, zlib_ok, 5,
						 4096));
	/* 8 bytes cannot hold 1 MiB of deflate */
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZLIB, zlib_ok, 8,
						 1 << 20));
	codec_ctx_init(&x, TDAT_CODEC_ZSTD, 0);
	CU_ASSERT_FATAL(codec_compress(&x, raw, sizeof(raw), z, sizeof(z),
				       &n) == 0);
	CU_ASSERT_PTR_NULL(chunk_frame_check(TDAT_CODEC_ZSTD, z, (uint32_t)n,
					     4096));
	/* cut, or with bytes after the frame */
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZSTD, z,
						 (uint32_t)n - 1, 4096));
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZSTD, z,
						 (uint32_t)n + 1, 4096));
	codec_ctx_free(&x);
	/* a frame recording its size must record the header's */
	n = ZSTD_compress(z, sizeof(z), raw, sizeof(raw), 3);
	CU_ASSERT_FATAL(!ZSTD_isError(n));
	CU_ASSERT_PTR_NULL(chunk_frame_check(TDAT_CODEC_ZSTD, z, (uint32_t)n,
					     4096));
	CU_ASSERT_PTR_NOT_NULL(chunk_frame_check(TDAT_CODEC_ZSTD, z,
						 (uint32_t)n, 8192));
}

void suite_chunkindex(void)
{
	CU_pSuite s = CU_add_suite("chunkindex", NULL, NULL);

	CU_add_test(s, "walk sees the reader's chunks on every fixture",
		    test_walk_fixtures);
	CU_add_test(s, "last timestamp from the end = last event read",
		    test_last_ts);
	CU_add_test(s, "next_pages hands out next_page's pages",
		    test_next_pages);
	CU_add_test(s, "hostile chunk headers refused with file and offset",
		    test_hostile);
	CU_add_test(s, "frame headers checked without decoding",
		    test_frame_check);
}
