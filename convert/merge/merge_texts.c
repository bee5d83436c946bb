/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_texts.c - the output's kallsyms, printk formats and saved
 * cmdlines: the union of the inputs' lines (cmdlines by pid, the first
 * comm winning), so that every input's addresses, formats and pids still
 * resolve; BTF and modules: the larger of the inputs' (raw files of one
 * boot that cannot be joined line by line).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"

/* A set of lines (or of keys: the text up to the first space). */
struct lineset {
	size_t cap, n;
	struct line { const char *p; size_t len; } *v;
};

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (uint8_t)*p++) * 0x100000001b3ull;
	return h;
}

static size_t line_key(const char *p, size_t len, int by_pid)
{
	const char *sp;

	if (!by_pid)
		return len;
	sp = memchr(p, ' ', len);
	return sp ? (size_t)(sp - p) : len;
}

/* 1 if present, 0 if added, -1 when out of memory. */
static int lineset_put(struct lineset *s, const char *p, size_t len)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct lineset g = { s->cap ? 2 * s->cap : 1024, 0, NULL };

		g.v = calloc(g.cap, sizeof(*g.v));
		if (!g.v)
			return -1;
		for (i = 0; i < s->cap; i++)
			if (s->v[i].p)
				lineset_put(&g, s->v[i].p, s->v[i].len);
		free(s->v);
		*s = g;
	}
	i = hash_bytes(p, len) & (s->cap - 1);
	for (; s->v[i].p; i = (i + 1) & (s->cap - 1))
		if (s->v[i].len == len && !memcmp(s->v[i].p, p, len))
			return 1;
	s->v[i].p = p;
	s->v[i].len = len;
	s->n++;
	return 0;
}

/* Call fn for each line of t (without its newline). */
static int each_line(const char *t, size_t len, int (*fn)(void *, const char *,
							  size_t), void *ctx)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - t) : len;

		if (end > i && fn(ctx, t + i, end - i) < 0)
			return -1;
		i = end + 1;
	}
	return 0;
}

struct text_join {
	struct lineset set;
	int by_pid;
	struct tdat_blob out;
	size_t cap;
	int added;
};

static int note_line(void *ctx, const char *p, size_t len)
{
	struct text_join *j = ctx;

	return lineset_put(&j->set, p, line_key(p, len, j->by_pid));
}

static int add_line(void *ctx, const char *p, size_t len)
{
	struct text_join *j = ctx;
	int r = lineset_put(&j->set, p, line_key(p, len, j->by_pid));

	if (r)
		return r < 0 ? -1 : 0;
	j->added = 1;
	return blob_add(&j->out, &j->cap, p, len) ||
	       blob_add(&j->out, &j->cap, "\n", 1) ? -1 : 0;
}

/* Part part of m becomes its text plus the lines only f has. */
int join_text(struct tdat_file *m, const struct tdat_file *f,
	      enum tdat_meta part, const struct who *w)
{
	struct text_join j;
	const char *a, *b;
	size_t alen, blen, hdr = part == TDAT_META_CMDLINES ? 8 : 4;
	int r = -1;

	if (!tdat_meta_has(f, part) || same_part(m, f, part, w))
		return 0;
	if (tdat_meta_text(m, part, &a, &alen, w->err) ||
	    tdat_meta_text(f, part, &b, &blen, w->err))
		return -1;
	memset(&j, 0, sizeof(j));
	j.by_pid = part == TDAT_META_CMDLINES;
	if (blob_add(&j.out, &j.cap, "\0\0\0\0\0\0\0\0", hdr) ||
	    blob_add(&j.out, &j.cap, a, alen))
		goto nomem;
	if (alen && a[alen - 1] != '\n' && blob_add(&j.out, &j.cap, "\n", 1))
		goto nomem;
	if (each_line(a, alen, note_line, &j) ||
	    each_line(b, blen, add_line, &j))
		goto nomem;
	r = 0;
	if (!j.added && tdat_meta_has(m, part))
		goto out;
	if (hdr == 8)
		tdat_put64(m, j.out.data, j.out.len - 8);
	else if (j.out.len - 4 > UINT32_MAX)
		goto nomem;
	else
		tdat_put32(m, j.out.data, (uint32_t)(j.out.len - 4));
	tdat_meta_set(m, part, &j.out);
	goto out;
nomem:
	r = tdat_fail_nooff(w->err, w->file, "out of memory");
out:
	free(j.set.v);
	free(j.out.data);
	return r;
}

/* BTF and modules: raw files of the boot; the larger one wins. */
int join_raw(struct tdat_file *m, const struct tdat_file *f,
	     enum tdat_meta part, const struct who *w)
{
	if (!tdat_meta_has(f, part) || (w->known & (1u << part)) ||
	    (tdat_meta_has(m, part) && m->meta[part].len >= f->meta[part].len))
		return 0;
	/* f's stored form comes along: it is f's content's. */
	return tdat_meta_copy(m, f, part, w->err);
}
