/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * joblog.c - --log FILE: one JSON object a line for each file as it is
 * done, appended by any number of tasks at once.
 *
 * Each line is made whole in memory and given to one write() on a
 * descriptor opened with O_APPEND: the kernel puts it at the end as one
 * piece, so lines of tasks writing at once follow each other and never
 * mix.  A short write (a full disk) is an error, never retried: the
 * rest of a line written later could land after another task's line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "convert/events/events.h"
#include "convert/fleet/fleet.h"
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

int joblog_same_file(const struct stat *was, const struct stat *now)
{
	return now->st_dev == was->st_dev && now->st_ino == was->st_ino &&
	       now->st_size == was->st_size &&
	       now->st_mtim.tv_sec == was->st_mtim.tv_sec &&
	       now->st_mtim.tv_nsec == was->st_mtim.tv_nsec;
}

void joblog_none(struct joblog *lg)
{
	memset(lg, 0, sizeof(*lg));
	lg->fd = -1;
}

/* Whether the regular file at path (of st) ends in a cut line, its
 * last byte no newline: a task killed mid-write, or a full disk. */
static int ends_cut(const char *path, const struct stat *st)
{
	int fd, cut = 0;
	char c;

	if (!S_ISREG(st->st_mode) || !st->st_size)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;	/* write-only: a cut line stays joined */
	cut = pread(fd, &c, 1, st->st_size - 1) == 1 && c != '\n';
	close(fd);
	return cut;
}

int joblog_open(struct joblog *lg, const char *path, const struct shard *s,
		struct tdat_error *err)
{
	struct stat st;

	joblog_none(lg);
	lg->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
			    O_CLOEXEC | O_NOCTTY, 0644);
	if (lg->fd < 0)
		return tdat_fail_nooff(err, path, "cannot be opened to append"
				       " the log to: %s", errno == ELOOP ?
				       "a symlink (never written through)" :
				       strerror(errno));
	if (fstat(lg->fd, &st) || !(S_ISREG(st.st_mode) ||
				    S_ISFIFO(st.st_mode) ||
				    S_ISCHR(st.st_mode))) {
		joblog_close(lg);
		return tdat_fail_nooff(err, path, "not a regular file, FIFO"
				       " or terminal: no log written to it");
	}
	lg->cut = ends_cut(path, &st);
	lg->path = strdup(path);
	if (gethostname(lg->host, sizeof(lg->host) - 1))
		lg->host[0] = 0;
	if (s && s->n)
		snprintf(lg->task, sizeof(lg->task), "%" PRIu32 "/%" PRIu32,
			 s->k, s->n);
	if (!lg->path) {
		joblog_close(lg);
		return tdat_fail_nooff(err, path, "out of memory");
	}
	return 0;
}

void joblog_close(struct joblog *lg)
{
	if (lg->fd >= 0)
		close(lg->fd);
	free(lg->path);
	joblog_none(lg);
}

static int add(struct tdat_bytes *b, const char *s)
{
	return tdat_bytes_add(b, s, strlen(s));
}

/* A byte that JSON wants escaped, as \u00XX or its short form. */
static int escape(struct tdat_bytes *out, unsigned char c)
{
	char u[8];

	if (c == '"')
		return add(out, "\\\"");
	if (c == '\\')
		return add(out, "\\\\");
	if (c == '\n')
		return add(out, "\\n");
	if (c == '\t')
		return add(out, "\\t");
	snprintf(u, sizeof(u), "\\u%04x", c);
	return add(out, u);
}

int fleet_json_string(struct tdat_bytes *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, u;
	int r = add(out, "\"");

	while (!r && i < n) {
		if (p[i] >= 0x80 && (u = utf8_len(p + i, n - i))) {
			r = tdat_bytes_add(out, p + i, u);
			i += u;
		} else if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '"' ||
			   p[i] == '\\') {
			r = escape(out, p[i++]);
		} else {
			r = tdat_bytes_add(out, p + i++, 1);
		}
	}
	return r ? r : add(out, "\"");
}

/* ,"key":"text" or ,"key":null */
static int text(struct tdat_bytes *b, const char *key, const char *s)
{
	return add(b, ",\"") || add(b, key) || add(b, "\":") ||
	       (s ? fleet_json_string(b, s) : add(b, "null"));
}

/* ,"key":N or ,"key":null */
static int bytes(struct tdat_bytes *b, const char *key, int known,
		 uint64_t v)
{
	char num[64];

	snprintf(num, sizeof(num), ",\"%s\":", key);
	if (add(b, num))
		return -1;
	if (!known)
		return add(b, "null");
	snprintf(num, sizeof(num), "%" PRIu64, v);
	return add(b, num);
}

static int line(struct tdat_bytes *b, const struct joblog *lg,
		const struct joblog_entry *e)
{
	char now[40], num[64];
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(now, sizeof(now), "{\"time\":\"%Y-%m-%dT%H:%M:%SZ\"", &tm);
	snprintf(num, sizeof(num), ",\"pid\":%ld", (long)getpid());
	/* after a cut line, ours on a line of its own: the cut one alone
	 * is lost to a reader, not ours with it */
	if ((lg->cut && add(b, "\n")) || add(b, now) || text(b, "host", lg->host) || add(b, num) ||
	    text(b, "task", lg->task[0] ? lg->task : NULL) ||
	    text(b, "path", e->path) || text(b, "result", e->result) ||
	    bytes(b, "bytes_before", e->sized, e->before) ||
	    bytes(b, "bytes_after", e->sized, e->after) ||
	    (e->mtime && text(b, "mtime", e->mtime)))
		return -1;
	snprintf(num, sizeof(num), ",\"seconds\":%.3f",
		 e->seconds > 0 ? e->seconds : 0.0);
	return add(b, num) || text(b, "reason", e->reason) || add(b, "}\n");
}

void joblog_mtime(const struct timespec *t, char *buf)
{
	struct tm tm;
	size_t n;

	gmtime_r(&t->tv_sec, &tm);
	n = strftime(buf, JOBLOG_MTIME_MAX, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, JOBLOG_MTIME_MAX - n, ".%09ldZ", (long)t->tv_nsec);
}

static int failed(struct joblog *lg, const char *what)
{
	if (!lg->failed)
		tdat_fail_nooff(&lg->err, lg->path, "cannot append to the"
				" log: %s", what);
	lg->failed = 1;
	return -1;
}

int joblog_write(struct joblog *lg, const struct joblog_entry *e)
{
	struct tdat_bytes b = { 0 };
	ssize_t w;
	int r = 0;

	if (lg->fd < 0)
		return 0;
	if (line(&b, lg, e)) {
		tdat_bytes_free(&b);
		return failed(lg, "out of memory");
	}
	do
		w = write(lg->fd, b.data, b.len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		r = failed(lg, strerror(errno));
	else if (w != (ssize_t)b.len)
		r = failed(lg, "a line written short (disk full?)");
	else
		lg->cut = 0;
	tdat_bytes_free(&b);
	return r;
}

double joblog_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	       (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}
