/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.c - report --json: an event as one line of JSON. */
#include <string.h>
#include "convert/report/json.h"
#include "convert/events/events.h"

static int json_with_file;	/* several -i: say which file (json.h) */

static const char hex[] = "0123456789abcdef";

static void put_escape(struct outbuf *o, uint8_t c)
{
	char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"':
		outbuf_put(o, "\\\"", 2);
		return;
	case '\\':
		outbuf_put(o, "\\\\", 2);
		return;
	case '\n':
		outbuf_put(o, "\\n", 2);
		return;
	case '\r':
		outbuf_put(o, "\\r", 2);
		return;
	case '\t':
		outbuf_put(o, "\\t", 2);
		return;
	}
	outbuf_put(o, u, sizeof(u));
}

void json_put_string(struct outbuf *o, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0, run = 0, len;

	outbuf_putc(o, '"');
	while (i < n) {
		uint8_t c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			continue;
		}
		len = c >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (len) {
			i += len;
			continue;
		}
		/* An escape: first the plain run before it. */
		outbuf_put(o, s + run, i - run);
		put_escape(o, c);
		run = ++i;
	}
	outbuf_put(o, s + run, i - run);
	outbuf_putc(o, '"');
}

void json_put_u64(struct outbuf *o, uint64_t v)
{
	char buf[20];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	outbuf_put(o, buf + i, sizeof(buf) - i);
}

void json_put_i64(struct outbuf *o, int64_t v)
{
	if (v >= 0) {
		json_put_u64(o, (uint64_t)v);
		return;
	}
	outbuf_putc(o, '-');
	json_put_u64(o, (uint64_t)0 - (uint64_t)v);	/* INT64_MIN too */
}

/* A string that ends at its NUL. */
static void put_cstring(struct outbuf *o, const char *s)
{
	json_put_string(o, s, strlen(s));
}

/* An n-byte integer (n = 1, 2, 4 or 8) in the file's byte order. */
static void put_number(struct outbuf *o, struct tep_handle *tep,
		       const uint8_t *p, size_t n, int is_signed)
{
	uint64_t v = tep_read_number(tep, p, (int)n);
	uint64_t sign = 1ull << (n * 8 - 1);

	if (!is_signed) {
		json_put_u64(o, v);
		return;
	}
	if (n < 8)	/* sign-extend */
		v = (v ^ sign) - sign;
	json_put_i64(o, (int64_t)v);
}

static int int_size(size_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* n bytes as an array of es-byte integers (bytes if es does not fit). */
static void put_array(struct outbuf *o, struct tep_handle *tep,
		      const uint8_t *p, size_t n, size_t es, int is_signed)
{
	size_t i;

	if (!int_size(es) || n % es) {
		es = 1;
		is_signed = 0;
	}
	outbuf_putc(o, '[');
	for (i = 0; i < n; i += es) {
		if (i)
			outbuf_putc(o, ',');
		put_number(o, tep, p + i, es, is_signed);
	}
	outbuf_putc(o, ']');
}

void json_put_place(struct outbuf *o, struct tep_handle *tep,
		    const struct field_place *fp, const uint8_t *data,
		    size_t size)
{
	const uint8_t *p, *nul;
	size_t start, len;

	if (field_place_span(tep, fp, data, size, &start, &len)) {
		outbuf_puts(o, "null");
		return;
	}
	p = data + start;
	switch (fp->k.read) {
	case FIELD_TEXT:
		nul = memchr(p, 0, len);
		json_put_string(o, (const char *)p, nul ? (size_t)(nul - p) :
							  len);
		break;
	case FIELD_INT:
		put_number(o, tep, p, len, fp->k.is_signed);
		break;
	case FIELD_LIST:
		put_array(o, tep, p, len, (size_t)fp->k.es, fp->k.is_signed);
		break;
	case FIELD_BYTES:
		put_array(o, tep, p, len, 1, 0);
		break;
	}
}

void json_put_field(struct outbuf *o, struct tep_handle *tep,
		    const struct tep_format_field *f, const uint8_t *data,
		    size_t size)
{
	struct field_place fp = { f, { 0 } };

	field_kind(f, &fp.k);
	json_put_place(o, tep, &fp, data, size);
}

/* ,"name":{ and ,"field": before each value. */
static void open_fields(struct outbuf *o, const char *name)
{
	outbuf_putc(o, ',');
	put_cstring(o, name);
	outbuf_puts(o, ":{");
}

static void put_name(struct outbuf *o, int first, const char *name)
{
	if (!first)
		outbuf_putc(o, ',');
	put_cstring(o, name);
	outbuf_putc(o, ':');
}

/* "name":{...} with each field of the event's layout, n places at p. */
static void put_places(struct outbuf *o, const char *name,
		       struct tep_handle *tep, const struct field_place *p,
		       int n, const struct tep_record *rec)
{
	int i;

	open_fields(o, name);
	for (i = 0; i < n; i++) {
		put_name(o, !i, p[i].f->name);
		json_put_place(o, tep, &p[i], rec->data, (size_t)rec->size);
	}
	outbuf_putc(o, '}');
}

/* The same from the format's list f, each field's kind worked out here
 * (no layout kept for the event). */
static void put_fields(struct outbuf *o, const char *name,
		       struct tep_handle *tep, const struct tep_format_field *f,
		       const struct tep_record *rec)
{
	const struct tep_format_field *first = f;

	open_fields(o, name);
	for (; f; f = f->next) {
		put_name(o, f == first, f->name);
		json_put_field(o, tep, f, rec->data, (size_t)rec->size);
	}
	outbuf_putc(o, '}');
}

/* ,"key": */
static void put_key(struct outbuf *o, const char *key)
{
	outbuf_putc(o, ',');
	put_cstring(o, key);
	outbuf_putc(o, ':');
}

void json_line(struct printer *p, const struct event_view *e)
{
	struct outbuf *o = p->o;
	struct tep_record *rec = e->rec;
	struct tep_event *ev = event_memo_find(&p->memo, e);
	const struct event_layout *l;
	int pid = e->pid;

	outbuf_puts(o, "{\"timestamp\":");
	json_put_u64(o, e->ts);
	put_key(o, "cpu");
	json_put_i64(o, rec->cpu);
	if (rec->missed_events) {	/* -1: some, the count unknown */
		put_key(o, "missed_events");
		json_put_i64(o, rec->missed_events < 0 ? -1 :
			     rec->missed_events);
	}
	put_key(o, "buffer");
	put_cstring(o, e->buffer ? e->buffer : "");
	if (json_with_file) {
		put_key(o, "file");
		put_cstring(o, e->path);
	}
	put_key(o, "pid");
	json_put_i64(o, pid);
	put_key(o, "comm");
	/* the reader's, in stream order: a worker's handle may not know
	 * the comms a plugin registered on the reader's (pipeline.c) */
	put_cstring(o, e->comm);
	if (!ev) {
		put_key(o, "type");
		json_put_i64(o, tep_data_type(e->tep, rec));
		outbuf_puts(o, ",\"system\":null,\"event\":null,"
			    "\"fields\":{}}\n");
		return;
	}
	put_key(o, "system");
	put_cstring(o, ev->system);
	put_key(o, "event");
	put_cstring(o, ev->name);
	l = event_memo_layout(p->memo, e, ev);
	if (l) {
		put_places(o, "common", e->tep, l->common, l->ncommon, rec);
		put_places(o, "fields", e->tep, l->fields, l->nfields, rec);
	} else {
		put_fields(o, "common", e->tep, ev->format.common_fields, rec);
		put_fields(o, "fields", e->tep, ev->format.fields, rec);
	}
	outbuf_puts(o, "}\n");
}

void json_printer_init(struct printer *p, int with_file)
{
	p->line = json_line;
	json_with_file = with_file;
}
