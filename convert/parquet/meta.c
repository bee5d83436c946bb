/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta.c - meta.json: what a user needs to make sense of the tables,
 * in the dataset itself (tdat-convert(1) lists every key): the input's
 * clock, CPUs, uname and trace-cmd version, buffers, time range and
 * rows, and for each event its table, columns and format text.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/parquet_internal.h"
#include "libfmt/tracedat.h"

struct meta {
	struct tdat_bytes *out;
	int failed;
};

static void add(struct meta *m, const char *s)
{
	if (text_add(m->out, s))
		m->failed = 1;
}

static void str(struct meta *m, const char *s, size_t n)
{
	if (text_json(m->out, s, n))
		m->failed = 1;
}

/* ,"key": then a value */
static void key(struct meta *m, const char *k)
{
	add(m, ",\"");
	add(m, k);
	add(m, "\":");
}

static void num(struct meta *m, const char *k, uint64_t v)
{
	char buf[32];

	key(m, k);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	add(m, buf);
}

static void cstr(struct meta *m, const char *k, const char *s)
{
	key(m, k);
	if (s)
		str(m, s, strlen(s));
	else
		add(m, "null");
}

/* A time range, null when there were no rows. */
static void range(struct meta *m, uint64_t rows, uint64_t first,
		  uint64_t last)
{
	num(m, "rows", rows);
	if (rows) {
		num(m, "first_timestamp", first);
		num(m, "last_timestamp", last);
	} else {
		add(m, ",\"first_timestamp\":null,\"last_timestamp\":null");
	}
}

static void buffers(struct meta *m, const struct tdat_file *f)
{
	int i;

	key(m, "buffers");
	add(m, "[");
	for (i = 0; i < f->nbuffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];

		add(m, i ? ",{\"name\":" : "{\"name\":");
		str(m, b->name, strlen(b->name));
		cstr(m, "clock", b->clock && b->clock[0] ? b->clock : NULL);
		num(m, "cpus", (uint64_t)b->ncpus);
		num(m, "page_size", b->page_size);
		add(m, b->latency ? ",\"latency\":true}" : ",\"latency\":false}");
	}
	add(m, "]");
}

static void columns(struct meta *m, const struct table_schema *s)
{
	char buf[32];
	int k;

	key(m, "columns");
	add(m, "[");
	for (k = 0; k < s->ncols; k++) {
		add(m, k ? ",{\"name\":" : "{\"name\":");
		str(m, s->cols[k].name, strlen(s->cols[k].name));
		cstr(m, "type", schema_type_name(&s->cols[k], buf,
						 sizeof(buf)));
		cstr(m, "from", s->spec[k].from);
		add(m, "}");
	}
	add(m, "]");
}

/* Format texts by event id, for the events that have a table. */
struct formats {
	const struct tables *ts;
	const char **text;
	size_t *len;
};

static int format_seen(void *ctx, const char *system, const char *text,
		       size_t len)
{
	struct formats *fm = ctx;
	const char *id = memmem(text, len, "\nID: ", 5), *end = text + len;
	long v = 0;
	int i;

	if (!id)
		return 0;
	for (id += 5; id < end && *id >= '0' && *id <= '9' && v < 1 << 24;
	     id++)
		v = v * 10 + (*id - '0');
	for (i = 0; i < fm->ts->n; i++) {
		const struct table *t = fm->ts->all[i];

		if (t->system && t->id == v && !fm->text[i] &&
		    !strcmp(t->system, system)) {
			fm->text[i] = text;
			fm->len[i] = len;
		}
	}
	return 0;
}

static void events(struct meta *m, const struct tdat_file *f,
		   const struct tables *ts)
{
	struct formats fm = { ts, NULL, NULL };
	struct tdat_error err;
	int i, first = 1;

	fm.text = calloc((size_t)ts->n + 1, sizeof(*fm.text));
	fm.len = calloc((size_t)ts->n + 1, sizeof(*fm.len));
	if (!fm.text || !fm.len)
		m->failed = 1;
	else
		tdat_each_format(f, format_seen, &fm, &err);
	key(m, "events");
	add(m, "[");
	for (i = 0; !m->failed && i < ts->n; i++) {
		const struct table *t = ts->all[i];

		if (!t->system)
			continue;
		add(m, first ? "{\"system\":" : ",{\"system\":");
		first = 0;
		str(m, t->system, strlen(t->system));
		cstr(m, "name", t->name);
		num(m, "id", (uint64_t)t->id);
		cstr(m, "table", t->rel);
		range(m, t->rows, t->first_ts, t->last_ts);
		columns(m, &t->schema);
		key(m, "format");
		if (fm.text[i])
			str(m, fm.text[i], fm.len[i]);
		else
			add(m, "null");
		add(m, "}");
	}
	add(m, "]");
	free(fm.text);
	free(fm.len);
}

static const char *table_rel(const struct tables *ts, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < ts->n; i++)
		if (!ts->all[i]->system && !strncmp(ts->all[i]->rel, name, n) &&
		    (ts->all[i]->rel[n] == '.' || ts->all[i]->rel[n] == '/'))
			return ts->all[i]->rel;
	return NULL;
}

static void option_text(struct meta *m, const char *k,
			const struct tdat_file *f, uint16_t id)
{
	const char *s;

	cstr(m, k, tdat_opt_string(f, id, &s) ? s : NULL);
}

int meta_input(struct tdat_bytes *out, const char *open,
	       const struct tdat_file *f,
	       const struct export_input *in, const struct tables *ts,
	       uint64_t ncmd, uint64_t nsyms)
{
	struct meta m = { out, 0 };
	char clock[64];

	add(&m, open);
	add(&m, "\"path\":");
	str(&m, in->path, strlen(in->path));
	if (in->name)
		cstr(&m, "name", in->name);
	num(&m, "file_version", (uint64_t)f->version);
	cstr(&m, "byte_order", f->big_endian ? "big" : "little");
	num(&m, "long_size", (uint64_t)f->long_size);
	num(&m, "page_size", f->page_size);
	cstr(&m, "compression", f->codec_name);
	cstr(&m, "clock", tdat_shown_clock(f, clock, sizeof(clock)) ? clock :
			  NULL);
	num(&m, "cpus", tdat_cpus(f));
	option_text(&m, "uname", f, TDAT_OPT_UNAME);
	option_text(&m, "version", f, TDAT_OPT_VERSION);
	buffers(&m, f);
	range(&m, in->rows, in->first_ts, in->last_ts);
	num(&m, "rows_without_format", in->unknown);
	cstr(&m, "cmdlines", table_rel(ts, "cmdlines"));
	num(&m, "cmdlines_rows", ncmd);
	cstr(&m, "kallsyms", table_rel(ts, "kallsyms"));
	num(&m, "kallsyms_rows", nsyms);
	events(&m, f, ts);
	add(&m, "}");
	return m.failed ? -1 : 0;
}
