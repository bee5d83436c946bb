/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fleetopts.c - --files-from, -0, --shard and --log read the same way
 * by every applet that takes them (fleetopts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/fleetopts.h"
#include "libfmt/tracedat.h"

int fleet_opt(struct fleet_args *f, int c, const char *arg)
{
	switch (c) {
	case OPT_FILES_FROM:
		f->files_from = arg;
		return 0;
	case '0':
		f->nul = 1;
		return 0;
	case OPT_SHARD:
		f->shard_arg = arg;
		return 0;
	case OPT_LOG:
		f->log = arg;
		return 0;
	default:
		return -1;
	}
}

int fleet_given(const struct fleet_args *f)
{
	return f->files_from || f->nul || f->shard_arg || f->log;
}

int fleet_check(struct fleet_args *f)
{
	char why[300];

	if (f->nul && !f->files_from)
		return usage_error("-0 goes with --files-from");
	if (f->shard_arg &&
	    shard_parse(&f->shard, f->shard_arg, getenv("SLURM_ARRAY_TASK_ID"),
			getenv("SLURM_ARRAY_TASK_MIN"),
			getenv("SLURM_ARRAY_TASK_COUNT"), why, sizeof(why)))
		return usage_error("%s", why);
	return 0;
}

int fleet_read_list(const struct fleet_args *f, struct pathlist *l)
{
	struct tdat_error err;

	if (!f->files_from || !pathlist_read(l, f->files_from, f->nul, &err))
		return 0;
	fprintf(stderr, "tdat %s: %s\n", cmd_name, err.msg);
	return 1;
}

void fleet_read_done(const struct fleet_args *f, const char *const *results,
		     struct logdone *d)
{
	struct tdat_error err;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (!f->log)
		return;
	if (logdone_read(d, f->log, results, &err))
		fprintf(stderr, "tdat %s: warning: %s: what it does not say"
			" is done again\n", cmd_name, err.msg);
	if (d->ignored)
		fprintf(stderr, "tdat %s: warning: %s: %llu of %llu lines"
			" passed over (cut or not JSON)\n", cmd_name, f->log,
			(unsigned long long)d->ignored,
			(unsigned long long)d->lines);
}

int fleet_open_log(const struct fleet_args *f, struct joblog *lg)
{
	struct tdat_error err;

	joblog_none(lg);
	if (!f->log || !joblog_open(lg, f->log, &f->shard, &err))
		return 0;
	fprintf(stderr, "tdat %s: %s\n", cmd_name, err.msg);
	return 1;
}

int fleet_close_log(struct joblog *lg)
{
	int r = lg->failed;

	if (r)
		fprintf(stderr, "tdat %s: %s\n", cmd_name, lg->err.msg);
	joblog_close(lg);
	return r;
}
