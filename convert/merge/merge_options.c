/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_options.c - the output's options.  Those that change what
 * timestamps mean or name the kernel must match (else the merge is
 * refused); single options are kept from the first input that has one;
 * options each recording has its own run of (CPUSTAT...) are kept once
 * per distinct run, so nothing an input said is lost or doubled.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_meta_internal.h"

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

int join_options(struct tdat_file *m, const struct tdat_file *f,
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
			return conflict(w, what);
	}
	for (i = 0; i < m->noptions; i++) {
		uint16_t id = m->options[i].id;
		const char *what = must_match(id);

		if (what && id != TDAT_OPT_UNAME && !tdat_find_option(f, id))
			return conflict(w, what);
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
void fix_cpucount_option(struct tdat_file *m)
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
