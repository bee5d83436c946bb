/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pqwrite.h - a small Parquet file writer, the one header of the module
 * convert/parquet/pqwrite/.
 *
 * Debian 12 has no Parquet library usable from C (Apache Arrow's C++ and
 * GLib packages are not in bookworm), so this is our own: flat tables of
 * integer, string, binary and integer-list columns; Thrift compact
 * protocol metadata; PLAIN, dictionary (RLE_DICTIONARY) and
 * DELTA_BINARY_PACKED encodings; RLE/bit-packed levels; zstd-compressed
 * data pages (v1); per-column-chunk statistics (min, max, null count);
 * row groups closed by size.  The writer never prints or exits: a call
 * that fails returns -1 (or NULL) and pq_error() says why.
 *
 * The file's bytes go to a sink in order, so the caller decides where
 * they land (a file, memory) and when it is opened.
 */
#ifndef PQWRITE_H
#define PQWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What a column holds, and so its Parquet types. */
enum pq_kind {
	PQ_INT,		/* INT32 when bits <= 32, else INT64; logical type
			 * INT(bits, is_signed), converted INT_n / UINT_n */
	PQ_STRING,	/* BYTE_ARRAY, logical STRING (converted UTF8): the
			 * caller hands valid UTF-8 */
	PQ_BINARY,	/* BYTE_ARRAY, no logical type */
	PQ_INT_LIST,	/* LIST (3-level: optional group NAME (LIST) {
			 * repeated group list { required element } }) of
			 * INT(bits, is_signed) elements */
};

enum pq_encoding {
	PQ_ENC_AUTO,	/* a dictionary when a column chunk's distinct
			 * values fit one (64 Ki entries, page_bytes of
			 * PLAIN), else PLAIN; integers of 16 bits or
			 * fewer: a dictionary only when the chunk holds
			 * one value, else PLAIN; lists: PLAIN */
	PQ_ENC_PLAIN,
	PQ_ENC_DELTA,	/* DELTA_BINARY_PACKED: PQ_INT only (timestamps) */
};

struct pq_column {
	const char *name;	/* copied by pq_writer_new */
	enum pq_kind kind;
	int bits;		/* 8, 16, 32 or 64 (PQ_INT, PQ_INT_LIST) */
	int is_signed;
	int optional;		/* may hold nulls (a list: may be null) */
	enum pq_encoding enc;
};

/* Where the file's bytes go, in order.  0, or -1 (the writer fails). */
typedef int (*pq_sink)(void *ctx, const void *p, size_t n);

struct pq_options {
	int zstd_level;		/* 0: pages UNCOMPRESSED, else ZSTD at it */
	size_t row_group_bytes;	/* buffered bytes that close a row group
				 * at pq_end_row (0: 8 MiB) */
	size_t page_bytes;	/* data page size to aim at (0: 1 MiB) */
	const char *created_by;	/* footer's created_by, NULL none */
};

struct pq_writer;

/* A writer of ncols columns; writes the leading "PAR1" only when the
 * first row group or the footer is written.  NULL: out of memory or a
 * bad column (which is a caller's bug). */
struct pq_writer *pq_writer_new(const struct pq_column *cols, int ncols,
				const struct pq_options *opt, pq_sink sink,
				void *ctx);

/* A key/value pair for the footer (both copied). 0 or -1. */
int pq_writer_kv(struct pq_writer *w, const char *key, const char *value);

/*
 * One row: each column given exactly once, in any order, then
 * pq_end_row().  Integers are given as their 64 bits (two's complement
 * for signed columns; only the low `bits` matter).  A list is
 * pq_list_begin() then pq_list_add() for each element (none: an empty
 * list).  The put calls cannot fail: memory trouble is kept and
 * returned by pq_end_row().
 */
static inline void pq_put_int(struct pq_writer *w, int col, uint64_t v);
static inline void pq_put_bytes(struct pq_writer *w, int col, const void *p,
				size_t n);
static inline void pq_put_null(struct pq_writer *w, int col);
void pq_list_begin(struct pq_writer *w, int col);
static inline void pq_list_add(struct pq_writer *w, int col, uint64_t v);
/* 0, or -1 (out of memory, a sink error, a column given too often or
 * not at all).  Closes the row group when it holds row_group_bytes. */
int pq_end_row(struct pq_writer *w);

/* Bytes the writer holds for the open row group, as of the last
 * pq_end_row() or pq_flush(): its values (PLAIN) and levels, for a
 * caller's budget over many writers.  Writing a row group takes about
 * one page more, and the dictionaries it builds, for as long as the
 * flush lasts; an idle writer holds none of it. */
size_t pq_buffered(const struct pq_writer *w);
/* Rows written or buffered so far. */
uint64_t pq_rows(const struct pq_writer *w);
/* Close the open row group now (nothing if it is empty).  0 or -1. */
int pq_flush(struct pq_writer *w);
/* The last row group and the footer.  0 or -1. */
int pq_finish(struct pq_writer *w);
/* Why the last call failed, one line.  Failures stay: every later call
 * fails the same way. */
const char *pq_error(const struct pq_writer *w);
void pq_writer_free(struct pq_writer *w);

/*
 * The encoders, for the unit tests (tests/unit/test_pqwrite.c), which
 * check them against known bytes.  Each appends to a growing buffer and
 * returns 0, or -1 when out of memory.
 */
struct pq_buf {
	uint8_t *p;
	size_t len, cap;
};
int pq_buf_put(struct pq_buf *b, const void *p, size_t n);
void pq_buf_free(struct pq_buf *b);

/* Thrift compact protocol: field headers carry the delta from the last
 * field id of the struct being written (a small stack of them). */
struct pq_thrift {
	struct pq_buf *out;
	int16_t last[16];	/* last field id per open struct */
	int depth;
	int error;
};
enum pq_ttype {		/* compact protocol type ids */
	PQ_T_TRUE = 1, PQ_T_FALSE = 2, PQ_T_BYTE = 3, PQ_T_I16 = 4,
	PQ_T_I32 = 5, PQ_T_I64 = 6, PQ_T_DOUBLE = 7, PQ_T_BINARY = 8,
	PQ_T_LIST = 9, PQ_T_SET = 10, PQ_T_MAP = 11, PQ_T_STRUCT = 12,
};
void pq_thrift_init(struct pq_thrift *t, struct pq_buf *out);
void pq_thrift_struct_begin(struct pq_thrift *t);
void pq_thrift_struct_end(struct pq_thrift *t);	/* the stop byte */
void pq_thrift_field(struct pq_thrift *t, int16_t id, enum pq_ttype type);
void pq_thrift_i32(struct pq_thrift *t, int16_t id, int32_t v);
void pq_thrift_i64(struct pq_thrift *t, int16_t id, int64_t v);
void pq_thrift_bool(struct pq_thrift *t, int16_t id, int v);
void pq_thrift_byte(struct pq_thrift *t, int16_t id, int8_t v);	/* i8 */
void pq_thrift_binary(struct pq_thrift *t, int16_t id, const void *p,
		      size_t n);
/* A list field's header: n elements of type elem follow (written with
 * the pq_thrift_*_elem calls, or structs). */
void pq_thrift_list(struct pq_thrift *t, int16_t id, enum pq_ttype elem,
		    uint32_t n);
void pq_thrift_i32_elem(struct pq_thrift *t, int32_t v);
void pq_thrift_binary_elem(struct pq_thrift *t, const void *p, size_t n);
/* Unsigned LEB128 varint (0, or -1 out of memory), and zigzag. */
int pq_put_uvarint(struct pq_buf *b, uint64_t v);
uint64_t pq_zigzag(int64_t v);

/* The RLE / bit-packed hybrid of n values (below 2^width) of bit width
 * width, 0 to 32 (levels, dictionary indices), without a length
 * prefix. */
int pq_rle_encode(struct pq_buf *b, const uint32_t *v, size_t n, int width);
/* Bits needed for values up to max (0 for 0). */
int pq_bit_width(uint64_t max);
/* DELTA_BINARY_PACKED of n 64-bit values (block 128, 4 miniblocks). */
int pq_delta_encode(struct pq_buf *b, const int64_t *v, size_t n);
/* The same of n PLAIN values of width 4 (INT32: 32-bit arithmetic, as
 * readers decode it) or 8 bytes, little-endian. */
int pq_delta_encode_plain(struct pq_buf *b, const uint8_t *plain, size_t n,
			  int width);
/* The hybrid of byte-sized values (levels). */
int pq_rle_encode_u8(struct pq_buf *b, const uint8_t *v, size_t n,
		     int width);

/*
 * ---- module internals ----
 * Shared by the files of convert/parquet/pqwrite/ only; callers use the
 * part above.
 */

enum {
	PQ_DICT_MAX = 65536,	/* dictionary entries at most: an index
				 * fits a uint16_t */
	PQ_STAT_MAX = 64,	/* longer min/max byte arrays are left out */
	PQ_PAGE_VALUES = 1 << 20,	/* level entries in a page at most */
};

/* Parquet's own numbers (parquet.thrift). */
enum pq_ptype { PQ_PT_INT32 = 1, PQ_PT_INT64 = 2, PQ_PT_BYTE_ARRAY = 6 };
enum pq_penc {
	PQ_E_PLAIN = 0, PQ_E_RLE = 3, PQ_E_DELTA = 5, PQ_E_RLE_DICT = 8,
};

/* Room for n more bytes (0 or -1); the fast case inline for the puts. */
int pq_buf_grow(struct pq_buf *b, size_t n);
static inline int pq_buf_reserve(struct pq_buf *b, size_t n)
{
	return b->cap - b->len >= n ? 0 : pq_buf_grow(b, n);
}

/* Little-endian bytes, whatever the host's order. */
static inline void pq_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void pq_store_le64(uint8_t *p, uint64_t v)
{
	pq_store_le32(p, (uint32_t)v);
	pq_store_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t pq_load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t pq_load_le64(const uint8_t *p)
{
	return (uint64_t)pq_load_le32(p) | (uint64_t)pq_load_le32(p + 4) << 32;
}

/* A 32-bit pattern as the 64-bit two's complement of its int32. */
static inline uint64_t pq_sext32(uint64_t v)
{
	v &= 0xffffffffu;
	return (v ^ 0x80000000u) - 0x80000000u;
}

uint64_t pq_zigzag_u(uint64_t v);	/* zigzag of a two's complement */

/* Bits packed LSB first into reserved room (the hybrid's and the delta
 * encoding's order); values already cut to w bits. */
struct pq_bits {
	uint8_t *p;
	uint64_t acc;
	int n;
};

static inline void pq_bits_put32(struct pq_bits *s, uint64_t v, int w)
{
	s->acc |= v << s->n;
	s->n += w;
	while (s->n >= 8) {
		*s->p++ = (uint8_t)s->acc;
		s->acc >>= 8;
		s->n -= 8;
	}
}

static inline void pq_bits_put(struct pq_bits *s, uint64_t v, int w)
{
	if (w > 32) {
		pq_bits_put32(s, v & 0xffffffffu, 32);
		v >>= 32;
		w -= 32;
	}
	pq_bits_put32(s, v, w);
}

/* A column chunk's dictionary, built when its row group is written: an
 * open-addressing hash table of entry numbers; an entry's key is the
 * integer, or the offset of the byte array's PLAIN bytes in the
 * column's vals (no second copy). */
struct pq_dict {
	uint32_t *slot;		/* entry + 1, 0 free; mask + 1 of them */
	uint32_t mask;
	uint64_t *skey;		/* integers: each slot's key, by the slot */
	uint64_t *key;
	uint32_t *hash;		/* byte arrays: each entry's hash */
	uint32_t n, cap;
	size_t bytes;		/* the dictionary page's PLAIN size */
	uint16_t *idx;		/* each value's entry, in room the flush
				 * reuses from chunk to chunk */
	int gave_up;		/* a chunk's values did not fit one: the
				 * column's later chunks go PLAIN at once */
};

struct pq_col {
	/* The put path's fields first, on as few cache lines as may be. */
	struct pq_buf vals;	/* the values' PLAIN bytes */
	uint64_t mask, sign;	/* an integer: cut to mask, sign-extended */
	size_t nvals;		/* values (not nulls) in vals */
	int width;		/* PLAIN bytes of an integer: 4 or 8 */
	int quick_int;		/* an integer column whose definition
				 * levels are not kept: pq_put_int's case */
	int quick_bytes;	/* the same for pq_put_bytes */
	struct pq_buf def, rep;	/* a byte per level entry, when kept */
	int def_kept;		/* definition levels are in def: a list's
				 * always, a flat column's from its row
				 * group's first null (all 1 until then) */
	enum pq_kind kind;
	int maxdef, maxrep;
	int list_empty;		/* the open list has no element yet */
	uint64_t list_row;	/* the row whose list is open (from 1) */
	uint64_t lists;		/* lists begun, this row group */
	size_t nulls;		/* nulls, or null lists */
	/* The last row group's sizes: the next one's buffers are had at
	 * once, not by doubling (no copies). */
	size_t hint_vals, hint_levels;
	char *name;
	enum pq_encoding enc;
	int bits, is_signed, optional;
	struct pq_dict dict;
};

struct pq_writer {
	struct pq_col *cols;
	int ncols;
	int zstd_level;
	size_t row_group_bytes, page_bytes;
	char *created_by;
	char **kv;		/* key, value, key, value... */
	size_t nkv;		/* pairs */
	pq_sink sink;
	void *ctx;
	uint64_t off;		/* bytes given to the sink */
	uint64_t rows;		/* rows ended */
	uint64_t rg_rows;	/* of them in the open row group */
	uint64_t nput;		/* values given in the open row group, all
				 * columns: pq_end_row's quick check */
	uint32_t nrg;		/* row groups written */
	size_t held;		/* pq_buffered(), as of the last row */
	struct pq_buf rgmeta;	/* their RowGroup structs (thrift) */
	int live;		/* ncols; 0 once failed or finished: the
				 * puts' one test covers both */
	int failed;
	char err[160];
};

/* Set the writer's error (the first one stays) and return -1. */
int pq_fail(struct pq_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Bytes to the sink, counted. 0 or -1. */
int pq_emit(struct pq_writer *w, const void *p, size_t n);

/* column.c */
int pq_col_init(struct pq_col *c, const struct pq_column *def);
void pq_col_reset(struct pq_col *c);	/* after its row group */

static inline size_t pq_col_bytes(const struct pq_col *c)
{
	return c->vals.len + c->def.len + c->rep.len;
}

/* Rows given a value (or a null) in the open row group. */
static inline uint64_t pq_col_given(const struct pq_col *c)
{
	return (c->maxrep ? c->lists : c->nvals) + c->nulls;
}

/* Level entries of the open row group: one a value where no level is
 * kept. */
static inline size_t pq_col_entries(const struct pq_col *c)
{
	return c->def_kept ? c->def.len : c->nvals;
}

/* A stored INT32/INT64 back as the 64-bit value that was put. */
static inline uint64_t pq_load_int(const struct pq_col *c, const uint8_t *p)
{
	uint64_t v;

	if (c->width == 8)
		return pq_load_le64(p);
	v = pq_load_le32(p);
	return c->is_signed ? pq_sext32(v) : v;
}

/* dict.c: 1 when the chunk's values fit a dictionary (PQ_DICT_MAX
 * entries, page_bytes of PLAIN), 0 when not, -1 out of memory.  The
 * entry of each value goes in room. */
int pq_dict_build(struct pq_writer *w, struct pq_col *c,
		  struct pq_buf *room);
void pq_dict_free(struct pq_dict *d);
/* dict.c: a dictionary of one integer, v (no indices: all 0).  0 or -1
 * (out of memory). */
int pq_dict_one(struct pq_col *c, uint64_t v);
int pq_rle_encode_u16(struct pq_buf *b, const uint16_t *v, size_t n,
		      int width);

/* stats.c: a column chunk's min, max and null count. */
struct pq_stats {
	int has;		/* a min and a max (some value seen) */
	uint64_t imin, imax;	/* integers (sign-extended) */
	const uint8_t *bmin, *bmax;	/* byte arrays, inside vals */
	uint32_t lmin, lmax;
};
void pq_stats_scan(const struct pq_col *c, int from_dict,
		   struct pq_stats *st);
void pq_stats_write(struct pq_thrift *t, int16_t id, const struct pq_col *c,
		    const struct pq_stats *st);

/* page.c: a row group's working room, made and freed by each flush:
 * one page, compressed, its header, a chunk's dictionary indices. */
struct pq_scratch {
	struct pq_buf page, comp, hdr;
	struct pq_buf idx;
	void *zstd;		/* ZSTD_CCtx, at zstd_level > 0 */
};
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICT = 2 };	/* PageType */
struct pq_scratch *pq_scratch_new(struct pq_writer *w);
void pq_scratch_free(struct pq_scratch *s);
/* s->page (nvalues values, encoding enc) to the sink after its header;
 * the sizes with the header's added to *usize and *csize. */
int pq_page_write(struct pq_writer *w, struct pq_scratch *s, int type,
		  size_t nvalues, int enc, uint64_t *usize, uint64_t *csize);

/* chunk.c: one column chunk's pages to the sink and its ColumnChunk to
 * t; sizes added to *usize and *csize. */
int pq_chunk_write(struct pq_writer *w, struct pq_col *c,
		   struct pq_scratch *s, struct pq_thrift *t,
		   uint64_t *usize, uint64_t *csize);

/* footer.c: FileMetaData, its length and "PAR1". */
int pq_footer_write(struct pq_writer *w);

/* column.c: what the puts do when their quick way does not do. */
void pq_put_int_slow(struct pq_writer *w, int col, uint64_t v);
void pq_put_bytes_slow(struct pq_writer *w, int col, const void *p,
		       size_t n);
void pq_put_null_slow(struct pq_writer *w, int col);
void pq_list_add_slow(struct pq_writer *w, int col, uint64_t v);

/* Called some 10 times an event, so inline: the usual case (an integer
 * column with room, no level kept) in few instructions, all else
 * pq_put_int_slow().  8 bytes are stored whatever the width: room for
 * them was checked, and the next value overwrites what lies past len.
 * The counts go before the store, which the compiler must take as one
 * into any of them. */
static inline void pq_put_int(struct pq_writer *w, int col, uint64_t v)
{
	struct pq_col *c;
	size_t len;

	if ((unsigned)col >= (unsigned)w->live) {
		pq_put_int_slow(w, col, v);
		return;
	}
	c = &w->cols[col];
	len = c->vals.len;
	if (!c->quick_int || c->vals.cap - len < 8) {
		pq_put_int_slow(w, col, v);
		return;
	}
	v = ((v & c->mask) ^ c->sign) - c->sign;
	c->vals.len = len + (size_t)c->width;
	c->nvals++;
	w->nput++;
	pq_store_le64(c->vals.p + len, v);
}

/* A byte array (comm, buffer: twice an event) to a column with room
 * and no level kept. */
static inline void pq_put_bytes(struct pq_writer *w, int col, const void *p,
				size_t n)
{
	struct pq_col *c;
	size_t len;

	if ((unsigned)col >= (unsigned)w->live) {
		pq_put_bytes_slow(w, col, p, n);
		return;
	}
	c = &w->cols[col];
	len = c->vals.len;
	if (!c->quick_bytes || c->vals.cap - len < 4 ||
	    c->vals.cap - len - 4 < n) {
		pq_put_bytes_slow(w, col, p, n);
		return;
	}
	c->vals.len = len + 4 + n;
	c->nvals++;
	w->nput++;
	pq_store_le32(c->vals.p + len, (uint32_t)n);
	memcpy(c->vals.p + len + 4, p, n);
}

/* A null to a flat column that keeps its levels already (one null came
 * before in the row group) and has room. */
static inline void pq_put_null(struct pq_writer *w, int col)
{
	struct pq_col *c;

	if ((unsigned)col >= (unsigned)w->live) {
		pq_put_null_slow(w, col);
		return;
	}
	c = &w->cols[col];
	if (!c->def_kept || c->maxrep || c->def.len == c->def.cap) {
		pq_put_null_slow(w, col);
		return;
	}
	c->nulls++;
	w->nput++;
	c->def.p[c->def.len++] = 0;
}

/* A list's second and later elements, with room: repetition 1, the
 * full definition level, the value. */
static inline void pq_list_add(struct pq_writer *w, int col, uint64_t v)
{
	struct pq_col *c;
	size_t len;

	if ((unsigned)col >= (unsigned)w->live) {
		pq_list_add_slow(w, col, v);
		return;
	}
	c = &w->cols[col];
	len = c->vals.len;
	if (c->list_empty || c->list_row != w->rows + 1 ||
	    c->vals.cap - len < 8 || c->rep.len == c->rep.cap ||
	    c->def.len == c->def.cap) {
		pq_list_add_slow(w, col, v);
		return;
	}
	v = ((v & c->mask) ^ c->sign) - c->sign;
	c->vals.len = len + (size_t)c->width;
	c->nvals++;
	c->rep.p[c->rep.len++] = 1;
	c->def.p[c->def.len++] = (uint8_t)c->maxdef;
	pq_store_le64(c->vals.p + len, v);
}

#endif
