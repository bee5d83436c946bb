/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record_internal.h - what the recorder's files share (private to
 * convert/record/; the interface is record.h).
 *
 *   record.c        record_run: the session around a COMMAND or a wait
 *   session.c       one recording from setup to the finished file
 *   tracefs_setup.c change control files, remembering what they held,
 *                   and put every one back (rec_tracefs_*)
 *   readers.c       one thread per CPU stream: trace_pipe_raw -> splice ->
 *                   OUT.rec/FILE (readers_*)
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

/* ---- tracefs_setup.c ---- */

struct rec_saved;

/* Every control file changed, with what it held before. */
struct rec_tracefs {
	char top[PATH_MAX];	/* the tracefs mount */
	int nsaved;
	struct rec_saved *saved;
	int ncreated;		/* instances this recording made */
	char **created;
};

/* The control directory of a buffer: top, or top/instances/NAME. */
int rec_buffer_dir(const struct rec_tracefs *t, const char *name,
		   char *dir, size_t cap, struct tdat_error *err);
/* Write value to dir/file, saving what it held the first time. */
int rec_set(struct rec_tracefs *t, const char *dir, const char *file,
	    const char *value, struct tdat_error *err);
/*
 * Make every buffer of o ready: instances created, tracing off, the old
 * data cleared, events and filters, clock, sizes, CPU mask.  On failure
 * what was changed so far stays recorded in t for rec_tracefs_restore.
 */
int rec_tracefs_setup(struct rec_tracefs *t, const struct record_opts *o,
		      struct tdat_error *err);
/* tracing_on of every recorded buffer. */
int rec_tracing_on(struct rec_tracefs *t, const struct record_opts *o,
		   int on, struct tdat_error *err);
/* Put every saved file back (newest first), remove created instances.
 * Goes on after a failure; warn gets one line per failure. */
int rec_tracefs_restore(struct rec_tracefs *t,
			void (*warn)(const char *msg));
/* The systems that the -e options of buffer b select (sorted, unique);
 * every system for "all".  Freed with tfs_names_free. */
struct tfs_names;
int rec_selected_systems(const struct rec_tracefs *t,
			 const struct record_opts *o, struct tfs_names *out,
			 struct tdat_error *err);

/* ---- readers.c ---- */

struct readers;

/* One stream to read: dir/per_cpu/cpuCPU/trace_pipe_raw -> path. */
struct reader_spec {
	char dir[PATH_MAX];
	int cpu;
	char path[PATH_MAX];
	uint32_t page_size;
};

/*
 * Open every stream and start a thread for each.  max_bytes > 0 keeps
 * only the newest max_bytes (whole pages) of each file.  When a reader
 * fails it records the error and sends SIGUSR1 to the process.
 */
struct readers *readers_start(const struct reader_spec *specs, int n,
			      uint64_t max_bytes, struct tdat_error *err);
/* Tracing is off: move everything left and join the threads.  Closes
 * every tracefs file.  -1 if any reader failed. */
int readers_stop(struct readers *r, struct tdat_error *err);
/* Bytes written by stream i. */
uint64_t readers_bytes(const struct readers *r, int i);
void readers_free(struct readers *r);

/* 1 if some file could not be cut to -m's limit (file system). */
int readers_limit_failed(const struct readers *r);

/* ---- recdir.c ---- */

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
	int nspecs;
	struct reader_spec *specs;
	int *spec_buf;		/* index into o->bufs of each stream */
	struct readers *rd;
	int tracing;
};

/* Set tracefs up, write OUT.rec's manifest and head.dat, start the
 * readers, turn tracing on.  On failure everything is undone. */
int rec_session_start(struct rec_session *s, const struct record_opts *o,
		      struct tdat_error *err);
/* Tracing off, drain, put tracefs back, assemble OUT, remove OUT.rec.
 * lost gets the events the kernel dropped (overruns).  Frees s. */
int rec_session_stop(struct rec_session *s, uint64_t *lost,
		     struct tdat_error *err);

#endif
