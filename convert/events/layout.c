/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.c - an event type's fields and what each is (field_kind),
 * worked out once: --json, the Parquet columns and the Perfetto fields
 * all read events through it.
 */
#include <stdlib.h>
#include "convert/events/events.h"

static int count(const struct tep_format_field *f)
{
	int n = 0;

	for (; f; f = f->next)
		n++;
	return n;
}

/* The places of the list f, in *out (n of them).  0 or -1. */
static int places(const struct tep_format_field *f, struct field_place **out,
		  int *n)
{
	int k = count(f);

	*n = 0;
	*out = calloc((size_t)k + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (; f; f = f->next, (*n)++) {
		(*out)[*n].f = f;
		field_kind(f, &(*out)[*n].k);
	}
	return 0;
}

struct event_layout *event_layout_new(const struct tep_event *ev)
{
	struct event_layout *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->ev = ev;
	if (places(ev->format.common_fields, &l->common, &l->ncommon) ||
	    places(ev->format.fields, &l->fields, &l->nfields)) {
		event_layout_free(l);
		return NULL;
	}
	return l;
}

void event_layout_free(struct event_layout *l)
{
	if (!l)
		return;
	free(l->common);
	free(l->fields);
	free(l);
}

int field_place_span(struct tep_handle *tep, const struct field_place *p,
		     const uint8_t *data, size_t size, size_t *start,
		     size_t *len)
{
	const struct tep_format_field *f = p->f;

	if (!p->k.fixed)
		return field_span(tep, f, data, size, start, len);
	if (f->offset < 0 || f->size < 0 || (size_t)f->offset > size ||
	    (size_t)f->size > size - (size_t)f->offset)
		return -1;
	*start = (size_t)f->offset;
	*len = (size_t)f->size;
	return 0;
}
