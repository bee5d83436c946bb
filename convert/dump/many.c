/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * many.c - dump --validate of several files (a fleet's, issue 51): a
 * line for each (trace-cmd's for a valid one, the error for another), a
 * line in the --log, and the summary.  With a log of earlier runs, a
 * file it records as validated, unchanged since (same path as given,
 * size and modification time), keeps its verdict unread.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "convert/dump/dump.h"
#include "convert/fleet/fleet.h"
#include "libfmt/tracedat.h"

/* The results dump --validate logs.  A file validated by an earlier
 * run with the same log, unchanged since, keeps its verdict: the
 * results from INVALID_FROM on say invalid. */
const char *const dump_log_results[] = {
	"valid", "valid already", "invalid", "invalid already", NULL,
};
enum { INVALID_FROM = 2 };

/* Where a run of several files stands. */
struct many {
	const struct dump_many *d;
	struct logline line;	/* scratch: a log line read again */
	int valid, invalid;	/* verdicts, those of the log included */
	int already;		/* of them the log's */
};

static void log_file(struct many *m, const char *path, const char *result,
		     const struct stat *st, const char *mtime,
		     const struct timespec *t0, const char *reason)
{
	struct joblog_entry e;

	memset(&e, 0, sizeof(e));
	e.path = path;
	e.result = result;
	e.sized = st != NULL;
	e.before = e.after = st ? (uint64_t)st->st_size : 0;
	e.mtime = mtime;
	e.seconds = joblog_since(t0);
	e.reason = reason;
	joblog_write(m->d->log, &e);
}

/* The file at path (st, mtime) as the log says an earlier run found it,
 * when it does: its verdict said and logged again, the file unread.
 * 1 when so, 0 when the file is to be read. */
static int validated_already(struct many *m, const char *path,
			     const struct stat *st, const char *mtime,
			     const struct timespec *t0)
{
	const char *reason = NULL;
	uint64_t off;
	int k = logdone_find(m->d->done, path, (uint64_t)st->st_size, mtime,
			     &off);

	if (k < 0)
		return 0;
	m->already++;
	if (k < INVALID_FROM) {
		m->valid++;
		printf("File %s is a valid trace-cmd file (validated"
		       " already)\n", path);
		log_file(m, path, "valid already", st, mtime, t0, NULL);
		return 1;
	}
	m->invalid++;
	if (!logdone_line(m->d->done, off, &m->line) && m->line.has_reason)
		reason = (const char *)m->line.reason.data;
	if (reason)
		fprintf(stderr, "tdat dump: %s (validated already)\n", reason);
	else
		fprintf(stderr, "tdat dump: %s: invalid (validated already;"
			" the log keeps no reason)\n", path);
	log_file(m, path, "invalid already", st, mtime, t0, reason);
	return 1;
}

/* Whether the file is as it was before it was read: else its line
 * gets no mtime, and no rerun takes its verdict for the new content. */
static int unchanged(const char *path, const struct stat *was)
{
	struct stat now;

	return !stat(path, &now) && joblog_same_file(was, &now);
}

/* One file of several: its verdict (the log's, or read), its line,
 * its log entry. */
static void validate_one(struct many *m, const char *path)
{
	struct tdat_error err = { { 0 }, 0 };
	char mtime[JOBLOG_MTIME_MAX];
	struct dump_opts o;
	struct timespec t0;
	struct stat st;
	int known, keyed, r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* stat before reading: a change while it is read is a change */
	known = !stat(path, &st);
	keyed = known && S_ISREG(st.st_mode);
	if (keyed)
		joblog_mtime(&st.st_mtim, mtime);
	if (keyed && validated_already(m, path, &st, mtime, &t0))
		return;
	o = *m->d->o;
	o.path = path;
	r = dump_run(&o, &err);
	if (r)
		fprintf(stderr, "tdat dump: %s\n", err.msg);
	keyed = keyed && unchanged(path, &st);
	log_file(m, path, r ? "invalid" : "valid", known ? &st : NULL,
		 keyed ? mtime : NULL, &t0, r ? err.msg : NULL);
	if (r)
		m->invalid++;
	else
		m->valid++;
}

static void summary(const struct many *m)
{
	fprintf(stderr, "tdat dump: %d valid, %d invalid", m->valid,
		m->invalid);
	if (m->d->logged)
		fprintf(stderr, ", %d of them validated already", m->already);
	fputc('\n', stderr);
}

int dump_validate_many(const struct dump_many *d)
{
	struct many m;
	int k;

	memset(&m, 0, sizeof(m));
	m.d = d;
	for (k = 0; k < d->npaths; k++)
		if (shard_takes(d->shard, d->paths[k]))
			validate_one(&m, d->paths[k]);
	summary(&m);
	logline_free(&m.line);
	return m.invalid ? 1 : 0;
}
