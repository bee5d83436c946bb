/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cpureader.h - the CPU stream reader's state, shared by cpudata.c (the
 * reader) and readahead.c (its chunks decompressed on a thread ahead of
 * the caller).  Private to libfmt.
 */
#ifndef TDAT_CPUREADER_H
#define TDAT_CPUREADER_H

#include "libfmt/bytes.h"
#include "libfmt/internal.h"

struct read_ahead;

struct tdat_cpu_reader {
	struct tdat_file *f;
	const char *buf_name;
	int cpu;
	uint32_t page_size;
	int compressed;

	/* raw: file range [pos, end), read through a window */
	uint64_t pos, end;

	/* compressed: chunk walk */
	uint32_t nchunks, chunk;
	uint64_t chunk_off;	/* file offset of the next chunk header */
	struct tdat_bytes cbuf;	/* the chunk as stored */
	struct codec_ctx codec;

	int dead;		/* an error left the rest unreachable */
	uint64_t start, size;	/* the stream as stored, for its position */

	/* pages ready to hand out */
	struct tdat_bytes win;	/* scratch: only its first wlen bytes count */
	size_t wlen, wpos;
	uint64_t win_offset;	/* stream offset of win.data[0] */

	struct read_ahead *ahead;	/* NULL: chunks decoded when needed */
};

/* A chunk claimed from the walk: where it is and its sizes. */
struct cpu_chunk {
	uint64_t off;		/* file offset of its header */
	uint32_t csize, usize;
};

/*
 * The next chunk of r's walk read as stored into cbuf, and win made
 * large enough for its pages: 1, and the walk moves past it; 0 at the
 * end; -1 on an error nothing further can be reached from (the walk
 * stays where it was).
 */
int cpu_claim_chunk(struct tdat_cpu_reader *r, struct tdat_bytes *cbuf,
		    struct tdat_bytes *win, struct cpu_chunk *c,
		    struct tdat_error *err);
/* Claimed chunk c decompressed from cbuf into win: 0, or -1 (err says;
 * the walk can go on after it).  Reads nothing of r that changes. */
int cpu_decode_chunk(const struct tdat_cpu_reader *r, struct codec_ctx *codec,
		     const struct cpu_chunk *c, const uint8_t *cbuf,
		     uint8_t *win, struct tdat_error *err);

/*
 * The next chunk decompressed into r->win: 1, 0 at the end, -1 on an
 * error nothing further can be reached from, -2 when the chunk did not
 * decompress (skipped; the walk goes on after it).  err says why.
 */
int cpu_fill_compressed(struct tdat_cpu_reader *r, struct tdat_error *err);

/* readahead.c: what tdat_cpu_next_page(s), _position and _close do for
 * a reader with r->ahead set. */
int ahead_next_page(struct tdat_cpu_reader *r, const uint8_t **page,
		    uint64_t *offset, struct tdat_error *err);
/* After ahead_next_page gave a page: the rest of its window with it. */
size_t ahead_take_rest(struct tdat_cpu_reader *r);
void ahead_position(const struct tdat_cpu_reader *r, uint64_t *at,
		    int *ended);
void ahead_stop(struct tdat_cpu_reader *r);

#endif
