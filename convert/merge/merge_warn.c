/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_warn.c - notes for the user, shared by every file of the merge
 * engine; it calls none of them.
 */
#include <stdarg.h>
#include "convert/merge/merge_internal.h"

void merge_warn(struct merge_ctx *m, const char *fmt, ...)
{
	struct tdat_error e;	/* one printable line, as errors are */
	va_list ap;

	if (!m->o->warn)
		return;
	va_start(ap, fmt);
	tdat_verrorf(&e, fmt, ap);
	va_end(ap);
	m->o->warn(m->o->warn_ctx, e.msg);
}
