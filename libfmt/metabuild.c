/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metabuild.c - metadata made in memory for writers (metabuild.h).
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"
#include "libfmt/metabuild.h"

struct tdat_file *tdat_meta_new(int version, int big_endian, int long_size,
				uint32_t page_size, struct tdat_error *err)
{
	struct tdat_file *f = file_alloc();

	if (!f) {
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	f->version = version;
	f->big_endian = big_endian;
	f->long_size = long_size;
	f->page_size = page_size;
	return f;
}

/* strdup that keeps NULL: 0, or -1 when out of memory. */
static int dup_opt(char **to, const char *s)
{
	*to = s ? strdup(s) : NULL;
	return s && !*to ? -1 : 0;
}

/* The fields read from the file's headers, and the CPU count. */
static int clone_header(struct tdat_file *to, const struct tdat_file *from)
{
	to->version = from->version;
	to->big_endian = from->big_endian;
	to->long_size = from->long_size;
	to->page_size = from->page_size;
	to->codec = from->codec;
	to->commit_size = from->commit_size;
	to->page_header_size = from->page_header_size;
	to->cpu_count = from->cpu_count;
	to->has_cpucount = from->has_cpucount;
	if (dup_opt(&to->path, from->path) ||
	    dup_opt(&to->codec_name, from->codec_name) ||
	    dup_opt(&to->codec_version, from->codec_version))
		return -1;
	return tdat_blob_dup(&to->strings, from->strings.data,
			     from->strings.len);
}

/* Unknown sections, bodies as stored. */
static int clone_extra(struct tdat_file *to, const struct tdat_file *from)
{
	int i;

	if (!from->nextra)
		return 0;
	to->extra = calloc((size_t)from->nextra, sizeof(*to->extra));
	if (!to->extra)
		return -1;
	for (i = 0; i < from->nextra; i++) {
		const struct tdat_extra_section *x = &from->extra[i];
		struct tdat_extra_section *y = &to->extra[to->nextra++];

		y->id = x->id;
		y->flags = x->flags;
		y->offset = x->offset;
		if (dup_opt(&y->description, x->description) ||
		    tdat_blob_dup(&y->body, x->body.data, x->body.len))
			return -1;
	}
	return 0;
}

/* Options, extras and (when asked) buffers: 0, or -1 out of memory. */
static int clone_lists(struct tdat_file *to, const struct tdat_file *from,
		       unsigned what)
{
	int i;

	for (i = 0; i < from->noptions; i++)
		if (tdat_add_option(to, &from->options[i]))
			return -1;
	if (clone_extra(to, from))
		return -1;
	for (i = 0; (what & TDAT_CLONE_BUFFERS) && i < from->nbuffers; i++)
		if (tdat_meta_copy_buffer(to, &from->buffers[i], NULL) < 0)
			return -1;
	return 0;
}

struct tdat_file *tdat_meta_clone(const struct tdat_file *from,
				  unsigned what, struct tdat_error *err)
{
	struct tdat_file *to = file_alloc();
	int i;

	if (!to || clone_header(to, from) || clone_lists(to, from, what))
		goto nomem;
	for (i = 0; !(what & TDAT_CLONE_NO_PARTS) && i < TDAT_META_COUNT; i++)
		if (tdat_meta_copy(to, from, i, err))
			goto fail;
	return to;
nomem:
	tdat_fail_nooff(err, from->path ? from->path : "metadata",
			"out of memory");
fail:
	tdat_close(to);
	return NULL;
}

int tdat_meta_take(struct tdat_file *to, struct tdat_file *from,
		   enum tdat_meta m, struct tdat_error *err)
{
	if (tdat_meta_load(from, m, err))
		return -1;
	tdat_meta_drop(to, m);
	if (!tdat_meta_has(from, m))
		return 0;
	tdat_meta_set(to, m, &from->meta[m]);	/* from->meta[m] emptied */
	tdat_meta_drop(from, m);
	return 0;
}

int tdat_meta_add_buffer(struct tdat_file *f, const char *name,
			 const char *clock, uint32_t page_size)
{
	struct tdat_buffer *b = buffers_add(f);

	if (!b)
		return -1;
	b->page_size = page_size;
	b->name = strdup(name);
	b->clock = strdup(clock ? clock : "");
	return b->name && b->clock ? f->nbuffers - 1 : -1;
}

int tdat_meta_copy_buffer(struct tdat_file *f, const struct tdat_buffer *from,
			  const char *name)
{
	/* from may be one of f's own, moved when the table grows. */
	const struct tdat_buffer src = *from;
	struct tdat_buffer *b;
	int i = tdat_meta_add_buffer(f, name ? name : src.name, src.clock,
				     src.page_size);

	if (i < 0)
		return -1;
	b = &f->buffers[i];
	b->latency = src.latency;
	b->compressed = src.compressed;
	b->section_offset = src.section_offset;
	b->latency_offset = src.latency_offset;
	b->latency_size = src.latency_size;
	if (!src.ncpus)
		return i;
	b->cpus = malloc((size_t)src.ncpus * sizeof(*b->cpus));
	if (!b->cpus)
		return -1;
	memcpy(b->cpus, src.cpus, (size_t)src.ncpus * sizeof(*b->cpus));
	b->ncpus = src.ncpus;
	return i;
}

int tdat_meta_add_cpu(struct tdat_file *f, int buf, int cpu)
{
	struct tdat_buffer *b = &f->buffers[buf];
	struct tdat_cpu *c;
	int i;

	for (i = 0; i < b->ncpus; i++)
		if (b->cpus[i].cpu == cpu)
			return 0;
	c = realloc(b->cpus, (size_t)(b->ncpus + 1) * sizeof(*c));
	if (!c)
		return -1;
	b->cpus = c;
	memset(&c[b->ncpus], 0, sizeof(*c));
	c[b->ncpus++].cpu = cpu;
	return 0;
}
