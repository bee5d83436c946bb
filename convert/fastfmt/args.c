/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args.c - one argument of a print fmt, as the conversion paired with
 * it takes it (fastfmt.h lists the kinds compiled).  Fields are taken
 * only as libtraceevent resolved them while parsing.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"

/* The record must hold off + size bytes for op to be printed here. */
static void need(struct ff_builder *b, uint32_t off, uint32_t size)
{
	if (off + size > b->f->need)
		b->f->need = off + size;
}

static int is_number(const struct tep_format_field *f)
{
	return f && f->offset >= 0 &&
	       !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* A number field with a number conversion, or %p. */
static int number(struct ff_builder *b, struct ff_op *op,
		  const struct tep_format_field *f)
{
	if (!is_number(f) || op->conv == 's')
		return -1;
	op->kind = op->conv == 'p' ? FF_PTR : FF_NUM;
	op->off = (uint32_t)f->offset;
	op->size = (uint8_t)f->size;
	need(b, op->off, op->size);
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
	need(b, op->off, op->len);
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
	need(b, op->off, 4);
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
	need(b, (uint32_t)f->offset, (uint32_t)f->size);
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

/* %s of REC->field ? "yes" : "no". */
static int choice(struct ff_builder *b, struct ff_op *op,
		  const struct tep_print_arg *a)
{
	const struct tep_print_arg *c = a->op.left, *r = a->op.right;
	const struct tep_format_field *f = field_of(b, c);

	if (op->conv != 's' || !is_number(f) || !r || r->type != TEP_PRINT_OP ||
	    !r->op.op || strcmp(r->op.op, ":") ||
	    atom_text(b, r->op.left, &op->yes, &op->yes_len) ||
	    atom_text(b, r->op.right, &op->no, &op->no_len))
		return -1;
	op->kind = FF_CHOICE;
	op->off = (uint32_t)f->offset;
	op->size = (uint8_t)f->size;
	need(b, op->off, op->size);
	return 0;
}

int ff_compile_arg(struct ff_builder *b, struct ff_op *op,
		   struct tep_print_arg *a)
{
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return field(b, op, a);
	case TEP_PRINT_STRING:
		return dyn_string(b, op, a);
	case TEP_PRINT_TYPE:
		return cast(b, op, a);
	case TEP_PRINT_OP:
		if (a->op.op && !strcmp(a->op.op, "["))
			return element(b, op, a);
		if (a->op.op && !strcmp(a->op.op, "?"))
			return choice(b, op, a);
		return -1;
	default:
		return -1;
	}
}
