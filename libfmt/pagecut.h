/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pagecut.h - new pages made of some events of others (pagecut.c).
 *
 * For engines that cut a trace by time or event (split) or gather the
 * events of several pages into one (merge), keeping every timestamp.
 */
#ifndef LIBFMT_PAGECUT_H
#define LIBFMT_PAGECUT_H

#include "libfmt/tracedat.h"

/*
 * Write into out (page_size bytes) a valid page holding only some data
 * events of the page in, each with exactly its old absolute timestamp:
 *   tdat_page_cut_index keeps the events whose index (0-based, in the
 *     order tdat_page_iter_next yields them) is in [first, last);
 *   tdat_page_cut_time keeps those with lo <= ts <= hi (both inclusive).
 * The page header timestamp becomes the first kept event's time (delta
 * 0); time extends are added where deltas need them; the input's
 * time-extend, absolute-timestamp and padding items are dropped.  The
 * missed-events flags (and a stored count) stay only if the first kept
 * event is the page's first event: a drop belongs to the piece holding
 * the event after it.  commit = bytes kept, the tail is zero.  With
 * nothing kept, out is an empty page (commit 0, in's timestamp).
 * Returns the number of events kept, or -1 (err: f's path, offset
 * where, i.e. the page's file offset, or its position in the
 * uncompressed stream).  in and out must not overlap.
 */
int tdat_page_cut_index(const struct tdat_file *f, const uint8_t *in,
			uint32_t page_size, uint32_t first, uint32_t last,
			uint8_t *out, uint64_t where, struct tdat_error *err);
int tdat_page_cut_time(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, uint64_t lo, uint64_t hi,
		       uint8_t *out, uint64_t where, struct tdat_error *err);
/*
 * Like tdat_page_cut_index, keeping the events whose keep[index] is
 * non-zero (index < nkeep; later events are dropped): any subset, in
 * one page, in their order.
 */
int tdat_page_cut_keep(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, const uint8_t *keep, uint32_t nkeep,
		       uint8_t *out, uint64_t where, struct tdat_error *err);

/*
 * One page gathering kept events of several pages, in order, each with
 * exactly its old timestamp (as the cuts above).  init empties page;
 * fill_keep appends the events of in with index >= *next whose keep[]
 * is set (index < nkeep) while they fit: 1 when all went in, 0 when the
 * page is full (*next: the first left out; finish the page and go on
 * in a new one), -1 if in is corrupt.  A page's missed-events mark
 * stays only at the start of a page (fill_keep says 0 when it comes
 * later).  finish writes the commit word.
 */
struct tdat_page_fill {
	uint8_t *page;
	uint32_t size;		/* page size */
	uint32_t pos;		/* next free byte */
	uint32_t end;		/* events end before (a missed count after) */
	uint64_t ts;		/* time of the last event */
	uint32_t nev;		/* events in the page */
	uint64_t missed;	/* commit flags */
	uint8_t count[8];	/* stored missed count */
};
void tdat_page_fill_init(const struct tdat_file *f, struct tdat_page_fill *pf,
			 uint8_t *page, uint32_t page_size);
int tdat_page_fill_keep(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *in, const uint8_t *keep, uint32_t nkeep,
			uint32_t *next, uint64_t where, struct tdat_error *err);
void tdat_page_fill_finish(const struct tdat_file *f,
			   struct tdat_page_fill *pf);
/* One event item (len bytes: header word(s) and payload, as in a page)
 * at time ts appended: 1, 0 if the page is full, -1 if it cannot go. */
int tdat_page_fill_item(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *item, uint32_t len, uint64_t ts);

#endif
