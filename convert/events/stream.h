/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stream.h - the event stream's machinery, for a consumer that walks it
 * itself (report's printing pipeline; events_walk is the simple way).
 *
 * tep_load.c builds a libtraceevent handle from a file's own metadata;
 * stream.c merges the pages of every buffer and CPU into one timeline.
 */
#ifndef EVENTS_STREAM_H
#define EVENTS_STREAM_H

#include <stdio.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"
#include "convert/events/events.h"
#include "convert/events/recview.h"
#include "convert/tepfmt/tepfmt.h"

/* ---- tep_load.c ---- */

/* A tep handle for f: header_page, formats, kallsyms, printk, cmdlines,
 * and the system's plugins unless load_plugins is 0.  Only what trial
 * (tepfmt.h) found libtraceevent survives goes in; an empty trial is
 * run first and kept for the next handle made so from f. */
struct tep_handle *tep_from_file(const struct tdat_file *f, int load_plugins,
				 struct tep_plugin_list **plugins,
				 struct tepfmt_trial *trial,
				 struct tdat_error *err);
/* The same without kallsyms: worker handles (ksyms.c), and an export's
 * (events_opts.lazy_kallsyms), which tep_add_kallsyms completes when an
 * event is printed. */
struct tep_handle *tep_from_file_nosyms(const struct tdat_file *f,
					int load_plugins,
					struct tep_plugin_list **plugins,
					struct tepfmt_trial *trial,
					struct tdat_error *err);
int tep_add_kallsyms(struct tep_handle *tep, const struct tdat_file *f,
		     struct tdat_error *err);

/* ---- stream.c ---- */

/*
 * How one input's timestamps are shown (FORMAT.md 7.7): the file's own
 * adjustment (struct tdat_ts_adjust, applied by tdat_ts_apply) plus
 * the user's options on top (events_opts).
 */
struct ts_adjust {
	int64_t offset;		/* ns: DATE * 1000 + OFFSET + --ts-offset */
	uint32_t mult, shift;	/* TSC2NSEC, when mult != 0 */
	double ts2secs;		/* --ts2secs: ns per tick, instead of mult */
	const struct tdat_time_shift *guest;	/* TIME_SHIFT, applied first */
};

/* One CPU of one buffer of one input, with its current event. */
struct stream_cpu {
	struct tdat_file *f;
	int input;		/* index of the input file */
	int buf;		/* buffer index in that file */
	int idx;		/* cpu index in that buffer */
	int cpu;		/* CPU id */
	uint32_t page_size;
	struct tdat_cpu_reader *r;
	struct tdat_page_iter it;
	uint64_t page_offset;
	int in_page;		/* it is valid */
	struct tdat_event ev;	/* valid while has_event */
	int has_event;
	int64_t missed;		/* to report before ev: -1 unknown, 0 none */
	uint64_t ts;		/* adjusted timestamp of ev */
	int heap_pos;		/* index in stream.heap, -1 when not in it */
	uint64_t held;		/* 0, or its rank among held CPUs (stream_hold) */
	int hidden;		/* read but not shown (--cpu, stream_start) */
	struct recview_pad pad;	/* ev's padded copy (recview.h) */
};

/*
 * The CPUs in scan order (the order they were added), and a binary heap
 * of those that hold an event, ordered by (ts, scan order): the earliest
 * event comes first and ties go to the CPU added first, as in trace-cmd.
 * Held CPUs (stream_hold) come after all others.
 */
struct stream {
	struct stream_cpu *cpus;
	int ncpus;
	int *heap;		/* indices into cpus */
	int nheap;
	struct ts_adjust adjust[EVENTS_MAX_INPUTS];	/* per input */
	int skipped;		/* pages or chunks that could not be read */
	int memory_said;	/* memory-short errors (said only once) */
	/* Stored bytes read of all CPUs, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	uint64_t nadvanced;	/* events moved past, for the progress */
	uint64_t nheld;		/* CPUs held so far */
	int any_order;		/* the top CPU runs to its end first */
	/* Damage is told by stream_tell, one line per input: the place
	 * found first in the file, and how many more were skipped. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	struct stream_damage {
		char msg[512];
		uint64_t off;	/* in the file, UINT64_MAX if unknown */
		int n;
		const char *path;	/* the input's */
	} *damage;		/* per input; allocated on the first */
};

/* Add every CPU of buffer buf of file f, read as input number input. */
int stream_add_buffer(struct stream *s, struct tdat_file *f, int input,
		      int buf, struct tdat_error *err);
/* The same for the CPUs for which want(ctx, cpu id) says 1 (--cpu). */
int stream_add_cpus(struct stream *s, struct tdat_file *f, int input,
		    int buf, int (*want)(const void *ctx, int cpu),
		    const void *ctx, struct tdat_error *err);
/* The same with the others added too, hidden: read, never shown, and
 * their damage not reported. */
int stream_add_cpus_hidden(struct stream *s, struct tdat_file *f, int input,
			   int buf, int (*want)(const void *ctx, int cpu),
			   const void *ctx, struct tdat_error *err);
/* The CPU holding the earliest event, or NULL at the end. */
struct stream_cpu *stream_peek(struct stream *s);
/* Move a CPU (any, not only the earliest) to its next event. */
void stream_advance(struct stream *s, struct stream_cpu *c);
/* Put c's events after every CPU's not held, and after those held
 * before it (what trace-cmd does to the CPU of a leaf's exit taken on
 * another CPU than its entry's: funcgraph.c). */
void stream_hold(struct stream *s, struct stream_cpu *c);
/* 1 with the earliest adjusted timestamp of buffer buf of f, 0 if the
 * buffer holds no event (--align-ts). */
int stream_first_ts(struct tdat_file *f, int buf, const struct ts_adjust *a,
		    uint64_t *ts);
/* The damage met so far to s->warn, one line per input, and forgotten. */
void stream_tell(struct stream *s);
void stream_free(struct stream *s);
/* Tell s->progress how far the CPUs are (stream_advance does, now and
 * then; at the end it says all). */
void stream_report_progress(struct stream *s);
uint64_t ts_apply(const struct ts_adjust *a, int cpu, uint64_t ts);

/* ---- walk.c: a stream of eo's inputs ---- */

struct input;

/* s empty, its warnings to stderr as eo->applet's, eo's progress. */
void stream_init(struct stream *s, const struct events_opts *eo);
/*
 * Every input's buffers in s, timestamps shifted as eo says, in scan
 * order (FORMAT.md 7.7): the top buffer of each input, then the
 * instances of each.  With want (--cpu), the first input's top buffer
 * only, as trace-cmd 3.1.6 does: the CPUs want(cpus, id) says, and the
 * others hidden where its input asks for all_cpus.  0, or -1 (said on
 * stderr).
 */
int stream_start(struct stream *s, const struct events_opts *eo,
		 struct input *in, int (*want)(const void *cpus, int cpu),
		 const void *cpus);

#endif
