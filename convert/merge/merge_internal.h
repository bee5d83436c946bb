/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_internal.h - what the files of the merge engine share (private;
 * tests/unit/test_merge_meta.c reads the metadata joins through it).
 *
 *   merge.c          the driver: pass 1 reads every input's metadata,
 *                    pass 2 writes the output CPU stream by CPU stream;
 *                    the inputs kept open (descriptors bounded)
 *   merge_meta.c     can the inputs share one file, and the output's
 *                    header, buffers, options and unknown sections
 *   merge_texts.c    its event formats, kallsyms, printk formats,
 *                    cmdlines, BTF and modules
 *   merge_cpu.c      one output CPU stream: the input streams in time
 *                    order, their pages written whole, as stored, or
 *                    through a gathering page
 *   merge_repeats.c  one timestamp several streams hold: which of its
 *                    events repeat what was written
 *   merge_streams.c  the input streams of one output CPU, page by page
 *
 * Calls go down this list, never up, but to merge.c's merge_warn and
 * inputs: every file may warn, and the streams open inputs.
 */
#ifndef MERGE_INTERNAL_H
#define MERGE_INTERNAL_H

#include <string.h>
#include "convert/merge/merge.h"
#include "libfmt/stored.h"
#include "libfmt/bytes.h"
#include "libfmt/pagecut.h"
#include "libfmt/chunkindex.h"

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
	int out_version;	/* the output's version, known after pass 1 */
	int nstreams;
	struct merge_stream *streams;
	uint64_t done, total;	/* progress */
	int dups_capped;	/* told that a timestamp had too many events */
};

/* ---- merge.c ---- */

/* A line to the user's warn callback (if any), kept on one line. */
void merge_warn(struct merge_ctx *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* inputs[i] open, reopened if it was closed to keep descriptors bounded. */
struct tdat_file *merge_input_get(struct merge_ctx *m, int i,
				  struct tdat_error *err);
/* Keep at most max_open open, closing the least recently used idle one. */
void merge_input_trim(struct merge_ctx *m);

/* ---- merge_meta.c ---- */

/* The input being joined, for messages, and what is known of it. */
struct who {
	const char *file, *first;
	struct tdat_error *err;
	unsigned known;		/* parts known equal by their stored bytes */
	struct merge_ctx *mc;	/* for warnings; may be NULL */
};

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
 * output's are known equal, the others decoded in f and joined.
 */
int meta_join_input(struct merge_ctx *m, struct tdat_file *f,
		    struct tdat_error *err);
/* Output buffer index of a buffer name, -1 if none. */
int meta_buffer(const struct tdat_file *meta, const char *name);
void meta_free(struct tdat_file *meta);

/* Is part the same in m and f: known so, or compared? */
static inline int meta_same_part(const struct tdat_file *m,
				 const struct tdat_file *f, int part,
				 const struct who *w)
{
	const struct tdat_blob *a = &m->meta[part], *b = &f->meta[part];

	return (w->known & (1u << part)) ||
	       (a->len == b->len && (!a->len || !memcmp(a->data, b->data,
							 a->len)));
}

/* "FILE: cannot be merged with FIRST: what" into w->err; returns -1. */
static inline int meta_conflict(const struct who *w, const char *what)
{
	return tdat_fail_nooff(w->err, w->file, "cannot be merged with %s: %s",
			       w->first, what);
}

/* ---- merge_texts.c ---- */

/* The union of the event formats; -1 on a conflict. */
int texts_join_formats(struct tdat_file *m, const struct tdat_file *f,
		       const struct who *w);
/* Part (kallsyms, printk, cmdlines) of m becomes its text plus the lines
 * only f has. */
int texts_join_lines(struct tdat_file *m, const struct tdat_file *f,
		     enum tdat_meta part, const struct who *w);
/* BTF and modules: raw files of the boot; the larger one wins. */
int texts_join_raw(struct tdat_file *m, const struct tdat_file *f,
		   enum tdat_meta part, const struct who *w);

/* ---- one output CPU stream: merge_cpu.c, _repeats.c, _streams.c ---- */

#define BATCH_PAGES 64

/* Event items (header words and payload) copied out of their pages. */
struct items {
	struct item {
		size_t off;	/* in b.data */
		uint32_t len, hdr;	/* item bytes, of them header */
		/* where it was read, for messages: the input, and the
		 * file offset of the item (raw pages) or of its chunk */
		int input, in_chunk;
		uint64_t at;
	} *it;
	uint32_t n, cap;
	struct tdat_bytes b;
};

/* An input stream being read: its current page and that page's events. */
struct head {
	struct merge_stream *s;
	struct tdat_file *f;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint64_t off;		/* of the page, for messages */
	uint32_t nev, pos;	/* events in the page, next to write */
	uint64_t *ts;		/* each event's timestamp */
	const uint8_t **data;	/* each event's payload */
	uint32_t *size;
	uint32_t *ioff;		/* each event's item offset in the page */
	uint64_t prev;		/* the stream's latest timestamp before page */
	uint8_t *keep;		/* each event: written (1) or a repeat (0) */
	uint32_t dropped;	/* repeats dropped from the page */
	int twin;		/* its page is the front's, at the same point */
	int done;
	/* chunk mode: pages with their stored chunk (no reader r) */
	int chunked;
	struct tdat_chunk_pages cp;
	struct tdat_chunk_decoder *dec;
	uint8_t *stored;	/* the chunk as stored (cp.data) */
	size_t cap;
};

struct repeats;

/* One output CPU stream being merged. */
struct cpu_merge {
	struct merge_ctx *m;
	struct tdat_writer *w;
	uint32_t ps;
	const char *bufname;
	int cpu;
	int nh;
	struct head *h;
	uint8_t *batch;
	size_t nbatch;
	/* whole pages of one stored chunk written in a row: if the chunk
	 * ends so, it is written as it was stored instead */
	struct head *run_h;
	uint64_t run_seq;
	size_t run_start;
	uint32_t run_pages;
	/* kept events of pages not written whole, gathered */
	uint8_t *pend;
	struct tdat_page_fill pf;
	int pf_open;
	/* the timestamp whose repeats are being looked for */
	struct repeats *rp;
	uint64_t dts;
	int dset, dactive;
	const struct merge_stream *dfirst;	/* wrote first at dts */
	struct items held;	/* other streams' events at dts to write */
};

/* The timestamp h is at: its next event's, or its latest before. */
static inline uint64_t head_ts(const struct head *h)
{
	return h->nev ? h->ts[h->pos] : h->prev;
}

/* Is ts the first timestamp of h's stream? */
static inline int fresh(const struct head *h, uint64_t ts)
{
	return ts == h->s->key;
}

/* Events of h from j with ts T; their count. */
static inline uint32_t group(const struct head *h, uint32_t j)
{
	uint32_t g = j;

	while (g < h->nev && h->ts[g] == h->ts[j])
		g++;
	return g - j;
}

/* ---- merge_cpu.c ---- */

/*
 * Write output CPU stream (out_buf, cpu) from the n streams s (sorted by
 * key, then input order) into w: begin_cpu .. end_cpu.
 */
int merge_cpu(struct merge_ctx *m, struct tdat_writer *w,
	      struct merge_stream *s, int n, struct tdat_error *err);

/* ---- merge_streams.c ---- */

/* Open stream s into h and read its first page. */
int streams_open(struct cpu_merge *c, struct head *h, struct merge_stream *s,
		 struct tdat_error *err);
/* The stream's next page and its events; done (and closed) at the end. */
int streams_next(struct cpu_merge *c, struct head *h, struct tdat_error *err);
void streams_free(struct head *h);
/* One line naming h's file, page offset, buffer and CPU; returns -1. */
int streams_bad_page(struct cpu_merge *c, struct head *h, const char *what,
		     struct tdat_error *err);

/* ---- merge_repeats.c ---- */

struct repeats *repeats_new(void);
void repeats_free(struct repeats *rp);
/*
 * Mark the other streams whose page is h's (h at its page's start);
 * the number of twins marked, -1.
 */
int repeats_mark_twins(struct cpu_merge *c, struct head *h,
		       struct tdat_error *err);
/* Twins at first skip what h writes; every twin is unmarked. */
void repeats_skip_twins(struct cpu_merge *c, struct head *h, uint32_t first);
/*
 * Every other stream at h's timestamp holds exactly h's events
 * [j, j + n) there: they are dropped from those streams (1), or 0.
 */
int repeats_same_groups(struct cpu_merge *c, struct head *h, uint32_t j,
			uint32_t n);
/* Must events at ts be counted (another stream holds some)? */
int repeats_counting(struct cpu_merge *c, struct head *h, uint64_t ts);
/* h's events [j, j + n) at the timestamp being counted, as written. */
void repeats_count(struct cpu_merge *c, struct head *h, uint32_t j,
		   uint32_t n);
/* All of t's events at ts judged: those to write go to c->held. */
int repeats_gather(struct cpu_merge *c, struct head *t, uint64_t ts,
		   struct tdat_error *err);
/* The other streams' events at ts judged: 1 if some are held, 0, -1. */
int repeats_drop(struct cpu_merge *c, struct head *h, uint64_t ts,
		 struct tdat_error *err);
/* Did the table give up on the timestamp being counted? */
int repeats_gave_up(const struct cpu_merge *c);
/* h's stream ended at the timestamp being counted. */
void repeats_end(struct cpu_merge *c, const struct head *h);

#endif
