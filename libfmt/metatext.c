/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* metatext.c - the texts inside metadata parts: formats, kallsyms, ... */
#include <string.h>
#include "libfmt/internal.h"

static void meta_cursor(const struct tdat_file *f, enum tdat_meta m,
			struct cursor *c, struct tdat_error *err)
{
	cur_init(c, f->meta[m].data, f->meta[m].len, f->big_endian, f->path,
		 0, err);
}

/* A part opened lazily and not loaded reads as empty: say so instead. */
static int not_loaded(const struct tdat_file *f, enum tdat_meta m,
		      struct tdat_error *err)
{
	if (!tdat_meta_pending(f, m))
		return 0;
	return tdat_fail(err, f->path, f->priv->stored[m].offset,
			 "section %d is not decoded (opened lazily;"
			 " tdat_meta_load it first)",
			 m + TDAT_META_FIRST);
}

int tdat_meta_text(const struct tdat_file *f, enum tdat_meta m,
		   const char **text, size_t *len, struct tdat_error *err)
{
	struct cursor c;
	const uint8_t *p;
	uint64_t n = 0;
	uint32_t n32;

	*text = "";
	*len = 0;
	if (!f->priv->meta_present[m])
		return 0;
	if (not_loaded(f, m, err))
		return -1;
	meta_cursor(f, m, &c, err);
	switch (m) {
	case TDAT_META_KALLSYMS:
	case TDAT_META_PRINTK:
		if (cur_u32(&c, &n32, "text size"))
			return -1;
		n = n32;
		break;
	case TDAT_META_CMDLINES:
		if (cur_u64(&c, &n, "text size"))
			return -1;
		break;
	default:
		return tdat_fail_nooff(err, f->path, "metadata part %d is not"
				       " a text", m + TDAT_META_FIRST);
	}
	if (n > cur_left(&c))
		return tdat_fail_nooff(err, f->path, "metadata part %d: text"
				       " size %llu exceeds its %zu bytes",
				       m + TDAT_META_FIRST,
				       (unsigned long long)n, cur_left(&c));
	if (cur_bytes(&c, (size_t)n, &p, "text"))
		return -1;
	*text = (const char *)p;
	*len = (size_t)n;
	return 0;
}

int tdat_header_texts(const struct tdat_file *f, const char **page,
		      size_t *page_len, const char **event, size_t *event_len,
		      struct tdat_error *err)
{
	struct cursor c;
	const uint8_t *p;
	uint64_t n;

	if (not_loaded(f, TDAT_META_HEADERS, err))
		return -1;
	meta_cursor(f, TDAT_META_HEADERS, &c, err);
	if (cur_bytes(&c, 12, &p, "header_page keyword") ||
	    cur_u64(&c, &n, "header_page size") ||
	    cur_bytes(&c, (size_t)(n > SIZE_MAX ? SIZE_MAX : n), &p,
		      "header_page"))
		return -1;
	*page = (const char *)p;
	*page_len = (size_t)n;
	if (cur_bytes(&c, 13, &p, "header_event keyword") ||
	    cur_u64(&c, &n, "header_event size") ||
	    cur_bytes(&c, (size_t)(n > SIZE_MAX ? SIZE_MAX : n), &p,
		      "header_event"))
		return -1;
	*event = (const char *)p;
	*event_len = (size_t)n;
	return 0;
}

static int each_in_list(struct cursor *c, const char *system,
			tdat_format_fn fn, void *ctx)
{
	uint32_t n, i;
	uint64_t size;
	const uint8_t *p;
	int r;

	if (cur_u32(c, &n, "format count"))
		return -1;
	for (i = 0; i < n; i++) {
		if (cur_u64(c, &size, "format size") ||
		    cur_bytes(c, (size_t)(size > SIZE_MAX ? SIZE_MAX : size),
			      &p, "format text"))
			return -1;
		r = fn(ctx, system, (const char *)p, (size_t)size);
		if (r)
			return r;
	}
	return 0;
}

int tdat_each_format(const struct tdat_file *f, tdat_format_fn fn, void *ctx,
		     struct tdat_error *err)
{
	struct cursor c;
	uint32_t nsys, i;
	const char *sys;
	int r;

	if (not_loaded(f, TDAT_META_FTRACE, err) ||
	    not_loaded(f, TDAT_META_EVENTS, err))
		return -1;
	if (f->priv->meta_present[TDAT_META_FTRACE]) {
		meta_cursor(f, TDAT_META_FTRACE, &c, err);
		r = each_in_list(&c, "ftrace", fn, ctx);
		if (r)
			return r;
	}
	if (!f->priv->meta_present[TDAT_META_EVENTS])
		return 0;
	meta_cursor(f, TDAT_META_EVENTS, &c, err);
	if (cur_u32(&c, &nsys, "system count"))
		return -1;
	for (i = 0; i < nsys; i++) {
		if (cur_cstr(&c, &sys, "system name"))
			return -1;
		r = each_in_list(&c, sys, fn, ctx);
		if (r)
			return r;
	}
	return 0;
}
