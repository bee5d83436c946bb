/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recview.c - records libtraceevent cannot read past (see recview.h).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/events/recview.h"
#include "convert/tepfmt/tepfmt.h"
#include "libfmt/tracedat.h"

#define NO_ID 65536			/* common_type is 16 bits */
/* A format claiming more than this is not followed further: no real
 * event comes near it (a dynamic field reaches 128 KiB at most). */
#define MAX_VIEW (256u << 10)

struct recview_ids {
	uint32_t extent[NO_ID];	/* end of the last static field, + 1;
				 * 0 while not learnt */
	uint8_t dynamic[NO_ID];	/* has __data_loc or __rel_loc fields */
	uint8_t counts[NO_ID];	/* prints a count from the record */
	int type_off, type_size;	/* common_type; size 0 not looked up
					 * yet, -1 tep's way */
	int big;		/* the file's byte order */
};

struct recview_ids *recview_ids_new(void)
{
	return calloc(1, sizeof(struct recview_ids));
}

void recview_ids_free(struct recview_ids *ids)
{
	free(ids);
}

static uint32_t field_end(const struct tep_format_field *f)
{
	uint64_t end;

	if (f->offset < 0 || f->size < 0)
		return 0;
	end = (uint64_t)f->offset + (uint64_t)f->size;
	return end > MAX_VIEW ? MAX_VIEW : (uint32_t)end;
}

static void learn_fields(struct recview_ids *ids, int id,
			 const struct tep_format_field *f)
{
	for (; f; f = f->next) {
		if (field_end(f) + 1 > ids->extent[id])
			ids->extent[id] = field_end(f) + 1;
		if (f->flags & TEP_FIELD_IS_DYNAMIC)
			ids->dynamic[id] = 1;
	}
}

static void learn(struct recview_ids *ids, struct tep_handle *tep, int id)
{
	struct tep_event *ev = tep_find_event(tep, id);

	ids->extent[id] = 1;
	if (!ev)
		return;
	ids->counts[id] = (uint8_t)tepfmt_has_counts(ev);
	learn_fields(ids, id, ev->format.common_fields);
	learn_fields(ids, id, ev->format.fields);
}

/* Byte pos of the view: the record, then its page, then zeros. */
static uint8_t byte_at(const uint8_t *data, const uint8_t *page_end,
		       uint32_t pos)
{
	return (size_t)(page_end - data) > pos ? data[pos] : 0;
}

/*
 * Where the dynamic fields' descriptors send libtraceevent: it reads a
 * descriptor as wide as its field (the kernel's are 4 bytes; tepfmt
 * refuses others, but 1 and 2 would still point up to 64 KiB away).
 */
static uint32_t dynamic_end(struct tep_handle *tep, int id,
			    const uint8_t *data, const uint8_t *page_end,
			    uint32_t need)
{
	const struct tep_format_field *f;
	struct tep_event *ev = tep_find_event(tep, id);
	uint8_t d[4];
	uint64_t v, end;
	int k;

	for (f = ev ? ev->format.fields : NULL; f; f = f->next) {
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->offset < 0 ||
		    (f->size != 1 && f->size != 2 && f->size != 4))
			continue;
		for (k = 0; k < f->size; k++)
			d[k] = byte_at(data, page_end, (uint32_t)f->offset + k);
		v = tep_read_number(tep, d, f->size);
		/* an empty string is read where it starts: one byte then */
		end = (v & 0xffff) + ((v >> 16) ? (v >> 16) : 1);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			end += field_end(f);
		if (end > need)
			need = end > MAX_VIEW ? MAX_VIEW : (uint32_t)end;
	}
	return need;
}

/* need bytes in pad: the record, its page, zeros.  0 without memory. */
static uint32_t padded(struct recview_pad *pad, const uint8_t *data,
		       const uint8_t *page_end, uint32_t need)
{
	size_t have = (size_t)(page_end - data);
	uint8_t *p;

	if (need > pad->cap) {
		p = realloc(pad->buf, need);
		if (!p)
			return 0;
		pad->buf = p;
		pad->cap = need;
	}
	if (have > need)
		have = need;
	memcpy(pad->buf, data, have);
	memset(pad->buf + have, 0, need - have);
	return need;
}

/*
 * The view of need bytes (at least the record), made to end on a NUL:
 * libtraceevent prints a char array whose bytes are all printable with
 * "%s", reading on past it until a NUL.  Any string starts before need,
 * so a NUL at or after need - 1 stops every one: the view goes on in
 * the page up to the first such NUL, or one zero byte after the page.
 */
static uint32_t view(struct tep_record *rec, const uint8_t *data,
		     uint32_t size, const uint8_t *page_end, uint32_t need,
		     struct recview_pad *pad)
{
	size_t avail = (size_t)(page_end - data);
	const uint8_t *nul;
	uint32_t end = need > size ? need : size;

	if (!end)
		end = 1;
	if (end <= avail) {
		nul = memchr(data + end - 1, 0, avail - (end - 1));
		end = nul ? (uint32_t)(nul - data) + 1 : (uint32_t)avail + 1;
	}
	if (end <= avail)
		return end;	/* the record in its page */
	end = padded(pad, data, page_end, end);
	if (end)
		rec->data = pad->buf;
	return end;
}

int recview_common_place(struct tep_handle *tep, struct tep_event *ev,
			 const char *name, int *off, int *size)
{
	struct tep_format_field *f;

	if (!ev && tep_get_events_count(tep) > 0)
		ev = tep_get_event(tep, 0);
	f = ev ? tep_find_common_field(ev, name) : NULL;
	if (!f || f->offset < 0 || (f->size != 2 && f->size != 4) ||
	    (f->flags & TEP_FIELD_IS_DYNAMIC))
		return -1;
	*off = f->offset;
	*size = f->size;
	return 0;
}

/* Where tep_data_type reads common_type. */
static void learn_type(struct recview_ids *ids, struct tep_handle *tep)
{
	ids->type_size = -1;
	ids->big = tep_is_file_bigendian(tep);
	recview_common_place(tep, NULL, "common_type", &ids->type_off,
			     &ids->type_size);
}

/* The event's type as tep_data_type reads it, without its field-by-field
 * read for every event. */
static int record_type(struct recview_ids *ids, struct tep_handle *tep,
		       struct tep_record *rec, uint32_t size)
{
	const uint8_t *p;

	if (!ids->type_size)
		learn_type(ids, tep);
	if (ids->type_size < 0 ||
	    size < (uint32_t)(ids->type_off + ids->type_size))
		return tep_data_type(tep, rec);
	p = (const uint8_t *)rec->data + ids->type_off;
	if (ids->type_size == 4)
		return (int)tdat_load32(ids->big, p);
	return tdat_load16(ids->big, p);
}

uint32_t recview_fill(struct recview_ids *ids, struct tep_handle *tep,
		      struct tep_record *rec, const uint8_t *data,
		      uint32_t size, const uint8_t *page_end,
		      struct recview_pad *pad, int *type)
{
	uint32_t need = 0, got;
	int id;

	rec->data = (void *)data;
	id = record_type(ids, tep, rec, size);
	if (type)
		*type = id;
	if (id >= 0 && id < NO_ID) {
		if (!ids->extent[id])
			learn(ids, tep, id);
		need = ids->extent[id] - 1;
		if (ids->dynamic[id])
			need = dynamic_end(tep, id, data, page_end, need);
	}
	got = view(rec, data, size, page_end, need, pad);
	if (got && id >= 0 && id < NO_ID && ids->counts[id])
		tepfmt_bound_counts(tep, rec, size);
	return got;
}
