/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fleetopts.h - the options of work divided among a cluster's tasks,
 * the same in convert --archive --in-place, convert --to parquet and
 * dump --validate: --files-from FILE, -0, --shard K/N|slurm, --log FILE
 * (convert/fleet/fleet.h does the work).  Each applet lists them in its
 * own option table with these values.
 */
#ifndef FLEETOPTS_H
#define FLEETOPTS_H

#include "convert/fleet/fleet.h"

enum { OPT_FILES_FROM = 0x300, OPT_SHARD, OPT_LOG };

struct fleet_args {
	const char *files_from;	/* --files-from, NULL: not given */
	int nul;		/* -0 */
	const char *shard_arg;	/* --shard as given, NULL: not given */
	const char *log;	/* --log, NULL: not given */
	struct shard shard;	/* n 0: every file */
};

/* Option c (with arg) taken into f: 0; -1 when c is not one of them. */
int fleet_opt(struct fleet_args *f, int c, const char *arg);
/* Whether any was given. */
int fleet_given(const struct fleet_args *f);
/* After the options: --shard read (slurm's from the environment), -0
 * only with --files-from.  0, or 2 after one usage line. */
int fleet_check(struct fleet_args *f);
/* --files-from's paths appended to l.  0, or 1 after one line. */
int fleet_read_list(const struct fleet_args *f, struct pathlist *l);
/* What earlier runs logged as done to --log (results: logdone_read's),
 * for a rerun to skip; empty without --log.  A log that cannot be read
 * back is said in one warning line: what was read of it is kept, the
 * rest is done again. */
void fleet_read_done(const struct fleet_args *f, const char *const *results,
		     struct logdone *d);
/* The log opened (joblog_none without --log).  0, or 1 after one line. */
int fleet_open_log(const struct fleet_args *f, struct joblog *lg);
/* The log closed: 1 after one line when a line could not be written,
 * else 0. */
int fleet_close_log(struct joblog *lg);

#endif
