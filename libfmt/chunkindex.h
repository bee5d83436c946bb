/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chunkindex.h - compressed CPU streams chunk by chunk (chunkindex.c,
 * streamtail.c, streamhead.c, chunkpages.c, chunkdec.c).
 *
 * For engines that copy most chunks as stored and decode only a few:
 * walking chunk headers, the first and last timestamps of a stream, and
 * decoding one chunk at a time.
 */
#ifndef LIBFMT_CHUNKINDEX_H
#define LIBFMT_CHUNKINDEX_H

#include "libfmt/tracedat.h"
#include "libfmt/bytes.h"

/* ---- chunk headers of a compressed stream (chunkindex.c) ---------------- */

/*
 * Walk the chunks of a compressed CPU stream by their 8-byte headers,
 * payloads read only when asked: to find the last chunk, to copy chunks
 * as stored, or to read them one at a time with no reader open (a walk
 * is a position and the stream's bounds, no buffer).  Each header is
 * checked (inside the stream's extent and its chunk count, whole pages,
 * at most TDAT_MAX_CHUNK, no larger than the codec's worst case) before
 * it is used; failures name the file, the header's offset and what is
 * wrong.
 */
struct tdat_chunk {
	uint64_t offset;	/* of the header; payload at offset + 8 */
	uint32_t csize, usize;
};
struct tdat_chunk_walk {
	struct tdat_file *f;
	const char *buf_name;
	int cpu;
	uint32_t page_size;
	uint32_t nchunks;	/* the stream's chunk count */
	uint32_t done;		/* headers walked */
	uint64_t next;		/* offset of the next header */
	uint64_t end;		/* end of the stream's extent */
	uint64_t usize;		/* uncompressed bytes of the chunks walked */
};
/* Start at buffers[buf].cpus[idx] (compressed), reading its chunk count. */
int tdat_chunk_walk_init(struct tdat_chunk_walk *cw, struct tdat_file *f,
			 int buf, int idx, struct tdat_error *err);
/* The next header: 1 with c, 0 after the last chunk, -1. */
int tdat_chunk_walk_next(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 struct tdat_error *err);
/* The next header from 8 bytes the caller read at cw->next: 1 or -1. */
int tdat_chunk_walk_header(struct tdat_chunk_walk *cw, const uint8_t *h,
			   struct tdat_chunk *c, struct tdat_error *err);
/* Walk to the end: 1 with the last chunk holding pages, 0 if none, -1. */
int tdat_chunk_walk_last(struct tdat_chunk_walk *cw, struct tdat_chunk *last,
			 struct tdat_error *err);
/* The payload of a chunk the walk gave (c->csize bytes into buf). */
int tdat_chunk_read(struct tdat_chunk_walk *cw, const struct tdat_chunk *c,
		    void *buf, struct tdat_error *err);
/* The next chunk and its payload as stored in *buf (grown as needed, *cap
 * bytes; free it): 1, 0 after the last chunk, -1. */
int tdat_chunk_walk_read(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 uint8_t **buf, size_t *cap, struct tdat_error *err);
/*
 * Read whole chunks, headers and payloads as stored, from the walk's
 * position into *buf (grown as needed, *cap bytes; free it): about want
 * bytes, at least one chunk.  Returns the bytes (0 after the last chunk)
 * with *nchunks, or -1.
 */
int64_t tdat_chunk_walk_run(struct tdat_chunk_walk *cw, uint8_t **buf,
			    size_t *cap, size_t want, uint32_t *nchunks,
			    struct tdat_error *err);

/* ---- the ends of a CPU stream (streamtail.c, streamhead.c) ------------ */

/*
 * The timestamp of the last event of buffers[buf].cpus[idx], found from
 * the end: the last pages of raw data, or the last chunk holding pages
 * (found by its header walk) of compressed data, decoded alone.  1 with
 * *ts; 0 when it cannot be known cheaply (no event in the last few
 * pages or the last chunk, a last page or chunk that does not read);
 * -1 only when a chunk header is out of bounds (err filled).
 */
int tdat_cpu_last_ts(struct tdat_file *f, int buf, int idx, uint64_t *ts,
		     struct tdat_error *err);
/* The timestamp of its first event (streamhead.c), read from the start
 * up to the first page with one: 0 with *ts (UINT64_MAX when the stream
 * has none; pages that do not read are stepped over), -1 with err when
 * the stream cannot be opened or read on. */
int tdat_cpu_first_ts(struct tdat_file *f, int buf, int idx, uint64_t *ts,
		      struct tdat_error *err);

/* ---- pages with the chunk behind them (chunkpages.c) ------------------ */

struct tdat_chunk_decoder;	/* chunkdec.c, below */

/*
 * A compressed stream page by page, each page with the stored chunk it
 * came from (for passing a chunk on as stored, or naming a page by its
 * chunk).  Chunks are read as stored into the caller's buffer and
 * decoded by the caller's decoder (both may serve many walks of one
 * thread) into the walk's own pages, held under the memory budget.
 */
struct tdat_chunk_pages {
	struct tdat_chunk_walk cw;
	struct tdat_chunk chunk;	/* the current page's chunk */
	const uint8_t *data;	/* its payload as stored, in the caller's
				 * buffer until a chunk is read into it */
	struct tdat_bytes pages;	/* its pages, decoded */
	uint32_t page, npages;	/* the current page's index in them */
	uint64_t seq;		/* chunks read so far */
};
/* Start at buffers[buf].cpus[idx] (compressed). */
int tdat_chunk_pages_init(struct tdat_chunk_pages *p, struct tdat_file *f,
			  int buf, int idx, struct tdat_error *err);
/* The next page: 1 with *page, 0 after the last (the decoded pages are
 * given back), -1 with err naming the chunk.  *stored (*cap bytes) is
 * grown as needed; free it. */
int tdat_chunk_pages_next(struct tdat_chunk_pages *p,
			  struct tdat_chunk_decoder *dec, uint8_t **stored,
			  size_t *cap, const uint8_t **page,
			  struct tdat_error *err);
void tdat_chunk_pages_free(struct tdat_chunk_pages *p);

/* ---- decompressing single chunks (chunkdec.c) --------------------------- */

/*
 * For callers that walk a compressed CPU stream with tdat_cpu_next_chunk
 * (to pass most chunks on as they are) and need the pages of some: out
 * gets exactly usize bytes, or -1 (err names f's path and where, the
 * chunk's file offset).  One decoder per thread.
 */
struct tdat_chunk_decoder;
struct tdat_chunk_decoder *tdat_chunk_decoder_new(const struct tdat_file *f);
int tdat_chunk_decode(struct tdat_chunk_decoder *d, const void *data,
		      uint32_t csize, void *out, uint32_t usize,
		      uint64_t where, struct tdat_error *err);
void tdat_chunk_decoder_free(struct tdat_chunk_decoder *d);

#endif
