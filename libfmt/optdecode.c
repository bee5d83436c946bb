/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* optdecode.c - the values of known options (FORMAT.md section 5). */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

int tdat_opt_string(const struct tdat_file *f, uint16_t id, const char **s)
{
	const struct tdat_option *o = tdat_find_option(f, id);

	/* Text options carry their NUL; one without it is malformed. */
	if (!o || !o->size || o->data[o->size - 1] != 0)
		return 0;
	*s = (const char *)o->data;
	return 1;
}

int tdat_opt_clock(const struct tdat_file *f, char *buf, size_t cap)
{
	const struct tdat_option *o = tdat_find_option(f, TDAT_OPT_TRACECLOCK);
	const char *a, *b;

	if (!o || !o->size || !cap)
		return 0;
	a = memchr(o->data, '[', o->size);
	if (!a)
		return 0;
	b = memchr(a, ']', o->size - (size_t)(a - (const char *)o->data));
	if (!b || (size_t)(b - a - 1) >= cap)
		return 0;
	memcpy(buf, a + 1, (size_t)(b - a - 1));
	buf[b - a - 1] = 0;
	return 1;
}

int tdat_opt_number(const struct tdat_file *f, uint16_t id, long long *v)
{
	const struct tdat_option *o = tdat_find_option(f, id);
	char text[64], *end;
	size_t n;

	if (!o || !o->size)
		return 0;
	n = o->size < sizeof(text) - 1 ? o->size : sizeof(text) - 1;
	memcpy(text, o->data, n);
	text[n] = 0;
	*v = strtoll(text, &end, 0);
	return end != text;
}

int tdat_opt_u32(const struct tdat_file *f, uint16_t id, uint32_t *v)
{
	const struct tdat_option *o = tdat_find_option(f, id);

	if (!o || o->size < 4)
		return 0;
	*v = tdat_get32(f, o->data);
	return 1;
}

int tdat_opt_u64(const struct tdat_file *f, uint16_t id, uint64_t *v)
{
	const struct tdat_option *o = tdat_find_option(f, id);

	if (!o || o->size < 8)
		return 0;
	*v = tdat_get64(f, o->data);
	return 1;
}

int tdat_opt_tsc2nsec(const struct tdat_file *f, struct tdat_tsc2nsec *t)
{
	const struct tdat_option *o = tdat_find_option(f, TDAT_OPT_TSC2NSEC);

	if (!o || o->size < 16)
		return 0;
	t->mult = tdat_get32(f, o->data);
	t->shift = tdat_get32(f, o->data + 4);
	t->offset = tdat_get64(f, o->data + 8);
	return 1;
}

int tdat_cpucount_payload(int big, const void *data, uint32_t size,
			  uint32_t *n)
{
	if (size < 4)
		return 0;
	*n = tdat_load32(big, data);
	return *n <= TDAT_MAX_CPUS;
}
