/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * publish.c - --add: an input's files moved from its stage into the
 * dataset, and what a killed run of it left cleared away.
 *
 * Each file is renamed into place whole and never over another file
 * (RENAME_NOREPLACE, or link() and unlink() where the file system, NFS,
 * has no such rename); directories are opened level by level without
 * following symlinks, so nothing planted in a shared dataset can send
 * a file elsewhere.  The input's traces/NAME.json comes last: until it
 * is there the input is not in the dataset, and a run again redoes it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/parquet/parquet_internal.h"
#include "libfmt/outputs.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* A directory stream of fd's directory from its start (a dup shares
 * the offset of any stream read from fd before), or NULL. */
static DIR *dir_of(int fd)
{
	int fd2 = dup(fd);
	DIR *d = fd2 < 0 ? NULL : fdopendir(fd2);

	if (!d && fd2 >= 0)
		close(fd2);
	if (d)
		rewinddir(d);
	return d;
}

struct move {
	uint64_t bytes;
	char *why;
	size_t cap;
};

static int failed(struct move *m, const char *what, const char *name)
{
	snprintf(m->why, m->cap, "%s: %s", name, what);
	return -1;
}

/* name from directory sfd to dfd, never over a file there. */
static int move_file(int sfd, int dfd, const char *name)
{
	if (!renameat2(sfd, name, dfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (linkat(sfd, name, dfd, name, 0))
		return -1;
	return unlinkat(sfd, name, 0);
}

/* Subdirectory name of dfd, made if absent, opened. */
static int sub_dir(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0755) && errno != EEXIST)
		return -1;
	return openat(dfd, name, DIR_FLAGS);
}

static int move_tree(struct move *m, int sfd, int dfd, int depth);

/* One entry of the stage: a directory walked, a file moved. */
static int move_entry(struct move *m, int sfd, int dfd, const char *name,
		      int depth)
{
	struct stat st;
	int s2, d2, r;

	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return failed(m, strerror(errno), name);
	if (S_ISREG(st.st_mode)) {
		if (!depth)	/* NAME.json: last */
			return 0;
		m->bytes += (uint64_t)st.st_size;
		return move_file(sfd, dfd, name) ?
		       failed(m, strerror(errno), name) : 0;
	}
	if (!S_ISDIR(st.st_mode) || depth >= 3)
		return failed(m, "not a table or its directory", name);
	s2 = openat(sfd, name, DIR_FLAGS);
	d2 = s2 < 0 ? -1 : sub_dir(dfd, name);
	if (s2 < 0 || d2 < 0)
		r = failed(m, strerror(errno), name);
	else
		r = move_tree(m, s2, d2, depth + 1);
	if (s2 >= 0)
		close(s2);
	if (d2 >= 0)
		close(d2);
	return r;
}

static int move_tree(struct move *m, int sfd, int dfd, int depth)
{
	DIR *d = dir_of(sfd);
	struct dirent *e;
	int r = 0;

	if (!d)
		return failed(m, strerror(errno), "stage");
	while (!r && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			r = move_entry(m, sfd, dfd, e->d_name, depth);
	closedir(d);
	if (!r && depth && fsync(dfd))
		r = failed(m, strerror(errno), "a table's directory");
	return r;
}

int publish(struct stage *st, const char *dataset, const char *name,
	    uint64_t *bytes, char *why, size_t cap)
{
	struct move m = { 0, why, cap };
	char json[300];
	int sfd = open(st->dir, DIR_FLAGS), dfd = open(dataset, DIR_FLAGS);
	int tfd = dfd < 0 ? -1 : openat(dfd, "traces", DIR_FLAGS), r;

	snprintf(json, sizeof(json), "%s.json", name);
	if (sfd < 0 || dfd < 0 || tfd < 0)
		r = failed(&m, strerror(errno), dataset);
	else
		r = move_tree(&m, sfd, dfd, 0);
	if (!r && (fsync(dfd) || move_file(sfd, tfd, json) || fsync(tfd)))
		r = failed(&m, strerror(errno), json);
	*bytes = m.bytes;
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	if (tfd >= 0)
		close(tfd);
	return r;
}

/* A killed run's stage of input name: ADD_STAGE "NAME." and 6 more. */
static int stage_of(const char *entry, const char *name)
{
	size_t p = strlen(ADD_STAGE), n = strlen(name);

	return strlen(entry) == p + n + 1 + 6 &&
	       !strncmp(entry, ADD_STAGE, p) &&
	       !strncmp(entry + p, name, n) && entry[p + n] == '.';
}

/* NAME.parquet removed from dfd's table directories, depth levels
 * down (1: SYS/EVENT/, cmdlines/; 2: SYS/EVENT/TRACE.parquet). */
static void clean_tables(int dfd, const char *file, int depth)
{
	DIR *d = dir_of(dfd);
	struct dirent *e;
	int sub;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "traces"))
			continue;
		sub = openat(dfd, e->d_name, DIR_FLAGS);
		if (sub < 0)
			continue;
		unlinkat(sub, file, 0);
		if (depth > 1)
			clean_tables(sub, file, depth - 1);
		close(sub);
	}
	closedir(d);
}

/* traces/.NAME.claim-XXXXXX: a claim's temporary file (claim.c). */
static void clean_claims(int dfd, const char *name)
{
	int tfd = openat(dfd, "traces", DIR_FLAGS);
	DIR *d = tfd < 0 ? NULL : dir_of(tfd);
	size_t n = strlen(name);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] == '.' && !strncmp(e->d_name + 1, name, n) &&
		    !strncmp(e->d_name + 1 + n, ".claim-", 7))
			unlinkat(tfd, e->d_name, 0);
	if (d)
		closedir(d);
	if (tfd >= 0)
		close(tfd);
}

/* A killed run's stages of input name removed. */
static void clean_stages(int dfd, const char *dataset, const char *name)
{
	DIR *d = dir_of(dfd);
	char path[4400];
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (stage_of(e->d_name, name) &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dataset,
				     e->d_name) < sizeof(path))
			tdat_remove_tree(path);
	if (d)
		closedir(d);
}

void publish_clean(const char *dataset, const char *name, int tables)
{
	int dfd = open(dataset, DIR_FLAGS);
	char file[300];

	if (dfd < 0)
		return;
	snprintf(file, sizeof(file), "%s.parquet", name);
	if (tables)
		clean_tables(dfd, file, 2);
	clean_claims(dfd, name);
	clean_stages(dfd, dataset, name);
	close(dfd);
}
