/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outcopy.c - bytes of an input file appended to an output by the
 * kernel (copy_file_range): one copy from page cache to page cache, not
 * two through a buffer of ours, and none where the file system shares
 * extents.  Where it cannot (another file system, no support), the
 * caller reads and writes them itself.
 */
#define _GNU_SOURCE		/* copy_file_range */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/internal.h"

#define OUT_COPY_STEP (8u << 20)	/* then writeback gets its turn */

/* Errors that mean only "not between these two files". */
static int cannot_copy(int e)
{
	return e == EXDEV || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP ||
	       e == EBADF || e == ETXTBSY || e == EOVERFLOW || e == EPERM;
}

int out_copy_from(struct outfile *o, int in_fd, uint64_t off, uint64_t n,
		  uint64_t *done, struct tdat_error *err)
{
	*done = 0;
	if (out_flush(o, err))
		return -1;
	while (!o->no_copy && *done < n) {
		off_t from = (off_t)(off + *done), to = (off_t)o->pos;
		uint64_t step = n - *done < OUT_COPY_STEP ? n - *done :
							     OUT_COPY_STEP;
		ssize_t c = o->copy_range(in_fd, &from, o->fd, &to,
					  (size_t)step, 0);

		if (c < 0 && errno == EINTR)
			continue;
		if (c <= 0 && (c == 0 || cannot_copy(errno))) {
			o->no_copy = 1;	/* the rest, and later ones: by hand */
			break;
		}
		if (c < 0)
			return tdat_fail(err, o->path, o->pos, "write error: %s",
					 strerror(errno));
		*done += (uint64_t)c;
		o->pos += (uint64_t)c;
		if (outsync_advance(o, err))
			return -1;
	}
	return 0;
}
