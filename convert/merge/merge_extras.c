/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_extras.c - the output's unknown v7 sections: those of every
 * input, identical ones once (see join_extras for why differing ones are
 * kept and not refused).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"
#include "libfmt/stored.h"

#define EXTRA_COMPRESSED 1	/* v7 section flag bit 0 */

/* x's body as m keeps it: in m's codec, or decompressed (flag cleared)
 * when f's codec is another. */
static int extra_body(const struct tdat_file *m, const struct tdat_file *f,
		      const struct tdat_extra_section *x, uint16_t *flags,
		      struct tdat_blob *body, const struct who *w)
{
	*flags = x->flags;
	if (!(x->flags & EXTRA_COMPRESSED) || f->codec == m->codec) {
		if (blob_copy(body, &x->body))
			return tdat_fail_nooff(w->err, w->file,
					       "out of memory");
		return 0;
	}
	*flags &= (uint16_t)~EXTRA_COMPRESSED;
	return tdat_extra_decode(f, x, body, w->err);
}

/* Same id and flags, and the same bytes, or the same content once
 * decompressed (one content can be compressed in many ways).  -1: error. */
static int same_extra(const struct tdat_file *m,
		      const struct tdat_extra_section *a, uint16_t id,
		      uint16_t flags, const struct tdat_blob *body,
		      const struct who *w)
{
	struct tdat_blob da, db;
	struct tdat_extra_section b = *a;
	int r;

	if (a->id != id || a->flags != flags)
		return 0;
	if (blob_equal(&a->body, body))
		return 1;
	if (!(flags & EXTRA_COMPRESSED))
		return 0;
	b.body = *body;
	if (tdat_extra_decode(m, a, &da, w->err))
		return -1;
	if (tdat_extra_decode(m, &b, &db, w->err)) {
		free(da.data);
		return -1;
	}
	r = blob_equal(&da, &db);
	free(da.data);
	free(db.data);
	return r;
}

static int add_extra(struct tdat_file *m, const struct tdat_extra_section *x,
		     uint16_t flags, struct tdat_blob *body)
{
	struct tdat_extra_section *v;

	v = realloc(m->extra, (size_t)(m->nextra + 1) * sizeof(*v));
	if (!v)
		return -1;
	m->extra = v;
	v = &m->extra[m->nextra];
	memset(v, 0, sizeof(*v));
	if (x->description && !(v->description = strdup(x->description)))
		return -1;
	v->id = x->id;
	v->flags = flags;
	v->offset = x->offset;
	v->body = *body;
	body->data = NULL;
	m->nextra++;
	return 0;
}

/*
 * Unknown sections are opaque to merge.  Identical ones (id, flags,
 * content) are kept once; any other is added, also beside a different
 * section of the same id: merge cannot tell which of the two is right,
 * and refusing would stop merges every reader can read.  Keeping both
 * loses nothing (a reader that does not know the id skips both, as it
 * skipped one); the user is told, as a reader that knows the id may
 * expect one.
 */
int join_extras(struct tdat_file *m, const struct tdat_file *f,
		const struct who *w)
{
	struct tdat_blob body;
	uint16_t flags;
	int i, k, r, twin;

	for (i = 0; i < f->nextra; i++) {
		const struct tdat_extra_section *x = &f->extra[i];

		if (extra_body(m, f, x, &flags, &body, w))
			return -1;
		twin = -1;
		for (k = 0, r = 0; k < m->nextra && r == 0; k++) {
			r = same_extra(m, &m->extra[k], x->id, flags, &body,
				       w);
			if (m->extra[k].id == x->id)
				twin = k;
		}
		if (r) {
			free(body.data);
			if (r < 0)
				return -1;
			continue;
		}
		/* (A v6 output drops them all, and says so.) */
		if (twin >= 0 && w->mc && (w->mc->o->version ?
					   w->mc->o->version : m->version) != 6)
			merge_warn(w->mc, "%s: section %u differs from the one"
				   " %s has: both kept (a reader that knows"
				   " section %u may expect one)", w->file,
				   x->id, w->first, x->id);
		if (add_extra(m, x, flags, &body)) {
			free(body.data);
			return tdat_fail_nooff(w->err, w->file,
					       "out of memory");
		}
	}
	return 0;
}
