/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thrift.c - Thrift compact protocol, the encoding of Parquet's metadata. */
#include <stdint.h>
#include "convert/parquet/pqwrite/pqwrite.h"

static void put(struct pq_thrift *t, const void *p, size_t n)
{
	if (!t->error && pq_buf_put(t->out, p, n))
		t->error = 1;
}

static void put_byte(struct pq_thrift *t, uint8_t c)
{
	put(t, &c, 1);
}

static void put_varint(struct pq_thrift *t, uint64_t v)
{
	if (!t->error && pq_put_uvarint(t->out, v))
		t->error = 1;
}

void pq_thrift_init(struct pq_thrift *t, struct pq_buf *out)
{
	t->out = out;
	t->depth = 0;
	t->last[0] = 0;
	t->error = 0;
}

/* A struct's fields count their ids from 0 again; the outer struct's
 * last id comes back at its end.  FileMetaData > RowGroup > ColumnChunk
 * > ColumnMetaData > Statistics is as deep as the writer goes. */
void pq_thrift_struct_begin(struct pq_thrift *t)
{
	int max = (int)(sizeof(t->last) / sizeof(t->last[0]));

	if (t->depth + 1 >= max) {
		t->error = 1;
		return;
	}
	t->last[++t->depth] = 0;
}

void pq_thrift_struct_end(struct pq_thrift *t)
{
	put_byte(t, 0);		/* STOP */
	if (t->depth <= 0) {
		t->error = 1;
		return;
	}
	t->depth--;
}

/* Short form: the id's delta (1..15) in the high nibble; else the type
 * alone, then the id as a zigzag varint. */
void pq_thrift_field(struct pq_thrift *t, int16_t id, enum pq_ttype type)
{
	int delta = id - t->last[t->depth];

	if (delta > 0 && delta <= 15) {
		put_byte(t, (uint8_t)(delta << 4 | type));
	} else {
		put_byte(t, (uint8_t)type);
		put_varint(t, pq_zigzag(id));
	}
	t->last[t->depth] = id;
}

void pq_thrift_i32(struct pq_thrift *t, int16_t id, int32_t v)
{
	pq_thrift_field(t, id, PQ_T_I32);
	put_varint(t, pq_zigzag(v));
}

void pq_thrift_i64(struct pq_thrift *t, int16_t id, int64_t v)
{
	pq_thrift_field(t, id, PQ_T_I64);
	put_varint(t, pq_zigzag(v));
}

/* A bool field's value is its type: no byte follows. */
void pq_thrift_bool(struct pq_thrift *t, int16_t id, int v)
{
	pq_thrift_field(t, id, v ? PQ_T_TRUE : PQ_T_FALSE);
}

/* i8 goes as the byte itself, not a varint. */
void pq_thrift_byte(struct pq_thrift *t, int16_t id, int8_t v)
{
	pq_thrift_field(t, id, PQ_T_BYTE);
	put_byte(t, (uint8_t)v);
}

void pq_thrift_binary(struct pq_thrift *t, int16_t id, const void *p,
		      size_t n)
{
	pq_thrift_field(t, id, PQ_T_BINARY);
	pq_thrift_binary_elem(t, p, n);
}

/* Up to 14 elements: the count in the high nibble; else 0xf, then the
 * count as a varint. */
void pq_thrift_list(struct pq_thrift *t, int16_t id, enum pq_ttype elem,
		    uint32_t n)
{
	pq_thrift_field(t, id, PQ_T_LIST);
	if (n < 15) {
		put_byte(t, (uint8_t)(n << 4 | elem));
	} else {
		put_byte(t, (uint8_t)(0xf0 | elem));
		put_varint(t, n);
	}
}

void pq_thrift_i32_elem(struct pq_thrift *t, int32_t v)
{
	put_varint(t, pq_zigzag(v));
}

void pq_thrift_binary_elem(struct pq_thrift *t, const void *p, size_t n)
{
	put_varint(t, n);
	put(t, p, n);
}
