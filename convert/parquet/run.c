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

/* A fleet's trace name: the file's base name less ".dat", made unique
 * among names[0..n) by "-2", "-3"... */
static void trace_name(char *out, size_t cap, const char *path,
		       char **names, int n)
{
	const char *base = strrchr(path, '/');
	char stem[200];
	size_t len;
	int i, k = 1;

	base = base ? base + 1 : path;
	text_safe_name(stem, sizeof(stem) - 12, base);
	len = strlen(stem);
	if (len > 4 && !strcmp(stem + len - 4, ".dat"))
		stem[len - 4] = 0;
	snprintf(out, cap, "%s", stem);
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], out)) {
			snprintf(out, cap, "%s-%d", stem, ++k);
			i = -1;	/* check the new name against all */
		}
}

/* One input into the stage, its meta.json object into meta.  The exit
 * status: 0, 1 (damaged, exported as far as it goes), or -1 (nothing
 * can be written: said). */
static int export_one(struct stage *st, const struct parquet_opts *o,
		      struct export_input *in, struct tdat_bytes *meta)
{
	struct tdat_error err;
	struct tables ts;
	struct tdat_file *f = tdat_open(in->path, &err);
	uint64_t ncmd = 0, nsyms = 0;
	int r;

	if (!f) {
		fprintf(stderr, "tdat convert: %s\n", err.msg);
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
		fprintf(stderr, "tdat convert: %s\n", err.msg);
		r = 2;
	}
	if (r >= 0 && r != 2 && (symtabs_write(&ts, f, in, &ncmd, &nsyms) ||
				 tables_finish(&ts)))
		r = -1;
	if (r == -1 && ts.err[0])
		fprintf(stderr, "tdat convert: %s\n", ts.err);
	if (r >= 0 && r != 2 &&
	    meta_input(meta, in->fleet ? "{" : "{\"tdat_dataset\":1,"
		       "\"layout\":\"single\",", f, in, &ts, ncmd, nsyms)) {
		fprintf(stderr, "tdat convert: out of memory\n");
		r = -1;
	}
	tables_free(&ts);
	if (f)
		tdat_close(f);
	return r == 2 ? -1 : r;
}

/* The inputs one after another; meta.json's body into meta. */
static int export_all(struct stage *st, const struct parquet_opts *o,
		      struct tdat_bytes *meta)
{
	char **names = calloc((size_t)o->ninputs + 1, sizeof(*names));
	int fleet = o->fleet || o->ninputs > 1, k, r, status = 0;
	struct export_input in;
	char name[256];

	if (!names)
		return -1;
	for (k = 0; k < o->ninputs && status >= 0; k++) {
		memset(&in, 0, sizeof(in));
		in.path = o->inputs[k];
		in.fleet = fleet;
		if (fleet) {
			trace_name(name, sizeof(name), in.path, names, k);
			names[k] = strdup(name);
			if (!names[k]) {
				status = -1;
				break;
			}
			in.name = names[k];
			if (k && text_add(meta, ","))
				status = -1;
		}
		r = export_one(st, o, &in, meta);
		if (r)
			status = r < 0 ? -1 : 1;
	}
	for (k = 0; k < o->ninputs; k++)
		free(names[k]);
	free(names);
	return status;
}

int parquet_run(const struct parquet_opts *o)
{
	int fleet = o->fleet || o->ninputs > 1, status;
	struct tdat_bytes meta = { 0 };
	struct stage st;

	if (stage_open(&st, o->out)) {
		fprintf(stderr, "tdat convert: %s\n", st.err);
		stage_abort(&st);
		return 2;
	}
	/* one input: its object is the whole of meta.json */
	if (fleet && text_add(&meta, "{\"tdat_dataset\":1,"
			      "\"layout\":\"fleet\",\"traces\":["))
		status = -1;
	else
		status = export_all(&st, o, &meta);
	if (status >= 0 && text_add(&meta, fleet ? "]}\n" : "\n"))
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
