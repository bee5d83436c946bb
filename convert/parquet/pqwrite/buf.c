/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buf.c - the growing byte buffer every part of the writer appends to. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

/* First allocation: small, since hundreds of writers may each hold a
 * few buffers that stay nearly empty. */
#define PQ_BUF_MIN 64

int pq_buf_grow(struct pq_buf *b, size_t n)
{
	size_t need, cap;
	uint8_t *p;

	if (n > SIZE_MAX - b->len)
		return -1;
	need = b->len + n;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : PQ_BUF_MIN;
	/* Double (amortised growth) while that cannot overflow. */
	while (cap < need && cap <= SIZE_MAX / 2)
		cap *= 2;
	if (cap < need)
		cap = need;
	if (!b->len) {		/* nothing to keep: no copy of old bytes */
		free(b->p);
		b->p = NULL;
		b->cap = 0;
		p = malloc(cap);
	} else {
		p = realloc(b->p, cap);
	}
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

int pq_buf_put(struct pq_buf *b, const void *p, size_t n)
{
	if (!n)
		return 0;
	if (pq_buf_reserve(b, n))
		return -1;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

void pq_buf_free(struct pq_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
}
