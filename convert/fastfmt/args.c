/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args.c - one argument of a print fmt, as the conversion paired with
 * it takes it (fastfmt.h lists the kinds compiled).  Fields are taken
 * only as libtraceevent resolved them while parsing.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"

void ff_need(struct ff_builder *b, uint32_t off, uint32_t size)
{
	if (off + size > b->f->need)
		b->f->need = off + size;
}

int ff_is_number(const struct tep_format_field *f)
{
	return f && f->offset >= 0 &&
	       !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* A number field with a number conversion, or %p. */
static int number(struct ff_builder *b, struct ff_op *op,
		  const struct tep_format_field *f)
{
	if (!ff_is_number(f) || op->conv == 's')
		return -1;
	op->kind = op->conv == 'p' ? FF_PTR : FF_NUM;
	op->off = (uint32_t)f->offset;
	op->size = (uint8_t)f->size;
	ff_need(b, op->off, op->size);
	return 0;
}

/* %s of a char array: the text up to its first NUL, or all of it. */
static int char_array(struct ff_builder *b, struct ff_op *op,
		      const struct tep_format_field *f)
{
	if (!f || f->offset < 0 || f->size <= 0 || !f->type ||
	    !(f->flags & TEP_FIELD_IS_ARRAY) ||
	    (f->flags & TEP_FIELD_IS_DYNAMIC) || f->elementsize != 1 ||
	    !strstr(f->type, "char"))
		return -1;
	op->kind = FF_STR_FIXED;
	op->off = (uint32_t)f->offset;
	op->len = (uint32_t)f->size;
	ff_need(b, op->off, op->len);
	return 0;
}

/* The field of REC->name.  libtraceevent looks it up when it first
 * prints the event (at parse time only for flag and symbolic fields):
 * the same lookup here, so that an event not printed yet compiles. */
static const struct tep_format_field *field_of(struct ff_builder *b,
					       const struct tep_print_arg *a)
{
	if (!a || a->type != TEP_PRINT_FIELD)
		return NULL;
	if (a->field.field || !a->field.name)
		return a->field.field;
	return tep_find_any_field(b->ev, a->field.name);
}

const struct tep_format_field *ff_number_field(struct ff_builder *b,
					       const struct tep_print_arg *a)
{
	const struct tep_format_field *f = field_of(b, a);

	return ff_is_number(f) ? f : NULL;
}

static int field(struct ff_builder *b, struct ff_op *op,
		 const struct tep_print_arg *a)
{
	const struct tep_format_field *f = field_of(b, a);

	if (op->conv == 's')
		return char_array(b, op, f);
	return number(b, op, f);
}

/* __get_str(field): a __data_loc (not __rel_loc) of 4 bytes. */
static int dyn_string(struct ff_builder *b, struct ff_op *op,
		      const struct tep_print_arg *a)
{
	const struct tep_format_field *f = a->string.field;

	if (!f && a->string.string)	/* resolved when first printed */
		f = tep_find_field(b->ev, a->string.string);

	if (op->conv != 's' || !f || f->offset < 0 || f->size != 4 ||
	    !(f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    (f->flags & TEP_FIELD_IS_RELATIVE))
		return -1;
	op->kind = FF_STR_DYN;
	op->off = (uint32_t)f->offset;
	op->size = 4;
	ff_need(b, op->off, 4);
	return 0;
}

/* (type)REC->field, type one of 64 bits: the value as it is. */
static int cast(struct ff_builder *b, struct ff_op *op,
		const struct tep_print_arg *a)
{
	static const char *const wide[] = { "unsigned long long",
					    "long long", "u64", "s64" };
	const struct tep_print_arg *item = a->typecast.item;
	size_t i;

	if (!a->typecast.type || !item || item->type != TEP_PRINT_FIELD ||
	    op->conv == 's' || op->conv == 'p')
		return -1;
	for (i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (!strcmp(a->typecast.type, wide[i]))
			return number(b, op, field_of(b, item));
	return -1;
}

/* A decimal number of at most 4 digits: its value, or -1. */
static long small_number(const struct tep_print_arg *a)
{
	const char *s;
	long v = 0;

	if (!a || a->type != TEP_PRINT_ATOM || !a->atom.atom)
		return -1;
	for (s = a->atom.atom; *s >= '0' && *s <= '9' && s - a->atom.atom < 4;
	     s++)
		v = v * 10 + (*s - '0');
	return *s || s == a->atom.atom ? -1 : v;
}

/* REC->array[N]: a number element of the file's long size. */
static int element(struct ff_builder *b, struct ff_op *op,
		   const struct tep_print_arg *a)
{
	const struct tep_print_arg *l = a->op.left;
	const struct tep_format_field *f;
	long n = small_number(a->op.right);
	int es;

	if (!l || l->type != TEP_PRINT_FIELD || n < 0 || op->conv == 's')
		return -1;
	f = field_of(b, l);
	es = tep_get_long_size(b->ev->tep);
	if (!f || f->offset < 0 || !(f->flags & TEP_FIELD_IS_ARRAY) ||
	    (f->flags & TEP_FIELD_IS_DYNAMIC) || (int)f->elementsize != es ||
	    (es != 4 && es != 8) || (unsigned long)n >= f->arraylen ||
	    (uint64_t)f->arraylen * (unsigned)es != (uint64_t)f->size)
		return -1;
	op->kind = op->conv == 'p' ? FF_PTR : FF_NUM;
	op->off = (uint32_t)f->offset + (uint32_t)n * (uint32_t)es;
	op->size = (uint8_t)es;
	ff_need(b, (uint32_t)f->offset, (uint32_t)f->size);
	return 0;
}

/* A string atom without escapes, added to the text. */
static int atom_text(struct ff_builder *b, const struct tep_print_arg *a,
		     uint32_t *at, uint32_t *len)
{
	if (!a || a->type != TEP_PRINT_ATOM || !a->atom.atom ||
	    strchr(a->atom.atom, '\\'))
		return -1;
	*at = (uint32_t)b->len;
	*len = (uint32_t)strlen(a->atom.atom);
	return ff_text_add(b, a->atom.atom, *len);
}

/* Is a a constant expression: numbers, casts and operators only? */
static int is_constant(const struct tep_print_arg *a, int depth)
{
	if (!a || depth > 64)
		return 0;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return a->atom.atom && isdigit((unsigned char)*a->atom.atom);
	case TEP_PRINT_TYPE:
		return is_constant(a->typecast.item, depth + 1);
	case TEP_PRINT_OP:
		return (!a->op.left || is_constant(a->op.left, depth + 1)) &&
		       is_constant(a->op.right, depth + 1);
	default:
		return 0;
	}
}

static int is_op(const struct tep_print_arg *a, const char *op)
{
	return a && a->type == TEP_PRINT_OP && a->op.op &&
	       !strcmp(a->op.op, op);
}

/*
 * The condition c of c ? x : y into op: REC->field, true when not 0;
 * or [1 &&] (REC->field & K) with K constant, true when the field has a
 * bit of the mask, which probe.c finds (K's casts and suffixes are
 * libtraceevent's to evaluate).  One such mask per event.
 */
static int condition(struct ff_builder *b, struct ff_op *op,
		     const struct tep_print_arg *c)
{
	const struct tep_format_field *f;

	if (is_op(c, "&&") && c->op.left && c->op.left->type == TEP_PRINT_ATOM &&
	    c->op.left->atom.atom && !strcmp(c->op.left->atom.atom, "1"))
		c = c->op.right;
	f = ff_number_field(b, c);
	op->cond_mask = ~0ull;
	if (!f && is_op(c, "&") && !b->probe_op) {
		f = ff_number_field(b, c->op.left);
		if (!f || !is_constant(c->op.right, 0))
			return -1;
		b->probe_op = (int)(op - b->f->ops) + 1;
		op->cond_mask = 0;
	}
	if (!f)
		return -1;
	op->cond_off = (uint32_t)f->offset;
	op->cond_size = (uint8_t)f->size;
	ff_need(b, op->cond_off, op->cond_size);
	return 0;
}

/* %s of cond ? "yes" : "no", or of cond ? __print_flags(...) : "no" (or
 * __print_symbolic): the table is printed only when cond holds. */
static int choice(struct ff_builder *b, struct ff_op *op,
		  const struct tep_print_arg *a)
{
	const struct tep_print_arg *r = a->op.right;

	if (op->conv != 's' || !is_op(r, ":") ||
	    atom_text(b, r->op.right, &op->no, &op->no_len))
		return -1;
	if (r->op.left && r->op.left->type != TEP_PRINT_ATOM) {
		if (ff_compile_table(b, op, r->op.left))
			return -1;
	} else {
		if (atom_text(b, r->op.left, &op->yes, &op->yes_len))
			return -1;
		op->kind = FF_CHOICE;
	}
	return condition(b, op, a->op.left);
}

int ff_compile_arg(struct ff_builder *b, struct ff_op *op,
		   struct tep_print_arg *a)
{
	if (op->ext)
		return ff_compile_symbol(b, op, a);
	switch (a->type) {
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		return ff_compile_table(b, op, a);
	case TEP_PRINT_FIELD:
		return field(b, op, a);
	case TEP_PRINT_STRING:
		return dyn_string(b, op, a);
	case TEP_PRINT_TYPE:
		if (!cast(b, op, a))
			return 0;
		return ff_compile_expr(b, op, a);	/* a pointer cast */
	case TEP_PRINT_OP:
		if (a->op.op && !strcmp(a->op.op, "["))
			return element(b, op, a);
		if (a->op.op && !strcmp(a->op.op, "?") && op->conv == 's')
			return choice(b, op, a);
		return ff_compile_expr(b, op, a);
	default:
		return -1;
	}
}
