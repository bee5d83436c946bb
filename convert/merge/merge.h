/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.h - the merge engine: join trace.dat files into one.
 *
 * Pieces of one recording (split output, recordings of one boot) become
 * one file whose per-CPU streams are in time order; buffers of the same
 * name are joined, buffers of other names (instances recorded apart) are
 * added beside them.  Inputs that cannot share one file are refused
 * before anything is written.  Memory stays bounded: inputs are read one
 * at a time for their metadata, then page by page, CPU by CPU, with only
 * the inputs that overlap in time open together.
 */
#ifndef MERGE_H
#define MERGE_H

#include <stdint.h>
#include "libfmt/tracedat.h"

struct merge_opts {
	int version;		/* 6 or 7; 0 = the first input's */
	int codec_given;	/* else the first input's codec (v7) */
	enum tdat_codec codec;
	int level;		/* 0 = codec default */
	uint32_t chunk_size;	/* 0 = 10 pages */
	int threads;		/* compression threads, 0 = online CPUs */
	int max_open;		/* inputs open at once, 0 = default (64) */
	/* One line per thing worth knowing (dropped duplicates...); may
	 * be NULL. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/* Stored input bytes of trace data handled so far; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* What a merge did, for -v style summaries and tests. */
struct merge_stats {
	uint64_t pages_in;	/* pages read from the inputs */
	uint64_t pages_copied;	/* pages written as they were */
	uint64_t pages_cut;	/* pages written as a cut of an input page */
	uint64_t chunks_copied;	/* compressed chunks passed through */
	uint64_t dup_pages;	/* identical pages dropped */
	uint64_t dup_events;	/* repeated events dropped */
	uint64_t streams_copied;/* CPU streams written whole, events unread */
	uint64_t chunks_stored;	/* chunks copied without decompressing */
	uint64_t pages_raw_copied; /* pages written without reading events */
};

/*
 * Merge nin inputs into out (through a temporary name).  0, or -1 with
 * err: one line naming the conflict or damage and the file(s).  stats
 * may be NULL.
 */
int merge_files(const char *const *in, int nin, const char *out,
		const struct merge_opts *o, struct merge_stats *stats,
		struct tdat_error *err);

#endif
