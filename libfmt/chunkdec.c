/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chunkdec.c - decompress one stored chunk of a CPU stream, for callers
 * that walk chunks with tdat_cpu_next_chunk (to copy most of them as
 * they are) and need the pages of a few.
 */
#include <stdlib.h>
#include "libfmt/internal.h"

struct tdat_chunk_decoder {
	const struct tdat_file *f;
	struct codec_ctx codec;
};

struct tdat_chunk_decoder *tdat_chunk_decoder_new(const struct tdat_file *f)
{
	struct tdat_chunk_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->f = f;
	codec_ctx_init(&d->codec, f->codec, 0);
	return d;
}

int tdat_chunk_decode(struct tdat_chunk_decoder *d, const void *data,
		      uint32_t csize, void *out, uint32_t usize,
		      uint64_t where, struct tdat_error *err)
{
	if (codec_decompress(&d->codec, data, csize, out, usize))
		return tdat_fail(err, d->f->path, where, "chunk does not"
				 " decompress to the %u bytes it claims",
				 usize);
	return 0;
}

void tdat_chunk_decoder_free(struct tdat_chunk_decoder *d)
{
	if (!d)
		return;
	codec_ctx_free(&d->codec);
	free(d);
}
