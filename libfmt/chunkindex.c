/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chunkindex.c - a compressed CPU stream known from its chunk headers
 * alone (FORMAT.md 4.10: u32 chunk count, then u32 compressed size, u32
 * uncompressed size, payload), payloads unread and undecoded: to find
 * the last chunk cheaply, to copy chunks as they are stored, or to read
 * them one at a time keeping only a position per stream (split's first
 * pass over hundreds of CPUs, decoding with one shared decoder).
 *
 * Every header is checked before it is trusted: the chunk must lie in
 * the stream's extent (its recorded size, plus the 4 bytes trace-cmd
 * 3.1.x leaves out of it, and never past the end of the file), hold
 * whole pages, at most TDAT_MAX_CHUNK of them, and not claim a
 * compressed size larger than the codec can ever produce for them.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "libfmt/internal.h"

/* Deflate's best ratio is 1032:1 (258-byte matches in 2 bits). */
#define DEFLATE_MAX_RATIO 1032

static const char *zstd_frame(const uint8_t *p, uint32_t csize,
			      uint32_t usize)
{
	unsigned long long content;
	size_t n = ZSTD_findFrameCompressedSize(p, csize);

	if (ZSTD_isError(n))
		return "is not a zstd frame";
	if (n != csize)
		return "is not exactly one zstd frame";
	content = ZSTD_getFrameContentSize(p, csize);
	if (content == ZSTD_CONTENTSIZE_ERROR)
		return "is not a zstd frame";
	if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != usize)
		return "holds another size than its header says";
	return NULL;
}

/* RFC 1950: CM 8 (deflate), window <= 32K, no preset dictionary, and
 * the check bits; an Adler-32 trailer follows the deflate data. */
static const char *zlib_frame(const uint8_t *p, uint32_t csize,
			      uint32_t usize)
{
	if (csize < 2 + 2 + 4)
		return "is too short for a zlib stream";
	if ((p[0] & 0x0f) != Z_DEFLATED || (p[0] >> 4) > 7 ||
	    (p[1] & 0x20) || ((unsigned)p[0] << 8 | p[1]) % 31)
		return "does not start with a zlib header";
	if (usize / DEFLATE_MAX_RATIO > csize)
		return "is too short for the size its header says";
	return NULL;
}

const char *chunk_frame_check(enum tdat_codec c, const uint8_t *p,
			      uint32_t csize, uint32_t usize)
{
	switch (c) {
	case TDAT_CODEC_ZSTD:
		return zstd_frame(p, csize, usize);
	case TDAT_CODEC_ZLIB:
		return zlib_frame(p, csize, usize);
	default:
		return csize == usize ? NULL : "is not its header's size";
	}
}

static int walk_fail(const struct tdat_chunk_walk *cw, uint64_t off,
		     struct tdat_error *err, const char *what)
{
	return tdat_fail(err, cw->f->path, off, "buffer \"%s\" CPU %d: %s",
			 cw->buf_name, cw->cpu, what);
}

int tdat_chunk_walk_init(struct tdat_chunk_walk *cw, struct tdat_file *f,
			 int buf, int idx, struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	const struct tdat_cpu *c = &b->cpus[idx];
	uint8_t n[4];

	memset(cw, 0, sizeof(*cw));
	cw->f = f;
	cw->buf_name = b->name;
	cw->cpu = c->cpu;
	cw->page_size = b->page_size;
	if (!b->compressed)
		return walk_fail(cw, c->offset, err, "not compressed");
	if (!c->size)
		return 0;	/* no data, no chunk count */
	if (c->offset > f->file_size || c->size > f->file_size - c->offset)
		return walk_fail(cw, c->offset, err, "data runs past the end of"
				 " the file (truncated?)");
	if (c->size < 4)
		return walk_fail(cw, c->offset, err, "stream too short for its"
				 " chunk count");
	if (fio_read_at(f, c->offset, n, 4, "chunk count", err))
		return -1;
	cw->nchunks = tdat_get32(f, n);
	cw->next = c->offset + 4;
	cw->end = c->offset + c->size + 4;
	if (cw->end > f->file_size)
		cw->end = f->file_size;
	if (cw->nchunks > (cw->end - cw->next) / 8)
		return walk_fail(cw, c->offset, err, "chunk count runs past the"
				 " end of the stream");
	return 0;
}

int tdat_chunk_walk_header(struct tdat_chunk_walk *cw, const uint8_t *h,
			   struct tdat_chunk *c, struct tdat_error *err)
{
	uint64_t room;

	if (cw->done >= cw->nchunks)
		return walk_fail(cw, cw->next, err, "more chunks than the"
				 " stream's count");
	c->offset = cw->next;
	c->csize = tdat_get32(cw->f, h);
	c->usize = tdat_get32(cw->f, h + 4);
	room = cw->end - cw->next;
	if (room < 8 || c->csize > room - 8)
		return walk_fail(cw, c->offset, err, "chunk runs past the end"
				 " of the stream (truncated?)");
	if (c->usize > TDAT_MAX_CHUNK || c->usize % cw->page_size)
		return walk_fail(cw, c->offset, err, "chunk claims an"
				 " implausible uncompressed size");
	if (c->csize > codec_bound(cw->f->codec, c->usize))
		return walk_fail(cw, c->offset, err, "chunk is larger than any"
				 " compression of its pages");
	cw->next += 8 + (uint64_t)c->csize;
	cw->done++;
	cw->usize += c->usize;
	return 1;
}

int tdat_chunk_walk_next(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 struct tdat_error *err)
{
	uint8_t h[8];

	if (cw->done >= cw->nchunks)
		return 0;
	if (cw->end - cw->next < 8)
		return walk_fail(cw, cw->next, err, "chunk header runs past the"
				 " end of the stream (truncated?)");
	if (fio_read_at(cw->f, cw->next, h, 8, "chunk header", err))
		return -1;
	return tdat_chunk_walk_header(cw, h, c, err);
}

/* Headers are read through a window: one read serves the headers of
 * many small chunks (a syscall per chunk costs more than the copy). */
#define LAST_WINDOW (64u << 10)

int tdat_chunk_walk_last(struct tdat_chunk_walk *cw, struct tdat_chunk *last,
			 struct tdat_error *err)
{
	uint8_t *win = malloc(LAST_WINDOW);
	uint64_t woff = 0, wlen = 0;
	struct tdat_chunk c;
	int got = 0, found = 0;

	if (!win)
		return walk_fail(cw, cw->next, err, "out of memory");
	while (cw->done < cw->nchunks) {
		if (cw->next < woff || cw->next - woff + 8 > wlen) {
			woff = cw->next;
			wlen = cw->end - woff;
			if (wlen > LAST_WINDOW)
				wlen = LAST_WINDOW;
			if (wlen < 8) {
				got = walk_fail(cw, woff, err, "chunk header"
						" runs past the end of the"
						" stream (truncated?)");
				break;
			}
			if (fio_read_at(cw->f, woff, win, (size_t)wlen,
					"chunk header", err)) {
				got = -1;
				break;
			}
		}
		got = tdat_chunk_walk_header(cw, win + (cw->next - woff), &c,
					     err);
		if (got < 0)
			break;
		if (c.usize) {
			*last = c;
			found = 1;
		}
	}
	free(win);
	return got < 0 ? -1 : found;
}

int tdat_chunk_read(struct tdat_chunk_walk *cw, const struct tdat_chunk *c,
		    void *buf, struct tdat_error *err)
{
	return fio_read_at(cw->f, c->offset + 8, buf, c->csize, "chunk", err);
}

/* Room for n bytes (at least 1) in *buf; -1 when out of memory. */
static int grow(uint8_t **buf, size_t *cap, size_t n)
{
	uint8_t *p;

	if (!n)
		n = 1;
	if (n <= *cap && *buf)
		return 0;
	p = realloc(*buf, n);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

int tdat_chunk_walk_read(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 uint8_t **buf, size_t *cap, struct tdat_error *err)
{
	int got = tdat_chunk_walk_next(cw, c, err);

	if (got <= 0)
		return got;
	if (grow(buf, cap, c->csize))
		return walk_fail(cw, c->offset, err, "out of memory");
	return tdat_chunk_read(cw, c, *buf, err) ? -1 : 1;
}

int64_t tdat_chunk_walk_run(struct tdat_chunk_walk *cw, uint8_t **buf,
			    size_t *cap, size_t want, uint32_t *nchunks,
			    struct tdat_error *err)
{
	uint64_t start = cw->next, n = cw->end - cw->next;
	size_t used = 0;
	struct tdat_chunk c;

	*nchunks = 0;
	if (cw->done >= cw->nchunks)
		return 0;
	if (want < 8)
		want = 8;
	if (n > want)
		n = want;
	if (n < 8)
		return walk_fail(cw, cw->next, err, "chunk header runs past the"
				 " end of the stream (truncated?)");
	if (grow(buf, cap, (size_t)n))
		return walk_fail(cw, cw->next, err, "out of memory");
	if (fio_read_at(cw->f, start, *buf, (size_t)n, "chunks", err))
		return -1;
	/* Whole chunks that came in; at least one, read again if bigger. */
	while (cw->done < cw->nchunks && n - used >= 8) {
		uint64_t at = cw->next;
		const char *why;

		if (tdat_chunk_walk_header(cw, *buf + used, &c, err) < 0)
			return -1;
		if (8 + (uint64_t)c.csize > n - used) {
			if (used) {	/* the next run starts with it */
				cw->next = at;
				cw->done--;
				cw->usize -= c.usize;
				break;
			}
			if (grow(buf, cap, 8 + (size_t)c.csize))
				return walk_fail(cw, at, err, "out of memory");
			if (tdat_chunk_read(cw, &c, *buf + 8, err))
				return -1;
			n = 8 + (uint64_t)c.csize;
		}
		why = chunk_frame_check(cw->f->codec, *buf + used + 8, c.csize,
					c.usize);
		if (why) {
			tdat_fail(err, cw->f->path, at, "buffer \"%s\" CPU %d:"
				  " %s chunk (%u bytes) %s", cw->buf_name,
				  cw->cpu, tdat_codec_name(cw->f->codec),
				  c.usize, why);
			return -1;
		}
		used += 8 + (size_t)c.csize;
		++*nchunks;
	}
	return (int64_t)used;
}
