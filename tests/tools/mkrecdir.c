/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkrecdir - make what a recorder leaves on disk, from a real trace.dat,
 * for restore's tests (until and beside real recordings).
 *
 * usage: mkrecdir --head IN HEAD
 *          HEAD = IN's metadata without any trace data (a header-only
 *          file like "trace-cmd restore -c" writes), IN's version/codec
 *        mkrecdir [EDITS] IN DIR
 *          DIR = an OUT.rec/ directory (record/record.h): head.dat, a
 *          manifest listing IN's buffers and CPUs, and one raw page file
 *          per CPU stream (NAME.cpuN, pages decompressed)
 * EDITS, applied to every raw file:
 *   --zero-pages N     append N pages of zeros (never filled)
 *   --partial N        append the first N bytes of the file's first page
 *                      (a page cut by a crash)
 *   --bad-page K       make page K's commit larger than the page
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"

struct edits {
	long zero_pages;
	long partial;
	long bad_page;		/* -1 none */
};

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "mkrecdir: %s%s%s\n", what, arg ? ": " : "",
		arg ? arg : "");
	exit(1);
}

static void write_head(struct tdat_file *in, const char *out)
{
	struct tdat_write_opts wo = { .version = in->version,
				       .codec = in->codec, .threads = 1 };
	struct tdat_writer *w;
	struct tdat_error err;
	struct tdat_file *m = tdat_meta_clone(in, 0, &err);
	int i, n = 0;

	if (!m)
		die(err.msg, NULL);
	/* No data, so no CPU count of its own. */
	for (i = 0; i < m->noptions; i++) {
		if (m->options[i].id == TDAT_OPT_CPUCOUNT)
			free(m->options[i].data);
		else
			m->options[n++] = m->options[i];
	}
	m->noptions = n;
	m->cpu_count = 0;	/* like trace-cmd's: cpus=0 */
	w = tdat_writer_open(out, m, &wo, &err);
	if (!w || tdat_writer_close(w, &err))
		die(err.msg, NULL);
	tdat_close(m);
}

static void put(FILE *fp, const void *p, size_t n, const char *path)
{
	if (n && fwrite(p, 1, n, fp) != n)
		die("write failed", path);
}

/* One CPU stream's pages into DIR/FILE, edited. */
static void write_raw(struct tdat_file *in, int b, int idx, const char *path,
		      const struct edits *e)
{
	uint32_t ps = in->buffers[b].page_size;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint8_t *first = calloc(1, ps), *copy = malloc(ps);
	struct tdat_error err;
	long k = 0;
	FILE *fp;
	int got;

	if (!first || !copy)
		die("out of memory", NULL);
	fp = fopen(path, "wb");
	if (!fp)
		die("cannot create", path);
	r = tdat_cpu_open(in, b, idx, &err);
	if (!r)
		die(err.msg, NULL);
	while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) == 1) {
		memcpy(copy, page, ps);
		if (k == 0)
			memcpy(first, page, ps);
		if (k == e->bad_page)	/* commit = page size + 8 */
			tdat_put32(in, copy + 8, ps + 8);
		put(fp, copy, ps, path);
		k++;
	}
	if (got < 0)
		die(err.msg, NULL);
	tdat_cpu_close(r);
	memset(copy, 0, ps);
	for (k = 0; k < e->zero_pages; k++)
		put(fp, copy, ps, path);
	put(fp, first, (size_t)e->partial < ps ? (size_t)e->partial : ps, path);
	if (fclose(fp))
		die("write failed", path);
	free(first);
	free(copy);
}

static void make_dir(struct tdat_file *in, const char *dir,
		     const struct edits *e)
{
	char path[4096], file[300], clock[64];
	FILE *mf;
	int b, i;

	if (mkdir(dir, 0755))
		die("cannot create directory", dir);
	snprintf(path, sizeof(path), "%s/head.dat", dir);
	write_head(in, path);
	snprintf(path, sizeof(path), "%s/manifest", dir);
	mf = fopen(path, "w");
	if (!mf)
		die("cannot create", path);
	fprintf(mf, "tdat-recording 1\npage_size %u\n", in->page_size);
	for (b = 0; b < in->nbuffers; b++) {
		const struct tdat_buffer *bf = &in->buffers[b];

		snprintf(clock, sizeof(clock), "%s",
			 bf->clock && bf->clock[0] ? bf->clock : "local");
		fprintf(mf, "buffer %s clock %s cpus %u", bf->name[0] ?
			bf->name : "-", clock, tdat_cpus(in));
		if (bf->page_size != in->page_size)
			fprintf(mf, " page_size %u", bf->page_size);
		fputc('\n', mf);
	}
	for (b = 0; b < in->nbuffers; b++) {
		const struct tdat_buffer *bf = &in->buffers[b];

		for (i = 0; i < bf->ncpus; i++) {
			if (!bf->cpus[i].size)
				continue;
			snprintf(file, sizeof(file), "%s.cpu%d", bf->name[0] ?
				 bf->name : "top", bf->cpus[i].cpu);
			fprintf(mf, "cpu %s %d %s\n", bf->name[0] ? bf->name :
				"-", bf->cpus[i].cpu, file);
			snprintf(path, sizeof(path), "%s/%s", dir, file);
			write_raw(in, b, i, path, e);
		}
	}
	if (fclose(mf))
		die("write failed", "manifest");
}

int main(int argc, char **argv)
{
	struct edits e = { 0, 0, -1 };
	struct tdat_error err;
	struct tdat_file *in;
	int i = 1;

	if (argc == 4 && !strcmp(argv[1], "--head")) {
		in = tdat_open(argv[2], &err);
		if (!in)
			die(err.msg, NULL);
		write_head(in, argv[3]);
		tdat_close(in);
		return 0;
	}
	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		long v = atol(argv[i + 1]);

		if (!strcmp(argv[i], "--zero-pages"))
			e.zero_pages = v;
		else if (!strcmp(argv[i], "--partial"))
			e.partial = v;
		else if (!strcmp(argv[i], "--bad-page"))
			e.bad_page = v;
		else
			die("unknown option", argv[i]);
	}
	if (argc - i != 2)
		die("usage: mkrecdir --head IN HEAD | mkrecdir [--zero-pages N]"
		    " [--partial N] [--bad-page K] IN DIR", NULL);
	in = tdat_open(argv[i], &err);
	if (!in)
		die(err.msg, NULL);
	make_dir(in, argv[i + 1], &e);
	tdat_close(in);
	return 0;
}
