/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pagecut.c - keep part of a ring-buffer page (FORMAT.md 7): the events
 * of an index or timestamp range, or any chosen subset of them,
 * re-encoded as a valid page of its own; or kept events of several pages
 * gathered into one (tdat_page_fill_*).
 *
 * The kept events are copied item by item (header word, array[0] of
 * long events, payload) with their deltas recomputed from absolute
 * timestamps, so every kept event has exactly its old time:
 *   - the page header timestamp becomes the first kept event's time and
 *     that event's delta is 0;
 *   - a later delta that does not fit 27 bits gets a time-extend item
 *     (several when it does not fit the 59 bits of one), a time that
 *     goes backwards an absolute-timestamp item;
 *   - the input's time-extend, absolute-timestamp and padding items are
 *     not copied (they only carried time, or discarded events);
 *   - the missed-events flags of the commit word (and a stored count)
 *     stay only when the first kept event is the page's first event:
 *     the drop happened before that event, so only the piece holding it
 *     may claim it;
 *   - commit = bytes of kept items; the rest of the page is zero.
 * Kept events never need more room than they had, but the size is
 * checked anyway.
 */
#include <string.h>
#include "libfmt/internal.h"

#define COMMIT_MASK	0x07FFFFFFull
#define MISSED_EVENTS	(1ull << 31)
#define MISSED_STORED	(1ull << 30)
#define DELTA_MAX	0x07FFFFFFull
#define EXTEND_MAX	((1ull << 59) - 1)	/* what one time extend adds */
#define TYPE_EXTEND	30
#define TYPE_STAMP	31

struct cut_out {
	const struct tdat_file *f;
	uint8_t *page;
	uint32_t pos;		/* next free byte, from page start */
	uint32_t size;
	uint64_t ts;		/* time of the last kept event */
	int nkept;
};

static uint32_t header_word(const struct tdat_file *f, uint32_t type_len,
			    uint32_t delta)
{
	if (f->big_endian)
		return type_len << 27 | (delta & (uint32_t)DELTA_MAX);
	return (delta & (uint32_t)DELTA_MAX) << 5 | type_len;
}

static uint32_t type_len_of(const struct tdat_file *f, const uint8_t *p)
{
	uint32_t w = tdat_get32(f, p);

	return f->big_endian ? w >> 27 : w & 0x1F;
}

static int room(struct cut_out *o, uint32_t n)
{
	return o->pos + n <= o->size;
}

/* Time extends a forward jump of d needs: a page may hold several in a
 * row, and a jump wider than one carries (59 bits) must keep them all. */
static uint32_t extends_for(uint64_t d)
{
	return (uint32_t)((d - 1) / EXTEND_MAX + 1);
}

/* A time item (extend or absolute stamp) carrying v in 59 bits. */
static int put_time_item(struct cut_out *o, uint32_t type, uint64_t v)
{
	uint8_t *p = o->page + o->pos;

	if (!room(o, 8))
		return -1;
	tdat_put32(o->f, p, header_word(o->f, type, (uint32_t)(v & DELTA_MAX)));
	tdat_put32(o->f, p + 4, (uint32_t)(v >> 27));
	o->pos += 8;
	return 0;
}

/* One kept event: its item with a new delta. */
static int put_event(struct cut_out *o, const uint8_t *page,
		     const struct tdat_event *ev)
{
	const uint8_t *item = page + ev->offset;
	uint32_t hdr = (uint32_t)(ev->data - item);	/* 4, or 8 with array[0] */
	uint32_t len = hdr + (ev->size + 3) / 4 * 4;
	uint64_t delta = 0;
	uint8_t *p;

	if (o->nkept) {
		if (ev->ts < o->ts) {
			/* Back in time: only an absolute stamp can say it. */
			if ((ev->ts ^ o->ts) >> 59 ||
			    put_time_item(o, TYPE_STAMP, ev->ts))
				return -1;
		} else if (ev->ts - o->ts > DELTA_MAX) {
			uint64_t d = ev->ts - o->ts, step;

			for (; d; d -= step) {
				step = d < EXTEND_MAX ? d : EXTEND_MAX;
				if (put_time_item(o, TYPE_EXTEND, step))
					return -1;
			}
		} else {
			delta = ev->ts - o->ts;
		}
	}
	if (!room(o, len))
		return -1;
	p = o->page + o->pos;
	memcpy(p, item, len);
	tdat_put32(o->f, p, header_word(o->f, type_len_of(o->f, item),
					(uint32_t)delta));
	o->pos += len;
	o->ts = ev->ts;
	o->nkept++;
	return 0;
}

static void put_commit(const struct tdat_file *f, uint8_t *p, uint64_t v)
{
	if (f->commit_size == 4)
		tdat_put32(f, p + 8, (uint32_t)v);
	else
		tdat_put64(f, p + 8, v);
}

enum cut_by { CUT_INDEX, CUT_TIME, CUT_KEEP };

/* What to keep: an index range [lo, hi), a time range [lo, hi], or the
 * events whose keep[] byte is set (index < nkeep). */
struct cut_what {
	enum cut_by by;
	uint64_t lo, hi;
	const uint8_t *keep;
	uint32_t nkeep;
};

static int kept(const struct cut_what *w, uint64_t idx, uint64_t ts)
{
	switch (w->by) {
	case CUT_INDEX:
		return idx >= w->lo && idx < w->hi;
	case CUT_TIME:
		return ts >= w->lo && ts <= w->hi;
	default:
		return idx < w->nkeep && w->keep[idx];
	}
}

static int cut_page(const struct tdat_file *f, const uint8_t *in,
		    uint32_t page_size, const struct cut_what *what,
		    uint8_t *out, uint64_t where, struct tdat_error *err)
{
	uint32_t hdr = (uint32_t)f->page_header_size;
	struct cut_out o = { f, out, hdr, page_size, 0, 0 };
	struct tdat_page_iter it;
	struct tdat_event ev;
	uint64_t commit, incommit, idx = 0;
	int first_kept = 0, got;

	if (page_size <= hdr || hdr < 8 + (uint32_t)f->commit_size)
		return tdat_fail(err, f->path, where, "cannot cut a page of %u"
				 " bytes with a %u-byte header", page_size,
				 hdr);
	if (tdat_page_iter_init(&it, f, in, page_size))
		return tdat_fail(err, f->path, where, "page commit is larger"
				 " than the page");
	memset(out, 0, page_size);
	while ((got = tdat_page_iter_next(&it, &ev)) == 1) {
		int keep = kept(what, idx, ev.ts);

		if (keep && !o.nkept) {
			first_kept = idx == 0;
			tdat_put64(f, out, ev.ts);
		}
		if (keep && put_event(&o, in, &ev))
			return tdat_fail(err, f->path, where, "kept events do"
					 " not fit a page (time stamps run"
					 " backwards too far?)");
		idx++;
	}
	if (got < 0)
		return tdat_fail(err, f->path, where + it.pos, "corrupt event"
				 " in the page");
	if (!o.nkept)
		tdat_put64(f, out, tdat_get64(f, in));
	commit = o.pos - hdr;
	incommit = f->commit_size == 4 ? tdat_get32(f, in + 8) :
					 tdat_get64(f, in + 8);
	if (first_kept && o.nkept && (incommit & MISSED_EVENTS)) {
		uint32_t count_at = hdr + (uint32_t)(incommit & COMMIT_MASK);
		uint32_t w = (uint32_t)f->commit_size;

		commit |= MISSED_EVENTS;
		if ((incommit & MISSED_STORED) && room(&o, w) &&
		    count_at + w <= page_size) {
			commit |= MISSED_STORED;
			memcpy(out + o.pos, in + count_at, w);
		}
	}
	put_commit(f, out, commit);
	return o.nkept;
}

int tdat_page_cut_index(const struct tdat_file *f, const uint8_t *in,
			uint32_t page_size, uint32_t first, uint32_t last,
			uint8_t *out, uint64_t where, struct tdat_error *err)
{
	struct cut_what w = { CUT_INDEX, first, last, NULL, 0 };

	return cut_page(f, in, page_size, &w, out, where, err);
}

int tdat_page_cut_time(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, uint64_t lo, uint64_t hi,
		       uint8_t *out, uint64_t where, struct tdat_error *err)
{
	struct cut_what w = { CUT_TIME, lo, hi, NULL, 0 };

	return cut_page(f, in, page_size, &w, out, where, err);
}

int tdat_page_cut_keep(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, const uint8_t *keep, uint32_t nkeep,
		       uint8_t *out, uint64_t where, struct tdat_error *err)
{
	struct cut_what w = { CUT_KEEP, 0, 0, keep, nkeep };

	return cut_page(f, in, page_size, &w, out, where, err);
}

/* ---- gathering kept events of several pages into one ---- */

/* Bytes ev needs after an event at ts (n events so far): its item, and
 * a time item when its delta does not fit; 0 if it cannot follow. */
static uint32_t need_of(const uint8_t *page, const struct tdat_event *ev,
			uint32_t n, uint64_t ts)
{
	const uint8_t *item = page + ev->offset;
	uint32_t len = (uint32_t)(ev->data - item) + (ev->size + 3) / 4 * 4;

	if (!n || (ev->ts >= ts && ev->ts - ts <= DELTA_MAX))
		return len;
	if (ev->ts < ts)
		return (ev->ts ^ ts) >> 59 ? 0 : len + 8;
	return len + 8 * extends_for(ev->ts - ts);
}

void tdat_page_fill_init(const struct tdat_file *f, struct tdat_page_fill *pf,
			 uint8_t *page, uint32_t page_size)
{
	memset(pf, 0, sizeof(*pf));
	pf->page = page;
	pf->size = page_size;
	pf->end = page_size;
	pf->pos = (uint32_t)f->page_header_size;
	memset(page, 0, page_size);
}

/* in's missed-events flags and stored count go to the empty page pf. */
static void take_missed(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *in, uint64_t incommit)
{
	uint32_t w = (uint32_t)f->commit_size;
	uint32_t at = (uint32_t)f->page_header_size +
		      (uint32_t)(incommit & COMMIT_MASK);

	pf->missed = MISSED_EVENTS;
	if ((incommit & MISSED_STORED) && at + w <= pf->size &&
	    pf->end >= pf->pos + w) {
		pf->missed |= MISSED_STORED;
		memcpy(pf->count, in + at, w);
		pf->end -= w;	/* the count goes after the events */
	}
}

int tdat_page_fill_keep(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *in, const uint8_t *keep, uint32_t nkeep,
			uint32_t *next, uint64_t where, struct tdat_error *err)
{
	struct cut_out o = { f, pf->page, pf->pos, pf->end, pf->ts,
			     (int)pf->nev };
	struct tdat_page_iter it;
	struct tdat_event ev;
	uint64_t incommit, idx = 0;
	uint32_t need;
	int got, r = 1;

	if (tdat_page_iter_init(&it, f, in, pf->size))
		return tdat_fail(err, f->path, where, "page commit is larger"
				 " than the page");
	incommit = f->commit_size == 4 ? tdat_get32(f, in + 8) :
					 tdat_get64(f, in + 8);
	while ((got = tdat_page_iter_next(&it, &ev)) == 1) {
		if (idx < *next || idx >= nkeep || !keep[idx]) {
			idx++;
			continue;
		}
		/* a drop before the page's first event: only a page
		 * starting with that event can say so */
		if (idx == 0 && (incommit & MISSED_EVENTS) && o.nkept) {
			r = 0;
			break;
		}
		need = need_of(in, &ev, (uint32_t)o.nkept, o.ts);
		if (!need || o.pos + need > o.size) {
			if (!o.nkept)
				return tdat_fail(err, f->path, where, "event"
						 " does not fit a page");
			r = 0;
			break;
		}
		if (!o.nkept) {
			tdat_put64(f, pf->page, ev.ts);
			if (idx == 0 && (incommit & MISSED_EVENTS)) {
				take_missed(f, pf, in, incommit);
				o.size = pf->end;
			}
		}
		if (put_event(&o, in, &ev))
			return tdat_fail(err, f->path, where, "kept events do"
					 " not fit a page");
		idx++;
		*next = (uint32_t)idx;
	}
	if (got < 0)
		return tdat_fail(err, f->path, where + it.pos, "corrupt event"
				 " in the page");
	if (r)
		*next = nkeep;
	pf->pos = o.pos;
	pf->ts = o.ts;
	pf->nev = (uint32_t)o.nkept;
	return r;
}

void tdat_page_fill_finish(const struct tdat_file *f,
			   struct tdat_page_fill *pf)
{
	uint32_t hdr = (uint32_t)f->page_header_size;

	if (pf->missed & MISSED_STORED)
		memcpy(pf->page + pf->pos, pf->count, (size_t)f->commit_size);
	put_commit(f, pf->page, (pf->pos - hdr) | pf->missed);
}

int tdat_page_fill_item(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *item, uint32_t len, uint64_t ts)
{
	struct cut_out o = { f, pf->page, pf->pos, pf->end, pf->ts,
			     (int)pf->nev };
	struct tdat_event ev;
	uint32_t need;

	if (len < 4 || len % 4)
		return -1;
	/* as an event of a page starting at item: len bytes copied */
	ev.ts = ts;
	ev.offset = 0;
	ev.data = item + 4;
	ev.size = len - 4;
	need = need_of(item, &ev, pf->nev, pf->ts);
	if (!need || pf->pos + need > pf->end)
		return pf->nev ? 0 : -1;	/* full, or cannot go at all */
	if (!pf->nev)
		tdat_put64(f, pf->page, ts);
	if (put_event(&o, item, &ev))
		return -1;
	pf->pos = o.pos;
	pf->ts = o.ts;
	pf->nev = (uint32_t)o.nkept;
	return 1;
}
