/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fleet.h - work that a cluster's tasks divide among themselves, shared
 * by convert --archive --in-place, convert --to parquet and dump
 * --validate: the list of inputs (--files-from, -0; pathlist.c), the
 * part of it one task takes (--shard K/N; shard.c), and the log of what
 * was done to each file, one JSON object a line (--log; joblog.c).
 *
 * No task talks to another: a file's part depends on its path alone,
 * and the log is appended to by one write() a line.
 */
#ifndef FLEET_H
#define FLEET_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

/* ---- shard.c ---- */

#define SHARD_MAX 1000000	/* parts: more than any scheduler's array */

struct shard {
	uint32_t k, n;		/* part k of n (0-based); n 0: every file */
};

/*
 * "K/N" (0 <= K < N <= SHARD_MAX, decimal) or "slurm": K and N from a
 * Slurm job array's SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN (0
 * when unset) and SLURM_ARRAY_TASK_COUNT, whose values (or NULL) the
 * caller passes.  0, or -1 with one line in why (cap bytes).
 */
int shard_parse(struct shard *s, const char *arg, const char *task_id,
		const char *task_min, const char *task_count, char *why,
		size_t cap);
/* FNV-1a 64 over n bytes at p, from h (FLEET_FNV_BASIS to start), and
 * MurmurHash3's fmix64 (every bit of h reaches every bit): the shard
 * rule's hash, and logdone.c's keys. */
#define FLEET_FNV_BASIS 0xcbf29ce484222325ull
uint64_t fleet_fnv1a(uint64_t h, const void *p, size_t n);
uint64_t fleet_fmix64(uint64_t h);
/* The part of n (n >= 1) the file at path (as given) falls in: its
 * bytes' FNV-1a 64-bit hash, mixed by MurmurHash3's fmix64, mod n. */
uint32_t shard_of(const char *path, uint32_t n);
/* Whether s takes path: always when s is NULL or s->n is 0. */
int shard_takes(const struct shard *s, const char *path);

/* ---- pathlist.c ---- */

struct pathlist {
	char **v;		/* malloc'd paths, as given */
	int n, cap;
};

/* A copy of path appended.  0, or -1 out of memory. */
int pathlist_add(struct pathlist *l, const char *path);
void pathlist_free(struct pathlist *l);
/*
 * The paths of a --files-from text buf[0..n) appended to l: one a line,
 * or with nul, NUL-separated (find -print0); empty entries skipped, the
 * last one needs no separator, nothing else is changed (spaces are part
 * of a path).  A NUL byte in a list of lines is an error (it is a list
 * of -0, or not a list).  name is the list's name for errors.  0, or -1
 * with err "NAME: offset N: what".
 */
int pathlist_parse(struct pathlist *l, const char *buf, size_t n, int nul,
		   const char *name, struct tdat_error *err);
/* The same from the file name, or standard input for "-". */
int pathlist_read(struct pathlist *l, const char *name, int nul,
		  struct tdat_error *err);

/* ---- joblog.c ---- */

struct joblog {
	int fd;			/* -1: no log */
	char *path;
	char host[256];
	char task[32];		/* "K/N", or "" unsharded */
	int cut;		/* the log ends in a cut line: the next
				 * line starts on a line of its own */
	int failed;		/* a line could not be written: */
	struct tdat_error err;	/* the first such failure */
};

/* What was done to one file. */
struct joblog_entry {
	const char *path;
	const char *result;	/* "archived", "failed", ...: the applet's */
	int sized;		/* before and after are known */
	uint64_t before, after;	/* bytes */
	double seconds;
	const char *reason;	/* why, or NULL */
	const char *mtime;	/* the file's (joblog_mtime), or NULL: no
				 * "mtime" key in the line */
};

/* Seconds of CLOCK_MONOTONIC since t0: an entry's seconds. */
double joblog_since(const struct timespec *t0);

#define JOBLOG_MTIME_MAX 48

/* A modification time as the log writes it, in UTC to the nanosecond:
 * "2026-12-06T15:42:35.123456789Z".  buf holds JOBLOG_MTIME_MAX. */
void joblog_mtime(const struct timespec *t, char *buf);

struct stat;
/* 1 when now describes the file was did: same inode, size and
 * modification time (nobody changed it between the two looks; a
 * verdict or an archive of the first is good for the second). */
int joblog_same_file(const struct stat *was, const struct stat *now);

/* No log: joblog_write does nothing. */
void joblog_none(struct joblog *lg);
/*
 * Open path to append to (made when absent, never through a symlink;
 * a regular file, FIFO or terminal).  0, or -1 with err.
 */
int joblog_open(struct joblog *lg, const char *path, const struct shard *s,
		struct tdat_error *err);
/*
 * One line: {"time":"2026-12-06T15:42:35Z","host":H,"pid":P,"task":T,
 * "path":...,"result":...,"bytes_before":N,"bytes_after":N,
 * ["mtime":M,]"seconds":S,"reason":...}, written by one write() on a descriptor
 * opened with O_APPEND, so that lines of tasks appending at once never
 * mix (on a local file system; see tdat-convert(1) on NFS).  0, or -1
 * with lg->failed set and the first failure kept in lg->err: the work
 * goes on, and the applet says it and fails at the end.
 */
int joblog_write(struct joblog *lg, const struct joblog_entry *e);
void joblog_close(struct joblog *lg);
/* s as a JSON string (quotes included) appended to out: valid UTF-8 as
 * it is, every other byte as \u00XX, as --json writes text.  0 or -1. */
int fleet_json_string(struct tdat_bytes *out, const char *s);

/* ---- logline.c ---- */

/* The fields of one log line a rerun reads; strings decoded (\u00XX
 * as the byte XX, the inverse of fleet_json_string) and NUL-ended. */
struct logline {
	struct tdat_bytes path, result, mtime, reason;
	int has_path, has_result, has_mtime, has_reason;  /* strings */
	int sized;		/* bytes_before an integer: */
	uint64_t size;
	struct tdat_bytes key;	/* scratch */
};

/* s[0..n) (no newline) as one whole JSON object, l's fields from it
 * (the buffers reused from line to line).  0, or -1 when it is not one
 * (cut, not JSON, something after it). */
int logline_parse(struct logline *l, const char *s, size_t n);
void logline_free(struct logline *l);

/* ---- logdone.c ---- */

/*
 * What earlier runs logged as done: for each line with a path, an
 * integer bytes_before (the size), an mtime and one of the results
 * given, the key (path, size, mtime) and which result, the last line
 * of a key counting.  Held as 24 bytes a key, the lines read through a
 * fixed buffer: a log of a million lines takes tens of MB.
 */
struct logdone {
	struct logdone_slot *v;	/* open addressing, cap a power of 2 */
	size_t n, cap;
	const char *path;
	const char *const *results;	/* NULL-ended, at most 255 */
	int fd;			/* the log, for lines read again */
	uint64_t lines;		/* lines read */
	uint64_t ignored;	/* of them cut, too long or not JSON */
};

/*
 * The log at path read (never through a symlink; a log absent, a FIFO
 * or a terminal is empty).  0, or -1 with err when it cannot be read
 * (what was read until then is kept: d is usable either way, and is
 * freed with logdone_free).
 */
int logdone_read(struct logdone *d, const char *path,
		 const char *const *results, struct tdat_error *err);
/* The result (its index) logged last for the file at path (as given)
 * of that size and mtime (joblog_mtime), and its line's offset in *off
 * (may be NULL); -1 when none is. */
int logdone_find(const struct logdone *d, const char *path, uint64_t size,
		 const char *mtime, uint64_t *off);
/* The line at off read again into l (for its reason).  0 or -1. */
int logdone_line(const struct logdone *d, uint64_t off, struct logline *l);
void logdone_free(struct logdone *d);

#endif
