/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_pages.c - libFuzzer target for ring-buffer page decoding and
 * re-encoding (`make fuzz`): libfmt/events.c, salvage_page.c, pagecut.c.
 *
 * Input: a config byte (bit 0 big endian, bit 1 a 32-bit kernel's
 * 4-byte commit word and 12-byte page header, bits 2-3 the page size
 * 4096/256/1024/65536, bit 4 no event-id list for the strict check), a
 * u32 parameter (little endian), then the page (cut or zero-padded to
 * the page size).  The page is decoded by the iterator and by the
 * strict check, then cut by index, by time and by a keep mask, and
 * gathered twice into new pages (tdat_page_fill_keep, _item).  Besides
 * sanitizer reports, these must hold (else the target traps):
 *   - every event lies inside the commit area;
 *   - a page the strict check passes decodes cleanly to as many events
 *     and the same final time;
 *   - whatever a cut or a fill keeps decodes again to exactly the kept
 *     events: same timestamps, same payload bytes, same order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"
#include "libfmt/pagecut.h"
#include "libfmt/salvage.h"

#define CHECK(c)	do { if (!(c)) __builtin_trap(); } while (0)

/* The events of a page, as the iterator gives them. */
struct evlist {
	struct tdat_event *ev;
	uint32_t n;
	int clean;		/* the iterator reached the end without -1 */
	uint64_t end_ts;	/* its time after the last item */
};

static void decode(const struct tdat_file *f, const uint8_t *page,
		   uint32_t ps, struct evlist *l)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int r = -1;

	l->n = 0;
	l->clean = 0;
	if (tdat_page_iter_init(&it, f, page, ps))
		return;
	while ((r = tdat_page_iter_next(&it, &ev)) == 1) {
		CHECK(ev.data >= page + f->page_header_size);
		CHECK(ev.data + ev.size <= page + it.end);
		CHECK(it.end <= ps);
		CHECK(l->n < ps / 4);
		l->ev[l->n++] = ev;
	}
	l->clean = r == 0;
	l->end_ts = it.ts;
}

/* out decodes to exactly the events want[idx[0..n)]. */
static void same_events(const struct tdat_file *f, const uint8_t *out,
			uint32_t ps, const struct evlist *want,
			const uint32_t *idx, uint32_t n, struct evlist *got)
{
	uint32_t k;

	decode(f, out, ps, got);
	CHECK(got->clean && got->n == n);
	for (k = 0; k < n; k++) {
		const struct tdat_event *a = &want->ev[idx[k]], *b = &got->ev[k];

		CHECK(a->ts == b->ts && a->size == b->size);
		CHECK(!memcmp(a->data, b->data, a->size));
	}
}

/* The strict check against the iterator. */
static void check_strict(const struct tdat_file *f, const uint8_t *page,
			 uint32_t ps, int use_ids, uint32_t param,
			 const struct evlist *l)
{
	static struct tdat_event_ids ids;
	struct tdat_page_check pc;
	int r;

	memset(&ids, 0, sizeof(ids));
	ids.known[(param & 0xffff) >> 3] |= (uint8_t)(1u << (param & 7));
	ids.known[(param >> 16) >> 3] |= (uint8_t)(1u << ((param >> 16) & 7));
	ids.count = 2;
	r = tdat_page_check(f, page, ps, use_ids ? &ids : NULL, &pc);
	if (r == TDAT_PAGE_EMPTY)
		CHECK(l->clean && l->n == 0);
	if (r == TDAT_PAGE_OK)
		CHECK(l->clean && (uint32_t)pc.nevents == l->n &&
		      pc.last_ts == l->end_ts);
}

/* The three cuts, each against the events it must keep. */
static void check_cuts(const struct tdat_file *f, const uint8_t *page,
		       uint32_t ps, uint32_t param, const struct evlist *l,
		       uint8_t *out, uint32_t *idx, struct evlist *got)
{
	struct tdat_error err;
	uint32_t first = param & 0xff, last = first + (param >> 8 & 0xff);
	uint32_t k, n = 0;
	uint64_t lo, hi;
	uint8_t *keep = calloc(l->n + 1, 1);
	int r;

	if (!keep)
		return;
	r = tdat_page_cut_index(f, page, ps, first, last, out, 0, &err);
	for (k = first; k < last && k < l->n; k++)
		idx[n++] = k;
	if (r >= 0)
		same_events(f, out, ps, l, idx, n, got);
	CHECK(r < 0 || (uint32_t)r == n);

	lo = l->n ? l->ev[(param >> 16) % l->n].ts : 0;
	hi = l->n ? l->ev[(param >> 24) % l->n].ts : 0;
	r = tdat_page_cut_time(f, page, ps, lo, hi, out, 0, &err);
	for (k = n = 0; k < l->n; k++)
		if (l->ev[k].ts >= lo && l->ev[k].ts <= hi)
			idx[n++] = k;
	if (r >= 0)
		same_events(f, out, ps, l, idx, n, got);

	for (k = n = 0; k < l->n; k++)
		if ((keep[k] = (uint8_t)(param >> (k % 32) & 1)))
			idx[n++] = k;
	r = tdat_page_cut_keep(f, page, ps, keep, l->n, out, 0, &err);
	if (r >= 0)
		same_events(f, out, ps, l, idx, n, got);
	free(keep);
}

/* A gathered page is done: it holds the next events of idx. */
static void fill_done(const struct tdat_file *f, struct tdat_page_fill *pf,
		      const struct evlist *l, const uint32_t *idx,
		      uint32_t *done, struct evlist *got)
{
	uint32_t n = pf->nev;

	tdat_page_fill_finish(f, pf);
	same_events(f, pf->page, pf->size, l, idx + *done, n, got);
	*done += n;
	tdat_page_fill_init(f, pf, pf->page, pf->size);
}

/*
 * The page's events gathered twice in a row: first those of the keep
 * mask through fill_keep, then all of them item by item through
 * fill_item.  Pages fill up and start anew; together they must hold
 * the kept events, then all events, in that order.
 */
static void check_fill(const struct tdat_file *f, const uint8_t *page,
		       uint32_t ps, uint32_t param, const struct evlist *l,
		       uint8_t *out, uint32_t *idx, struct evlist *got)
{
	struct tdat_page_fill pf;
	struct tdat_error err;
	uint8_t *keep = calloc(l->n + 1, 1);
	uint32_t k, n = 0, next = 0, done = 0;
	int r;

	if (!keep)
		return;
	for (k = 0; k < l->n; k++)
		if ((keep[k] = (uint8_t)(~param >> (k % 32) & 1)))
			idx[n++] = k;
	for (k = 0; k < l->n; k++)
		idx[n++] = k;
	tdat_page_fill_init(f, &pf, out, ps);
	while ((r = tdat_page_fill_keep(f, &pf, page, keep, l->n, &next, 0,
					&err)) == 0) {
		CHECK(pf.nev > 0);	/* a full page holds something */
		fill_done(f, &pf, l, idx, &done, got);
	}
	for (k = 0; r == 1 && k < l->n; k++) {
		const struct tdat_event *ev = &l->ev[k];
		const uint8_t *item = page + ev->offset;
		uint32_t len = (uint32_t)(ev->data - item) +
			       (ev->size + 3) / 4 * 4;

		r = tdat_page_fill_item(f, &pf, item, len, ev->ts);
		if (r == 0) {
			fill_done(f, &pf, l, idx, &done, got);
			r = tdat_page_fill_item(f, &pf, item, len, ev->ts);
		}
	}
	if (r == 1 && pf.nev)
		fill_done(f, &pf, l, idx, &done, got);
	CHECK(r != 1 || done == n);
	free(keep);
}

static const uint32_t page_sizes[] = { 4096, 256, 1024, 65536 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tdat_error err;
	struct tdat_file *f;
	struct evlist l, got;
	uint32_t ps, param, *idx;
	uint8_t *page, *out;
	int cfg;

	if (size < 5)
		return 0;
	cfg = data[0];
	param = (uint32_t)data[1] | (uint32_t)data[2] << 8 |
		(uint32_t)data[3] << 16 | (uint32_t)data[4] << 24;
	ps = page_sizes[cfg >> 2 & 3];
	f = tdat_meta_new(7, cfg & 1, cfg & 2 ? 4 : 8, ps, &err);
	page = calloc(ps, 1);
	out = malloc(ps);
	l.ev = malloc(ps / 4 * sizeof(*l.ev));
	got.ev = malloc(ps / 4 * sizeof(*got.ev));
	idx = malloc(ps / 2 * sizeof(*idx));
	if (f && page && out && l.ev && got.ev && idx) {
		f->commit_size = cfg & 2 ? 4 : 8;
		f->page_header_size = 8 + f->commit_size;
		memcpy(page, data + 5, size - 5 < ps ? size - 5 : ps);
		decode(f, page, ps, &l);
		check_strict(f, page, ps, !(cfg & 16), param, &l);
		check_cuts(f, page, ps, param, &l, out, idx, &got);
		if (l.clean)
			check_fill(f, page, ps, param, &l, out, idx, &got);
	}
	free(idx);
	free(got.ev);
	free(l.ev);
	free(out);
	free(page);
	if (f)
		tdat_close(f);
	return 0;
}
