/* SPDX-License-Identifier: GPL-2.0-or-later */
/* walk.c - read a whole file (see walk.h). */
#include <stdio.h>
#include <stdlib.h>
#include "libfmt/tracedat.h"
#include "tests/fuzz/walk.h"

static int walk_cpu(struct tdat_file *f, int b, int idx)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, idx, &err);
	const uint8_t *page;
	uint64_t off;
	int got, bad = 0;

	if (!r)
		return 1;
	while ((got = tdat_cpu_next_page(r, &page, &off, &err)) != 0) {
		struct tdat_page_iter it;
		struct tdat_event ev;

		if (got < 0 || tdat_page_iter_init(&it, f, page,
						   f->buffers[b].page_size)) {
			bad = 1;
			continue;
		}
		while ((got = tdat_page_iter_next(&it, &ev)) == 1)
			;
		bad |= got < 0;
	}
	tdat_cpu_close(r);
	return bad;
}

int walk_file(const char *path)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);
	struct tdat_blob text;
	int b, i, bad = 0;

	if (!f)
		return WALK_UNOPENED;
	for (b = 0; b < f->nbuffers; b++) {
		if (f->buffers[b].latency) {
			if (tdat_read_latency(f, b, &text, &err))
				bad = 1;
			else
				free(text.data);
			continue;
		}
		for (i = 0; i < f->buffers[b].ncpus; i++)
			bad |= walk_cpu(f, b, i);
	}
	tdat_close(f);
	return bad ? WALK_DAMAGED : WALK_CLEAN;
}

void walk_trap(const char *what, const char *path)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);

	fprintf(stderr, "fuzz: %s: %s (%s)\n", path, what,
		f ? "it opens" : err.msg);
	fflush(stderr);
	__builtin_trap();
}
