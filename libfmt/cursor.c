/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cursor.c - bounds-checked decoding of file bytes held in memory. */
#include <string.h>
#include "libfmt/internal.h"

void cur_init(struct cursor *c, const void *p, size_t len, int big,
	      const char *file, uint64_t base, struct tdat_error *err)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->big = big;
	c->file = file;
	c->base = base;
	c->err = err;
	c->failed = NULL;
}

size_t cur_left(const struct cursor *c)
{
	return c->len - c->pos;
}

uint64_t cur_offset(const struct cursor *c)
{
	return c->base + c->pos;
}

static int cur_need(struct cursor *c, uint64_t n, const char *what)
{
	if (n <= cur_left(c))
		return 0;
	c->failed = what;
	return tdat_fail(c->err, c->file, cur_offset(c),
			 "%s: needs %llu bytes, only %zu left", what,
			 (unsigned long long)n, cur_left(c));
}

int cur_u8(struct cursor *c, uint8_t *v, const char *what)
{
	if (cur_need(c, 1, what))
		return -1;
	*v = c->p[c->pos++];
	return 0;
}

int cur_u16(struct cursor *c, uint16_t *v, const char *what)
{
	if (cur_need(c, 2, what))
		return -1;
	*v = tdat_load16(c->big, c->p + c->pos);
	c->pos += 2;
	return 0;
}

int cur_u32(struct cursor *c, uint32_t *v, const char *what)
{
	if (cur_need(c, 4, what))
		return -1;
	*v = tdat_load32(c->big, c->p + c->pos);
	c->pos += 4;
	return 0;
}

int cur_u64(struct cursor *c, uint64_t *v, const char *what)
{
	if (cur_need(c, 8, what))
		return -1;
	*v = tdat_load64(c->big, c->p + c->pos);
	c->pos += 8;
	return 0;
}

int cur_bytes(struct cursor *c, size_t n, const uint8_t **out,
	      const char *what)
{
	if (cur_need(c, n, what))
		return -1;
	*out = c->p + c->pos;
	c->pos += n;
	return 0;
}

int cur_skip(struct cursor *c, uint64_t n, const char *what)
{
	if (cur_need(c, n, what))
		return -1;
	c->pos += (size_t)n;
	return 0;
}

int cur_cstr(struct cursor *c, const char **out, const char *what)
{
	const uint8_t *nul = memchr(c->p + c->pos, 0, cur_left(c));

	if (!nul) {
		c->failed = what;
		return tdat_fail(c->err, c->file, cur_offset(c),
				 "%s: string is not terminated", what);
	}
	*out = (const char *)(c->p + c->pos);
	c->pos = (size_t)(nul - c->p) + 1;
	return 0;
}
