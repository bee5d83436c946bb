/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump.h - the dump engine: what a trace.dat holds, as trace-cmd dump prints it. */
#ifndef CONVERT_DUMP_H
#define CONVERT_DUMP_H

#include <stdint.h>

struct tdat_error;
struct shard;
struct joblog;
struct logdone;

/* The parts to print, one bit per trace-cmd dump option. */
enum {
	DUMP_SUMMARY	= 1u << 0,
	DUMP_HEAD_PAGE	= 1u << 1,
	DUMP_HEAD_EVENT	= 1u << 2,
	DUMP_FTRACE	= 1u << 3,
	DUMP_SYSTEMS	= 1u << 4,
	DUMP_EVENTS	= 1u << 5,
	DUMP_KALLSYMS	= 1u << 6,
	DUMP_PRINTK	= 1u << 7,
	DUMP_CMDLINES	= 1u << 8,
	DUMP_OPTIONS	= 1u << 9,
	DUMP_FLYRECORD	= 1u << 10,
	DUMP_CLOCK	= 1u << 11,
	DUMP_SECTIONS	= 1u << 12,
	DUMP_STRINGS	= 1u << 13,
	DUMP_ALL	= (1u << 14) - 1,
};

struct dump_opts {
	const char *path;	/* as given: printed as it is */
	unsigned parts;		/* DUMP_* bits; 0 is DUMP_SUMMARY */
	int validate;		/* -v: read every page and chunk too */
	int json;		/* one JSON object instead of the text */
	/* -v: stored trace data read so far, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* What the walk went past and the file still reads without (one
	 * line, "FILE: offset N: what"); may be NULL. */
	void (*warn)(const char *msg);
};

/*
 * Print what o->path holds on stdout.  0 when the whole file was read;
 * 1 with err ("FILE: offset N: what") when
 * it is damaged: what came before is printed as trace-cmd would.
 */
int dump_run(const struct dump_opts *o, struct tdat_error *err);

/* dump --validate of several files (many.c). */
struct dump_many {
	const struct dump_opts *o;	/* each file's, but its path */
	char **paths;			/* as given */
	int npaths;
	const struct shard *shard;	/* only this part's; may be NULL */
	struct joblog *log;		/* a line each (fd -1: none) */
	int logged;			/* a --log: the summary counts */
	struct logdone *done;		/* what earlier runs logged */
};
/* The results logged, in the order logdone_find gives their index:
 * "valid", "valid already", "invalid", "invalid already". */
extern const char *const dump_log_results[];
/*
 * Validate each path of d's part: trace-cmd's line on stdout for a
 * valid one, the error on stderr for another (a verdict taken from the
 * log says so), a log line each, then the summary on stderr.  1 when
 * any is invalid, else 0.
 */
int dump_validate_many(const struct dump_many *d);

#endif
