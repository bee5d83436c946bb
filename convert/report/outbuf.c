/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outbuf.c - buffered output with large writes.  Without a FILE the
 * buffer grows instead: a batch's text, made on a worker thread.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"

#define OUTBUF_SIZE (1u << 20)

void outbuf_init(struct outbuf *o, FILE *fp)
{
	o->fp = fp;
	memset(&o->b, 0, sizeof(o->b));
	o->error = tdat_bytes_reserve(&o->b, OUTBUF_SIZE) != 0;
}

int outbuf_flush(struct outbuf *o)
{
	if (!o->fp)
		return o->error ? -1 : 0;
	if (o->b.len && fwrite(o->b.data, 1, o->b.len, o->fp) != o->b.len)
		o->error = 1;
	tdat_bytes_reset(&o->b);
	if (fflush(o->fp))
		o->error = 1;
	return o->error ? -1 : 0;
}

static int grow(struct outbuf *o, size_t n)
{
	size_t need = o->b.len + n;

	if (tdat_bytes_reserve(&o->b, o->b.cap * 2 > need ? o->b.cap * 2 :
			       need)) {
		o->error = 1;
		return 0;
	}
	return 1;
}

static int room(struct outbuf *o, size_t n)
{
	if (o->b.len + n <= o->b.cap)
		return 1;
	if (!o->fp)
		return grow(o, n);
	outbuf_flush(o);
	return n <= o->b.cap;
}

void outbuf_put_any(struct outbuf *o, const char *p, size_t n)
{
	if (!room(o, n)) {
		if (o->fp && fwrite(p, 1, n, o->fp) != n)
			o->error = 1;
		return;
	}
	memcpy(o->b.data + o->b.len, p, n);
	o->b.len += n;
}

char *outbuf_room(struct outbuf *o, size_t n)
{
	return room(o, n) ? (char *)o->b.data + o->b.len : NULL;
}

void outbuf_commit(struct outbuf *o, size_t n)
{
	o->b.len += n;
}

void outbuf_puts(struct outbuf *o, const char *s)
{
	outbuf_put(o, s, strlen(s));
}

void outbuf_pad(struct outbuf *o, size_t n)
{
	if (!room(o, n))
		return;
	memset(o->b.data + o->b.len, ' ', n);
	o->b.len += n;
}

void outbuf_printf(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!room(o, 256))
		return;
	va_start(ap, fmt);
	n = vsnprintf((char *)o->b.data + o->b.len, o->b.cap - o->b.len, fmt,
		      ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->b.cap - o->b.len) {	/* longer than the room */
		char *s = malloc((size_t)n + 1);

		if (!s)
			return;
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
		outbuf_put(o, s, (size_t)n);
		free(s);
		return;
	}
	o->b.len += (size_t)n;
}

void outbuf_free(struct outbuf *o)
{
	tdat_bytes_free(&o->b);
}
