/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.c - report --json: an event as one line of JSON. */
#include <string.h>
#include "convert/report/json.h"
#include "convert/report/report.h"

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
		len = c >= 0x80 ? report_utf8_len(p + i, n - i) : 0;
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

void json_put_field(struct outbuf *o, struct tep_handle *tep,
		    const struct tep_format_field *f, const uint8_t *data,
		    size_t size)
{
	int is_signed = (f->flags & TEP_FIELD_IS_SIGNED) &&
			!report_field_is_raw_marker(f);
	size_t start, len;
	const uint8_t *p;

	if (report_field_span(tep, f, data, size, &start, &len)) {
		outbuf_puts(o, "null");
		return;
	}
	p = data + start;
	if (report_field_is_text(f)) {
		const uint8_t *nul = memchr(p, 0, len);

		json_put_string(o, (const char *)p, nul ? (size_t)(nul - p) :
							  len);
	} else if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		put_array(o, tep, p, len, f->elementsize, is_signed);
	} else if (int_size(len)) {
		/* pointers too: addresses are unsigned */
		put_number(o, tep, p, len, is_signed &&
			   !(f->flags & TEP_FIELD_IS_POINTER));
	} else {
		put_array(o, tep, p, len, 1, 0);
	}
}

/* "name":{...} with each field of the list f. */
static void put_fields(struct outbuf *o, const char *name,
		       struct tep_handle *tep, struct tep_format_field *f,
		       const struct tep_record *rec)
{
	const char *sep = "";

	outbuf_putc(o, ',');
	put_cstring(o, name);
	outbuf_puts(o, ":{");
	for (; f; f = f->next) {
		outbuf_puts(o, sep);
		put_cstring(o, f->name);
		outbuf_putc(o, ':');
		json_put_field(o, tep, f, rec->data, (size_t)rec->size);
		sep = ",";
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
	put_fields(o, "common", e->tep, ev->format.common_fields, rec);
	put_fields(o, "fields", e->tep, ev->format.fields, rec);
	outbuf_puts(o, "}\n");
}

void json_printer_init(struct printer *p, int with_file)
{
	p->line = json_line;
	json_with_file = with_file;
}
