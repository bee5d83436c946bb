/* SPDX-License-Identifier: GPL-2.0-or-later */
/* genfmt.c - print fmts of helpers over a format's fields (genfmt.h). */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/fuzz/genfmt.h"

#define MAX_FIELDS 32
#define NAME_CAP 64

struct fields {
	char name[MAX_FIELDS][NAME_CAP];
	int dynamic[MAX_FIELDS];	/* 1 __data_loc, 2 __rel_loc */
	int n, ndyn;
	unsigned rng;
};

/* The field's name on a "field:" line (up to end): into f, if any. */
static void add_field(struct fields *f, const char *line, const char *end)
{
	const char *semi = memchr(line, ';', (size_t)(end - line));
	const char *p, *start;
	size_t n;

	if (!semi || f->n == MAX_FIELDS)
		return;
	p = semi;
	while (p > line && p[-1] == ' ')
		p--;
	if (p > line && p[-1] == ']')	/* name[N] */
		while (p > line && *--p != '[')
			;
	start = p;
	while (start > line && start[-1] != ' ' && start[-1] != '\t' &&
	       start[-1] != ':')
		start--;
	n = (size_t)(p - start);
	if (!n || n >= NAME_CAP)
		return;
	memcpy(f->name[f->n], start, n);
	f->name[f->n][n] = 0;
	f->dynamic[f->n] = memmem(line, (size_t)(semi - line), "__rel_loc", 9) ?
			   2 : memmem(line, (size_t)(semi - line),
				      "__data_loc", 10) ? 1 : 0;
	f->ndyn += f->dynamic[f->n] != 0;
	f->n++;
}

static unsigned next(struct fields *f, unsigned n)
{
	f->rng = f->rng * 1103515245u + 12345u;
	return n ? (f->rng >> 16) % n : 0;
}

static const char *any(struct fields *f)
{
	return f->name[next(f, (unsigned)f->n)];
}

/* A dynamic field's name (of kind rel: 1 __data_loc, 2 __rel_loc, 0
 * any), or NULL. */
static const char *dynamic(struct fields *f, int rel)
{
	unsigned k, start = next(f, (unsigned)f->n);

	for (k = 0; k < (unsigned)f->n; k++) {
		unsigned i = (start + k) % (unsigned)f->n;

		if (f->dynamic[i] && (!rel || f->dynamic[i] == rel))
			return f->name[i];
	}
	return NULL;
}

static int put(char *out, size_t cap, size_t *n, const char *fmt,
	       const char *a, const char *b)
{
	int k = snprintf(out + *n, cap - *n, fmt, a, b);

	if (k < 0 || (size_t)k >= cap - *n)
		return -1;
	*n += (size_t)k;
	return 0;
}

/* The array argument. */
static int put_array(struct fields *f, char *out, size_t cap, size_t *n)
{
	const char *d = dynamic(f, 0);

	switch (next(f, 8)) {
	case 0:
	case 1:
		if (d)
			return put(out, cap, n, "__get_dynamic_array(%s)", d,
				   NULL);
		/* fall through */
	case 2:
	case 3:
		return put(out, cap, n, "REC->%s", any(f), NULL);
	case 4:
		d = dynamic(f, 2);
		if (d)
			return put(out, cap, n, "__get_rel_dynamic_array(%s)",
				   d, NULL);
		return put(out, cap, n, "REC->%s", any(f), NULL);
	case 5:
		return put(out, cap, n, "REC->%s + 1", any(f), NULL);
	case 6:
		return put(out, cap, n, "(u8 *)REC->%s", any(f), NULL);
	default:
		return put(out, cap, n, d ? "__get_str(%s)" : "REC->%s",
			   d ? d : any(f), NULL);
	}
}

/* A count (or element size) expression. */
static int put_count(struct fields *f, char *out, size_t cap, size_t *n)
{
	static const char *const numbers[] = { "0", "1", "3", "100000",
					       "0xffffffff", "-1" };
	const char *d = dynamic(f, 0);

	switch (next(f, 10)) {
	case 0:
	case 1:
		return put(out, cap, n, "REC->%s", any(f), NULL);
	case 2:
		return put(out, cap, n, "REC->%s * 2 + REC->%s", any(f),
			   any(f));
	case 3:
		if (d)
			return put(out, cap, n, "__get_dynamic_array_len(%s)",
				   d, NULL);
		/* fall through */
	case 4:
		if (d)
			return put(out, cap, n,
				   "__get_dynamic_array_len(%s) / 4", d, NULL);
		return put(out, cap, n, "REC->%s - REC->%s", any(f), any(f));
	case 5:
		return put(out, cap, n, "(u8)REC->%s", any(f), NULL);
	case 6:
		return put(out, cap, n, "-REC->%s", any(f), NULL);
	case 7:
		return put(out, cap, n, "REC->%s ? REC->%s : 3", any(f),
			   any(f));
	default:
		return put(out, cap, n, "%s",
			   numbers[next(f, sizeof(numbers) /
					     sizeof(numbers[0]))], NULL);
	}
}

static int put_size(struct fields *f, char *out, size_t cap, size_t *n)
{
	static const char *const sizes[] = { "1", "2", "4", "8", "3", "0",
					     "16" };

	if (next(f, 8) == 0)
		return put(out, cap, n, "REC->%s", any(f), NULL);
	return put(out, cap, n, "%s",
		   sizes[next(f, sizeof(sizes) / sizeof(sizes[0]))], NULL);
}

static int put_helper(struct fields *f, char *out, size_t cap, size_t *n)
{
	unsigned kind = next(f, 3);
	static const char *const names[] = { "__print_array(",
					     "__print_hex(",
					     "__print_hex_str(" };

	if (put(out, cap, n, "%s", names[kind], NULL) ||
	    put_array(f, out, cap, n) || put(out, cap, n, ", ", NULL, NULL) ||
	    put_count(f, out, cap, n))
		return -1;
	if (kind == 0 && (put(out, cap, n, ", ", NULL, NULL) ||
			  put_size(f, out, cap, n)))
		return -1;
	return put(out, cap, n, ")", NULL, NULL);
}

/* FNV-1a of the text, mixed with the seed. */
static unsigned hash(const char *text, size_t len, unsigned seed)
{
	unsigned h = 2166136261u ^ seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 16777619u;
	return h;
}

char *genfmt_helpers(const char *text, size_t len, unsigned seed,
		     size_t *out_len)
{
	struct fields f;
	const char *p, *nl, *end = text + len;
	const char *pf = memmem(text, len, "print fmt:", 10);
	size_t head = pf ? (size_t)(pf - text) : len, n, cap = head + 1024;
	char *out;
	int k, helpers;

	memset(&f, 0, sizeof(f));
	for (p = text; p < text + head; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		/* the event's own fields, not the common ones */
		if (memmem(p, (size_t)(nl - p), "field:", 6) &&
		    !memmem(p, (size_t)(nl - p), "common_", 7))
			add_field(&f, p, nl);
	}
	if (!f.n)
		return NULL;
	f.rng = hash(text, head, seed);
	out = malloc(cap);
	if (!out)
		return NULL;
	memcpy(out, text, head);
	n = head;
	helpers = 1 + (int)next(&f, 3);
	if (put(out, cap, &n, "print fmt: \"", NULL, NULL))
		goto fail;
	for (k = 0; k < helpers; k++)
		if (put(out, cap, &n, k ? " %%s" : "%%s", NULL, NULL))
			goto fail;
	if (put(out, cap, &n, "\"", NULL, NULL))
		goto fail;
	for (k = 0; k < helpers; k++)
		if (put(out, cap, &n, ", ", NULL, NULL) ||
		    put_helper(&f, out, cap, &n))
			goto fail;
	if (put(out, cap, &n, "\n", NULL, NULL))
		goto fail;
	*out_len = n;
	return out;
fail:
	free(out);
	return NULL;
}
