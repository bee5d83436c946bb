/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_copy.c - a CPU stream that needs no merging, written as stored.
 *
 * Pieces cut from one recording follow each other in time: most of an
 * output CPU's input streams lie wholly before every other stream of
 * that CPU.  Such a stream has nothing to interleave with and nothing to
 * repeat (a repeat has an equal timestamp, and the order is strict), so
 * its events need not be read at all: raw pages go out as they are, in
 * runs, and compressed chunks as they are stored when the output keeps
 * the input's codec, level and chunking -- no decompression, no copy
 * through a page buffer.  Its time range comes from pass 1: the first
 * event (tdat_cpu_first_ts) and the last (merge_last_ts, read from the
 * stream's end).
 */
#include <stdlib.h>
#include "convert/merge/merge_internal.h"
#include "libfmt/chunkindex.h"

/* About this much is read and written at a time. */
#define RUN_BYTES (1u << 20)

static void progress(struct merge_ctx *m, const struct merge_stream *s,
		     uint64_t got)
{
	if (!m->o->progress)
		return;
	m->o->progress(m->o->progress_ctx,
		       m->done + (got < s->size ? got : s->size), m->total);
}

/* May the input's chunks go into the output as they are stored? */
static int chunks_stay(const struct merge_ctx *m, const struct tdat_file *f,
		       const struct merge_stream *s)
{
	return m->copy_chunks && !m->o->chunk_size && f->version == 7 &&
	       f->buffers[s->buf].compressed && f->codec == m->out_codec &&
	       f->big_endian == m->meta->big_endian;
}

static int copy_chunks(struct merge_ctx *m, struct tdat_writer *w,
		       struct tdat_file *f, const struct merge_stream *s,
		       struct tdat_error *err)
{
	uint32_t ps = f->buffers[s->buf].page_size;
	struct tdat_chunk_walk cw;
	uint8_t *buf = NULL;
	size_t cap = 0;
	uint64_t got = 0, pages;
	uint32_t k;
	int64_t n;
	int r = 0;

	if (tdat_chunk_walk_init(&cw, f, s->buf, s->idx, err))
		return -1;
	while ((n = tdat_chunk_walk_run(&cw, &buf, &cap, RUN_BYTES, &k,
					err)) > 0) {
		r = tdat_writer_put_chunks_stored(w, buf, (size_t)n, err);
		if (r)
			break;
		got += (uint64_t)n;
		m->st->chunks_stored += k;
		m->st->chunks_copied += k;
		progress(m, s, got);
	}
	free(buf);
	if (n < 0 || r)
		return -1;
	pages = cw.usize / ps;
	m->st->pages_in += pages;
	m->st->pages_copied += pages;
	m->st->pages_raw_copied += pages;
	return 0;
}

/* Raw pages wholly in the file: the kernel copies them (no buffer of
 * ours between), 1 when the stream is not such. */
static int copy_file_pages(struct merge_ctx *m, struct tdat_writer *w,
			   struct tdat_file *f, const struct merge_stream *s,
			   struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[s->buf];
	const struct tdat_cpu *c = &b->cpus[s->idx];
	uint64_t got, n;

	if (b->compressed || c->size % b->page_size ||
	    c->offset > f->file_size || c->size > f->file_size - c->offset)
		return 1;	/* the reader says what is wrong */
	for (got = 0; got < c->size; got += n) {
		n = c->size - got < RUN_BYTES ? c->size - got : RUN_BYTES;
		if (tdat_writer_put_file_pages(w, f, c->offset + got, n, err))
			return -1;
		m->st->pages_in += n / b->page_size;
		m->st->pages_copied += n / b->page_size;
		m->st->pages_raw_copied += n / b->page_size;
		progress(m, s, got + n);
	}
	return 0;
}

/* Raw pages, or chunks decoded into pages whose events are not read. */
static int copy_pages(struct merge_ctx *m, struct tdat_writer *w,
		      struct tdat_file *f, const struct merge_stream *s,
		      struct tdat_error *err)
{
	uint32_t ps = f->buffers[s->buf].page_size;
	struct tdat_cpu_reader *r;
	const uint8_t *p;
	uint64_t got = 0;
	size_t len;
	int k;

	k = copy_file_pages(m, w, f, s, err);
	if (k != 1)
		return k;
	r = tdat_cpu_open(f, s->buf, s->idx, err);
	if (!r)
		return -1;
	if (tdat_writer_threads(w) > 1)	/* decompress beside the writing */
		tdat_cpu_read_ahead(r);
	while ((k = tdat_cpu_next_pages(r, &p, &len, NULL, err)) == 1) {
		if (tdat_writer_put_pages(w, p, len, err)) {
			k = -1;
			break;
		}
		got += len;
		m->st->pages_in += len / ps;
		m->st->pages_copied += len / ps;
		m->st->pages_raw_copied += len / ps;
		progress(m, s, got);
	}
	tdat_cpu_close(r);
	return k;
}

int merge_copy_fits(const struct merge_stream *s, int has_limit,
		    uint64_t limit)
{
	return s->last_known && s->key <= s->last &&
	       (!has_limit || s->last < limit);
}

int merge_copy_stream(struct merge_ctx *m, struct tdat_writer *w,
		      struct merge_stream *s, struct tdat_error *err)
{
	struct merge_input *in = &m->in[s->input];
	struct tdat_file *f;
	int r;

	f = input_get(m, s->input, err);
	if (!f)
		return -1;
	in->busy = 1;
	r = chunks_stay(m, f, s) ? copy_chunks(m, w, f, s, err) :
				   copy_pages(m, w, f, s, err);
	in->busy = 0;
	if (r)
		return -1;
	m->st->streams_copied++;
	m->done += s->size;
	progress(m, s, 0);
	input_trim(m);
	return 0;
}
