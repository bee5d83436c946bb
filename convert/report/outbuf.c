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
	o->buf = malloc(OUTBUF_SIZE);
	o->len = 0;
	o->cap = o->buf ? OUTBUF_SIZE : 0;
	o->error = !o->buf;
}

int outbuf_flush(struct outbuf *o)
{
	if (!o->fp)
		return o->error ? -1 : 0;
	if (o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->error = 1;
	o->len = 0;
	if (fflush(o->fp))
		o->error = 1;
	return o->error ? -1 : 0;
}

static int grow(struct outbuf *o, size_t n)
{
	size_t cap = o->cap * 2 > o->len + n ? o->cap * 2 : o->len + n;
	char *b = realloc(o->buf, cap);

	if (!b) {
		o->error = 1;
		return 0;
	}
	o->buf = b;
	o->cap = cap;
	return 1;
}

static int room(struct outbuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return 1;
	if (!o->fp)
		return grow(o, n);
	outbuf_flush(o);
	return n <= o->cap;
}

void outbuf_put(struct outbuf *o, const char *p, size_t n)
{
	if (!room(o, n)) {
		if (o->fp && fwrite(p, 1, n, o->fp) != n)
			o->error = 1;
		return;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void outbuf_puts(struct outbuf *o, const char *s)
{
	outbuf_put(o, s, strlen(s));
}

void outbuf_putc(struct outbuf *o, char c)
{
	if (room(o, 1))
		o->buf[o->len++] = c;
}

void outbuf_pad(struct outbuf *o, size_t n)
{
	if (!room(o, n))
		return;
	memset(o->buf + o->len, ' ', n);
	o->len += n;
}

void outbuf_printf(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!room(o, 256))
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->cap - o->len) {	/* longer than the room */
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
	o->len += (size_t)n;
}

void outbuf_free(struct outbuf *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}
