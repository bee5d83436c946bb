/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_cpu_internal.h - what the files merging one output CPU stream
 * share (private to merge_cpu.c, merge_heads.c, merge_twins.c,
 * merge_gather.c and merge_out.c; the rest of the merge engine sees only
 * merge_cpu() in merge_internal.h).
 */
#ifndef MERGE_CPU_INTERNAL_H
#define MERGE_CPU_INTERNAL_H

#include "convert/merge/merge_internal.h"
#include "libfmt/pagecut.h"

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
	/* chunk mode: stored chunks read as they are, then decoded */
	int chunked;
	struct tdat_chunk_decoder *dec;
	const uint8_t *cdata;
	uint32_t csize, usize;
	struct tdat_bytes ubuf;	/* the chunk decoded (scratch) */
	uint32_t pg, npg;	/* page in the chunk, pages in the chunk */
	uint64_t seq;		/* chunks read */
	uint64_t coff;		/* file offset of the next chunk */
};

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
	struct dup_table *d;
	uint64_t dts;
	int dset, dactive;
	const struct merge_stream *dfirst;	/* wrote first at dts */
	struct items g;		/* a later stream's events at dts */
	const uint8_t **gdata;	/* their payloads, sizes, verdicts */
	uint32_t *gsize;
	uint8_t *gkeep;
	uint32_t gcap;
	struct gpage {		/* the pages they came from, for stats */
		uint32_t first;	/* the first of them in g */
		uint32_t nev;	/* events of the page */
		int whole;	/* counted as a page dropped whole */
	} *gp;
	uint32_t ngp, gpcap;
	struct items held;	/* those of them to write */
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

/* ---- merge_heads.c: an input stream, page by page ---- */

/* Open stream s into h and read its first page. */
int head_open(struct cpu_merge *c, struct head *h, struct merge_stream *s,
	      struct tdat_error *err);
/* The stream's next page and its events; done (and closed) at the end. */
int head_next(struct cpu_merge *c, struct head *h, struct tdat_error *err);
void head_free(struct head *h);
/* One line naming h's file, page offset, buffer and CPU; returns -1. */
int head_bad_page(struct cpu_merge *c, struct head *h, const char *what,
		  struct tdat_error *err);

/* ---- merge_twins.c: repeats found without counting ---- */

/*
 * Mark the other streams whose page is h's (h at its page's start);
 * the number of twins marked, -1.
 */
int mark_twins(struct cpu_merge *c, struct head *h, struct tdat_error *err);
/* Twins at first skip what h writes; every twin is unmarked. */
void skip_twins(struct cpu_merge *c, struct head *h, uint32_t first);
/*
 * Every other stream at h's timestamp holds exactly h's events
 * [j, j + n) there: they are dropped from those streams (1), or 0.
 */
int same_groups(struct cpu_merge *c, struct head *h, uint32_t j, uint32_t n);

/* ---- merge_gather.c: counting the events at one timestamp ---- */

/* Must events at ts be counted (another stream holds some)? */
int dups_at(struct cpu_merge *c, struct head *h, uint64_t ts);
/* h's event k at the timestamp being counted: 1 to write it. */
int take(struct cpu_merge *c, struct head *h, uint32_t k);
/* All of t's events at ts judged: those to write go to c->held. */
int gather(struct cpu_merge *c, struct head *t, uint64_t ts,
	   struct tdat_error *err);
/* The other streams' events at ts judged: 1 if some are held, 0, -1. */
int drop_repeats(struct cpu_merge *c, struct head *h, uint64_t ts,
		 struct tdat_error *err);
void gather_free(struct cpu_merge *c);

/* ---- merge_out.c: the output's pages ---- */

/* The batch of output pages, written out. */
int batch_flush(struct cpu_merge *c, struct tdat_error *err);
/* h's page, as it is (its stored chunk when all of it so goes). */
int put_whole(struct cpu_merge *c, struct head *h, struct tdat_error *err);
/* The events of h's page whose keep[] is set, to the gathering page. */
int put_kept(struct cpu_merge *c, struct head *h, struct tdat_error *err);
/* The held events of other streams, to the gathering page. */
int emit_held(struct cpu_merge *c, struct tdat_error *err);
/* The gathering page, written out. */
int pend_flush(struct cpu_merge *c, struct tdat_error *err);

#endif
