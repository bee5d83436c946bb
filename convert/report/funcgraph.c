/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * funcgraph.c - function_graph events as trace-cmd report prints them.
 *
 * trace-cmd formats ftrace:funcgraph_entry and funcgraph_exit itself
 * (unless -N or -R).  Everything here was derived from its output on
 * files made for the purpose (tests/tools/mkfgraph.c):
 *
 *   funcgraph_entry:                   |  outer() {
 *   funcgraph_entry:        0.400 us   |    leaf();
 *   funcgraph_exit:       + 16.000 us  |  }
 *
 * An entry is a leaf when the next event of its file and buffer (in
 * time order over all its CPUs, before any filter) is an exit with the
 * same pid and function: the two print as one line with the exit's
 * duration (rettime - calltime), and the exit is not printed.  Depths
 * are not compared.  The duration is microseconds with 3 decimals
 * (none from 1 s on), a mark before it, and spaces after " us" up to
 * 8 columns.  Indentation is two spaces per depth level (the depth read
 * as a signed int: none below 1).  Names come from kallsyms; an unknown
 * address prints in hex.
 *
 * When the exit consumed lies on another CPU than the entry, trace-cmd
 * 3.1.6 prints that CPU's remaining events only after every other CPU's
 * (of every input); stream_hold() does the same.  That order comes from
 * memory trace-cmd has freed: with several CPUs held back, several
 * inputs or filters it varies, even between runs.  trace-cmd 3.4 makes
 * no leaf of an exit on another CPU (--layout 3.4 does the same).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "convert/events/stream.h"
#include "convert/report/funcgraph.h"

/* A field of 2 (common_type), 4 or 8 bytes; size 0 if there is none. */
static struct fg_field field_of(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);
	struct fg_field r = { 0, 0 };

	if (f && f->offset >= 0 &&
	    (f->size == 2 || f->size == 4 || f->size == 8)) {
		r.offset = f->offset;
		r.size = f->size;
	}
	return r;
}

int fgraph_init(struct fgraph *g, struct tep_handle *tep, int big_endian)
{
	struct tep_event *en, *ex;

	memset(g, 0, sizeof(*g));
	g->entry_id = g->exit_id = -1;
	en = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	if (!en || !ex)
		return 0;
	g->type = field_of(en, "common_type");
	g->e_func = field_of(en, "func");
	g->e_depth = field_of(en, "depth");
	g->x_func = field_of(ex, "func");
	g->x_depth = field_of(ex, "depth");
	g->x_call = field_of(ex, "calltime");
	g->x_ret = field_of(ex, "rettime");
	/* Without these fields trace-cmd's text cannot be made. */
	if (g->type.size != 2 || !g->e_func.size || !g->x_func.size ||
	    !g->x_call.size || !g->x_ret.size)
		return 0;
	g->entry_id = en->id;
	g->exit_id = ex->id;
	g->big_endian = big_endian;
	return 1;
}

char fgraph_mark(uint64_t ns)
{
	if (ns > 1000000000ull)
		return '$';
	if (ns > 1000000ull)
		return '#';
	if (ns > 100000ull)
		return '!';
	if (ns > 10000ull)
		return '+';
	return ' ';
}

size_t fgraph_duration(char *buf, size_t cap, uint64_t ns)
{
	uint64_t us = ns / 1000;
	char num[32];
	int len;

	if (!cap)
		return 0;
	/* Seven digits of microseconds leave no room for decimals. */
	if (us >= 1000000ull)
		len = snprintf(num, sizeof(num), "%" PRIu64, us);
	else
		len = snprintf(num, sizeof(num), "%" PRIu64 ".%03u", us,
			       (unsigned)(ns % 1000));
	len = snprintf(buf, cap, "%c %s us%*s", fgraph_mark(ns), num,
		       len < 8 ? 8 - len : 1, "");
	if (len < 0)
		return 0;
	return (size_t)len < cap ? (size_t)len : cap - 1;
}

uint64_t fgraph_indent(uint32_t depth)
{
	int32_t d = (int32_t)depth;	/* trace-cmd reads it as an int */

	return d > 0 ? 2 * (uint64_t)d : 0;
}

uint64_t fgraph_get(const struct fgraph *g, const struct fg_field *f,
		    const void *data, uint32_t size)
{
	const uint8_t *p = (const uint8_t *)data + f->offset;
	uint64_t v = 0;
	int i;

	if (!f->size || (uint32_t)(f->offset + f->size) > size)
		return 0;
	for (i = 0; i < f->size; i++)
		v |= (uint64_t)p[g->big_endian ? f->size - 1 - i : i] << (8 * i);
	return v;
}

static void put_spaces(struct outbuf *o, uint64_t n)
{
	while (n > 256) {
		outbuf_pad(o, 256);
		n -= 256;
	}
	outbuf_pad(o, (size_t)n);
}

static void put_name(struct outbuf *o, struct tep_handle *tep, uint64_t addr)
{
	const char *name = tep_find_function(tep, addr);

	if (name)
		outbuf_puts(o, name);
	else
		outbuf_printf(o, "%" PRIx64, addr);
}

void fgraph_put_info(struct outbuf *o, struct tep_handle *tep,
		     const struct fgraph *g, const struct tep_record *rec,
		     int leaf, uint64_t leaf_ns)
{
	uint32_t size = (uint32_t)rec->size;
	int entry = tep_data_type(tep, (struct tep_record *)rec) ==
		    g->entry_id;
	const struct fg_field *depth = entry ? &g->e_depth : &g->x_depth;
	char dur[64];
	uint64_t ns;

	if (entry && !leaf) {
		outbuf_pad(o, 13);	/* where a duration would be */
	} else {
		ns = entry ? leaf_ns :
		     fgraph_get(g, &g->x_ret, rec->data, size) -
		     fgraph_get(g, &g->x_call, rec->data, size);
		outbuf_put(o, dur, fgraph_duration(dur, sizeof(dur), ns));
	}
	outbuf_put(o, "|  ", 3);
	put_spaces(o, fgraph_indent((uint32_t)fgraph_get(g, depth, rec->data,
							 size)));
	if (!entry) {
		outbuf_putc(o, '}');
		return;
	}
	put_name(o, tep, fgraph_get(g, &g->e_func, rec->data, size));
	outbuf_puts(o, leaf ? "();" : "() {");
}

/* The CPU of c's input and buffer whose event comes next, in the
 * heap's order (time, then scan order); held CPUs included. */
static struct stream_cpu *next_in_buffer(struct stream *s,
					 const struct stream_cpu *c)
{
	struct stream_cpu *best = NULL, *x;
	int k;

	for (k = 0; k < s->ncpus; k++) {
		x = &s->cpus[k];
		if (x->input != c->input || x->buf != c->buf || !x->has_event)
			continue;
		if (!best || x->ts < best->ts)
			best = x;
	}
	return best;
}

int fgraph_take_leaf(struct stream *s, struct stream_cpu *c,
		     struct tep_handle *tep, const struct fgraph *g, int pid,
		     uint64_t func, uint64_t *ns)
{
	struct stream_cpu *x;
	struct tep_record rec;

	stream_advance(s, c);
	x = next_in_buffer(s, c);
	if (!x || (g->same_cpu && x != c))
		return 0;
	memset(&rec, 0, sizeof(rec));
	rec.data = (void *)x->ev.data;
	rec.size = (int)x->ev.size;
	if (tep_data_type(tep, &rec) != g->exit_id ||
	    tep_data_pid(tep, &rec) != pid ||
	    fgraph_get(g, &g->x_func, rec.data, x->ev.size) != func)
		return 0;
	*ns = fgraph_get(g, &g->x_ret, rec.data, x->ev.size) -
	     fgraph_get(g, &g->x_call, rec.data, x->ev.size);
	stream_advance(s, x);
	if (x != c)
		stream_hold(s, x);
	return 1;
}
