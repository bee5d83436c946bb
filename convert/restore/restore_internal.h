/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_internal.h - what restore's files share (private to
 * convert/restore/; the interface is restore.h): the page filter that
 * keeps every genuine page, drops the rest and says so.
 *
 *   restore_pages.c  the page filter: pages in, checked (tdat_page_check),
 *                    good ones batched to a writer, runs of dropped ones
 *                    told as one line each
 *   salvage.c        a damaged trace.dat -> a valid one (restore -o OUT IN),
 *                    with restore_search.c and restore_copy.c
 *                    (salvage_internal.h)
 *   assemble.c       raw page files -> a trace.dat
 *   restore_order.c  which of a raw file's pages are out of time order
 *
 * Calls go one way: assemble.c and the salvage files call the page
 * filter and restore_say; restore_pages.c calls neither of them.
 */
#ifndef TDAT_RESTORE_INTERNAL_H
#define TDAT_RESTORE_INTERNAL_H

#include "convert/restore/restore.h"
#include "libfmt/salvage.h"

/* ---- restore_pages.c ---- */

struct page_filter {
	const struct tdat_file *f;	/* page header layout, byte order */
	const struct tdat_event_ids *ids;
	struct tdat_writer *w;
	const struct convert_opts *o;	/* o->warn gets the drop lines */
	uint32_t page_size;

	/* where the pages come from, for messages */
	const char *file;
	const char *buffer;
	int cpu;

	/* totals of this stream */
	uint64_t kept, events, empty, bad, dropped_bytes;

	/* private */
	uint8_t *batch;
	size_t n, cap;
	int run_kind;		/* TDAT_PAGE_EMPTY or _BAD: a pending run */
	const char *run_why;
	uint64_t run_off;	/* first page: file offset, or index in chunk */
	uint64_t run_chunk;	/* its chunk's file offset, 0 if raw */
	uint64_t run_pages;
};

/* Ready for one CPU stream (the writer is between begin and end_cpu). */
int pf_init(struct page_filter *pf, const struct tdat_file *f,
	    const struct tdat_event_ids *ids, struct tdat_writer *w,
	    const struct convert_opts *o, uint32_t page_size,
	    const char *file, const char *buffer, int cpu,
	    struct tdat_error *err);
/*
 * One page: kept (batched to the writer) or dropped.  off is its file
 * offset; for a page out of a compressed chunk, chunk_off is the chunk's
 * file offset and off the page's index in it (else chunk_off is 0).
 */
int pf_page(struct page_filter *pf, const uint8_t *page, uint64_t off,
	    uint64_t chunk_off, struct tdat_error *err);
/* A raw page at off that looks genuine but is dropped for why (a
 * string that lives on: runs are joined by its address). */
void pf_reject(struct page_filter *pf, uint64_t off, const char *why);
/* Bytes that are not pages: told at once as dropped. */
void pf_drop(struct page_filter *pf, uint64_t off, uint64_t bytes,
	     const char *why);
/* Everything kept out to the writer, the last run told. */
int pf_flush(struct page_filter *pf, struct tdat_error *err);
void pf_free(struct page_filter *pf);

/* ---- restore_order.c ---- */

/* The genuine pages among the first size bytes of the raw file fd (pf's
 * page size, layout and ids) that are not on its longest run in time
 * order: *drop gets a byte per page, 1 for those (malloc'd), or NULL
 * when every genuine page is in order (the usual file). */
int order_plan(const struct page_filter *pf, int fd, uint64_t size,
	       uint8_t **drop, struct tdat_error *err);

/* A line to o->warn (if any), kept on one printable line. */
void restore_say(const struct convert_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Same, as "FILE: offset OFF: what" (tdat_fail's form). */
void restore_say_at(const struct convert_opts *o, const char *file,
		    uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
