/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leftover.c - what a killed archive run leaves beside an original
 * NAME, where the file system makes no unnamed files: the archive under
 * its own name ".NAME.tdat-archive" (one.c) or libfmt's temporary name
 * of that.  tree.c removes those it meets in the directories it walks;
 * leftover_sweep those of the files given by name (a --files-from
 * list), reading each of their directories once.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/archive/archive_internal.h"

/* Whether name[0..n) ends in libfmt's temporary suffix, ".tmp-" and 16
 * hex digits, after a leading '.'. */
static int temp_suffix(const char *name, size_t n)
{
	size_t i;

	if (n < 1 + 1 + 21 || name[0] != '.' ||
	    memcmp(name + n - 21, ".tmp-", 5))
		return 0;
	for (i = n - 16; i < n; i++)
		if (!strchr("0123456789abcdef", name[i]))
			return 0;
	return 1;
}

char *leftover_original(const char *name)
{
	size_t n = strlen(name), s = strlen(ARCHIVE_SUFFIX);

	if (temp_suffix(name, n)) {
		name++;
		n -= 1 + 21;
	}
	if (n < 1 + 1 + s || name[0] != '.' ||
	    memcmp(name + n - s, ARCHIVE_SUFFIX, s))
		return NULL;
	return strndup(name + 1, n - 1 - s);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The length of path's directory part, slash included (0: none). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Whether a and b lie in one directory (as spelt). */
static int same_dir(const char *a, const char *b)
{
	size_t n = dir_len(a);

	return n == dir_len(b) && !strncmp(a, b, n);
}

/* By directory, then name: each directory's files together. */
static int by_dir(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t m = dir_len(x), n = dir_len(y);
	int c = strncmp(x, y, m < n ? m : n);

	return c ? c : m != n ? (m < n ? -1 : 1) : strcmp(x, y);
}


/* dir[0..dn) and name: a path spelt as the files given are. */
static char *spell(const char *dir, size_t dn, const char *name)
{
	size_t n = dn + strlen(name) + 1;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%.*s%s", (int)dn, dir, name);
	return p;
}

/* Entry name of the directory dir[0..dn): removed when it is the
 * leftover of a file in sorted[0..n).  0, or -1 out of memory. */
static int sweep_entry(const char *dir, size_t dn, const char *name,
		       char **sorted, int n)
{
	char *orig = leftover_original(name), *opath = NULL, *path = NULL;
	struct stat st;
	int r = 0;

	if (orig) {
		opath = spell(dir, dn, orig);
		path = spell(dir, dn, name);
		r = opath && path ? 0 : -1;
	}
	if (!r && opath && bsearch(&opath, sorted, (size_t)n, sizeof(*sorted),
				   by_name) &&
	    !lstat(path, &st) && S_ISREG(st.st_mode) && !unlink(path))
		fprintf(stderr, "tdat convert: %s: removed: what an"
			" interrupted run left (%s is whole)\n", path, opath);
	free(orig);
	free(opath);
	free(path);
	return r;
}

/* The directory of file (spelt as given), read once. */
static int sweep_dir(const char *file, char **sorted, int n)
{
	size_t dn = dir_len(file);
	char *dir = dn ? strndup(file, dn) : strdup(".");
	struct dirent *e;
	DIR *d;
	int r = 0;

	if (!dir)
		return -1;
	d = opendir(dir);
	while (d && !r && (e = readdir(d)))
		r = sweep_entry(file, dn, e->d_name, sorted, n);
	if (d)
		closedir(d);
	free(dir);
	return r;
}

int leftover_sweep(const struct pathlist *given)
{
	size_t n = (size_t)given->n, size = n * sizeof(char *);
	char **sorted, **dirs;
	int k, r;

	if (!n)
		return 0;
	sorted = malloc(size);
	dirs = malloc(size);
	r = sorted && dirs ? 0 : -1;
	if (!r) {
		memcpy(sorted, given->v, size);
		memcpy(dirs, given->v, size);
		qsort(sorted, n, sizeof(*sorted), by_name);
		qsort(dirs, n, sizeof(*dirs), by_dir);
	}
	for (k = 0; !r && k < given->n; k++)
		if (!k || !same_dir(dirs[k], dirs[k - 1]))
			r = sweep_dir(dirs[k], sorted, given->n);
	free(sorted);
	free(dirs);
	return r;
}
