/* SPDX-License-Identifier: GPL-2.0-or-later */
/* validate.c - dump -v: open the file with libfmt and read every page and chunk of every CPU. */
#include "convert/dump/dump_int.h"

static int read_cpu(struct dump *d, struct tdat_file *f, int b, int i)
{
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, &d->err);
	const uint8_t *page;
	uint64_t off;
	int k;

	if (!r)
		return -1;
	while ((k = tdat_cpu_next_page(r, &page, &off, &d->err)) > 0)
		;
	tdat_cpu_close(r);
	return k < 0 ? -1 : 0;
}

int dump_validate(struct dump *d)
{
	struct tdat_file *f = tdat_open(d->path, &d->err);
	int b, i, r = 0;

	if (!f)
		return -1;
	for (b = 0; !r && b < f->nbuffers; b++)
		for (i = 0; !r && i < f->buffers[b].ncpus; i++)
			if (f->buffers[b].cpus[i].size)
				r = read_cpu(d, f, b, i);
	tdat_close(f);
	return r;
}
