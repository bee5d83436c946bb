/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.c - a table's Parquet writer and its file in the stage.
 *
 * An export may have hundreds of tables (one per syscall event), so no
 * table keeps a file open: the writer's sink opens the file when a row
 * group goes out, and table_end_row closes it again.  The bytes all
 * tables hold for their open row groups are counted, and past the
 * budget the table holding most writes its row group out, so memory
 * stays bounded whatever the number of tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/parquet/parquet_internal.h"

#define ROW_GROUP_BYTES (2u << 20)	/* one table's row group */
#define ALL_TABLES_BYTES (8u << 20)	/* every table's, together */
#define WRITE_GATHER (256u << 10)	/* writes gathered per write() */

void tables_init(struct tables *ts, struct stage *st, int level)
{
	memset(ts, 0, sizeof(*ts));
	ts->stage = st;
	ts->budget = ALL_TABLES_BYTES;
	ts->level = level ? level : 1;
}

/* The first failure is the one said: a sink's error, not the writer's
 * word that its sink failed. */
static int say(struct tables *ts, const char *rel, const char *what)
{
	if (!ts->err[0])
		snprintf(ts->err, sizeof(ts->err), "%s/%s: %s",
			 ts->stage->final, rel, what);
	return -1;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int gather_out(struct table *t)
{
	struct tables *ts = t->set;
	int r = write_all(t->fd, ts->wbuf.data, ts->wbuf.len);

	tdat_bytes_reset(&ts->wbuf);
	return r ? say(ts, t->rel, strerror(errno)) : 0;
}

static int open_file(struct table *t)
{
	char *path = stage_path(t->set->stage, t->rel);
	int flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW;

	if (!path)
		return say(t->set, t->rel, "out of memory");
	t->fd = open(path, flags | (t->made ? 0 : O_CREAT | O_EXCL), 0644);
	free(path);
	if (t->fd < 0)
		return say(t->set, t->rel, strerror(errno));
	t->made = 1;
	return 0;
}

/* The writer's sink: the file opened on the first bytes. */
static int sink(void *ctx, const void *p, size_t n)
{
	struct table *t = ctx;
	struct tables *ts = t->set;

	if (t->fd < 0 && open_file(t))
		return -1;
	if (ts->wbuf.len + n > WRITE_GATHER && ts->wbuf.len && gather_out(t))
		return -1;
	if (n >= WRITE_GATHER)
		return write_all(t->fd, p, n) ? say(ts, t->rel,
						    strerror(errno)) : 0;
	if (tdat_bytes_add(&ts->wbuf, p, n))
		return say(ts, t->rel, "out of memory");
	return 0;
}

/* What the sink opened: written out, synced when last, and closed. */
static int settle(struct table *t, int last)
{
	int r = 0;

	if (t->fd < 0)
		return 0;
	if (t->set->wbuf.len && gather_out(t))
		r = -1;
	if (!r && last && fsync(t->fd))
		r = say(t->set, t->rel, strerror(errno));
	if (close(t->fd) && !r)
		r = say(t->set, t->rel, strerror(errno));
	t->fd = -1;
	return r;
}

static int add_table(struct tables *ts, struct table *t)
{
	if (ts->n == ts->cap) {
		int cap = ts->cap ? ts->cap * 2 : 64;
		struct table **a = realloc(ts->all, (size_t)cap * sizeof(*a));

		if (!a)
			return -1;
		ts->all = a;
		ts->cap = cap;
	}
	ts->all[ts->n++] = t;
	return 0;
}

struct table *table_new(struct tables *ts, const char *rel,
			struct table_schema *s)
{
	struct pq_options po = { ts->level, ROW_GROUP_BYTES, 0, NULL };
	struct table *t = calloc(1, sizeof(*t));

	po.created_by = "tdat convert --to parquet";
	if (!t || !(t->rel = strdup(rel)) || add_table(ts, t)) {
		if (t)
			free(t->rel);
		free(t);
		say(ts, rel, "out of memory");
		return NULL;
	}
	t->set = ts;
	t->fd = -1;
	t->schema = *s;
	memset(s, 0, sizeof(*s));
	t->w = pq_writer_new(t->schema.cols, t->schema.ncols, &po, sink, t);
	if (!t->w) {
		say(ts, rel, "out of memory");
		return NULL;	/* freed with the set */
	}
	return t;
}

/* Over the budget: the table holding most writes its row group.  1
 * when that freed something, 0 when nothing could be, -1 on error. */
static int spill(struct tables *ts)
{
	struct table *big = NULL;
	size_t held;
	int i, r;

	for (i = 0; i < ts->n; i++)
		if (!big || ts->all[i]->held > big->held)
			big = ts->all[i];
	if (!big || !big->held)
		return 0;
	r = pq_flush(big->w);
	if (settle(big, 0) || r)
		return r ? say(ts, big->rel, pq_error(big->w)) : -1;
	held = pq_buffered(big->w);
	ts->held = ts->held - big->held + held;
	r = held < big->held;
	big->held = held;
	return r;
}

int table_end_row(struct table *t)
{
	struct tables *ts = t->set;
	int r = pq_end_row(t->w);
	size_t held;

	if (t->fd >= 0 && settle(t, 0))
		return -1;
	if (r)
		return say(ts, t->rel, pq_error(t->w));
	t->rows++;
	held = pq_buffered(t->w);
	ts->held = ts->held - t->held + held;
	t->held = held;
	while (ts->held > ts->budget) {
		r = spill(ts);
		if (r <= 0)
			return r;
	}
	return 0;
}

int tables_finish(struct tables *ts)
{
	int i, r;

	for (i = 0; i < ts->n; i++) {
		struct table *t = ts->all[i];

		r = pq_finish(t->w);
		if (settle(t, 1) || r)
			return r ? say(ts, t->rel, pq_error(t->w)) : -1;
		ts->held -= t->held;
		t->held = 0;
	}
	return 0;
}

void tables_free(struct tables *ts)
{
	int i;

	for (i = 0; i < ts->n; i++) {
		struct table *t = ts->all[i];

		if (t->fd >= 0)
			close(t->fd);
		pq_writer_free(t->w);
		schema_free(&t->schema);
		free(t->system);
		free(t->name);
		free(t->rel);
		free(t);
	}
	free(ts->all);
	free(ts->by_id);
	tdat_bytes_free(&ts->wbuf);
	memset(ts, 0, sizeof(*ts));
}
