/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wholefile.c - outfile.c's outputs for a caller's own format (an
 * export): the same struct outfile behind an opaque handle.
 */
#include <stdlib.h>
#include "libfmt/internal.h"
#include "libfmt/wholefile.h"

struct tdat_wholefile {
	struct outfile o;
};

struct tdat_wholefile *tdat_wholefile_open(const char *path,
					   struct tdat_error *err)
{
	struct tdat_wholefile *w = calloc(1, sizeof(*w));

	if (!w) {
		tdat_fail_nooff(err, path, "out of memory");
		return NULL;
	}
	if (out_open(&w->o, path, 0, err)) {
		free(w);
		return NULL;
	}
	return w;
}

int tdat_wholefile_write(struct tdat_wholefile *w, const void *p, size_t n,
			 struct tdat_error *err)
{
	return out_write(&w->o, p, n, err);
}

uint64_t tdat_wholefile_size(const struct tdat_wholefile *w)
{
	return w->o.pos;
}

int tdat_wholefile_commit(struct tdat_wholefile *w, struct tdat_error *err)
{
	int r = out_commit(&w->o, err);

	free(w);
	return r;
}

void tdat_wholefile_abort(struct tdat_wholefile *w)
{
	if (!w)
		return;
	out_abort(&w->o);
	free(w);
}
