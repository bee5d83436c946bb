/* SPDX-License-Identifier: GPL-2.0-or-later */
/* validate.c - dump -v: open the file with libfmt and read every page
 * and chunk of every CPU, each page's commit checked as report's. */
#include "convert/dump/dump_int.h"

/* Stored bytes of trace data: what -v's progress counts. */
struct tally {
	uint64_t before;	/* of the CPUs already read */
	uint64_t total;
};

static void tell(struct dump *d, const struct tally *t, uint64_t here)
{
	if (d->o->progress)
		d->o->progress(d->o->progress_ctx, t->before + here, t->total);
}

static int read_cpu(struct dump *d, struct tdat_file *f, int b, int i,
		    struct tally *t)
{
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, &d->err);
	struct tdat_page_iter it;
	const uint8_t *page;
	uint64_t off, done, size;
	unsigned n = 0;
	int k;

	if (!r)
		return -1;
	while ((k = tdat_cpu_next_page(r, &page, &off, &d->err)) > 0) {
		if (tdat_page_iter_init(&it, f, page,
					f->buffers[b].page_size)) {
			k = tdat_cpu_bad_commit(f, b, i, off, &d->err);
			break;
		}
		if (++n % 256)
			continue;
		tdat_cpu_position(r, &done, &size);
		tell(d, t, done);
	}
	tdat_cpu_close(r);
	t->before += f->buffers[b].cpus[i].size;
	return k < 0 ? -1 : 0;
}

int dump_validate(struct dump *d)
{
	struct tdat_file *f = tdat_open(d->path, &d->err);
	struct tally t = { 0, 0 };
	int b, i, r = 0;

	if (!f)
		return -1;
	for (b = 0; b < f->nbuffers; b++)
		for (i = 0; i < f->buffers[b].ncpus; i++)
			t.total += f->buffers[b].cpus[i].size;
	for (b = 0; !r && b < f->nbuffers; b++)
		for (i = 0; !r && i < f->buffers[b].ncpus; i++)
			if (f->buffers[b].cpus[i].size)
				r = read_cpu(d, f, b, i, &t);
	tell(d, &t, 0);		/* all read: the line goes */
	tdat_close(f);
	return r;
}
