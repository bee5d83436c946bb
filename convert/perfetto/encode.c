/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * encode.c - one event as an FtraceEvent: its timestamp (report's, every
 * correction applied), its pid (always written: trace_processor drops an
 * event without one), and one payload message whose field number says
 * the event, its fields read where the format says, in the file's byte
 * order, by the rules --json follows.  A field that lies outside its
 * record is left out, as --json shows it null.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

enum { EV_TIMESTAMP = 1, EV_PID = 2, BUNDLE_EVENT = 2, BUNDLE_DESC = 11 };

#define FAST_TEXTS 8		/* text fields an event of the fast way has */

/* An n-byte number, sign-extended to 64 bits when it is signed. */
static uint64_t number(int big, const uint8_t *p, int n, int is_signed)
{
	uint64_t v = tdat_load_n(big, p, n), sign;

	if (is_signed && n < 8) {
		sign = 1ull << (n * 8 - 1);
		v = (v ^ sign) - sign;
	}
	return v;
}

/* Where pf's bytes are in e's record: 0, or -1 outside it. */
static int span(const struct stream_event *e, const struct pf_field *pf,
		size_t *start, size_t *len)
{
	return field_place_span(e->tep, &pf->place, e->rec->data,
				(size_t)e->rec->size, start, len);
}

/* The length of the text at p up to its NUL (or len); *ascii whether
 * it is plain ASCII, which goes out as it is. */
static size_t text_len(const uint8_t *p, size_t len, int *ascii)
{
	const uint8_t *nul = memchr(p, 0, len);
	size_t n = nul ? (size_t)(nul - p) : len, i;

	for (i = 0; i < n && p[i] < 0x80; i++)
		;
	*ascii = i == n;
	return n;
}

/* Text up to its NUL, made UTF-8 as --json makes it. */
static void put_text(struct encoder *x, struct pb *b, uint32_t num,
		     const uint8_t *p, size_t len)
{
	int ascii;
	size_t n = text_len(p, len, &ascii);

	if (ascii) {
		pb_bytes(b, num, p, n);
		return;
	}
	tdat_bytes_reset(&x->text);
	if (utf8_add(&x->text, (const char *)p, n)) {
		b->failed = 1;
		return;
	}
	pb_bytes(b, num, x->text.data, x->text.len);
}

static void add_decimal(struct tdat_bytes *t, uint64_t v, int negative)
{
	char buf[24];
	size_t i = sizeof(buf);

	if (negative)
		v = (uint64_t)0 - v;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		buf[--i] = '-';
	tdat_bytes_add(t, buf + i, sizeof(buf) - i);
}

/* An array as the text --json prints for it: "[1,2,3]". */
static void put_array(struct encoder *x, struct pb *b, int big,
		      const struct pf_field *pf, const uint8_t *p, size_t len)
{
	int es = pf->place.k.read == FIELD_LIST ? pf->place.k.es : 1;
	int is_signed = pf->place.k.read == FIELD_LIST && pf->place.k.is_signed;
	struct tdat_bytes *t = &x->text;
	uint64_t v;
	size_t i;

	if (len % (size_t)es) {	/* not whole elements: bytes */
		es = 1;
		is_signed = 0;
	}
	tdat_bytes_reset(t);
	tdat_bytes_add(t, "[", 1);
	for (i = 0; i < len; i += (size_t)es) {
		if (i)
			tdat_bytes_add(t, ",", 1);
		v = number(big, p + i, es, is_signed);
		add_decimal(t, v, is_signed && (int64_t)v < 0);
	}
	if (tdat_bytes_add(t, "]", 1)) {
		b->failed = 1;
		return;
	}
	pb_bytes(b, pf->num, t->data, t->len);
}

/* sys_enter's args: one tag an element. */
static void put_repeated(struct pb *b, int big, const struct pf_field *pf,
			 const uint8_t *p, size_t len)
{
	int es = pf->place.k.read == FIELD_LIST ? pf->place.k.es : pf->place.k.size;
	size_t i;

	if (es != 1 && es != 2 && es != 4 && es != 8)
		return;
	for (i = 0; i + (size_t)es <= len; i += (size_t)es)
		pb_uint(b, pf->num, number(big, p + i, es, pf->place.k.is_signed));
}

/* An event names pid on its input's machine. */
static void name_pid(struct encoder *x, int input, uint64_t pid)
{
	uint8_t **bits = &x->named[input];

	if (pid >= PF_NAMED_PIDS)
		return;
	if (!*bits)
		*bits = calloc(PF_NAMED_PIDS / 8, 1);
	if (!*bits) {
		x->failed = 1;
		return;
	}
	(*bits)[pid >> 3] |= (uint8_t)(1u << (pid & 7));
}

static void put_field(struct encoder *x, struct pb *b, int big,
		      const struct pf_field *pf, const struct stream_event *e)
{
	const uint8_t *p;
	size_t start, len;
	uint64_t v;

	if (span(e, pf, &start, &len))
		return;
	p = (const uint8_t *)e->rec->data + start;
	switch (pf->type) {
	case PT_STR:
		put_text(x, b, pf->num, p, len);
		break;
	case PT_U64_REP:
		put_repeated(b, big, pf, p, len);
		break;
	case PT_JSON:
		put_array(x, b, big, pf, p, len);
		break;
	case PT_S64:
		pb_sint(b, pf->num, (int64_t)number(big, p, pf->place.k.size, 1));
		break;
	default:
		v = number(big, p, pf->place.k.size, pf->place.k.is_signed);
		if (pf->state && x->states[e->input])
			v = task_state_write(x->states[e->input], v);
		pb_uint(b, pf->num, v);
		if (pf->names)
			name_pid(x, e->input, v);
		if (pf->symbol && syms_add(&x->syms[e->input], v))
			x->failed = 1;
		break;
	}
}

/* GenericFtraceEvent.Field: name, then str (3), int (4) or uint (5). */
static void put_legacy_field(struct encoder *x, struct pb *b, int big,
			     const struct pf_field *pf,
			     const struct stream_event *e)
{
	struct pf_field v = *pf;
	struct pb_mark m;

	m = pb_open(b, 2, 1);
	pb_string(b, 1, pf->place.f->name);
	v.num = pf->type == PT_S64 ? 4 : pf->type == PT_U64 ? 5 : 3;
	if (v.type == PT_S64)	/* int_value is a plain int64 */
		v.type = PT_I64;
	put_field(x, b, big, &v, e);
	pb_close(b, m);
}

/* trace_processor reads a print as atrace text ("B|pid|name", "E|pid",
 * "C|pid|name|value"...) and counts any other text as an import error:
 * only the former go typed. */
static int is_atrace(const struct pf_map *m, const struct stream_event *e)
{
	const uint8_t *p;
	size_t start, len;
	int i;

	for (i = 0; i < m->n && strcmp(m->fields[i].place.f->name, "buf"); i++)
		;
	if (i == m->n || span(e, &m->fields[i], &start, &len))
		return 0;
	p = (const uint8_t *)e->rec->data + start;
	while (len && (p[len - 1] == '\n' || p[len - 1] == 0))
		len--;
	if (len == 1)
		return p[0] == 'E';
	return len >= 2 && p[1] == '|' && memchr("BECSFINGH", p[0], 9);
}

/* ---- the fast way: every field a number at a fixed place, or a text
 * (char arrays, __data_loc: the comms of sched events, the cache names
 * of kmem_cache_alloc/free), which went the general way at five times
 * the cost ---- */

/* A repeated field's element size (sys_enter's args), as put_repeated
 * reads it: 0 when it writes no element. */
static int element_size(const struct pf_field *pf)
{
	int es = pf->place.k.read == FIELD_LIST ? pf->place.k.es : pf->place.k.size;

	return es == 1 || es == 2 || es == 4 || es == 8 ? es : 0;
}

/* The most bytes pf's number(s) take the fast way (a text: its tag and
 * length), or 0 when it cannot go that way. */
static size_t simple_field(const struct pf_field *pf)
{
	const struct tep_format_field *f = pf->place.f;
	size_t each = (size_t)pb_varint_size((uint64_t)pf->num << 3) + 10;
	int es;

	if (f->offset < 0 || f->size < 0)
		return 0;
	if (pf->type == PT_STR)	/* its tag and a byte of length; its
				 * text is counted event by event */
		return (size_t)pb_varint_size((uint64_t)pf->num << 3) + 1;
	if (!pf->place.k.fixed)
		return 0;
	if (pf->type == PT_U64_REP) {
		es = element_size(pf);
		return es ? 1 + (size_t)(f->size / es) * each : 1;
	}
	if (pf->place.k.read != FIELD_INT || pf->place.k.size < 1 ||
	    pf->place.k.size > 8 || f->size < pf->place.k.size)
		return 0;
	if (pf->type == PT_I32 || pf->type == PT_I64 || pf->type == PT_U32 ||
	    pf->type == PT_U64 || pf->type == PT_S64)
		return each;
	return 0;
}

/*
 * The fast way writes both lengths in one byte, as pb_open(.., 1) and
 * pb_close write them when they are under 128: a map goes that way only
 * when its largest event is, so the bytes are the same either way (with
 * its texts, which are measured event by event).
 */
void encode_prepare(struct pf_map *m)
{
	size_t most, end, n;
	int i;

	/* timestamp, pid (a uint32), the payload's tag and length */
	most = 1 + 10 + 1 + 5 + (size_t)pb_varint_size((uint64_t)m->id << 3) +
	       1;
	m->fast = m->form != FORM_LEGACY && !m->print;
	m->fixed_end = 0;
	m->fast_texts = 0;
	for (i = 0; m->fast && i < m->n; i++) {
		n = simple_field(&m->fields[i]);
		if (!n || (m->fields[i].type == PT_STR &&
			   ++m->fast_texts > FAST_TEXTS)) {
			m->fast = 0;
			break;
		}
		end = (size_t)m->fields[i].place.f->offset +
		      (size_t)m->fields[i].place.f->size;
		if (end > m->fixed_end)
			m->fixed_end = end;
		most += n;
	}
	m->fast_most = most;
	if (most > 127)
		m->fast = 0;
}

/* A repeated field's elements, one tag each, as put_repeated writes
 * them. */
static uint8_t *put_elements(uint8_t *p, int big, const struct pf_field *pf,
			     const uint8_t *at)
{
	int es = element_size(pf), i;

	for (i = 0; es && i + es <= pf->place.f->size; i += es) {
		p = pb_put_varint(p, (uint64_t)pf->num << 3 | PB_VARINT);
		p = pb_put_varint(p, number(big, at + i, es,
					    pf->place.k.is_signed));
	}
	return p;
}

/* A text of e for the fast way: where it is, and its length up to its
 * NUL; len SIZE_MAX when the field lies outside the record. */
struct text_at {
	const uint8_t *p;
	size_t len;
};

/* m's texts in e, in t: the bytes they add, or SIZE_MAX when one is not
 * plain ASCII (put_text makes those UTF-8: the general way). */
static size_t measure_texts(const struct pf_map *m,
			    const struct stream_event *e, struct text_at *t)
{
	const struct pf_field *pf;
	size_t start, len, sum = 0;
	int f, k = 0, ascii;

	for (f = 0, pf = m->fields; f < m->n; f++, pf++) {
		if (pf->type != PT_STR)
			continue;
		t[k].len = SIZE_MAX;
		if (span(e, pf, &start, &len)) {
			k++;
			continue;
		}
		t[k].p = (const uint8_t *)e->rec->data + start;
		len = text_len(t[k].p, len, &ascii);
		if (!ascii)
			return SIZE_MAX;
		t[k++].len = len;
		sum += len;
	}
	return sum;
}

/* A number field's value as put_field writes it, its pid or symbol
 * noted as put_field notes them. */
static uint64_t fast_number(struct encoder *x, int big, int input,
			    const struct pf_field *pf, const uint8_t *rec)
{
	uint64_t v = number(big, rec + pf->place.f->offset, pf->place.k.size,
			    pf->type == PT_S64 || pf->place.k.is_signed);

	if (pf->type == PT_S64)	/* zigzag, as pb_sint */
		return v << 1 ^ ((int64_t)v < 0 ? UINT64_MAX : 0);
	if (pf->state && x->states[input])
		return task_state_write(x->states[input], v);
	if (pf->names)
		name_pid(x, input, v);
	if (pf->symbol && syms_add(&x->syms[input], v))
		x->failed = 1;
	return v;
}

/* The fields of m, as put_field writes them, from p on; the end. */
static uint8_t *fast_fields(struct encoder *x, uint8_t *p,
			    const struct pf_map *m,
			    const struct stream_event *e,
			    const struct text_at *t)
{
	const uint8_t *rec = e->rec->data;
	const struct pf_field *pf;
	int big = x->big[e->input], i;

	for (i = 0, pf = m->fields; i < m->n; i++, pf++) {
		if (pf->type == PT_U64_REP) {
			p = put_elements(p, big, pf, rec + pf->place.f->offset);
		} else if (pf->type == PT_STR) {
			if (t->len != SIZE_MAX) {
				p = pb_put_varint(p, (uint64_t)pf->num << 3 |
						     PB_LEN);
				*p++ = (uint8_t)t->len;
				memcpy(p, t->p, t->len);
				p += t->len;
			}
			t++;
		} else {
			p = pb_put_varint(p, (uint64_t)pf->num << 3 |
					     PB_VARINT);
			p = pb_put_varint(p, fast_number(x, big, e->input, pf,
							 rec));
		}
	}
	return p;
}

/* e written straight into room made once; 0 when it must go the
 * general way (a text too long or not ASCII). */
static int encode_fast(struct encoder *x, struct pb *b,
		       const struct pf_map *m, const struct stream_event *e)
{
	struct text_at t[FAST_TEXTS];
	uint8_t *p, *event, *payload;
	size_t texts = 0;

	if (m->fast_texts) {
		texts = measure_texts(m, e, t);
		if (texts > 127 - m->fast_most)
			return 0;
	}
	if (pb_reserve(b, 2 + 127))
		return 1;
	p = b->data + b->len;
	*p++ = BUNDLE_EVENT << 3 | PB_LEN;
	event = p++;
	*p++ = EV_TIMESTAMP << 3 | PB_VARINT;
	p = pb_put_varint(p, e->ts);
	*p++ = EV_PID << 3 | PB_VARINT;
	p = pb_put_varint(p, (uint32_t)e->pid);
	p = pb_put_varint(p, (uint64_t)m->id << 3 | PB_LEN);
	payload = p++;
	p = fast_fields(x, p, m, e, t);
	*payload = (uint8_t)(p - payload - 1);
	*event = (uint8_t)(p - event - 1);
	b->len = (size_t)(p - b->data);
	return 1;
}

void encode_event(struct encoder *x, struct pb *b, struct pf_map *m,
		  const struct stream_event *e)
{
	int big = x->big[e->input], i;
	struct pb_mark em, pm;

	if (m->print && !is_atrace(m, e))
		m = m->plain;
	if (m->form == FORM_SELF && !m->desc_sent) {
		pb_bytes(b, BUNDLE_DESC, m->desc.data, m->desc.len);
		m->desc_sent = !pb_failed(b);
	}
	if (m->fast && e->rec->size >= 0 &&
	    (size_t)e->rec->size >= m->fixed_end && encode_fast(x, b, m, e))
		return;
	em = pb_open(b, BUNDLE_EVENT, 1);
	pb_uint(b, EV_TIMESTAMP, e->ts);
	pb_uint(b, EV_PID, (uint32_t)e->pid);
	pm = pb_open(b, m->id, 1);
	if (m->form == FORM_LEGACY) {
		pb_string(b, 1, m->name);
		for (i = 0; i < m->n; i++)
			put_legacy_field(x, b, big, &m->fields[i], e);
	} else {
		for (i = 0; i < m->n; i++)
			put_field(x, b, big, &m->fields[i], e);
	}
	pb_close(b, pm);
	pb_close(b, em);
}
