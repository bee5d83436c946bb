/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flattened.c - makedumpfile's flattened form (what makedumpfile -F
 * writes to a pipe, and QEMU 7.2's dump-guest-memory and virsh dump
 * write as kdump-zlib/-lzo/-snappy), which libkdumpfile 0.5.1 cannot
 * read.  The file is a 4096-byte header beginning "makedumpfile", then
 * records: a big-endian int64 offset and int64 size, then size bytes
 * that belong at that offset of the real dump; an offset of -1 ends
 * them.  Rearranged here as makedumpfile -R would, into an unnamed
 * temporary file (sparse: only what the records hold is written), one
 * record at a time through a small buffer: the dump is never held in
 * memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/vmcore/vmcore_internal.h"

#define FLAT_SIGNATURE "makedumpfile"
#define FLAT_HEADER 4096
#define FLAT_COPY (1u << 20)
#define FLAT_MAX_OFFSET (1ull << 48)

int flat_is(int fd)
{
	char sig[16];

	return pread(fd, sig, sizeof(sig), 0) == (ssize_t)sizeof(sig) &&
	       !memcmp(sig, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE)) ;
}

static int full_pread(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int full_pwrite(int fd, const void *buf, size_t n, uint64_t off)
{
	size_t put = 0;
	ssize_t r;

	while (put < n) {
		r = pwrite(fd, (const char *)buf + put, n - put,
			   (off_t)(off + put));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		put += (size_t)r;
	}
	return 0;
}

/* An unnamed file beside nothing: TMPDIR's or /tmp's, gone when closed. */
static int temp_file(const char *path, struct tdat_error *err)
{
	const char *dir = getenv("TMPDIR");
	char name[4096];
	int fd;

	if (!dir || !dir[0])
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(name, sizeof(name), "%s/tdat-vmcore.XXXXXX", dir);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return tdat_fail_nooff(err, path, "flattened dump: no temporary"
				       " file in %s: %s", dir, strerror(errno));
	unlink(name);
	return fd;
}

/* Copy one record's n bytes from in (at from) to out (at to). */
static int copy_record(int in, uint64_t from, int out, uint64_t to,
		       uint64_t n, uint8_t *buf, const char *path,
		       struct tdat_error *err)
{
	size_t step;

	while (n) {
		step = n > FLAT_COPY ? FLAT_COPY : (size_t)n;
		if (full_pread(in, buf, step, from))
			return tdat_fail(err, path, from, "flattened dump: a"
					 " record is cut short");
		if (full_pwrite(out, buf, step, to))
			return tdat_fail(err, path, from, "flattened dump:"
					 " cannot write the rearranged dump:"
					 " %s", strerror(errno));
		from += step;
		to += step;
		n -= step;
	}
	return 0;
}

static int rearrange(int in, int out, const char *path, uint8_t *buf,
		     struct tdat_error *err)
{
	uint64_t pos = FLAT_HEADER, off, size, nrec = 0;
	uint8_t head[16];

	for (;;) {
		if (full_pread(in, head, sizeof(head), pos))
			return tdat_fail(err, path, pos, "flattened dump: cut"
					 " before its end record");
		off = tdat_load64(1, head);
		size = tdat_load64(1, head + 8);
		if (off == UINT64_MAX)
			return nrec ? 0 : tdat_fail(err, path, pos,
				"flattened dump: no record");
		if (off >= FLAT_MAX_OFFSET || size > FLAT_MAX_OFFSET - off)
			return tdat_fail(err, path, pos, "flattened dump: a"
					 " record for offset %llu, %llu bytes",
					 (unsigned long long)off,
					 (unsigned long long)size);
		if (copy_record(in, pos + 16, out, off, size, buf, path, err))
			return -1;
		pos += 16 + size;
		nrec++;
	}
}

int flat_rearrange(int fd, const char *path, struct tdat_error *err)
{
	uint8_t *buf = malloc(FLAT_COPY);
	int out;

	if (!buf)
		return tdat_errorf(err, "out of memory");
	out = temp_file(path, err);
	if (out >= 0 && rearrange(fd, out, path, buf, err)) {
		close(out);
		out = -1;
	}
	free(buf);
	return out;
}
