/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * copy.h - the convert applet's engine: copy a trace.dat into a new file
 * of either version and any codec, keeping everything the target can
 * hold, passing compressed chunks through when it can.
 */
#ifndef CONVERT_COPY_H
#define CONVERT_COPY_H

#include <stdint.h>
#include "libfmt/tracedat.h"
#include "convert/opts.h"

/* Write in as out (through a temporary name).  0, or -1 with err. */
int convert_file(struct tdat_file *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err);

/* Say, once each, what a version 6 file cannot hold of in (BTF and
 * modules sections, unknown ones when extras is set, latency instances,
 * per-instance clocks): a line each to warn(ctx, line), nothing when
 * warn is NULL.  convert and merge call it before they write version 6
 * (merge names each unknown section with the input it comes from). */
void copy_warn_v6_losses(const struct tdat_file *in, int extras,
			 void (*warn)(void *ctx, const char *msg), void *ctx);

/* ---- convert_file's own step, declared for tests/unit (test_write.c) */

/* Where a copy stands, for progress reports. */
struct copy_progress {
	uint64_t done;
	uint64_t total;
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

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
