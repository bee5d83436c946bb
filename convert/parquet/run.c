/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - convert --to parquet: each input exported into the stage in
 * turn (a fleet's inputs one after the other, so memory is one input's),
 * then meta.json, then the stage put in place.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "convert/parquet/parquet_internal.h"
#include "libfmt/tracedat.h"

/* A fleet's trace name for path: its base name less ".dat", made fit
 * for a file name (trace_stem), or that and "-" and 8 hex digits of the
 * path's hash (trace_alt), for a second input of the same base name:
 * the same name for the same path in every run and task. */
void trace_stem(char *out, size_t cap, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	text_safe_name(out, cap < 200 ? cap : 200, base);
	len = strlen(out);
	if (len > 4 && !strcmp(out + len - 4, ".dat"))
		out[len - 4] = 0;
}

void trace_alt(char *out, size_t cap, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	uint32_t h = 2166136261u;	/* FNV-1a, 32 bits */
	char stem[200];

	for (; *p; p++)
		h = (h ^ *p) * 16777619u;
	trace_stem(stem, sizeof(stem), path);
	snprintf(out, cap, "%s-%08x", stem, (unsigned)h);
}

/* A one-run fleet's name: the stem, else its alternative, else that
 * counted on ("-2", "-3"...) until unique among names[0..n). */
static void trace_name(char *out, size_t cap, const char *path,
		       char **names, int n)
{
	char alt[224];
	int i, k = 1;

	trace_stem(out, cap, path);
	trace_alt(alt, sizeof(alt), path);
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], out)) {
			if (k++ == 1)
				snprintf(out, cap, "%s", alt);
			else
				snprintf(out, cap, "%s-%d", alt, k);
			i = -1;	/* check the new name against all */
		}
}

/* A line on stderr, the first kept as why the input failed. */
static void said(struct export_input *in, const char *msg)
{
	fprintf(stderr, "tdat convert: %s\n", msg);
	if (!in->why[0])
		snprintf(in->why, sizeof(in->why), "%s", msg);
}

int export_one(struct stage *st, const struct parquet_opts *o,
	       struct export_input *in, struct tdat_bytes *meta)
{
	struct tdat_error err;
	struct tables ts;
	struct tdat_file *f = tdat_open(in->path, &err);
	uint64_t ncmd = 0, nsyms = 0;
	int r;

	if (!f) {
		said(in, err.msg);
		return -1;
	}
	/* closed while the events are walked: the stream holds its own copy
	 * of the metadata, and one is enough memory */
	in->big_endian = f->big_endian;
	tdat_close(f);
	tables_init(&ts, st, o->level);
	r = rows_export(&ts, in, o);
	f = r >= 0 && r != 2 ? tdat_open(in->path, &err) : NULL;
	if (r >= 0 && r != 2 && !f) {
		said(in, err.msg);
		r = 2;
	}
	if (r >= 0 && r != 2 && (symtabs_write(&ts, f, in, &ncmd, &nsyms) ||
				 tables_finish(&ts)))
		r = -1;
	if (r == -1 && ts.err[0])
		said(in, ts.err);
	if (r >= 0 && r != 2 &&
	    meta_input(meta, in->fleet ? "{" : "{\"tdat_dataset\":1,"
		       "\"layout\":\"single\",", f, in, &ts, ncmd, nsyms)) {
		said(in, "out of memory");
		r = -1;
	}
	tables_free(&ts);
	if (f)
		tdat_close(f);
	return r == 2 ? -1 : r;
}

/* A fleet's input: its tables, then its traces/NAME.json.  0, 1, -1
 * as export_one. */
static int export_member(struct stage *st, const struct parquet_opts *o,
			 struct export_input *in)
{
	struct tdat_bytes meta = { 0 };
	char rel[300];
	int r = export_one(st, o, in, &meta);

	snprintf(rel, sizeof(rel), "traces/%s.json", in->name);
	if (r >= 0 && (text_add(&meta, "\n") ||
		       stage_write(st, rel, meta.data, meta.len))) {
		fprintf(stderr, "tdat convert: %s\n", st->err[0] ? st->err :
			"out of memory");
		r = -1;
	}
	tdat_bytes_free(&meta);
	return r;
}

/* A fleet's inputs one after another. */
static int export_fleet(struct stage *st, const struct parquet_opts *o)
{
	char **names = calloc((size_t)o->ninputs + 1, sizeof(*names));
	struct export_input in;
	int k, r, status = 0;
	char name[256];

	if (!names || stage_mkdir(st, "traces"))
		status = -1;
	for (k = 0; k < o->ninputs && status >= 0; k++) {
		memset(&in, 0, sizeof(in));
		in.path = o->inputs[k];
		in.fleet = 1;
		trace_name(name, sizeof(name), in.path, names, k);
		names[k] = strdup(name);
		if (!names[k]) {
			status = -1;
			break;
		}
		in.name = names[k];
		r = export_member(st, o, &in);
		if (r)
			status = r < 0 ? -1 : 1;
	}
	for (k = 0; names && k < o->ninputs; k++)
		free(names[k]);
	free(names);
	return status;
}

/* One input: meta.json is its object. */
static int export_single(struct stage *st, const struct parquet_opts *o,
			 struct tdat_bytes *meta)
{
	struct export_input in;

	memset(&in, 0, sizeof(in));
	in.path = o->inputs[0];
	return export_one(st, o, &in, meta);
}

int parquet_run(const struct parquet_opts *o)
{
	int fleet = o->fleet || o->ninputs > 1, status;
	struct tdat_bytes meta = { 0 };
	struct stage st;

	if (o->add)
		return parquet_add(o);
	if (stage_open(&st, o->out)) {
		fprintf(stderr, "tdat convert: %s\n", st.err);
		stage_abort(&st);
		return 2;
	}
	if (fleet)
		status = text_add(&meta, FLEET_META) ? -1 :
			 export_fleet(&st, o);
	else
		status = export_single(&st, o, &meta);
	if (status >= 0 && !fleet && text_add(&meta, "\n"))
		status = -1;
	if (status >= 0 && (stage_write(&st, "meta.json", meta.data,
					meta.len) || stage_commit(&st))) {
		fprintf(stderr, "tdat convert: %s\n", st.err);
		status = 2;
	}
	if (status < 0)
		status = 1;
	stage_abort(&st);	/* nothing left when it failed */
	tdat_bytes_free(&meta);
	return status;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_path(char ***list, int *n, const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char **l = realloc(*list, ((size_t)*n + 1) * sizeof(*l));
	char *p = malloc(len);

	if (l)
		*list = l;
	if (!l || !p) {
		free(p);
		errno = ENOMEM;
		return -1;
	}
	snprintf(p, len, "%s/%s", dir, name);
	l[(*n)++] = p;
	return 0;
}

int parquet_list_dir(const char *dir, char ***list, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	int first = *n, r = 0;
	size_t len;

	if (!d)
		return -1;
	while (!r && (e = readdir(d))) {
		len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".dat") ||
		    e->d_name[0] == '.')
			continue;
		r = add_path(list, n, dir, e->d_name);
		if (!r && (stat((*list)[*n - 1], &st) || !S_ISREG(st.st_mode)))
			free((*list)[--*n]);
	}
	closedir(d);
	if (!r)
		qsort(*list + first, (size_t)(*n - first), sizeof(**list),
		      by_name);
	return r;
}
