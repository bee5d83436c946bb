/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ownsection.c - sections of tdat's own among a file's unknown sections:
 * what a v6 file says that no v7 section holds (v6clock.c, v6places.c,
 * v6version.c, v6shown.c).
 * Every engine carries unknown sections from input to output, so these
 * reach a later v6 output through any number of v7 files.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

/* f's section of that id, made empty (with that description) if none. */
static struct tdat_extra_section *own_get(struct tdat_file *f, uint16_t id,
					  const char *description)
{
	struct tdat_extra_section *x;
	int i;

	for (i = 0; i < f->nextra; i++)
		if (f->extra[i].id == id)
			return &f->extra[i];
	x = realloc(f->extra, (size_t)(f->nextra + 1) * sizeof(*x));
	if (!x)
		return NULL;
	f->extra = x;
	x = &f->extra[f->nextra];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->description = strdup(description);
	if (!x->description)
		return NULL;
	f->nextra++;
	return x;
}

int own_section_append(struct tdat_file *f, uint16_t id,
		       const char *description, const char *name,
		       const void *data, uint32_t len)
{
	struct tdat_extra_section *x = own_get(f, id, description);
	size_t n = strlen(name) + 1, at;
	uint8_t *p;

	if (!x)
		return -1;
	at = x->body.len;
	p = realloc(x->body.data, at + n + 4 + len);
	if (!p)
		return -1;
	memcpy(p + at, name, n);
	tdat_store32(f->big_endian, p + at + n, len);
	if (len)	/* (an empty option's data may be NULL) */
		memcpy(p + at + n + 4, data, len);
	x->body.data = p;
	x->body.len = at + n + 4 + len;
	return 0;
}

void own_section_drop(struct tdat_file *f, uint16_t id)
{
	int i;

	for (i = 0; i < f->nextra; i++) {
		if (f->extra[i].id != id)
			continue;
		free(f->extra[i].description);
		tdat_blob_free(&f->extra[i].body);
		f->nextra--;
		memmove(&f->extra[i], &f->extra[i + 1],
			(size_t)(f->nextra - i) * sizeof(f->extra[0]));
		return;
	}
}

int own_section_next(const struct tdat_file *m, const struct tdat_blob *body,
		     size_t *pos, const char **name, const uint8_t **data,
		     uint32_t *len)
{
	size_t n;

	if (*pos >= body->len)
		return 0;
	*name = (const char *)body->data + *pos;
	n = strnlen(*name, body->len - *pos);
	if (*pos + n + 5 > body->len)
		return 0;
	*len = tdat_load32(m->big_endian, body->data + *pos + n + 1);
	*pos += n + 5;
	if (*len > body->len - *pos)
		return 0;
	*data = body->data + *pos;
	*pos += *len;
	return 1;
}

/* The entries of one decoded body: 1 and a copy of the first match. */
static int find_in(const struct tdat_file *m, const struct tdat_blob *body,
		   own_match_fn match, void *ctx, struct tdat_blob *out)
{
	const uint8_t *data;
	const char *name;
	size_t pos = 0;
	uint32_t len;

	while (own_section_next(m, body, &pos, &name, &data, &len))
		if (match(ctx, name, data, len))
			return tdat_blob_dup(out, data, len) ? -1 : 1;
	return 0;
}

int own_section_find(const struct tdat_file *m, uint16_t id,
		     own_match_fn match, void *ctx, struct tdat_blob *out,
		     struct tdat_error *err)
{
	struct tdat_blob body;
	int i, r;

	out->data = NULL;
	out->len = 0;
	for (i = 0; i < m->nextra; i++) {
		if (m->extra[i].id != id)
			continue;
		if (tdat_extra_decode(m, &m->extra[i], &body, err))
			return -1;
		r = find_in(m, &body, match, ctx, out);
		tdat_blob_free(&body);
		if (r)
			return r < 0 ? tdat_fail_nooff(err, m->path,
						       "out of memory") : 1;
	}
	return 0;
}

int tdat_extra_v6_kept(const struct tdat_extra_section *x)
{
	return x->id == TDAT_SECTION_V6_CLOCKS ||
	       x->id == TDAT_SECTION_V6_PLACES ||
	       x->id == TDAT_SECTION_V6_VERSION ||
	       x->id == TDAT_SECTION_V6_TRACECLOCK;
}
