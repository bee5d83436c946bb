/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v6shown.c - keeping how a file's times are shown across v6 and v7.
 * A v6 reader takes the clock that decides from the TRACECLOCK option
 * and the top buffer's clock record, a v7 reader from the option alone
 * (shownclock.c).  trace-cmd 2.x wrote an empty option and the whole
 * trace_clock list in the record ("... mono_raw [boot]\n"): copied
 * as it is, the v7 file would show in seconds what the v6 file showed as
 * raw counts.
 *
 * So where the record decides, the v6 reader keeps in a section of
 * tdat's own (TDAT_SECTION_V6_TRACECLOCK) "v6", the option as it was,
 * and "v7", the option a v7 file needs: the record's text and a NUL (the
 * trace_clock text trace-cmd 3 puts in the option).  The v7 writer
 * writes "v7", the v6 writer "v6": v6 -> v7 -> v6 gives the file back.
 * Entries: a name and a NUL, a u32 length, the bytes (file byte order).
 *
 * A v7 file made elsewhere (trace-cmd's convert of such a file) has the
 * empty option and the clock only in its BUFFER option: the v6 writer
 * then writes the record without brackets (v6shown_bare_record), which
 * names no clock to trace-cmd, so the v6 file shows times as the v7 did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

#define SHOWN_DESC "tdat: v6 TRACECLOCK option"

int v6shown_keep(struct tdat_file *f, const char *text, uint64_t len)
{
	const struct tdat_option *o = tdat_find_option(f, TDAT_OPT_TRACECLOCK);
	char shown[64], word[64] = "";
	char *v7;
	int r;

	if (!o || !tdat_shown_clock(f, shown, sizeof(shown)))
		return 0;
	if (!tdat_opt_clock(f, word, sizeof(word)))
		word[0] = 0;
	if (!strcmp(word, shown))
		return 0;
	/* The record's word decides: it names the clock in brackets. */
	v7 = malloc(len + sizeof(shown) + 3);
	if (!v7)
		return -1;
	if (memchr(text, 0, len))
		len = (uint64_t)sprintf(v7, "[%s]", shown);
	else
		memcpy(v7, text, len);
	v7[len] = 0;
	r = own_section_append(f, TDAT_SECTION_V6_TRACECLOCK, SHOWN_DESC,
			       "v6", o->data, o->size) ||
	    own_section_append(f, TDAT_SECTION_V6_TRACECLOCK, SHOWN_DESC,
			       "v7", v7, (uint32_t)len + 1);
	free(v7);
	return r ? -1 : 0;
}

static int is_named(void *which, const char *name, const uint8_t *data,
		    uint32_t len)
{
	return !strcmp(name, which);
}

int v6shown_option(const struct tdat_file *m, const char *which,
		   struct tdat_blob *out, struct tdat_error *err)
{
	return own_section_find(m, TDAT_SECTION_V6_TRACECLOCK, is_named,
				(void *)which, out, err);
}

int v6shown_bare_record(const struct tdat_file *m, const char *clock)
{
	char shown[64] = "", word[64] = "";
	int i;

	if (m->version < 7 || !clock[0] ||
	    !tdat_find_option(m, TDAT_OPT_TRACECLOCK))
		return 0;
	for (i = 0; i < m->nextra; i++)
		if (m->extra[i].id == TDAT_SECTION_V6_TRACECLOCK)
			return 0;
	if (!tdat_shown_clock(m, shown, sizeof(shown)))
		shown[0] = 0;
	if (!tdat_opt_clock(m, word, sizeof(word)))
		word[0] = 0;
	return strcmp(shown_clock_pick(word, clock), shown) != 0;
}
