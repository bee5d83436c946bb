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
 * Joined: event formats (the union), kallsyms and printk formats (the
 * union of their lines), saved cmdlines (the union by pid, first comm
 * wins), buffers (by name) and their CPUs, the CPU count (the largest),
 * and options that several recordings each have (CPUSTAT...: each
 * input's run of them, unless the same run is there already), unknown
 * sections (see join_extras).  Kept from the first input that has them:
 * TRACECLOCK, VERSION, TRACEID, BTF and modules sections (the larger when
 * they differ).
 *
 * Inputs after the first may come opened lazily (TDAT_OPEN_LAZY_META):
 * a metadata section whose stored bytes are those of the output's so far
 * is known equal without being decompressed; only the others are
 * decoded and joined.  Whatever changes a section's content goes through
 * tdat_meta_set, which drops the stored form the writer would copy.
 *
 * This file holds the entry points and the checks of the header and the
 * buffers; event formats are joined in merge_formats.c, kallsyms, printk
 * formats, cmdlines, BTF and modules in merge_texts.c, options in
 * merge_options.c, unknown sections in merge_extras.c; the copies and the
 * conflict line they share are in merge_parts.c, below them all
 * (merge_meta_internal.h is what they share).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"

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
		return conflict(w, "different byte order");
	if (m->long_size != f->long_size)
		return conflict(w, "different long size");
	if (m->page_size != f->page_size) {
		snprintf(msg, sizeof(msg), "different page sizes (%u and %u)",
			 f->page_size, m->page_size);
		return conflict(w, msg);
	}
	if (m->commit_size != f->commit_size ||
	    m->page_header_size != f->page_header_size ||
	    !blob_equal(&m->meta[TDAT_META_HEADERS], &f->meta[TDAT_META_HEADERS]))
		return conflict(w, "different header_page or header_event");
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
			return conflict(w, msg);
		}
		if (o->page_size != b->page_size) {
			snprintf(msg, sizeof(msg), "buffer %s has different page"
				 " sizes (%u and %u)", label(b->name),
				 b->page_size, o->page_size);
			return conflict(w, msg);
		}
		if (b->clock && b->clock[0] && o->clock[0] &&
		    strcmp(b->clock, o->clock)) {
			snprintf(msg, sizeof(msg), "buffer %s has different"
				 " clocks (%s and %s)", label(b->name),
				 b->clock, o->clock);
			return conflict(w, msg);
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
	if (check_header(m, f, w) || join_formats(m, f, w) ||
	    join_options(m, f, w) || join_buffers(m, f, w) ||
	    join_text(m, f, TDAT_META_KALLSYMS, w) ||
	    join_text(m, f, TDAT_META_PRINTK, w) ||
	    join_text(m, f, TDAT_META_CMDLINES, w) ||
	    join_raw(m, f, TDAT_META_BTF, w) ||
	    join_raw(m, f, TDAT_META_MODULES, w) ||
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
	if ((w.known & FORMAT_PARTS) && (!same_part(m, f, TDAT_META_FTRACE, &w) ||
					 !same_part(m, f, TDAT_META_EVENTS, &w))) {
		w.known &= ~FORMAT_PARTS;
		if (settle(m, f, TDAT_META_FTRACE, 0, err) ||
		    settle(m, f, TDAT_META_EVENTS, 0, err))
			return -1;
	}
	return join_all(m, f, &w);
}
