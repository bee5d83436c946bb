/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outtree.c - removing a directory tree from a signal handler: only
 * system calls (openat, getdents64, unlinkat), buffers on the stack, a
 * bounded depth.  An export's stage is a few levels deep.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/outputs.h"

#define TREE_DEPTH 6

struct dirent64_head {		/* the kernel's linux_dirent64 */
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int is_dot(const char *n)
{
	return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

/* Empty directory fd (it is closed), then remove name from parent. */
static int empty_dir(int fd, int depth);

static int remove_entry(int dirfd, const char *name, unsigned char type,
			int depth)
{
	int fd;

	if (type != DT_DIR && type != DT_UNKNOWN)
		return unlinkat(dirfd, name, 0);
	if (!unlinkat(dirfd, name, 0))
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0 || empty_dir(fd, depth + 1))
		return -1;
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* One pass over fd's entries: how many were removed, or -1. */
static int remove_pass(int fd, int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	ssize_t n, at;
	int removed = 0;

	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (at = 0; at < n; at += ((struct dirent64_head *)
					    (void *)(buf + at))->reclen) {
			struct dirent64_head *d = (void *)(buf + at);

			if (is_dot(d->name))
				continue;
			if (remove_entry(fd, d->name, d->type, depth))
				return -1;
			removed++;
		}
	}
	return n < 0 ? -1 : removed;
}

static int empty_dir(int fd, int depth)
{
	int r;

	if (depth > TREE_DEPTH) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	/* entries removed while reading: read again until none is left */
	while ((r = remove_pass(fd, depth)) > 0)
		if (lseek(fd, 0, SEEK_SET) < 0) {
			r = -1;
			break;
		}
	close(fd);
	return r;
}

int tdat_remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : unlink(path);
	if (empty_dir(fd, 0))
		return -1;
	return rmdir(path);
}
