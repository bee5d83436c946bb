/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * streamtail.c - the last event timestamp of a CPU stream, read from its
 * end rather than by walking all of it: the last pages of raw data, or
 * the last chunk of compressed data (found from the chunk headers
 * alone, chunkindex.c) decoded by itself.
 *
 * Pages hold events in time order, so the last event of the last page
 * with one is the stream's last.  Empty pages at the end are stepped
 * over; when too many are, or the end does not read, the answer is
 * "unknown" (0), never a guess: callers then read the stream in full.
 * A chunk header out of bounds is not "unknown" but damage (-1): the
 * stream could not be read in full either, and merge refuses it, as it
 * refuses it when copying.
 */
#include <stdlib.h>
#include "libfmt/internal.h"

/* Raw data: this much is read from the end (one page at least). */
#define TAIL_BYTES (64u << 10)

/* The last event of the page: 1 with *ts, 0 if it has none, -1 if bad. */
static int page_last(const struct tdat_file *f, const uint8_t *page,
		     uint32_t ps, uint64_t *ts)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int got, found = 0;

	if (tdat_page_iter_init(&it, f, page, ps))
		return -1;
	while ((got = tdat_page_iter_next(&it, &ev)) == 1) {
		*ts = ev.ts;
		found = 1;
	}
	return got < 0 ? -1 : found;
}

/* The last event of n pages at p, looking from the end; a bad page
 * makes it unknown (the full read will name it). */
static int pages_last(const struct tdat_file *f, const uint8_t *p,
		      uint32_t ps, uint64_t n, uint64_t *ts)
{
	int r = 0;

	while (n-- && !r)
		r = page_last(f, p + n * ps, ps, ts);
	return r > 0;
}

static int raw_last(struct tdat_file *f, const struct tdat_cpu *c,
		    uint32_t ps, uint64_t *ts)
{
	uint64_t n = c->size / ps, k = TAIL_BYTES / ps ? TAIL_BYTES / ps : 1;
	struct tdat_error ignored;
	uint8_t *buf;
	int r = 0;

	if (!n || c->size % ps || c->offset > f->file_size ||
	    c->size > f->file_size - c->offset)
		return 0;	/* the full read names what is wrong */
	if (k > n)
		k = n;
	buf = malloc((size_t)(k * ps));
	if (!buf)
		return 0;
	if (!fio_read_at(f, c->offset + (n - k) * ps, buf, (size_t)(k * ps),
			 "trace data", &ignored))
		r = pages_last(f, buf, ps, k, ts);
	free(buf);
	return r;
}

static int chunked_last(struct tdat_file *f, int buf, int idx, uint32_t ps,
			uint64_t *ts, struct tdat_error *err)
{
	struct tdat_chunk_walk cw;
	struct tdat_chunk c;
	struct tdat_error ignored;
	struct codec_ctx x;
	uint8_t *in, *out;
	int r = 0;

	if (tdat_chunk_walk_init(&cw, f, buf, idx, err))
		return -1;
	r = tdat_chunk_walk_last(&cw, &c, err);
	if (r <= 0)
		return r;
	in = malloc(c.csize ? c.csize : 1);
	out = budget_fits(c.usize) ? malloc(c.usize) : NULL;
	codec_ctx_init(&x, f->codec, 0);
	r = 0;
	if (in && out && !tdat_chunk_read(&cw, &c, in, &ignored) &&
	    !codec_decompress(&x, in, c.csize, out, c.usize))
		r = pages_last(f, out, ps, c.usize / ps, ts);
	codec_ctx_free(&x);
	free(in);
	free(out);
	return r;
}

int tdat_cpu_last_ts(struct tdat_file *f, int buf, int idx, uint64_t *ts,
		     struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];

	*ts = UINT64_MAX;
	if (!b->cpus[idx].size || !b->page_size)
		return 0;
	if (b->compressed)
		return chunked_last(f, buf, idx, b->page_size, ts, err);
	return raw_last(f, &b->cpus[idx], b->page_size, ts);
}
