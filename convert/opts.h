/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.h - how copy and restore write a trace.dat: version, codec,
 * level, chunk size, threads, and where warnings and progress go.
 * record fills one too, for restore's assembly that ends every
 * recording.  merge and split have options of their own (merge.h,
 * split.h).
 */
#ifndef CONVERT_OPTS_H
#define CONVERT_OPTS_H

#include <stdint.h>
#include "libfmt/tracedat.h"

struct convert_opts {
	int version;		/* 6 or 7 */
	enum tdat_codec codec;	/* v7 output codec */
	int level;		/* 0 = codec default; else recompress */
	uint32_t chunk_size;	/* 0 = keep the input's chunks (else 10 pages) */
	int threads;		/* compression threads, 0 = online CPUs */
	int provisional;	/* tdat_write_opts.provisional: 0, or the
				 * output held unnamed until kept (archive) */
	/* One line per thing the output cannot hold; may be NULL. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/* Bytes of stored input trace data copied so far; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

#endif
