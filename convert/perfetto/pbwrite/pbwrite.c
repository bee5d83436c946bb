/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pbwrite.c - the protocol buffer writer of pbwrite.h. */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/pbwrite/pbwrite.h"

int pb_varint_size(uint64_t v)
{
	int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

int pb_grow(struct pb *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *d;

	if (b->failed)
		return -1;
	if (n <= b->cap - b->len)
		return 0;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	d = realloc(b->data, cap);
	if (!d) {
		b->failed = 1;
		return -1;
	}
	b->data = d;
	b->cap = cap;
	return 0;
}

void pb_reset(struct pb *b)
{
	b->len = 0;
	b->failed = 0;
}

void pb_free(struct pb *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

int pb_failed(const struct pb *b)
{
	return b->failed;
}

void pb_raw(struct pb *b, const void *p, size_t n)
{
	if (!n || pb_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void pb_sint(struct pb *b, uint32_t field, int64_t v)
{
	uint64_t u = (uint64_t)v;

	pb_uint(b, field, u << 1 ^ (v < 0 ? UINT64_MAX : 0));
}

void pb_double(struct pb *b, uint32_t field, double v)
{
	uint8_t le[8];
	uint64_t u;
	int i;

	memcpy(&u, &v, sizeof(u));	/* IEEE 754 bits, stored little end first */
	for (i = 0; i < 8; i++)
		le[i] = (uint8_t)(u >> (8 * i));
	pb_tag(b, field, PB_I64);
	pb_raw(b, le, sizeof(le));
}

void pb_bytes(struct pb *b, uint32_t field, const void *p, size_t n)
{
	pb_tag(b, field, PB_LEN);
	pb_varint(b, n);
	pb_raw(b, p, n);
}

void pb_string(struct pb *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

struct pb_mark pb_open(struct pb *b, uint32_t field, int width)
{
	struct pb_mark m;

	if (width < 1 || width > 5)
		width = 5;
	pb_tag(b, field, PB_LEN);
	m.at = b->len;
	m.width = width;
	if (!pb_reserve(b, (size_t)width))
		b->len += (size_t)width;
	return m;
}

/* v as exactly width bytes: continuation bits on all but the last. */
static void put_padded(uint8_t *p, uint64_t v, int width)
{
	int i;

	for (i = 0; i < width - 1; i++) {
		p[i] = (uint8_t)(v & 0x7f) | 0x80;
		v >>= 7;
	}
	p[width - 1] = (uint8_t)v;
}

void pb_close(struct pb *b, struct pb_mark m)
{
	size_t start = m.at + (size_t)m.width, len;
	int need;

	if (b->failed)
		return;
	len = b->len - start;
	need = pb_varint_size(len);
	if (need <= m.width) {
		put_padded(b->data + m.at, len, m.width);
		return;
	}
	if (pb_reserve(b, (size_t)(need - m.width)))
		return;
	memmove(b->data + m.at + need, b->data + start, len);
	pb_put_varint(b->data + m.at, len);
	b->len += (size_t)(need - m.width);
}
