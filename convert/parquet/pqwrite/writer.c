/* SPDX-License-Identifier: GPL-2.0-or-later */
/* writer.c - the writer's life: columns, rows, row groups, the finish. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

#define PQ_ROW_GROUP_BYTES ((size_t)8 << 20)
#define PQ_PAGE_BYTES ((size_t)1 << 20)

int pq_fail(struct pq_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->err, sizeof(w->err), fmt, ap);
		va_end(ap);
	}
	w->failed = 1;
	w->live = 0;
	return -1;
}

int pq_emit(struct pq_writer *w, const void *p, size_t n)
{
	if (w->sink(w->ctx, p, n))
		return pq_fail(w, "write failed");
	w->off += n;
	return 0;
}

static int names_unique(const struct pq_column *cols, int ncols)
{
	int i, j;

	for (i = 0; i < ncols; i++)
		for (j = 0; j < i; j++)
			if (cols[i].name && cols[j].name &&
			    !strcmp(cols[i].name, cols[j].name))
				return 0;
	return 1;
}

struct pq_writer *pq_writer_new(const struct pq_column *cols, int ncols,
				const struct pq_options *opt, pq_sink sink,
				void *ctx)
{
	struct pq_writer *w;
	int i;

	if (ncols <= 0 || !sink || !names_unique(cols, ncols))
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->sink = sink;
	w->ctx = ctx;
	w->zstd_level = opt ? opt->zstd_level : 0;
	w->row_group_bytes = opt && opt->row_group_bytes ?
			     opt->row_group_bytes : PQ_ROW_GROUP_BYTES;
	w->page_bytes = opt && opt->page_bytes ? opt->page_bytes :
			PQ_PAGE_BYTES;
	w->cols = calloc((size_t)ncols, sizeof(*w->cols));
	if (!w->cols || (opt && opt->created_by &&
			 !(w->created_by = strdup(opt->created_by)))) {
		pq_writer_free(w);
		return NULL;
	}
	for (; w->ncols < ncols; w->ncols++) {
		i = w->ncols;
		if (pq_col_init(&w->cols[i], &cols[i])) {
			pq_writer_free(w);
			return NULL;
		}
	}
	w->live = ncols;
	return w;
}

int pq_writer_kv(struct pq_writer *w, const char *key, const char *value)
{
	char **kv, *k, *v;

	if (!w->live)
		return w->failed ? -1 : pq_fail(w, "the file is finished");
	kv = realloc(w->kv, (w->nkv + 1) * 2 * sizeof(*kv));
	if (!kv)
		return pq_fail(w, "out of memory");
	w->kv = kv;
	k = strdup(key);
	v = strdup(value);
	if (!k || !v) {
		free(k);
		free(v);
		return pq_fail(w, "out of memory");
	}
	kv[2 * w->nkv] = k;
	kv[2 * w->nkv + 1] = v;
	w->nkv++;
	return 0;
}

/* A row (counted from 1) with a column given twice or not at all. */
static int row_error(struct pq_writer *w, const struct pq_col *c)
{
	uint64_t given = pq_col_given(c);

	if (given <= w->rg_rows)
		return pq_fail(w, "row %llu: no value for column %s",
			       (unsigned long long)w->rows + 1, c->name);
	return pq_fail(w, "row %llu: column %s given %llu times",
		       (unsigned long long)w->rows + 1, c->name,
		       (unsigned long long)(given - w->rg_rows));
}

/* The column a row got wrong: a value missing, or given twice. */
static int bad_row(struct pq_writer *w)
{
	int i;

	for (i = 0; i < w->ncols; i++)
		if (pq_col_given(&w->cols[i]) != w->rg_rows + 1)
			return row_error(w, &w->cols[i]);
	return pq_fail(w, "row %llu: values given %llu, wanted %llu",
		       (unsigned long long)w->rows + 1,
		       (unsigned long long)w->nput,
		       (unsigned long long)(w->rg_rows + 1) * (unsigned)w->ncols);
}

/*
 * Called after every row, so the check is a count of all values given
 * (one column given twice and another not at all is caught by
 * pq_flush's row_open, before anything is written), and the bytes held
 * are summed for the first 16 rows, then every 16th row, or each row
 * once 16 more rows of the size so far would reach row_group_bytes.
 */
int pq_end_row(struct pq_writer *w)
{
	size_t held = 0;
	int i;

	if (!w->live)
		return w->failed ? -1 : pq_fail(w, "the file is finished");
	if (w->nput != (w->rg_rows + 1) * (uint64_t)w->ncols)
		return bad_row(w);
	w->rg_rows++;
	w->rows++;
	if (w->rg_rows > 16 && w->rg_rows % 16 &&
	    w->held + w->held / w->rg_rows * 17 < w->row_group_bytes)
		return 0;
	for (i = 0; i < w->ncols; i++)
		held += pq_col_bytes(&w->cols[i]);
	w->held = held;
	return held >= w->row_group_bytes ? pq_flush(w) : 0;
}

/* As pq_end_row() summed it: callers ask after every row. */
size_t pq_buffered(const struct pq_writer *w)
{
	return w->held;
}

uint64_t pq_rows(const struct pq_writer *w)
{
	return w->rows;
}

/* "PAR1" before the first row group or the footer. */
static int start(struct pq_writer *w)
{
	return w->off ? 0 : pq_emit(w, "PAR1", 4);
}

/* Values given for a row not ended yet would land in the wrong row. */
static int row_open(struct pq_writer *w)
{
	int i;

	for (i = 0; i < w->ncols; i++)
		if (pq_col_given(&w->cols[i]) != w->rg_rows)
			return pq_fail(w, "row %llu: not ended",
				       (unsigned long long)w->rows + 1);
	return 0;
}

/* RowGroup { 1: columns, 2: total_byte_size, 3: num_rows,
 * 5: file_offset, 6: total_compressed_size }, kept for the footer. */
static int row_group(struct pq_writer *w, struct pq_scratch *s)
{
	uint64_t first = w->off, usize = 0, csize = 0;
	struct pq_thrift t;
	int i;

	pq_thrift_init(&t, &w->rgmeta);
	pq_thrift_struct_begin(&t);
	pq_thrift_list(&t, 1, PQ_T_STRUCT, (uint32_t)w->ncols);
	for (i = 0; i < w->ncols; i++)
		if (pq_chunk_write(w, &w->cols[i], s, &t, &usize, &csize))
			return -1;
	pq_thrift_i64(&t, 2, (int64_t)usize);
	pq_thrift_i64(&t, 3, (int64_t)w->rg_rows);
	pq_thrift_i64(&t, 5, (int64_t)first);
	pq_thrift_i64(&t, 6, (int64_t)csize);
	pq_thrift_struct_end(&t);
	return t.error ? pq_fail(w, "out of memory") : 0;
}

int pq_flush(struct pq_writer *w)
{
	struct pq_scratch *s;
	int i, r;

	if (!w->live)
		return w->failed ? -1 : pq_fail(w, "the file is finished");
	if (row_open(w))
		return -1;
	if (!w->rg_rows)
		return 0;
	if (start(w))
		return -1;
	s = pq_scratch_new(w);
	if (!s)
		return pq_fail(w, "out of memory");
	r = row_group(w, s);
	pq_scratch_free(s);
	if (r)
		return -1;
	for (i = 0; i < w->ncols; i++)
		pq_col_reset(&w->cols[i]);
	w->held = 0;
	w->rg_rows = 0;
	w->nput = 0;
	w->nrg++;
	return 0;
}

int pq_finish(struct pq_writer *w)
{
	if (pq_flush(w) || start(w) || pq_footer_write(w))
		return -1;
	pq_buf_free(&w->rgmeta);
	w->live = 0;
	return 0;
}

const char *pq_error(const struct pq_writer *w)
{
	return w->failed ? w->err : "no error";
}

void pq_writer_free(struct pq_writer *w)
{
	size_t i;
	int c;

	if (!w)
		return;
	for (c = 0; c < w->ncols; c++) {
		pq_col_reset(&w->cols[c]);
		free(w->cols[c].name);
	}
	for (i = 0; i < 2 * w->nkv; i++)
		free(w->kv[i]);
	free(w->kv);
	free(w->cols);
	free(w->created_by);
	pq_buf_free(&w->rgmeta);
	free(w);
}
