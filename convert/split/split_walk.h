/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split_walk.h - one stream (buffer x CPU) walked event by event for
 * split's plan (split_walk.c), with the skip over whole pages that a
 * time split makes where no cut can fall.
 */
#ifndef SPLIT_WALK_H
#define SPLIT_WALK_H

#include <stdint.h>
#include "convert/split/split.h"
#include "libfmt/chunkindex.h"
#include "libfmt/bytes.h"

/* What the walkers share: the adjustment, the decoder, a chunk buffer. */
struct walk_shared {
	struct tdat_ts_adjust adj;
	int raw;		/* adj changes nothing (most files) */
	struct tdat_chunk_decoder *dec;
	uint8_t *cbuf;		/* the stored chunk being decoded */
	size_t ccap;
	uint8_t *probe;		/* a page read to see where it starts */
	size_t pcap;
};

/* One stream being walked. */
struct walker {
	struct walk_shared *sh;
	struct tdat_cpu_reader *r;
	struct tdat_page_iter it;
	uint32_t page_size;
	uint64_t page;		/* index of the page in it */
	uint32_t ev;		/* index of the next event in that page */
	int have_page;
	/* uncompressed streams are read RAW_SPAN pages at a time, so that
	 * hundreds of open walkers hold little memory */
	struct tdat_file *in;
	int buf, idx;
	uint64_t raw_next, raw_pages;	/* next page to open at, total */
	/* compressed streams: the decoded chunk, and the header walk (a
	 * position, no buffer) to the next one */
	int compressed;
	struct tdat_chunk_pages cp;
	uint64_t page_off;	/* of the page in the file, or of its chunk */
	int done;
	struct tdat_event cur;	/* the next event, when !done */
	uint64_t ts;		/* its adjusted time */
	struct split_pos at;	/* its position */

	/* what the plan learnt */
	int last;		/* last piece given an event, -1 none */
	int stopped;		/* no more events belong to any piece */
	uint64_t window;	/* -c time: end of this stream's window */
	uint64_t count;		/* -c events: events in its current piece */
	uint64_t first_page;	/* -p: page of its first piece */
	struct split_pos *starts;	/* starts[k] for k <= last */
	int cap;
};

/* Open w's stream: (compressed) find its chunks, or open its next span. */
int split_walk_open(struct walker *w, struct tdat_error *err);
/* Step to the next event: 1, 0 at the end of the stream, -1 on error. */
int split_walk_next(struct tdat_file *in, struct walker *w,
		    struct tdat_error *err);
/* Like split_walk_next, but first past the pages (the rest of the
 * current one too) whose events are all at or before limit, when w's
 * stream allows it (split_walk.c says when). */
int split_walk_next_after(struct tdat_file *in, struct walker *w,
			  uint64_t limit, struct tdat_error *err);

#endif
