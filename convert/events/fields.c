/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.c - where a format field's bytes lie in a record and what they
 * are: the rules --json and the exports (Parquet, Perfetto) share,
 * so that all show every field alike.
 */
#include <string.h>
#include "convert/events/events.h"
#include "libfmt/bytes.h"

int field_is_raw_marker(const struct tep_format_field *f)
{
	const struct tep_event *ev = f->event;

	return ev && ev->system && ev->name && !strcmp(ev->system, "ftrace") &&
	       !strcmp(ev->name, "raw_data") && !strcmp(f->name, "buf");
}

int field_is_text(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) && f->type &&
	       strstr(f->type, "char") && !strstr(f->type, "unsigned") &&
	       !field_is_raw_marker(f);
}

/*
 * ftrace's kernel_stack and user_stack declare caller[8] and record as
 * many frames as the stack had: the record's length, not the array's,
 * bounds it, as trace-cmd prints them (FORMAT.md 11.4).
 */
static int is_stack_frames(const struct tep_format_field *f)
{
	const struct tep_event *ev = f->event;

	return ev && ev->system && ev->name && !strcmp(ev->system, "ftrace") &&
	       (!strcmp(ev->name, "kernel_stack") ||
		!strcmp(ev->name, "user_stack")) &&
	       !strcmp(f->name, "caller") && (f->flags & TEP_FIELD_IS_ARRAY) &&
	       !(f->flags & TEP_FIELD_IS_DYNAMIC) && !f->next;
}

/* Such a field: the whole elements to the record's end. */
static int stack_frames(const struct tep_format_field *f, size_t size,
			size_t *start, size_t *len)
{
	size_t es = f->elementsize > 0 ? (size_t)f->elementsize : 1;

	*start = (size_t)f->offset;
	*len = (size - *start) / es * es;
	return 0;
}

int field_span(struct tep_handle *tep, const struct tep_format_field *f,
		      const uint8_t *data, size_t size, size_t *start,
		      size_t *len)
{
	size_t off = (size_t)f->offset, fsz = (size_t)f->size;
	uint64_t w;

	if (f->offset < 0 || f->size < 0 || off > size)
		return -1;
	if (is_stack_frames(f))
		return stack_frames(f, size, start, len);
	if (fsz > size - off)
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
size_t utf8_len(const uint8_t *p, size_t n)
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

static int int_size(int n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* An array whose length each record says (dynamic, or flexible): numbers
 * of a size that fits, else bytes. */
static void variable_kind(const struct tep_format_field *f,
			  struct field_kind *k)
{
	int es = f->elementsize;

	if (int_size(es) && (es > 1 || k->is_signed)) {
		k->read = FIELD_LIST;
		k->es = es;
	} else {
		k->read = FIELD_BYTES;
	}
}

void field_kind(const struct tep_format_field *f,
		       struct field_kind *k)
{
	int size = f->size, es = f->elementsize;

	memset(k, 0, sizeof(*k));
	k->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) &&
		       !field_is_raw_marker(f);
	k->size = size;
	k->fixed = !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
		   !(size == 0 && (f->flags & TEP_FIELD_IS_ARRAY)) &&
		   !is_stack_frames(f);
	if (field_is_text(f)) {
		k->read = FIELD_TEXT;
	} else if (!k->fixed) {
		variable_kind(f, k);
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		if (!int_size(es) || size % es) {
			es = 1;
			k->is_signed = 0;
		}
		k->read = FIELD_LIST;
		k->es = es;
	} else if (int_size(size)) {
		k->read = FIELD_INT;
		k->is_signed = k->is_signed && !(f->flags & TEP_FIELD_IS_POINTER);
	} else {
		k->read = FIELD_BYTES;
	}
}

/* Byte c (>= 0x80, not valid UTF-8 where it stands) as U+00XX. */
static int add_latin1(struct tdat_bytes *out, uint8_t c)
{
	uint8_t u[2] = { (uint8_t)(0xc0 | c >> 6), (uint8_t)(0x80 | (c & 0x3f)) };

	return tdat_bytes_add(out, u, 2);
}

int utf8_add(struct tdat_bytes *out, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0, run = 0, len;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		len = utf8_len(p + i, n - i);
		if (len) {
			i += len;
			continue;
		}
		if (tdat_bytes_add(out, s + run, i - run) ||
		    add_latin1(out, p[i]))
			return -1;
		run = ++i;
	}
	return tdat_bytes_add(out, s + run, i - run);
}
