/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stored.c - v7 metadata sections as the file stores them (one compressed
 * block each), for callers that handle many files of one recording:
 * compared without decompressing, decoded only when needed, and written
 * again as they are.  kallsyms alone decompresses to megabytes.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

/* Compared a window at a time: no copy of a whole section in memory. */
#define STORED_WINDOW (60u << 10)

static int has_stored(const struct tdat_file *f, int m)
{
	const struct tdat_stored *s = &f->priv->stored[m];

	return s->offset && (s->bytes.len || f->priv->fd >= 0);
}

const struct tdat_stored *tdat_meta_stored(const struct tdat_file *f,
					   enum tdat_meta m)
{
	const struct tdat_stored *s = &f->priv->stored[m];

	if (!tdat_meta_has(f, m) || !has_stored(f, m))
		return NULL;
	/* Tied to the content: anything put into meta[m] since unties it. */
	if (s->pending)
		return !f->meta[m].data && !f->meta[m].len ? s : NULL;
	return f->meta[m].data == s->content &&
	       f->meta[m].len == s->content_len ? s : NULL;
}

int tdat_meta_pending(const struct tdat_file *f, enum tdat_meta m)
{
	const struct tdat_stored *s = tdat_meta_stored(f, m);

	return s && s->pending;
}

int stored_read(const struct tdat_file *f, int m, uint64_t pos, void *buf,
		size_t n, struct tdat_error *err)
{
	const struct tdat_stored *s = &f->priv->stored[m];

	if (pos > s->size || n > s->size - pos)
		return tdat_fail(err, f->path, s->offset, "section %d: %zu"
				 " bytes at %llu are past its stored body",
				 TDAT_META_FIRST + m, n,
				 (unsigned long long)pos);
	if (s->bytes.len) {
		memcpy(buf, s->bytes.data + pos, n);
		return 0;
	}
	return fio_read_at(f, s->offset + SECTION_HEADER_SIZE + pos, buf, n,
			   "section body", err);
}

/* The stored body in memory: s->bytes, or read into *tmp. */
static const uint8_t *stored_bytes(const struct tdat_file *f, int m,
				   struct tdat_blob *tmp,
				   struct tdat_error *err)
{
	const struct tdat_stored *s = &f->priv->stored[m];

	tmp->data = NULL;
	tmp->len = 0;
	if (s->bytes.len)
		return s->bytes.data;
	if (fio_read_blob(f, s->offset + SECTION_HEADER_SIZE, s->size, tmp,
			  "section body", err))
		return NULL;
	return tmp->data;
}

int tdat_meta_decode(const struct tdat_file *f, enum tdat_meta m,
		     struct tdat_blob *out, struct tdat_error *err)
{
	const struct tdat_stored *s = &f->priv->stored[m];
	struct tdat_blob tmp;
	const uint8_t *p;
	int r;

	out->data = NULL;
	out->len = 0;
	if (!tdat_meta_pending(f, m)) {
		if (tdat_blob_dup(out, f->meta[m].data, f->meta[m].len))
			return tdat_fail_nooff(err, f->path, "out of memory");
		return 0;
	}
	p = stored_bytes(f, m, &tmp, err);
	if (!p)
		return -1;
	r = block_decode(f, p, s->size, s->offset + SECTION_HEADER_SIZE, out,
			 err) ||
	    meta_check_v7(f, m, out, s->offset, 1, err);
	tdat_blob_free(&tmp);
	if (r)
		tdat_blob_free(out);
	return r ? -1 : 0;
}

int tdat_meta_load(struct tdat_file *f, enum tdat_meta m,
		   struct tdat_error *err)
{
	struct tdat_stored *s = &f->priv->stored[m];
	struct tdat_blob b;

	if (!tdat_meta_pending(f, m))
		return 0;
	if (tdat_meta_decode(f, m, &b, err))
		return -1;
	if (file_hold_meta(f, b.len, s->offset, err)) {
		tdat_blob_free(&b);
		return -1;
	}
	f->meta[m] = b;
	s->pending = 0;
	s->content = b.data;
	s->content_len = b.len;
	return 0;
}

/* A text part's framing is its leading size field: checked from the
 * first decoded bytes, as meta_check_v7 words it. */
static int check_text_head(const struct tdat_file *f, int m,
			   const uint8_t *head, uint32_t u, uint64_t off,
			   struct tdat_error *err)
{
	size_t w = m == TDAT_META_CMDLINES ? 8 : 4, bad;
	const char *why = m == TDAT_META_KALLSYMS ? "kallsyms" :
			  m == TDAT_META_PRINTK ? "printk formats" :
						  "saved cmdlines";
	uint64_t n;

	if (u < w) {
		bad = 0;
	} else {
		n = w == 8 ? tdat_get64(f, head) : tdat_get32(f, head);
		if (n == u - w)
			return 0;
		bad = n > u - w ? w : w + (size_t)n;
		if (n < u - w)
			why = "bytes after the last field";
	}
	return tdat_fail(err, f->path, off, "section %d: %s: size field at"
			 " byte %zu of the decompressed body runs past its end"
			 " (%u bytes)", TDAT_META_FIRST + m, why, bad, u);
}

int tdat_meta_check(const struct tdat_file *f, enum tdat_meta m,
		    struct tdat_error *err)
{
	const struct tdat_stored *s = &f->priv->stored[m];
	struct tdat_blob tmp;
	const uint8_t *p;
	uint8_t head[8];
	uint32_t u;
	int r;

	if (!tdat_meta_pending(f, m))
		return 0;
	if (m != TDAT_META_KALLSYMS && m != TDAT_META_PRINTK &&
	    m != TDAT_META_CMDLINES && m < TDAT_META_V6_COUNT) {
		/* Structured (and small): framing needs all of it. */
		r = tdat_meta_decode(f, m, &tmp, err);
		tdat_blob_free(&tmp);
		return r;
	}
	p = stored_bytes(f, m, &tmp, err);
	if (!p)
		return -1;
	r = block_verify(f, p, s->size, s->offset + SECTION_HEADER_SIZE,
			 head, sizeof(head), &u, err);
	tdat_blob_free(&tmp);
	if (r || m >= TDAT_META_V6_COUNT)
		return r;
	return check_text_head(f, m, head, u, s->offset, err);
}

/* Equal bytes, a window at a time from wherever each one is. */
static int same_bytes(const struct tdat_file *a, const struct tdat_file *b,
		      int m, struct tdat_error *err)
{
	const struct tdat_stored *sa = &a->priv->stored[m];
	const struct tdat_stored *sb = &b->priv->stored[m];
	uint8_t *wa, *wb;
	uint64_t pos;
	int r = 1;

	if (sa->bytes.len && sb->bytes.len)
		return !memcmp(sa->bytes.data, sb->bytes.data, sa->size);
	wa = malloc(2 * (size_t)STORED_WINDOW);
	if (!wa)
		return tdat_fail_nooff(err, b->path, "out of memory");
	wb = wa + STORED_WINDOW;
	for (pos = 0; r == 1 && pos < sa->size; pos += STORED_WINDOW) {
		size_t n = sa->size - pos < STORED_WINDOW ?
			   (size_t)(sa->size - pos) : STORED_WINDOW;

		if (stored_read(a, m, pos, wa, n, err) ||
		    stored_read(b, m, pos, wb, n, err))
			r = -1;
		else if (memcmp(wa, wb, n))
			r = 0;
	}
	free(wa);
	return r;
}

int tdat_meta_same_stored(const struct tdat_file *a, const struct tdat_file *b,
			  enum tdat_meta m, struct tdat_error *err)
{
	const struct tdat_stored *sa = tdat_meta_stored(a, m);
	const struct tdat_stored *sb = tdat_meta_stored(b, m);

	/* One codec decodes one block one way: equal bytes, equal content. */
	if (!sa || !sb || sa->codec != sb->codec ||
	    sa->big_endian != sb->big_endian || sa->size != sb->size)
		return 0;
	return same_bytes(a, b, m, err);
}

void tdat_meta_drop_stored(struct tdat_file *f, enum tdat_meta m)
{
	tdat_blob_free(&f->priv->stored[m].bytes);
	memset(&f->priv->stored[m], 0, sizeof(f->priv->stored[m]));
}

void tdat_meta_set(struct tdat_file *f, enum tdat_meta m,
		   struct tdat_blob *content)
{
	tdat_meta_drop_stored(f, m);
	free(f->meta[m].data);
	f->meta[m] = *content;
	f->priv->meta_present[m] = 1;
	content->data = NULL;
	content->len = 0;
}

void tdat_meta_drop(struct tdat_file *f, enum tdat_meta m)
{
	tdat_meta_drop_stored(f, m);
	tdat_blob_free(&f->meta[m]);
	f->priv->meta_present[m] = 0;
}

int tdat_meta_copy(struct tdat_file *to, const struct tdat_file *from,
		   enum tdat_meta m, struct tdat_error *err)
{
	const struct tdat_stored *s = tdat_meta_stored(from, m);
	struct tdat_stored *t = &to->priv->stored[m];
	struct tdat_blob tmp;
	const uint8_t *p;

	tdat_meta_drop_stored(to, m);
	tdat_blob_free(&to->meta[m]);
	to->priv->meta_present[m] = from->priv->meta_present[m];
	if (!from->priv->meta_present[m])
		return 0;
	if (tdat_blob_dup(&to->meta[m], from->meta[m].data, from->meta[m].len))
		return tdat_fail_nooff(err, from->path, "out of memory");
	if (!s)
		return 0;
	*t = *s;
	memset(&t->bytes, 0, sizeof(t->bytes));
	p = stored_bytes(from, m, &tmp, err);
	if (!p) {
		memset(t, 0, sizeof(*t));
		return -1;
	}
	if (tmp.data) {
		t->bytes = tmp;
	} else if (tdat_blob_dup(&t->bytes, p, s->size)) {
		memset(t, 0, sizeof(*t));
		return tdat_fail_nooff(err, from->path, "out of memory");
	}
	t->content = to->meta[m].data;
	t->content_len = to->meta[m].len;
	return 0;
}

int tdat_extra_decode(const struct tdat_file *f,
		      const struct tdat_extra_section *x, struct tdat_blob *out,
		      struct tdat_error *err)
{
	out->data = NULL;
	out->len = 0;
	if (!(x->flags & SECTION_COMPRESSED)) {
		if (tdat_blob_dup(out, x->body.data, x->body.len))
			return tdat_fail_nooff(err, f->path, "out of memory");
		return 0;
	}
	if (f->codec == TDAT_CODEC_NONE)
		return tdat_fail(err, f->path, x->offset, "section %u is"
				 " flagged compressed in a file without"
				 " compression", x->id);
	return block_decode(f, x->body.data, x->body.len,
			    x->offset + SECTION_HEADER_SIZE, out, err);
}
