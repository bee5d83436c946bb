/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tables.c - %s of __print_flags and __print_symbolic over a number
 * field, printed as libtraceevent prints them.  The field is read
 * unsigned at its size.  Symbolic: the name of the first value equal to
 * it, else 0x and its hex.  Flags: in the table's order, the name of
 * each nonzero value whose bits are all still set (those bits then
 * cleared), joined by the delimiter, then 0x and the hex of any bits
 * left; nothing for 0, and never the name of a value 0 (the kernel's
 * tables end with { 0, NULL }).  A table's values are the numbers
 * libtraceevent evaluated while parsing, kept as text: a table holding
 * one that is not a plain number below 2^63 is not compiled.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"

static int add_name(struct ff_builder *b, uint64_t value, const char *str)
{
	struct fastfmt *f = b->f;
	size_t len = strlen(str);
	struct ff_name *t;
	uint32_t cap;

	if (f->ntab == b->tab_cap) {
		cap = b->tab_cap ? b->tab_cap * 2 : 32;
		t = realloc(f->tab, cap * sizeof(*t));
		if (!t)
			return -1;
		f->tab = t;
		b->tab_cap = cap;
	}
	f->tab[f->ntab] = (struct ff_name){ value, (uint32_t)b->len,
					    (uint32_t)len };
	if (ff_text_add(b, str, len))
		return -1;
	f->ntab++;
	return 0;
}

/* A table's value as libtraceevent left it: a number below 2^63. */
static int table_value(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || *v >> 63 ? -1 : 0;
}

static int add_table(struct ff_builder *b, struct ff_op *op,
		     const struct tep_print_flag_sym *sym)
{
	uint64_t v;

	op->tab = b->f->ntab;
	for (; sym; sym = sym->next) {
		if (!sym->str || table_value(sym->value, &v) ||
		    add_name(b, v, sym->str))
			return -1;
		op->ntab++;
	}
	return 0;
}

int ff_compile_table(struct ff_builder *b, struct ff_op *op,
		     const struct tep_print_arg *a)
{
	const struct tep_format_field *f;
	int flags = a && a->type == TEP_PRINT_FLAGS;

	if (!a || (!flags && a->type != TEP_PRINT_SYMBOL) || op->conv != 's')
		return -1;
	f = ff_number_field(b, flags ? a->flags.field : a->symbol.field);
	if (!f)
		return -1;
	op->off = (uint32_t)f->offset;
	op->size = (uint8_t)f->size;
	ff_need(b, op->off, op->size);
	if (!flags) {
		op->kind = FF_SYMBOLIC;
		return add_table(b, op, a->symbol.symbols);
	}
	op->kind = FF_FLAGS;
	if (a->flags.delim) {
		op->delim = (uint32_t)b->len;
		op->delim_len = (uint32_t)strlen(a->flags.delim);
		if (ff_text_add(b, a->flags.delim, op->delim_len))
			return -1;
	}
	return add_table(b, op, a->flags.flags);
}

static int put_flags(struct ff_out *o, const struct fastfmt *f,
		     const struct ff_op *op, uint64_t v)
{
	const struct ff_name *t = f->tab + op->tab;
	const char *delim = f->text + op->delim;
	int printed = 0;
	uint32_t i;

	for (i = 0; i < op->ntab; i++) {
		if (!t[i].value || (v & t[i].value) != t[i].value)
			continue;
		if ((printed && ff_put(o, delim, op->delim_len)) ||
		    ff_put(o, f->text + t[i].str, t[i].len))
			return -1;
		printed = 1;
		v &= ~t[i].value;
	}
	if (!v)
		return 0;
	if (printed && ff_put(o, delim, op->delim_len))
		return -1;
	return ff_put_hex(o, v);
}

int ff_run_table(struct ff_out *o, const struct fastfmt *f,
		 const struct ff_op *op, uint64_t v)
{
	const struct ff_name *t = f->tab + op->tab;
	uint32_t i;

	if (op->kind == FF_FLAGS)
		return put_flags(o, f, op, v);
	for (i = 0; i < op->ntab; i++)
		if (t[i].value == v)
			return ff_put(o, f->text + t[i].str, t[i].len);
	return ff_put_hex(o, v);
}
