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
#include "convert/report/print.h"

static int is_signed_char(const struct tep_format_field *f)
{
	return f->size == 1 && (f->flags & TEP_FIELD_IS_SIGNED) &&
	       !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_POINTER));
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
