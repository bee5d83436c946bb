/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkodd - make SYNTHETIC trace.dat files with the odd cases real
 * recordings here never have, from a real one: a CPU without data, a
 * CPU whose only page holds no event, CPU ids with gaps, options added
 * or removed.  report's tests run trace-cmd on them as the oracle.
 *
 * usage: mkodd [OPTIONS] IN OUT
 *   --version 6|7        output version (default: the input's)
 *   --codec none|zstd    v7 output codec (default: the input's, none for v6)
 *   --no-data CPU        top buffer CPU (id) gets no pages at all
 *   --empty-page CPU     top buffer CPU (id) gets one page with no event
 *   --cpu-id IDX=ID      top buffer CPU number IDX (0-based) gets id ID
 *                        (v7 output only: v6 needs dense ids)
 *   --drop-option ID     leave out every option with this id
 *   --add-option ID TEXT append an option: TEXT and its NUL
 *   --add-option-file ID PATH  append an option holding PATH's bytes
 *                        (binary options such as TIME_SHIFT, made by the
 *                        test that asks)
 *   --add-tsc2nsec MULT SHIFT  append a TSC2NSEC option (u32 mult,
 *                        u32 shift, u64 offset 0) in the file's byte order
 *   --clone-cpus N       top buffer gets N CPUs, ids 0..N-1, CPU i a copy
 *                        of the input's CPU number i % (its CPU count)
 *
 * Everything else (metadata, the other options, every other page) is
 * copied as it is, and the file is written by libfmt's writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"

#define MAX_EDITS 16

struct edits {
	int version;
	int codec;		/* -1: default */
	int no_data, empty_page;	/* CPU ids, -1 none */
	int renum_idx, renum_id;	/* -1 none */
	int ndrop, drop[MAX_EDITS];
	int nadd, add_id[MAX_EDITS];
	const char *add_text[MAX_EDITS];
	int add_file[MAX_EDITS];	/* add_text names a file of bytes */
	int clone;		/* top buffer CPUs, 0: as the input */
	int tsc2nsec;		/* add a TSC2NSEC option */
	uint32_t mult, shift;
	uint8_t tsc[16];	/* its payload */
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mkodd: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("%s", "out of memory");
	return p;
}

static int dropped(const struct edits *e, int id)
{
	int i;

	for (i = 0; i < e->ndrop; i++)
		if (e->drop[i] == id)
			return 1;
	return 0;
}

static void add_option(struct tdat_file *out, uint16_t id, uint32_t size,
		       const void *data)
{
	struct tdat_option o = { .id = id, .size = size,
				 .data = (uint8_t *)data };

	if (tdat_add_option(out, &o))
		die("%s", "out of memory");
}

/* Buffer 0's CPUs: n of in's buffer 0, taken in turn, with ids 0..n-1
 * when ids is set (--clone-cpus), else their own. */
static void edit_cpus(const struct tdat_file *in, struct tdat_buffer *b,
		      int n, int ids)
{
	const struct tdat_buffer *from = &in->buffers[0];
	int i;

	free(b->cpus);
	b->cpus = xcalloc((size_t)n, sizeof(*b->cpus));
	b->ncpus = n;
	for (i = 0; i < n; i++) {
		b->cpus[i] = from->cpus[i % from->ncpus];
		if (ids)
			b->cpus[i].cpu = i;
	}
}

/* Added option i: a text and its NUL, or a file's bytes. */
static void add_one(struct tdat_file *out, const struct edits *e, int i)
{
	char buf[65536];
	size_t n;
	FILE *fp;

	if (!e->add_file[i]) {
		add_option(out, (uint16_t)e->add_id[i],
			   (uint32_t)strlen(e->add_text[i]) + 1,
			   e->add_text[i]);
		return;
	}
	fp = fopen(e->add_text[i], "rb");
	if (!fp)
		die("%s: cannot open", e->add_text[i]);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	add_option(out, (uint16_t)e->add_id[i], (uint32_t)n, buf);
}

/* The output's metadata: in's, with options and buffer 0's CPUs edited. */
static struct tdat_file *edit_meta(const struct edits *e,
				   const struct tdat_file *in)
{
	struct tdat_error err;
	struct tdat_file *out = tdat_meta_clone(in, TDAT_CLONE_BUFFERS, &err);
	int i, n = 0;

	if (!out)
		die("%s", err.msg);
	for (i = 0; i < out->noptions; i++) {
		if (dropped(e, out->options[i].id))
			free(out->options[i].data);
		else
			out->options[n++] = out->options[i];
	}
	out->noptions = n;
	for (i = 0; i < e->nadd; i++)
		add_one(out, e, i);
	if (e->tsc2nsec)
		add_option(out, TDAT_OPT_TSC2NSEC, sizeof(e->tsc), e->tsc);
	if (e->clone > 0) {
		if (!in->nbuffers || !in->buffers[0].ncpus)
			die("%s", "--clone-cpus: the first buffer has no CPU");
		edit_cpus(in, &out->buffers[0], e->clone, 1);
	}
	if (e->renum_idx < 0)
		return out;
	if (!in->nbuffers || e->renum_idx >= in->buffers[0].ncpus)
		die("%s", "--cpu-id: no such CPU in the first buffer");
	edit_cpus(in, &out->buffers[0], in->buffers[0].ncpus, 0);
	out->buffers[0].cpus[e->renum_idx].cpu = e->renum_id;
	return out;
}

static void put_pages(struct tdat_writer *w, const void *p, size_t n)
{
	struct tdat_error err;

	if (tdat_writer_put_pages(w, p, n, &err))
		die("%s", err.msg);
}

static void copy_cpu(const struct edits *e, struct tdat_file *in,
		     const struct tdat_file *out, struct tdat_writer *w,
		     int b, int i)
{
	const struct tdat_buffer *buf = &in->buffers[b];
	int cpu;
	struct tdat_cpu_reader *r;
	struct tdat_error err;
	const uint8_t *page;
	uint8_t *blank;
	int got;

	if (tdat_writer_begin_cpu(w, b, out->buffers[b].cpus[i].cpu, &err))
		die("%s", err.msg);
	if (b == 0 && e->clone > 0)
		i %= buf->ncpus;	/* a clone reads its original */
	cpu = buf->cpus[i].cpu;
	if (b == 0 && cpu == e->empty_page) {
		/* A page header (timestamp, commit 0) and nothing else. */
		blank = xcalloc(1, buf->page_size);
		tdat_put64(in, blank, 1000);
		put_pages(w, blank, buf->page_size);
		free(blank);
	} else if (buf->cpus[i].size && !(b == 0 && cpu == e->no_data)) {
		r = tdat_cpu_open(in, b, i, &err);
		if (!r)
			die("%s", err.msg);
		while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) == 1)
			put_pages(w, page, buf->page_size);
		if (got < 0)
			die("%s", err.msg);
		tdat_cpu_close(r);
	}
	if (tdat_writer_end_cpu(w, &err))
		die("%s", err.msg);
}

static void parse_args(struct edits *e, int argc, char **argv, int *i)
{
	enum tdat_codec c;
	char *eq;

	for (; *i < argc - 2; (*i)++) {
		const char *a = argv[*i], *v = argv[*i + 1];

		if (!strcmp(a, "--version"))
			e->version = atoi(v);
		else if (!strcmp(a, "--codec") && !tdat_codec_by_name(v, &c))
			e->codec = (int)c;
		else if (!strcmp(a, "--no-data"))
			e->no_data = atoi(v);
		else if (!strcmp(a, "--clone-cpus") && atoi(v) > 0)
			e->clone = atoi(v);
		else if (!strcmp(a, "--empty-page"))
			e->empty_page = atoi(v);
		else if (!strcmp(a, "--cpu-id") && (eq = strchr(v, '='))) {
			e->renum_idx = atoi(v);
			e->renum_id = atoi(eq + 1);
		} else if (!strcmp(a, "--drop-option") &&
			   e->ndrop < MAX_EDITS)
			e->drop[e->ndrop++] = atoi(v);
		else if ((!strcmp(a, "--add-option") ||
			  !strcmp(a, "--add-option-file")) &&
			 e->nadd < MAX_EDITS && *i + 2 < argc - 2) {
			e->add_file[e->nadd] = !strcmp(a, "--add-option-file");
			e->add_id[e->nadd] = atoi(v);
			e->add_text[e->nadd++] = argv[*i + 2];
			(*i)++;
		} else if (!strcmp(a, "--add-tsc2nsec") && *i + 2 < argc - 2) {
			e->tsc2nsec = 1;
			e->mult = (uint32_t)strtoul(v, NULL, 0);
			e->shift = (uint32_t)strtoul(argv[*i + 2], NULL, 0);
			(*i)++;
		} else
			die("bad or incomplete option %s", a);
		(*i)++;
	}
}

int main(int argc, char **argv)
{
	struct edits e;
	struct tdat_write_opts wo;
	struct tdat_file *in, *out;
	struct tdat_writer *w;
	struct tdat_error err;
	int i = 1, b;

	memset(&e, 0, sizeof(e));
	e.codec = e.no_data = e.empty_page = e.renum_idx = -1;
	parse_args(&e, argc, argv, &i);
	if (argc - i != 2)
		die("%s", "usage: mkodd [OPTIONS] IN OUT (see the source)");
	in = tdat_open(argv[i], &err);
	if (!in)
		die("%s", err.msg);
	tdat_put32(in, e.tsc, e.mult);
	tdat_put32(in, e.tsc + 4, e.shift);
	tdat_put64(in, e.tsc + 8, 0);
	out = edit_meta(&e, in);
	memset(&wo, 0, sizeof(wo));
	wo.version = e.version ? e.version : in->version;
	wo.codec = e.codec >= 0 ? (enum tdat_codec)e.codec :
		   wo.version == 7 ? in->codec : TDAT_CODEC_NONE;
	wo.threads = 1;
	w = tdat_writer_open(argv[i + 1], out, &wo, &err);
	if (!w)
		die("%s", err.msg);
	for (b = 0; b < in->nbuffers; b++) {
		if (in->buffers[b].latency)
			die("%s", "latency buffers are not handled");
		for (i = 0; i < out->buffers[b].ncpus; i++)
			copy_cpu(&e, in, out, w, b, i);
	}
	if (tdat_writer_close(w, &err))
		die("%s", err.msg);
	tdat_close(out);
	tdat_close(in);
	return 0;
}
