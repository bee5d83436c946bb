/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recview.h - records libtraceevent cannot read past.
 *
 * libtraceevent reads an event's fields where its format says they are,
 * whatever the record's size: a static array at the end of the format
 * (kernel_stack's caller[8]) is read whole even when the kernel wrote
 * only part of it, and a dynamic field's descriptor is followed wherever
 * it points; a char array is printed with "%s", up to a NUL that may
 * lie past it.  recview_fill() hands it the record itself when
 * everything it can read lies inside its page, else a copy that goes on
 * with the bytes that follow the record in its page (what trace-cmd
 * shows there) and zeros past the page's end (trace-cmd shows whatever
 * follows its page buffer in memory: nothing to match).
 *
 * __print_array, __print_hex and __print_hex_str read as many elements
 * as a count taken from the record says: recview_fill() also bounds
 * those counts of tep's event by the record (tepfmt_bound_counts), and
 * a handle that prints a copy of the record must do so itself.
 */
#ifndef EVENTS_RECVIEW_H
#define EVENTS_RECVIEW_H

#include <stdint.h>
#include <event-parse.h>

/* Per input: each event id's static extent, learnt on first use. */
struct recview_ids;

struct recview_ids *recview_ids_new(void);
void recview_ids_free(struct recview_ids *ids);

/* A copy's bytes, reused from event to event (one per CPU stream). */
struct recview_pad {
	uint8_t *buf;
	uint32_t cap;
};

/*
 * Point rec->data at readable bytes for the event at data (size bytes,
 * page_end the end of its page) and return how many may be read there:
 * size when the record holds all its fields and ends on a NUL, more when
 * they go on in the page up to a NUL or into a padded copy in pad (its
 * last byte is a NUL then).  rec->size stays the record's size.  0 when
 * out of memory.  *type (when type is not NULL) is the event's type, as
 * tep_data_type reads it.
 */
uint32_t recview_fill(struct recview_ids *ids, struct tep_handle *tep,
		      struct tep_record *rec, const uint8_t *data,
		      uint32_t size, const uint8_t *page_end,
		      struct recview_pad *pad, int *type);

/*
 * Where a common field (common_type, common_pid) of ev lies, for a
 * reader that reads it in place as libtraceevent reads it: a fixed
 * number of 2 or 4 bytes at *off, *size.  ev NULL: tep's first event,
 * whose common fields are every event's.  0, or -1 (no such field in a
 * form read in place: leave it to libtraceevent; *off and *size are left
 * as they are).
 */
int recview_common_place(struct tep_handle *tep, struct tep_event *ev,
			 const char *name, int *off, int *size);

#endif
