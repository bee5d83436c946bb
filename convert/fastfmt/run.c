/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - a compiled print fmt over one record: the numbers formatted
 * by hand as printf formats them (libtraceevent hands each conversion
 * to printf with the value converted to the conversion's C type).
 */
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

#define NUM_ROOM 96	/* a number's text: width <= 64, or 20 digits + 3 */

int ff_put(struct ff_out *o, const char *s, size_t n)
{
	if (n > o->cap - o->n)
		return -1;
	tdat_copy_short(o->p + o->n, s, n);
	o->n += n;
	return 0;
}

/* Digits of v in base 10 or 16 at the end of buf (end): their start.
 * Each base has its own loop: a division by a constant is a multiply,
 * by a variable base a slow divide for every digit. */
static char *digits(char *end, uint64_t v, char conv)
{
	const char *set = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";

	if (conv != 'x' && conv != 'X') {
		do {
			*--end = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		return end;
	}
	do {
		*--end = set[v & 15];
		v >>= 4;
	} while (v);
	return end;
}

/* v as the conversion's C type: its magnitude, *neg for a negative. */
static uint64_t typed(const struct ff_op *op, uint64_t v, int *neg)
{
	uint64_t sign;

	if (op->bits < 64)
		v &= ((uint64_t)1 << op->bits) - 1;
	*neg = 0;
	if (op->conv != 'd' && op->conv != 'i')
		return v;
	sign = (uint64_t)1 << (op->bits - 1);
	if (!(v & sign))
		return v;
	*neg = 1;
	/* the two's complement magnitude within bits */
	return op->bits < 64 ? ((uint64_t)1 << op->bits) - v : (uint64_t)0 - v;
}

/* A number as printf's %[-0#][width][length]conv prints it. */
static int put_number(struct ff_out *o, const struct ff_op *op, uint64_t raw)
{
	char buf[NUM_ROOM], *end = buf + sizeof(buf), *d, *s;
	int neg, zeros;
	uint64_t v = typed(op, raw, &neg);
	size_t body, pad;

	d = digits(end, v, op->conv);
	s = d;
	body = (size_t)(end - d);
	if ((op->flags & FF_ZERO) && !(op->flags & FF_LEFT)) {
		zeros = (int)op->width - (int)body - neg -
			((op->flags & FF_ALT) && v ? 2 : 0);
		while (zeros-- > 0)
			*--s = '0';
	}
	if ((op->flags & FF_ALT) && v) {
		*--s = op->conv;	/* 'x' or 'X' */
		*--s = '0';
	}
	if (neg)
		*--s = '-';
	body = (size_t)(end - s);
	pad = op->width > body ? op->width - body : 0;
	if (!(op->flags & FF_LEFT))
		while (pad)
			*--s = ' ', pad--;
	if (ff_put(o, s, (size_t)(end - s)))
		return -1;
	for (; pad; pad--)
		if (ff_put(o, " ", 1))
			return -1;
	return 0;
}

/* %p: glibc's "(nil)", or 0x and the hex of the pointer, whole as
 * x86_64 prints it (a 32-bit host's libtraceevent casts the value to its
 * own pointer and cuts it to 32 bits). */
int ff_put_hex(struct ff_out *o, uint64_t v)
{
	char buf[24], *end = buf + sizeof(buf), *s;

	s = digits(end, v, 'x');
	*--s = 'x';
	*--s = '0';
	return ff_put(o, s, (size_t)(end - s));
}

static int put_pointer(struct ff_out *o, uint64_t v)
{
	return v ? ff_put_hex(o, v) : ff_put(o, "(nil)", 5);
}

/*
 * __get_str: from the data loc's offset to the first NUL.  libtraceevent
 * prints nothing for a length of 0 or one past the record, and reads on
 * past the length to the NUL: only strings whose length and NUL are
 * inside the record are printed here.
 */
static int put_dyn(struct ff_out *o, const struct fastfmt *f,
		   const struct ff_op *op, const uint8_t *data, uint32_t size)
{
	uint32_t loc = tdat_load32(f->big, data + op->off);
	uint32_t at = loc & 0xffff, len = loc >> 16;
	const uint8_t *end;

	if (!len || at + len > size)
		return -1;
	end = memchr(data + at, 0, size - at);
	if (!end)
		return -1;
	return ff_put(o, (const char *)data + at, (size_t)(end - (data + at)));
}

/* An FF_NUM's or FF_PTR's number: its field, or its expression. */
static uint64_t value(const struct fastfmt *f, const struct ff_op *op,
		      const uint8_t *data)
{
	if (op->expr)
		return ff_eval(f, op->expr - 1, data);
	return tdat_load_n(f->big, data + op->off, op->size);
}

static int run_op(struct ff_out *o, const struct fastfmt *f,
		  const struct ff_op *op, const uint8_t *data, uint32_t size)
{
	const char *t = f->text;

	if (ff_put(o, t + op->lit, op->lit_len))
		return -1;
	if (op->cond_size &&
	    !(tdat_load_n(f->big, data + op->cond_off, op->cond_size) &
	      op->cond_mask))
		return ff_put(o, t + op->no, op->no_len);
	switch (op->kind) {
	case FF_NUM:
		return put_number(o, op, value(f, op, data));
	case FF_PTR:
		return put_pointer(o, value(f, op, data));
	case FF_STR_FIXED:
		return ff_put(o, (const char *)data + op->off,
			   strnlen((const char *)data + op->off, op->len));
	case FF_STR_DYN:
		return put_dyn(o, f, op, data, size);
	case FF_SYM:
		return ff_run_symbol(o, f, op,
				     tdat_load_n(f->big, data + op->off, op->size));
	case FF_FLAGS:
	case FF_SYMBOLIC:
		return ff_run_table(o, f, op,
				    tdat_load_n(f->big, data + op->off, op->size));
	default:	/* FF_CHOICE: its condition held */
		return ff_put(o, t + op->yes, op->yes_len);
	}
}

int fastfmt_print(const struct fastfmt *f, const uint8_t *data,
		  uint32_t size, char *out, size_t cap)
{
	struct ff_out o = { out, 0, cap };
	int i;

	if (size < f->need || cap > (size_t)INT32_MAX)
		return -1;
	if (f->site_size && ff_run_plugin(&o, f, data))
		return -1;
	for (i = 0; i < f->nops; i++)
		if (run_op(&o, f, &f->ops[i], data, size))
			return -1;
	if (ff_put(&o, f->text + f->tail, f->tail_len))
		return -1;
	return (int)o.n;
}
