/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * streamhead.c - the first event timestamp of a CPU stream: its pages
 * read from the start until one holds an event (streamtail.c finds the
 * last from the end).  Pages that do not read are stepped over here:
 * whoever reads the stream in full finds them again and names them.
 */
#include "libfmt/chunkindex.h"
#include "libfmt/tracedat.h"

int tdat_cpu_first_ts(struct tdat_file *f, int buf, int idx, uint64_t *ts,
		      struct tdat_error *err)
{
	struct tdat_cpu_reader *r;
	struct tdat_page_iter it;
	struct tdat_event ev;
	const uint8_t *page;
	uint32_t ps = f->buffers[buf].page_size;
	int got;

	*ts = UINT64_MAX;
	if (!f->buffers[buf].cpus[idx].size)
		return 0;
	r = tdat_cpu_open(f, buf, idx, err);
	if (!r)
		return -1;
	while ((got = tdat_cpu_next_page(r, &page, NULL, err)) == 1) {
		if (tdat_page_iter_init(&it, f, page, ps))
			continue;
		if (tdat_page_iter_next(&it, &ev) == 1) {
			*ts = ev.ts;
			break;
		}
	}
	tdat_cpu_close(r);
	return got < 0 ? -1 : 0;
}
