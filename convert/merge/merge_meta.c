/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_meta.c - can two inputs share one file, and what the output's
 * metadata is.
 *
 * Must be equal (else the merge is refused): byte order, long size, page
 * size, header_page/header_event, the format of every event both inputs
 * know (and no event ID may name two events), the kernel (UNAME) and
 * whatever shifts timestamps (DATE, OFFSET, TSC2NSEC, TIME_SHIFT), and per
 * buffer of one name: page size, clock, kind (CPU data or latency text).
 * Joined: event formats, kallsyms, printk formats, cmdlines, BTF and
 * modules (merge_texts.c), buffers (by name) and their CPUs, the CPU
 * count (the largest), options (single ones from the first input that
 * has one; those each recording has a run of, CPUSTAT..., once per
 * distinct run), unknown sections (see join_extras).
 *
 * Inputs after the first may come opened lazily (TDAT_OPEN_LAZY_META):
 * a metadata section whose stored bytes are those of the output's so far
 * is known equal without being decompressed; only the others are
 * decoded and joined.  Whatever changes a section's content goes through
 * tdat_meta_set, which drops the stored form the writer would copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"

/* ---- copies and conflicts ---- */

static int blob_copy(struct tdat_blob *to, const struct tdat_blob *from)
{
	to->data = NULL;
	to->len = from->len;
	if (!from->len)
		return 0;
	to->data = malloc(from->len);
	if (!to->data)
		return -1;
	memcpy(to->data, from->data, from->len);
	return 0;
}

static int blob_equal(const struct tdat_blob *a, const struct tdat_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data,
						       a->len));
}

/* ---- options: which must match, which are joined ---- */

static int is_single(uint16_t id)
{
	switch (id) {
	case TDAT_OPT_DATE:
	case TDAT_OPT_TRACECLOCK:
	case TDAT_OPT_UNAME:
	case TDAT_OPT_OFFSET:
	case TDAT_OPT_CPUCOUNT:
	case TDAT_OPT_VERSION:
	case TDAT_OPT_TRACEID:
	case TDAT_OPT_TIME_SHIFT:
	case TDAT_OPT_TSC2NSEC:
		return 1;
	}
	return 0;
}

/* Options that change what timestamps mean, or name the kernel. */
static const char *must_match(uint16_t id)
{
	switch (id) {
	case TDAT_OPT_DATE: return "different DATE offsets";
	case TDAT_OPT_OFFSET: return "different timestamp OFFSET options";
	case TDAT_OPT_TSC2NSEC: return "different TSC2NSEC conversions";
	case TDAT_OPT_TIME_SHIFT: return "different TIME_SHIFT options";
	case TDAT_OPT_UNAME: return "different kernels (UNAME)";
	}
	return NULL;
}

static int option_equal(const struct tdat_option *a,
			const struct tdat_option *b)
{
	return a->size == b->size && (!a->size || !memcmp(a->data, b->data,
							  a->size));
}

/* Indices of the options of id in f, in order; their count. */
static int option_run(const struct tdat_file *f, uint16_t id, int *ix)
{
	int i, n = 0;

	for (i = 0; i < f->noptions; i++)
		if (f->options[i].id == id)
			ix[n++] = i;
	return n;
}

/* Is f's run of options of this id already a run of m's?  -1: no memory. */
static int run_present(const struct tdat_file *m, const struct tdat_file *f,
		       uint16_t id)
{
	int *fi = malloc(((size_t)f->noptions + 1) * sizeof(int));
	int *mi = malloc(((size_t)m->noptions + 1) * sizeof(int));
	int nf, nm, i, k, r = 0;

	if (!fi || !mi) {
		r = -1;
		goto out;
	}
	nf = option_run(f, id, fi);
	nm = option_run(m, id, mi);
	for (i = 0; !r && i + nf <= nm; i++) {
		for (k = 0; k < nf; k++)
			if (!option_equal(&m->options[mi[i + k]],
					  &f->options[fi[k]]))
				break;
		r = k == nf;
	}
out:
	free(fi);
	free(mi);
	return r;
}

static int join_options(struct tdat_file *m, const struct tdat_file *f,
		 const struct who *w)
{
	const struct tdat_option *a, *b;
	int i, j;

	for (i = 0; i < f->noptions; i++) {
		uint16_t id = f->options[i].id;
		const char *what = must_match(id);

		if (!what)
			continue;
		b = tdat_find_option(f, id);
		a = tdat_find_option(m, id);
		/* A missing UNAME is fine; a missing offset is not. */
		if ((a && !option_equal(a, b)) ||
		    (!a && id != TDAT_OPT_UNAME))
			return meta_conflict(w, what);
	}
	for (i = 0; i < m->noptions; i++) {
		uint16_t id = m->options[i].id;
		const char *what = must_match(id);

		if (what && id != TDAT_OPT_UNAME && !tdat_find_option(f, id))
			return meta_conflict(w, what);
	}
	for (i = 0; i < f->noptions; i++) {
		uint16_t id = f->options[i].id;

		if (is_single(id)) {
			if (!tdat_find_option(m, id) &&
			    tdat_add_option(m, &f->options[i]))
				goto nomem;
			continue;
		}
		for (j = 0; j < i && f->options[j].id != id; j++)
			;
		if (j < i)
			continue;	/* this id's run is handled */
		j = run_present(m, f, id);
		if (j < 0)
			goto nomem;
		if (j)
			continue;
		for (j = i; j < f->noptions; j++)
			if (f->options[j].id == id &&
			    tdat_add_option(m, &f->options[j]))
				goto nomem;
	}
	return 0;
nomem:
	return tdat_fail_nooff(w->err, w->file, "out of memory");
}

/* A CPUCOUNT among the user options says the largest count (one that
 * holds no count, such as gpuvis's pid table, is kept as it is). */
static void fix_cpucount_option(struct tdat_file *m)
{
	struct tdat_option *o;
	uint32_t n;
	int i;

	for (i = 0; i < m->noptions; i++) {
		o = &m->options[i];
		if (o->id == TDAT_OPT_CPUCOUNT &&
		    tdat_cpucount_payload(m->big_endian, o->data, o->size, &n))
			tdat_put32(m, o->data, m->cpu_count);
	}
}

/* ---- unknown sections: every input's ---- */

#define EXTRA_COMPRESSED 1	/* v7 section flag bit 0 */

/* x's body as m keeps it: in m's codec, or decompressed (flag cleared)
 * when f's codec is another. */
static int extra_body(const struct tdat_file *m, const struct tdat_file *f,
		      const struct tdat_extra_section *x, uint16_t *flags,
		      struct tdat_blob *body, const struct who *w)
{
	*flags = x->flags;
	if (!(x->flags & EXTRA_COMPRESSED) || f->codec == m->codec) {
		if (blob_copy(body, &x->body))
			return tdat_fail_nooff(w->err, w->file,
					       "out of memory");
		return 0;
	}
	*flags &= (uint16_t)~EXTRA_COMPRESSED;
	return tdat_extra_decode(f, x, body, w->err);
}

/* Same id and flags, and the same bytes, or the same content once
 * decompressed (one content can be compressed in many ways).  -1: error. */
static int same_extra(const struct tdat_file *m,
		      const struct tdat_extra_section *a, uint16_t id,
		      uint16_t flags, const struct tdat_blob *body,
		      const struct who *w)
{
	struct tdat_blob da, db;
	struct tdat_extra_section b = *a;
	int r;

	if (a->id != id || a->flags != flags)
		return 0;
	if (blob_equal(&a->body, body))
		return 1;
	if (!(flags & EXTRA_COMPRESSED))
		return 0;
	b.body = *body;
	if (tdat_extra_decode(m, a, &da, w->err))
		return -1;
	if (tdat_extra_decode(m, &b, &db, w->err)) {
		free(da.data);
		return -1;
	}
	r = blob_equal(&da, &db);
	free(da.data);
	free(db.data);
	return r;
}

static int add_extra(struct tdat_file *m, const struct tdat_extra_section *x,
		     uint16_t flags, struct tdat_blob *body)
{
	struct tdat_extra_section *v;

	v = realloc(m->extra, (size_t)(m->nextra + 1) * sizeof(*v));
	if (!v)
		return -1;
	m->extra = v;
	v = &m->extra[m->nextra];
	memset(v, 0, sizeof(*v));
	if (x->description && !(v->description = strdup(x->description)))
		return -1;
	v->id = x->id;
	v->flags = flags;
	v->offset = x->offset;
	v->body = *body;
	body->data = NULL;
	m->nextra++;
	return 0;
}

/*
 * Unknown sections are opaque to merge.  Identical ones (id, flags,
 * content) are kept once; any other is added, also beside a different
 * section of the same id: merge cannot tell which of the two is right,
 * and refusing would stop merges every reader can read.  Keeping both
 * loses nothing (a reader that does not know the id skips both, as it
 * skipped one); the user is told, as a reader that knows the id may
 * expect one.
 */
static int join_extras(struct tdat_file *m, const struct tdat_file *f,
		const struct who *w)
{
	struct tdat_blob body;
	uint16_t flags;
	int i, k, r, twin;

	for (i = 0; i < f->nextra; i++) {
		const struct tdat_extra_section *x = &f->extra[i];

		if (extra_body(m, f, x, &flags, &body, w))
			return -1;
		twin = -1;
		for (k = 0, r = 0; k < m->nextra && r == 0; k++) {
			r = same_extra(m, &m->extra[k], x->id, flags, &body,
				       w);
			if (m->extra[k].id == x->id)
				twin = k;
		}
		if (r) {
			free(body.data);
			if (r < 0)
				return -1;
			continue;
		}
		/* (A v6 output drops them all, and says so.) */
		if (twin >= 0 && w->mc && w->mc->out_version != 6)
			merge_warn(w->mc, "%s: section %u differs from the one"
				   " %s has: both kept (a reader that knows"
				   " section %u may expect one)", w->file,
				   x->id, w->first, x->id);
		if (add_extra(m, x, flags, &body)) {
			free(body.data);
			return tdat_fail_nooff(w->err, w->file,
					       "out of memory");
		}
	}
	return 0;
}

/* A buffer of from's name, clock, page size and kind, with its CPU ids
 * (offsets are the writer's): its index in m, or -1 out of memory. */
static int add_buffer(struct tdat_file *m, const struct tdat_buffer *from)
{
	int i, k = tdat_meta_add_buffer(m, from->name, from->clock,
					from->page_size);

	if (k < 0)
		return -1;
	m->buffers[k].latency = from->latency;
	for (i = 0; !from->latency && i < from->ncpus; i++)
		if (tdat_meta_add_cpu(m, k, from->cpus[i].cpu))
			return -1;
	return k;
}

static void raise_cpu_count(struct tdat_file *m, const struct tdat_file *f)
{
	uint32_t n = tdat_cpus(f);
	int i, j;

	if (n > m->cpu_count)
		m->cpu_count = n;
	for (i = 0; i < m->nbuffers; i++)
		for (j = 0; j < m->buffers[i].ncpus; j++)
			if ((uint32_t)m->buffers[i].cpus[j].cpu >= m->cpu_count)
				m->cpu_count = (uint32_t)m->buffers[i].cpus[j].cpu
					       + 1;
	if (f->has_cpucount)
		m->has_cpucount = 1;
}

void meta_free(struct tdat_file *m)
{
	tdat_close(m);	/* made by tdat_meta_clone: frees what it owns */
}

struct tdat_file *meta_from_first(const struct tdat_file *f,
				  struct tdat_error *err)
{
	/* Buffers are added ours: CPU ids only, the writer places data. */
	struct tdat_file *m = tdat_meta_clone(f, 0, err);
	int i;

	if (!m)
		return NULL;
	for (i = 0; i < f->nbuffers; i++)
		if (add_buffer(m, &f->buffers[i]) < 0) {
			tdat_fail_nooff(err, f->path, "out of memory");
			meta_free(m);
			return NULL;
		}
	raise_cpu_count(m, f);
	return m;
}

int meta_buffer(const struct tdat_file *m, const char *name)
{
	int i;

	for (i = 0; i < m->nbuffers; i++)
		if (!strcmp(m->buffers[i].name, name))
			return i;
	return -1;
}

/* ---- conflicts ---- */

static int check_header(const struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	char msg[200];

	if (m->big_endian != f->big_endian)
		return meta_conflict(w, "different byte order");
	if (m->long_size != f->long_size)
		return meta_conflict(w, "different long size");
	if (m->page_size != f->page_size) {
		snprintf(msg, sizeof(msg), "different page sizes (%u and %u)",
			 f->page_size, m->page_size);
		return meta_conflict(w, msg);
	}
	if (m->commit_size != f->commit_size ||
	    m->page_header_size != f->page_header_size ||
	    !blob_equal(&m->meta[TDAT_META_HEADERS], &f->meta[TDAT_META_HEADERS]))
		return meta_conflict(w, "different header_page or header_event");
	return 0;
}

/* ---- buffers ---- */

static const char *label(const char *name)
{
	return name[0] ? name : "(top)";
}

static int join_buffers(struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	char msg[400];
	int i, j, k;

	for (i = 0; i < f->nbuffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];
		struct tdat_buffer *o;

		k = meta_buffer(m, b->name);
		if (k < 0) {
			if (add_buffer(m, b) < 0)
				goto nomem;
			continue;
		}
		o = &m->buffers[k];
		if (o->latency || b->latency) {
			snprintf(msg, sizeof(msg), "both have buffer %s, and"
				 " latency text cannot be joined",
				 label(b->name));
			return meta_conflict(w, msg);
		}
		if (o->page_size != b->page_size) {
			snprintf(msg, sizeof(msg), "buffer %s has different page"
				 " sizes (%u and %u)", label(b->name),
				 b->page_size, o->page_size);
			return meta_conflict(w, msg);
		}
		if (b->clock && b->clock[0] && o->clock[0] &&
		    strcmp(b->clock, o->clock)) {
			snprintf(msg, sizeof(msg), "buffer %s has different"
				 " clocks (%s and %s)", label(b->name),
				 b->clock, o->clock);
			return meta_conflict(w, msg);
		}
		if (b->clock && b->clock[0] && !o->clock[0]) {
			free(o->clock);
			if (!(o->clock = strdup(b->clock)))
				goto nomem;
		}
		for (j = 0; j < b->ncpus; j++)
			if (tdat_meta_add_cpu(m, k, b->cpus[j].cpu))
				goto nomem;
	}
	return 0;
nomem:
	return tdat_fail_nooff(w->err, w->file, "out of memory");
}

/* The top buffer goes first, as readers expect. */
static void top_first(struct tdat_file *m)
{
	int k = meta_buffer(m, "");
	struct tdat_buffer t;

	if (k <= 0)
		return;
	t = m->buffers[k];
	memmove(&m->buffers[1], &m->buffers[0], (size_t)k * sizeof(t));
	m->buffers[0] = t;
}

/* ---- all of it ---- */

static int join_all(struct tdat_file *m, const struct tdat_file *f,
		    const struct who *w)
{
	if (check_header(m, f, w) || texts_join_formats(m, f, w) ||
	    join_options(m, f, w) || join_buffers(m, f, w) ||
	    texts_join_lines(m, f, TDAT_META_KALLSYMS, w) ||
	    texts_join_lines(m, f, TDAT_META_PRINTK, w) ||
	    texts_join_lines(m, f, TDAT_META_CMDLINES, w) ||
	    texts_join_raw(m, f, TDAT_META_BTF, w) ||
	    texts_join_raw(m, f, TDAT_META_MODULES, w) ||
	    join_extras(m, f, w))
		return -1;
	top_first(m);
	raise_cpu_count(m, f);
	fix_cpucount_option(m);
	return 0;
}

int meta_join(struct tdat_file *m, const struct tdat_file *f,
	      const char *first, struct tdat_error *err)
{
	struct who w = { f->path, first, err, 0, NULL };
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++)
		if (tdat_meta_pending(f, i) || tdat_meta_pending(m, i))
			return tdat_fail_nooff(err, f->path, "metadata section"
					       " %d is not decoded (opened"
					       " lazily: use meta_join_input)",
					       TDAT_META_FIRST + i);
	return join_all(m, f, &w);
}

#define FORMAT_PARTS ((1u << TDAT_META_FTRACE) | (1u << TDAT_META_EVENTS))

/* Decode part i of m and f unless it is known equal. */
static int settle(struct tdat_file *m, struct tdat_file *f, int i,
		  unsigned known, struct tdat_error *err)
{
	if (known & (1u << i))
		return 0;
	return tdat_meta_load(f, i, err) || tdat_meta_load(m, i, err) ? -1 : 0;
}

int meta_join_input(struct merge_ctx *mc, struct tdat_file *f,
		    struct tdat_error *err)
{
	struct tdat_file *m = mc->meta;
	struct who w = { f->path, mc->in[0].path, err, 0, mc };
	int i, r;

	for (i = 0; i < TDAT_META_COUNT; i++) {
		r = tdat_meta_same_stored(m, f, i, err);
		if (r < 0)
			return -1;
		if (r)
			w.known |= 1u << i;
	}
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (settle(m, f, i, w.known, err))
			return -1;
	/* The formats are parsed together: if one part differs, the other
	 * is needed too, even when it is known equal. */
	if ((w.known & FORMAT_PARTS) &&
	    (!meta_same_part(m, f, TDAT_META_FTRACE, &w) ||
	     !meta_same_part(m, f, TDAT_META_EVENTS, &w))) {
		w.known &= ~FORMAT_PARTS;
		if (settle(m, f, TDAT_META_FTRACE, 0, err) ||
		    settle(m, f, TDAT_META_EVENTS, 0, err))
			return -1;
	}
	return join_all(m, f, &w);
}
