/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writer.h - what the files of the trace.dat writer share (private).
 *
 *   write.c         the public tdat_writer_* calls: open, close, and the
 *                   order of buffers and CPU streams
 *   write_emit.c    bytes out: emit*(), patch*(), growing byte lists,
 *                   writer_fail()
 *   write_v6.c      the v6 layout: v6_*()
 *   write_v7.c      the v7 layout (sections, options sections, strings
 *                   table, BUFFER options): v7_*()
 *   write_chunks.c  compressed chunk streams through the chunk pool:
 *                   chunks_*()
 *
 * Every function that can fail returns -1 with err filled, and leaves
 * the writer good only for tdat_writer_abort.
 */
#ifndef LIBFMT_WRITER_H
#define LIBFMT_WRITER_H

#include "libfmt/bytes.h"
#include "libfmt/internal.h"

/* One CPU stream as written. */
struct wcpu {
	int cpu;
	int begun;
	uint64_t offset;
	uint64_t size;
};

/* Output state of one buffer of meta. */
struct wbuf {
	const struct tdat_buffer *b;
	int keep;		/* the output version can hold it */
	int started;		/* v6 block / v7 section header written */
	int finished;
	uint32_t page_size;
	uint32_t chunk_size;
	uint64_t start;		/* v6 "flyrecord" / v7 section header */
	uint64_t table;		/* v6: the CPU table */
	uint64_t v6_patch;	/* v6: offset field of its BUFFER option */
	int64_t v6_place;	/* v6: other options before it, -1: after all */
	int ncpus;
	struct wcpu *cpus;	/* v6: one per CPU id; v7: those with data */
};

struct tdat_writer {
	struct outfile out;
	const struct tdat_file *meta;
	int version;
	int big;
	enum tdat_codec codec;	/* NONE for v6 */
	int level;
	uint32_t chunk_asked;	/* tdat_write_opts.chunk_size */
	int threads;
	uint32_t cpu_count;
	uint32_t page_size;
	/* v6: the last block's clock record end and data start (tail) */
	uint64_t v6_record_end, v6_data_start;
	struct codec_ctx cc;	/* blocks, and checking copied chunks */
	struct chunkpool *pool;
	size_t chunk_max;

	int nbufs;
	struct wbuf *bufs;
	int cur;		/* the buffer being written */

	/* the CPU stream being written */
	int in_cpu;
	struct wcpu *cpu;
	struct wcpu v7cpu;
	uint64_t stream;	/* its file offset; 0 until data came */
	uint32_t nchunks;
	uint8_t *fill;		/* chunk being filled (pool buffer) */
	size_t filled;

	uint64_t done_patch;	/* v7: where the next options offset goes */
	struct tdat_bytes strings;
	struct tdat_bytes scratch;
	int broken;
};

/* ---- write_emit.c ---- */

/* Fail at the current output offset and mark the writer broken. */
int writer_fail(struct tdat_writer *w, struct tdat_error *err,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int writer_oom(struct tdat_writer *w, struct tdat_error *err);
/* A reusable buffer of at least n bytes, or NULL. */
uint8_t *writer_scratch(struct tdat_writer *w, size_t n);

/* Append at the end of the output, in the file's byte order. */
int emit(struct tdat_writer *w, const void *p, size_t n,
	 struct tdat_error *err);
int emit16(struct tdat_writer *w, uint16_t v, struct tdat_error *err);
int emit32(struct tdat_writer *w, uint32_t v, struct tdat_error *err);
int emit64(struct tdat_writer *w, uint64_t v, struct tdat_error *err);
int emit_zeros(struct tdat_writer *w, uint64_t n, struct tdat_error *err);
/* Pad with a hole up to a multiple of to. */
int emit_align(struct tdat_writer *w, uint32_t to, struct tdat_error *err);
/* Magic, version string (its NUL added), byte order, long size, page
 * size. */
int emit_initial_header(struct tdat_writer *w, const char *version,
			struct tdat_error *err);
/* Overwrite bytes written earlier (sizes and offsets learnt later). */
int patch_bytes(struct tdat_writer *w, uint64_t off, const void *p, size_t n,
		struct tdat_error *err);
int patch32(struct tdat_writer *w, uint64_t off, uint32_t v,
	    struct tdat_error *err);
int patch64(struct tdat_writer *w, uint64_t off, uint64_t v,
	    struct tdat_error *err);

/* Append an option (u16 id, u32 size, data) to a list. */
int bytes_add_option(struct tdat_writer *w, struct tdat_bytes *list, uint16_t id,
		     uint32_t size, const void *data);

/* ---- write_v6.c ---- */

/* Header, metadata, CPU count, options; the top block if there is none. */
int v6_start(struct tdat_writer *w, struct tdat_error *err);
/* Whether v6 can hold buffer i of meta. */
int v6_keeps_buffer(const struct tdat_writer *w, int i);
/* One CPU table slot per CPU id below the CPU count. */
int v6_alloc_cpus(struct tdat_writer *w, struct wbuf *wb);
/* Point w->cpu at the table slot of cpu, starting the block if needed. */
int v6_begin_cpu(struct tdat_writer *w, struct wbuf *wb, int cpu,
		 struct tdat_error *err);
/* A file whose last block got no data ends after its clock record. */
int v6_trim_tail(struct tdat_writer *w, struct tdat_error *err);
/* Fill in the block's CPU table. */
int v6_finish_block(struct tdat_writer *w, struct wbuf *wb,
		    struct tdat_error *err);

/* ---- write_v7.c ---- */

/* Header, metadata and unknown sections, the options sections. */
int v7_start(struct tdat_writer *w, struct tdat_error *err);
/* The header of a buffer's flyrecord section, before its first data. */
int v7_start_flyrecord(struct tdat_writer *w, struct wbuf *wb,
		       struct tdat_error *err);
/* Its section size and its BUFFER option. */
int v7_finish_flyrecord(struct tdat_writer *w, struct wbuf *wb,
			struct tdat_error *err);
/* A latency buffer's text section and its BUFFER_TEXT option. */
int v7_latency(struct tdat_writer *w, struct wbuf *wb, const uint8_t *text,
	       size_t len, struct tdat_error *err);
/* The strings table, the last section. */
int v7_put_strings(struct tdat_writer *w, struct tdat_error *err);

/* ---- write_chunks.c ---- */

/* Start a chunk stream here: a chunk count to patch, then chunks. */
int chunks_begin(struct tdat_writer *w, struct tdat_error *err);
/* Data for chunks of chunk_size bytes, compressed by the pool. */
int chunks_add(struct tdat_writer *w, const uint8_t *p, size_t len,
	       size_t chunk_size, struct tdat_error *err);
/* A chunk compressed elsewhere: checked, then copied as it is.  -2 if it
 * is corrupt. */
int chunks_copy(struct tdat_writer *w, const void *data, uint32_t csize,
		uint32_t usize, struct tdat_error *err);
/* Chunks copied as stored, not decompressed: a run of them (u32 csize,
 * u32 usize, payload; in the output's byte order) or one.  Only what
 * needs no decoding is checked: -2 if that is wrong. */
int chunks_put_stored(struct tdat_writer *w, const uint8_t *run, size_t len,
		      struct tdat_error *err);
int chunks_put_stored_one(struct tdat_writer *w, const void *data,
			  uint32_t csize, uint32_t usize,
			  struct tdat_error *err);
/* Wait for every chunk, then patch the count at count_at. */
int chunks_end(struct tdat_writer *w, uint64_t count_at,
	       struct tdat_error *err);

#endif
