/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bytes.c - the growable byte buffer of bytes.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/bytes.h"
#include "libfmt/internal.h"

/* Smallest allocation of an appended-to buffer: avoids a realloc per
 * small append at the start. */
#define BYTES_MIN 256

int tdat_bytes_reserve(struct tdat_bytes *b, size_t need)
{
	uint8_t *p;

	if (need <= b->cap)
		return 0;
	p = realloc(b->data, need);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	b->data = p;
	b->cap = need;
	return 0;
}

int tdat_bytes_reserve_held(struct tdat_bytes *b, size_t need)
{
	size_t more;

	if (need <= b->cap)
		return 0;
	more = need - b->held;
	if (budget_take(more))
		return -1;
	if (tdat_bytes_reserve(b, need)) {
		budget_give(more);
		return -1;
	}
	b->held = need;
	return 0;
}

int tdat_bytes_add(struct tdat_bytes *b, const void *p, size_t n)
{
	size_t need, cap;

	if (n > SIZE_MAX - b->len)
		return -1;
	need = b->len + n;
	if (need > b->cap) {
		cap = b->cap ? b->cap : BYTES_MIN;
		/* Double while that cannot overflow; else exactly enough. */
		while (cap < need && cap <= SIZE_MAX / 2)
			cap *= 2;
		if (cap < need)
			cap = need;
		if (tdat_bytes_reserve(b, cap))
			return -1;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len = need;
	return 0;
}

void tdat_bytes_reset(struct tdat_bytes *b)
{
	b->len = 0;
}

void tdat_bytes_free(struct tdat_bytes *b)
{
	if (b->held)
		budget_give(b->held);
	free(b->data);
	b->data = NULL;
	b->len = b->cap = b->held = 0;
}
