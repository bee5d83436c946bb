/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.c - trace bytes as UTF-8 (Parquet's STRING must be) and as JSON
 * strings (meta.json), both the way report --json shows them: a byte
 * that is not part of valid UTF-8 is the character with its value.
 */
#include <string.h>
#include "convert/parquet/parquet_internal.h"
#include "convert/events/events.h"

/* Append s made UTF-8 (utf8_add: shared with the other exports). */
static int add_utf8(struct tdat_bytes *out, const char *s, size_t n)
{
	return utf8_add(out, s, n);
}

int text_utf8(struct tdat_bytes *out, const char *s, size_t n)
{
	tdat_bytes_reset(out);
	return add_utf8(out, s, n);
}

static int add_escape(struct tdat_bytes *out, uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"':
		return tdat_bytes_add(out, "\\\"", 2);
	case '\\':
		return tdat_bytes_add(out, "\\\\", 2);
	case '\n':
		return tdat_bytes_add(out, "\\n", 2);
	case '\t':
		return tdat_bytes_add(out, "\\t", 2);
	}
	return tdat_bytes_add(out, u, sizeof(u));
}

int text_json(struct tdat_bytes *out, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i, run = 0;

	if (tdat_bytes_add(out, "\"", 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] >= 0x20 && p[i] != '"' && p[i] != '\\' &&
		    p[i] != 0x7f)
			continue;
		if (add_utf8(out, s + run, i - run) || add_escape(out, p[i]))
			return -1;
		run = i + 1;
	}
	if (add_utf8(out, s + run, n - run))
		return -1;
	return tdat_bytes_add(out, "\"", 1);
}

int text_add(struct tdat_bytes *out, const char *s)
{
	return tdat_bytes_add(out, s, strlen(s));
}

void text_safe_name(char *out, size_t cap, const char *s)
{
	size_t i = 0;

	if (!s || !*s || *s == '.')
		out[i++] = '_';
	for (; s && *s && i + 1 < cap; s++)
		out[i++] = (*s >= 'a' && *s <= 'z') ||
			   (*s >= 'A' && *s <= 'Z') ||
			   (*s >= '0' && *s <= '9') || *s == '_' ||
			   *s == '-' || *s == '.' ? *s : '_';
	out[i] = 0;
}
