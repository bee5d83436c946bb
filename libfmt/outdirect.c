/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outdirect.c - outputs that already exist and are not regular files.
 * They are never replaced: a FIFO, or the file behind a descriptor's
 * name in /proc (/dev/stdout, /dev/fd/N), gets the finished file copied
 * into it from an unnamed scratch file (the writer seeks back, a pipe
 * cannot); devices, directories, sockets and terminals are refused.
 */
#define _GNU_SOURCE		/* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "libfmt/internal.h"

#define COPY_BYTES (1 << 20)	/* copied at a time */

static int dir_in_proc(const char *path)
{
	char *dir = tdat_dir_of(path);
	struct statfs fs;
	int in = dir && !statfs(dir, &fs) && fs.f_type == PROC_SUPER_MAGIC;

	free(dir);
	return in;
}

/*
 * Does path lead (itself or through its symlinks) into /proc, like
 * /dev/stdout -> /proc/self/fd/1: a descriptor's file, whose name is
 * not ours to replace?
 */
static int through_proc(const char *path)
{
	char cur[PATH_MAX], link[PATH_MAX];
	const char *slash;
	struct stat st;
	ssize_t n;
	size_t d;
	int i;

	if (strlen(path) >= sizeof(cur))
		return 0;
	strcpy(cur, path);
	for (i = 0; i < 40; i++) {
		if (dir_in_proc(cur))
			return 1;
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return 0;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return 0;
		link[n] = '\0';
		slash = strrchr(cur, '/');
		d = link[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
		if (d + (size_t)n >= sizeof(cur))
			return 0;
		memcpy(cur + d, link, (size_t)n + 1);
	}
	return 0;
}

static const char *kind_of(mode_t m)
{
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISSOCK(m))
		return "a socket";
	return "an unknown kind";
}

/*
 * What the name holds now.  0: nothing or a regular file (a symlink to
 * one included), to be created or replaced; 1: a FIFO or a descriptor's
 * file, opened in o->direct to copy into at the end; -1: refused.
 */
static int target(struct outfile *o, struct tdat_error *err)
{
	int proc = through_proc(o->path);
	struct statfs fs;
	struct stat st;

	if (!proc) {
		if (stat(o->path, &st) || S_ISREG(st.st_mode))
			return 0;
		if (!S_ISFIFO(st.st_mode))
			return tdat_fail_nooff(err, o->path, "not a regular file"
					       " (%s); refusing to replace it",
					       kind_of(st.st_mode));
	}
	/* a FIFO's open waits for a reader, as any writer's does */
	o->direct = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->direct < 0)
		return tdat_fail_nooff(err, o->path, "cannot open: %s",
				       strerror(errno));
	/* swapped meanwhile for a link to some file: not ours to write */
	if (!proc && (fstat(o->direct, &st) || !S_ISFIFO(st.st_mode)))
		return tdat_fail_nooff(err, o->path, "changed while being"
				       " opened; refusing to write to it");
	if (isatty(o->direct))
		return tdat_fail_nooff(err, o->path, "is a terminal; refusing"
				       " to write a binary file to it");
	if (!fstatfs(o->direct, &fs) && fs.f_type == PROC_SUPER_MAGIC)
		return tdat_fail_nooff(err, o->path, "is a file of /proc;"
				       " refusing to write to it");
	return 1;
}

/* The file of a FIFO's or descriptor's output, unnamed in $TMPDIR. */
static int open_scratch(struct outfile *o, struct tdat_error *err)
{
	const char *dir = getenv("TMPDIR");
	char base[PATH_MAX], *name;
	sigset_t old;
	int i, e;

	if (!dir || !*dir)
		dir = "/tmp";
	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	e = errno;
	if (o->fd < 0 && out_no_tmpfile(e)) {
		snprintf(base, sizeof(base), "%s/tdat", dir);
		for (i = 0, e = EEXIST; o->fd < 0 && e == EEXIST &&
		     i < OUT_NAME_TRIES; i++) {
			name = out_temp_name(base);
			if (!name)
				return tdat_fail_nooff(err, o->path,
						       "out of memory");
			/* created and unlinked with no signal between */
			outreg_block(&old);
			o->fd = open(name, O_RDWR | O_CREAT | O_EXCL |
				     O_NOFOLLOW | O_CLOEXEC, 0600);
			e = errno;
			if (o->fd >= 0)
				unlink(name);
			outreg_unblock(&old);
			free(name);
		}
	}
	if (o->fd < 0)
		return tdat_fail_nooff(err, o->path, "cannot create a scratch"
				       " file in %s: %s", dir, strerror(e));
	return 0;
}

/* 0, or the errno of the write that failed. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The finished scratch file into the FIFO or descriptor's file. */
int outdirect_copy(struct outfile *o, struct tdat_error *err)
{
	uint8_t *buf = malloc(COPY_BYTES);
	struct stat st;
	uint64_t off = 0;
	ssize_t n;
	int e = 0;

	if (!buf)
		return tdat_fail_nooff(err, o->path, "out of memory");
	/* a regular file behind /dev/stdout is rewritten, as cp does */
	if (!fstat(o->direct, &st) && S_ISREG(st.st_mode) &&
	    ftruncate(o->direct, 0))
		e = errno;
	while (!e && off < o->pos) {
		n = pread(o->fd, buf, o->pos - off < COPY_BYTES ?
			  (size_t)(o->pos - off) : COPY_BYTES, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? errno : EIO;
		else
			e = write_all(o->direct, buf, (size_t)n);
		if (!e)
			off += (uint64_t)n;
	}
	free(buf);
	if (!e && close(o->direct))
		e = errno;
	else if (e)
		close(o->direct);
	o->direct = -1;
	if (e)
		return tdat_fail(err, o->path, off, "write error: %s",
				 strerror(e));
	return 0;
}

int outdirect_open(struct outfile *o, struct tdat_error *err)
{
	int r = target(o, err);

	if (r == 1 && open_scratch(o, err))
		return -1;
	return r;
}
