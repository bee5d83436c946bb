/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pages.c - page streams and the event walk (FORMAT.md section 7).
 *
 * Fixture pages are checked against `trace-cmd report -t` of the same
 * files (Debian's 3.1.6; for the zlib file upstream 3.4's report shipped
 * beside it, which prints microseconds, rounded): events per buffer and CPU and
 * the first and last timestamp of each CPU.  Item types the recordings
 * do not contain (long events, padding, missed-event flags, big-endian
 * and 32-bit page headers) are checked on pages built here in memory.
 */
#include <stdio.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

/* ---- fixture pages ---- */

struct cpu_stats {
	const char *buffer;
	int cpu;
	unsigned events;
	uint64_t first, last;	/* timestamps, ns (us for the zlib file) */
};

struct page_walk {
	unsigned events, pages;
	uint64_t first, last;
	int errors;
	int missed;
	int backwards;		/* timestamps going down within the CPU */
};

static void walk_cpu(struct tdat_file *f, int buf, int idx,
		     struct page_walk *w)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, buf, idx, &err);
	const uint8_t *page;
	uint64_t off, prev_off = 0;
	int got;

	memset(w, 0, sizeof(*w));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((got = tdat_cpu_next_page(r, &page, &off, &err)) == 1) {
		struct tdat_page_iter it;
		struct tdat_event ev;
		int n;

		if (w->pages)
			CU_ASSERT_EQUAL(off, prev_off +
					f->buffers[buf].page_size);
		prev_off = off;
		w->pages++;
		if (tdat_page_iter_init(&it, f, page,
					f->buffers[buf].page_size)) {
			w->errors++;
			continue;
		}
		if (it.missed)
			w->missed++;
		while ((n = tdat_page_iter_next(&it, &ev)) == 1) {
			/* type 1-28 after the word, type 0 after array[0] */
			CU_ASSERT(ev.data == page + ev.offset + 4 ||
				  ev.data == page + ev.offset + 8);
			CU_ASSERT(ev.size >= 8);
			if (w->events && ev.ts < w->last)
				w->backwards++;
			if (!w->events)
				w->first = ev.ts;
			w->last = ev.ts;
			w->events++;
		}
		if (n < 0)
			w->errors++;
	}
	CU_ASSERT_EQUAL(got, 0);
	if (got < 0)
		fprintf(stderr, "\n  %s\n", err.msg);
	tdat_cpu_close(r);
}

static int find_buffer(const struct tdat_file *f, const char *name)
{
	int i;

	for (i = 0; i < f->nbuffers; i++)
		if (!strcmp(f->buffers[i].name, name))
			return i;
	return -1;
}

static int find_cpu(const struct tdat_buffer *b, int cpu)
{
	int i;

	for (i = 0; i < b->ncpus; i++)
		if (b->cpus[i].cpu == cpu)
			return i;
	return -1;
}

static void check_fixture(const char *name, const struct cpu_stats *s,
			  int n, uint64_t ts_div)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	int i;

	if (!f)
		fprintf(stderr, "\n  %s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < n; i++) {
		struct page_walk w;
		int b = find_buffer(f, s[i].buffer), c;

		CU_ASSERT_FATAL(b >= 0);
		c = find_cpu(&f->buffers[b], s[i].cpu);
		CU_ASSERT_FATAL(c >= 0);
		walk_cpu(f, b, c, &w);
		CU_ASSERT_EQUAL(w.errors, 0);
		CU_ASSERT_EQUAL(w.missed, 0);
		CU_ASSERT_EQUAL(w.backwards, 0);
		CU_ASSERT_EQUAL(w.events, s[i].events);
		/* report rounds to its unit */
		w.first = (w.first + ts_div / 2) / ts_div;
		w.last = (w.last + ts_div / 2) / ts_div;
		CU_ASSERT_EQUAL(w.first, s[i].first);
		CU_ASSERT_EQUAL(w.last, s[i].last);
		if (w.events != s[i].events || w.first != s[i].first ||
		    w.last != s[i].last)
			fprintf(stderr, "\n  %s \"%s\" cpu %d: %u events"
				" %llu..%llu\n", name, s[i].buffer, s[i].cpu,
				w.events, (unsigned long long)w.first,
				(unsigned long long)w.last);
	}
	tdat_close(f);
}

static void test_v6_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 227, 517125844783ull, 517438833204ull },
		{ "", 1, 237, 517126697945ull, 517438837592ull },
	};

	check_fixture("v6-sched-irq.dat", s, 2, 1);
}

static void test_v6_instance_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 54, 540070823993ull, 540290876237ull },
		{ "", 1, 207, 540070824524ull, 540362865033ull },
		{ "inst1", 0, 34, 540070315172ull, 540374635062ull },
		{ "inst1", 1, 74, 540070826207ull, 540360242240ull },
	};

	check_fixture("v6-2inst-irq-top-sched-inst1.dat", s, 4, 1);
}

static void test_v7_none_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 291, 533410625123ull, 533717089062ull },
		{ "", 1, 180, 533410827815ull, 533714817532ull },
	};

	check_fixture("v7-none-sched-irq.dat", s, 2, 1);
}

static void test_v7_zstd_pages(void)
{
	static const struct cpu_stats s316[] = {
		{ "", 0, 793, 534057240572ull, 534362607990ull },
		{ "", 1, 394, 534058826197ull, 534362366975ull },
	};
	static const struct cpu_stats s34[] = {
		{ "", 0, 269, 536128832892ull, 536438848748ull },
		{ "", 1, 3104, 536130827508ull, 536438869728ull },
	};

	check_fixture("v7-zstd-sched-irq.dat", s316, 2, 1);
	check_fixture("v7-zstd-sched-irq-tc34.dat", s34, 2, 1);
}

static void test_v7_instance_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 56, 540674821115ull, 540914884481ull },
		{ "", 1, 154, 540674823609ull, 540966861614ull },
		{ "inst1", 0, 41, 540674558940ull, 540978589032ull },
		{ "inst1", 1, 73, 540674824642ull, 540962988569ull },
	};

	check_fixture("v7-zstd-2inst-irq-top-sched-inst1-tc34.dat", s, 4, 1);
}

/* Many chunks, large and odd-sized records (trace_marker). */
static void test_v7_markers_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 27823, 552199553123ull, 552473388741ull },
		{ "", 1, 1686, 552181429646ull, 552459798024ull },
	};

	check_fixture("v7-zstd-markers-raw_syscalls.dat", s, 2, 1);
}

static void test_v7_zlib_pages(void)
{
	static const struct cpu_stats s[] = {
		{ "", 0, 466, 534824880ull, 535138882ull },
		{ "", 1, 342, 534825458ull, 535138908ull },
	};

	check_fixture("v7-zlib-sched-irq-tc34.dat", s, 2, 1000);
}

/* ---- pages built in memory ---- */

#define P 256		/* a small page keeps the pictures readable */

struct pagebuf {
	struct tdat_file f;	/* only byte order and commit width used */
	uint8_t page[P];
	uint32_t pos;		/* next item, from the page start */
};

static void pb_init(struct pagebuf *b, int big, int commit_size,
		    uint64_t ts)
{
	memset(b, 0, sizeof(*b));
	b->f.big_endian = big;
	b->f.commit_size = commit_size;
	b->f.page_header_size = 8 + commit_size;
	b->f.page_size = P;
	tdat_put64(&b->f, b->page, ts);
	b->pos = (uint32_t)b->f.page_header_size;
}

static void pb_commit(struct pagebuf *b, uint64_t flags)
{
	uint64_t commit = (b->pos - (uint32_t)b->f.page_header_size) | flags;

	if (b->f.commit_size == 4)
		tdat_put32(&b->f, b->page + 8, (uint32_t)commit);
	else
		tdat_put64(&b->f, b->page + 8, commit);
}

/* The event header word: type_len and time_delta, mirrored when big. */
static void pb_word(struct pagebuf *b, uint32_t type_len, uint32_t delta)
{
	uint32_t w = b->f.big_endian ? type_len << 27 | delta :
				       delta << 5 | type_len;

	tdat_put32(&b->f, b->page + b->pos, w);
	b->pos += 4;
}

static void pb_u32(struct pagebuf *b, uint32_t v)
{
	tdat_put32(&b->f, b->page + b->pos, v);
	b->pos += 4;
}

/* A data event with a payload of len bytes (multiple of 4) of value c. */
static void pb_event(struct pagebuf *b, uint32_t delta, uint32_t len,
		     uint8_t c)
{
	pb_word(b, len / 4, delta);
	memset(b->page + b->pos, c, len);
	b->pos += len;
}

static int iter(struct pagebuf *b, struct tdat_page_iter *it)
{
	return tdat_page_iter_init(it, &b->f, b->page, P);
}

static void expect_event(struct tdat_page_iter *it, uint64_t ts,
			 uint32_t size, uint32_t offset, uint8_t c)
{
	struct tdat_event ev;

	memset(&ev, 0, sizeof(ev));
	CU_ASSERT_EQUAL_FATAL(tdat_page_iter_next(it, &ev), 1);
	CU_ASSERT_EQUAL(ev.ts, ts);
	CU_ASSERT_EQUAL(ev.size, size);
	CU_ASSERT_EQUAL(ev.offset, offset);
	CU_ASSERT_PTR_EQUAL(ev.data, it->page + offset + 4);
	CU_ASSERT_EQUAL(ev.data[0], c);
	CU_ASSERT_EQUAL(ev.data[size - 1], c);
}

static void expect_end(struct tdat_page_iter *it, int want)
{
	struct tdat_event ev;

	CU_ASSERT_EQUAL(tdat_page_iter_next(it, &ev), want);
	/* The end is sticky. */
	if (want == 0)
		CU_ASSERT_EQUAL(tdat_page_iter_next(it, &ev), 0);
}

/* Plain events, in both byte orders and both commit widths. */
static void test_data_events(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	int big, w;

	for (big = 0; big <= 1; big++) {
		for (w = 4; w <= 8; w += 4) {
			uint32_t h = 8 + (uint32_t)w;

			pb_init(&b, big, w, 1000);
			pb_event(&b, 0, 8, 0xa1);
			pb_event(&b, 10, 12, 0xa2);
			pb_event(&b, (1u << 27) - 1, 112, 0xa3);
			pb_commit(&b, 0);
			CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
			CU_ASSERT_EQUAL(it.missed, 0);
			expect_event(&it, 1000, 8, h, 0xa1);
			expect_event(&it, 1010, 12, h + 12, 0xa2);
			expect_event(&it, 1010 + (1u << 27) - 1, 112, h + 28,
				     0xa3);
			expect_end(&it, 0);
		}
	}
}

/* The bit layout itself: a big-endian word is not a byte-swapped
 * little-endian one read the same way (type_len moves to the top). */
static void test_big_endian_layout(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;

	pb_init(&b, 1, 8, 0);
	/* type_len 2, delta 0x123: big-endian word 0x10000123 */
	memcpy(b.page + 16, "\x10\x00\x01\x23", 4);
	memset(b.page + 20, 0x5a, 8);
	b.pos = 28;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(memcmp(b.page + 8, "\0\0\0\0\0\0\0\x0c", 8), 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, 0x123, 8, 16, 0x5a);
	expect_end(&it, 0);

	/* The same event in a little-endian page: word 0x2462 = 0x123<<5|2 */
	pb_init(&b, 0, 8, 0);
	memcpy(b.page + 16, "\x62\x24\x00\x00", 4);
	memset(b.page + 20, 0x5a, 8);
	b.pos = 28;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(b.page[8], 0x0c);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, 0x123, 8, 16, 0x5a);
}

/* Type 30: ts += (array[0] << 27) + delta, for the following events. */
static void test_time_extend(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	int big;

	for (big = 0; big <= 1; big++) {
		pb_init(&b, big, 8, 5000);
		pb_event(&b, 7, 8, 1);
		pb_word(&b, 30, 0x55);
		pb_u32(&b, 0x1234);
		pb_event(&b, 3, 8, 2);
		pb_commit(&b, 0);
		CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
		expect_event(&it, 5007, 8, 16, 1);
		expect_event(&it, 5007 + (0x1234ull << 27) + 0x55 + 3, 8, 36,
			     2);
		expect_end(&it, 0);
	}
}

/* Type 31: the 59 stored bits replace the running stamp's low bits,
 * its top 5 bits are kept. */
static void test_absolute_stamp(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	const uint64_t top = 0xA800000000000000ull;
	const uint64_t stamp = (0x7abcdefull << 27) + 0x1234;

	pb_init(&b, 0, 8, top | 0x0700000000000000ull | 99);
	pb_event(&b, 1, 8, 1);
	pb_word(&b, 31, 0x1234);
	pb_u32(&b, 0x7abcdef);
	pb_event(&b, 5, 8, 2);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, top | 0x0700000000000000ull | 100, 8, 16, 1);
	expect_event(&it, (top | stamp) + 5, 8, 36, 2);
	expect_end(&it, 0);

	/* An absolute stamp may go backwards: it is not a delta. */
	pb_init(&b, 1, 8, 1ull << 40);
	pb_word(&b, 31, 3);
	pb_u32(&b, 0);
	pb_event(&b, 0, 8, 3);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, 3, 8, 24, 3);
}

/* Type 0: array[0] = payload length + 4, payload after array[0]. */
static void test_long_event(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	struct tdat_event ev;
	int big;

	for (big = 0; big <= 1; big++) {
		pb_init(&b, big, 8, 100);
		pb_word(&b, 0, 2);
		pb_u32(&b, 4 + 160);
		memset(b.page + b.pos, 0xc1, 160);
		b.pos += 160;
		/* An odd length is rounded up to the next item. */
		pb_word(&b, 0, 1);
		pb_u32(&b, 4 + 5);
		memset(b.page + b.pos, 0xc2, 8);
		b.pos += 8;
		pb_event(&b, 1, 8, 0xc3);
		pb_commit(&b, 0);
		CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
		CU_ASSERT_EQUAL_FATAL(tdat_page_iter_next(&it, &ev), 1);
		CU_ASSERT_EQUAL(ev.ts, 102);
		CU_ASSERT_EQUAL(ev.size, 160);
		CU_ASSERT_EQUAL(ev.offset, 16);
		CU_ASSERT_PTR_EQUAL(ev.data, b.page + 24);
		CU_ASSERT_EQUAL_FATAL(tdat_page_iter_next(&it, &ev), 1);
		CU_ASSERT_EQUAL(ev.ts, 103);
		CU_ASSERT_EQUAL(ev.size, 5);
		CU_ASSERT_EQUAL(ev.offset, 16 + 168);
		CU_ASSERT_PTR_EQUAL(ev.data, b.page + 16 + 168 + 8);
		CU_ASSERT_EQUAL_FATAL(tdat_page_iter_next(&it, &ev), 1);
		CU_ASSERT_EQUAL(ev.ts, 104);
		CU_ASSERT_EQUAL(ev.offset, 16 + 168 + 16);
		expect_end(&it, 0);
	}
}

/* Type 29: skipped by 4 + array[0], no timestamp change; a null padding
 * (delta 0) may fill the page or claim more than the commit covers. */
static void test_padding(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	int big, full;

	for (big = 0; big <= 1; big++) {
		for (full = 0; full <= 1; full++) {
			pb_init(&b, big, 8, 10);
			pb_event(&b, 1, 8, 1);
			pb_word(&b, 29, 40);	/* a discarded event */
			pb_u32(&b, 12);		/* itself + 8 bytes */
			memset(b.page + b.pos, 0xee, 8);
			b.pos += 8;
			pb_event(&b, 2, 8, 2);
			CU_ASSERT_EQUAL(b.pos, 56);
			pb_word(&b, 29, 0);	/* null padding: the rest */
			pb_u32(&b, P - 56 - 4);
			/* Committed up to the page end, or to array[0]. */
			b.pos = full ? P : 56 + 8;
			pb_commit(&b, 0);
			CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
			expect_event(&it, 11, 8, 16, 1);
			expect_event(&it, 13, 8, 44, 2);
			expect_end(&it, 0);
		}
	}
}

static void test_missed_events(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	int w;

	for (w = 4; w <= 8; w += 4) {
		/* Bit 31 alone: events lost, count unknown. */
		pb_init(&b, 0, w, 10);
		pb_event(&b, 0, 8, 1);
		pb_commit(&b, 1ull << 31);
		CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
		CU_ASSERT_EQUAL(it.missed, -1);
		expect_event(&it, 10, 8, 8 + (uint32_t)w, 1);
		expect_end(&it, 0);

		/* Bits 31 and 30: the count is stored after the data. */
		pb_init(&b, 1, w, 10);
		pb_event(&b, 0, 8, 1);
		pb_commit(&b, 3ull << 30);
		if (w == 4)
			tdat_put32(&b.f, b.page + b.pos, 1234);
		else
			tdat_put64(&b.f, b.page + b.pos, 1234);
		CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
		CU_ASSERT_EQUAL(it.missed, 1234);
		expect_event(&it, 10, 8, 8 + (uint32_t)w, 1);
		expect_end(&it, 0);
	}
	/* Bit 30 without 31 means nothing; reserved bits 27-29 are ignored. */
	pb_init(&b, 0, 8, 10);
	pb_event(&b, 0, 8, 1);
	pb_commit(&b, 1ull << 30 | 7ull << 27);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(it.missed, 0);
	expect_event(&it, 10, 8, 16, 1);
	expect_end(&it, 0);
}

/* A 32-bit kernel: 12-byte header, 4-byte commit word. */
static void test_commit_4(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;

	pb_init(&b, 0, 4, 77);
	pb_event(&b, 1, 8, 9);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(memcmp(b.page + 8, "\x0c\0\0\0", 4), 0);
	/* What a 64-bit reader would see as the upper commit half is data. */
	CU_ASSERT_NOT_EQUAL(b.page[12], 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(it.end, 12 + 12);
	expect_event(&it, 78, 8, 12, 9);
	expect_end(&it, 0);

	/* The whole data area, P - 12 bytes, is a legal commit. */
	pb_init(&b, 1, 4, 0);
	b.pos = P;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(iter(&b, &it), 0);
}

static void test_empty_page(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;

	pb_init(&b, 0, 8, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_end(&it, 0);
}

static void test_commit_too_large(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	struct tdat_event ev;

	pb_init(&b, 0, 8, 0);
	b.pos = P + 4;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(iter(&b, &it), -1);
	/* A rejected page yields nothing even if walked. */
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), 0);

	pb_init(&b, 1, 4, 0);
	b.pos = P + 1;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL(iter(&b, &it), -1);

	/* The size field is 27 bits: the largest value is rejected too. */
	pb_init(&b, 0, 8, 0);
	tdat_put64(&b.f, b.page + 8, 0x07FFFFFFull);
	CU_ASSERT_EQUAL(iter(&b, &it), -1);
}

/* Items that claim more bytes than the commit area holds. */
static void test_truncated_items(void)
{
	struct pagebuf b;
	struct tdat_page_iter it;
	struct tdat_event ev;

	/* A data event of 4 + 20 bytes in a 12-byte commit area. */
	pb_init(&b, 0, 8, 0);
	pb_event(&b, 0, 20, 1);
	b.pos = 16 + 12;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* A long event whose array[0] runs past the commit. */
	pb_init(&b, 1, 8, 0);
	pb_word(&b, 0, 0);
	pb_u32(&b, 4 + 64);
	b.pos += 32;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* array[0] below 4 (its own size) is impossible. */
	pb_init(&b, 0, 8, 0);
	pb_word(&b, 0, 0);
	pb_u32(&b, 2);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* Huge array[0]: no wrap-around. */
	pb_init(&b, 0, 8, 0);
	pb_word(&b, 0, 0);
	pb_u32(&b, 0xFFFFFFFFu);
	b.pos += 8;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* A time extend cut after its header word. */
	pb_init(&b, 0, 8, 0);
	pb_event(&b, 0, 8, 1);
	pb_word(&b, 30, 1);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, 0, 8, 16, 1);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* A commit area that ends inside a header word. */
	pb_init(&b, 0, 8, 0);
	pb_event(&b, 0, 8, 1);
	b.pos += 2;
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	expect_event(&it, 0, 8, 16, 1);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);

	/* A padding item (non-null) running past the commit. */
	pb_init(&b, 1, 8, 0);
	pb_word(&b, 29, 5);
	pb_u32(&b, 200);
	pb_commit(&b, 0);
	CU_ASSERT_EQUAL_FATAL(iter(&b, &it), 0);
	CU_ASSERT_EQUAL(tdat_page_iter_next(&it, &ev), -1);
}

void suite_pages(void)
{
	CU_pSuite s = CU_add_suite("pages", NULL, NULL);

	CU_add_test(s, "v6 pages = trace-cmd report", test_v6_pages);
	CU_add_test(s, "v6 instance pages", test_v6_instance_pages);
	CU_add_test(s, "v7 none pages", test_v7_none_pages);
	CU_add_test(s, "v7 zstd pages (3.1.6 and 3.4)", test_v7_zstd_pages);
	CU_add_test(s, "v7 instance pages", test_v7_instance_pages);
	CU_add_test(s, "v7 markers: many chunks", test_v7_markers_pages);
	CU_add_test(s, "v7 zlib pages", test_v7_zlib_pages);
	CU_add_test(s, "data events", test_data_events);
	CU_add_test(s, "big-endian header bit layout", test_big_endian_layout);
	CU_add_test(s, "type 30 time extend", test_time_extend);
	CU_add_test(s, "type 31 absolute stamp", test_absolute_stamp);
	CU_add_test(s, "type 0 long event", test_long_event);
	CU_add_test(s, "type 29 padding", test_padding);
	CU_add_test(s, "missed events bits 31/30", test_missed_events);
	CU_add_test(s, "4-byte commit word", test_commit_4);
	CU_add_test(s, "empty page", test_empty_page);
	CU_add_test(s, "commit larger than page", test_commit_too_large);
	CU_add_test(s, "truncated items", test_truncated_items);
}
