/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_texts.c - the output's event formats and texts.
 *
 * Event formats: the union of the inputs'.  An event both inputs know
 * must have the same format text, and no event ID may name two events
 * (readers decode by ID): else the merge is refused.  Formats only the
 * new input has are appended, an event of a system the output has going
 * into that system, so that readers see the layout a recording of that
 * kernel would have.
 *
 * Kallsyms, printk formats and saved cmdlines: the union of the inputs'
 * lines (cmdlines by pid, the first comm winning), so that every input's
 * addresses, formats and pids still resolve.  BTF and modules: the
 * larger of the inputs' (raw files of one boot that cannot be joined
 * line by line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"

/* Append bytes to a growing blob (cap: its allocated size); 0 or -1. */
static int blob_add(struct tdat_blob *b, size_t *cap, const void *p, size_t n)
{
	struct tdat_bytes t = { b->data, b->len, *cap, 0 };

	if (tdat_bytes_add(&t, p, n))
		return -1;
	b->data = t.data;
	b->len = t.len;
	*cap = t.cap;
	return 0;
}

/* ---- kallsyms, printk formats, cmdlines: the union of the lines ---- */

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
int texts_join_lines(struct tdat_file *m, const struct tdat_file *f,
		     enum tdat_meta part, const struct who *w)
{
	struct text_join j;
	const char *a, *b;
	size_t alen, blen, hdr = part == TDAT_META_CMDLINES ? 8 : 4;
	int r = -1;

	if (!tdat_meta_has(f, part) || meta_same_part(m, f, part, w))
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
int texts_join_raw(struct tdat_file *m, const struct tdat_file *f,
		   enum tdat_meta part, const struct who *w)
{
	if (!tdat_meta_has(f, part) || (w->known & (1u << part)) ||
	    (tdat_meta_has(m, part) && m->meta[part].len >= f->meta[part].len))
		return 0;
	/* f's stored form comes along: it is f's content's. */
	return tdat_meta_copy(m, f, part, w->err);
}

/* ---- event formats: the union ---- */

struct fmt {
	const char *sys;
	size_t syslen;
	const char *name;
	size_t namelen;
	long id;		/* -1 when the text has no ID line */
	const uint8_t *rec;	/* u64 size + text, as stored */
	size_t reclen;
	int part;		/* TDAT_META_FTRACE or TDAT_META_EVENTS */
};

struct fmts {
	int n, cap;
	struct fmt *v;
	const struct tdat_file *f;	/* whose formats (parse_formats) */
};

/* The value of a "KEY: value" line of a format text. */
static const char *format_field(const char *t, size_t len, const char *key,
				size_t *vlen)
{
	size_t kl = strlen(key), i = 0;

	while (i + kl <= len) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - t) : len;

		if (end - i >= kl && !memcmp(t + i, key, kl)) {
			*vlen = end - i - kl;
			return t + i + kl;
		}
		i = end + 1;
	}
	*vlen = 0;
	return NULL;
}

static int fmts_add(struct fmts *l, const struct fmt *x)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct fmt *v = realloc(l->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *x;
	return 0;
}

/* One format text the walk gives, listed with where it is stored. */
static int add_format(void *ctx, const char *sys, const char *text,
		      size_t len)
{
	struct fmts *l = ctx;
	const struct tdat_blob *ft = &l->f->meta[TDAT_META_FTRACE];
	const char *v;
	size_t vl;
	char num[24];
	struct fmt x;

	memset(&x, 0, sizeof(x));
	x.sys = sys;
	x.syslen = strlen(sys);
	/* the walk gives the text; its u64 size is stored just before */
	x.rec = (const uint8_t *)text - 8;
	x.reclen = 8 + len;
	x.part = ft->data && x.rec >= ft->data && x.rec < ft->data + ft->len ?
		 TDAT_META_FTRACE : TDAT_META_EVENTS;
	x.name = format_field(text, len, "name: ", &x.namelen);
	if (!x.name)
		x.name = "";
	x.id = -1;
	v = format_field(text, len, "ID: ", &vl);
	if (v && vl && vl < sizeof(num)) {
		memcpy(num, v, vl);
		num[vl] = 0;
		x.id = strtol(num, NULL, 10);
	}
	return fmts_add(l, &x) ? -1 : 0;
}

/* Every format of f, ftrace part then events part: 0, or -1 when they
 * cannot be parsed. */
static int parse_formats(const struct tdat_file *f, struct fmts *l)
{
	struct tdat_error e;

	l->f = f;
	return tdat_each_format(f, add_format, l, &e) ? -1 : 0;
}

static int same_event(const struct fmt *a, const struct fmt *b)
{
	return a->syslen == b->syslen && !memcmp(a->sys, b->sys, a->syslen) &&
	       a->namelen == b->namelen &&
	       !memcmp(a->name, b->name, a->namelen);
}

/* The ftrace part again, with the new formats of f appended. */
static int rebuild_ftrace(struct tdat_file *m, const struct fmts *old,
			  const struct fmts *add)
{
	struct tdat_blob b = { 0 };
	size_t cap = 0;
	uint8_t c[4];
	uint32_t n = 0;
	int i, k;

	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++)
			n += l->v[i].part == TDAT_META_FTRACE;
	}
	tdat_put32(m, c, n);
	if (blob_add(&b, &cap, c, 4))
		goto nomem;
	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++)
			if (l->v[i].part == TDAT_META_FTRACE &&
			    blob_add(&b, &cap, l->v[i].rec, l->v[i].reclen))
				goto nomem;
	}
	tdat_meta_set(m, TDAT_META_FTRACE, &b);
	return 0;
nomem:
	free(b.data);
	return -1;
}

/* Does system (s, n) come before index i of l?  Its first index or -1. */
static int first_of_system(const struct fmts *l, int upto, const char *s,
			   size_t n)
{
	int i;

	for (i = 0; i < upto; i++)
		if (l->v[i].part == TDAT_META_EVENTS && l->v[i].syslen == n &&
		    !memcmp(l->v[i].sys, s, n))
			return i;
	return -1;
}

/* Write the events of system (s, n) found in l into b; count them. */
static int put_system(struct tdat_blob *b, size_t *cap, const struct fmts *l,
		      const char *s, size_t n, uint32_t *count)
{
	int i;

	for (i = 0; i < l->n; i++) {
		const struct fmt *x = &l->v[i];

		if (x->part != TDAT_META_EVENTS || x->syslen != n ||
		    memcmp(x->sys, s, n))
			continue;
		if (blob_add(b, cap, x->rec, x->reclen))
			return -1;
		(*count)++;
	}
	return 0;
}

/* The events part again: old systems (with new events after theirs),
 * then systems only f has. */
static int rebuild_events(struct tdat_file *m, const struct fmts *old,
			  const struct fmts *add)
{
	struct tdat_blob b = { 0 };
	size_t cap = 0, at;
	uint32_t nsys = 0, cnt;
	uint8_t c[4] = { 0 };
	int k, i;

	if (blob_add(&b, &cap, c, 4))
		goto nomem;
	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++) {
			const struct fmt *x = &l->v[i];

			if (x->part != TDAT_META_EVENTS ||
			    first_of_system(l, i, x->sys, x->syslen) >= 0 ||
			    (k && first_of_system(old, old->n, x->sys,
						  x->syslen) >= 0))
				continue;
			cnt = 0;
			if (blob_add(&b, &cap, x->sys, x->syslen) ||
			    blob_add(&b, &cap, "", 1))
				goto nomem;
			at = b.len;
			if (blob_add(&b, &cap, c, 4) ||
			    put_system(&b, &cap, old, x->sys, x->syslen, &cnt) ||
			    put_system(&b, &cap, add, x->sys, x->syslen, &cnt))
				goto nomem;
			tdat_put32(m, b.data + at, cnt);
			nsys++;
		}
	}
	tdat_put32(m, b.data, nsys);
	tdat_meta_set(m, TDAT_META_EVENTS, &b);
	return 0;
nomem:
	free(b.data);
	return -1;
}

int texts_join_formats(struct tdat_file *m, const struct tdat_file *f,
		       const struct who *w)
{
	struct fmts old = { 0 }, new = { 0 }, add = { 0 };
	char msg[300];
	int i, j, r = -1, ftrace = 0, events = 0;

	if (meta_same_part(m, f, TDAT_META_FTRACE, w) &&
	    meta_same_part(m, f, TDAT_META_EVENTS, w))
		return 0;
	if (parse_formats(m, &old) || parse_formats(f, &new)) {
		meta_conflict(w, "event formats that cannot be parsed");
		goto out;
	}
	for (i = 0; i < new.n; i++) {
		const struct fmt *x = &new.v[i];

		for (j = 0; j < old.n && !same_event(&old.v[j], x); j++)
			;
		if (j < old.n) {
			if (old.v[j].reclen == x->reclen &&
			    !memcmp(old.v[j].rec, x->rec, x->reclen))
				continue;
			snprintf(msg, sizeof(msg), "different formats of event"
				 " %.*s:%.*s", (int)x->syslen, x->sys,
				 (int)x->namelen, x->name);
			meta_conflict(w, msg);
			goto out;
		}
		for (j = 0; x->id >= 0 && j < old.n; j++) {
			if (old.v[j].id != x->id)
				continue;
			snprintf(msg, sizeof(msg), "event ID %ld is %.*s:%.*s"
				 " in one and %.*s:%.*s in the other", x->id,
				 (int)x->syslen, x->sys, (int)x->namelen,
				 x->name, (int)old.v[j].syslen, old.v[j].sys,
				 (int)old.v[j].namelen, old.v[j].name);
			meta_conflict(w, msg);
			goto out;
		}
		if (fmts_add(&add, x))
			goto nomem;
		ftrace |= x->part == TDAT_META_FTRACE;
		events |= x->part == TDAT_META_EVENTS;
	}
	r = 0;
	if (ftrace && rebuild_ftrace(m, &old, &add))
		goto nomem;
	/* old points into m's events part: rebuild it last. */
	if (events && rebuild_events(m, &old, &add))
		goto nomem;
	goto out;
nomem:
	r = tdat_fail_nooff(w->err, w->file, "out of memory");
out:
	free(old.v);
	free(new.v);
	free(add.v);
	return r;
}
