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

/* "version": a string with no NUL in it. */
static int is_version(void *cap, const char *name, const uint8_t *text,
		      uint32_t len)
{
	return !strcmp(name, "version") && len < *(size_t *)cap &&
	       !memchr(text, 0, len);
}

int v6version_find(const struct tdat_file *m, char *buf, size_t cap,
		   struct tdat_error *err)
{
	struct tdat_blob s;
	int r = own_section_find(m, TDAT_SECTION_V6_VERSION, is_version, &cap,
				 &s, err);

	if (r > 0) {
		if (s.len)	/* (the empty string's copy may be NULL) */
			memcpy(buf, s.data, s.len);
		buf[s.len] = 0;
		tdat_blob_free(&s);
	}
	return r;
}
