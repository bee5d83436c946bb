/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - the record engine's interface: the options cmds/record.c
 * parses, and record_run; extract's (cmds/extract.c), and extract_run.
 *
 * It also sets down the on-disk state of a recording (the contract
 * between record and restore, so that a SIGKILLed "record -o OUT" can be
 * finished by "restore OUT").  While it runs, record keeps everything in
 * the directory OUT.rec/:
 *
 *   OUT.rec/head.dat    header-only trace.dat written before tracing
 *                       starts (sysmeta_header_only's content plus the
 *                       recording's options: clock, uname, ...); may be
 *                       rewritten (atomically) when the recording ends,
 *                       to add per-CPU stats.
 *   OUT.rec/manifest    text, written atomically before tracing starts:
 *                         tdat-recording 1
 *                         page_size 4096
 *                         buffer NAME clock CLOCK cpus N
 *                         cpu NAME CPU FILE
 *                       one "buffer" line per buffer ("-" names the top
 *                       buffer, first), then one "cpu" line per CPU
 *                       stream; FILE is relative to OUT.rec/.  A latency
 *                       tracer's buffer line ends "latency FILE" and has
 *                       no cpu lines: FILE (written when the recording
 *                       ends) holds the kernel's "trace" text.
 *   OUT.rec/tracefs     the journal of tracefs changes: what each control
 *                       file held before record first changed it, and
 *                       the instances it made, a line each, written
 *                       before the change (convert/record/tracefs_save.c
 *                       has its format).  record_put_back reads it.
 *   OUT.rec/output      added later: one line "VERSION CODEC" ("6 none",
 *                       "7 zstd"), the file the recording was asked for.
 *                       head.dat is always v7 "none" (quick to write
 *                       twice; compressing kallsyms is not), so restore
 *                       OUT should take version and codec from this file
 *                       when it is there.
 *   OUT.rec/synced      with --flush-interval: each file's size at the
 *                       last round put on disk, in two slots with a CRC
 *                       (convert/record/rounds.c has the format).
 *   OUT.rec/FILE        raw ring-buffer pages as read from
 *                       trace_pipe_raw, page after page; the last page
 *                       may be incomplete after a crash.  Note: the
 *                       kernel sets the missed-events flags of the
 *                       commit word through a signed long, so a page
 *                       that follows lost events reads e.g. commit
 *                       0xffffffffc0000fc0 on a 64-bit kernel (bits
 *                       32-63 set, sign-extended from bit 31): a good
 *                       page that trace-cmd reads and reports with
 *                       "CPU:N [M EVENTS DROPPED]", not a bad one.
 *
 * On a normal end, record assembles OUT from OUT.rec with the same code
 * restore uses (convert/restore/restore.h) and then removes OUT.rec.
 */
#ifndef TDAT_RECORD_H
#define TDAT_RECORD_H

#include "libfmt/tracedat.h"

struct raw_source;	/* convert/restore/restore.h */

/*
 * A recording whose machine died (OUT.rec/synced names another boot):
 * src reads each raw file up to its size at the last round the disk
 * completed, so that every CPU's file ends at one moment; 1.  0 and
 * src->open NULL when there is nothing to cut (the same boot: the page
 * cache kept every byte; no round on disk).  record_cut_free after.
 */
int record_cut_source(const char *recdir, struct raw_source *src);
void record_cut_free(struct raw_source *src);

/* --flush-interval's default: a second. */
#define REC_FLUSH_MS 1000

/* A list of words: -O options, -l functions, -R triggers... */
struct rec_words {
	int n;
	char **v;
};

/* One -e: SYSTEM, SYSTEM:EVENT, EVENT or all (system and event NULL). */
struct rec_event {
	char *system;		/* NULL: every system ("all", or EVENT alone) */
	char *event;		/* NULL: every event of system */
	char *filter;		/* -f after it, or NULL */
	int neg;		/* after -v: disabled instead of enabled */
	struct rec_words triggers;	/* -R after it */
};

/* The top buffer (name "") or a -B instance, with what applies to it. */
struct rec_buf_opts {
	char *name;
	int nevents;
	struct rec_event *events;
	char *tracer;		/* -p, or NULL */
	struct rec_words options;	/* -O, -T ("stacktrace"), in order */
	struct rec_words funcs;		/* -l: set_ftrace_filter */
	struct rec_words notrace;	/* -n: set_ftrace_notrace */
	int npids;
	int *pids;		/* -P */
	int children;		/* -c: event-fork (function-fork) */
	long graph_depth;	/* --max-graph-depth, -1: leave alone */
};

/* -d and -D */
enum rec_ftrace_off {
	REC_FTRACE_ON = 0,	/* leave the function tracer as it is */
	REC_FTRACE_OFF_OPT,	/* -d: options/function-trace 0 */
	REC_FTRACE_OFF_ALL,	/* -D: that and ftrace_enabled 0 */
};

struct record_opts {
	int nbufs;
	struct rec_buf_opts *bufs;	/* [0]: the top buffer, always there */
	char *clock;		/* -C, or NULL to leave trace_clock alone */
	long buffer_kb;		/* -b, 0: leave buffer_size_kb alone */
	char *cpumask;		/* -M, or NULL */
	long max_kb;		/* -m, 0: no limit */
	char *output;		/* -o, default trace.dat */
	int quiet;		/* -q */
	int version;		/* --file-version: 6 or 7 */
	enum tdat_codec codec;	/* --compression */
	long subbuf_kb;		/* --subbuf-size, 0: leave alone */
	char **cmd;		/* COMMAND [ARGS], or NULL: until a signal */
	struct rec_words graph_funcs;	/* -g: set_graph_function (top) */
	int follow;		/* -F: only the command's events */
	int ignore_missing;	/* -i: warn about missing events */
	int keep;		/* -k: leave the tracing state on at the end */
	long sleep_us;		/* -s: longest reader sleep, -1: default */
	long flush_ms;		/* --flush-interval, 0: off */
	int date;		/* --date: a DATE option */
	char *ts_offset;	/* --ts-offset: an OFFSET option, as given */
	int func_stack;		/* --func-stack */
	enum rec_ftrace_off ftrace_off;	/* -d, -D */
	char *user;		/* --user: run the command as this user */
	int all_formats;	/* -a: every event format in the file */
	long cmdlines_size;	/* --cmdlines-size, 0: leave alone */
	int rt_prio;		/* -r: SCHED_FIFO priority of readers, 0 */
	int poll;		/* --poll: readers never wait in the kernel */
	int no_filter;		/* --no-filter: record's own threads traced */
};

/* Latency tracers record the kernel's "trace" text, not pages. */
int rec_is_latency_tracer(const char *tracer);

/*
 * Record as o says: set tracefs up, start o->cmd if there is one, wait
 * for it to end (or for SIGINT/SIGTERM/SIGHUP), put tracefs back and
 * write o->output.  Messages go to stderr.  Returns the exit status:
 * 0, 1 on failure, or the command's (128 + N when signal N killed it).
 */
int record_run(const struct record_opts *o);

/*
 * After a killed recording: put tracefs back as recdir/tracefs says it
 * was (with -k, only record's own settings), then remove that journal.
 * 1 when there is no journal (or an empty one), 2 when it is of another
 * boot (the machine restarted since: tracefs is not the one the
 * recording changed, and is left alone), 0 done; the journal is removed
 * then.  -1 with err (the journal stays; warn got a line for each file
 * that could not be put back).  Refused while the recorder that wrote
 * it still runs.
 */
int record_put_back(const char *recdir, void (*warn)(const char *msg),
		    struct tdat_error *err);

/* trace-cmd extract's options (cmds/extract.c). */
struct extract_opts {
	char *output;		/* -o, default trace.dat */
	int top;		/* -t: the top buffer too */
	int all;		/* -a: every instance */
	int nnames;
	char **names;		/* -B, in order */
	int snapshot;		/* -s: snapshot_raw, not trace_pipe_raw */
	int quiet;		/* -q */
	int version;		/* --file-version: 6 or 7 */
	enum tdat_codec codec;	/* --compression */
};

/*
 * Read what the ring buffers hold now into o->output (extract.c), tracefs
 * left as it is: the top buffer (-t, or without -B and -a) and the
 * instances chosen.  A buffer kept across a reboot gets its
 * last_boot_info recorded, so that its events are named as the last boot
 * named them.  Messages go to stderr; the exit status: 0 or 1.
 */
int extract_run(const struct extract_opts *o);

#endif
