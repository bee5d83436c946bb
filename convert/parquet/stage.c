/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stage.c - the dataset is built in a directory of its own beside its
 * final name (".NAME.tdat-XXXXXX", mode 0700 until done, so nothing can
 * be planted in it) and renamed into place when complete: nobody sees
 * half a dataset.  libfmt's outputs list removes the stage on SIGINT,
 * SIGTERM and SIGHUP (cmds/signals.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/parquet/parquet_internal.h"
#include "libfmt/outputs.h"

static int fail(struct stage *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct stage *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* 1 when path is an empty directory (not a link to one). */
static int empty_dir(const char *path)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;
	int n = 0;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dir);
	return n == 0;
}

/* final's parent directory and base name, malloc'd. */
static int split_name(const char *final, char **parent, char **base)
{
	char *a = strdup(final), *b = strdup(final);

	*parent = a ? strdup(dirname(a)) : NULL;
	*base = b ? strdup(basename(b)) : NULL;
	free(a);
	free(b);
	return *parent && *base ? 0 : -1;
}

/* The stage s->dir made from its mkdtemp pattern, listed for removal
 * on a signal. */
static int make_stage_dir(struct stage *s)
{
	sigset_t all, old;
	int r = -1;

	/* no signal between making it and listing it */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (mkdtemp(s->dir)) {
		r = tdat_outputs_add_tree(s->dir);
		if (r)
			rmdir(s->dir);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

static int make_stage(struct stage *s)
{
	char *parent = NULL, *base = NULL;
	size_t n;
	int r = -1;

	if (split_name(s->final, &parent, &base))
		goto out;
	n = strlen(parent) + strlen(base) + 32;
	s->dir = malloc(n);
	if (!s->dir)
		goto out;
	snprintf(s->dir, n, "%s/.%s.tdat-XXXXXX", parent, base);
	r = make_stage_dir(s);
out:
	free(parent);
	free(base);
	return r;
}

int stage_open_inside(struct stage *s, const char *dataset, const char *name)
{
	size_t n = strlen(dataset) + strlen(name) + 32;

	memset(s, 0, sizeof(*s));
	s->final = strdup(dataset);
	s->dir = malloc(n);
	if (!s->final || !s->dir)
		return fail(s, "out of memory");
	snprintf(s->dir, n, "%s/" ADD_STAGE "%s.XXXXXX", dataset, name);
	if (make_stage_dir(s)) {
		int e = errno;

		free(s->dir);
		s->dir = NULL;
		return fail(s, "%s: cannot make a directory in it: %s",
			    dataset, strerror(e));
	}
	return 0;
}

int stage_open(struct stage *s, const char *final)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->final = strdup(final);
	if (!s->final)
		return fail(s, "out of memory");
	if (!lstat(final, &st) && !empty_dir(final))
		return fail(s, "%s: exists and is not an empty directory"
			    " (a dataset is never written over)", final);
	if (make_stage(s)) {
		int e = errno;

		free(s->dir);
		s->dir = NULL;
		return fail(s, "%s: cannot make a directory beside it: %s",
			    final, strerror(e));
	}
	return 0;
}

char *stage_path(const struct stage *s, const char *rel)
{
	size_t n = strlen(s->dir) + strlen(rel) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", s->dir, rel);
	return p;
}

int stage_mkdir(struct stage *s, const char *rel)
{
	char *p = stage_path(s, rel);
	int r;

	if (!p)
		return fail(s, "out of memory");
	r = mkdir(p, 0755);
	free(p);
	if (r && errno != EEXIST)
		return fail(s, "%s/%s: %s", s->final, rel, strerror(errno));
	return 0;
}

int stage_write(struct stage *s, const char *rel, const void *data, size_t n)
{
	char *p = stage_path(s, rel);
	const char *c = data;
	ssize_t w = 0;
	int fd;

	if (!p)
		return fail(s, "out of memory");
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	free(p);
	while (fd >= 0 && n && (w = write(fd, c, n)) > 0) {
		c += w;
		n -= (size_t)w;
	}
	if (fd < 0 || w < 0 || fsync(fd) || close(fd))
		return fail(s, "%s/%s: %s", s->final, rel, strerror(errno));
	return 0;
}

/* fsync a directory by path (its entries are durable then). */
static int sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

/* Every directory of the stage synced, deepest first. */
static int sync_tree(const char *path, int depth)
{
	DIR *dir = opendir(path);
	struct dirent *d;
	char sub[4096];
	int r = 0;

	if (!dir)
		return -1;
	while (!r && depth < 3 && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path,
				     d->d_name) >= sizeof(sub))
			r = -1;
		else
			r = sync_tree(sub, depth + 1);
	}
	closedir(dir);
	return r ? r : sync_dir(path);
}

int stage_commit(struct stage *s)
{
	mode_t mask = umask(0);
	char *parent = NULL, *base = NULL;
	int r;

	umask(mask);
	r = sync_tree(s->dir, 0);
	if (!r)
		r = chmod(s->dir, 0777 & ~mask);
	if (!r)
		r = renameat2(AT_FDCWD, s->dir, AT_FDCWD, s->final,
			      RENAME_NOREPLACE);
	/* NFS has no RENAME_NOREPLACE; a plain rename replaces at most an
	 * empty directory, as below */
	if (r && (errno == EINVAL || errno == ENOSYS))
		r = rename(s->dir, s->final);
	if (r && errno == EEXIST && empty_dir(s->final))
		r = rename(s->dir, s->final);	/* replaces it, empty */
	if (r) {
		fail(s, "%s: cannot put the dataset in place: %s", s->final,
		     strerror(errno));
		stage_abort(s);
		return -1;
	}
	tdat_outputs_forget(s->dir);
	if (!split_name(s->final, &parent, &base))
		sync_dir(parent);
	free(parent);
	free(base);
	free(s->dir);
	free(s->final);
	s->dir = s->final = NULL;
	return 0;
}

void stage_abort(struct stage *s)
{
	if (s->dir) {
		tdat_remove_tree(s->dir);
		tdat_outputs_forget(s->dir);
	}
	free(s->dir);
	free(s->final);
	s->dir = s->final = NULL;
}
