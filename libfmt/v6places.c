/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v6places.c - where a v6 file's BUFFER options stand among its other
 * options.  trace-cmd 3 writes them after all the others; trace-cmd 2.x
 * wrote each one just before its instance's CPUSTAT options.  A v6
 * reader that finds one before other options keeps every BUFFER
 * option's place (the number of other options before it) in a section
 * of tdat's own (TDAT_SECTION_V6_PLACES), so that a v6 output, also one
 * made through v7 files, lays them out as the input did.  Its body: per
 * buffer, the name and a NUL, a u32 4, a u32 place (file byte order).
 */
#include <string.h>
#include "libfmt/internal.h"

#define PLACES_DESC "tdat: v6 BUFFER option places"

int v6places_note(struct tdat_file *f, const char *name)
{
	uint8_t v[4];

	tdat_store32(f->big_endian, v, (uint32_t)f->noptions);
	return own_section_append(f, TDAT_SECTION_V6_PLACES, PLACES_DESC,
				  name, v, 4);
}

/* Every BUFFER option after all the others is what any v6 writer does:
 * nothing to keep then. */
void v6places_finish(struct tdat_file *f)
{
	const struct tdat_extra_section *x = NULL;
	const uint8_t *v;
	const char *name;
	size_t pos = 0;
	uint32_t len;
	int i;

	for (i = 0; i < f->nextra; i++)
		if (f->extra[i].id == TDAT_SECTION_V6_PLACES)
			x = &f->extra[i];
	if (!x)
		return;
	while (own_section_next(f, &x->body, &pos, &name, &v, &len))
		if (len == 4 &&
		    tdat_load32(f->big_endian, v) < (uint32_t)f->noptions)
			return;
	own_section_drop(f, TDAT_SECTION_V6_PLACES);
}

int v6places_find(const struct tdat_file *m, const char *name,
		  uint32_t *place, struct tdat_error *err)
{
	struct tdat_blob body;
	const uint8_t *v;
	const char *s;
	size_t pos;
	uint32_t len;
	int i, found = 0;

	for (i = 0; i < m->nextra && !found; i++) {
		if (m->extra[i].id != TDAT_SECTION_V6_PLACES)
			continue;
		if (tdat_extra_decode(m, &m->extra[i], &body, err))
			return -1;
		pos = 0;
		while (!found &&
		       own_section_next(m, &body, &pos, &s, &v, &len))
			if (len == 4 && !strcmp(s, name)) {
				*place = tdat_load32(m->big_endian, v);
				found = 1;
			}
		tdat_blob_free(&body);
	}
	return found;
}
