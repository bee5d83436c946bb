/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tdat-events - list every data event of a trace.dat, one line each, in
 * the order trace-cmd report shows them (timestamp, then buffer order,
 * then CPU): "BUFFER CPU TS SIZE HASH", where HASH is an FNV-1a hash of
 * the payload and BUFFER is "-" for the top buffer.  A page that says
 * events were lost before it puts "BUFFER CPU dropped N" (N = -1 when
 * the count is unknown) before its first event.  The split tests compare
 * these lists; the file is held in memory, so it is for small files.
 *
 * usage: tdat-events FILE
 *        tdat-events --pages FILE   (the most pages any CPU stream has)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"

struct ev {
	uint64_t ts;
	int buf, cpu;
	uint64_t seq;		/* read order, for a stable sort */
	uint32_t size;
	uint64_t hash;
	int64_t dropped;	/* marker before this event, 0 none */
};

static struct ev *evs;
static size_t nev, cap;

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static int add(const struct ev *e)
{
	if (nev == cap) {
		struct ev *n = realloc(evs, (cap = cap ? cap * 2 : 4096) *
				       sizeof(*n));

		if (!n)
			return -1;
		evs = n;
	}
	evs[nev++] = *e;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->buf != y->buf)
		return x->buf < y->buf ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int read_cpu(struct tdat_file *f, int b, int i, struct tdat_error *err)
{
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, err);
	const uint8_t *page;
	uint64_t off;
	int got;

	if (!r)
		return -1;
	while ((got = tdat_cpu_next_page(r, &page, &off, err)) == 1) {
		struct tdat_page_iter it;
		struct tdat_event e;
		int first = 1, n;

		if (tdat_page_iter_init(&it, f, page, f->buffers[b].page_size)) {
			snprintf(err->msg, sizeof(err->msg), "%s: offset %"
				 PRIu64 ": bad page", f->path, off);
			got = -1;
			break;
		}
		while ((n = tdat_page_iter_next(&it, &e)) == 1) {
			struct ev x = { e.ts, b, f->buffers[b].cpus[i].cpu,
					nev, e.size, fnv(e.data, e.size),
					first ? it.missed : 0 };

			first = 0;
			if (add(&x)) {
				got = -1;
				break;
			}
		}
		if (n < 0) {
			snprintf(err->msg, sizeof(err->msg), "%s: offset %"
				 PRIu64 ": bad event", f->path, off);
			got = -1;
			break;
		}
	}
	tdat_cpu_close(r);
	return got;
}

/* The largest page count of f's CPU streams. */
static int max_pages(struct tdat_file *f, struct tdat_error *err)
{
	uint64_t most = 0, n, off;
	const uint8_t *page;
	int b, i, got;

	for (b = 0; b < f->nbuffers; b++) {
		for (i = 0; !f->buffers[b].latency && i < f->buffers[b].ncpus;
		     i++) {
			struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, err);

			if (!r)
				return -1;
			n = 0;
			while ((got = tdat_cpu_next_page(r, &page, &off,
							 err)) == 1)
				n++;
			tdat_cpu_close(r);
			if (got < 0)
				return -1;
			if (n > most)
				most = n;
		}
	}
	printf("%" PRIu64 "\n", most);
	return 0;
}

int main(int argc, char **argv)
{
	struct tdat_error err;
	struct tdat_file *f;
	int pages = argc == 3 && !strcmp(argv[1], "--pages");
	size_t k;
	int b, i;

	if (argc != 2 && !pages) {
		fprintf(stderr, "usage: tdat-events [--pages] FILE\n");
		return 2;
	}
	f = tdat_open(argv[argc - 1], &err);
	if (!f) {
		fprintf(stderr, "tdat-events: %s\n", err.msg);
		return 1;
	}
	if (pages) {
		if (max_pages(f, &err)) {
			fprintf(stderr, "tdat-events: %s\n", err.msg);
			return 1;
		}
		tdat_close(f);
		return 0;
	}
	for (b = 0; b < f->nbuffers; b++)
		for (i = 0; !f->buffers[b].latency && i < f->buffers[b].ncpus;
		     i++)
			if (f->buffers[b].cpus[i].size &&
			    read_cpu(f, b, i, &err)) {
				fprintf(stderr, "tdat-events: %s\n", err.msg);
				return 1;
			}
	qsort(evs, nev, sizeof(*evs), cmp);
	for (k = 0; k < nev; k++) {
		const struct ev *e = &evs[k];
		const char *name = f->buffers[e->buf].name;

		if (!name[0])
			name = "-";
		if (e->dropped)
			printf("%s %d dropped %" PRId64 "\n", name, e->cpu,
			       e->dropped);
		printf("%s %d %" PRIu64 " %u %016" PRIx64 "\n", name, e->cpu,
		       e->ts, e->size, e->hash);
	}
	free(evs);
	tdat_close(f);
	return 0;
}
