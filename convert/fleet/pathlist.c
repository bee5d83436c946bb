/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathlist.c - --files-from: the inputs as a list, one path a line or
 * NUL-separated (-0, for names with newlines: find -print0).  Paths are
 * kept byte for byte as given; the shard rule hashes them as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/fleet/fleet.h"
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

int pathlist_add(struct pathlist *l, const char *path)
{
	char **v;
	int cap;

	if (l->n == l->cap) {
		cap = l->cap ? 2 * l->cap : 64;
		v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strdup(path);
	return l->v[l->n] ? (l->n++, 0) : -1;
}

void pathlist_free(struct pathlist *l)
{
	int k;

	for (k = 0; k < l->n; k++)
		free(l->v[k]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* One entry buf[0..n), unless empty. */
static int entry(struct pathlist *l, const char *buf, size_t n,
		 const char *name, uint64_t off, struct tdat_error *err)
{
	char *p;
	int r;

	if (!n)
		return 0;
	p = strndup(buf, n);
	r = p && l->n < 0x7fffffff ? pathlist_add(l, p) : -1;
	free(p);
	return r ? tdat_fail(err, name, off, "out of memory") : 0;
}

int pathlist_parse(struct pathlist *l, const char *buf, size_t n, int nul,
		   const char *name, struct tdat_error *err)
{
	size_t start = 0, i;
	const char *z;

	if (!nul && (z = memchr(buf, 0, n)))
		return tdat_fail(err, name, (uint64_t)(z - buf), "a NUL byte"
				 " in a list of lines (NUL-separated lists"
				 " need -0)");
	for (i = 0; i < n; i++) {
		if (buf[i] != (nul ? '\0' : '\n'))
			continue;
		if (entry(l, buf + start, i - start, name, start, err))
			return -1;
		start = i + 1;
	}
	return entry(l, buf + start, n - start, name, start, err);
}

/* The whole of fd into b. */
static int slurp(int fd, struct tdat_bytes *b)
{
	ssize_t got;

	for (;;) {
		if (tdat_bytes_reserve(b, b->len + 65536))
			return -1;
		got = read(fd, b->data + b->len, b->cap - b->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return (int)got;
		b->len += (size_t)got;
	}
}

int pathlist_read(struct pathlist *l, const char *name, int nul,
		  struct tdat_error *err)
{
	int std = !strcmp(name, "-");
	int fd = std ? 0 : open(name, O_RDONLY | O_CLOEXEC);
	struct tdat_bytes b = { 0 };
	const char *shown = std ? "standard input" : name;
	int r;

	if (fd < 0)
		return tdat_fail_nooff(err, shown, "%s", strerror(errno));
	r = slurp(fd, &b);
	if (r)
		tdat_fail_nooff(err, shown, "%s", strerror(errno));
	if (!std)
		close(fd);
	if (!r)
		r = pathlist_parse(l, (const char *)b.data, b.len, nul, shown,
				   err);
	tdat_bytes_free(&b);
	return r;
}
