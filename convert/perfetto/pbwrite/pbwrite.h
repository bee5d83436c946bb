/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbwrite.h - protocol buffers' wire format, written by hand: varints,
 * tags, length-delimited fields and nested messages, into one growable
 * buffer.  Only what a Perfetto trace needs (PERFETTO.md section 1):
 * wire types 0 (varint), 1 (64-bit: doubles) and 2 (length-delimited).
 *
 * Writes never fail on the spot: when memory runs out the buffer is
 * marked failed and later writes are dropped, so a caller checks
 * pb_failed() once after a whole message.
 */
#ifndef PBWRITE_H
#define PBWRITE_H

#include <stddef.h>
#include <stdint.h>

enum pb_wire {
	PB_VARINT = 0,
	PB_I64 = 1,
	PB_LEN = 2,
};

struct pb {
	uint8_t *data;
	size_t len, cap;
	int failed;		/* out of memory: the bytes are incomplete */
};

/* An open nested message: where its length goes and how many bytes
 * were kept for it. */
struct pb_mark {
	size_t at;
	int width;
};

/* Bytes a varint of v takes (1 to 10). */
int pb_varint_size(uint64_t v);

/* Put v as a varint at p (pb_varint_size(v) bytes); returns the end.
 * Inline, as the writes below: an export makes hundreds of millions. */
static inline uint8_t *pb_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Grow b for n more bytes (pb_reserve's slow way). */
int pb_grow(struct pb *b, size_t n);

/* Room for n more bytes; 0, or -1 (and failed set). */
static inline int pb_reserve(struct pb *b, size_t n)
{
	if (!b->failed && n <= b->cap - b->len)
		return 0;
	return pb_grow(b, n);
}
void pb_reset(struct pb *b);	/* empty, memory kept, failed cleared */
void pb_free(struct pb *b);
int pb_failed(const struct pb *b);

void pb_raw(struct pb *b, const void *p, size_t n);

static inline void pb_varint(struct pb *b, uint64_t v)
{
	if (pb_reserve(b, 10))
		return;
	b->len = (size_t)(pb_put_varint(b->data + b->len, v) - b->data);
}

static inline void pb_tag(struct pb *b, uint32_t field, enum pb_wire wire)
{
	pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

/* Scalar fields.  pb_int writes a negative value as the ten-byte two's
 * complement varint, which int32 and int64 fields both read right;
 * pb_sint is zigzag (sint32/sint64). */
static inline void pb_uint(struct pb *b, uint32_t field, uint64_t v)
{
	uint8_t *p;

	if (pb_reserve(b, 15))
		return;
	p = pb_put_varint(b->data + b->len, (uint64_t)field << 3 | PB_VARINT);
	b->len = (size_t)(pb_put_varint(p, v) - b->data);
}

static inline void pb_int(struct pb *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}
void pb_sint(struct pb *b, uint32_t field, int64_t v);
void pb_double(struct pb *b, uint32_t field, double v);
/* Length-delimited: bytes, strings (n bytes of s, no NUL). */
void pb_bytes(struct pb *b, uint32_t field, const void *p, size_t n);
void pb_string(struct pb *b, uint32_t field, const char *s);

/*
 * A nested message: pb_open writes the tag and keeps width bytes (1 to
 * 5) for the length, pb_close puts it there: padded when it is shorter
 * (a varint may carry continuation bytes of zeros, which every reader
 * accepts), the contents moved along when it is longer.  Width 1 suits
 * small messages, 4 big ones whose length is unknown.
 */
struct pb_mark pb_open(struct pb *b, uint32_t field, int width);
void pb_close(struct pb *b, struct pb_mark m);

#endif
