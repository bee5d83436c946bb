/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schema.c - an event's table: the row's own columns, then every common
 * and format field with the Parquet type its C type asks for, as
 * report --json shows the field (its kind in the stream's event layout:
 * convert/events/fields.c decides).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/parquet_internal.h"

/* The row's own columns, timestamp on in enum own_col's order; a format
 * field of one of these names (or "message") is renamed. */
static const struct {
	const char *name;
	enum col_src src;
	enum pq_kind kind;
	int bits, is_signed, optional;
	enum pq_encoding enc;
} own[] = {
	{ "trace", SRC_TRACE, PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "timestamp", SRC_TS, PQ_INT, 64, 1, 0, PQ_ENC_DELTA },
	{ "cpu", SRC_CPU, PQ_INT, 32, 1, 0, PQ_ENC_AUTO },
	{ "buffer", SRC_BUFFER, PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "pid", SRC_PID, PQ_INT, 32, 1, 0, PQ_ENC_AUTO },
	{ "comm", SRC_COMM, PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "missed_events", SRC_MISSED, PQ_INT, 64, 1, 1, PQ_ENC_AUTO },
};
#define NOWN (int)(sizeof(own) / sizeof(own[0]))

static int taken(const char *name)
{
	int i;

	for (i = 0; i < NOWN; i++)
		if (!strcmp(own[i].name, name))
			return 1;
	return !strcmp(name, "message");
}

static int is_bprint(const struct tep_event *ev)
{
	return ev->system && ev->name && !strcmp(ev->system, "ftrace") &&
	       !strcmp(ev->name, "bprint");
}

/* How field p is typed, as json_put_field shows it (its kind). */
static void classify(struct colspec *sp, struct pq_column *c,
		     const struct field_place *p)
{
	sp->place = *p;
	sp->src = SRC_FIELD;
	c->optional = 1;
	c->enc = PQ_ENC_AUTO;
	c->is_signed = p->k.is_signed;
	switch (p->k.read) {
	case FIELD_TEXT:
		c->kind = PQ_STRING;
		break;
	case FIELD_LIST:
		c->kind = PQ_INT_LIST;
		c->bits = p->k.es * 8;
		break;
	case FIELD_INT:
		c->kind = PQ_INT;
		c->bits = p->k.size * 8;
		break;
	case FIELD_BYTES:
		c->kind = PQ_BINARY;
		break;
	}
}

static int grow(struct table_schema *s, int n)
{
	s->cols = calloc((size_t)n, sizeof(*s->cols));
	s->spec = calloc((size_t)n, sizeof(*s->spec));
	return s->cols && s->spec ? 0 : -1;
}

/* Column k: field p under its name, or field_NAME when that is taken. */
static int add_field(struct table_schema *s, const struct field_place *p,
		     const char *where)
{
	const struct tep_format_field *f = p->f;
	int k = s->ncols;
	size_t n = strlen(f->name) + 16;
	char *name = malloc(n), *from = malloc(n);

	if (!name || !from) {
		free(name);
		free(from);
		return -1;
	}
	snprintf(name, n, "%s%s", taken(f->name) ? "field_" : "", f->name);
	snprintf(from, n, "%s.%s", where, f->name);
	s->cols[k].name = name;
	s->spec[k].from = from;
	classify(&s->spec[k], &s->cols[k], p);
	s->ncols++;
	if (p->k.read == FIELD_INT && p->k.fixed &&
	    f->offset >= 0 && f->offset < 65536) {
		s->spec[k].quick = 1;
		if (f->offset + f->size > s->quick_end)
			s->quick_end = f->offset + f->size;
	}
	return 0;
}

static int add_own(struct table_schema *s, int i)
{
	struct pq_column *c = &s->cols[s->ncols];

	c->name = strdup(own[i].name);
	s->spec[s->ncols].from = strdup(own[i].name);
	if (!c->name || !s->spec[s->ncols].from)
		return -1;
	c->kind = own[i].kind;
	c->bits = own[i].bits;
	c->is_signed = own[i].is_signed;
	c->optional = own[i].optional;
	c->enc = own[i].enc;
	s->spec[s->ncols].src = own[i].src;
	s->ncols++;
	return 0;
}

/* The quick columns apart from the rest: rows.c reads them in one
 * tight loop. */
static int order_columns(struct table_schema *s)
{
	size_t n = (size_t)s->ncols + 1;
	int k;

	s->quick = malloc(n * sizeof(*s->quick));
	s->slow = malloc(n * sizeof(*s->slow));
	if (!s->quick || !s->slow)
		return -1;
	for (k = 0; k < s->ncols; k++) {
		if (s->own >= 0 && s->spec[k].src != SRC_FIELD &&
		    s->spec[k].src != SRC_MESSAGE)
			continue;	/* rows.c puts them by name */
		if (!s->spec[k].quick) {
			s->slow[s->nslow++] = k;
			continue;
		}
		s->quick[s->nquick].col = k;
		s->quick[s->nquick].offset = s->spec[k].place.f->offset;
		s->quick[s->nquick++].size = s->spec[k].place.f->size;
	}
	return 0;
}

int schema_for_event(struct table_schema *s, const struct event_layout *l,
		     int with_trace)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (grow(s, NOWN + 1 + l->ncommon + l->nfields))
		goto fail;
	for (i = with_trace ? 0 : 1; i < NOWN; i++)
		if (add_own(s, i))
			goto fail;
	s->own = with_trace ? 1 : 0;
	for (i = 0; i < l->ncommon; i++)
		if (add_field(s, &l->common[i], "common"))
			goto fail;
	for (i = 0; i < l->nfields; i++)
		if (add_field(s, &l->fields[i], "fields"))
			goto fail;
	if (is_bprint(l->ev)) {
		s->cols[s->ncols].name = strdup("message");
		s->spec[s->ncols].from = strdup("message");
		if (!s->cols[s->ncols].name || !s->spec[s->ncols].from)
			goto fail;
		s->cols[s->ncols].kind = PQ_STRING;
		s->cols[s->ncols].optional = 1;
		s->spec[s->ncols++].src = SRC_MESSAGE;
	}
	if (order_columns(s))
		goto fail;
	return 0;
fail:
	schema_free(s);
	return -1;
}

int schema_fixed(struct table_schema *s, const struct pq_column *cols, int n)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->own = -1;
	if (grow(s, n))
		goto fail;
	for (i = 0; i < n; i++) {
		s->cols[i] = cols[i];
		s->cols[i].name = strdup(cols[i].name);
		s->spec[i].from = strdup(cols[i].name);
		s->ncols++;
		if (!s->cols[i].name || !s->spec[i].from)
			goto fail;
	}
	if (order_columns(s))
		goto fail;
	return 0;
fail:
	schema_free(s);
	return -1;
}

void schema_free(struct table_schema *s)
{
	int i;

	for (i = 0; s->cols && i < s->ncols; i++) {
		free((char *)s->cols[i].name);
		free(s->spec[i].from);
	}
	free(s->cols);
	free(s->spec);
	free(s->quick);
	free(s->slow);
	memset(s, 0, sizeof(*s));
}

const char *schema_type_name(const struct pq_column *c, char *buf, size_t cap)
{
	switch (c->kind) {
	case PQ_STRING:
		return "STRING";
	case PQ_BINARY:
		return "BINARY";
	case PQ_INT:
		snprintf(buf, cap, "%sINT%d", c->is_signed ? "" : "U", c->bits);
		return buf;
	case PQ_INT_LIST:
		snprintf(buf, cap, "LIST<%sINT%d>", c->is_signed ? "" : "U",
			 c->bits);
		return buf;
	}
	return "?";
}
