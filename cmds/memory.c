/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memory.c - TDAT_MEMORY: the base of libfmt's budget for decoded data
 * held at once (tracedat.h), for a user who trusts a file that decodes
 * to more than the default allows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmds/cmds.h"
#include "cmds/outopts.h"
#include "libfmt/tracedat.h"

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
