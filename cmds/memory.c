/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memory.c - TDAT_MEMORY: the base of libfmt's budget for decoded data
 * held at once (tracedat.h), for a user who trusts a file that decodes
 * to more than the default allows.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmds/cmds.h"
#include "libfmt/tracedat.h"

/* "512M", "2G", "65536": bytes, with a K, M, G or T suffix. */
static int parse_bytes(const char *s, uint64_t *v)
{
	unsigned long long n;
	unsigned shift = 0;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	}
	if (shift)
		end++;
	if (*end || n > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)n << shift;
	return 0;
}

int memory_from_env(void)
{
	const char *s = getenv("TDAT_MEMORY");
	uint64_t v;

	if (!s || !*s)
		return 0;
	if (parse_bytes(s, &v)) {
		fprintf(stderr, "tdat: TDAT_MEMORY: \"%s\" is not a size"
			" (such as 512M or 2G)\n", s);
		return 2;
	}
	tdat_budget_set_base(v);
	return 0;
}
