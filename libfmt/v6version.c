/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v6version.c - a v6 file's version string when it is not "6".  An
 * Android build of trace-cmd wrote an empty one ("tracing" then NUL),
 * which trace-cmd reads as version 0 and lays out as version 6, the rest
 * of the initial header one byte earlier.  The reader keeps the string
 * in a section of tdat's own (TDAT_SECTION_V6_VERSION), carried like any
 * unknown section, so that a v6 output, also one made through v7 files,
 * begins as the input did.  Its body: "version" and a NUL, a u32 length,
 * the string without its NUL (file byte order).
 */
#include <string.h>
#include "libfmt/internal.h"

#define VERSION_DESC "tdat: v6 version string"

int v6version_keep(struct tdat_file *f, const char *text)
{
	return own_section_append(f, TDAT_SECTION_V6_VERSION, VERSION_DESC,
				  "version", text, (uint32_t)strlen(text));
}

/* The string kept in body, if any: 1 with it in buf, else 0. */
static int find_in(const struct tdat_file *m, const struct tdat_blob *body,
		   char *buf, size_t cap)
{
	const uint8_t *text;
	const char *name;
	size_t pos = 0;
	uint32_t len;

	while (own_section_next(m, body, &pos, &name, &text, &len)) {
		if (strcmp(name, "version") || len >= cap ||
		    memchr(text, 0, len))
			continue;
		memcpy(buf, text, len);
		buf[len] = 0;
		return 1;
	}
	return 0;
}

int v6version_find(const struct tdat_file *m, char *buf, size_t cap,
		   struct tdat_error *err)
{
	struct tdat_blob body;
	int i, found = 0;

	for (i = 0; i < m->nextra && !found; i++) {
		if (m->extra[i].id != TDAT_SECTION_V6_VERSION)
			continue;
		if (tdat_extra_decode(m, &m->extra[i], &body, err))
			return -1;
		found = find_in(m, &body, buf, cap);
		tdat_blob_free(&body);
	}
	return found;
}
