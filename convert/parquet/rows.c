/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rows.c - each event of the event stream as a row of its event's
 * table.  No text is made here (but trace_printk's message): fields are
 * read where the format says they are, in the file's byte order, with
 * the rules --json follows (convert/events/fields.c, the event layout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/parquet_internal.h"
#include "convert/events/events.h"
#include "libfmt/tracedat.h"

#define MAX_IDS 65536		/* common_type is 16 bits */

struct rows {
	struct tables *ts;
	struct export_input *in;
	int big;		/* the file's byte order */
	struct tdat_bytes text;	/* UTF-8 made of trace bytes */
	struct trace_seq seq;	/* bprint's message */
	struct known {		/* a NUL-terminated string seen last, and */
		const char *s;	/* its length, when it is ASCII (comm and */
		size_t len;	/* buffer names come back again and again) */
	} known[3];
	int failed;		/* writing failed: ts->err says why */
};

static int rel_taken(const struct tables *ts, const char *rel)
{
	int i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->all[i]->rel, rel))
			return 1;
	return 0;
}

/* SYS/EVENT.parquet, or SYS/EVENT/TRACE.parquet in a fleet; a name
 * made alike by safe_name gets the event id after it. */
static int table_rel(struct rows *x, const struct tep_event *ev, char *rel,
		     size_t cap)
{
	char sys[128], name[128];
	int n;

	text_safe_name(sys, sizeof(sys), ev->system);
	text_safe_name(name, sizeof(name), ev->name);
	n = snprintf(rel, cap, "%s/%s", sys, name);
	if (rel_taken(x->ts, rel) || n < 0 || (size_t)n >= cap - 40)
		snprintf(rel, cap, "%s/%s-%d", sys, name, ev->id);
	if (stage_mkdir(x->ts->stage, sys) ||
	    (x->in->fleet && stage_mkdir(x->ts->stage, rel)))
		return -1;
	n = (int)strlen(rel);
	if (x->in->fleet)
		snprintf(rel + n, cap - (size_t)n, "/%s.parquet", x->in->name);
	else
		snprintf(rel + n, cap - (size_t)n, ".parquet");
	return 0;
}

static struct table *new_table(struct rows *x, const struct event_layout *l)
{
	const struct tep_event *ev = l->ev;
	struct table_schema s;
	struct table *t;
	char rel[600];

	if (table_rel(x, ev, rel, sizeof(rel))) {
		snprintf(x->ts->err, sizeof(x->ts->err), "%s",
			 x->ts->stage->err);
		return NULL;
	}
	if (schema_for_event(&s, l, x->in->fleet)) {
		snprintf(x->ts->err, sizeof(x->ts->err), "out of memory");
		return NULL;
	}
	t = table_new(x->ts, rel, &s);
	schema_free(&s);
	if (!t)
		return NULL;
	t->ev = ev;
	t->id = ev->id;
	t->system = strdup(ev->system ? ev->system : "");
	t->name = strdup(ev->name ? ev->name : "");
	if (!t->system || !t->name) {
		snprintf(x->ts->err, sizeof(x->ts->err), "out of memory");
		return NULL;
	}
	return t;
}

static struct table *table_for(struct rows *x, const struct event_layout *l)
{
	const struct tep_event *ev = l->ev;
	struct tables *ts = x->ts;
	struct table *t;
	int i;

	if (ev->id < 0 || ev->id >= MAX_IDS) {	/* not from a real file */
		for (i = 0; i < ts->n; i++)
			if (ts->all[i]->ev == ev)
				return ts->all[i];
		return new_table(x, l);
	}
	if (!ts->by_id && !(ts->by_id = calloc(MAX_IDS, sizeof(*ts->by_id)))) {
		snprintf(ts->err, sizeof(ts->err), "out of memory");
		return NULL;
	}
	t = ts->by_id[ev->id];
	if (!t && (t = new_table(x, l)))
		ts->by_id[ev->id] = t;
	return t;
}

/* Text as UTF-8: ASCII goes as it is, the rest through text_utf8. */
static void put_text(struct rows *x, struct pq_writer *w, int k,
		     const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !((uint8_t)s[i] & 0x80); i++)
		;
	if (i == n) {
		pq_put_bytes(w, k, s, n);
	} else if (text_utf8(&x->text, s, n)) {
		x->failed = 1;
		pq_put_null(w, k);
	} else {
		pq_put_bytes(w, k, x->text.data, x->text.len);
	}
}

/* A NUL-terminated string that comes back often, through slot k of
 * x->known: scanned only when it is not the one seen last. */
static void put_string(struct rows *x, struct pq_writer *w, int k,
		       const char *s, int slot)
{
	struct known *kn = &x->known[slot];
	size_t i;

	if (s != kn->s) {
		for (i = 0; s[i] && !((uint8_t)s[i] & 0x80); i++)
			;
		if (s[i]) {	/* not ASCII: made UTF-8 every time */
			put_text(x, w, k, s, i + strlen(s + i));
			return;
		}
		kn->s = s;
		kn->len = i;
	}
	pq_put_bytes(w, k, s, kn->len);
}

static void put_list(struct rows *x, struct pq_writer *w, int k,
		     const uint8_t *p, size_t len, int es)
{
	size_t i;

	if (len % (size_t)es) {	/* not whole elements: see the man page */
		pq_put_null(w, k);
		return;
	}
	pq_list_begin(w, k);
	for (i = 0; i < len; i += (size_t)es)
		pq_list_add(w, k, tdat_load_n(x->big, p + i, es));
}

/* Field column k of event e, or null where it lies outside the record. */
static void put_field(struct rows *x, struct pq_writer *w, int k,
		      const struct colspec *sp, const struct stream_event *e)
{
	const uint8_t *data = e->rec->data, *p, *nul;
	size_t size = (size_t)e->rec->size, start, len;

	if (field_place_span(e->tep, &sp->place, data, size, &start, &len)) {
		pq_put_null(w, k);
		return;
	}
	p = data + start;
	switch (sp->place.k.read) {
	case FIELD_INT:
		pq_put_int(w, k, tdat_load_n(x->big, p, sp->place.k.size));
		break;
	case FIELD_TEXT:
		nul = memchr(p, 0, len);
		put_text(x, w, k, (const char *)p, nul ? (size_t)(nul - p) :
							 len);
		break;
	case FIELD_BYTES:
		pq_put_bytes(w, k, p, len);
		break;
	case FIELD_LIST:
		put_list(x, w, k, p, len, sp->place.k.es);
		break;
	}
}

/* trace_printk's text, as the report's line shows it after the name. */
static void put_message(struct rows *x, struct pq_writer *w, int k,
			const struct stream_event *e)
{
	const struct tep_record *rec = stream_event_printable(e);

	if (!rec) {
		x->failed = 1;
		pq_put_null(w, k);
		return;
	}
	trace_seq_reset(&x->seq);
	tep_print_event(e->tep, &x->seq, (struct tep_record *)rec, "%s",
			TEP_PRINT_INFO);
	trace_seq_terminate(&x->seq);
	put_text(x, w, k, x->seq.buffer, strlen(x->seq.buffer));
}

/* A column of the slow list: a field, or bprint's message. */
static void put_column(struct rows *x, struct pq_writer *w, int k,
		       const struct colspec *sp, const struct stream_event *e)
{
	if (sp->src == SRC_MESSAGE)
		put_message(x, w, k, e);
	else
		put_field(x, w, k, sp, e);
}

/* The row's own columns, from column k on (enum own_col), and the
 * trace's name before them in a fleet. */
static void put_own(struct rows *x, struct pq_writer *w, int k,
		    const struct stream_event *e)
{
	int64_t missed = e->rec->missed_events;

	if (k > 0)
		put_string(x, w, k - 1, x->in->name, 0);
	pq_put_int(w, k + OWN_TS, e->ts);
	pq_put_int(w, k + OWN_CPU, (uint64_t)(int64_t)e->rec->cpu);
	put_string(x, w, k + OWN_BUFFER, e->buffer, 1);
	pq_put_int(w, k + OWN_PID, (uint64_t)(int64_t)e->pid);
	put_string(x, w, k + OWN_COMM, e->comm, 2);
	if (missed)	/* -1: some were lost, how many unknown */
		pq_put_int(w, k + OWN_MISSED,
			   (uint64_t)(missed < 0 ? -1 : missed));
	else
		pq_put_null(w, k + OWN_MISSED);
}

static void note_time(uint64_t *first, uint64_t *last, uint64_t rows,
		      uint64_t ts)
{
	if (!rows || ts < *first)
		*first = ts;
	if (!rows || ts > *last)
		*last = ts;
}

/* The quick columns of a record too short for some of them: what lies
 * outside it is null. */
static void put_quick_cut(struct rows *x, struct pq_writer *w,
			  const struct quick_field *qf, int n,
			  const struct tep_record *rec)
{
	size_t size = (size_t)rec->size;
	int i;

	for (i = 0; i < n; i++) {
		if ((size_t)qf[i].offset + (size_t)qf[i].size > size)
			pq_put_null(w, qf[i].col);
		else
			pq_put_int(w, qf[i].col,
				   tdat_load_n(x->big, (const uint8_t *)rec->data +
						qf[i].offset, qf[i].size));
	}
}

static int on_event(void *ctx, const struct stream_event *e)
{
	struct rows *x = ctx;
	const uint8_t *data = e->rec->data;
	const struct quick_field *qf;
	struct pq_writer *w;
	struct table *t;
	int i, n;

	if (!e->event) {	/* --json shows its id only */
		x->in->unknown++;
		return 0;
	}
	t = table_for(x, e->layout);
	if (!t)
		return x->failed = -1;
	w = t->w;
	put_own(x, w, t->schema.own, e);
	qf = t->schema.quick;
	n = t->schema.nquick;
	if (e->rec->size >= t->schema.quick_end) {
		for (i = 0; i < n; i++)	/* most fields: a number inside */
			pq_put_int(w, qf[i].col,
				   tdat_load_n(x->big, data + qf[i].offset,
					qf[i].size));
	} else {
		put_quick_cut(x, w, qf, n, e->rec);
	}
	for (i = 0; i < t->schema.nslow; i++)
		put_column(x, w, t->schema.slow[i],
			   &t->schema.spec[t->schema.slow[i]], e);
	note_time(&t->first_ts, &t->last_ts, t->rows, e->ts);
	note_time(&x->in->first_ts, &x->in->last_ts, x->in->rows, e->ts);
	if (x->failed) {
		snprintf(x->ts->err, sizeof(x->ts->err), "out of memory");
		return -1;
	}
	if (table_end_row(t))
		return x->failed = -1;
	x->in->rows++;
	return 0;
}

int rows_export(struct tables *ts, struct export_input *in,
		const struct parquet_opts *o)
{
	struct events_opts *eo = calloc(1, sizeof(*eo));
	struct rows x;
	int r, k;

	if (!eo) {
		snprintf(ts->err, sizeof(ts->err), "out of memory");
		return -1;
	}
	memset(&x, 0, sizeof(x));
	x.ts = ts;
	x.in = in;
	x.big = in->big_endian;
	trace_seq_init(&x.seq);
	eo->inputs[0].path = in->path;
	eo->ninputs = 1;
	eo->applet = "convert";
	eo->lazy_kallsyms = 1;	/* only bprint's message needs them */
	eo->progress = o->progress;
	eo->progress_ctx = o->progress_ctx;
	r = events_walk(eo, on_event, &x);
	for (k = 0; k < ts->n; k++)	/* the stream's handles are gone */
		ts->all[k]->ev = NULL;
	trace_seq_destroy(&x.seq);
	tdat_bytes_free(&x.text);
	free(eo);
	return x.failed ? -1 : r;
}
