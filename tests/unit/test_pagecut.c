/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pagecut.c - the page cutter (libfmt/pagecut.c) on real pages.
 *
 * Every page of several fixtures is cut at many index and time ranges;
 * the cut page must walk cleanly and yield exactly the events of the
 * range, with the same absolute timestamps and payload bytes; cut to
 * any subset (tdat_page_cut_keep: all, none, pseudo-random ones), it must
 * yield exactly the kept events; gathered from many pages into shared
 * ones (tdat_page_fill_*), the shared pages must yield the kept events of
 * all, in order.  Missed-
 * event flags, deltas that need a time extend and time going backwards
 * are checked on copies of real pages changed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

#define MAXEV 1024

struct evcopy {
	uint64_t ts;
	uint32_t size;
	const uint8_t *data;
};

/* The data events of a page; -1 if it does not walk. */
static int page_events(const struct tdat_file *f, const uint8_t *page,
		       uint32_t ps, struct evcopy *ev, int64_t *missed)
{
	struct tdat_page_iter it;
	struct tdat_event e;
	int n = 0, got;

	if (tdat_page_iter_init(&it, f, page, ps))
		return -1;
	while ((got = tdat_page_iter_next(&it, &e)) == 1 && n < MAXEV) {
		ev[n].ts = e.ts;
		ev[n].size = e.size;
		ev[n].data = e.data;
		n++;
	}
	if (missed)
		*missed = it.missed;
	return got < 0 ? -1 : n;
}

static uint64_t commit_of(const struct tdat_file *f, const uint8_t *page)
{
	return f->commit_size == 4 ? tdat_get32(f, page + 8) :
				     tdat_get64(f, page + 8);
}

/* The tail after the commit (and a stored count) is zero. */
static int tail_is_zero(const struct tdat_file *f, const uint8_t *p,
			uint32_t ps)
{
	uint64_t c = commit_of(f, p);
	uint32_t at = (uint32_t)f->page_header_size + (uint32_t)(c & 0x07FFFFFF);

	if (c & (1ull << 30))
		at += (uint32_t)f->commit_size;
	for (; at < ps; at++)
		if (p[at])
			return 0;
	return 1;
}

/* in's events [a, b) == out's events. */
static int same_events(const struct evcopy *in, int a, int b,
		       const struct evcopy *out, int nout)
{
	int i;

	if (nout != b - a)
		return 0;
	for (i = 0; i < nout; i++)
		if (in[a + i].ts != out[i].ts ||
		    in[a + i].size != out[i].size ||
		    memcmp(in[a + i].data, out[i].data, out[i].size))
			return 0;
	return 1;
}

static struct evcopy in_ev[MAXEV], out_ev[MAXEV], want_ev[MAXEV];

/* A fixed pseudo-random sequence (xorshift): failures repeat. */
static uint64_t rnd_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * Cut the page in (n events, in_ev) to the subset keep; the result must
 * walk and yield exactly the kept events, with their times, bytes, a
 * zero tail and a header time equal to the first kept event's.
 */
static void check_keep(const struct tdat_file *f, const uint8_t *page,
		       uint32_t ps, int n, const uint8_t *keep, uint8_t *out)
{
	struct tdat_error err;
	int i, m, k = 0;

	for (i = 0; i < n; i++)
		if (keep[i])
			want_ev[k++] = in_ev[i];
	CU_ASSERT_EQUAL(tdat_page_cut_keep(f, page, ps, keep, (uint32_t)n, out,
					   0, &err), k);
	m = page_events(f, out, ps, out_ev, NULL);
	CU_ASSERT(same_events(want_ev, 0, k, out_ev, m));
	CU_ASSERT(tail_is_zero(f, out, ps));
	if (m > 0)
		CU_ASSERT_EQUAL(tdat_get64(f, out), out_ev[0].ts);
}

/* All, none, every other one and random subsets of a page's events. */
static void keep_subsets(const struct tdat_file *f, const uint8_t *page,
			 uint32_t ps, uint8_t *out)
{
	static uint8_t keep[MAXEV];
	int n = page_events(f, page, ps, in_ev, NULL), i, r;

	CU_ASSERT_FATAL(n >= 0);
	memset(keep, 1, sizeof(keep));
	check_keep(f, page, ps, n, keep, out);
	memset(keep, 0, sizeof(keep));
	check_keep(f, page, ps, n, keep, out);
	for (i = 0; i < n; i++)
		keep[i] = i & 1;
	check_keep(f, page, ps, n, keep, out);
	for (r = 0; r < 4; r++) {
		uint64_t bits = rnd();

		for (i = 0; i < n; i++) {
			if (i % 64 == 0)
				bits = rnd();
			keep[i] = (bits >> (i % 64)) & 1;
		}
		check_keep(f, page, ps, n, keep, out);
	}
}

/* Cut one page at a handful of ranges, by index and by time. */
static void cut_ranges(const struct tdat_file *f, const uint8_t *page,
		       uint32_t ps, uint8_t *out, unsigned *checked)
{
	struct tdat_error err;
	int n = page_events(f, page, ps, in_ev, NULL), a, b, k, m;
	int cuts[] = { 0, 1, 2, 3, 7, 20, 50 };

	CU_ASSERT_FATAL(n >= 0);
	for (a = 0; a < 7; a++) {
		for (b = a; b < 7; b++) {
			int lo = cuts[a] < n ? cuts[a] : n;
			int hi = b == 6 ? n : cuts[b] < n ? cuts[b] : n;

			k = tdat_page_cut_index(f, page, ps, lo, hi, out, 0,
						&err);
			CU_ASSERT_EQUAL(k, hi - lo);
			m = page_events(f, out, ps, out_ev, NULL);
			CU_ASSERT(same_events(in_ev, lo, hi, out_ev, m));
			CU_ASSERT(tail_is_zero(f, out, ps));
			if (m > 0)
				CU_ASSERT_EQUAL(tdat_get64(f, out), out_ev[0].ts);
			if (hi > lo && lo < n) {
				/* the same range by time (ties included) */
				int tl = lo, th = hi;

				while (tl > 0 && in_ev[tl - 1].ts == in_ev[lo].ts)
					tl--;
				while (th < n && in_ev[th].ts == in_ev[hi - 1].ts)
					th++;
				k = tdat_page_cut_time(f, page, ps,
						       in_ev[lo].ts,
						       in_ev[hi - 1].ts, out,
						       0, &err);
				CU_ASSERT_EQUAL(k, th - tl);
				m = page_events(f, out, ps, out_ev, NULL);
				CU_ASSERT(same_events(in_ev, tl, th, out_ev, m));
			}
			(*checked)++;
		}
	}
}

static void cut_fixture(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	unsigned checked = 0, pages = 0;
	int b, c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (b = 0; b < f->nbuffers; b++) {
		uint32_t ps = f->buffers[b].page_size;
		uint8_t *out = malloc(ps);

		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		for (c = 0; c < f->buffers[b].ncpus; c++) {
			struct tdat_cpu_reader *r;
			const uint8_t *page;
			uint64_t off;

			if (!f->buffers[b].cpus[c].size)
				continue;
			r = tdat_cpu_open(f, b, c, &err);
			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			while (tdat_cpu_next_page(r, &page, &off, &err) == 1) {
				cut_ranges(f, page, ps, out, &checked);
				keep_subsets(f, page, ps, out);
				pages++;
			}
			tdat_cpu_close(r);
		}
		free(out);
	}
	CU_ASSERT(pages > 0 && checked > 0);
	tdat_close(f);
}

static void test_cut_v6(void)
{
	cut_fixture("v6-sched-irq.dat");
	cut_fixture("v6-2inst-irq-top-sched-inst1.dat");
}

static void test_cut_v7(void)
{
	cut_fixture("v7-zstd-markers-raw_syscalls.dat");
	cut_fixture("v7-zlib-sched-irq-tc34.dat");
	cut_fixture("v7-zstd-clock-x86tsc-tc34.dat");
}

/* The first page with at least min events of f's first buffer, copied. */
static uint8_t *first_busy_page(struct tdat_file *f, int min)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, 0, 0, &err);
	uint32_t ps = f->buffers[0].page_size;
	const uint8_t *page;
	uint8_t *copy = NULL;
	uint64_t off;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while (!copy && tdat_cpu_next_page(r, &page, &off, &err) == 1) {
		if (page_events(f, page, ps, in_ev, NULL) < min)
			continue;
		copy = malloc(ps);
		memcpy(copy, page, ps);
	}
	tdat_cpu_close(r);
	return copy;
}

/* Mark page (of f, ps bytes) as having lost count events before it: the
 * two flag bits in the commit word and the count stored after the data. */
static void mark_missed(struct tdat_file *f, uint8_t *page, uint32_t ps,
			uint64_t count)
{
	uint64_t c = commit_of(f, page);
	uint32_t used = (uint32_t)(c & 0x07FFFFFF);

	CU_ASSERT_FATAL(f->page_header_size + used + 8 <= ps);
	tdat_put64(f, page + 8, c | (1ull << 31) | (1ull << 30));
	tdat_put64(f, page + f->page_header_size + used, count);
}

/* Missed events stay with the piece that holds the page's first event. */
static void test_cut_missed(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	uint8_t *page, *out;
	uint32_t ps;
	int64_t missed;
	uint64_t c;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ps = f->buffers[0].page_size;
	page = first_busy_page(f, 10);
	out = malloc(ps);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	/* flag + stored count 1234 right after the data */
	c = commit_of(f, page);
	mark_missed(f, page, ps, 1234);
	n = page_events(f, page, ps, in_ev, &missed);
	CU_ASSERT_EQUAL(missed, 1234);

	CU_ASSERT_EQUAL(tdat_page_cut_index(f, page, ps, 0, 3, out, 0, &err), 3);
	page_events(f, out, ps, out_ev, &missed);
	CU_ASSERT_EQUAL(missed, 1234);
	CU_ASSERT(tail_is_zero(f, out, ps));

	CU_ASSERT_EQUAL(tdat_page_cut_index(f, page, ps, 3, n, out, 0, &err),
			n - 3);
	page_events(f, out, ps, out_ev, &missed);
	CU_ASSERT_EQUAL(missed, 0);
	CU_ASSERT(tail_is_zero(f, out, ps));

	/* a subset: the mark stays only when event 0 is kept */
	{
		uint8_t keep[MAXEV] = { 0 };

		keep[0] = keep[2] = keep[n - 1] = 1;
		CU_ASSERT_EQUAL(tdat_page_cut_keep(f, page, ps, keep, n, out,
						   0, &err), 3);
		page_events(f, out, ps, out_ev, &missed);
		CU_ASSERT_EQUAL(missed, 1234);
		CU_ASSERT(tail_is_zero(f, out, ps));
		keep[0] = 0;
		keep[1] = 1;
		CU_ASSERT_EQUAL(tdat_page_cut_keep(f, page, ps, keep, n, out,
						   0, &err), 3);
		page_events(f, out, ps, out_ev, &missed);
		CU_ASSERT_EQUAL(missed, 0);
		CU_ASSERT(tail_is_zero(f, out, ps));
	}

	/* flag without a count */
	tdat_put64(f, page + 8, c | (1ull << 31));
	CU_ASSERT_EQUAL(tdat_page_cut_index(f, page, ps, 0, n, out, 0, &err), n);
	page_events(f, out, ps, out_ev, &missed);
	CU_ASSERT_EQUAL(missed, -1);
	/* nothing kept: an empty page, no claim */
	CU_ASSERT_EQUAL(tdat_page_cut_index(f, page, ps, n, n, out, 0, &err), 0);
	CU_ASSERT_EQUAL(commit_of(f, out), 0);
	free(page);
	free(out);
	tdat_close(f);
}

/* A page rebuilt here: events of a real page with wide and backward gaps. */
static void test_cut_time_items(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	uint32_t ps, hdr;
	uint8_t *page, *out, *stretched;
	struct tdat_page_iter it;
	struct tdat_event ev;
	uint64_t want[MAXEV], shift = 0;
	int n = 0, m, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ps = f->buffers[0].page_size;
	hdr = (uint32_t)f->page_header_size;
	page = first_busy_page(f, 10);
	out = malloc(ps);
	stretched = calloc(1, ps);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	/*
	 * Put a time extend of 2^30 ns before every third event: cutting
	 * in between must re-create the extends from absolute times.
	 */
	{
		uint32_t pos = hdr;
		uint64_t prev;

		tdat_page_iter_init(&it, f, page, ps);
		prev = tdat_get64(f, page);
		memcpy(stretched, page, 8);
		while (tdat_page_iter_next(&it, &ev) == 1 &&
		       pos + 8 + 4 + ev.size + 8 < ps - 64) {
			uint32_t len = (uint32_t)(ev.data - (page + ev.offset)) +
				       ev.size;
			uint32_t delta = (uint32_t)(ev.ts - prev), w;

			if (n % 3 == 2) {
				tdat_put32(f, stretched + pos, 30);
				tdat_put32(f, stretched + pos + 4, 8);
				shift += 8ull << 27;
				pos += 8;
			}
			memcpy(stretched + pos, page + ev.offset, len);
			w = tdat_get32(f, stretched + pos);
			tdat_put32(f, stretched + pos, (w & 0x1F) | delta << 5);
			pos += len;
			want[n++] = ev.ts + shift;
			prev = ev.ts;
		}
		tdat_put64(f, stretched + 8, pos - hdr);
	}
	m = page_events(f, stretched, ps, in_ev, NULL);
	CU_ASSERT_EQUAL_FATAL(m, n);
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(in_ev[i].ts, want[i]);
	for (i = 0; i + 2 <= n; i++) {
		CU_ASSERT_EQUAL(tdat_page_cut_index(f, stretched, ps, i, n, out,
						    0, &err), n - i);
		m = page_events(f, out, ps, out_ev, NULL);
		CU_ASSERT(same_events(in_ev, i, n, out_ev, m));
		CU_ASSERT(tail_is_zero(f, out, ps));
	}
	/* subsets over the extends: every other event, then random ones */
	keep_subsets(f, stretched, ps, out);
	free(page);
	free(out);
	free(stretched);
	tdat_close(f);
}

/*
 * Three time extends of the widest kind in a row between two events: a
 * jump of 3 * (2^59 - 1), more than one extend carries.  Cut and
 * gathered, the second event must keep its time (found by the fuzzer:
 * one extend was written and the high bits were lost).
 */
static void test_cut_wide_jump(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	uint8_t keep[2] = { 1, 1 }, *page, *wide, *out;
	struct tdat_page_fill pf;
	uint32_t ps, pos, next = 0, len;
	int i, m;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ps = f->buffers[0].page_size;
	pos = (uint32_t)f->page_header_size;
	page = first_busy_page(f, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_EQUAL_FATAL(page_events(f, page, ps, in_ev, NULL) >= 2, 1);
	wide = calloc(1, ps);
	out = malloc(ps);
	memcpy(wide, page, 8);
	for (i = 0; i < 2; i++) {
		const uint8_t *item = in_ev[i].data - 4;	/* small events */

		len = 4 + in_ev[i].size;
		memcpy(wide + pos, item, len);
		tdat_put32(f, wide + pos, tdat_get32(f, item) & 0x1F);
		pos += len;
		for (; i == 0 && pos < (uint32_t)f->page_header_size + len + 24;
		     pos += 8) {
			tdat_put32(f, wide + pos, 0xFFFFFFE0u | 30);
			tdat_put32(f, wide + pos + 4, 0xFFFFFFFFu);
		}
	}
	tdat_put64(f, wide + 8, pos - (uint32_t)f->page_header_size);
	CU_ASSERT_EQUAL_FATAL(page_events(f, wide, ps, in_ev, NULL), 2);
	CU_ASSERT_EQUAL(in_ev[1].ts - in_ev[0].ts, 3 * ((1ull << 59) - 1));
	CU_ASSERT_EQUAL(tdat_page_cut_index(f, wide, ps, 0, 2, out, 0, &err),
			2);
	m = page_events(f, out, ps, out_ev, NULL);
	CU_ASSERT(same_events(in_ev, 0, 2, out_ev, m));
	tdat_page_fill_init(f, &pf, out, ps);
	CU_ASSERT_EQUAL(tdat_page_fill_keep(f, &pf, wide, keep, 2, &next, 0,
					    &err), 1);
	tdat_page_fill_finish(f, &pf);
	m = page_events(f, out, ps, out_ev, NULL);
	CU_ASSERT(same_events(in_ev, 0, 2, out_ev, m));
	free(page);
	free(wide);
	free(out);
	tdat_close(f);
}

/* A corrupt page is refused with the offset given. */
static void test_cut_corrupt(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	uint32_t ps;
	uint8_t *page, *out;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ps = f->buffers[0].page_size;
	page = first_busy_page(f, 1);
	out = malloc(ps);
	tdat_put64(f, page + 8, ps * 2);
	CU_ASSERT_EQUAL(tdat_page_cut_index(f, page, ps, 0, 5, out, 4096, &err),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "offset 4096"));
	free(page);
	free(out);
	tdat_close(f);
}

/* ---- gathering kept events of many pages (tdat_page_fill_*) ---- */

struct gathered {
	uint8_t *bytes;		/* payloads one after the other */
	size_t n, cap, nb, bcap;
	uint64_t *ts;
	uint32_t *size;
};

static void gathered_add(struct gathered *g, const struct evcopy *e)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->ts = realloc(g->ts, g->cap * sizeof(*g->ts));
		g->size = realloc(g->size, g->cap * sizeof(*g->size));
	}
	if (g->nb + e->size > g->bcap) {
		g->bcap = (g->bcap + e->size) * 2;
		g->bytes = realloc(g->bytes, g->bcap);
	}
	memcpy(g->bytes + g->nb, e->data, e->size);
	g->nb += e->size;
	g->ts[g->n] = e->ts;
	g->size[g->n++] = e->size;
}

/* The finished page checked against the kept events from *at on. */
static void check_filled(const struct tdat_file *f, struct tdat_page_fill *pf,
			 const struct gathered *want, size_t *at, size_t *pos)
{
	uint32_t ps = pf->size;
	int m, i;

	tdat_page_fill_finish(f, pf);
	m = page_events(f, pf->page, ps, out_ev, NULL);
	CU_ASSERT_EQUAL(m, (int)pf->nev);
	CU_ASSERT(tail_is_zero(f, pf->page, ps));
	if (m > 0)
		CU_ASSERT_EQUAL(tdat_get64(f, pf->page), out_ev[0].ts);
	for (i = 0; i < m && *at < want->n; i++, (*at)++) {
		CU_ASSERT_EQUAL(out_ev[i].ts, want->ts[*at]);
		CU_ASSERT_EQUAL(out_ev[i].size, want->size[*at]);
		CU_ASSERT(!memcmp(out_ev[i].data, want->bytes + *pos,
				  want->size[*at]));
		*pos += want->size[*at];
	}
	CU_ASSERT_EQUAL(i, m);
}

/*
 * Every page of every CPU of a fixture: a pseudo-random subset of its
 * events gathered into shared pages (every third page item by item),
 * which must give back exactly the kept events in order.
 */
static void fill_fixture(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	static uint8_t keep[MAXEV];
	int b, c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (b = 0; b < f->nbuffers; b++) {
		uint32_t ps = f->buffers[b].page_size;
		uint8_t *out = malloc(ps);

		for (c = 0; c < f->buffers[b].ncpus; c++) {
			struct gathered want = { 0 };
			struct tdat_page_fill pf;
			struct tdat_cpu_reader *r;
			const uint8_t *page;
			size_t at = 0, pos = 0, k = 0;
			uint64_t off;
			int n, i, got;

			if (!f->buffers[b].cpus[c].size)
				continue;
			r = tdat_cpu_open(f, b, c, &err);
			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			tdat_page_fill_init(f, &pf, out, ps);
			while (tdat_cpu_next_page(r, &page, &off, &err) == 1) {
				uint32_t next = 0;

				n = page_events(f, page, ps, in_ev, NULL);
				for (i = 0; i < n; i++) {
					keep[i] = (rnd() % 3) != 0;
					if (keep[i])
						gathered_add(&want, &in_ev[i]);
				}
				if (k++ % 3 == 2) {
					struct tdat_page_iter it;
					struct tdat_event ev;

					tdat_page_iter_init(&it, f, page, ps);
					for (i = 0; tdat_page_iter_next(&it, &ev) == 1;
					     i++) {
						const uint8_t *item = page + ev.offset;
						uint32_t len = (uint32_t)(ev.data - item) +
							       ev.size;

						if (!keep[i])
							continue;
						got = tdat_page_fill_item(f, &pf, item,
									  len, ev.ts);
						if (!got) {
							check_filled(f, &pf, &want, &at, &pos);
							tdat_page_fill_init(f, &pf, out, ps);
							got = tdat_page_fill_item(f, &pf, item,
										  len, ev.ts);
						}
						CU_ASSERT_EQUAL(got, 1);
					}
					continue;
				}
				while ((got = tdat_page_fill_keep(f, &pf, page, keep,
							(uint32_t)n, &next, off,
							&err)) == 0) {
					check_filled(f, &pf, &want, &at, &pos);
					tdat_page_fill_init(f, &pf, out, ps);
				}
				CU_ASSERT_EQUAL(got, 1);
			}
			check_filled(f, &pf, &want, &at, &pos);
			CU_ASSERT_EQUAL(at, want.n);
			CU_ASSERT(want.n > 0);
			tdat_cpu_close(r);
			free(want.bytes);
			free(want.ts);
			free(want.size);
		}
		free(out);
	}
	tdat_close(f);
}

static void test_fill(void)
{
	fill_fixture("v6-sched-irq.dat");
	fill_fixture("v7-zstd-markers-raw_syscalls.dat");
	fill_fixture("v7-zstd-2inst-irq-top-sched-inst1.dat");
}

/* A missed-events mark goes only at the start of a gathered page. */
static void test_fill_missed(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	struct tdat_page_fill pf;
	uint8_t keep[MAXEV], *page, *marked, *out;
	uint32_t ps, next = 0;
	int64_t missed;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ps = f->buffers[0].page_size;
	page = first_busy_page(f, 10);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	marked = malloc(ps);
	out = malloc(ps);
	memcpy(marked, page, ps);
	mark_missed(f, marked, ps, 77);
	n = page_events(f, page, ps, in_ev, NULL);
	memset(keep, 0, sizeof(keep));
	keep[n - 1] = 1;
	/* one event of another page first: the marked page must wait */
	tdat_page_fill_init(f, &pf, out, ps);
	CU_ASSERT_EQUAL(tdat_page_fill_keep(f, &pf, page, keep, n, &next, 0,
					    &err), 1);
	memset(keep, 1, sizeof(keep));
	next = 0;
	CU_ASSERT_EQUAL(tdat_page_fill_keep(f, &pf, marked, keep, n, &next, 0,
					    &err), 0);
	CU_ASSERT_EQUAL(next, 0);
	tdat_page_fill_finish(f, &pf);
	CU_ASSERT_EQUAL(page_events(f, out, ps, out_ev, &missed), 1);
	CU_ASSERT_EQUAL(missed, 0);
	/* in a page of its own the mark and its count stay */
	tdat_page_fill_init(f, &pf, out, ps);
	CU_ASSERT_EQUAL(tdat_page_fill_keep(f, &pf, marked, keep, n, &next, 0,
					    &err), 1);
	tdat_page_fill_finish(f, &pf);
	CU_ASSERT_EQUAL(page_events(f, out, ps, out_ev, &missed), n);
	CU_ASSERT_EQUAL(missed, 77);
	CU_ASSERT(tail_is_zero(f, out, ps));
	free(page);
	free(marked);
	free(out);
	tdat_close(f);
}

void suite_pagecut(void)
{
	CU_pSuite s = CU_add_suite("pagecut", NULL, NULL);

	CU_add_test(s, "cut every v6 page at many ranges", test_cut_v6);
	CU_add_test(s, "cut every v7 page at many ranges", test_cut_v7);
	CU_add_test(s, "missed events stay with the first event",
		    test_cut_missed);
	CU_add_test(s, "time extends re-created", test_cut_time_items);
	CU_add_test(s, "a jump wider than one time extend",
		    test_cut_wide_jump);
	CU_add_test(s, "corrupt page refused", test_cut_corrupt);
	CU_add_test(s, "kept events of many pages gathered", test_fill);
	CU_add_test(s, "missed events mark starts a gathered page",
		    test_fill_missed);
}
