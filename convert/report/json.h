/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - report --json: one JSON object per event, every field by name
 * with a typed value.  The object's schema is in tdat-report(1).
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "convert/report/print.h"
#include "convert/events/events.h"

/*
 * The writers below are pure: they append to o and nothing else, so the
 * unit tests call them directly.
 */

/* n bytes of s as a JSON string, quotes included: '"' and '\\'
 * escaped, \n \r \t as such, other bytes below 0x20 and 0x7f as \u00XX,
 * valid UTF-8 as it is, and each byte that is not part of valid UTF-8 as
 * \u00XX (the character with the byte's value, as Latin-1 reads it). */
void json_put_string(struct outbuf *o, const char *s, size_t n);
/* Exact decimal integers, every 64-bit value. */
void json_put_u64(struct outbuf *o, uint64_t v);
void json_put_i64(struct outbuf *o, int64_t v);
/*
 * Field f of an event whose payload is data[0..size): a number, a
 * string, an array of numbers, or null when the field lies outside the
 * payload.  tep gives the file's byte order.
 */
void json_put_field(struct outbuf *o, struct tep_handle *tep,
		    const struct tep_format_field *f, const uint8_t *data,
		    size_t size);
/* The same for a field whose kind is worked out (an event_layout's). */
void json_put_place(struct outbuf *o, struct tep_handle *tep,
		    const struct field_place *fp, const uint8_t *data,
		    size_t size);

/* Make p print JSON lines.  with_file: each object names its input file
 * ("file"), for reports of several -i files. */
void json_printer_init(struct printer *p, int with_file);
/* What json_printer_init installs as p->line. */
void json_line(struct printer *p, const struct event_view *e);

#endif
