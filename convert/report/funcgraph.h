/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * funcgraph.h - ftrace's function_graph events (funcgraph_entry and
 * funcgraph_exit) printed as trace-cmd report prints them, not by their
 * print fmt: a call tree with durations.  Private to convert/report/.
 */
#ifndef FUNCGRAPH_H
#define FUNCGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "convert/report/print.h"

struct stream;
struct stream_cpu;

struct fg_field {
	int offset, size;	/* size 0: the format lacks it */
};

/* One input's funcgraph events, learnt once from its formats. */
struct fgraph {
	int entry_id, exit_id;		/* -1: no such format */
	struct fg_field type;		/* common_type, 2 bytes */
	struct fg_field e_func, e_depth;
	struct fg_field x_func, x_depth, x_call, x_ret;
	int big_endian;
	int same_cpu;	/* trace-cmd 3.3+ (--layout 3.4): a leaf's exit must
			 * be on its entry's CPU */
};

/* 1 with g filled when tep has both funcgraph formats, else 0. */
int fgraph_init(struct fgraph *g, struct tep_handle *tep, int big_endian);

/* Whether a record is a funcgraph entry: every event of an input with
 * funcgraph formats is asked, so this is all it costs them. */
static inline int fgraph_is_entry(const struct fgraph *g, const void *data,
				  uint32_t size)
{
	const uint8_t *p = (const uint8_t *)data + g->type.offset;

	if ((uint32_t)g->type.offset + 2 > size)
		return 0;
	return (g->big_endian ? p[0] << 8 | p[1] : p[1] << 8 | p[0]) ==
	       g->entry_id;
}

/* ---- the pure parts (unit-tested) ---- */

/* The overhead mark of a duration in ns: '$' over 1 s, '#' over 1 ms,
 * '!' over 100 us, '+' over 10 us, else ' '. */
char fgraph_mark(uint64_t ns);
/* "M DURATION us" padded: the 13 columns before '|'; its length. */
size_t fgraph_duration(char *buf, size_t cap, uint64_t ns);
/* Spaces of indentation for a call depth. */
uint64_t fgraph_indent(uint32_t depth);

/* ---- printing and leaf detection ---- */

/* A field's value in payload data (size bytes); 0 if it lies outside. */
uint64_t fgraph_get(const struct fgraph *g, const struct fg_field *f,
		    const void *data, uint32_t size);
/* The info text of a funcgraph event; leaf makes an entry a leaf of
 * leaf_ns. */
void fgraph_put_info(struct outbuf *o, struct tep_handle *tep,
		     const struct fgraph *g, const struct tep_record *rec,
		     int leaf, uint64_t leaf_ns);
/*
 * c's current event is a funcgraph entry (already copied by the
 * caller: c moves on here).  If the next event of its input and buffer,
 * whatever the filters, is the exit of the same call (same pid and
 * function), that exit is consumed: 1 with its duration in *ns; else 0.
 */
int fgraph_take_leaf(struct stream *s, struct stream_cpu *c,
		     struct tep_handle *tep, const struct fgraph *g, int pid,
		     uint64_t func, uint64_t *ns);

#endif
