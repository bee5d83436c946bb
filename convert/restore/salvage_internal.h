/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * salvage_internal.h - what the files of restore's salvage share (private):
 *
 *   salvage.c         the plan (buffers, CPU streams) and the output
 *   restore_search.c  buffer sections whose description is lost: find
 *                     their CPU streams, infer name and clock
 *   restore_copy.c    streams to the writer: raw pages, or chunks with
 *                     resync after a damaged chunk header
 *   restore_table.c   the table being planned (buffers, streams), small
 *                     reads of the file, the chunk checks
 *
 * Calls only go down this list's order:
 *
 *   salvage.c -> restore_search.c, restore_copy.c -> restore_table.c
 *
 * and every file may use the page filter and restore_say
 * (restore_pages.c, restore_internal.h), which call none of them.
 */
#ifndef TDAT_SALVAGE_INTERNAL_H
#define TDAT_SALVAGE_INTERNAL_H

#include "convert/restore/restore_internal.h"
#include "libfmt/salvage.h"
#include "libfmt/bytes.h"

#define READ_PAGES 64
#define MAX_CHUNK (256u << 20)

/* A CPU stream to copy: [start, end) of the file. */
struct stream {
	int cpu;
	uint64_t start, end;
	uint64_t lost;		/* bytes recorded past the end of the file */
};

/* One output buffer and where its data comes from. */
struct plan {
	int compressed;
	int latency;		/* from f->buffers[from] */
	int from;		/* index in f->buffers, -1 if inferred */
	int nstreams;
	struct stream *streams;
};

struct salvage {
	const char *path;
	struct tdat_file *f;
	struct tdat_salvage s;
	const struct convert_opts *o;
	struct tdat_event_ids *ids;

	struct tdat_file *m;	/* the writer's metadata: f's, our buffers */
	int nbufs;
	struct tdat_buffer *bufs;
	struct plan *plans;

	uint64_t pages, events, dropped;
	struct tdat_bytes cbuf, ubuf;	/* chunk in, pages out (scratch) */
};

/* ---- restore_table.c ---- */

int sv_oom(struct salvage *sv, struct tdat_error *err);
uint64_t sv_align_up(uint64_t v, uint64_t to);
/* A u32 of the file at off: 0, or -1 past its end. */
int sv_get32(struct salvage *sv, uint64_t off, uint32_t *v);
/* Sizes a chunk header can hold; whether the chunk at at decompresses. */
int sv_chunk_plausible(uint32_t c, uint32_t u, uint32_t ps);
int sv_chunk_decompresses(struct salvage *sv, uint64_t at, uint32_t c,
			  uint32_t u);
/* A buffer (and its empty plan) at the end of the table, or NULL. */
struct tdat_buffer *sv_add_buffer(struct salvage *sv, const char *name,
				  const char *clock, uint32_t ps);
int sv_add_stream(struct plan *p, int cpu, uint64_t start, uint64_t end,
		  uint64_t lost);

/* ---- restore_search.c ---- */

/* The nth lost section of sv->s as a buffer of the plan, with the CPU
 * streams found in it; says what it inferred. */
int sv_plan_lost(struct salvage *sv, int nth, struct tdat_error *err);

/* ---- restore_copy.c ---- */

/* Buffer b's stream s, page by page through the filter, to w. */
int sv_copy_stream(struct salvage *sv, struct tdat_writer *w, int b,
		   const struct stream *s, struct tdat_error *err);
int sv_copy_latency(struct salvage *sv, struct tdat_writer *w, int b,
		    struct tdat_error *err);

#endif
