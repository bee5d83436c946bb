/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - vmcore_run: the dump opened, the crashed kernel's symbols and
 * types read, the trace arrays chosen as extract's options say, the
 * metadata made, then every chosen buffer's CPUs written page by page.
 * Only the pages of the ring buffers (and the structures that lead to
 * them) are read: never a scan of the dump.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore.h"
#include "convert/vmcore/vmcore_internal.h"
#include "libfmt/pagecut.h"

struct job {
	const struct vmcore_opts *o;
	struct kernel k;
	struct dumpfile *dump;
	struct karrays arrays;
	int *chosen;
	int nchosen;
	struct kring *rings;
	struct tdat_file *meta;
	struct tdat_writer *w;
	uint8_t *cut;		/* a reader page without what was read */
	uint64_t pages, events;
	uint64_t bad;		/* pages that did not parse, left out */
	struct kring_stats ring;	/* hollow: empty pages inside rings */
	int buf;		/* the buffer being written */
};

static int find_array(const struct karrays *a, const char *name)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return i;
	return -1;
}

static int choose_one(struct job *j, int i)
{
	int k;

	for (k = 0; k < j->nchosen; k++)
		if (j->chosen[k] == i)
			return 0;
	j->chosen[j->nchosen++] = i;
	return 0;
}

/* The top buffer (-t, or without -B and -a), then -a's instances or
 * -B's, each once. */
static int choose(struct job *j, struct tdat_error *err)
{
	const struct vmcore_opts *o = j->o;
	int i, at;

	j->chosen = calloc((size_t)j->arrays.n + 1, sizeof(*j->chosen));
	if (!j->chosen)
		return tdat_errorf(err, "out of memory");
	if (o->top || (!o->all && !o->nnames))
		choose_one(j, 0);
	for (i = 1; o->all && i < j->arrays.n; i++)
		choose_one(j, i);
	for (i = 0; i < o->nnames; i++) {
		at = find_array(&j->arrays, o->names[i]);
		if (at <= 0)
			return kmem_failn(&j->k.mem, err, "-B %s: the crashed"
					  " kernel has no such instance",
					  o->names[i]);
		choose_one(j, at);
	}
	if (!j->nchosen)
		return kmem_failn(&j->k.mem, err, "-a: the crashed kernel has"
				  " no instance");
	return 0;
}

static int load_kernel(struct job *j, struct tdat_error *err)
{
	struct kernel *k = &j->k;
	int i;

	if (kernel_open(k, j->o->dump, &j->dump, err) ||
	    karrays_load(k, &j->arrays, err) || choose(j, err))
		return -1;
	j->rings = calloc((size_t)j->nchosen, sizeof(*j->rings));
	if (!j->rings)
		return tdat_errorf(err, "out of memory");
	for (i = 0; i < j->nchosen; i++)
		if (kring_layout(k, j->arrays.v[j->chosen[i]].buffer,
				 &j->rings[i], err))
			return -1;
	return 0;
}

/* Events of a page: the index of the first at or after data byte skip
 * (*first), and how many in all; -1 when the page does not parse. */
static int count_events(const struct job *j, const uint8_t *page,
			uint32_t page_size, uint32_t skip, uint32_t *first,
			uint32_t *n)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int r;

	*first = *n = 0;
	if (tdat_page_iter_init(&it, j->meta, page, page_size))
		return -1;
	while ((r = tdat_page_iter_next(&it, &ev)) == 1) {
		if (ev.offset < (uint32_t)j->meta->page_header_size + skip)
			(*first)++;
		(*n)++;
	}
	return r;
}

/* One page from the ring: checked, cut after what a reader took, out. */
static int put_page(void *ctx, const uint8_t *page, uint32_t skip,
		    struct tdat_error *err)
{
	struct job *j = ctx;
	uint32_t size = j->rings[j->buf].page_size, first, n;

	if (count_events(j, page, size, skip, &first, &n)) {
		j->bad++;	/* told once, at the end */
		return 0;
	}
	if (skip) {
		if (tdat_page_cut_index(j->meta, page, size, first, UINT32_MAX,
					j->cut, 0, err) < 0)
			return -1;
		page = j->cut;
		n -= first;
	}
	j->pages++;
	j->events += n;
	return tdat_writer_put_pages(j->w, page, size, err);
}

static int write_buffers(struct job *j, struct tdat_error *err)
{
	uint64_t hollow = 0;
	int cpu;

	for (j->buf = 0; j->buf < j->nchosen; j->buf++) {
		free(j->cut);
		j->cut = malloc(j->rings[j->buf].page_size);
		if (!j->cut)
			return tdat_errorf(err, "out of memory");
		for (cpu = 0; cpu < j->arrays.ncpus; cpu++) {
			if (tdat_writer_begin_cpu(j->w, j->buf, cpu, err) ||
			    kring_pages(&j->k, j->arrays.v[j->chosen[j->buf]].buffer,
					cpu, &j->rings[j->buf], put_page, j,
					&j->ring, err) ||
			    tdat_writer_end_cpu(j->w, err))
				return -1;
			hollow += j->ring.hollow;
		}
	}
	j->ring.hollow = hollow;
	return 0;
}

static int extract(struct job *j, struct tdat_error *err)
{
	struct tdat_write_opts wo = { .version = j->o->version,
				      .codec = j->o->codec };

	if (load_kernel(j, err))
		return -1;
	j->meta = kmeta_build(&j->k, &j->arrays, j->chosen, j->nchosen,
			      j->rings, err);
	if (!j->meta)
		return -1;
	j->w = tdat_writer_open(j->o->output, j->meta, &wo, err);
	if (!j->w)
		return -1;
	if (write_buffers(j, err)) {
		tdat_writer_abort(j->w);
		j->w = NULL;
		return -1;
	}
	return tdat_writer_close(j->w, err);
}

static void job_free(struct job *j)
{
	free(j->cut);
	tdat_close(j->meta);
	free(j->rings);
	free(j->chosen);
	karrays_free(&j->arrays);
	kernel_close(&j->k, j->dump);
}

int vmcore_run(const struct vmcore_opts *o)
{
	struct job j;
	struct tdat_error err;
	int r;

	memset(&j, 0, sizeof(j));
	j.o = o;
	r = extract(&j, &err);
	if (j.bad)
		fprintf(stderr, "tdat extract: warning: %s: %llu ring-buffer"
			" page%s did not parse: left out\n", o->dump,
			(unsigned long long)j.bad, j.bad == 1 ? "" : "s");
	if (j.ring.hollow)
		fprintf(stderr, "tdat extract: warning: %s: %llu ring-buffer"
			" page%s inside a ring empty (zeros of a damaged"
			" dump? events may be missing)\n", o->dump,
			(unsigned long long)j.ring.hollow,
			j.ring.hollow == 1 ? "" : "s");
	if (r)
		fprintf(stderr, "tdat extract: %s\n", err.msg);
	else if (!o->quiet)
		fprintf(stderr, "tdat extract: wrote %s: %d buffer%s, %llu"
			" events in %llu pages, from %s\n", o->output,
			j.nchosen, j.nchosen == 1 ? "" : "s",
			(unsigned long long)j.events,
			(unsigned long long)j.pages, o->dump);
	job_free(&j);
	return r ? 1 : 0;
}
