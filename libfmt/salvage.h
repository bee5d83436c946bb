/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * salvage.h - reading damaged files and raw pages (restore).
 *
 * Strict page checks against the event ids a file declares, and an
 * open that goes as far as a damaged file allows.
 */
#ifndef LIBFMT_SALVAGE_H
#define LIBFMT_SALVAGE_H

#include "libfmt/tracedat.h"

/* The event ids the file's formats declare (a bitmap over u16). */
struct tdat_event_ids {
	uint8_t known[8192];
	int count;		/* 0: no formats, every id passes */
};
int tdat_event_ids_load(const struct tdat_file *f, struct tdat_event_ids *ids,
			struct tdat_error *err);
int tdat_event_id_known(const struct tdat_event_ids *ids, uint16_t id);

enum { TDAT_PAGE_OK = 0, TDAT_PAGE_EMPTY = 1, TDAT_PAGE_BAD = 2 };
struct tdat_page_check {
	int nevents;		/* data events */
	uint64_t page_ts;	/* the header's time stamp */
	uint64_t last_ts;	/* after the last item */
	const char *why;	/* EMPTY or BAD: what is wrong, for messages */
};
/*
 * Strictly check a page as the kernel writes it: commit within the page
 * and no reserved bit set, items walking exactly to the commit, every
 * data event of a known id (ids may be NULL), absolute stamps not before
 * the page's.  TDAT_PAGE_OK with events, TDAT_PAGE_EMPTY (commit 0 or no
 * event), or TDAT_PAGE_BAD.
 */
int tdat_page_check(const struct tdat_file *f, const uint8_t *page,
		    uint32_t page_size, const struct tdat_event_ids *ids,
		    struct tdat_page_check *pc);

/*
 * Open a damaged file as far as it goes (salvage_scan.c): metadata where
 * intact, buffers as far as their descriptions survive.  v7 sections are
 * found by walking their headers; buffer sections whose BUFFER option is
 * lost come back in s->lost (byte ranges to search), and s->notes say
 * where the walk stopped or what it skipped.  The buffers of f may point
 * past the end of the file.  Close with tdat_close and tdat_salvage_free.
 */
#define TDAT_SALVAGE_NOTES 32
struct tdat_salvage_note {
	uint64_t offset;
	char text[400];
};
struct tdat_salvage_section {
	uint64_t offset;	/* section header */
	uint64_t body, end;	/* body, cut at the end of the file */
	uint16_t id, flags;
	int32_t string_id;
	const char *description;/* from the strings table (in f), or NULL */
};
struct tdat_salvage {
	int nlost;
	struct tdat_salvage_section *lost;
	int nnotes;
	struct tdat_salvage_note notes[TDAT_SALVAGE_NOTES];
};
struct tdat_file *tdat_open_salvage(const char *path, struct tdat_salvage *s,
				    struct tdat_error *err);
void tdat_salvage_free(struct tdat_salvage *s);
/* Bytes at off (all n, or -1), and one chunk decompressed to usize bytes
 * with f's codec (0, or -1 if corrupt). */
int tdat_salvage_read(const struct tdat_file *f, uint64_t off, void *buf,
		      size_t n, struct tdat_error *err);
int tdat_salvage_decompress(const struct tdat_file *f, const void *in,
			    size_t n, void *out, size_t usize);

#endif
