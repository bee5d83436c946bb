/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write_chunks.c - compressed streams (FORMAT.md 4.10): a u32 chunk count,
 * then chunks of u32 compressed size, u32 uncompressed size, data.
 * Data is cut into chunks here and compressed by the chunk pool, which
 * hands them back in order to chunk_sink; chunks compressed elsewhere are
 * checked and copied between them.
 */
#include <errno.h>
#include <string.h>
#include "libfmt/writer.h"

static int count_chunk(struct tdat_writer *w, struct tdat_error *err)
{
	if (w->nchunks == UINT32_MAX)
		return writer_fail(w, err, "too many chunks in one stream");
	w->nchunks++;
	return 0;
}

/* The pool's output, in order: the header goes in out's first 8 bytes. */
static int chunk_sink(void *ctx, uint8_t *out, uint32_t csize,
		      uint32_t usize, struct tdat_error *err)
{
	struct tdat_writer *w = ctx;

	if (!out)
		return writer_fail(w, err, "%s compression of a %u-byte chunk"
				   " failed", tdat_codec_name(w->codec), usize);
	if (count_chunk(w, err))
		return -1;
	tdat_store32(w->big, out, csize);
	tdat_store32(w->big, out + 4, usize);
	return emit(w, out, 8 + (size_t)csize, err);
}

static int pool_ready(struct tdat_writer *w, struct tdat_error *err)
{
	if (!w->pool)
		w->pool = chunkpool_new(w->codec, w->level, w->threads,
					w->chunk_max, chunk_sink, w);
	return w->pool ? 0 : writer_oom(w, err);
}

/* Queue the chunk being filled, if any. */
static int submit_fill(struct tdat_writer *w, struct tdat_error *err)
{
	size_t n = w->filled;

	if (!n)
		return 0;
	w->fill = NULL;
	w->filled = 0;
	if (chunkpool_submit(w->pool, n, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

/* Every chunk so far out in the file. */
static int flush_chunks(struct tdat_writer *w, struct tdat_error *err)
{
	if (submit_fill(w, err))
		return -1;
	if (w->pool && chunkpool_drain(w->pool, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

int chunks_begin(struct tdat_writer *w, struct tdat_error *err)
{
	w->nchunks = 0;
	return pool_ready(w, err) || emit32(w, 0, err) ? -1 : 0;
}

/* Fill chunks of chunk_size bytes; full ones go to the pool. */
int chunks_add(struct tdat_writer *w, const uint8_t *p, size_t len,
	       size_t chunk_size, struct tdat_error *err)
{
	while (len) {
		size_t k;

		if (!w->fill && !(w->fill = chunkpool_buffer(w->pool, err))) {
			w->broken = 1;
			return -1;
		}
		k = chunk_size - w->filled;
		if (k > len)
			k = len;
		memcpy(w->fill + w->filled, p, k);
		w->filled += k;
		p += k;
		len -= k;
		if (w->filled == chunk_size && submit_fill(w, err))
			return -1;
	}
	return 0;
}

int chunks_end(struct tdat_writer *w, uint64_t count_at,
	       struct tdat_error *err)
{
	if (flush_chunks(w, err))
		return -1;
	return patch32(w, count_at, w->nchunks, err);
}

/* A bad chunk to copy (kind: "" or "stored "): the writer is broken,
 * and -2 (not -1) says so, so a caller can name where it is. */
static int chunk_bad(struct tdat_writer *w, const char *kind, uint32_t usize,
		     const char *why, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	w->broken = 1;
	tdat_fail_nooff(err, w->meta->path ? w->meta->path : w->out.path,
			"buffer \"%s\" CPU %d: %s%s chunk %u (%u bytes) %s",
			wb->b->name, w->cpu->cpu, kind,
			tdat_codec_name(w->codec), w->nchunks, usize, why);
	return -2;
}

/* Sizes a chunk header of the input may not hold: why, or NULL. */
static const char *sizes_why(struct tdat_writer *w, uint32_t csize,
			     uint32_t usize)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (!usize || usize % wb->page_size || usize > TDAT_MAX_CHUNK)
		return "does not hold whole pages";
	if (csize > codec_bound(w->codec, usize))
		return "is larger than any compression of its pages";
	return NULL;
}

/* A chunk to copy must hold sane pages: never pass on corrupt input. */
static int check_chunk(struct tdat_writer *w, const void *data,
		       uint32_t csize, uint32_t usize, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];
	struct tdat_page_iter it;
	const char *why = sizes_why(w, csize, usize);
	uint8_t *buf;
	uint32_t at;

	if (why)
		return chunk_bad(w, "", usize, why, err);
	buf = writer_scratch(w, usize);
	if (!buf) {
		chunk_bad(w, "", usize, errno == E2BIG ? "would pass the memory"
			  " budget (TDAT_MEMORY raises it)" : "cannot be"
			  " checked: out of memory", err);
		err->memory = 1;
		return -2;
	}
	if (codec_decompress(&w->cc, data, csize, buf, usize))
		why = "does not decompress to the size it claims";
	for (at = 0; !why && at < usize; at += wb->page_size)
		if (tdat_page_iter_init(&it, w->meta, buf + at, wb->page_size))
			why = "holds a page whose commit is larger than the"
			      " page";
	return why ? chunk_bad(w, "", usize, why, err) : 0;
}

/* One checked chunk out: counted, its header, its payload. */
static int put_chunk(struct tdat_writer *w, const void *data, uint32_t csize,
		     uint32_t usize, struct tdat_error *err)
{
	uint8_t h[8];

	if (count_chunk(w, err))
		return -1;
	tdat_store32(w->big, h, csize);
	tdat_store32(w->big, h + 4, usize);
	return emit(w, h, 8, err) || emit(w, data, csize, err) ? -1 : 0;
}

int chunks_copy(struct tdat_writer *w, const void *data, uint32_t csize,
		uint32_t usize, struct tdat_error *err)
{
	int r;

	/* The pool's chunks come first: they were given first. */
	if (flush_chunks(w, err))
		return -1;
	r = check_chunk(w, data, csize, usize, err);
	if (r)
		return r;
	return put_chunk(w, data, csize, usize, err);
}

/*
 * Stored chunks are copied without being decompressed, which is what
 * makes copying them cheap, so only what needs no decoding is checked:
 * sizes in bounds, whole pages, and the codec's frame header agreeing
 * with the chunk header (zstd: one frame exactly csize bytes long, of
 * usize bytes when it says).  Trusting the rest is right because the
 * bytes are the input's, unchanged: the output is exactly as sound as
 * the input, never worse, and libfmt's readers check every page they
 * decode.  A damaged payload therefore reads back as the same damage.
 */
static const char *stored_why(struct tdat_writer *w, const uint8_t *data,
			      uint32_t csize, uint32_t usize)
{
	const char *why = sizes_why(w, csize, usize);

	return why ? why : chunk_frame_check(w->codec, data, csize, usize);
}

int chunks_put_stored(struct tdat_writer *w, const uint8_t *run, size_t len,
		      struct tdat_error *err)
{
	size_t at = 0;

	if (flush_chunks(w, err))
		return -1;
	while (at < len) {
		uint32_t csize, usize;
		const char *why = NULL;

		if (len - at < 8)
			return chunk_bad(w, "stored ", 0, "is cut inside its header", err);
		csize = tdat_load32(w->big, run + at);
		usize = tdat_load32(w->big, run + at + 4);
		if (csize > len - at - 8)
			why = "runs past the bytes given";
		else
			why = stored_why(w, run + at + 8, csize, usize);
		if (why)
			return chunk_bad(w, "stored ", usize, why, err);
		if (count_chunk(w, err))
			return -1;
		at += 8 + (size_t)csize;
	}
	return emit(w, run, len, err);
}

int chunks_put_stored_one(struct tdat_writer *w, const void *data,
			  uint32_t csize, uint32_t usize,
			  struct tdat_error *err)
{
	const char *why;

	if (flush_chunks(w, err))
		return -1;
	why = stored_why(w, data, csize, usize);
	if (why)
		return chunk_bad(w, "stored ", usize, why, err);
	return put_chunk(w, data, csize, usize, err);
}
