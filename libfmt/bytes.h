/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bytes.h - one growable byte buffer for libfmt and the engines.
 *
 * A zeroed struct is an empty buffer.  Growth is checked for size_t
 * overflow; every function that allocates returns -1 when it cannot and
 * leaves the buffer as it was, so callers can free it either way.
 */
#ifndef TDAT_BYTES_H
#define TDAT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tdat_bytes {
	uint8_t *data;		/* owned; NULL until something is added */
	size_t len, cap;	/* bytes used, bytes allocated */
	size_t held;		/* of cap, charged to the budget (budget.c) */
};

/* Room for at least need bytes in all (not need more): for scratch
 * buffers that are refilled whole.  len is unchanged. */
int tdat_bytes_reserve(struct tdat_bytes *b, size_t need);
/* The same for data whose size a file claims (decoded chunks, pages):
 * the memory counts against the process's budget until freed.  -1 with
 * errno E2BIG when it would pass the budget, ENOMEM when malloc fails. */
int tdat_bytes_reserve_held(struct tdat_bytes *b, size_t need);
/* Append n bytes of p (p may be NULL when n is 0), growing by doubling. */
int tdat_bytes_add(struct tdat_bytes *b, const void *p, size_t n);
/* Empty it, keeping the memory for reuse. */
void tdat_bytes_reset(struct tdat_bytes *b);
/* Free the memory; the struct is an empty buffer again. */
void tdat_bytes_free(struct tdat_bytes *b);

/*
 * memcpy for the short pieces that text is made of (a name, a number, a
 * separator): a call to the library's memcpy costs more than the copy,
 * so up to 16 bytes go as two fixed-size moves that may overlap.
 */
static inline void tdat_copy_short(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uint64_t a8, b8;
	uint32_t a4, b4;

	if (n >= 8 && n <= 16) {
		memcpy(&a8, s, 8);
		memcpy(&b8, s + n - 8, 8);
		memcpy(d, &a8, 8);
		memcpy(d + n - 8, &b8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(&a4, s, 4);
		memcpy(&b4, s + n - 4, 4);
		memcpy(d, &a4, 4);
		memcpy(d + n - 4, &b4, 4);
	} else if (n && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else if (n) {
		memcpy(d, s, n);
	}
}

#endif
