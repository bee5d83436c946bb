/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.c - the files an in-place archive run works on: every regular
 * file under the paths given that starts as a trace.dat does, in name
 * order.  Symlinks are never followed (a link in the tree could lead
 * out of it, or round in a loop); they and files that are not trace.dat
 * are named and left alone.  With a shard, only the files it takes
 * are looked at; a directory is walked by every part.  What a killed
 * run can leave beside an
 * original NAME, the archive under its own name (".NAME.tdat-archive",
 * one.c) or libfmt's temporary name of that, is removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/archive/archive_internal.h"

static const unsigned char magic[10] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
};

/* dir/name, malloc'd (never cut short: a cut name could be another
 * file's). */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static void left(struct tree *t, const char *path, const char *why,
		 const char *result)
{
	struct joblog_entry e = { path, result, 0, 0, 0, 0, why, NULL };

	fprintf(stderr, "tdat convert: %s: %s: left as it is\n", path, why);
	if (t->log)
		joblog_write(t->log, &e);
	if (strcmp(result, "failed"))
		t->others++;
	else
		t->missing++;	/* a path given that is not there */
}

/* Whether path starts as a trace.dat does (never following a link). */
static int is_tracedat(const char *path)
{
	unsigned char head[sizeof(magic)];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == (ssize_t)sizeof(head) && !memcmp(head, magic, sizeof(head));
}

/* A leftover of a killed run: removed when its original is there and
 * in this part (another part's task may be writing it now). */
static int leftover(const struct tree *t, const char *dir, const char *name)
{
	char *orig = leftover_original(name), *path = NULL, *opath = NULL;
	struct stat st, ost;
	int gone = 0;

	if (orig) {
		path = join(dir, name);
		opath = join(dir, orig);
	}
	if (path && opath && shard_takes(t->shard, opath) &&
	    !lstat(opath, &ost) && S_ISREG(ost.st_mode) && !lstat(path, &st) &&
	    S_ISREG(st.st_mode) && !unlink(path)) {
		fprintf(stderr, "tdat convert: %s: removed: what an"
			" interrupted run left (%s is whole)\n", path, opath);
		gone = 1;
	}
	free(orig);
	free(path);
	free(opath);
	return gone;
}

static int add(struct tree *t, const char *path)
{
	char **p;

	if (t->n == t->cap) {
		p = realloc(t->files, (size_t)(t->cap ? 2 * t->cap : 64) *
					sizeof(*p));
		if (!p)
			return -1;
		t->files = p;
		t->cap = t->cap ? 2 * t->cap : 64;
	}
	t->files[t->n] = strdup(path);
	return t->files[t->n] ? (t->n++, 0) : -1;
}

static int visit(struct tree *t, const char *path, int depth);

static int visit_dir(struct tree *t, const char *dir, int depth)
{
	struct dirent **names;
	char *path;
	int n, i, r = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		left(t, dir, strerror(errno), "left alone");
		return 0;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (!r && strcmp(name, ".") && strcmp(name, "..") &&
		    !leftover(t, dir, name)) {
			path = join(dir, name);
			r = path ? visit(t, path, depth + 1) : -1;
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return r;
}

/* One path: a trace.dat is added, a directory walked, the rest said. */
static int visit(struct tree *t, const char *path, int depth)
{
	struct stat st;

	if (lstat(path, &st)) {	/* a part's own, as a file's */
		if (shard_takes(t->shard, path))
			left(t, path, strerror(errno), depth ? "left alone" :
			     "failed");
		return 0;
	}
	if (S_ISDIR(st.st_mode) && depth >= 64)
		left(t, path, "directories nested deeper than 64",
		     "left alone");
	else if (S_ISDIR(st.st_mode))
		return visit_dir(t, path, depth);
	else if (!shard_takes(t->shard, path))
		return 0;	/* another part's */
	else if (S_ISLNK(st.st_mode))
		left(t, path, "a symlink (not followed)", "left alone");
	else if (!S_ISREG(st.st_mode))
		left(t, path, "not a regular file", "left alone");
	else if (!is_tracedat(path))
		left(t, path, "not a trace.dat", "left alone");
	else
		return add(t, path) ||
		       (depth == 0 && pathlist_add(&t->given, path)) ? -1 : 0;
	return 0;
}

int tree_find(struct tree *t, char **paths, int n, const struct shard *s,
	      struct joblog *log)
{
	int k;

	memset(t, 0, sizeof(*t));
	t->shard = s;
	t->log = log;
	for (k = 0; k < n; k++)
		if (visit(t, paths[k], 0)) {
			fprintf(stderr, "tdat convert: out of memory\n");
			return -1;
		}
	/* a file given by name: no walk of its directory saw its leftovers */
	if (leftover_sweep(&t->given)) {
		fprintf(stderr, "tdat convert: out of memory\n");
		return -1;
	}
	return 0;
}

void tree_free(struct tree *t)
{
	int k;

	pathlist_free(&t->given);
	for (k = 0; k < t->n; k++)
		free(t->files[k]);
	free(t->files);
}
