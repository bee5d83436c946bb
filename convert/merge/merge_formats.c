/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_formats.c - the output's event formats: the union of the inputs'.
 *
 * An event both inputs know must have the same format text, and no event
 * ID may name two events (readers decode by ID): else the merge is
 * refused.  Formats only the new input has are appended, an event of a
 * system the output has going into that system, so that readers see the
 * layout a recording of that kernel would have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"

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

/* One "u64 size, text" record at *pos of a part; 1 when malformed. */
static int parse_record(const struct tdat_file *f, const uint8_t *p,
			size_t len, size_t *pos, struct fmt *x)
{
	const char *t, *v;
	uint64_t n;
	size_t vl;
	char num[24];

	if (len - *pos < 8)
		return 1;
	n = tdat_get64(f, p + *pos);
	if (n > len - *pos - 8)
		return 1;
	x->rec = p + *pos;
	x->reclen = 8 + (size_t)n;
	t = (const char *)p + *pos + 8;
	*pos += x->reclen;
	x->name = format_field(t, (size_t)n, "name: ", &x->namelen);
	if (!x->name) {
		x->name = "";
		x->namelen = 0;
	}
	x->id = -1;
	v = format_field(t, (size_t)n, "ID: ", &vl);
	if (v && vl && vl < sizeof(num)) {
		memcpy(num, v, vl);
		num[vl] = 0;
		x->id = strtol(num, NULL, 10);
	}
	return 0;
}

/* Every format of f, ftrace part then events part. 1: malformed. */
static int parse_formats(const struct tdat_file *f, struct fmts *l)
{
	const struct tdat_blob *b = &f->meta[TDAT_META_FTRACE];
	struct fmt x;
	size_t pos = 4;
	uint32_t n, ns, i, j;

	if (tdat_meta_has(f, TDAT_META_FTRACE) && b->len >= 4) {
		n = tdat_get32(f, b->data);
		for (i = 0; i < n; i++) {
			memset(&x, 0, sizeof(x));
			x.sys = "ftrace";
			x.syslen = 6;
			x.part = TDAT_META_FTRACE;
			if (parse_record(f, b->data, b->len, &pos, &x) ||
			    fmts_add(l, &x))
				return 1;
		}
	}
	b = &f->meta[TDAT_META_EVENTS];
	if (!tdat_meta_has(f, TDAT_META_EVENTS) || b->len < 4)
		return 0;
	ns = tdat_get32(f, b->data);
	pos = 4;
	for (i = 0; i < ns; i++) {
		const uint8_t *nul = memchr(b->data + pos, 0, b->len - pos);
		const char *sys = (const char *)b->data + pos;

		if (!nul || b->len - (size_t)(nul - b->data) < 5)
			return 1;
		pos = (size_t)(nul - b->data) + 1;
		n = tdat_get32(f, b->data + pos);
		pos += 4;
		for (j = 0; j < n; j++) {
			memset(&x, 0, sizeof(x));
			x.sys = sys;
			x.syslen = strlen(sys);
			x.part = TDAT_META_EVENTS;
			if (parse_record(f, b->data, b->len, &pos, &x) ||
			    fmts_add(l, &x))
				return 1;
		}
	}
	return 0;
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

int join_formats(struct tdat_file *m, const struct tdat_file *f,
		 const struct who *w)
{
	struct fmts old = { 0 }, new = { 0 }, add = { 0 };
	char msg[300];
	int i, j, r = -1, ftrace = 0, events = 0;

	if (same_part(m, f, TDAT_META_FTRACE, w) &&
	    same_part(m, f, TDAT_META_EVENTS, w))
		return 0;
	if (parse_formats(m, &old) || parse_formats(f, &new)) {
		conflict(w, "event formats that cannot be parsed");
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
			conflict(w, msg);
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
			conflict(w, msg);
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
