/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outfile.c - outputs that appear whole or not at all, and that nothing
 * planted beforehand can redirect.
 *
 * The file is written unnamed (O_TMPFILE in the target's directory),
 * synced, and only then linked under its name; a name that exists is
 * replaced by rename() from an unpredictable temporary link, so a
 * symlink there is replaced, never written through.  Where the file
 * system has no O_TMPFILE, the file is created under an unpredictable
 * name with O_EXCL|O_NOFOLLOW (listed for tdat_outputs_discard) and
 * renamed.  An existing output that is not a regular file is never
 * replaced (outdirect.c).
 */
#define _GNU_SOURCE		/* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "libfmt/internal.h"

#define OUT_BUF_BYTES (256u << 10)

/* 16 hex digits nobody can guess ahead (nor plant a link at). */
static void random_hex(char out[17])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[8];
	struct timespec ts;
	uint64_t x;
	int i;

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		/* only this early in boot; O_EXCL still keeps us safe */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
		    (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 40;
		memcpy(b, &x, sizeof(b));
	}
	for (i = 0; i < 8; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[16] = '\0';
}

char *out_temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + 32;
	char *name = malloc(len), hex[17];

	if (!name)
		return NULL;
	random_hex(hex);
	snprintf(name, len, "%.*s.%s.tmp-%s", (int)dirlen, path,
		 path + dirlen, hex);
	return name;
}

char *tdat_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int out_no_tmpfile(int e)
{
	return e == EOPNOTSUPP || e == EISDIR || e == EINVAL;
}

/* The O_EXCL way: a new file under an unpredictable name, listed so
 * that a signal handler can remove it. */
static int open_named(struct outfile *o, struct tdat_error *err)
{
	sigset_t old;
	int i, e = EEXIST;

	for (i = 0; i < OUT_NAME_TRIES && e == EEXIST; i++) {
		o->tmp = out_temp_name(o->path);
		if (!o->tmp)
			return tdat_fail_nooff(err, o->path, "out of memory");
		outreg_block(&old);
		o->fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			     O_CLOEXEC, 0644);
		e = errno;
		if (o->fd >= 0 && outreg_add(o->tmp, OUTREG_TEMP)) {
			close(o->fd);
			unlink(o->tmp);
			o->fd = -1;
			e = ENOMEM;
		}
		outreg_unblock(&old);
		if (o->fd >= 0)
			return 0;
		free(o->tmp);
		o->tmp = NULL;
	}
	return tdat_fail_nooff(err, o->path, "cannot create: %s", strerror(e));
}

/* Unnamed in the target's directory, or named where it cannot be. */
static int open_beside(struct outfile *o, struct tdat_error *err)
{
	char *dir;
	int e;

	if (o->flags & OUT_NO_TMPFILE)
		return open_named(o, err);
	dir = tdat_dir_of(o->path);
	if (!dir)
		return tdat_fail_nooff(err, o->path, "out of memory");
	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	e = errno;
	free(dir);
	if (o->fd >= 0)
		return 0;
	if (out_no_tmpfile(e))
		return open_named(o, err);
	return tdat_fail_nooff(err, o->path, "cannot create: %s", strerror(e));
}

int out_open(struct outfile *o, const char *path, int flags,
	     struct tdat_error *err)
{
	int r;

	memset(o, 0, sizeof(*o));
	o->fd = o->direct = -1;
	o->flags = flags;
	o->path = strdup(path);
	if (!o->path)
		return tdat_fail_nooff(err, path, "out of memory");
	r = outdirect_open(o, err);
	if (r == 0)
		r = open_beside(o, err);
	else if (r == 1)
		r = 0;
	if (r) {
		out_abort(o);
		return -1;
	}
	outsync_init(o);
	o->copy_range = copy_file_range;
	return 0;
}

/* n bytes at off, straight to the file. */
static int write_at(struct outfile *o, uint64_t off, const void *p, size_t n,
		    struct tdat_error *err)
{
	const uint8_t *b = p;
	size_t done = 0;

	while (done < n) {
		ssize_t w = pwrite(o->fd, b + done, n - done,
				   (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return tdat_fail(err, o->path, off + done,
					 "write error: %s",
					 w < 0 ? strerror(errno) : "no progress");
		done += (size_t)w;
	}
	return 0;
}

int out_flush(struct outfile *o, struct tdat_error *err)
{
	size_t n = o->blen;

	if (!n)
		return 0;
	o->blen = 0;
	if (write_at(o, o->pos - n, o->buf, n, err))
		return -1;
	return outsync_advance(o, err);
}

/* A small append kept in the buffer: 1 if taken, 0 if it has to go to
 * the file (too big, or no buffer to be had), -1 on a write error. */
static int buffered(struct outfile *o, const void *p, size_t n,
		    struct tdat_error *err)
{
	if (!n)
		return 1;	/* p may be NULL */
	if (n >= OUT_BUF_BYTES / 2)
		return 0;
	if (!o->buf && !(o->buf = malloc(OUT_BUF_BYTES)))
		return 0;
	if (o->blen + n > OUT_BUF_BYTES && out_flush(o, err))
		return -1;
	memcpy(o->buf + o->blen, p, n);
	o->blen += n;
	o->pos += n;
	return 1;
}

/*
 * Appends go through a buffer: a writer of many small pieces (a
 * compressed chunk is a few KiB) makes one system call per
 * OUT_BUF_BYTES, not one per piece.  A patch inside the buffer lands
 * there; anywhere else the buffer is written first.
 */
int out_pwrite(struct outfile *o, uint64_t off, const void *p, size_t n,
	       struct tdat_error *err)
{
	uint64_t start = o->pos - o->blen;
	int r;

	if (off == o->pos && (r = buffered(o, p, n, err)) != 0)
		return r < 0 ? -1 : 0;
	if (o->blen && off >= start && off + n <= o->pos) {
		if (n)
			memcpy(o->buf + (off - start), p, n);
		return 0;
	}
	if (off + n > start && out_flush(o, err))
		return -1;
	if (write_at(o, off, p, n, err))
		return -1;
	if (off + n > o->pos)
		o->pos = off + n;
	return outsync_advance(o, err);
}

int out_write(struct outfile *o, const void *p, size_t n,
	      struct tdat_error *err)
{
	return out_pwrite(o, o->pos, p, n, err);
}

int out_truncate(struct outfile *o, uint64_t pos, struct tdat_error *err)
{
	uint64_t start = o->pos - o->blen;

	if (pos >= o->pos)
		return 0;
	o->blen = pos > start ? (size_t)(pos - start) : 0;
	o->pos = pos;
	/* What was written past it must not come back as a later hole. */
	if (pos < start && ftruncate(o->fd, (off_t)pos))
		return tdat_fail(err, o->path, pos, "cannot cut: %s",
				 strerror(errno));
	return 0;
}

int out_align(struct outfile *o, uint64_t align, struct tdat_error *err)
{
	uint64_t end;

	if (align == 0 || o->pos % align == 0)
		return 0;
	if (out_flush(o, err))
		return -1;
	end = (o->pos / align + 1) * align;
	/* Leave a hole: the file system returns zeros for it. */
	if (ftruncate(o->fd, (off_t)end))
		return tdat_fail(err, o->path, o->pos, "cannot extend: %s",
				 strerror(errno));
	o->pos = end;
	return outsync_advance(o, err);
}

/* Give the unnamed file fd the name; -1 with errno (EEXIST if taken). */
static int link_fd(int fd, const char *name)
{
	char proc[64];
	int e;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
		return 0;
	e = errno;
	if (e != ENOENT || !access("/proc/self/fd", F_OK)) {
		errno = e;
		return -1;
	}
	/* no /proc: this way needs CAP_DAC_READ_SEARCH */
	return linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH);
}

/* The unnamed file under o->path: linked there, or, when the name is
 * taken, linked beside it and renamed over it (no call links over a
 * name: SIGKILL between the two would leave the complete file under
 * the temporary name).  -1 with errno. */
int out_link_unnamed(int fd, const char *path)
{
	char *tmp = NULL;
	int i, r, e = EEXIST;

	if (!link_fd(fd, path))
		return 0;
	if (errno != EEXIST)
		return -1;
	for (i = 0; i < OUT_NAME_TRIES && e == EEXIST; i++) {
		free(tmp);
		tmp = out_temp_name(path);
		if (!tmp) {
			errno = ENOMEM;
			return -1;
		}
		e = link_fd(fd, tmp) ? errno : 0;
	}
	if (e) {
		free(tmp);
		errno = e;
		return -1;
	}
	r = rename(tmp, path);
	e = errno;
	if (r)
		unlink(tmp);
	free(tmp);
	errno = e;
	return r;
}

/* Best effort: a file system may not sync directories (EINVAL). */
void tdat_sync_dir_of(const char *path)
{
	char *dir = tdat_dir_of(path);
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/*
 * The file, synced, takes its name; one held unnamed is synced when
 * kept.  Signals are blocked meanwhile, so the name and the list of
 * provisional outputs change together: a handler finds either the
 * temporary name or the final one listed.
 */
static int place(struct outfile *o, struct tdat_error *err)
{
	sigset_t old;
	int r = 0, e = 0;

	if (o->flags & OUT_UNNAMED_UNTIL_KEPT && !o->tmp) {
		/* synced by tdat_outputs_keep: meanwhile the disk works */
		if (outsync_start_rest(o, err))
			return -1;
		if (!outreg_hold(o->path, o->fd)) {
			o->fd = -1;	/* the list's now */
			return 0;
		}
		o->flags |= OUT_PROVISIONAL;	/* too many held: named now */
	}
	if (fsync(o->fd))
		return tdat_fail(err, o->path, o->pos, "cannot sync: %s",
				 strerror(errno));
	if (o->flags & OUT_UNNAMED_UNTIL_KEPT)
		o->flags |= OUT_PROVISIONAL;	/* a temporary name: same */
	outreg_block(&old);
	if (o->flags & OUT_PROVISIONAL &&
	    outreg_add(o->path, OUTREG_PROVISIONAL)) {
		r = -1;
		e = ENOMEM;
	}
	if (!r) {
		r = o->tmp ? rename(o->tmp, o->path) :
			     out_link_unnamed(o->fd, o->path);
		e = errno;
		if (r && o->flags & OUT_PROVISIONAL)
			outreg_remove(o->path);
	}
	if (!r && o->tmp) {
		outreg_remove(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	outreg_unblock(&old);
	if (r)
		return tdat_fail_nooff(err, o->path, "cannot put the file in"
				       " place: %s", strerror(e));
	tdat_sync_dir_of(o->path);
	return 0;
}

static void out_free(struct outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->direct >= 0)
		close(o->direct);
	o->fd = o->direct = -1;
	free(o->tmp);
	free(o->path);
	free(o->buf);
	o->tmp = o->path = NULL;
	o->buf = NULL;
	o->blen = 0;
}

int out_commit(struct outfile *o, struct tdat_error *err)
{
	int r;

	if (out_flush(o, err)) {
		out_abort(o);
		return -1;
	}
	/* The hole left by a final out_align must reach the file size. */
	if (ftruncate(o->fd, (off_t)o->pos)) {
		tdat_fail(err, o->path, o->pos, "cannot finish: %s",
			  strerror(errno));
		out_abort(o);
		return -1;
	}
	r = o->direct >= 0 ? outdirect_copy(o, err) : place(o, err);
	if (r) {
		out_abort(o);
		return -1;
	}
	out_free(o);	/* synced and in place: its close cannot lose data */
	return 0;
}

void out_abort(struct outfile *o)
{
	sigset_t old;

	if (o->tmp) {
		outreg_block(&old);
		unlink(o->tmp);
		outreg_remove(o->tmp);
		outreg_unblock(&old);
	}
	out_free(o);
}
