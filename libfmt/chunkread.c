/*
 * chunkread.c - a compressed CPU stream's stored chunks read one at a
 * time by file offset, with no reader kept open: for callers that hold
 * many streams half-read at once (split's first pass over hundreds of
 * CPUs) and keep only a position per stream, decompressing with one
 * shared tdat_chunk_decoder.
 */
#include <stdlib.h>
#include "internal.h"

/*
 * Where a stream's chunks can lie: from just after its count to its
 * recorded end, plus 4 bytes, as trace-cmd 3.1.x records compressed
 * stream sizes 4 bytes short; never past the end of the file.
 */
static uint64_t stream_end(const struct tdat_file *f, const struct tdat_cpu *c)
{
	uint64_t end = c->offset + c->size + 4;

	if (end < c->offset || end > f->file_size)
		end = f->file_size;
	return end;
}

static int bad(const struct tdat_file *f, int buf, int idx, uint64_t off,
	       const char *what, struct tdat_error *err)
{
	return tdat_fail(err, f->path, off, "buffer \"%s\" CPU %d: %s",
			 f->buffers[buf].name, f->buffers[buf].cpus[idx].cpu,
			 what);
}

int tdat_chunk_first(const struct tdat_file *f, int buf, int idx,
		     uint32_t *nchunks, uint64_t *first,
		     struct tdat_error *err)
{
	const struct tdat_cpu *c = &f->buffers[buf].cpus[idx];
	uint8_t b[4];

	*nchunks = 0;
	*first = c->offset + 4;
	if (!f->buffers[buf].compressed)
		return bad(f, buf, idx, c->offset, "not compressed", err);
	if (!c->size)
		return 0;	/* no data */
	if (c->offset > f->file_size || c->size > f->file_size - c->offset)
		return bad(f, buf, idx, c->offset, "data runs past the end of"
			   " the file (truncated?)", err);
	if (fio_read_at(f, c->offset, b, 4, "chunk count", err))
		return -1;
	*nchunks = tdat_get32(f, b);
	if (*nchunks > (stream_end(f, c) - *first) / 8)
		return bad(f, buf, idx, c->offset, "chunk count runs past the"
			   " end of the stream", err);
	return 0;
}

int tdat_chunk_read_at(const struct tdat_file *f, int buf, int idx,
		       uint64_t off, uint8_t **data, size_t *cap,
		       uint32_t *csize, uint32_t *usize,
		       struct tdat_error *err)
{
	const struct tdat_cpu *c = &f->buffers[buf].cpus[idx];
	uint64_t end = stream_end(f, c);
	uint8_t h[8];
	uint8_t *p;

	if (off < c->offset + 4 || off > end || end - off < 8)
		return bad(f, buf, idx, off, "chunk header lies outside its"
			   " stream (truncated?)", err);
	if (fio_read_at(f, off, h, 8, "chunk header", err))
		return -1;
	*csize = tdat_get32(f, h);
	*usize = tdat_get32(f, h + 4);
	if (*csize > end - off - 8)
		return bad(f, buf, idx, off, "chunk runs past the end of its"
			   " stream (truncated?)", err);
	if (*usize > TDAT_MAX_CHUNK || *usize % f->buffers[buf].page_size)
		return bad(f, buf, idx, off, "chunk claims an implausible"
			   " uncompressed size", err);
	if (*csize > *cap || !*data) {
		p = realloc(*data, *csize ? *csize : 1);
		if (!p)
			return bad(f, buf, idx, off, "out of memory", err);
		*data = p;
		*cap = *csize ? *csize : 1;
	}
	return fio_read_at(f, off + 8, *data, *csize, "chunk", err);
}
