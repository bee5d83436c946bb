/* SPDX-License-Identifier: GPL-2.0-or-later */
/* footer.c - the schema and FileMetaData, then the footer's length, "PAR1". */
#include <stdint.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

enum { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2 };
enum { CONV_UTF8 = 0, CONV_LIST = 3, CONV_UINT_8 = 11, CONV_INT_8 = 15 };
enum { LOGICAL_STRING = 1, LOGICAL_LIST = 3, LOGICAL_INT = 10 };

/* One SchemaElement; what does not apply is -1 (or 0 for logical). */
struct elem {
	int type;		/* physical; -1: a group */
	int rep;		/* FieldRepetitionType; -1: the root */
	const char *name;
	int children;		/* groups */
	int conv;		/* ConvertedType */
	int logical;		/* LogicalType's member */
	int bits, is_signed;	/* LOGICAL_INT */
};

/* LogicalType: a union, so a struct with one member set; INTEGER's
 * IntType { 1: i8 bitWidth, 2: bool isSigned }, the others empty. */
static void logical(struct pq_thrift *t, const struct elem *e)
{
	pq_thrift_field(t, 10, PQ_T_STRUCT);
	pq_thrift_struct_begin(t);
	pq_thrift_field(t, (int16_t)e->logical, PQ_T_STRUCT);
	pq_thrift_struct_begin(t);
	if (e->logical == LOGICAL_INT) {
		pq_thrift_byte(t, 1, (int8_t)e->bits);
		pq_thrift_bool(t, 2, e->is_signed);
	}
	pq_thrift_struct_end(t);
	pq_thrift_struct_end(t);
}

/* SchemaElement { 1: type, 3: repetition_type, 4: name,
 * 5: num_children, 6: converted_type, 10: logicalType }. */
static void element(struct pq_thrift *t, const struct elem *e)
{
	pq_thrift_struct_begin(t);
	if (e->type >= 0)
		pq_thrift_i32(t, 1, e->type);
	if (e->rep >= 0)
		pq_thrift_i32(t, 3, e->rep);
	pq_thrift_binary(t, 4, e->name, strlen(e->name));
	if (e->children >= 0)
		pq_thrift_i32(t, 5, e->children);
	if (e->conv >= 0)
		pq_thrift_i32(t, 6, e->conv);
	if (e->logical)
		logical(t, e);
	pq_thrift_struct_end(t);
}

/* INT_8..INT_64 and UINT_8..UINT_64 go up by one per doubling. */
static int int_conv(int bits, int is_signed)
{
	int n = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;

	return (is_signed ? CONV_INT_8 : CONV_UINT_8) + n;
}

/* A leaf; a list is its 3 levels: optional group NAME (LIST) {
 * repeated group list { required INT element; } }. */
static void column_elements(struct pq_thrift *t, const struct pq_col *c)
{
	struct elem e = { -1, c->optional ? OPTIONAL : REQUIRED, c->name,
			  -1, -1, 0, c->bits, c->is_signed };

	if (c->kind == PQ_INT_LIST) {
		e.children = 1;
		e.conv = CONV_LIST;
		e.logical = LOGICAL_LIST;
		element(t, &e);
		element(t, &(struct elem){ -1, REPEATED, "list", 1, -1, 0,
					   0, 0 });
		e.rep = REQUIRED;
		e.name = "element";
	}
	e.children = -1;
	if (c->kind == PQ_STRING || c->kind == PQ_BINARY) {
		e.type = PQ_PT_BYTE_ARRAY;
		e.conv = c->kind == PQ_STRING ? CONV_UTF8 : -1;
		e.logical = c->kind == PQ_STRING ? LOGICAL_STRING : 0;
	} else {
		e.type = c->width == 4 ? PQ_PT_INT32 : PQ_PT_INT64;
		e.conv = int_conv(c->bits, c->is_signed);
		e.logical = LOGICAL_INT;
	}
	element(t, &e);
}

static void schema(struct pq_thrift *t, const struct pq_writer *w)
{
	uint32_t n = 1;
	int i;

	for (i = 0; i < w->ncols; i++)
		n += w->cols[i].kind == PQ_INT_LIST ? 3 : 1;
	pq_thrift_list(t, 2, PQ_T_STRUCT, n);
	element(t, &(struct elem){ -1, -1, "schema", w->ncols, -1, 0, 0, 0 });
	for (i = 0; i < w->ncols; i++)
		column_elements(t, &w->cols[i]);
}

/* 5: key_value_metadata, 6: created_by, 7: column_orders (every leaf
 * TypeDefinedOrder, so that readers trust min_value and max_value). */
static void trailer(struct pq_thrift *t, const struct pq_writer *w)
{
	size_t i;
	int c;

	if (w->nkv) {
		pq_thrift_list(t, 5, PQ_T_STRUCT, (uint32_t)w->nkv);
		for (i = 0; i < 2 * w->nkv; i += 2) {
			pq_thrift_struct_begin(t);
			pq_thrift_binary(t, 1, w->kv[i], strlen(w->kv[i]));
			pq_thrift_binary(t, 2, w->kv[i + 1],
					 strlen(w->kv[i + 1]));
			pq_thrift_struct_end(t);
		}
	}
	if (w->created_by)
		pq_thrift_binary(t, 6, w->created_by, strlen(w->created_by));
	pq_thrift_list(t, 7, PQ_T_STRUCT, (uint32_t)w->ncols);
	for (c = 0; c < w->ncols; c++) {
		pq_thrift_struct_begin(t);
		pq_thrift_field(t, 1, PQ_T_STRUCT);
		pq_thrift_struct_begin(t);
		pq_thrift_struct_end(t);
		pq_thrift_struct_end(t);
	}
}

/* FileMetaData { 1: version, 2: schema, 3: num_rows, 4: row_groups
 * (serialised as each was written), 5, 6, 7 }. */
int pq_footer_write(struct pq_writer *w)
{
	struct pq_buf b = { 0 };
	struct pq_thrift t;
	uint8_t tail[8];
	int r;

	pq_thrift_init(&t, &b);
	pq_thrift_struct_begin(&t);
	pq_thrift_i32(&t, 1, 2);
	schema(&t, w);
	pq_thrift_i64(&t, 3, (int64_t)w->rows);
	pq_thrift_list(&t, 4, PQ_T_STRUCT, w->nrg);
	if (!t.error && pq_buf_put(&b, w->rgmeta.p, w->rgmeta.len))
		t.error = 1;
	trailer(&t, w);
	pq_thrift_struct_end(&t);
	if (t.error || b.len > 0xffffffffu) {
		pq_buf_free(&b);
		return pq_fail(w, t.error ? "out of memory" :
				  "the footer is too large");
	}
	pq_store_le32(tail, (uint32_t)b.len);
	memcpy(tail + 4, "PAR1", 4);
	r = pq_emit(w, b.p, b.len) || pq_emit(w, tail, 8) ? -1 : 0;
	pq_buf_free(&b);
	return r;
}
