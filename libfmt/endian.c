/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* endian.c - file byte order: stores and the file-handle forms (the
 * loads are inline in tracedat.h: every event field goes through them). */
#include <string.h>
#include "libfmt/internal.h"

int tdat_host_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t first;

	memcpy(&first, &one, 1);
	return first == 0;
}

void tdat_store16(int big, void *p, uint16_t v)
{
	uint8_t *b = p;

	b[big ? 0 : 1] = (uint8_t)(v >> 8);
	b[big ? 1 : 0] = (uint8_t)v;
}

void tdat_store32(int big, void *p, uint32_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 0; i < 4; i++)
		b[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

void tdat_store64(int big, void *p, uint64_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 0; i < 8; i++)
		b[big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

void tdat_store_n(int big, void *p, int n, uint64_t v)
{
	switch (n) {
	case 1:
		*(uint8_t *)p = (uint8_t)v;
		break;
	case 2:
		tdat_store16(big, p, (uint16_t)v);
		break;
	case 4:
		tdat_store32(big, p, (uint32_t)v);
		break;
	default:
		tdat_store64(big, p, v);
	}
}

void tdat_put16(const struct tdat_file *f, void *p, uint16_t v)
{
	tdat_store16(f->big_endian, p, v);
}

void tdat_put32(const struct tdat_file *f, void *p, uint32_t v)
{
	tdat_store32(f->big_endian, p, v);
}

void tdat_put64(const struct tdat_file *f, void *p, uint64_t v)
{
	tdat_store64(f->big_endian, p, v);
}
