/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tepfmt.c - event formats libtraceevent survives (see tepfmt.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/tepfmt/tepfmt.h"

#define PRINT_FMT "print fmt:"

/* Where its print fmt line starts, or NULL. */
static const char *print_fmt(const char *text, size_t len)
{
	return memmem(text, len, PRINT_FMT, sizeof(PRINT_FMT) - 1);
}

/* Does text name __print_flags or __print_symbolic (or the _u64 ones)? */
static int marks_fields(const char *text, size_t len)
{
	return memmem(text, len, "__print_flags", 13) ||
	       memmem(text, len, "__print_symbolic", 16);
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* An identifier at p (up to end): its length, 0 if none. */
static size_t ident(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && ident_char(*q))
		q++;
	return (size_t)(q - p);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* Past a quoted string starting at p (its quote), escapes included. */
static const char *skip_quoted(const char *p, const char *end)
{
	char q = *p++;

	while (p < end && *p != q)
		p += *p == '\\' && p + 1 < end ? 2 : 1;
	return p < end ? p + 1 : end;
}

/* After "REC" at p: the field name of "->NAME" or ")->NAME" (its length
 * in *n), or NULL. */
static const char *rec_field(const char *p, const char *end, size_t *n)
{
	p = skip_space(p, end);
	if (p < end && *p == ')')
		p = skip_space(p + 1, end);
	if (end - p < 2 || p[0] != '-' || p[1] != '>')
		return NULL;
	p = skip_space(p + 2, end);
	*n = ident(p, end);
	return *n ? p : NULL;
}

static int is_word(const char *p, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(p, w, n);
}

/* The field named at p (n bytes) in ev? */
static int has_field(struct tep_event *ev, const char *p, size_t n)
{
	char name[128];

	if (n >= sizeof(name))
		return 0;
	memcpy(name, p, n);
	name[n] = 0;
	return tep_find_any_field(ev, name) != NULL;
}

/*
 * Walk the print fmt as libtraceevent's parser meets it: a
 * __print_flags/__print_symbolic marks the next REC->NAME, which must be
 * a field of ev.  0 if one is not, or a mark is left over.
 */
static int marks_hit_fields(struct tep_event *ev, const char *p,
			    const char *end)
{
	int flag = 0, symbolic = 0;
	const char *name;
	size_t n, len;

	while (p < end) {
		if (*p == '"' || *p == '\'') {
			p = skip_quoted(p, end);
			continue;
		}
		n = ident(p, end);
		if (!n) {
			p++;
			continue;
		}
		if (is_word(p, n, "__print_flags") ||
		    is_word(p, n, "__print_flags_u64"))
			flag = 1;
		else if (is_word(p, n, "__print_symbolic") ||
			 is_word(p, n, "__print_symbolic_u64"))
			symbolic = 1;
		else if (is_word(p, n, "REC") && (flag || symbolic) &&
			 (name = rec_field(p + n, end, &len))) {
			if (!has_field(ev, name, len))
				return 0;
			if (flag)
				flag = 0;
			else
				symbolic = 0;
			p = name;
			n = len;
		}
		p += n;
	}
	return !flag && !symbolic;
}

/* The divisor after a '/' or '%' at p: a number other than 0, maybe in
 * parentheses, or a sizeof.  1 if it is. */
static int sound_divisor(const char *p, const char *end)
{
	unsigned long long v;
	int parens = 0;
	char num[32];
	size_t n;

	for (p = skip_space(p, end); p < end && *p == '(';
	     p = skip_space(p + 1, end))
		parens++;
	n = ident(p, end);
	if (is_word(p, n, "sizeof"))
		return 1;
	if (!n || !isdigit((unsigned char)*p) || n >= sizeof(num))
		return 0;
	memcpy(num, p, n);
	num[n] = 0;
	v = strtoull(num, NULL, 0);
	p = skip_space(p + n, end);
	return v && (!parens || (p < end && *p == ')'));
}

/*
 * libtraceevent divides as the print fmt says, at parse time when it
 * can and at print time with the record's values: a divisor of 0 (a
 * literal, or a field holding 0) is a SIGFPE.  Kernels divide only by
 * numbers and sizeof: anything else is refused.
 */
static int divisions_sound(const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '"' || *p == '\'') {
			p = skip_quoted(p, end) - 1;
			continue;
		}
		if ((*p == '/' || *p == '%') && !sound_divisor(p + 1, end))
			return 0;
	}
	return 1;
}

/* Is the field declared on this line (up to end) a dynamic one whose
 * size is not 4? */
static int odd_dynamic(const char *line, const char *end)
{
	const char *semi = memchr(line, ';', (size_t)(end - line));
	const char *size;
	char num[24];
	size_t n;

	if (!semi || !memmem(line, (size_t)(semi - line), "field:", 6) ||
	    (!memmem(line, (size_t)(semi - line), "__data_loc", 10) &&
	     !memmem(line, (size_t)(semi - line), "__rel_loc", 9)))
		return 0;
	size = memmem(semi, (size_t)(end - semi), "size:", 5);
	if (!size)
		return 0;	/* libtraceevent refuses the line */
	size = skip_space(size + 5, end);
	n = ident(size, end);
	if (n >= sizeof(num))
		return 1;
	memcpy(num, size, n);
	num[n] = 0;
	return strtoul(num, NULL, 0) != 4;
}

/*
 * libtraceevent reads a dynamic field's descriptor (offset and length
 * of the data) as wide as the field says; 8 bytes make a length of up
 * to 2^48, read whole.  The kernel's are 4 bytes wide: others are
 * refused.
 */
static int dynamic_widths_sound(const char *p, const char *end)
{
	const char *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (odd_dynamic(p, nl))
			return 0;
	}
	return 1;
}

/* The format's fields, parsed from its text with an empty print fmt:
 * then its print fmt checked against them.  1 if safe. */
static int safe_marks(const char *text, size_t len, const char *system)
{
	static const char empty[] = PRINT_FMT " \"\"\n";
	const char *pf = print_fmt(text, len);
	size_t head = pf ? (size_t)(pf - text) : 0;
	struct tep_handle *tep;
	struct tep_event *ev = NULL;
	char *copy;
	int ok = 0;

	if (!pf)
		return 1;	/* no arguments are ever parsed */
	copy = malloc(head + sizeof(empty));
	tep = tep_alloc();
	if (copy && tep) {
		memcpy(copy, text, head);
		memcpy(copy + head, empty, sizeof(empty));
		if (!tep_parse_format(tep, &ev, copy, head + sizeof(empty) - 1,
				      system) && ev)
			ok = marks_hit_fields(ev, pf + sizeof(PRINT_FMT) - 1,
					      text + len);
	}
	tep_free(tep);
	free(copy);
	return ok;
}

/*
 * A format whose fields are both marked: after a parse that may have
 * left libtraceevent's marks set, its two field references clear them
 * (in a handle of its own).
 */
static void clear_marks(void)
{
	static const char reset[] =
		"name: tdat_reset\nID: 1\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
		"\tsigned:0;\n\n"
		"\tfield:int x;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%d %d\", REC->x, REC->x\n";
	struct tep_handle *tep = tep_alloc();

	if (tep)
		tep_parse_event(tep, reset, sizeof(reset) - 1, "tdat");
	tep_free(tep);
}

/*
 * The text up to its print fmt, without the lines of dynamic fields not
 * 4 bytes wide: a malloc'd copy (its length in *n), NULL without memory.
 */
static char *fields_text(const char *text, size_t len, size_t *n)
{
	const char *pf = print_fmt(text, len);
	const char *end = pf ? pf : text + len, *p, *nl;
	char *copy = malloc((size_t)(end - text) + 1);

	if (!copy)
		return NULL;
	*n = 0;
	for (p = text; p < end; p = nl) {
		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl ? nl + 1 : end;
		if (odd_dynamic(p, nl))
			continue;
		memcpy(copy + *n, p, (size_t)(nl - p));
		*n += (size_t)(nl - p);
	}
	copy[*n] = 0;
	return copy;
}

enum tep_errno tepfmt_parse_fields(struct tep_handle *tep,
				   struct tep_event **event, const char *text,
				   size_t len, const char *system)
{
	struct tep_event *ev = NULL;
	enum tep_errno e;
	size_t n;
	char *copy = fields_text(text, len, &n);

	if (event)
		*event = NULL;
	if (!copy)
		return TEP_ERRNO__MEM_ALLOC_FAILED;
	e = tep_parse_format(tep, event ? event : &ev, copy, n, system);
	free(copy);
	return e;
}

/* Why the format is not handed over whole, or NULL: it may be. */
static const char *unsafe(const char *text, size_t len, const char *system,
			  enum tep_errno *e)
{
	const char *pf = print_fmt(text, len);

	*e = TEP_ERRNO__READ_PRINT_FAILED;
	if (pf && !divisions_sound(pf + sizeof(PRINT_FMT) - 1, text + len))
		return "a division by something other than a number"
		       " (libtraceevent divides by 0)";
	*e = TEP_ERRNO__READ_FORMAT_FAILED;
	if (!dynamic_widths_sound(text, pf ? pf : text + len))
		return "a __data_loc or __rel_loc field not 4 bytes wide";
	*e = TEP_ERRNO__READ_PRINT_FAILED;
	if (marks_fields(text, len) && !safe_marks(text, len, system))
		return "__print_flags or __print_symbolic on a field"
		       " the event does not have";
	return NULL;
}

/* Does text parse whole (not flagged failed) in a handle set up as tep
 * is, the wide helper registered? */
static int parses_whole(struct tep_handle *tep, const char *text, size_t len,
			const char *system)
{
	struct tep_handle *t = tep_alloc();
	struct tep_event *ev = NULL;
	int ok = 0;

	if (!t)
		return 0;
	tep_set_file_bigendian(t, tep_is_file_bigendian(tep) ?
				  TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t, tep_is_local_bigendian(tep) ?
				   TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t, tep_get_long_size(tep));
	if (!tepfmt_register_wide(t) &&
	    tep_parse_format(t, &ev, text, len, system) == TEP_ERRNO__SUCCESS)
		ok = ev && !(ev->flags & TEP_EVENT_FL_FAILED);
	tep_free(t);
	return ok;
}

/* tep_parse_format, a plain %p of a number made to print whole where
 * the host would cut it (wideptr.c; tepfmt_prepare registered its
 * helper), when the rewritten text parses whole. */
static enum tep_errno parse_whole(struct tep_handle *tep,
				  struct tep_event **ev, const char *text,
				  size_t len, const char *system)
{
	char *wide = NULL;
	enum tep_errno e;
	size_t n;

	if (tepfmt_cuts_pointers(tep) && (wide = tepfmt_widen(text, len, &n)) &&
	    parses_whole(tep, wide, n, system)) {
		text = wide;
		len = n;
	}
	e = tep_parse_format(tep, ev, text, len, system);
	free(wide);
	return e;
}

enum tep_errno tepfmt_parse(struct tep_handle *tep, struct tep_event **event,
			    const char *text, size_t len, const char *system,
			    const char **why)
{
	struct tep_event *ev = NULL;
	const char *refused, *unbound;
	enum tep_errno e;

	if (why)
		*why = NULL;
	if (event)
		*event = NULL;
	refused = unsafe(text, len, system, &e);
	if (refused) {
		if (why)
			*why = refused;
		tepfmt_parse_fields(tep, event, text, len, system);
		return e;
	}
	e = parse_whole(tep, &ev, text, len, system);
	if (marks_fields(text, len))
		clear_marks();
	if (event)
		*event = ev;
	if (e == TEP_ERRNO__SUCCESS && ev &&
	    !(ev->flags & TEP_EVENT_FL_FAILED) &&
	    tepfmt_bound_helpers(ev, &unbound)) {
		if (why)
			*why = unbound;
		e = TEP_ERRNO__READ_PRINT_FAILED;
	}
	return e;
}
