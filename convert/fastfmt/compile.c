/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compile.c - an event's print fmt into a fastfmt program (fastfmt.h
 * says what is plain enough).  The fmt text is walked once: literal
 * text is kept with its escapes turned as libtraceevent turns them, and
 * each conversion is paired with the next argument of libtraceevent's
 * parsed argument list.  Anything not known here makes the whole event
 * stay with libtraceevent.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"

#define MAX_WIDTH 64

int ff_text_add(struct ff_builder *b, const char *p, size_t n)
{
	char *t;

	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;

		t = realloc(b->f->text, cap);
		if (!t)
			return -1;
		b->f->text = t;
		b->cap = cap;
	}
	memcpy(b->f->text + b->len, p, n);
	b->len += n;
	return 0;
}

/* The character a backslash escape prints, or 0 for one not known. */
static char escaped(char c)
{
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case '\\': return '\\';
	case '"': return '"';
	default: return 0;
	}
}

/* Literal text at *pp up to a conversion or the end: -1 when it holds
 * something not known. */
static int scan_literal(struct ff_builder *b, const char **pp)
{
	const char *p = *pp;
	char c;

	for (; *p; p++) {
		c = *p;
		if (c == '%' && p[1] != '%')
			break;
		if (c == '%') {
			p++;
		} else if (c == '\\') {
			c = escaped(*++p);
			if (!c)
				return -1;
		}
		if (ff_text_add(b, &c, 1))
			return -1;
	}
	*pp = p;
	return 0;
}

/* The C type's bits of a length modifier at *pp (moved past it), as
 * on x86_64, whose text every host prints: long and size_t are 64 bits
 * there (a 32-bit host's own would cut %lx of a 64-bit file's values,
 * which libtraceevent itself does not). */
static int length_bits(const char **pp)
{
	const char *p = *pp;
	int bits = 32;

	if (p[0] == 'h' && p[1] == 'h')
		bits = 8, p += 2;
	else if (p[0] == 'h')
		bits = 16, p++;
	else if (p[0] == 'l' && p[1] == 'l')
		bits = 64, p += 2;
	else if (p[0] == 'l')
		bits = 64, p++;
	else if (p[0] == 'L')
		bits = 64, p++;
	else if (p[0] == 'z')
		bits = 64, p++;
	*pp = p;
	return bits;
}

/* The conversion at *pp (just past its '%') into op: -1 when not plain. */
static int parse_spec(const char **pp, struct ff_op *op)
{
	const char *p = *pp, *start;
	int width = 0, bits, plain;

	for (;; p++) {
		if (*p == '-')
			op->flags |= FF_LEFT;
		else if (*p == '0')
			op->flags |= FF_ZERO;
		else if (*p == '#')
			op->flags |= FF_ALT;
		else
			break;
	}
	for (; isdigit((unsigned char)*p) && width <= MAX_WIDTH; p++)
		width = width * 10 + (*p - '0');
	if (width > MAX_WIDTH)
		return -1;
	start = p;
	bits = length_bits(&p);
	op->conv = *p++;
	op->width = (uint8_t)width;
	op->bits = (uint8_t)bits;
	plain = !op->flags && !width && p - 1 == start;
	*pp = p;
	switch (op->conv) {
	case 'x': case 'X':
		return 0;
	case 'd': case 'i': case 'u':
		return op->flags & FF_ALT ? -1 : 0;
	case 's':
		return plain ? 0 : -1;
	case 'p':	/* %pS (symbols.c); %pM and the like stay */
		if (plain && strchr("SsFf", *p) && *p &&
		    !isalnum((unsigned char)p[1])) {
			op->ext = *p == 'S' || *p == 'F' ? 'S' : 's';
			*pp = p + 1;
		}
		return plain && !isalnum((unsigned char)**pp) ? 0 : -1;
	default:
		return -1;
	}
}

static struct ff_op *op_new(struct ff_builder *b)
{
	struct fastfmt *f = b->f;
	struct ff_op *ops;

	if (f->nops == b->ops_cap) {
		b->ops_cap = b->ops_cap ? b->ops_cap * 2 : 8;
		ops = realloc(f->ops, (size_t)b->ops_cap * sizeof(*ops));
		if (!ops)
			return NULL;
		f->ops = ops;
	}
	memset(&f->ops[f->nops], 0, sizeof(f->ops[0]));
	return &f->ops[f->nops++];
}

static int walk(struct ff_builder *b)
{
	struct tep_print_arg *arg = b->ev->print_fmt.args;
	const char *p = b->ev->print_fmt.format;
	struct ff_op *op;
	uint32_t lit;

	for (;;) {
		lit = (uint32_t)b->len;
		if (scan_literal(b, &p))
			return -1;
		if (!*p)
			break;
		p++;
		op = op_new(b);
		if (!op || !arg || parse_spec(&p, op))
			return -1;
		op->lit = lit;
		op->lit_len = (uint32_t)b->len - lit;
		if (ff_compile_arg(b, op, arg))
			return -1;
		arg = arg->next;
	}
	b->f->tail = lit;
	b->f->tail_len = (uint32_t)b->len - lit;
	return arg ? -1 : 0;
}

/*
 * Only an event printed from its print fmt, parsed whole: none
 * libtraceevent flags (ftrace's print, bprint and function events it
 * prints its own way, failed ones), and with a plugin's handler only
 * the kmem plugin's (symbols.c).
 */
static int compilable(const struct tep_event *ev)
{
	return !ev->flags && ev->print_fmt.format && ev->tep &&
	       !(ev->system && !strcmp(ev->system, "ftrace"));
}

struct fastfmt *fastfmt_compile(struct tep_event *ev)
{
	struct ff_builder b;

	if (!compilable(ev))
		return NULL;
	memset(&b, 0, sizeof(b));
	b.ev = ev;
	b.f = calloc(1, sizeof(*b.f));
	if (!b.f)
		return NULL;
	b.f->big = tep_is_file_bigendian(ev->tep);
	if ((ev->handler && ff_compile_plugin(&b)) || walk(&b) ||
	    ff_text_add(&b, "", 0) || ((b.probe_op || b.probe_all) && ff_probe(&b))) {
		fastfmt_free(b.f);
		return NULL;
	}
	return b.f;
}

void fastfmt_free(struct fastfmt *f)
{
	if (!f)
		return;
	free(f->ops);
	free(f->text);
	free(f->tab);
	free(f->syms);
	free(f->nodes);
	free(f);
}

int fastfmt_enabled(void)
{
	const char *s = getenv("TDAT_NO_FASTFMT");

	return !s || !*s || !strcmp(s, "0");
}
