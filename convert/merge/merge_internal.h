/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_internal.h - what the files of the merge engine share (private).
 *
 *   merge.c        the driver: inputs read for metadata, then the output
 *                  written buffer by buffer, CPU by CPU
 *   merge_meta.c   can the inputs share one file, and the output's
 *                  metadata: the entry points, header and buffers
 *   merge_formats.c  its event formats, the union of the inputs'
 *   merge_texts.c  its kallsyms, printk formats, cmdlines (the union of
 *                  the lines), BTF and modules (the larger)
 *   merge_options.c  its options: which must match, which are joined
 *   merge_extras.c its unknown v7 sections, every input's
 *   merge_cpu.c    one output CPU stream from the inputs' streams of that
 *                  CPU, in time order, duplicates dropped: the loop
 *   merge_heads.c  an input stream of it read page by page (chunk mode)
 *   merge_twins.c  repeats found without counting (identical pages, the
 *                  same events at a timestamp)
 *   merge_gather.c the events of one timestamp several streams hold,
 *                  gathered and counted
 *   merge_out.c    its output pages: whole, stored chunks, the gathering
 *                  page
 *   merge_copy.c   a stream that needs no merging, written as stored
 *   merge_inputs.c inputs kept open (file descriptors bounded) and the
 *                  first timestamp of each stream
 *   merge_dups.c   which events at one timestamp repeat another input's
 *   merge_parts.c  copies and comparisons of metadata parts, the line
 *                  refusing a merge
 *   merge_warn.c   notes for the user
 *
 * merge_meta.c, the four files after it and merge_parts.c share
 * merge_meta_internal.h, merge_cpu.c and the four files after it
 * merge_cpu_internal.h.
 *
 * Calls only go down, never back up: each file calls only files further
 * down this tree (merge_warn.c, below them all, calls none):
 *
 *   merge.c
 *     merge_meta.c
 *       merge_formats.c  merge_texts.c  merge_options.c  merge_extras.c
 *         merge_parts.c
 *     merge_cpu.c
 *       merge_twins.c  merge_gather.c  merge_out.c  merge_copy.c
 *         merge_heads.c
 *           merge_inputs.c  merge_dups.c
 *   merge_warn.c
 */
#ifndef MERGE_INTERNAL_H
#define MERGE_INTERNAL_H

#include "convert/merge/merge.h"
#include "libfmt/stored.h"
#include "libfmt/bytes.h"

/* One input's CPU stream feeding an output CPU stream. */
struct merge_stream {
	int input;		/* index into the inputs */
	int buf, idx;		/* the input's buffer and cpus[] index */
	int cpu;		/* CPU id */
	int out_buf;		/* output buffer */
	char *bufname;		/* its name (owned) */
	uint64_t key;		/* first event's timestamp; UINT64_MAX: none */
	uint64_t last;		/* last event's timestamp, if last_known */
	int last_known;
	uint64_t size;		/* stored bytes, for progress */
};

struct merge_input {
	char *path;
	uint64_t file_size;	/* to notice a file changed under us */
	int nbuffers;
	struct tdat_file *f;	/* open (metadata texts freed) or NULL */
	uint64_t last_use;
	int busy;		/* a stream of it is being read */
};

struct merge_ctx {
	const struct merge_opts *o;
	struct merge_stats *st;
	int nin;
	struct merge_input *in;
	int nopen, max_open;
	uint64_t tick;
	struct tdat_file *meta;	/* the output's metadata */
	int nstreams;
	struct merge_stream *streams;
	uint64_t done, total;	/* progress */
	enum tdat_codec out_codec;
	int copy_chunks;	/* stored chunks may pass through unchanged */
	int dups_capped;	/* told that a timestamp had too many events */
};

/* ---- merge_warn.c ---- */

/* A line to the user's warn callback (if any), kept on one line. */
void merge_warn(struct merge_ctx *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- merge_meta.c ---- */

/* The output's metadata, first from the first input. */
struct tdat_file *meta_from_first(const struct tdat_file *f,
				  struct tdat_error *err);
/*
 * Check that f can share one file with what meta holds so far (every
 * earlier input), and join f's formats, texts, options and buffers in.
 * -1 with one line naming the conflict, f and first (the first input).
 */
int meta_join(struct tdat_file *meta, const struct tdat_file *f,
	      const char *first, struct tdat_error *err);
/*
 * meta_join for an input opened with TDAT_OPEN_LAZY_META (into m->meta,
 * m->in[0] being the first input): sections with the stored bytes of the
 * output's are known equal, the others decoded in f and joined.  Notes
 * for the user go through merge_warn.
 */
int meta_join_input(struct merge_ctx *m, struct tdat_file *f,
		    struct tdat_error *err);
/* Output buffer index of a buffer name, -1 if none. */
int meta_buffer(const struct tdat_file *meta, const char *name);
void meta_free(struct tdat_file *meta);

/* ---- merge_inputs.c ---- */

/* inputs[i] open, reopened if it was closed to keep descriptors bounded. */
struct tdat_file *input_get(struct merge_ctx *m, int i,
			    struct tdat_error *err);
/* Keep at most max_open open, closing the least recently used idle one. */
void input_trim(struct merge_ctx *m);
void input_close_all(struct merge_ctx *m);
/* Drop the big metadata texts of an open file: readers do not need them. */
void input_slim(struct tdat_file *f);

/* The last event timestamp of a stream, read from its end: s->last and
 * s->last_known (0 when it cannot be known cheaply). */
int merge_last_ts(struct tdat_file *f, struct merge_stream *s,
		  struct tdat_error *err);

/* ---- merge_copy.c ---- */

/*
 * Whether stream s of an output CPU needs no merging: its whole time
 * range comes strictly before limit, the earliest next event of every
 * other stream of the CPU, open or yet to open (has_limit 0: there is
 * no other).
 */
int merge_copy_fits(const struct merge_stream *s, int has_limit,
		    uint64_t limit);
/*
 * Write such a stream as stored, its events unread: raw pages as they
 * are, chunks as they are when the output keeps the input's codec and
 * chunking (else decoded to pages, not parsed).  0 or -1.
 */
int merge_copy_stream(struct merge_ctx *m, struct tdat_writer *w,
		      struct merge_stream *s, struct tdat_error *err);

/* ---- merge_cpu.c ---- */

/*
 * Write output CPU stream (out_buf, cpu) from the n streams s (sorted by
 * key, then input order) into w: begin_cpu .. end_cpu.
 */
int merge_cpu(struct merge_ctx *m, struct tdat_writer *w,
	      struct merge_stream *s, int n, struct tdat_error *err);

/* ---- merge_dups.c ---- */

/*
 * The events at one timestamp T of an output CPU stream: for each
 * distinct payload, how many copies were written and how many each
 * input stream (who) gave.  dups_reset starts a new T.
 */
struct dup_table;
struct dup_table *dups_new(void);
void dups_free(struct dup_table *d);
void dups_reset(struct dup_table *d);
/*
 * Stream who's next event at T: 1 to write it (who gave more copies of
 * it than were written), 0 if it repeats one already written; counted.
 * starts: T is the first timestamp of who's stream (it goes on from a
 * stream that ended at T, if any).  Past the table's bounds every event
 * is written.
 */
int dups_take(struct dup_table *d, const void *who, const uint8_t *data,
	      uint32_t size, int starts);
/* who's stream ended at T, a piece cut inside T's events perhaps. */
void dups_end(struct dup_table *d, const void *who);
/*
 * All n events of who at T (its events there, gathered over its pages),
 * judged together; keep[k] set for those to write.  Event by event,
 * who writes the copies of an event it has beyond those written.  But
 * when whole (who's events at T started and end inside its stream) and
 * they neither all repeat what was written nor hold all of it, they are
 * other events of T (readers that shared one ring buffer each got some)
 * and all are written.
 */
int dups_run(struct dup_table *d, const void *who, int starts, int whole,
	     uint32_t n, const uint8_t *const *data, const uint32_t *size,
	     uint8_t *keep);
/* Give up on this timestamp (too much to compare): all is written. */
void dups_give_up(struct dup_table *d);
int dups_gave_up(const struct dup_table *d);
/* 1 once after the table gave up on a timestamp (too many events). */
int dups_newly_capped(struct dup_table *d);

#endif
