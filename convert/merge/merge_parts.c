/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_parts.c - what the files joining metadata share, below them all:
 * copies and comparisons of parts, and the line that refuses a merge.
 * It calls nothing of theirs.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"

/* ---- copies ---- */

int blob_copy(struct tdat_blob *to, const struct tdat_blob *from)
{
	to->data = NULL;
	to->len = from->len;
	if (!from->len)
		return 0;
	to->data = malloc(from->len);
	if (!to->data)
		return -1;
	memcpy(to->data, from->data, from->len);
	return 0;
}

int blob_equal(const struct tdat_blob *a, const struct tdat_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data,
						       a->len));
}

/* Append bytes to a growing blob. */
int blob_add(struct tdat_blob *b, size_t *cap, const void *p, size_t n)
{
	struct tdat_bytes t = { b->data, b->len, *cap, 0 };

	if (tdat_bytes_add(&t, p, n))
		return -1;
	b->data = t.data;
	b->len = t.len;
	*cap = t.cap;
	return 0;
}

/* ---- conflicts ---- */

/* Is part the same in m and f: known so, or compared? */
int same_part(const struct tdat_file *m, const struct tdat_file *f,
	      int part, const struct who *w)
{
	return (w->known & (1u << part)) ||
	       blob_equal(&m->meta[part], &f->meta[part]);
}

int conflict(const struct who *w, const char *what)
{
	return tdat_fail_nooff(w->err, w->file, "cannot be merged with %s: %s",
			       w->first, what);
}
