/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * logline.c - one --log line read back: whether it is a whole JSON
 * object, and the fields a rerun needs from it (path, result,
 * bytes_before, mtime, reason).
 *
 * A log is appended to by tasks that may be killed: a line may be cut,
 * or be something else altogether.  Such a line is only "not a record":
 * the parser says no and the reader goes on.  It is a whole JSON parser
 * (nested values included, to a bounded depth), not a search for keys,
 * so that a cut line can never pass for a record.
 */
#include <stdint.h>
#include <string.h>
#include "convert/fleet/fleet.h"
#include "libfmt/bytes.h"

#define DEPTH_MAX 32		/* nesting a log line never needs */

struct cur {
	const char *s;
	size_t i, n;
};

static void ws(struct cur *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' ||
			       c->s[c->i] == '\r' || c->s[c->i] == '\n'))
		c->i++;
}

static int hex4(struct cur *c, uint32_t *v)
{
	int k;

	*v = 0;
	if (c->n - c->i < 4)
		return -1;
	for (k = 0; k < 4; k++) {
		char h = c->s[c->i++];

		*v <<= 4;
		if (h >= '0' && h <= '9')
			*v |= (uint32_t)(h - '0');
		else if (h >= 'a' && h <= 'f')
			*v |= (uint32_t)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			*v |= (uint32_t)(h - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* A code point as UTF-8; below 0x100 one byte, for \u00XX is how the
 * log writes a byte that is not UTF-8 (fleet_json_string). */
static int put_code(struct tdat_bytes *out, uint32_t u)
{
	uint8_t b[4];
	size_t n;

	if (u < 0x100) {
		b[0] = (uint8_t)u;
		n = 1;
	} else if (u < 0x800) {
		b[0] = (uint8_t)(0xc0 | u >> 6);
		b[1] = (uint8_t)(0x80 | (u & 0x3f));
		n = 2;
	} else if (u < 0x10000) {
		b[0] = (uint8_t)(0xe0 | u >> 12);
		b[1] = (uint8_t)(0x80 | (u >> 6 & 0x3f));
		b[2] = (uint8_t)(0x80 | (u & 0x3f));
		n = 3;
	} else {
		b[0] = (uint8_t)(0xf0 | u >> 18);
		b[1] = (uint8_t)(0x80 | (u >> 12 & 0x3f));
		b[2] = (uint8_t)(0x80 | (u >> 6 & 0x3f));
		b[3] = (uint8_t)(0x80 | (u & 0x3f));
		n = 4;
	}
	return out ? tdat_bytes_add(out, b, n) : 0;
}

/* \uXXXX, a surrogate pair whole; the backslash and u are read. */
static int unicode(struct cur *c, struct tdat_bytes *out)
{
	uint32_t u, lo;

	if (hex4(c, &u))
		return -1;
	if (u >= 0xdc00 && u <= 0xdfff)
		return -1;
	if (u >= 0xd800 && u <= 0xdbff) {
		if (c->n - c->i < 2 || c->s[c->i] != '\\' ||
		    c->s[c->i + 1] != 'u')
			return -1;
		c->i += 2;
		if (hex4(c, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return -1;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	return put_code(out, u);
}

static int escape(struct cur *c, struct tdat_bytes *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p;
	char e;

	if (c->i >= c->n)
		return -1;
	e = c->s[c->i++];
	if (e == 'u')
		return unicode(c, out);
	p = strchr(from, e);
	if (!e || !p)
		return -1;
	return out ? tdat_bytes_add(out, &to[p - from], 1) : 0;
}

/* A string at c, decoded into out (NUL-terminated) unless out is NULL. */
static int string(struct cur *c, struct tdat_bytes *out)
{
	size_t run;

	if (out)
		tdat_bytes_reset(out);
	if (c->i >= c->n || c->s[c->i++] != '"')
		return -1;
	for (;;) {
		for (run = c->i; run < c->n && c->s[run] != '"' &&
		     c->s[run] != '\\' && (unsigned char)c->s[run] >= 0x20;
		     run++)
			;
		if (out && tdat_bytes_add(out, c->s + c->i, run - c->i))
			return -1;
		c->i = run;
		if (c->i >= c->n || (unsigned char)c->s[c->i] < 0x20)
			return -1;	/* cut, or a raw control */
		if (c->s[c->i++] == '"')
			return out ? tdat_bytes_add(out, "", 1) : 0;
		if (escape(c, out))
			return -1;
	}
}

static size_t digits(struct cur *c)
{
	size_t from = c->i;

	while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
		c->i++;
	return c->i - from;
}

/* A JSON number; *v and *whole when it is an integer that fits. */
static int number(struct cur *c, uint64_t *v, int *whole)
{
	size_t from = c->i, k, nd;
	uint64_t x = 0;

	*whole = 0;
	if (c->i < c->n && c->s[c->i] == '-')
		c->i++;
	nd = digits(c);
	if (!nd || (nd > 1 && c->s[c->i - nd] == '0'))
		return -1;
	*whole = c->s[from] != '-';
	for (k = c->i - nd; *whole && k < c->i; k++) {
		unsigned dg = (unsigned)(c->s[k] - '0');

		*whole = x <= (UINT64_MAX - dg) / 10;	/* else too big */
		x = x * 10 + dg;
	}
	if (c->i < c->n && c->s[c->i] == '.') {
		c->i++;
		*whole = 0;
		if (!digits(c))
			return -1;
	}
	if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
		c->i++;
		*whole = 0;
		if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-'))
			c->i++;
		if (!digits(c))
			return -1;
	}
	*v = x;
	return 0;
}

static int word(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	if (c->n - c->i < n || memcmp(c->s + c->i, w, n))
		return -1;
	c->i += n;
	return 0;
}

static int members(struct cur *c, int depth, struct logline *top);

static int elements(struct cur *c, int depth);

/* Any value, checked and passed over. */
static int value(struct cur *c, int depth)
{
	uint64_t v;
	int whole;

	ws(c);
	if (c->i >= c->n || depth > DEPTH_MAX)
		return -1;
	switch (c->s[c->i]) {
	case '"':
		return string(c, NULL);
	case '{':
		return members(c, depth + 1, NULL);
	case '[':
		return elements(c, depth + 1);
	case 't':
		return word(c, "true");
	case 'f':
		return word(c, "false");
	case 'n':
		return word(c, "null");
	default:
		return number(c, &v, &whole);
	}
}

static int elements(struct cur *c, int depth)
{
	c->i++;			/* [ */
	ws(c);
	if (c->i < c->n && c->s[c->i] == ']') {
		c->i++;
		return 0;
	}
	for (;;) {
		if (value(c, depth))
			return -1;
		ws(c);
		if (c->i >= c->n)
			return -1;
		if (c->s[c->i++] == ']')
			return 0;
		if (c->s[c->i - 1] != ',')
			return -1;
	}
}

/* A top-level member's value: a field kept when it is one of ours. */
static int field(struct cur *c, const char *key, struct logline *l)
{
	struct tdat_bytes *keep = NULL;
	int *has = NULL, whole;

	ws(c);
	if (!strcmp(key, "bytes_before") && c->i < c->n &&
	    c->s[c->i] >= '0' && c->s[c->i] <= '9') {
		if (number(c, &l->size, &whole))
			return -1;
		l->sized = whole;
		return 0;
	}
	if (!strcmp(key, "path")) {
		keep = &l->path;
		has = &l->has_path;
	} else if (!strcmp(key, "result")) {
		keep = &l->result;
		has = &l->has_result;
	} else if (!strcmp(key, "mtime")) {
		keep = &l->mtime;
		has = &l->has_mtime;
	} else if (!strcmp(key, "reason")) {
		keep = &l->reason;
		has = &l->has_reason;
	}
	if (!keep || c->i >= c->n || c->s[c->i] != '"')
		return value(c, 1);
	*has = 0;
	if (string(c, keep))
		return -1;
	*has = 1;
	return 0;
}

/* An object's members; with top, the log line's own (fields kept). */
static int members(struct cur *c, int depth, struct logline *top)
{
	c->i++;			/* { */
	ws(c);
	if (c->i < c->n && c->s[c->i] == '}') {
		c->i++;
		return 0;
	}
	for (;;) {
		ws(c);
		if (string(c, top ? &top->key : NULL))
			return -1;
		ws(c);
		if (c->i >= c->n || c->s[c->i++] != ':')
			return -1;
		if (top ? field(c, (char *)top->key.data, top) :
			  value(c, depth))
			return -1;
		ws(c);
		if (c->i >= c->n)
			return -1;
		if (c->s[c->i++] == '}')
			return 0;
		if (c->s[c->i - 1] != ',')
			return -1;
	}
}

int logline_parse(struct logline *l, const char *s, size_t n)
{
	struct cur c = { s, 0, n };

	l->has_path = l->has_result = l->has_mtime = l->has_reason = 0;
	l->sized = 0;
	ws(&c);
	if (c.i >= c.n || c.s[c.i] != '{' || members(&c, 1, l))
		return -1;
	ws(&c);
	return c.i == c.n ? 0 : -1;
}

void logline_free(struct logline *l)
{
	tdat_bytes_free(&l->key);
	tdat_bytes_free(&l->path);
	tdat_bytes_free(&l->result);
	tdat_bytes_free(&l->mtime);
	tdat_bytes_free(&l->reason);
	memset(l, 0, sizeof(*l));
}
