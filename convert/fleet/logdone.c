/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * logdone.c - what earlier runs logged to --log as done, for a task run
 * again to skip it: a set of (path as given, size, mtime) keys, each
 * with its result and where its line lies.
 *
 * A log of a million lines is read through a buffer of fixed size, and
 * the set keeps 96 bits of a hash of each key, not the key: 24 bytes a
 * file, however long its path.  Two keys would have to agree in 96 bits
 * for a changed file to pass for one done (odds of 1 in 2^60 or so for
 * a million files).  Lines that are cut, too long or not JSON are
 * counted and passed over: a rerun then does that file again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/fleet/fleet.h"
#include "libfmt/bytes.h"

#define LINE_MAX_BYTES (256 * 1024)	/* longer lines are not ours */

struct logdone_slot {
	uint64_t h1;
	uint64_t off;		/* of its line in the log */
	uint32_t h2;
	uint8_t result;		/* index in the results given */
	uint8_t used;
};

/* Two hashes of the key, of two starting values: 96 bits kept. */
static void key_hash(const char *path, size_t plen, uint64_t size,
		     const char *mtime, uint64_t *h1, uint32_t *h2)
{
	uint64_t b[2] = { FLEET_FNV_BASIS, 0x84222325cbf29ce4ull };
	uint8_t sz[8];
	int k, i;

	for (i = 0; i < 8; i++)
		sz[i] = (uint8_t)(size >> (8 * i));
	for (k = 0; k < 2; k++) {
		/* the path's length first: no two keys spell alike */
		b[k] = fleet_fnv1a(b[k], &plen, sizeof(plen));
		b[k] = fleet_fnv1a(b[k], path, plen);
		b[k] = fleet_fnv1a(b[k], sz, sizeof(sz));
		b[k] = fleet_fmix64(fleet_fnv1a(b[k], mtime, strlen(mtime)));
	}
	*h1 = b[0];
	*h2 = (uint32_t)b[1];
}

static struct logdone_slot *slot_of(struct logdone_slot *v, size_t cap,
				    uint64_t h1, uint32_t h2)
{
	size_t i = (size_t)h1 & (cap - 1);

	while (v[i].used && (v[i].h1 != h1 || v[i].h2 != h2))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* Twice the slots, at three quarters full.  0 or -1 out of memory. */
static int grow(struct logdone *d)
{
	size_t cap = d->cap ? d->cap * 2 : 1024, i;
	struct logdone_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (i = 0; i < d->cap; i++)
		if (d->v[i].used)
			*slot_of(v, cap, d->v[i].h1, d->v[i].h2) = d->v[i];
	free(d->v);
	d->v = v;
	d->cap = cap;
	return 0;
}

/* A later line of one key replaces the earlier: the last word counts. */
static int insert(struct logdone *d, const struct logline *l, int result,
		  uint64_t off)
{
	struct logdone_slot *s;
	uint64_t h1;
	uint32_t h2;

	if ((d->n + 1) * 4 > d->cap * 3 && grow(d))
		return -1;
	key_hash((const char *)l->path.data, l->path.len - 1, l->size,
		 (const char *)l->mtime.data, &h1, &h2);
	s = slot_of(d->v, d->cap, h1, h2);
	d->n += !s->used;
	s->h1 = h1;
	s->h2 = h2;
	s->off = off;
	s->result = (uint8_t)result;
	s->used = 1;
	return 0;
}

/* The result's index in d->results, or -1 when it is not one. */
static int result_of(const struct logdone *d, const struct logline *l)
{
	int k;

	for (k = 0; d->results[k] && k < 255; k++)
		if (!strcmp((const char *)l->result.data, d->results[k]))
			return k;
	return -1;
}

/* One whole line (no newline) at off.  0, or -1 out of memory. */
static int take_line(struct logdone *d, struct logline *l, const char *s,
		     size_t n, uint64_t off)
{
	int k;

	d->lines++;
	if (!n)
		return 0;
	if (logline_parse(l, s, n)) {
		d->ignored++;
		return 0;
	}
	if (!l->has_path || !l->has_result || !l->has_mtime || !l->sized)
		return 0;	/* not a record of a file done: another's */
	k = result_of(d, l);
	return k < 0 ? 0 : insert(d, l, k, off);
}

/* The lines of buf[*start..end) that end in a newline taken. */
static int take_lines(struct logdone *d, struct logline *l, char *buf,
		      size_t *start, size_t end, uint64_t base, int *skip)
{
	char *nl;

	while ((nl = memchr(buf + *start, '\n', end - *start))) {
		size_t n = (size_t)(nl - buf) - *start;

		if (!*skip && take_line(d, l, buf + *start, n, base + *start))
			return -1;
		*skip = 0;
		*start += n + 1;
	}
	return 0;
}

/* Every line of the open log fd; a last line with no newline is cut. */
static int read_lines(struct logdone *d, int fd, struct tdat_error *err)
{
	struct logline l = { 0 };
	char *buf = malloc(LINE_MAX_BYTES);
	size_t start = 0, end = 0;
	uint64_t base = 0;	/* buf[0]'s offset in the log */
	int skip = 0, oom = !buf;
	ssize_t got = 0;
	int e = 0;

	while (!oom) {
		if (start == 0 && end == LINE_MAX_BYTES) {
			d->ignored += !skip;	/* a line too long */
			d->lines += !skip;
			skip = 1;
			start = end;
		}
		memmove(buf, buf + start, end - start);
		base += start;
		end -= start;
		start = 0;
		got = read(fd, buf + end, LINE_MAX_BYTES - end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			e = errno;
			break;
		}
		end += (size_t)got;
		oom = take_lines(d, &l, buf, &start, end, base, &skip);
	}
	logline_free(&l);
	free(buf);
	if (oom)
		return tdat_fail_nooff(err, d->path, "out of memory");
	if (got < 0)
		return tdat_fail_nooff(err, d->path, "cannot be read back: %s",
				       strerror(e));
	if (end > start && !skip) {
		d->ignored++;	/* cut: its task was killed mid-line */
		d->lines++;
	}
	return 0;
}

int logdone_read(struct logdone *d, const char *path,
		 const char *const *results, struct tdat_error *err)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	d->results = results;
	/* never through a symlink, never waiting for a FIFO's writer */
	d->fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			   O_NOCTTY);
	if (d->fd < 0)
		return errno == ENOENT || errno == ELOOP ? 0 :
		       tdat_fail_nooff(err, path, "cannot be read back: %s",
				       strerror(errno));
	if (fstat(d->fd, &st) || !S_ISREG(st.st_mode)) {
		close(d->fd);
		d->fd = -1;
		return 0;	/* a FIFO or terminal has no past */
	}
	return read_lines(d, d->fd, err);
}

int logdone_find(const struct logdone *d, const char *path, uint64_t size,
		 const char *mtime, uint64_t *off)
{
	const struct logdone_slot *s;
	uint64_t h1;
	uint32_t h2;

	if (!d->n)
		return -1;
	key_hash(path, strlen(path), size, mtime, &h1, &h2);
	s = slot_of(d->v, d->cap, h1, h2);
	if (!s->used)
		return -1;
	if (off)
		*off = s->off;
	return s->result;
}

int logdone_line(const struct logdone *d, uint64_t off, struct logline *l)
{
	char *buf = d->fd >= 0 ? malloc(LINE_MAX_BYTES) : NULL;
	ssize_t got = buf ? pread(d->fd, buf, LINE_MAX_BYTES, (off_t)off) : -1;
	char *nl = got > 0 ? memchr(buf, '\n', (size_t)got) : NULL;
	int r = nl ? logline_parse(l, buf, (size_t)(nl - buf)) : -1;

	free(buf);
	return r;
}

void logdone_free(struct logdone *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->v);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
}
