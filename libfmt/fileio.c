/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fileio.c - reading input at offsets (outputs: outfile.c). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/internal.h"

int fio_read_at(const struct tdat_file *f, uint64_t off, void *buf, size_t n,
		const char *what, struct tdat_error *err)
{
	uint8_t *p = buf;
	size_t done = 0;

	if (off > f->file_size || n > f->file_size - off)
		return tdat_fail(err, f->path, off,
				 "%s: needs %zu bytes but the file ends at %llu"
				 " (truncated?)", what, n,
				 (unsigned long long)f->file_size);
	while (done < n) {
		ssize_t r = pread(f->priv->fd, p + done, n - done,
				  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return tdat_fail(err, f->path, off + done,
					 "%s: read error: %s", what,
					 strerror(errno));
		if (r == 0)
			return tdat_fail(err, f->path, off + done,
					 "%s: unexpected end of file", what);
		done += (size_t)r;
	}
	return 0;
}

int tdat_read_stored(const struct tdat_file *f, uint64_t off, void *buf,
		     size_t n, struct tdat_error *err)
{
	return fio_read_at(f, off, buf, n, "trace data", err);
}

int fio_read_blob(const struct tdat_file *f, uint64_t off, uint64_t n,
		  struct tdat_blob *out, const char *what,
		  struct tdat_error *err)
{
	out->data = NULL;
	out->len = 0;
	if (off > f->file_size || n > f->file_size - off)
		return tdat_fail(err, f->path, off,
				 "%s: size %llu runs past the end of the file"
				 " (%llu bytes)", what, (unsigned long long)n,
				 (unsigned long long)f->file_size);
	if (n > TDAT_MAX_BLOB)
		return tdat_fail(err, f->path, off, "%s: size %llu is too large",
				 what, (unsigned long long)n);
	if (n == 0)
		return 0;
	out->data = malloc((size_t)n);
	if (!out->data)
		return tdat_fail(err, f->path, off, "%s: out of memory", what);
	if (fio_read_at(f, off, out->data, (size_t)n, what, err)) {
		tdat_blob_free(out);
		return -1;
	}
	out->len = (size_t)n;
	return 0;
}

void tdat_blob_free(struct tdat_blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

int tdat_blob_dup(struct tdat_blob *dst, const void *p, size_t n)
{
	dst->data = NULL;
	dst->len = 0;
	if (n == 0)
		return 0;
	dst->data = malloc(n);
	if (!dst->data)
		return -1;
	memcpy(dst->data, p, n);
	dst->len = n;
	return 0;
}

/*
 * An input, opened without blocking (a FIFO's open waits for a writer
 * forever) and kept only if it is a regular file: devices, FIFOs and
 * directories are refused with one line.
 */
int tdat_open_regular(const char *path, struct tdat_error *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return tdat_fail_nooff(err, path, "cannot open: %s",
				       strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return tdat_fail_nooff(err, path, "not a regular file");
	}
	/* reads of a regular file never wait; clear the flag anyway */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}
