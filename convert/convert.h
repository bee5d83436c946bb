/*
 * convert.h - the conversion engine: copy a trace.dat into a new file of
 * either version and any codec, keeping everything the target can hold.
 * convert uses it whole; split, merge and restore reuse copy_cpu_stream()
 * with writers of their own.
 */
#ifndef CONVERT_H
#define CONVERT_H

#include <stdint.h>
#include "tracedat.h"

struct convert_opts {
	int version;		/* 6 or 7 */
	enum tdat_codec codec;	/* v7 output codec */
	int level;		/* 0 = codec default; else recompress */
	uint32_t chunk_size;	/* 0 = keep the input's chunks (else 10 pages) */
	int threads;		/* compression threads, 0 = online CPUs */
	/* One line per thing the output cannot hold; may be NULL. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/* Bytes of stored input trace data copied so far; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* Write in as out (through a temporary name).  0, or -1 with err. */
int convert_file(struct tdat_file *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err);

/* Where a copy stands, for progress reports. */
struct copy_progress {
	uint64_t done;
	uint64_t total;
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

/* Stored bytes of trace data (CPU streams and latency text) in f. */
uint64_t convert_data_size(const struct tdat_file *f);

/*
 * Copy in's buffers[buf].cpus[idx] into w as CPU stream of the same id
 * (begin_cpu .. end_cpu).  copy_chunks: pass compressed chunks through
 * unchanged (same codec in and out, no new level), as long as they are
 * chunk_size bytes (0: any); otherwise pages are copied and w compresses.
 * pr may be NULL.
 */
int copy_cpu_stream(struct tdat_file *in, int buf, int idx,
		    struct tdat_writer *w, int copy_chunks,
		    uint32_t chunk_size, struct copy_progress *pr,
		    struct tdat_error *err);

#endif
