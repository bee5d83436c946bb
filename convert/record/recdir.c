/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recdir.c - OUT.rec/, what a recording keeps on disk while it runs
 * (the layout is in record.h).  Whatever is in it at any moment can be
 * made into a trace.dat, so files appear whole: written under a
 * temporary name, then renamed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/record/record_internal.h"

int recdir_path(const char *out, char *dir, size_t cap,
		struct tdat_error *err)
{
	int n = snprintf(dir, cap, "%s.rec", out);

	if (n < 0 || (size_t)n >= cap)
		return tdat_errorf(err, "%s: path too long", out);
	return 0;
}

/* mkdir refuses any name that exists, a symlink too (even a dangling
 * one): the directory is always new, and only ours to write in. */
int recdir_create(const char *dir, struct tdat_error *err)
{
	if (!mkdir(dir, 0755))
		return 0;
	if (errno == EEXIST)
		return tdat_errorf(err, "%s exists: an earlier recording left it"
			    " (\"tdat restore\" on the output finishes"
			    " it; or remove it)", dir);
	return tdat_errorf(err, "%s: cannot create: %s", dir, strerror(errno));
}

/* Best effort: the renames in it reach the disk. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int recdir_write_text(const char *dir, const char *name, const char *text,
		      struct tdat_error *err)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t n;
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name) >=
	    (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return tdat_errorf(err, "%s/%s: path too long", dir, name);
	/* OUT.rec/ is ours and new: a name found there was planted */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return tdat_errorf(err, "%s: cannot create: %s", tmp, strerror(errno));
	n = write(fd, text, len);
	e = n < 0 ? errno : n != (ssize_t)len ? ENOSPC : 0;
	/* synced before the rename: a power cut never leaves it empty */
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (e) {
		unlink(tmp);
		return tdat_errorf(err, "%s: cannot write: %s", tmp, strerror(e));
	}
	if (rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		return tdat_errorf(err, "%s: cannot rename to %s: %s", tmp, path,
			    strerror(e));
	}
	sync_dir(dir);
	return 0;
}

int recdir_write_head(const char *dir, const struct tdat_file *m,
		      int version, enum tdat_codec codec,
		      struct tdat_error *err)
{
	struct tdat_write_opts wo = { .version = version, .codec = codec,
				      .threads = 1 };
	struct tdat_writer *w;
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/head.dat", dir) >=
	    (int)sizeof(path))
		return tdat_errorf(err, "%s/head.dat: path too long", dir);
	w = tdat_writer_open(path, m, &wo, err);
	if (!w)
		return -1;
	return tdat_writer_close(w, err);
}

int recdir_remove(const char *dir, struct tdat_error *err)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	int r = 0;

	if (!d)
		return tdat_errorf(err, "%s: cannot open: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink(path) && !r)
			r = tdat_errorf(err, "%s: cannot remove: %s", path,
				 strerror(errno));
	}
	closedir(d);
	if (!r && rmdir(dir))
		r = tdat_errorf(err, "%s: cannot remove: %s", dir, strerror(errno));
	return r;
}
