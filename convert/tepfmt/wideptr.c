/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wideptr.c - %p of a 64-bit file's pointers on a host whose pointers
 * are 32 bits.
 *
 * libtraceevent prints a plain %p by casting the value to the host's
 * pointer and handing it to printf's %p, so on armhf or i686 it cuts
 * 0xffff9ebf9638c240 to 0x9638c240, where trace-cmd on x86_64 (the
 * reference) prints it whole.  Before such a format is parsed, each
 * plain %p whose argument is a number of the record (REC->page, or
 * "((struct page *)vmemmap_base) + (REC->pfn)") is made %s of
 * __tdat_ptr((ARG)), a helper registered here that gets the value as %p
 * would and prints it as x86_64's glibc prints a pointer: "(nil)", or 0x
 * and its hex.  Other arguments (helpers' results, %p inside helpers)
 * are left as they are, and tepfmt.c keeps the format as it was unless
 * the rewritten one parses whole.
 * The helper is registered once, when the handle is made: libtraceevent
 * frees a helper registered again, which events parsed before still
 * point to.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/tepfmt/tepfmt.h"

#define HELPER "__tdat_ptr"
#define MAX_ARGS 64

static unsigned long long wide_pointer(struct trace_seq *s,
				       unsigned long long *args)
{
	if (!args[0])
		trace_seq_puts(s, "(nil)");
	else
		trace_seq_printf(s, "0x%llx", args[0]);
	return 0;
}

int tepfmt_cuts_pointers(struct tep_handle *tep)
{
	return tep_get_long_size(tep) > (int)sizeof(void *);
}

/* For each argument the quoted fmt at p..q takes (p past the opening
 * quote, q at the closing one), the 'p' of its conversion when that is
 * a plain %p, else NULL; how many arguments, or -1 past MAX_ARGS. */
static int plain_pointers(const char *p, const char *q, const char **at)
{
	int n = 0;

	for (; p < q; p++) {
		if (*p == '\\') {
			p++;
			continue;
		}
		if (*p != '%' || ++p >= q || *p == '%')
			continue;
		for (; p < q && strchr("-+ #0123456789.*hlLzjt", *p); p++)
			if (*p == '*' && n < MAX_ARGS)
				at[n++] = NULL;	/* a '*' takes an argument */
		if (n >= MAX_ARGS)
			return -1;
		at[n++] = p < q && *p == 'p' &&
			  (p + 1 >= q || !isalnum((unsigned char)p[1])) ? p : NULL;
	}
	return n;
}

/* The end of the argument starting at p: the next ',' outside brackets
 * and quotes, or end. */
static const char *arg_end(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '"' || *p == '\'') {
			char c = *p;

			for (p++; p < end && *p != c; p++)
				p += *p == '\\';
			continue;
		}
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if (*p == ')' || *p == ']' || *p == '}')
			depth--;
		else if (*p == ',' && depth == 0)
			break;
	}
	return p < end ? p : end;
}

/* Is p..e an argument whose value the helper gets as %p would: a
 * number (REC->name, a cast, arithmetic), not a helper's result (a
 * __get_ or __print_ call: an address inside the record, or text)? */
static int is_number_arg(const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	return memmem(p, n, "REC->", 5) && !memmem(p, n, "__get_", 6) &&
	       !memmem(p, n, "__print_", 8) && !memchr(p, '"', n) &&
	       !memchr(p, '\'', n);
}

static char *put(char *o, const char *p, size_t n)
{
	memcpy(o, p, n);
	return o + n;
}

/* Which plain %p take a number of the record: their at[] kept, the
 * others' cleared; how many are kept.  p: the text after the fmt's
 * closing quote, up to end. */
static int field_pointers(const char *p, const char *end, const char **at,
			  int n)
{
	const char *e;
	int i, kept = 0;

	for (i = 0; i < n; i++, p = e) {
		if (p >= end || *p != ',')
			return 0;	/* fewer arguments than the fmt takes */
		e = arg_end(p + 1, end);
		if (at[i] && !is_number_arg(p + 1, e))
			at[i] = NULL;
		kept += at[i] != NULL;
	}
	return kept;
}

/* The fmt (p up to its closing quote q) and its args (up to end) into
 * o: each kept %p made %s and its argument wrapped in the helper. */
static char *rewrite(char *o, const char *p, const char *q, const char *end,
		     const char *const *at, int n)
{
	const char *e;
	int i, k = 0;

	for (; p < q; p++) {
		while (k < n && !at[k])
			k++;
		if (k < n && p == at[k]) {
			*o++ = 's';
			k++;
		} else {
			*o++ = *p;
		}
	}
	*o++ = *p++;	/* the closing quote; each argument from its ',' */
	for (i = 0; p < end; i++, p = e) {
		e = arg_end(p + 1, end);
		if (i < n && at[i]) {
			/* in parentheses: libtraceevent takes a ternary
			 * as a helper's argument only so */
			o = put(o, ", " HELPER "((", sizeof(HELPER) + 3);
			o = put(o, p + 1, (size_t)(e - p - 1));
			o = put(o, "))", 2);
		} else {
			o = put(o, p, (size_t)(e - p));
		}
	}
	return o;
}

char *tepfmt_widen(const char *text, size_t len, size_t *n)
{
	const char *pf = memmem(text, len, "print fmt:", 10), *end = text + len;
	const char *q0, *q, *nl, *at[MAX_ARGS];
	char *out, *o;
	int nargs;

	if (!pf || !(q0 = memchr(pf, '"', (size_t)(end - pf))))
		return NULL;
	nl = memchr(q0, '\n', (size_t)(end - q0));
	end = nl ? nl : end;
	for (q = q0 + 1; q < end && *q != '"'; q++)
		q += *q == '\\';
	if (q >= end || (nargs = plain_pointers(q0 + 1, q, at)) <= 0 ||
	    !field_pointers(q + 1, end, at, nargs))
		return NULL;
	/* each wrapped argument grows by ", ", the helper and "(())" */
	out = malloc(len + (size_t)nargs * (sizeof(HELPER) + 8) + 1);
	if (!out)
		return NULL;
	o = put(out, text, (size_t)(q0 + 1 - text));
	o = rewrite(o, q0 + 1, q, end, at, nargs);
	o = put(o, end, (size_t)(text + len - end));
	*n = (size_t)(o - out);
	*o = 0;
	return out;
}

/* bprint's formats ("ADDR : \"fmt\"" lines): its arguments are bytes of
 * the record, no expressions a helper could take, so a plain %p is made
 * 0x%llx (read as 8 bytes, as %p of a 64-bit file is; only a NULL then
 * shows as 0x0 where x86_64 prints "(nil)"). */
char *tepfmt_widen_printk(const char *text, size_t len)
{
	const char *p, *end = text + len;
	char *out = malloc(len * 3 + 1), *o = out;	/* "%p" -> 6 bytes */

	if (!out)
		return NULL;
	for (p = text; p < end; p++) {
		*o++ = *p;
		if (*p != '%' || p + 1 >= end)
			continue;
		if (p[1] == '%') {
			*o++ = *++p;
		} else if (p[1] == 'p' &&
			   (p + 2 >= end || !isalnum((unsigned char)p[2]))) {
			o--;
			o = put(o, "0x%llx", 6);
			p++;
		}
	}
	*o = 0;
	return out;
}

int tepfmt_register_wide(struct tep_handle *tep)
{
	return tep_register_print_function(tep, wide_pointer,
					   TEP_FUNC_ARG_STRING, HELPER,
					   TEP_FUNC_ARG_LONG,
					   TEP_FUNC_ARG_VOID);
}

int tepfmt_prepare(struct tep_handle *tep)
{
	return tepfmt_cuts_pointers(tep) ? tepfmt_register_wide(tep) : 0;
}
