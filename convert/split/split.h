/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split.h - cut a trace.dat into pieces (the split applet's engine).
 *
 * Two passes.  split_plan() walks the events of the chosen streams
 * (buffer x CPU) once and records, for every piece, where it starts and
 * ends in each stream: a (page, event-in-page) position.  split_write()
 * then writes the pieces, one CPU stream at a time for a batch of open
 * pieces: pages wholly inside a piece are copied as they are (compressed
 * chunks too when the codec and chunk size stay), only the pages at a
 * cut go through the page cutter (tdat_page_cut_index).
 */
#ifndef SPLIT_H
#define SPLIT_H

#include <stdint.h>
#include "libfmt/tracedat.h"
#include "libfmt/pagecut.h"

enum split_unit {
	SPLIT_WHOLE,		/* no unit: one piece (the range) */
	SPLIT_TIME,		/* amount = nanoseconds per piece */
	SPLIT_EVENTS,		/* amount = events per piece */
	SPLIT_PAGES,		/* amount = input pages per CPU per piece */
};

/* One buffer of the output: which input buffer, under which name. */
struct split_buffer {
	int in_buf;		/* index in in->buffers */
	const char *name;	/* output name, "" = top */
};

struct split_opts {
	enum split_unit unit;
	uint64_t amount;
	int repeat;		/* -r: pieces to the end */
	int per_cpu;		/* -c: every CPU counts on its own */
	int only_cpu;		/* -C: CPU id, or -1 for all */
	int has_start, has_end;
	uint64_t start, end;	/* trace clock units, inclusive */
	int nbuffers;		/* output buffers, top (if any) first */
	struct split_buffer *buffers;
	int version;		/* output version, 6 or 7 */
	enum tdat_codec codec;	/* v7 output codec */
	int threads;		/* compression threads, 0 = online CPUs */
	/* Name of piece n (1-based); the CLI follows trace-cmd's naming. */
	void (*piece_name)(void *ctx, int n, char *buf, size_t cap);
	void *name_ctx;
	/* Stored input bytes of trace data gone through so far (each
	 * batch of pieces reads its streams again); may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* Where a piece starts or ends in a stream: before event ev of page. */
struct split_pos {
	uint64_t page;
	uint32_t ev;
};

/* A chosen stream: output buffer b, its input CPU entry idx. */
struct split_stream {
	int out_buf;
	int in_buf;
	int idx;
	int cpu;
	uint64_t events;	/* events inside the range (for checks) */
};

struct split_plan {
	int nstreams;
	struct split_stream *streams;	/* output order: buffer, CPU id */
	int npieces;
	/* pos[s * (npieces + 1) + k]: piece k of stream s starts there and
	 * ends where piece k + 1 starts. */
	struct split_pos *pos;
};

int split_plan(struct tdat_file *in, const struct split_opts *o,
	       struct split_plan *p, struct tdat_error *err);
void split_plan_free(struct split_plan *p);

/*
 * Write every piece.  If one fails, the pieces already written by this
 * call are removed again: a split leaves all its pieces or none.  Until
 * then they are provisional outputs (libfmt/outputs.h), so a signal
 * handler calling tdat_outputs_discard removes them too.
 * *written gets the number of pieces written.
 */
int split_write(struct tdat_file *in, const struct split_opts *o,
		const struct split_plan *p, int *written,
		struct tdat_error *err);

#endif
