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

/* ---- one CPU stream: convert's, merge's (its streams that need no
 * merging) and tests/unit's (test_write.c) ---- */

/* Where a copy stands, for progress reports, and what it wrote. */
struct copy_progress {
	uint64_t done;		/* stored input bytes */
	uint64_t total;
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
	uint64_t pages;		/* pages written, their events unread */
	uint64_t chunks;	/* of them, in chunks passed as stored */
	uint64_t chunks_unread;	/* of those, not decompressed */
};

/* Stored data the writer takes as it is (tdat_writer_chunk_passes,
 * tdat_writer_pages_pass): */
enum copy_mode {
	COPY_PAGES,		/* never: pages, the writer compresses */
	COPY_CHUNKS_CHECKED,	/* chunks each checked, decoded, by the
				 * writer; raw pages read and checked */
	COPY_UNREAD,		/* not read (merge: pieces that follow each
				 * other, copied at the cost of cat):
				 * chunks not decompressed, only their
				 * headers and frame headers checked, in
				 * runs when every chunk passes; raw pages
				 * copied by the kernel, only their extent
				 * checked.  The output is as sound as the
				 * input, as with cp */
};

/*
 * The trace data of in's buffers[buf].cpus[idx] into w's open CPU
 * stream: stored data as how says, everything else page by page
 * through the reader, every page checked (a commit larger than the
 * page is refused) and copied verbatim.  0, or -1 with err.
 */
int copy_stream_data(struct tdat_file *in, int buf, int idx,
		     struct tdat_writer *w, enum copy_mode how,
		     struct copy_progress *pr, struct tdat_error *err);
/* The same as a CPU stream of the same id: begin_cpu .. end_cpu.  pr
 * may be NULL. */
int copy_cpu_stream(struct tdat_file *in, int buf, int idx,
		    struct tdat_writer *w, enum copy_mode how,
		    struct copy_progress *pr, struct tdat_error *err);

#endif
