/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counts.c - the element counts of __print_array, __print_hex and
 * __print_hex_str bounded by the record (see tepfmt.h).
 *
 * libtraceevent 1.7 reads as many elements as the count argument says,
 * from where the array argument says, whatever the record holds: a
 * forged count (or a negative one, taken as huge) reads far past it.
 * Each count C of a parsed event is made "C > LIMIT ? LIMIT : C"
 * (libtraceevent compares unsigned, so a negative C takes LIMIT too),
 * LIMIT an atom of our own that tepfmt_bound_counts() sets before each
 * record is printed: the elements that lie inside the record.  C is
 * evaluated by libtraceevent as before, so a count that fits prints as
 * trace-cmd prints it.
 *
 * An array argument that is neither a field nor __get_dynamic_array()
 * is read by libtraceevent as if it were one (from a wrong member of
 * its node); a count it cannot be given a bound for (a node type not
 * copied here) is not guessed at; and libtraceevent 1.7 dereferences
 * NULL for the length of a __rel_loc field (__get_rel_dynamic_array_len,
 * whatever the record): such an event is flagged failed and prints as
 * [FAILED TO PARSE] with its fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/tepfmt/tepfmt.h"

#define LIMIT_CAP 24		/* an atom's room: any uint64_t */

/* The first argument (array), count and element size of a helper node,
 * or 0 when a is none. */
static int helper(struct tep_print_arg *a, struct tep_print_arg ***field,
		  struct tep_print_arg ***count, struct tep_print_arg **es)
{
	switch (a->type) {
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		*field = &a->hex.field;
		*count = &a->hex.size;
		*es = NULL;
		return 1;
	case TEP_PRINT_INT_ARRAY:
		*field = &a->int_array.field;
		*count = &a->int_array.count;
		*es = a->int_array.el_size;
		return 1;
	default:
		return 0;
	}
}

static void free_tree(struct tep_print_arg *a)
{
	if (!a)
		return;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		free(a->atom.atom);
		break;
	case TEP_PRINT_FIELD:
		free(a->field.name);
		break;
	case TEP_PRINT_OP:
		free(a->op.op);
		free_tree(a->op.left);
		free_tree(a->op.right);
		break;
	case TEP_PRINT_TYPE:
		free(a->typecast.type);
		free_tree(a->typecast.item);
		break;
	default:
		break;
	}
	free(a);
}

static struct tep_print_arg *node(enum tep_print_arg_type type)
{
	struct tep_print_arg *a = calloc(1, sizeof(*a));

	if (a)
		a->type = type;
	return a;
}

static char *dup_or_null(const char *s, int *failed)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*failed = 1;
	return d;
}

/*
 * A copy of the expression a, of the node types a count is made of:
 * numbers, fields, operators, casts, __get_dynamic_array_len().  NULL
 * for any other (or out of memory).
 */
static struct tep_print_arg *copy_tree(const struct tep_print_arg *a)
{
	struct tep_print_arg *c;
	int failed = 0;

	if (!a)
		return NULL;
	c = node(a->type);
	if (!c)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		c->atom.atom = dup_or_null(a->atom.atom, &failed);
		failed |= !a->atom.atom;
		break;
	case TEP_PRINT_FIELD:
		c->field.name = dup_or_null(a->field.name, &failed);
		c->field.field = a->field.field;
		failed |= !a->field.name;
		break;
	case TEP_PRINT_OP:
		c->op.op = dup_or_null(a->op.op, &failed);
		c->op.prio = a->op.prio;
		c->op.left = copy_tree(a->op.left);
		c->op.right = copy_tree(a->op.right);
		failed |= !a->op.op || (a->op.left && !c->op.left) ||
			  (a->op.right && !c->op.right);
		break;
	case TEP_PRINT_TYPE:
		c->typecast.type = dup_or_null(a->typecast.type, &failed);
		c->typecast.item = copy_tree(a->typecast.item);
		failed |= !a->typecast.type || !c->typecast.item;
		break;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		c->dynarray.field = a->dynarray.field;
		failed |= !a->dynarray.field || a->dynarray.index != NULL;
		break;
	default:
		failed = 1;
	}
	if (failed) {
		free_tree(c);
		return NULL;
	}
	return c;
}

static struct tep_print_arg *limit_atom(void)
{
	struct tep_print_arg *a = node(TEP_PRINT_ATOM);

	if (a) {
		a->atom.atom = calloc(1, LIMIT_CAP);
		if (!a->atom.atom) {
			free(a);
			return NULL;
		}
		a->atom.atom[0] = '0';
	}
	return a;
}

static struct tep_print_arg *op(const char *name, int prio)
{
	struct tep_print_arg *a = node(TEP_PRINT_OP);

	if (a) {
		a->op.op = strdup(name);
		a->op.prio = prio;
	}
	if (a && !a->op.op) {
		free(a);
		a = NULL;
	}
	return a;
}

/* *count = "C > LIMIT ? LIMIT : C"; 0, or -1 (*count untouched). */
static int bound(struct tep_print_arg **count)
{
	struct tep_print_arg *c = *count, *again = copy_tree(c);
	struct tep_print_arg *lim = limit_atom(), *lim2 = limit_atom();
	struct tep_print_arg *gt = op(">", 9), *colon = op(":", 0);
	struct tep_print_arg *q = op("?", 0);

	if (!c || !again || !lim || !lim2 || !gt || !colon || !q) {
		free_tree(again);
		free_tree(lim);
		free_tree(lim2);
		free_tree(gt);
		free_tree(colon);
		free_tree(q);
		return -1;
	}
	gt->op.left = c;
	gt->op.right = lim;
	colon->op.left = lim2;
	colon->op.right = again;
	q->op.left = gt;
	q->op.right = colon;
	*count = q;
	return 0;
}

/*
 * Every child expression of a (not a's next): their slots, at most max
 * (-1 if a has more).  FUNC arguments are a list through next.
 */
static int children(struct tep_print_arg *a, struct tep_print_arg ***kids,
		    int max)
{
	int n = 0;
	struct tep_print_arg **p;

	switch (a->type) {
	case TEP_PRINT_OP:
		kids[n++] = &a->op.left;
		kids[n++] = &a->op.right;
		break;
	case TEP_PRINT_TYPE:
		kids[n++] = &a->typecast.item;
		break;
	case TEP_PRINT_FLAGS:
		kids[n++] = &a->flags.field;
		break;
	case TEP_PRINT_SYMBOL:
		kids[n++] = &a->symbol.field;
		break;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		kids[n++] = &a->hex.field;
		kids[n++] = &a->hex.size;
		break;
	case TEP_PRINT_INT_ARRAY:
		kids[n++] = &a->int_array.field;
		kids[n++] = &a->int_array.count;
		kids[n++] = &a->int_array.el_size;
		break;
	case TEP_PRINT_DYNAMIC_ARRAY:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		kids[n++] = &a->dynarray.index;
		break;
	case TEP_PRINT_FUNC:
		for (p = &a->func.args; *p; p = &(*p)->next) {
			if (n == max)
				return -1;
			kids[n++] = p;
		}
		break;
	default:
		break;
	}
	return n;
}

#define MAX_KIDS 16		/* a function's arguments */
#define MAX_DEPTH 512		/* no kernel's print fmt nests near it */

/*
 * Make every helper's count bounded, depth first (a count's own helpers
 * first: the copy is made of what they became).  0, or -1 with *why.
 */
static int graft(struct tep_print_arg *a, int depth, const char **why)
{
	struct tep_print_arg **kids[MAX_KIDS], **field, **count, *es;
	int n, k;

	if (!a)
		return 0;
	if (depth > MAX_DEPTH) {
		*why = "a print fmt nested too deep";
		return -1;
	}
	if (a->type == TEP_PRINT_DYNAMIC_ARRAY_LEN && a->dynarray.field &&
	    (a->dynarray.field->flags & TEP_FIELD_IS_RELATIVE)) {
		*why = "the length of a __rel_loc field (libtraceevent 1.7"
		       " dies reading it)";
		return -1;
	}
	n = children(a, kids, MAX_KIDS);
	if (n < 0) {
		*why = "a print fmt function of too many arguments";
		return -1;
	}
	for (k = 0; k < n; k++)
		if (graft(*kids[k], depth + 1, why))
			return -1;
	if (!helper(a, &field, &count, &es))
		return 0;
	if (!*field || ((*field)->type != TEP_PRINT_FIELD &&
			((*field)->type != TEP_PRINT_DYNAMIC_ARRAY ||
			 !(*field)->dynarray.field))) {
		*why = "__print_array, __print_hex or __print_hex_str of"
		       " something other than a field";
		return -1;
	}
	if (bound(count)) {
		*why = "__print_array, __print_hex or __print_hex_str with a"
		       " count tdat cannot bound";
		return -1;
	}
	return 0;
}

int tepfmt_bound_helpers(struct tep_event *ev, const char **why)
{
	struct tep_print_arg *a;

	*why = NULL;
	for (a = ev->print_fmt.args; a; a = a->next)
		if (graft(a, 0, why)) {
			ev->flags |= TEP_EVENT_FL_FAILED;
			return -1;
		}
	return 0;
}

/* ---- per record ---- */

/* Where the helper's array starts in the record: 0, or -1 if it does
 * not (or its descriptor is not inside it). */
static int array_start(struct tep_event *ev, const struct tep_print_arg *a,
		       const uint8_t *data, uint32_t size, uint64_t *start)
{
	const struct tep_format_field *f;
	uint64_t v;

	if (a->type == TEP_PRINT_FIELD) {
		f = a->field.field ? a->field.field :
		    tep_find_any_field(ev, a->field.name);
		if (!f || f->offset < 0)
			return -1;
		*start = (uint64_t)f->offset;
		return 0;
	}
	f = a->dynarray.field;
	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
	    (uint64_t)f->offset + (uint64_t)f->size > size)
		return -1;
	v = tep_read_number(ev->tep, data + f->offset, f->size);
	*start = v & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*start += (uint64_t)f->offset + (uint64_t)f->size;
	return 0;
}

/* Bytes an element takes: libtraceevent reads a bad element size's
 * elements one byte each; an element size it computes per record may
 * be up to 8. */
static uint64_t element_bytes(const struct tep_print_arg *es)
{
	unsigned long long v;

	if (!es)
		return 1;	/* hex: bytes */
	if (es->type != TEP_PRINT_ATOM || !es->atom.atom)
		return 8;
	v = strtoull(es->atom.atom, NULL, 0);
	return v == 2 || v == 4 || v == 8 ? v : 1;
}

static void put_limit(struct tep_print_arg *atom, const char *num)
{
	if (atom && atom->type == TEP_PRINT_ATOM && atom->atom.atom)
		memcpy(atom->atom.atom, num, strlen(num) + 1);
}

/* count is bound()'s: "?" (">" (C, LIMIT), ":" (LIMIT, C)). */
static void set_limit(struct tep_print_arg *count, uint64_t limit)
{
	char num[LIMIT_CAP];

	if (!count || count->type != TEP_PRINT_OP || !count->op.left ||
	    !count->op.right || count->op.left->type != TEP_PRINT_OP ||
	    count->op.right->type != TEP_PRINT_OP)
		return;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)limit);
	put_limit(count->op.left->op.right, num);
	put_limit(count->op.right->op.left, num);
}

/* The walk of graft(), setting each helper's limit for the record. */
static void limit_walk(struct tep_event *ev, struct tep_print_arg *a,
		       const uint8_t *data, uint32_t size, int depth)
{
	struct tep_print_arg **kids[MAX_KIDS], **field, **count, *es;
	uint64_t start = 0, limit = 0;
	int n, k;

	if (!a || depth > MAX_DEPTH)
		return;
	n = children(a, kids, MAX_KIDS);
	for (k = 0; k < n; k++)
		limit_walk(ev, *kids[k], data, size, depth + 1);
	if (!helper(a, &field, &count, &es))
		return;
	if (!array_start(ev, *field, data, size, &start) && start < size)
		limit = (size - start) / element_bytes(es);
	set_limit(*count, limit);
}

/* The bytes of an int array's field: a static field's size, a dynamic
 * one's length; 0 when unknown. */
static uint64_t array_bytes(struct tep_event *ev, const struct tep_print_arg *a,
			    const uint8_t *data, uint32_t size)
{
	const struct tep_format_field *f;

	if (a->type == TEP_PRINT_FIELD) {
		f = a->field.field ? a->field.field :
		    tep_find_any_field(ev, a->field.name);
		return f && f->size > 0 ? (uint64_t)f->size : 0;
	}
	f = a->dynarray.field;
	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
	    (uint64_t)f->offset + (uint64_t)f->size > size)
		return 0;
	return tep_read_number(ev->tep, data + f->offset, f->size) >> 16;
}

/* The value of a, when it is a number, a field or + - * / of such
 * (read as libtraceevent reads them: fields unsigned, 64-bit
 * arithmetic); 0 when it is something else. */
static int eval_count(struct tep_event *ev, const struct tep_print_arg *a,
		      const uint8_t *data, uint32_t size, int depth,
		      uint64_t *v)
{
	const struct tep_format_field *f;
	uint64_t l, r;

	if (!a || depth > 8)
		return 0;
	if (a->type == TEP_PRINT_ATOM && a->atom.atom) {
		*v = strtoull(a->atom.atom, NULL, 0);
		return 1;
	}
	if (a->type == TEP_PRINT_FIELD) {
		f = a->field.field ? a->field.field :
		    tep_find_any_field(ev, a->field.name);
		if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
		    (uint64_t)f->offset + (uint64_t)f->size > size)
			return 0;
		*v = tep_read_number(ev->tep, data + f->offset, f->size);
		return 1;
	}
	if (a->type != TEP_PRINT_OP || !a->op.op || a->op.op[1] ||
	    !eval_count(ev, a->op.left, data, size, depth + 1, &l) ||
	    !eval_count(ev, a->op.right, data, size, depth + 1, &r))
		return 0;
	switch (a->op.op[0]) {
	case '+': *v = l + r; return 1;
	case '-': *v = l - r; return 1;
	case '*': *v = l * r; return 1;
	case '/': *v = r ? l / r : 0; return r != 0;
	}
	return 0;
}

/* The count bound() wrapped ("C" in count's tree), evaluated. */
static int count_value(struct tep_event *ev, const struct tep_print_arg *count,
		       const uint8_t *data, uint32_t size, uint64_t *v)
{
	const struct tep_print_arg *c = count;

	if (c && c->type == TEP_PRINT_OP && c->op.op && !strcmp(c->op.op, "?") &&
	    c->op.left && c->op.left->type == TEP_PRINT_OP)
		c = c->op.left->op.left;
	return eval_count(ev, c, data, size, 0, v);
}

/* int_arrays()'s walk: each __print_array's span inside the record: the
 * elements libtraceevent reads, the field's bytes or, when the count
 * is a field or a number and says more, as many as the record holds. */
static void span_walk(struct tep_event *ev, struct tep_print_arg *a,
		      const uint8_t *data, uint32_t size, int depth,
		      struct tepfmt_span *out, int cap, int *n)
{
	struct tep_print_arg **kids[MAX_KIDS], **field, **count, *es;
	uint64_t start, bytes, e, c;
	int nk, k;

	if (!a || depth > MAX_DEPTH)
		return;
	nk = children(a, kids, MAX_KIDS);
	for (k = 0; k < nk; k++)
		span_walk(ev, *kids[k], data, size, depth + 1, out, cap, n);
	if (a->type != TEP_PRINT_INT_ARRAY || !helper(a, &field, &count, &es) ||
	    !es || es->type != TEP_PRINT_ATOM || *n >= cap)
		return;
	e = element_bytes(es);
	if (e < 2 || array_start(ev, *field, data, size, &start) ||
	    start >= size)
		return;
	bytes = array_bytes(ev, *field, data, size);
	if (count_value(ev, *count, data, size, &c) && c > bytes / e)
		bytes = c <= (size - start) / e ? c * e : size - start;
	if (bytes > size - start)
		bytes = size - start;
	out[*n].start = (uint32_t)start;
	out[*n].bytes = (uint32_t)(bytes - bytes % e);
	out[(*n)++].elem = (uint32_t)e;
}

int tepfmt_int_arrays(struct tep_event *ev, const uint8_t *data,
		      uint32_t size, struct tepfmt_span *out, int cap)
{
	struct tep_print_arg *a;
	int n = 0;

	if (ev->flags & TEP_EVENT_FL_FAILED)
		return 0;
	for (a = ev->print_fmt.args; a; a = a->next)
		span_walk(ev, a, data, size, 0, out, cap, &n);
	return n;
}

/* Has a's tree a helper? */
static int has_helper(struct tep_print_arg *a, int depth)
{
	struct tep_print_arg **kids[MAX_KIDS], **field, **count, *es;
	int n, k;

	if (!a || depth > MAX_DEPTH)
		return 0;
	if (helper(a, &field, &count, &es))
		return 1;
	n = children(a, kids, MAX_KIDS);
	for (k = 0; k < n; k++)
		if (has_helper(*kids[k], depth + 1))
			return 1;
	return 0;
}

int tepfmt_has_counts(struct tep_event *ev)
{
	struct tep_print_arg *a;

	if (ev->flags & TEP_EVENT_FL_FAILED)
		return 0;
	for (a = ev->print_fmt.args; a; a = a->next)
		if (has_helper(a, 0))
			return 1;
	return 0;
}

void tepfmt_bound_counts(struct tep_handle *tep, struct tep_record *rec,
			 uint32_t size)
{
	struct tep_event *ev;
	struct tep_print_arg *a;

	if (!rec->data || size < 2)
		return;
	ev = tep_find_event_by_record(tep, rec);
	if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
		return;
	for (a = ev->print_fmt.args; a; a = a->next)
		limit_walk(ev, a, rec->data, size, 0);
}
