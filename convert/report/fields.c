/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.c - where a format field's bytes lie in a record and what they
 * are: the rules --json and the exports (convert --to parquet) share,
 * so that both show every field alike.
 */
#include <string.h>
#include "convert/report/report.h"

int report_field_is_raw_marker(const struct tep_format_field *f)
{
	const struct tep_event *ev = f->event;

	return ev && ev->system && ev->name && !strcmp(ev->system, "ftrace") &&
	       !strcmp(ev->name, "raw_data") && !strcmp(f->name, "buf");
}

int report_field_is_text(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) && f->type &&
	       strstr(f->type, "char") && !strstr(f->type, "unsigned") &&
	       !report_field_is_raw_marker(f);
}

int report_field_span(struct tep_handle *tep, const struct tep_format_field *f,
		      const uint8_t *data, size_t size, size_t *start,
		      size_t *len)
{
	size_t off = (size_t)f->offset, fsz = (size_t)f->size;
	uint64_t w;

	if (f->offset < 0 || f->size < 0 || off > size || fsz > size - off)
		return -1;
	*start = off;
	*len = fsz;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (fsz != 4)
			return -1;
		w = tep_read_number(tep, data + off, 4);
		*len = (size_t)(w >> 16);
		*start = (size_t)(w & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			*start += off + fsz;
	} else if (fsz == 0 && (f->flags & TEP_FIELD_IS_ARRAY)) {
		*len = size - off;
	}
	return *start > size || *len > size - *start ? -1 : 0;
}

/* Length of the valid UTF-8 sequence starting at p (a byte >= 0x80),
 * or 0: no overlong forms, no surrogates, nothing past U+10FFFF. */
size_t report_utf8_len(const uint8_t *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0xc2)
		return 0;
	if (p[0] < 0xe0) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] < 0xf0) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] < 0xf5) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}
