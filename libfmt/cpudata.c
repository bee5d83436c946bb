/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpudata.c - streaming one CPU's pages, raw or from compressed chunks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/cpureader.h"

#define RAW_WINDOW_PAGES 64

static int fail_cpu(const struct tdat_cpu_reader *r, uint64_t off,
		    struct tdat_error *err, const char *what)
{
	return tdat_fail(err, r->f->path, off, "buffer \"%s\" CPU %d: %s",
			 r->buf_name, r->cpu, what);
}

/* A buffer for what the file claims could not be had: over the
 * budget, or out of memory. */
static int held_fail(const struct tdat_cpu_reader *r, uint64_t off,
		     struct tdat_error *err, const char *what, uint64_t n)
{
	char where[160];

	snprintf(where, sizeof(where), "buffer \"%s\" CPU %d: %s", r->buf_name,
		 r->cpu, what);
	return tdat_budget_fail(err, r->f->path, off, where, n);
}

static int open_chunks(struct tdat_cpu_reader *r, const struct tdat_cpu *c,
		       struct tdat_error *err)
{
	uint8_t b[4];

	if (c->size == 0)
		return 0;	/* no data */
	/* The size is not used to walk chunks (3.1.x records it 4 bytes
	 * short), but a stream claiming more than the file is truncated. */
	if (c->offset > r->f->file_size ||
	    c->size > r->f->file_size - c->offset)
		return fail_cpu(r, c->offset, err, "data runs past the end of"
				" the file (truncated?)");
	if (fio_read_at(r->f, c->offset, b, 4, "chunk count", err))
		return -1;
	r->nchunks = tdat_get32(r->f, b);
	r->chunk_off = c->offset + 4;
	if (r->nchunks > (r->f->file_size - r->chunk_off) / 8)
		return fail_cpu(r, c->offset, err, "chunk count runs past the"
				" end of the file");
	codec_ctx_init(&r->codec, r->f->codec, 0);
	return 0;
}

struct tdat_cpu_reader *tdat_cpu_open(struct tdat_file *f, int buf, int idx,
				      struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	const struct tdat_cpu *c = &b->cpus[idx];
	struct tdat_cpu_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		tdat_fail(err, f->path, c->offset, "out of memory");
		return NULL;
	}
	r->f = f;
	r->buf_name = b->name;
	r->cpu = c->cpu;
	r->page_size = b->page_size;
	r->compressed = b->compressed;
	r->start = c->offset;
	r->size = c->size;
	if (r->compressed) {
		if (open_chunks(r, c, err)) {
			free(r);
			return NULL;
		}
	} else {
		r->pos = c->offset;
		r->end = c->offset + c->size;
		r->win_offset = c->offset;
		if (r->end < r->pos) {
			fail_cpu(r, c->offset, err, "size overflows");
			free(r);
			return NULL;
		}
	}
	return r;
}

void tdat_cpu_position(const struct tdat_cpu_reader *r, uint64_t *done,
		       uint64_t *total)
{
	uint64_t at;
	int ended;

	if (r->ahead) {		/* the walk is the threads' */
		ahead_position(r, &at, &ended);
	} else {
		at = r->compressed ? r->chunk_off : r->pos;
		ended = r->dead || (r->compressed && r->chunk >= r->nchunks);
	}
	*total = r->size;
	*done = ended ? r->size : at > r->start ? at - r->start : 0;
	if (*done > *total)
		*done = *total;
}

void tdat_cpu_close(struct tdat_cpu_reader *r)
{
	if (!r)
		return;
	ahead_stop(r);
	codec_ctx_free(&r->codec);
	tdat_bytes_free(&r->cbuf);
	tdat_bytes_free(&r->win);
	free(r);
}

/* Raw: fill the window with whole pages from the file. */
static int fill_raw(struct tdat_cpu_reader *r, struct tdat_error *err)
{
	uint64_t left = r->end - r->pos, avail;
	size_t n;

	if (left == 0)
		return 0;
	avail = r->pos < r->f->file_size ? r->f->file_size - r->pos : 0;
	n = (size_t)(left < (uint64_t)RAW_WINDOW_PAGES * r->page_size ?
		     left : (uint64_t)RAW_WINDOW_PAGES * r->page_size);
	if (n > avail)
		n = (size_t)avail;
	n -= n % r->page_size;
	if (n == 0) {
		if (left < r->page_size && left <= avail)
			return fail_cpu(r, r->pos, err, "data ends with a"
					" partial page");
		return tdat_fail(err, r->f->path, r->pos, "buffer \"%s\" CPU"
				 " %d: data runs past the end of the file"
				 " (%llu bytes missing; truncated?)",
				 r->buf_name, r->cpu,
				 (unsigned long long)(left - avail));
	}
	if (tdat_bytes_reserve_held(&r->win, n))
		return held_fail(r, r->pos, err, "trace data", n);
	if (fio_read_at(r->f, r->pos, r->win.data, n, "trace data", err))
		return -1;
	r->win_offset = r->pos;
	r->pos += n;
	r->wlen = n;
	r->wpos = 0;
	return 1;
}

/* The next chunk header: 1 with sizes, 0 at the end, -1 on error. */
static int chunk_header(struct tdat_cpu_reader *r, uint32_t *csize,
			uint32_t *usize, struct tdat_error *err)
{
	uint8_t h[8];

	if (r->chunk >= r->nchunks)
		return 0;
	if (fio_read_at(r->f, r->chunk_off, h, 8, "chunk header", err))
		return -1;
	*csize = tdat_get32(r->f, h);
	*usize = tdat_get32(r->f, h + 4);
	if (*csize > r->f->file_size - r->chunk_off - 8)
		return fail_cpu(r, r->chunk_off, err, "chunk runs past the end"
				" of the file (truncated?)");
	if (*usize > TDAT_MAX_CHUNK || *usize % r->page_size)
		return fail_cpu(r, r->chunk_off, err, "chunk claims an"
				" implausible uncompressed size");
	return 1;
}

static int read_chunk_payload(struct tdat_cpu_reader *r,
			      struct tdat_bytes *cbuf, uint32_t csize,
			      struct tdat_error *err)
{
	if (tdat_bytes_reserve_held(cbuf, csize ? csize : 1))
		return held_fail(r, r->chunk_off, err, "chunk", csize);
	return fio_read_at(r->f, r->chunk_off + 8, cbuf->data, csize, "chunk",
			   err);
}

int cpu_claim_chunk(struct tdat_cpu_reader *r, struct tdat_bytes *cbuf,
		    struct tdat_bytes *win, struct cpu_chunk *c,
		    struct tdat_error *err)
{
	int got = chunk_header(r, &c->csize, &c->usize, err);

	if (got <= 0)
		return got;
	if (read_chunk_payload(r, cbuf, c->csize, err))
		return -1;
	if (tdat_bytes_reserve_held(win, c->usize ? c->usize : 1))
		return held_fail(r, r->chunk_off, err, "chunk", c->usize);
	c->off = r->chunk_off;
	r->chunk_off += 8 + (uint64_t)c->csize;
	r->chunk++;
	return 1;
}

int cpu_decode_chunk(const struct tdat_cpu_reader *r, struct codec_ctx *codec,
		     const struct cpu_chunk *c, const uint8_t *cbuf,
		     uint8_t *win, struct tdat_error *err)
{
	if (!codec_decompress(codec, cbuf, c->csize, win, c->usize))
		return 0;
	/* Its framing is intact: the next chunk can still be read. */
	return fail_cpu(r, c->off, err, "chunk does not decompress; its pages"
			" are skipped");
}

int cpu_fill_compressed(struct tdat_cpu_reader *r, struct tdat_error *err)
{
	struct cpu_chunk c;
	int got = cpu_claim_chunk(r, &r->cbuf, &r->win, &c, err);

	if (got <= 0)
		return got;
	r->win_offset += r->wlen;
	r->wlen = r->wpos = 0;
	if (cpu_decode_chunk(r, &r->codec, &c, r->cbuf.data, r->win.data,
			     err)) {
		r->win_offset += c.usize;
		return -2;
	}
	r->wlen = c.usize;
	return 1;
}

int tdat_cpu_bad_commit(const struct tdat_file *f, int buf, int idx,
			uint64_t offset, struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	int cpu = b->cpus[idx].cpu;

	if (b->compressed)
		return tdat_fail_nooff(err, f->path, "buffer \"%s\" CPU %d:"
				       " the page at offset %llu of the"
				       " decompressed data has a commit larger"
				       " than the page", b->name, cpu,
				       (unsigned long long)offset);
	return tdat_fail(err, f->path, offset, "buffer \"%s\" CPU %d: page"
			 " commit is larger than the page", b->name, cpu);
}

int tdat_cpu_next_page(struct tdat_cpu_reader *r, const uint8_t **page,
		       uint64_t *offset, struct tdat_error *err)
{
	if (r->ahead)
		return ahead_next_page(r, page, offset, err);
	if (r->dead)
		return 0;
	while (r->wpos >= r->wlen) {
		int got = r->compressed ? cpu_fill_compressed(r, err) :
					  fill_raw(r, err);
		if (got == -2)
			return -1;	/* skipped a chunk; go on if you like */
		if (got == -1)
			r->dead = 1;	/* nothing further can be reached */
		if (got <= 0)
			return got;
	}
	*page = r->win.data + r->wpos;
	if (offset)
		*offset = r->win_offset + r->wpos;
	r->wpos += r->page_size;
	return 1;
}

int tdat_cpu_next_pages(struct tdat_cpu_reader *r, const uint8_t **pages,
			size_t *len, uint64_t *offset, struct tdat_error *err)
{
	const uint8_t *p;
	int got = tdat_cpu_next_page(r, &p, offset, err);

	if (got <= 0)
		return got;
	/* The page handed out and the rest of the window with it. */
	*pages = p;
	if (r->ahead) {
		*len = ahead_take_rest(r) + r->page_size;
		return 1;
	}
	*len = r->wlen - r->wpos + r->page_size;
	r->wpos = r->wlen;
	return 1;
}

int tdat_cpu_next_chunk(struct tdat_cpu_reader *r, const uint8_t **data,
			uint32_t *csize, uint32_t *usize,
			struct tdat_error *err)
{
	int got;

	if (!r->compressed)
		return fail_cpu(r, r->pos, err, "not compressed");
	if (r->ahead)
		return fail_cpu(r, r->chunk_off, err, "chunks are being read"
				" ahead");
	got = chunk_header(r, csize, usize, err);
	if (got <= 0)
		return got;
	if (read_chunk_payload(r, &r->cbuf, *csize, err))
		return -1;
	*data = r->cbuf.data;
	r->chunk_off += 8 + (uint64_t)*csize;
	r->chunk++;
	return 1;
}

static int latency_chunks(struct tdat_cpu_reader *r, struct tdat_blob *out,
			  struct tdat_error *err)
{
	struct tdat_bytes text = { 0 };

	while (r->chunk < r->nchunks) {
		if (cpu_fill_compressed(r, err) < 0) {
			tdat_bytes_free(&text);
			return -1;
		}
		/* Grown to the size only: the text may be near 1 GiB. */
		if (!budget_fits(text.len + r->wlen)) {
			held_fail(r, r->chunk_off, err, "latency text",
				  text.len + r->wlen);
			tdat_bytes_free(&text);
			return -1;
		}
		if (text.len + r->wlen > TDAT_MAX_BLOB ||
		    tdat_bytes_reserve(&text, text.len + r->wlen) ||
		    tdat_bytes_add(&text, r->win.data, r->wlen)) {
			tdat_bytes_free(&text);
			return fail_cpu(r, r->chunk_off, err, "latency text is"
					" too large");
		}
	}
	out->data = text.data;
	out->len = text.len;
	return 0;
}

int tdat_read_latency(struct tdat_file *f, int buf, struct tdat_blob *out,
		      struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	struct tdat_cpu c = { 0, b->latency_offset, b->latency_size };
	struct tdat_cpu_reader r;
	int ret;

	out->data = NULL;
	out->len = 0;
	if (!b->compressed)
		return fio_read_blob(f, b->latency_offset, b->latency_size, out,
				     "latency text", err);
	/* Chunked like CPU data, but chunks need not be whole pages. */
	memset(&r, 0, sizeof(r));
	r.f = f;
	r.buf_name = b->name;
	r.page_size = 1;
	ret = open_chunks(&r, &c, err);
	if (!ret)
		ret = latency_chunks(&r, out, err);
	codec_ctx_free(&r.codec);
	tdat_bytes_free(&r.cbuf);
	tdat_bytes_free(&r.win);
	if (ret)
		tdat_blob_free(out);
	return ret;
}
