/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* meta.c - framing of the metadata parts: walking the v6 parts in the file,
 * checking a v7 part in memory; and what header_page says. */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

/* A forward reader over a file region, for walking size-prefixed parts. */
struct walker {
	const struct tdat_file *f;
	uint64_t pos;
	struct tdat_error *err;
};

static int walk_u32(struct walker *w, uint32_t *v, const char *what)
{
	uint8_t b[4];

	if (fio_read_at(w->f, w->pos, b, 4, what, w->err))
		return -1;
	*v = tdat_get32(w->f, b);
	w->pos += 4;
	return 0;
}

static int walk_u64(struct walker *w, uint64_t *v, const char *what)
{
	uint8_t b[8];

	if (fio_read_at(w->f, w->pos, b, 8, what, w->err))
		return -1;
	*v = tdat_get64(w->f, b);
	w->pos += 8;
	return 0;
}

/* Skip n bytes that must lie inside the file. */
static int walk_skip(struct walker *w, uint64_t n, const char *what)
{
	if (w->pos > w->f->file_size || n > w->f->file_size - w->pos)
		return tdat_fail(w->err, w->f->path, w->pos,
				 "%s: size %llu runs past the end of the file"
				 " (%llu bytes)", what, (unsigned long long)n,
				 (unsigned long long)w->f->file_size);
	w->pos += n;
	return 0;
}

static int walk_keyword(struct walker *w, const char *kw, size_t n)
{
	char b[16];

	if (fio_read_at(w->f, w->pos, b, n, kw, w->err))
		return -1;
	if (memcmp(b, kw, n))
		return tdat_fail(w->err, w->f->path, w->pos,
				 "expected the keyword \"%s\"", kw);
	w->pos += n;
	return 0;
}

/* A NUL-ended name, however long: v7's sections bound theirs only by the
 * section, and a v6 file written from one must read back. */
static int walk_cstr(struct walker *w, const char *what)
{
	char b[4096];
	uint64_t at = w->pos, left;
	size_t n;
	char *nul;

	for (;;) {
		left = w->f->file_size - at;
		n = left < sizeof(b) ? (size_t)left : sizeof(b);
		if (!n)
			return tdat_fail(w->err, w->f->path, w->pos,
					 "%s: name is not terminated before"
					 " the end of the file", what);
		if (fio_read_at(w->f, at, b, n, what, w->err))
			return -1;
		nul = memchr(b, 0, n);
		if (nul)
			break;
		at += n;
	}
	w->pos = at + (uint64_t)(nul - b) + 1;
	return 0;
}

/* u64-size-prefixed texts, count of them given by a u32. */
static int walk_formats(struct walker *w, const char *what)
{
	uint32_t n, i;
	uint64_t size;

	if (walk_u32(w, &n, what))
		return -1;
	for (i = 0; i < n; i++) {
		if (walk_u64(w, &size, what) || walk_skip(w, size, what))
			return -1;
	}
	return 0;
}

static int walk_part(struct walker *w, int part)
{
	uint64_t n;
	uint32_t n32, nsys, i;

	switch (part) {
	case TDAT_META_HEADERS:
		if (walk_keyword(w, "header_page", 12) ||
		    walk_u64(w, &n, "header_page size") ||
		    walk_skip(w, n, "header_page") ||
		    walk_keyword(w, "header_event", 13) ||
		    walk_u64(w, &n, "header_event size"))
			return -1;
		return walk_skip(w, n, "header_event");
	case TDAT_META_FTRACE:
		return walk_formats(w, "ftrace formats");
	case TDAT_META_EVENTS:
		if (walk_u32(w, &nsys, "event systems"))
			return -1;
		for (i = 0; i < nsys; i++)
			if (walk_cstr(w, "event system") ||
			    walk_formats(w, "event formats"))
				return -1;
		return 0;
	case TDAT_META_KALLSYMS:
		if (walk_u32(w, &n32, "kallsyms size"))
			return -1;
		return walk_skip(w, n32, "kallsyms");
	case TDAT_META_PRINTK:
		if (walk_u32(w, &n32, "printk size"))
			return -1;
		return walk_skip(w, n32, "printk formats");
	case TDAT_META_CMDLINES:
		if (walk_u64(w, &n, "cmdlines size"))
			return -1;
		return walk_skip(w, n, "saved cmdlines");
	}
	return -1;
}

int meta_read_v6_parts(struct tdat_file *f, uint64_t *pos,
		       struct tdat_error *err)
{
	struct walker w = { f, *pos, err };
	int part;

	for (part = 0; part < TDAT_META_V6_COUNT; part++) {
		uint64_t start = w.pos;

		if (walk_part(&w, part) ||
		    fio_read_blob(f, start, w.pos - start, &f->meta[part],
				  "metadata", err))
			return -1;
		f->priv->meta_present[part] = 1;
	}
	*pos = w.pos;
	return 0;
}

/* Value of "NAME:" after the field declaration "FIELD;" in header_page. */
static long header_page_value(const char *text, size_t len, const char *field,
			      const char *name)
{
	char *copy = malloc(len + 1);
	char *p, *q;
	long v = -1;

	if (!copy)
		return -1;
	memcpy(copy, text, len);
	copy[len] = 0;
	p = strstr(copy, field);
	if (p) {
		char *eol = strchr(p, '\n');

		if (eol)
			*eol = 0;
		q = strstr(p, name);
		if (q)
			v = strtol(q + strlen(name), NULL, 10);
	}
	free(copy);
	return v;
}

int meta_parse_header_page(struct tdat_file *f, uint64_t where,
			   struct tdat_error *err)
{
	const struct tdat_blob *h = &f->meta[TDAT_META_HEADERS];
	struct cursor c;
	uint64_t n;
	const uint8_t *text;
	long commit, data, data_size;

	f->commit_size = f->long_size == 4 ? 4 : 8;
	f->page_header_size = 8 + f->commit_size;
	if (!f->priv->meta_present[TDAT_META_HEADERS])
		return tdat_fail(err, f->path, where, "no header_page section"
				 " (no HEADER_INFO option)");
	cur_init(&c, h->data, h->len, f->big_endian, f->path, where, err);
	if (cur_bytes(&c, 12, &text, "header_page keyword") ||
	    cur_u64(&c, &n, "header_page size") ||
	    cur_bytes(&c, (size_t)n, &text, "header_page text"))
		return -1;
	if (n == 0)		/* pre-2.6.31 kernel: the long-size byte rules */
		return 0;
	commit = header_page_value((const char *)text, (size_t)n, "commit;",
				   "size:");
	data = header_page_value((const char *)text, (size_t)n, "data;",
				 "offset:");
	data_size = header_page_value((const char *)text, (size_t)n, "data;",
				      "size:");
	if (commit != 4 && commit != 8)
		return tdat_fail(err, f->path, where, "header_page: commit size"
				 " %ld is not 4 or 8", commit);
	f->commit_size = (int)commit;
	f->page_header_size = 8 + (int)commit;
	if (data > 0 && data < 64)
		f->page_header_size = (int)data;
	/* Pages smaller than the kernel's sub-buffer cannot be walked. */
	if (data > 0 && data_size > 0 &&
	    (uint64_t)data + (uint64_t)data_size > f->page_size)
		return tdat_fail(err, f->path, where, "page size %u is smaller"
				 " than header_page's sub-buffer (%ld + %ld"
				 " bytes)", f->page_size, data, data_size);
	return 0;
}

/* ---- v7 metadata parts: the same framing, checked in memory ---- */

/* A size field of width 4 or 8 bytes, then that many bytes. */
static int check_sized(struct cursor *c, int width, const char *what)
{
	uint32_t n32;
	uint64_t n;

	if (width == 4) {
		if (cur_u32(c, &n32, what))
			return -1;
		n = n32;
	} else if (cur_u64(c, &n, what)) {
		return -1;
	}
	return cur_skip(c, n, what);
}

/* The keyword kw (n bytes, its NUL included), as the v6 walk and
 * trace-cmd want it: a copy to v6 would not read otherwise. */
static int check_keyword(struct cursor *c, const char *kw, size_t n,
			 const char *why)
{
	const uint8_t *p;

	if (cur_bytes(c, n, &p, why))
		return -1;
	if (memcmp(p, kw, n)) {
		c->pos -= n;
		c->failed = why;
		return -1;
	}
	return 0;
}

/* u64-size-prefixed texts, count of them given by a u32. */
static int check_formats(struct cursor *c, const char *what)
{
	uint32_t n, i;

	if (cur_u32(c, &n, what))
		return -1;
	for (i = 0; i < n; i++)
		if (check_sized(c, 8, what))
			return -1;
	return 0;
}

/* The framing of one part: its size fields against its length. */
static int check_part(struct cursor *c, int part)
{
	const char *name;
	uint32_t nsys, i;

	switch (part) {
	case TDAT_META_HEADERS:
		return check_keyword(c, "header_page", 12, META_KEYWORD_PAGE) ||
		       check_sized(c, 8, "header_page") ||
		       check_keyword(c, "header_event", 13,
				     META_KEYWORD_EVENT) ||
		       check_sized(c, 8, "header_event") ? -1 : 0;
	case TDAT_META_FTRACE:
		return check_formats(c, "ftrace formats");
	case TDAT_META_EVENTS:
		if (cur_u32(c, &nsys, "event systems"))
			return -1;
		for (i = 0; i < nsys; i++)
			if (cur_cstr(c, &name, "event system name") ||
			    check_formats(c, "event formats"))
				return -1;
		return 0;
	case TDAT_META_KALLSYMS:
		return check_sized(c, 4, "kallsyms");
	case TDAT_META_PRINTK:
		return check_sized(c, 4, "printk formats");
	case TDAT_META_CMDLINES:
		return check_sized(c, 8, "saved cmdlines");
	}
	return 0;
}

int meta_check_part(const struct tdat_file *f, int part, size_t *bad,
		    const char **why)
{
	return meta_check_blob(f, part, &f->meta[part], bad, why);
}

int meta_check_blob(const struct tdat_file *f, int part,
		    const struct tdat_blob *b, size_t *bad, const char **why)
{
	struct cursor c;

	if (part >= TDAT_META_V6_COUNT)
		return 0;	/* raw bytes */
	/* No tdat_error: the caller words the error, knowing the section. */
	cur_init(&c, b->data, b->len, f->big_endian, f->path, 0, NULL);
	if (check_part(&c, part) == 0 && cur_left(&c) == 0)
		return 0;
	*bad = c.pos;
	*why = c.failed ? c.failed : "bytes after the last field";
	return -1;
}
