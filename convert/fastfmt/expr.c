/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * expr.c - a number conversion's argument when it is an expression:
 * number fields and constants joined by + - == != and ?:, and casts to
 * pointers, as Linux's mm_page_* events print a page
 * ("(struct page *)vmemmap_base + REC->pfn", unless pfn is -1UL).
 * Evaluated as libtraceevent evaluates it, in unsigned 64 bits: a
 * constant is what strtoull reads of it (0 for a name: libtraceevent
 * knows no kernel variable), a pointer cast leaves the number as it is.
 * probe.c then has libtraceevent print records made to try every bit
 * of each field and the constants' values; an event whose text differs
 * once is not compiled, so this file is never the last word on what an
 * expression means.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"
#include "libfmt/tracedat.h"

#define MAX_DEPTH 16
#define MAX_NODES 64		/* an event's, all expressions together */

static int add_node(struct ff_builder *b, struct ff_node n)
{
	struct fastfmt *f = b->f;
	struct ff_node *nodes;

	if (f->nnodes == MAX_NODES)
		return -1;
	nodes = realloc(f->nodes, (f->nnodes + 1) * sizeof(*nodes));
	if (!nodes)
		return -1;
	f->nodes = nodes;
	f->nodes[f->nnodes] = n;
	return (int)f->nnodes++;
}

/* A number as libtraceevent reads an atom: strtoull's, or 0 for a name. */
static int constant(struct ff_builder *b, const char *s)
{
	struct ff_node n = { FN_CONST, 0, 0, 0, -1, -1, -1 };

	if (!s || !*s || strchr(s, '"'))
		return -1;
	if (isdigit((unsigned char)*s) ||
	    (*s == '-' && isdigit((unsigned char)s[1])))
		n.k = strtoull(s, NULL, 0);
	else if (!isalpha((unsigned char)*s) && *s != '_')
		return -1;
	return add_node(b, n);
}

static int tree(struct ff_builder *b, const struct tep_print_arg *a, int d);

static int binary(struct ff_builder *b, const struct tep_print_arg *a, int d)
{
	static const struct { const char *op; uint8_t kind; } ops[] = {
		{ "+", FN_ADD }, { "-", FN_SUB }, { "==", FN_EQ },
		{ "!=", FN_NE },
	};
	struct ff_node n = { 0, 0, 0, 0, -1, -1, -1 };
	const struct tep_print_arg *r = a->op.right;
	size_t i;
	int unary;

	if (!strcmp(a->op.op, "?")) {
		if (!r || r->type != TEP_PRINT_OP || !r->op.op ||
		    strcmp(r->op.op, ":"))
			return -1;
		n.kind = FN_COND;
		n.a = tree(b, a->op.left, d + 1);
		n.b = tree(b, r->op.left, d + 1);
		n.c = tree(b, r->op.right, d + 1);
		return n.a < 0 || n.b < 0 || n.c < 0 ? -1 : add_node(b, n);
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(a->op.op, ops[i].op))
			break;
	unary = !a->op.left || a->op.left->type == TEP_PRINT_NULL;
	if (i == sizeof(ops) / sizeof(ops[0]) ||
	    (unary && ops[i].kind != FN_SUB))
		return -1;
	n.kind = ops[i].kind;
	/* -x: 0 - x */
	n.a = unary ? constant(b, "0") : tree(b, a->op.left, d + 1);
	n.b = tree(b, r, d + 1);
	return n.a < 0 || n.b < 0 ? -1 : add_node(b, n);
}

/* The node of a, or -1 when it is not an expression known here. */
static int tree(struct ff_builder *b, const struct tep_print_arg *a, int d)
{
	const struct tep_format_field *f;
	struct ff_node n = { FN_FIELD, 0, 0, 0, -1, -1, -1 };
	size_t len;

	if (!a || d > MAX_DEPTH)
		return -1;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		f = ff_number_field(b, a);
		if (!f)
			return -1;
		n.off = (uint32_t)f->offset;
		n.size = (uint8_t)f->size;
		ff_need(b, n.off, n.size);
		return add_node(b, n);
	case TEP_PRINT_ATOM:
		return constant(b, a->atom.atom);
	case TEP_PRINT_TYPE:
		len = a->typecast.type ? strlen(a->typecast.type) : 0;
		if (!len || a->typecast.type[len - 1] != '*')
			return -1;
		return tree(b, a->typecast.item, d + 1);
	case TEP_PRINT_OP:
		return a->op.op ? binary(b, a, d) : -1;
	default:
		return -1;
	}
}

int ff_compile_expr(struct ff_builder *b, struct ff_op *op,
		    const struct tep_print_arg *a)
{
	int root;

	if (op->conv == 's')
		return -1;
	root = tree(b, a, 0);
	if (root < 0)
		return -1;
	op->kind = op->conv == 'p' ? FF_PTR : FF_NUM;
	op->expr = root + 1;
	b->probe_all = 1;
	return 0;
}

uint64_t ff_eval(const struct fastfmt *f, int i, const uint8_t *data)
{
	const struct ff_node *n = &f->nodes[i];

	switch (n->kind) {
	case FN_FIELD:
		return tdat_load_n(f->big, data + n->off, n->size);
	case FN_CONST:
		return n->k;
	case FN_ADD:
		return ff_eval(f, n->a, data) + ff_eval(f, n->b, data);
	case FN_SUB:
		return ff_eval(f, n->a, data) - ff_eval(f, n->b, data);
	case FN_EQ:
		return ff_eval(f, n->a, data) == ff_eval(f, n->b, data);
	case FN_NE:
		return ff_eval(f, n->a, data) != ff_eval(f, n->b, data);
	default:	/* FN_COND */
		return ff_eval(f, n->a, data) ? ff_eval(f, n->b, data) :
						ff_eval(f, n->c, data);
	}
}
