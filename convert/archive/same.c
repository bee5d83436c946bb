/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * same.c - whether an archive holds what its original held: the header
 * fields readers use, every metadata part, user option and section of
 * unknown id, and every buffer's pages, read back completely and
 * compared byte for byte (whatever the versions, codecs and chunks).
 *
 * One option may differ in form: where a v6 file's clock record decides
 * how times show, a v7 copy carries the clock in its TRACECLOCK option
 * and the v6 option in a section of tdat's own (libfmt/v6shown.c), so
 * that a v6 copy of it gets the original back.  TRACECLOCK is compared
 * by what readers make of it (the clock that decides, and whether there
 * is one); that section, like every other, byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/archive/archive_internal.h"

static int differ(char *why, size_t cap, const char *what)
{
	snprintf(why, cap, "%s", what);
	return 1;
}

static int same_blob(const void *a, size_t na, const void *b, size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na));
}

/* The same clock decides how times show, and both have a TRACECLOCK
 * option or neither. */
static int same_clock(const struct tdat_file *a, const struct tdat_file *b)
{
	char ca[64] = "", cb[64] = "";

	return tdat_shown_clock(a, ca, sizeof(ca)) ==
	       tdat_shown_clock(b, cb, sizeof(cb)) && !strcmp(ca, cb) &&
	       !tdat_find_option(a, TDAT_OPT_TRACECLOCK) ==
	       !tdat_find_option(b, TDAT_OPT_TRACECLOCK);
}

static int same_option(const struct tdat_option *x,
		       const struct tdat_option *y)
{
	return x->id == y->id && (x->id == TDAT_OPT_TRACECLOCK ||
				  same_blob(x->data, x->size, y->data,
					    y->size));
}

static int same_meta(const struct tdat_file *a, const struct tdat_file *b,
		     char *why, size_t cap)
{
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++)
		if (tdat_meta_has(a, i) != tdat_meta_has(b, i) ||
		    !same_blob(a->meta[i].data, a->meta[i].len,
			       b->meta[i].data, b->meta[i].len))
			return differ(why, cap, "a metadata part differs");
	if (a->noptions != b->noptions || !same_clock(a, b))
		return differ(why, cap, "the options differ");
	for (i = 0; i < a->noptions; i++)
		if (!same_option(&a->options[i], &b->options[i]))
			return differ(why, cap, "an option differs");
	if (a->nextra != b->nextra)
		return differ(why, cap, "the sections of unknown id differ");
	for (i = 0; i < a->nextra; i++)
		if (a->extra[i].id != b->extra[i].id ||
		    !same_blob(a->extra[i].body.data, a->extra[i].body.len,
			       b->extra[i].body.data, b->extra[i].body.len))
			return differ(why, cap, "a section of unknown id"
				      " differs");
	return 0;
}

/* The index of CPU id cpu in buffer b of f (with data), or -1. */
static int cpu_index(const struct tdat_file *f, int b, int cpu)
{
	const struct tdat_buffer *buf = &f->buffers[b];
	int i;

	for (i = 0; i < buf->ncpus; i++)
		if (buf->cpus[i].cpu == cpu && buf->cpus[i].size)
			return i;
	return -1;
}

/* The next page of r (NULL: an empty stream): 1, 0 at the end, -1. */
static int next_page(struct tdat_cpu_reader *r, const uint8_t **page,
		     struct tdat_error *err)
{
	return r ? tdat_cpu_next_page(r, page, NULL, err) : 0;
}

/* CPU id cpu of buffer ka of a and kb of b: the same pages in both. */
static int same_stream(struct tdat_file *a, int ka, struct tdat_file *b,
		       int kb, int cpu, char *why, size_t cap)
{
	int ia = cpu_index(a, ka, cpu), ib = cpu_index(b, kb, cpu), ga, gb;
	struct tdat_cpu_reader *ra = NULL, *rb = NULL;
	uint32_t size = a->buffers[ka].page_size;
	const uint8_t *pa, *pb;
	struct tdat_error err;
	int r = 0;

	if ((ia >= 0 && !(ra = tdat_cpu_open(a, ka, ia, &err))) ||
	    (ib >= 0 && !(rb = tdat_cpu_open(b, kb, ib, &err)))) {
		r = -1;
		goto out;
	}
	if (rb)
		tdat_cpu_read_ahead(rb);
	do {
		ga = next_page(ra, &pa, &err);
		gb = ga < 0 ? 0 : next_page(rb, &pb, &err);
		if (ga < 0 || gb < 0)
			r = -1;
		else if (ga != gb || (ga && memcmp(pa, pb, size)))
			r = differ(why, cap, "the pages differ");
	} while (!r && ga > 0);
out:
	if (r < 0)
		snprintf(why, cap, "%s", err.msg);
	tdat_cpu_close(ra);
	tdat_cpu_close(rb);
	return r;
}

static int same_latency(struct tdat_file *a, int ka, struct tdat_file *b,
			int kb, char *why, size_t cap)
{
	struct tdat_blob ta = { 0 }, tb = { 0 };
	struct tdat_error err;
	int r = 0;

	if (tdat_read_latency(a, ka, &ta, &err) ||
	    tdat_read_latency(b, kb, &tb, &err)) {
		snprintf(why, cap, "%s", err.msg);
		r = -1;
	} else if (!same_blob(ta.data, ta.len, tb.data, tb.len)) {
		r = differ(why, cap, "the latency text differs");
	}
	free(ta.data);
	free(tb.data);
	return r;
}

static int same_buffer(struct tdat_file *a, int ka, struct tdat_file *b,
		       int kb, char *why, size_t cap)
{
	const struct tdat_buffer *x = &a->buffers[ka], *y = &b->buffers[kb];
	int i, r = 0;

	if (strcmp(x->name, y->name) || strcmp(x->clock, y->clock) ||
	    x->page_size != y->page_size || x->latency != y->latency)
		return differ(why, cap, "a buffer differs");
	if (x->latency)
		return same_latency(a, ka, b, kb, why, cap);
	for (i = 0; !r && i < x->ncpus; i++)
		if (x->cpus[i].size)
			r = same_stream(a, ka, b, kb, x->cpus[i].cpu, why,
					cap);
	for (i = 0; !r && i < y->ncpus; i++)	/* any only b has */
		if (y->cpus[i].size && cpu_index(a, ka, y->cpus[i].cpu) < 0)
			r = same_stream(a, ka, b, kb, y->cpus[i].cpu, why,
					cap);
	return r;
}

/* 1 when f's first buffer is a top buffer whose CPUs hold no data: the
 * v7 writer leaves it out, as trace-cmd does (a v6 file lists every
 * CPU of the top buffer, data or not), so it is not compared. */
static int empty_top(const struct tdat_file *f)
{
	const struct tdat_buffer *t;
	int i;

	if (!f->nbuffers)
		return 0;
	t = &f->buffers[0];
	if (t->name[0] || t->latency || !t->ncpus)
		return 0;
	for (i = 0; i < t->ncpus; i++)
		if (t->cpus[i].size)
			return 0;
	return 1;
}

int archive_same(struct tdat_file *a, struct tdat_file *b, char *why,
		 size_t cap)
{
	int k, ka, kb, r;

	if (a->big_endian != b->big_endian || a->long_size != b->long_size ||
	    a->page_size != b->page_size || tdat_cpus(a) != tdat_cpus(b))
		return differ(why, cap, "the header differs");
	r = same_meta(a, b, why, cap);
	if (r)
		return r;
	ka = empty_top(a);
	kb = empty_top(b);
	if (a->nbuffers - ka != b->nbuffers - kb)
		return differ(why, cap, "the buffers differ");
	for (k = 0; ka + k < a->nbuffers; k++) {
		r = same_buffer(a, ka + k, b, kb + k, why, cap);
		if (r)
			return r;
	}
	return 0;
}
