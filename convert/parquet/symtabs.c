/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symtabs.c - the tables that make addresses and pids readable:
 * cmdlines (pid, comm) and kallsyms (address, type, name, module), from
 * the file's own texts, one row per line in file order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/parquet_internal.h"
#include "libfmt/tracedat.h"

static const struct pq_column cmdline_cols[] = {
	{ "trace", PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "pid", PQ_INT, 32, 1, 0, PQ_ENC_PLAIN },
	{ "comm", PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
};

static const struct pq_column kallsyms_cols[] = {
	{ "trace", PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "address", PQ_INT, 64, 0, 0, PQ_ENC_PLAIN },
	{ "type", PQ_STRING, 0, 0, 0, PQ_ENC_AUTO },
	{ "name", PQ_STRING, 0, 0, 1, PQ_ENC_PLAIN },
	{ "module", PQ_STRING, 0, 0, 1, PQ_ENC_AUTO },
};

struct symtab {
	struct tables *ts;
	const struct export_input *in;
	struct table *t;
	struct tdat_bytes text;
	int k;			/* the next column */
	int failed;
};

/* Text as UTF-8: ASCII as it is, the rest through text_utf8. */
static void put_str(struct symtab *x, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !((uint8_t)s[i] & 0x80); i++)
		;
	if (i == n) {
		pq_put_bytes(x->t->w, x->k++, s, n);
		return;
	}
	if (text_utf8(&x->text, s, n))
		x->failed = 1;
	pq_put_bytes(x->t->w, x->k++, x->text.data, x->text.len);
}

/* The table named name: "name.parquet", or "name/TRACE.parquet". */
static int open_table(struct symtab *x, const char *name,
		      const struct pq_column *cols, int n)
{
	struct table_schema s;
	char rel[300];
	int skip = x->in->fleet ? 0 : 1;	/* no trace column */

	if (x->in->fleet && stage_mkdir(x->ts->stage, name)) {
		snprintf(x->ts->err, sizeof(x->ts->err), "%s",
			 x->ts->stage->err);
		return -1;
	}
	if (x->in->fleet)
		snprintf(rel, sizeof(rel), "%s/%s.parquet", name, x->in->name);
	else
		snprintf(rel, sizeof(rel), "%s.parquet", name);
	if (schema_fixed(&s, cols + skip, n - skip)) {
		snprintf(x->ts->err, sizeof(x->ts->err), "out of memory");
		return -1;
	}
	x->t = table_new(x->ts, rel, &s);
	schema_free(&s);
	return x->t ? 0 : -1;
}

static int end_row(struct symtab *x)
{
	if (x->failed) {
		snprintf(x->ts->err, sizeof(x->ts->err), "out of memory");
		return -1;
	}
	return table_end_row(x->t);
}

/* Digits of base 10 or 16 at p[*i..n) into *v; 0 when there are none
 * (or too many for 64 bits). */
static int number(const char *p, size_t n, size_t *i, int base, uint64_t *v)
{
	size_t start = *i;
	int d;

	for (*v = 0; *i < n; (*i)++) {
		char c = p[*i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (*v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return 0;
		*v = *v * (uint64_t)base + (uint64_t)d;
	}
	return *i > start && *i - start <= 20;
}

/* "PID COMM": the rest of the line is the comm. */
static int cmdline_row(struct symtab *x, const char *p, size_t n)
{
	size_t i = 0;
	uint64_t pid;

	if (!number(p, n, &i, 10, &pid) || i >= n || p[i] != ' ' ||
	    pid > INT32_MAX)
		return 0;	/* not a cmdline: skipped */
	x->k = 0;
	if (x->in->fleet)
		put_str(x, x->in->name, strlen(x->in->name));
	pq_put_int(x->t->w, x->k++, pid);
	put_str(x, p + i + 1, n - i - 1);
	return end_row(x);
}

/* "ADDR TYPE NAME" then, for a module's, "\t[MODULE]". */
static int kallsyms_row(struct symtab *x, const char *p, size_t n)
{
	size_t i = 0, name, end, mod = 0, mlen = 0;
	uint64_t addr;

	if (!number(p, n, &i, 16, &addr) || i + 2 >= n || p[i] != ' ' ||
	    p[i + 2] != ' ')
		return 0;	/* not a symbol: skipped */
	name = i + 3;
	for (end = name; end < n && p[end] != '\t' && p[end] != ' '; end++)
		;
	if (end + 2 < n && p[end + 1] == '[' && p[n - 1] == ']') {
		mod = end + 2;
		mlen = n - 1 - mod;
	}
	x->k = 0;
	if (x->in->fleet)
		put_str(x, x->in->name, strlen(x->in->name));
	pq_put_int(x->t->w, x->k++, addr);
	put_str(x, p + i + 1, 1);
	put_str(x, p + name, end - name);
	if (mod)
		put_str(x, p + mod, mlen);
	else
		pq_put_null(x->t->w, x->k++);
	return end_row(x);
}

/* Each line of part m of f through row(); the rows made in *rows. */
static int each_line(struct symtab *x, const struct tdat_file *f,
		     enum tdat_meta m,
		     int (*row)(struct symtab *, const char *, size_t))
{
	struct tdat_error err;
	const char *text, *nl;
	char *moved = NULL;
	size_t len, n;
	int r = 0;

	if (!tdat_meta_has(f, m))
		return 0;
	/* kallsyms as the events' boot had them (a last boot's buffer) */
	if (m == TDAT_META_KALLSYMS ?
	    tdat_event_kallsyms(f, &text, &len, &moved, &err) :
	    tdat_meta_text(f, m, &text, &len, &err)) {
		snprintf(x->ts->err, sizeof(x->ts->err), "%s", err.msg);
		return -1;
	}
	while (len && !r) {
		nl = memchr(text, '\n', len);
		n = nl ? (size_t)(nl - text) : len;
		r = n && row(x, text, n);
		n += nl != NULL;
		text += n;
		len -= n;
	}
	free(moved);
	return r ? -1 : 0;
}

int symtabs_write(struct tables *ts, const struct tdat_file *f,
		  const struct export_input *in, uint64_t *ncmd,
		  uint64_t *nsyms)
{
	struct symtab x;
	int r;

	memset(&x, 0, sizeof(x));
	x.ts = ts;
	x.in = in;
	r = open_table(&x, "cmdlines", cmdline_cols, 3) ||
	    each_line(&x, f, TDAT_META_CMDLINES, cmdline_row);
	*ncmd = x.t ? x.t->rows : 0;
	if (!r)
		r = open_table(&x, "kallsyms", kallsyms_cols, 5) ||
		    each_line(&x, f, TDAT_META_KALLSYMS, kallsyms_row);
	*nsyms = !r && x.t ? x.t->rows : 0;
	tdat_bytes_free(&x.text);
	return r ? -1 : 0;
}
