/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src.c - the dump walk's reads: from the file or a decoded section, failing with the offset. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "convert/dump/dump_int.h"
#include "libfmt/salvage.h"

int d_fail(struct dump *d, struct dsrc *s, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	uint64_t off = s->mem ? s->base : s->pos;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (s->mem)
		return tdat_fail(&d->err, d->path, off, "section body at"
				 " byte %llu: %s", (unsigned long long)s->pos,
				 what);
	return tdat_fail(&d->err, d->path, off, "%s", what);
}

int d_read(struct dump *d, struct dsrc *s, void *buf, uint64_t n,
	   const char *what)
{
	if (s->mem) {
		if (n > s->len - s->pos)
			return d_fail(d, s, "%s (%llu bytes) runs past the"
				      " section's end", what,
				      (unsigned long long)n);
		memcpy(buf, s->mem + s->pos, n);
		s->pos += n;
		return 0;
	}
	if (s->pos > d->size || n > d->size - s->pos)
		return d_fail(d, s, "%s (%llu bytes) is cut: the file ends"
			      " at %llu", what, (unsigned long long)n,
			      (unsigned long long)d->size);
	if (fseeko(d->fp, (off_t)s->pos, SEEK_SET) ||
	    fread(buf, 1, n, d->fp) != n)
		return d_fail(d, s, "cannot read %s", what);
	s->pos += n;
	return 0;
}

uint16_t d_get16(const struct dump *d, const uint8_t *p)
{
	return d->big ? (uint16_t)(p[0] << 8 | p[1])
		      : (uint16_t)(p[1] << 8 | p[0]);
}

uint32_t d_get32(const struct dump *d, const uint8_t *p)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)p[d->big ? 3 - i : i] << (8 * i);
	return v;
}

uint64_t d_get64(const struct dump *d, const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[d->big ? 7 - i : i] << (8 * i);
	return v;
}

int d_u16(struct dump *d, struct dsrc *s, uint16_t *v, const char *what)
{
	uint8_t b[2];

	if (d_read(d, s, b, 2, what))
		return -1;
	*v = d_get16(d, b);
	return 0;
}

int d_u32(struct dump *d, struct dsrc *s, uint32_t *v, const char *what)
{
	uint8_t b[4];

	if (d_read(d, s, b, 4, what))
		return -1;
	*v = d_get32(d, b);
	return 0;
}

int d_u64(struct dump *d, struct dsrc *s, uint64_t *v, const char *what)
{
	uint8_t b[8];

	if (d_read(d, s, b, 8, what))
		return -1;
	*v = d_get64(d, b);
	return 0;
}

int d_cstr(struct dump *d, struct dsrc *s, char *buf, size_t cap,
	   const char *what)
{
	uint64_t start = s->pos;
	size_t i;

	for (i = 0; i + 1 < cap; i++) {
		if (d_read(d, s, &buf[i], 1, what))
			return -1;
		if (!buf[i])
			return 0;
	}
	s->pos = start;
	return d_fail(d, s, "%s has no NUL in %zu bytes", what, cap);
}

/* Big texts (kallsyms) go through a window, never whole in memory. */
int d_text(struct dump *d, struct dsrc *s, uint64_t n, unsigned mask,
	   const char *what)
{
	static uint8_t win[65536];
	uint64_t left = n;

	if (!(d->parts & mask)) {
		uint64_t end = s->mem ? s->len : d->size;

		if (s->pos > end || n > end - s->pos)
			return d_read(d, s, win, n, what);
		s->pos += n;
		return 0;
	}
	while (left) {
		uint64_t k = left < sizeof(win) ? left : sizeof(win);

		if (d_read(d, s, win, k, what))
			return -1;
		fwrite(win, 1, k, stdout);
		left -= k;
	}
	return 0;
}

void say(const struct dump *d, unsigned mask, const char *fmt, ...)
{
	va_list ap;

	if (!(d->parts & mask))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int d_decode_block(struct dump *d, struct dsrc *s, uint64_t stored,
		   uint8_t **out, uint32_t *csize, uint32_t *usize)
{
	uint64_t at = s->pos;
	uint8_t *in;

	if (d_u32(d, s, csize, "compressed size") ||
	    d_u32(d, s, usize, "uncompressed size"))
		return -1;
	if ((uint64_t)*csize + 8 > stored)
		return tdat_fail(&d->err, d->path, at, "compressed size %u"
				 " is past the section's %llu bytes", *csize,
				 (unsigned long long)stored);
	in = malloc(*csize ? *csize : 1);
	*out = malloc(*usize ? *usize : 1);
	if (!in || !*out || d_read(d, s, in, *csize, "compressed block")) {
		free(in);
		free(*out);
		*out = NULL;
		return d->err.msg[0] ? -1 : tdat_fail(&d->err, d->path, at,
						      "out of memory");
	}
	if (tdat_salvage_decompress(d->hf, in, *csize, *out, *usize)) {
		free(in);
		free(*out);
		*out = NULL;
		return tdat_fail(&d->err, d->path, at, "the %s block does not"
				 " decompress to %u bytes", d->codec, *usize);
	}
	free(in);
	return 0;
}
