/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record_internal.h - what the recorder's files share (private to
 * convert/record/; the interface is record.h).
 *
 *   record.c        record_run: the session around a COMMAND or a wait
 *   session.c       one recording from setup to the finished file
 *   tracefs_save.c  change control files, remembering what they held
 *                   (in memory and in OUT.rec/tracefs, the journal)
 *   tracefs_restore.c  put every one back (rec_tracefs_restore)
 *   journal.c       the same from the journal after a kill
 *   tracefs_setup.c first step of the setup: buffers (rec_tracefs_prepare)
 *   tracefs_arm.c   second step: filters, tracer, options, pids
 *   tracefs_events.c  events, filters, triggers; systems recorded
 *   date.c          --date: the trace clock against the wall clock
 *   readers.c       one thread per CPU stream: trace_pipe_raw -> read ->
 *                   OUT.rec/FILE (readers_*)
 *   syncer.c        --flush-interval: those files put on disk as they
 *                   grow, in rounds (syncer_*)
 *   rounds.c        OUT.rec/synced: the files' sizes at the last round
 *                   on disk (rounds_*)
 *   rounds_cut.c    restore's cut of a dead machine's files there
 *                   (record_cut_source)
 *   recdir.c        OUT.rec/: manifest, head.dat, removal (recdir_*)
 *
 * Errors are values as in libfmt: -1 and a struct tdat_error.
 */
#ifndef TDAT_RECORD_INTERNAL_H
#define TDAT_RECORD_INTERNAL_H

#include <limits.h>
#include "libfmt/tracedat.h"
#include "convert/record/record.h"
#include "convert/tracefs/sysmeta.h"

/* ---- tracefs_save.c, tracefs_restore.c ---- */

/* A control file as it was before the recording changed it. */
struct rec_saved {
	char *dir;
	char *file;
	char *value;	/* as read */
	int own;	/* record's own setting: put back even with -k */
};

/* Every control file changed, with what it held before. */
struct rec_tracefs {
	char top[PATH_MAX];	/* the tracefs mount */
	int nsaved;
	struct rec_saved *saved;
	int ncreated;		/* instances this recording made */
	char **created;
	int journal;		/* OUT.rec/tracefs, or -1 */
	char journal_path[PATH_MAX];
	void (*warn)(const char *msg);	/* -i's warnings */
};

void rec_tracefs_init(struct rec_tracefs *t);
/* err becomes "WHAT (what err said)"; -1. */
int rec_because(struct tdat_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The control directory of a buffer: top, or top/instances/NAME. */
int rec_buffer_dir(const struct rec_tracefs *t, const char *name,
		   char *dir, size_t cap, struct tdat_error *err);
/* This boot's id (/proc/sys/kernel/random/boot_id) into id; -1 when
 * it cannot be read. */
int rec_boot_id(char *id, size_t cap);
/* Start the journal recdir/tracefs; every save goes to it too. */
int rec_journal_open(struct rec_tracefs *t, const char *recdir, int keep,
		     struct tdat_error *err);
void rec_journal_close(struct rec_tracefs *t);
/* Save what dir/file holds (the first time only). */
int rec_save(struct rec_tracefs *t, const char *dir, const char *file,
	     struct tdat_error *err);
/* Write value to dir/file, saving what it held the first time; _own for
 * record's own settings, which -k does not keep. */
int rec_set(struct rec_tracefs *t, const char *dir, const char *file,
	    const char *value, struct tdat_error *err);
int rec_set_own(struct rec_tracefs *t, const char *dir, const char *file,
		const char *value, struct tdat_error *err);
/* A setting of record's own that a recording can do without (some
 * kernels refuse root such writes): as rec_set_own, but a refused write
 * is forgotten, t->warn told why and what recording does without it
 * (without), and 1 returned; -1 on any other failure. */
int rec_try_own(struct rec_tracefs *t, const char *dir, const char *file,
		const char *value, const char *without, struct tdat_error *err);
/* The instance NAME made unless it exists (then it is someone's: used,
 * put back, kept). */
int rec_use_instance(struct rec_tracefs *t, const char *name,
		     struct tdat_error *err);
/* Entries added as they are (the journal's reader); -1 out of memory. */
int rec_tracefs_add_saved(struct rec_tracefs *t, const char *dir,
			  const char *file, const char *value, int own);
int rec_tracefs_add_created(struct rec_tracefs *t, const char *name);
/* Put every saved file back (newest first), remove created instances;
 * with keep only record's own settings, instances kept.  Goes on after
 * a failure; warn gets one line per failure.  Frees t's lists. */
int rec_tracefs_restore(struct rec_tracefs *t, int keep,
			void (*warn)(const char *msg));
/* Free t's lists, close the journal, put nothing back. */
void rec_tracefs_free(struct rec_tracefs *t);

/* ---- tracefs_setup.c, tracefs_arm.c, tracefs_events.c ---- */

/* Buffer i is recorded: an instance, or the top with -e or -p. */
int rec_recorded(const struct record_opts *o, int i);
/* First step: -d/-D, --cmdlines-size; buffers made, tracing off,
 * clock, sizes, CPU mask.  On failure what was changed so far stays in
 * t for rec_tracefs_restore (so for every step). */
int rec_tracefs_prepare(struct rec_tracefs *t, const struct record_opts *o,
			struct tdat_error *err);
/* Second step: function filters, events, tracer, options, graph depth,
 * the process filters (-P, and follow_pid for -F when > 0); the old
 * data cleared. */
/* Every recorded buffer's set_event_notrace_pid made this process's
 * threads (the readers started), so that record's own syscalls and
 * switches are not recorded, as trace-cmd leaves its own out; not with
 * --no-filter, nor when -F follows record itself, nor where the kernel
 * has no such file.  0 or -1. */
int rec_tracefs_leave_self_out(struct rec_tracefs *t,
			       const struct record_opts *o, int follow_pid,
			       struct tdat_error *err);
int rec_tracefs_arm(struct rec_tracefs *t, const struct record_opts *o,
		    int follow_pid, struct tdat_error *err);
/* set_event and the filters and triggers of buffer b (in dir). */
int rec_set_events(struct rec_tracefs *t, const struct record_opts *o,
		   const char *dir, const struct rec_buf_opts *b,
		   struct tdat_error *err);
/* tracing_on of every recorded buffer. */
int rec_tracing_on(struct rec_tracefs *t, const struct record_opts *o,
		   int on, struct tdat_error *err);
/* The systems that the -e options select (sorted, unique); every
 * system for "all".  Freed with tfs_names_free. */
struct tfs_names;
int rec_selected_systems(const struct rec_tracefs *t,
			 const struct record_opts *o, struct tfs_names *out,
			 struct tdat_error *err);

/* ---- date.c ---- */

/*
 * --date: tracing on in dir for a moment, a marker written between two
 * readings of the wall clock, its timestamp found in the ring buffer
 * (pages read with m's layout); the best of a few tries.  *usecs gets
 * wall clock minus trace clock in microseconds, as trace-cmd's DATE
 * option holds it.  Leaves tracing off and the buffer empty.
 */
int rec_date_offset(const char *dir, const struct tdat_file *m,
		    long long *usecs, struct tdat_error *err);

/* ---- readers.c ---- */

struct readers;

/* One stream to read: dir/per_cpu/cpuCPU/trace_pipe_raw (or raw_name
 * there: extract -s reads snapshot_raw) -> path. */
struct reader_spec {
	char dir[PATH_MAX];
	int cpu;
	char path[PATH_MAX];
	uint32_t page_size;
	const char *raw_name;	/* NULL: trace_pipe_raw */
};

/*
 * Open every stream and start a thread for each.  max_bytes > 0 keeps
 * only the newest max_bytes (whole pages) of each file.  When a reader
 * fails it records the error and sends SIGUSR1 to the process.
 */
/* The readers' longest sleep unless -s says: half a second. */
#define REC_READER_SLEEP_US 500000L

/* How the readers wait: sleep_us the longest sleep (-1: the default),
 * poll: never in the kernel's wait (--poll), rt_prio: SCHED_FIFO (-r). */
struct reader_opts {
	uint64_t max_bytes;
	long sleep_us;
	int poll;
	int rt_prio;
	const struct tdat_file *layout;	/* how the kernel's pages begin */
};
struct readers *readers_start(const struct reader_spec *specs, int n,
			      const struct reader_opts *ro,
			      struct tdat_error *err);
/* Tracing is off: move everything left and join the threads.  Closes
 * every tracefs file.  -1 if any reader failed. */
int readers_stop(struct readers *r, struct tdat_error *err);
/* A round: every reader takes what the kernel has now (the page it is
 * filling too) and pos[i] gets stream i's file size after it.  0, or 1
 * when some reader did not answer within timeout_ms (pos not set). */
int readers_round(struct readers *r, long timeout_ms, uint64_t *pos);
/* Bytes written by stream i. */
uint64_t readers_bytes(const struct readers *r, int i);
void readers_free(struct readers *r);

/* 1 if some file could not be cut to -m's limit (file system). */
int readers_limit_failed(const struct readers *r);

/* ---- syncer.c: the readers' files put on disk as they grow ---- */

struct syncer;
/* Sync dir once, then each interval_ms / 2 until stopped a round: the
 * readers of rd take what the kernel has (readers_round), every file
 * that changed is synced, and the sizes of that moment go to
 * dir/synced.  A failed sync is kept and SIGUSR1 sent to the process. */
struct syncer *syncer_start(const char *dir, const struct reader_spec *specs,
			    int n, struct readers *rd, long interval_ms,
			    struct tdat_error *err);
/* Join and free (s may be NULL).  *unsupported (if not NULL) is 1 when
 * the file system could not sync: the thread stopped at the first try.
 * -1 with the error when a sync failed. */
int syncer_stop(struct syncer *s, int *unsupported, struct tdat_error *err);

/* ---- rounds.c: OUT.rec/synced, the files' sizes at the last round ---- */

/* Its slots begin at multiples of this. */
#define REC_SLOT_ALIGN 4096
struct rounds;
/* Create dir/synced for the readers' files specs[0..n). */
struct rounds *rounds_open(const char *dir, const struct reader_spec *specs,
			   int n, struct tdat_error *err);
/* Round round's sizes, in the slot it writes, put on disk. */
int rounds_put(struct rounds *r, uint64_t round, const uint64_t *sizes,
	       struct tdat_error *err);
void rounds_close(struct rounds *r);

/* ---- streams.c: the streams and manifest of OUT.rec/ ---- */

/* The buffers read (names[i]: "" the top, else an instance) and their
 * per-CPU streams; spec_buf[k] is stream k's index into names. */
struct rec_streams {
	int nnames;
	const char **names;	/* malloc'd array; the names are not owned */
	const char *raw_name;	/* the file readers read, NULL: trace_pipe_raw */
	int n;
	struct reader_spec *specs;
	int *spec_buf;
};
/* One stream per CPU directory (of ncpus) of every buffer; every
 * buffer's sub-buffers must be page_size. */
int rec_streams_plan(struct rec_streams *s, const char *top,
		     const char *recdir, int ncpus, uint32_t page_size,
		     struct tdat_error *err);
/* OUT.rec/manifest and OUT.rec/output (record.h), written atomically. */
int rec_streams_manifest(const struct rec_streams *s, const char *top,
			 const char *recdir, int ncpus, uint32_t page_size,
			 int latency, int version, enum tdat_codec codec,
			 struct tdat_error *err);
void rec_streams_free(struct rec_streams *s);

/* ---- recdir.c ---- */

/* A latency tracer's text in OUT.rec/ (the manifest names it). */
#define REC_LATENCY_FILE "latency"

/* OUT.rec for out. */
int recdir_path(const char *out, char *dir, size_t cap,
		struct tdat_error *err);
/* Make it (refused when it exists: an earlier recording left it). */
int recdir_create(const char *dir, struct tdat_error *err);
/* dir/name holding text, written under a temporary name and renamed. */
int recdir_write_text(const char *dir, const char *name, const char *text,
		      struct tdat_error *err);
/* m (metadata and options, no buffers) as dir/head.dat, atomically. */
int recdir_write_head(const char *dir, const struct tdat_file *m,
		      int version, enum tdat_codec codec,
		      struct tdat_error *err);
/* Remove dir and the files in it. */
int recdir_remove(const char *dir, struct tdat_error *err);

/* ---- session.c: one recording from setup to the finished file ---- */

struct rec_session {
	const struct record_opts *o;
	struct rec_tracefs t;
	char recdir[PATH_MAX];
	int recdir_made;
	struct tdat_file *meta;
	int ncpus;
	struct rec_streams st;	/* the recorded buffers' streams */
	struct readers *rd;
	struct syncer *sync;	/* --flush-interval, or NULL */
	int tracing;
	int latency;		/* a latency tracer: the "trace" text */
};

/* Set tracefs up (follow_pid: -F's process, or 0), write OUT.rec's
 * manifest and head.dat, start the readers, turn tracing on.  On
 * failure everything is undone. */
int rec_session_start(struct rec_session *s, const struct record_opts *o,
		      int follow_pid, struct tdat_error *err);
/* Tracing off, drain, put tracefs back, assemble OUT, remove OUT.rec.
 * lost gets the events the kernel dropped (overruns).  Frees s. */
int rec_session_stop(struct rec_session *s, uint64_t *lost,
		     struct tdat_error *err);

#endif
