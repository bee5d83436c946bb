/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.c - what is compiled only once libtraceevent agrees with it,
 * asked with records made up for the purpose (zeros but for one field).
 *
 * The mask of a condition (REC->field & K), K an expression of
 * constants (kmalloc's accounted: the gfp flags' __GFP_ACCOUNT bit, as
 * casts of shifts of 1UL): how K's casts and suffixes evaluate is
 * libtraceevent's business, so for each bit of the field a record
 * holding only that bit is printed by libtraceevent, and the bit is in
 * the mask when the compiled program prints the same text with it, out
 * when it prints the same without it.  (field & K) holds exactly when
 * the field has a bit of K, so the bits decide every value.
 *
 * An expression (expr.c): each of its fields set to 0, to every single
 * bit, to all bits, and to each of its constants and their neighbours,
 * must print alike.
 *
 * Anything else, or a record the program leaves to libtraceevent, and
 * the event is not compiled.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"
#include "libfmt/tracedat.h"

#define PROBE_TEXT 4096

struct probe {
	struct ff_builder *b;
	struct trace_seq seq;
	uint8_t *rec;
	uint32_t size;
	char out[PROBE_TEXT];
};

/* Do both print the probe record alike? */
static int agrees(struct probe *p)
{
	struct tep_record r;
	int n = fastfmt_print(p->b->f, p->rec, p->size, p->out,
			      sizeof(p->out));

	if (n < 0)
		return 0;
	memset(&r, 0, sizeof(r));
	r.data = p->rec;
	r.size = (int)p->size;
	trace_seq_reset(&p->seq);
	tep_print_event(p->b->ev->tep, &p->seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&p->seq);
	return p->seq.len == (unsigned)n && !memcmp(p->seq.buffer, p->out, n);
}

/* Each bit of op's field in or out of its mask: 0, or -1. */
static int find_bits(struct probe *p, struct ff_op *op)
{
	int big = p->b->f->big, bits = op->cond_size * 8, i;
	uint64_t mask = 0, bit;

	for (i = 0; i < bits; i++) {
		bit = (uint64_t)1 << i;
		tdat_store_n(big, p->rec + op->cond_off, op->cond_size, bit);
		op->cond_mask = mask | bit;
		if (agrees(p)) {
			mask |= bit;
			continue;
		}
		op->cond_mask = mask;
		if (!agrees(p))
			return -1;
	}
	op->cond_mask = mask;
	tdat_store_n(big, p->rec + op->cond_off, op->cond_size, 0);
	if (!agrees(p))
		return -1;
	tdat_store_n(big, p->rec + op->cond_off, op->cond_size, ~0ull);
	if (!agrees(p))
		return -1;
	tdat_store_n(big, p->rec + op->cond_off, op->cond_size, 0);
	return 0;
}

/* The field of node n set to v (the rest 0) prints alike? */
static int try_value(struct probe *p, const struct ff_node *n, uint64_t v)
{
	int ok;

	tdat_store_n(p->b->f->big, p->rec + n->off, n->size, v);
	ok = agrees(p);
	tdat_store_n(p->b->f->big, p->rec + n->off, n->size, 0);
	return ok;
}

/* Every field of the expressions: 0, each bit, every bit, and each
 * constant of them and its neighbours. */
static int try_fields(struct probe *p)
{
	const struct fastfmt *f = p->b->f;
	const struct ff_node *n;
	uint32_t i, k;
	int bit;

	for (i = 0; i < f->nnodes; i++) {
		n = &f->nodes[i];
		if (n->kind != FN_FIELD)
			continue;
		if (!try_value(p, n, 0) || !try_value(p, n, ~0ull))
			return -1;
		for (bit = 0; bit < n->size * 8; bit++)
			if (!try_value(p, n, (uint64_t)1 << bit))
				return -1;
		for (k = 0; k < f->nnodes; k++)
			if (f->nodes[k].kind == FN_CONST &&
			    (!try_value(p, n, f->nodes[k].k) ||
			     !try_value(p, n, f->nodes[k].k + 1) ||
			     !try_value(p, n, f->nodes[k].k - 1)))
				return -1;
	}
	return 0;
}

int ff_probe(struct ff_builder *b)
{
	struct tep_format_field *type;
	struct probe p;
	int r = -1;

	/* a plugin that keeps state must not see made-up records */
	if (b->ev->handler && !b->f->site_size)
		return -1;
	type = tep_find_common_field(b->ev, "common_type");
	if (!type || type->offset != 0 || type->size != 2)
		return -1;
	memset(&p, 0, sizeof(p));
	p.b = b;
	p.size = b->f->need > 8 ? b->f->need : 8;
	p.rec = calloc(1, p.size);
	if (!p.rec)
		return -1;
	tdat_store16(b->f->big, p.rec, (uint16_t)b->ev->id);
	trace_seq_init(&p.seq);
	r = 0;
	if (b->probe_op)
		r = find_bits(&p, &b->f->ops[b->probe_op - 1]);
	if (!r && b->probe_all)
		r = try_fields(&p);
	trace_seq_destroy(&p.seq);
	free(p.rec);
	return r;
}
