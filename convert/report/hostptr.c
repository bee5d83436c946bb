/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostptr.c - values libtraceevent reads in the host's byte order.
 *
 * libtraceevent reads every field through the file's byte order but
 * two: a pointer to char printed with %s (rcu_utilization's s, amdgpu's
 * ring_name: looked up among the printk strings, or printed in hex) and
 * __print_array's elements.  Those it reads in the host's order, so
 * trace-cmd's text for them depends on the host.  The reference is
 * trace-cmd on a little-endian host (x86_64), which reads them as
 * little endian whatever the file's order: on a big-endian host the
 * text is printed from a copy of the record with those bytes turned so
 * that the host reads what a little-endian one would.  Only fields the
 * print fmt takes with %s alone are turned (%p and %lx read right), not
 * ftrace's own events (bprint's fmt is a number).  -R's text reads such
 * a field the same way (a printk string, else hex), the arrays not.
 * -F's filters read a __data_loc string's offset and length in the
 * host's order too (host_dataloc).
 */
#include <ctype.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/tepfmt/tepfmt.h"
#include "libfmt/tracedat.h"

static int printed_as_string(const struct tep_event *ev, const char *name);

static int is_pointer(const struct tep_format_field *f, int long_size)
{
	return (f->flags & TEP_FIELD_IS_POINTER) &&
	       !(f->flags & TEP_FIELD_IS_ARRAY) && f->size == long_size;
}

/* A field libtraceevent reads in the host's order: a char pointer the
 * print fmt takes with %s alone. */
static int read_as_host(const struct tep_event *ev,
			const struct tep_format_field *f, int long_size)
{
	return is_pointer(f, long_size) && f->type &&
	       strstr(f->type, "char") && printed_as_string(ev, f->name);
}

#define MAX_CONV 64

/* The conversion letter of each argument fmt takes, in order (a '*'
 * width or precision takes one of its own, shown as '*'); how many. */
static int conversions(const char *fmt, char *conv)
{
	int n = 0;

	for (; *fmt; fmt++) {
		if (*fmt != '%' || *++fmt == '%')
			continue;
		fmt += strspn(fmt, "-+ #0");
		if (*fmt == '*' && n < MAX_CONV)
			conv[n++] = *fmt++;
		while (isdigit((unsigned char)*fmt))
			fmt++;
		if (*fmt == '.' && *++fmt == '*' && n < MAX_CONV)
			conv[n++] = *fmt++;
		while (isdigit((unsigned char)*fmt))
			fmt++;
		fmt += strspn(fmt, "hlLqjzt");
		if (!*fmt)
			break;
		if (n < MAX_CONV)
			conv[n++] = *fmt;
	}
	return n;
}

/* Does ev's print fmt take the field named name, as an argument of its
 * own, only with %s? */
static int printed_as_string(const struct tep_event *ev, const char *name)
{
	const struct tep_print_arg *a;
	char conv[MAX_CONV];
	int n, i = 0, as_s = 0;

	if (!ev->print_fmt.format)
		return 0;
	n = conversions(ev->print_fmt.format, conv);
	for (a = ev->print_fmt.args; a; a = a->next, i++) {
		if (a->type != TEP_PRINT_FIELD || !a->field.name ||
		    strcmp(a->field.name, name))
			continue;
		if (i >= n || conv[i] != 's')
			return 0;
		as_s = 1;
	}
	return as_s;
}

#define MAX_ARRAYS 8

/* The number at p, read as little endian, stored in the host's order
 * (big endian: only then is anything turned). */
static void to_host(uint8_t *p, int size)
{
	if (size == 8)
		tdat_store64(1, p, tdat_load64(0, p));
	else if (size == 4)
		tdat_store32(1, p, tdat_load32(0, p));
	else
		tdat_store16(1, p, tdat_load16(0, p));
}

/* A copy of e's record in buf, tmp its record: 0, or -1. */
static int copy_of(const struct event_view *e, struct tep_record *tmp,
		   struct tdat_bytes *buf)
{
	tdat_bytes_reset(buf);
	if (tdat_bytes_add(buf, e->rec->data, e->readable))
		return -1;
	*tmp = *e->rec;
	tmp->data = buf->data;
	return 0;
}

/* __print_array's elements in the host's order, in the copy. */
static int arrays_to_host(const struct event_view *e, struct tep_event *ev,
			  struct tep_record *tmp, struct tdat_bytes *buf,
			  int *copied)
{
	struct tepfmt_span sp[MAX_ARRAYS];
	uint32_t k, off;
	int n, i;

	n = tepfmt_int_arrays(ev, e->rec->data, (uint32_t)e->rec->size, sp,
			      MAX_ARRAYS);
	for (i = 0; i < n; i++) {
		if (!*copied && copy_of(e, tmp, buf))
			return -1;
		*copied = 1;
		for (k = 0; k < sp[i].bytes; k += sp[i].elem) {
			off = sp[i].start + k;
			to_host(buf->data + off, (int)sp[i].elem);
		}
	}
	return 0;
}

const struct tep_record *host_pointers(const struct event_view *e,
				       struct tep_event *ev, int raw,
				       struct tep_record *tmp,
				       struct tdat_bytes *buf)
{
	int long_size = tep_get_long_size(e->tep), copied = 0;
	const struct tep_format_field *f;

	/* ftrace's own events (bprint's fmt) are read as numbers */
	if (!tdat_host_big_endian() || (long_size != 4 && long_size != 8) ||
	    (ev->system && !strcmp(ev->system, "ftrace")))
		return e->rec;
	for (f = ev->format.fields; f; f = f->next) {
		if (f->offset < 0 ||
		    (uint32_t)f->offset + (uint32_t)f->size > e->readable ||
		    !read_as_host(ev, f, long_size))
			continue;
		if (!copied && copy_of(e, tmp, buf))
			return NULL;
		copied = 1;
		to_host(buf->data + f->offset, f->size);
	}
	if (!raw && arrays_to_host(e, ev, tmp, buf, &copied))
		return NULL;
	return copied ? tmp : e->rec;
}

const struct tep_record *host_dataloc(struct tep_handle *tep,
				      struct tep_record *rec,
				      uint32_t readable, struct tep_record *tmp,
				      struct tdat_bytes *buf)
{
	const struct tep_format_field *f;
	struct tep_event *ev;
	int copied = 0;

	if (!tdat_host_big_endian() || !(ev = tep_find_event_by_record(tep, rec)))
		return rec;
	for (f = ev->format.fields; f; f = f->next) {
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) ||
		    !(f->flags & TEP_FIELD_IS_STRING) || f->offset < 0 ||
		    (uint32_t)f->offset + 4 > readable)
			continue;
		if (!copied) {
			tdat_bytes_reset(buf);
			if (tdat_bytes_add(buf, rec->data, readable))
				return NULL;
			*tmp = *rec;
			tmp->data = buf->data;
			copied = 1;
		}
		to_host(buf->data + f->offset, 4);
	}
	return copied ? tmp : rec;
}
