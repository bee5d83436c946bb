/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outsync.c - an output's writeback started behind its writer, so that
 * the fsync before it is named finds little left to write.
 *
 * Each OUT_WB_STEP bytes completed at the end of the file are handed to
 * the disk at once (sync_file_range SYNC_FILE_RANGE_WRITE, which does not
 * wait), and the range OUT_WB_LAG steps older is waited for, so that the
 * pages dirty or in flight stay bounded whatever the size of the file.
 * None of it is needed for durability: out_commit's fsync still covers
 * the whole file, the bytes patched behind the writer too.  A file system
 * that refuses sync_file_range leaves the file to that fsync alone; an
 * I/O error it reports is the output's error, as fsync would not report
 * it a second time.
 */
#define _GNU_SOURCE		/* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/internal.h"

#define OUT_WB_STEP (8u << 20)	/* bytes handed to the disk at once */
#define OUT_WB_LAG 2		/* steps in flight before the writer waits */

static int libc_sync_range(int fd, uint64_t off, uint64_t n, unsigned flags)
{
	return sync_file_range(fd, (off_t)off, (off_t)n, flags);
}

void outsync_init(struct outfile *o)
{
	o->wb_next = 0;
	o->wb_off = o->direct >= 0;	/* a scratch file: never durable */
	o->sync_range = libc_sync_range;
}

/* Errors that mean only "not here": the file is left to fsync. */
static int unsupported(int e)
{
	return e == ENOSYS || e == EINVAL || e == ESPIPE || e == EOPNOTSUPP ||
	       e == ENOTTY;
}

/* One call; 0 (done, or unsupported and so off from now on) or -1. */
static int range(struct outfile *o, uint64_t off, uint64_t n, unsigned flags,
		 struct tdat_error *err)
{
	if (o->wb_off || !n || !o->sync_range(o->fd, off, n, flags))
		return 0;
	if (unsupported(errno)) {
		o->wb_off = 1;
		return 0;
	}
	return tdat_fail(err, o->path, off, "cannot write back: %s",
			 strerror(errno));
}

int outsync_advance(struct outfile *o, struct tdat_error *err)
{
	uint64_t lag = (uint64_t)OUT_WB_STEP * OUT_WB_LAG;

	while (!o->wb_off && o->pos - o->wb_next >= OUT_WB_STEP) {
		if (range(o, o->wb_next, OUT_WB_STEP,
			  SYNC_FILE_RANGE_WRITE, err))
			return -1;
		if (o->wb_next >= lag &&
		    range(o, o->wb_next - lag, OUT_WB_STEP,
			  SYNC_FILE_RANGE_WAIT_BEFORE, err))
			return -1;
		o->wb_next += OUT_WB_STEP;
	}
	return 0;
}

int outsync_start_rest(struct outfile *o, struct tdat_error *err)
{
	return range(o, o->wb_next, o->pos - o->wb_next,
		     SYNC_FILE_RANGE_WRITE, err);
}
