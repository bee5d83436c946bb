/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fieldlist.c - an event's fields as " name=value" pairs: the text
 * libtraceevent gives -R and events it could not parse ("[FAILED TO
 * PARSE]"), with a signed char printed signed on every host.
 *
 * libtraceevent prints a signed 1-byte field through the host's plain
 * char, so -5 comes out as 251 where char is unsigned (s390x, ARM).
 * The reference is trace-cmd on x86_64, where char is signed.  Events
 * with such a field are printed here: every other field through
 * libtraceevent's own tep_print_field_content, the signed 1-byte ones
 * as it prints them on x86_64.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/tepfmt/tepfmt.h"
#include "libfmt/tracedat.h"

static int is_signed_char(const struct tep_format_field *f)
{
	return f->size == 1 && (f->flags & TEP_FIELD_IS_SIGNED) &&
	       !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_POINTER));
}

/* A pointer field the print fmt gives whole to tepfmt's wide helper (a
 * plain %p on a host whose pointers are narrower than the file's: a
 * helper's %s of the field alone, wideptr.c). */
static int is_wide_pointer(const struct tep_event *ev,
			   const struct tep_format_field *f)
{
	const struct tep_print_arg *a;

	if (f->size != 8 || !(f->flags & TEP_FIELD_IS_POINTER) ||
	    (f->flags & TEP_FIELD_IS_ARRAY) || !tepfmt_cuts_pointers(ev->tep))
		return 0;
	for (a = ev->print_fmt.args; a; a = a->next)
		if (a->type == TEP_PRINT_FUNC && a->func.args &&
		    !a->func.args->next &&
		    a->func.args->type == TEP_PRINT_FIELD &&
		    a->func.args->field.name &&
		    !strcmp(a->func.args->field.name, f->name))
			return 1;
	return 0;
}

int fieldlist_wanted(const struct tep_event *ev, int raw)
{
	const struct tep_format_field *f;
	int listed = raw || (ev->flags & TEP_EVENT_FL_PRINTRAW) ||
		     ((ev->flags & TEP_EVENT_FL_FAILED) &&
		      (!ev->handler || (ev->flags & TEP_EVENT_FL_NOHANDLE)));

	if (!listed)
		return 0;
	for (f = ev->format.fields; f; f = f->next)
		if (is_signed_char(f))
			return 1;
	return 0;
}

void fieldlist_print(struct trace_seq *s, struct tep_event *ev,
		     struct tep_record *rec, int raw, uint32_t readable)
{
	struct tep_format_field *f;
	const unsigned char *data = rec->data;

	if (!raw && !(ev->flags & TEP_EVENT_FL_PRINTRAW))
		trace_seq_puts(s, "[FAILED TO PARSE]");
	for (f = ev->format.fields; f; f = f->next) {
		trace_seq_printf(s, " %s=", f->name);
		if (!is_signed_char(f))
			tep_print_field_content(s, rec->data, rec->size, f);
		else if (f->offset >= 0 && (uint32_t)f->offset < readable)
			trace_seq_printf(s, "%d", (signed char)data[f->offset]);
	}
}

/* Turn the first " NAME=0x0" after from (ending the text or followed by
 * a space) into " NAME=(nil)". */
static void nil_for_zero(struct trace_seq *s, unsigned int from,
			 const char *name)
{
	const char *p = s->buffer + from, *end = s->buffer + s->len, *at;
	char pat[160], *tail;
	int n = snprintf(pat, sizeof(pat), " %s=0x0", name);

	if (n < 0 || (size_t)n >= sizeof(pat))
		return;
	for (;; p = at + 1) {
		at = p < end ? memmem(p, (size_t)(end - p), pat, (size_t)n) :
			       NULL;
		if (!at)
			return;
		if (at + n == end || at[n] == ' ')
			break;
	}
	tail = strndup(at + n, (size_t)(end - at - n));
	if (!tail)
		return;
	s->len = (unsigned int)(at + n - 3 - s->buffer);
	trace_seq_puts(s, "(nil)");
	trace_seq_puts(s, tail);
	free(tail);
}

void fieldlist_wide_nils(struct trace_seq *s, unsigned int from,
			 const struct tep_event *ev,
			 const struct tep_record *rec, uint32_t readable)
{
	const struct tep_format_field *f;
	const unsigned char *data = rec->data;

	if (!tepfmt_cuts_pointers(ev->tep))
		return;
	for (f = ev->format.fields; f; f = f->next)
		if (is_wide_pointer(ev, f) && f->offset >= 0 &&
		    (uint32_t)f->offset + 8 <= readable &&
		    !tdat_load64(tep_is_file_bigendian(ev->tep),
				 data + f->offset))
			nil_for_zero(s, from, f->name);
}
