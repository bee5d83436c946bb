/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extract.c - trace-cmd extract: what the ring buffers hold now, into a
 * trace.dat, with nothing in tracefs changed (no tracer, event or
 * tracing_on is touched, so a buffer kept across a reboot keeps what the
 * last boot wrote until it is read).
 *
 * Reading a ring buffer takes its pages away (and from Linux 6.16 a
 * buffer kept across a reboot read to its end starts anew), so nothing
 * is read before the metadata is on disk: OUT.rec/ (record.h) gets the
 * manifest and head.dat first, the LAST_BOOT_INFO of each buffer kept
 * across a reboot among them, then the readers move every page, the last
 * partial one of each CPU too, into its files.  From there the file is
 * assembled as record assembles it; a killed extract leaves OUT.rec/,
 * which "tdat restore OUT" makes into the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/restore/restore.h"
#include "convert/tracefs/tracefs.h"
#include "libfmt/metabuild.h"

struct extract {
	const struct extract_opts *o;
	char top[PATH_MAX];
	char recdir[PATH_MAX];
	int recdir_made;
	struct tdat_file *meta;
	struct rec_streams st;
	int nlast;		/* buffers with the last boot's pages */
};

static void warn_line(const char *msg)
{
	fprintf(stderr, "tdat extract: warning: %s\n", msg);
}

/* The buffers to read: the top (-t, or no -B/-a), then -a's instances
 * or -B's, each once. */
static int choose_buffers(struct extract *x, struct tfs_names *inst,
			  struct tdat_error *err)
{
	const struct extract_opts *o = x->o;
	int i, n = o->all ? inst->n : o->nnames;

	x->st.names = calloc((size_t)n + 1, sizeof(*x->st.names));
	if (!x->st.names)
		return tdat_errorf(err, "out of memory");
	if (o->top || (!o->all && !o->nnames))
		x->st.names[x->st.nnames++] = "";
	for (i = 0; i < n; i++) {
		const char *name = o->all ? inst->v[i] : o->names[i];
		char rel[PATH_MAX];
		int k, seen = 0;

		snprintf(rel, sizeof(rel), "instances/%s", name);
		if (!tfs_is_dir(x->top, rel))
			return tdat_errorf(err, "-B %s: %s/instances has no"
					   " such instance", name, x->top);
		for (k = 0; k < x->st.nnames; k++)
			seen |= !strcmp(x->st.names[k], name);
		if (!seen)
			x->st.names[x->st.nnames++] = name;
	}
	return 0;
}

/* An empty saved-cmdlines part: this boot's pids name other tasks than
 * the last boot's. */
static int no_cmdlines(struct tdat_file *m, struct tdat_error *err)
{
	struct tdat_blob b = { calloc(1, 8), 8 };

	if (!b.data)
		return tdat_errorf(err, "out of memory");
	tdat_meta_set(m, TDAT_META_CMDLINES, &b);
	return 0;
}

/* The LAST_BOOT_INFO option just added says the pages are the last
 * boot's (not "# Current"). */
static int last_boot_pages(const struct tdat_file *m)
{
	const struct tdat_option *o = &m->options[m->noptions - 1];
	struct tdat_last_boot lb;
	char why[128];
	int r;

	if (tdat_last_boot_parse((const char *)o->data, o->size, &lb, why,
				 sizeof(why)))
		return 1;	/* unread: taken as the last boot's */
	r = lb.kind != TDAT_BOOT_CURRENT;
	tdat_last_boot_free(&lb);
	return r;
}

/* Every format, the first buffer's clock and options, each buffer's
 * last_boot_info; with the last boot's pages this boot's modules and no
 * cmdlines (unless a buffer is this boot's); BTF as trace-cmd 3.4. */
static int collect_meta(struct extract *x, struct tdat_error *err)
{
	char dir[PATH_MAX];
	int i, found;

	x->meta = sysmeta_collect(x->top, NULL, NULL, err);
	if (!x->meta ||
	    tfs_buffer_dir(x->top, x->st.names[0], dir, sizeof(dir), err) ||
	    sysmeta_page_size(dir, &x->meta->page_size, err) ||
	    sysmeta_add_options(x->meta, dir, err))
		return -1;
	for (i = 0; i < x->st.nnames; i++) {
		if (tfs_buffer_dir(x->top, x->st.names[i], dir, sizeof(dir), err) ||
		    sysmeta_add_last_boot(x->meta, dir, x->st.names[i], &found,
					  err))
			return -1;
		x->nlast += found && last_boot_pages(x->meta);
	}
	if (x->nlast && (sysmeta_add_modules(x->meta, err) ||
			 (x->nlast == x->st.nnames &&
			  no_cmdlines(x->meta, err))))
		return -1;
	return sysmeta_add_btf(x->meta, err);
}

/* Every page now in the buffers into OUT.rec/: the readers start and
 * are told at once to drain and end.  *read: a page may have been taken
 * (the readers started). */
static int read_pages(struct extract *x, int *read, struct tdat_error *err)
{
	struct reader_opts ro = { 0, -1, 0, 0, x->meta };
	struct readers *rd;
	int r;

	*read = 0;
	if (!x->st.n)
		return 0;
	rd = readers_start(x->st.specs, x->st.n, &ro, err);
	if (!rd)
		return -1;
	*read = 1;
	r = readers_stop(rd, err);
	readers_free(rd);
	return r;
}

/* The per-CPU stats now (after the reading) into the head. */
static int final_head(struct extract *x, struct tdat_error *err)
{
	char dir[PATH_MAX];
	int i;

	for (i = 0; i < x->st.nnames; i++)
		if (tfs_buffer_dir(x->top, x->st.names[i], dir, sizeof(dir), err) ||
		    sysmeta_add_cpustats(x->meta, dir, x->st.names[i],
					 (int)x->meta->cpu_count, err))
			return -1;
	return recdir_write_head(x->recdir, x->meta, 7, TDAT_CODEC_NONE, err);
}

static int start(struct extract *x, struct tdat_error *err)
{
	const struct extract_opts *o = x->o;
	struct tfs_names inst = { 0 };
	int r;

	if (tfs_find(x->top, sizeof(x->top), err) ||
	    (o->all && tfs_subdirs(x->top, "instances", &inst, err)))
		return -1;
	r = choose_buffers(x, &inst, err);
	if (!r && !x->st.nnames)
		r = tdat_errorf(err, "-a: %s/instances has no instance",
				x->top);
	if (!r)
		r = recdir_path(o->output, x->recdir, sizeof(x->recdir), err) ||
		    recdir_create(x->recdir, err);
	if (r)
		goto out;
	x->recdir_made = 1;
	x->st.raw_name = o->snapshot ? "snapshot_raw" : NULL;
	/* head.dat before the manifest: a manifest names a whole recdir */
	r = collect_meta(x, err) ||
	    rec_streams_plan(&x->st, x->top, x->recdir,
			     (int)x->meta->cpu_count, x->meta->page_size, err) ||
	    recdir_write_head(x->recdir, x->meta, 7, TDAT_CODEC_NONE, err) ||
	    rec_streams_manifest(&x->st, x->top, x->recdir,
				 (int)x->meta->cpu_count, x->meta->page_size,
				 0, o->version, o->codec, err);
out:
	tfs_names_free(&inst);
	return r ? -1 : 0;
}

static void keep_going(void *ctx, const char *msg)
{
	warn_line(msg);
}

static int finish(struct extract *x, struct tdat_error *err)
{
	struct convert_opts co = { .version = x->o->version,
				   .codec = x->o->codec, .level = 1,
				   .warn = keep_going };
	struct tdat_error e;
	struct tdat_file *head = x->meta;

	x->meta = NULL;		/* taken over (closed) by the assembly */
	if (assemble_recording_head(x->recdir, head, x->o->output, &co, &e))
		return tdat_errorf(err, "%s (what was read is in %s: \"tdat"
				   " restore %s\" makes the file)", e.msg,
				   x->recdir, x->o->output);
	if (recdir_remove(x->recdir, &e))
		warn_line(e.msg);
	return 0;
}

int extract_run(const struct extract_opts *o)
{
	struct extract x;
	struct tdat_error err, e;
	int r, read = 0;

	memset(&x, 0, sizeof(x));
	x.o = o;
	r = start(&x, &err);
	if (!r && (read_pages(&x, &read, &e) || final_head(&x, &e))) {
		r = -1;
		if (read)	/* pages were taken: OUT.rec/ has them */
			tdat_errorf(&err, "%s (what was read is in %s: \"tdat"
				    " restore %s\" makes the file)", e.msg,
				    x.recdir, o->output);
		else
			err = e;
	}
	if (r && !read && x.recdir_made && recdir_remove(x.recdir, &e))
		warn_line(e.msg);	/* nothing read: nothing to keep */
	if (!r)
		r = finish(&x, &err);
	tdat_close(x.meta);
	rec_streams_free(&x.st);
	if (r) {
		fprintf(stderr, "tdat extract: %s\n", err.msg);
		return 1;
	}
	if (!o->quiet)
		fprintf(stderr, "tdat extract: wrote %s%s\n", o->output,
			x.nlast ? " (with the last boot's pages: symbols"
			" named as that boot had them)" : "");
	return 0;
}
