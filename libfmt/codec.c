/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* codec.c - the compression codecs: none, zlib and zstd. */
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "libfmt/internal.h"

const char *tdat_codec_name(enum tdat_codec c)
{
	switch (c) {
	case TDAT_CODEC_ZLIB: return "zlib";
	case TDAT_CODEC_ZSTD: return "zstd";
	default: return "none";
	}
}

int tdat_codec_by_name(const char *name, enum tdat_codec *c)
{
	if (!strcmp(name, "none"))
		*c = TDAT_CODEC_NONE;
	else if (!strcmp(name, "zlib"))
		*c = TDAT_CODEC_ZLIB;
	else if (!strcmp(name, "zstd"))
		*c = TDAT_CODEC_ZSTD;
	else
		return -1;
	return 0;
}

const char *tdat_codec_lib_version(enum tdat_codec c)
{
	switch (c) {
	case TDAT_CODEC_ZLIB: return zlibVersion();
	case TDAT_CODEC_ZSTD: return ZSTD_versionString();
	default: return "";
	}
}

size_t codec_bound(enum tdat_codec c, size_t n)
{
	switch (c) {
	case TDAT_CODEC_ZLIB: return compressBound((uLong)n);
	case TDAT_CODEC_ZSTD: return ZSTD_compressBound(n);
	default: return n;
	}
}

void codec_ctx_init(struct codec_ctx *x, enum tdat_codec c, int level)
{
	x->codec = c;
	x->level = level;
	x->cctx = NULL;
	x->dctx = NULL;
}

void codec_ctx_free(struct codec_ctx *x)
{
	ZSTD_freeCCtx(x->cctx);
	ZSTD_freeDCtx(x->dctx);
	x->cctx = NULL;
	x->dctx = NULL;
}

/*
 * High levels would take 80+ MiB per context (8 MiB windows, huge match
 * tables); these caps keep each under ~20 MiB so the memory target holds
 * with a context per thread.  Levels below 10 never reach them, so the
 * default output stays byte-identical to trace-cmd's.
 */
static void zstd_cap_memory(ZSTD_CCtx *cc, int level)
{
	if (level < 10)
		return;
	ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 21);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_chainLog, 21);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_hashLog, 20);
}

/* trace-cmd's frames: level 3 by default, no content size, no checksum. */
static int zstd_compress(struct codec_ctx *x, const void *in, size_t n,
			 void *out, size_t cap, size_t *outlen)
{
	size_t r;

	if (!x->cctx) {
		x->cctx = ZSTD_createCCtx();
		if (!x->cctx)
			return -1;
		ZSTD_CCtx_setParameter(x->cctx, ZSTD_c_compressionLevel,
				       x->level ? x->level : 3);
		ZSTD_CCtx_setParameter(x->cctx, ZSTD_c_contentSizeFlag, 0);
		zstd_cap_memory(x->cctx, x->level);
	}
	r = ZSTD_compress2(x->cctx, out, cap, in, n);
	if (ZSTD_isError(r))
		return -1;
	*outlen = r;
	return 0;
}

int codec_compress(struct codec_ctx *x, const void *in, size_t n, void *out,
		   size_t cap, size_t *outlen)
{
	uLongf zlen = (uLongf)cap;

	switch (x->codec) {
	case TDAT_CODEC_ZSTD:
		return zstd_compress(x, in, n, out, cap, outlen);
	case TDAT_CODEC_ZLIB:
		if (compress2(out, &zlen, in, (uLong)n,
			      x->level ? x->level : Z_BEST_COMPRESSION) != Z_OK)
			return -1;
		*outlen = zlen;
		return 0;
	default:
		if (n > cap)
			return -1;
		memcpy(out, in, n);
		*outlen = n;
		return 0;
	}
}

static int zstd_decompress(struct codec_ctx *x, const void *in, size_t n,
			   void *out, size_t expect)
{
	ZSTD_inBuffer ib = { in, n, 0 };
	ZSTD_outBuffer ob = { out, expect, 0 };
	size_t r;

	if (!x->dctx) {
		x->dctx = ZSTD_createDCtx();
		if (!x->dctx)
			return -1;
	}
	ZSTD_DCtx_reset(x->dctx, ZSTD_reset_session_only);
	/* Streaming, so frames without a content size are fine and the
	 * output can never exceed expect bytes. */
	do {
		r = ZSTD_decompressStream(x->dctx, &ob, &ib);
	} while (!ZSTD_isError(r) && r != 0 && ib.pos < ib.size &&
		 ob.pos < ob.size);
	/* r == 0: the frame ended; otherwise it holds more than expect
	 * bytes, or was cut. */
	if (ZSTD_isError(r) || r != 0 || ob.pos != expect)
		return -1;
	return 0;
}

int codec_decompress(struct codec_ctx *x, const void *in, size_t n, void *out,
		     size_t expect)
{
	uLongf zlen = (uLongf)expect;

	switch (x->codec) {
	case TDAT_CODEC_ZSTD:
		return zstd_decompress(x, in, n, out, expect);
	case TDAT_CODEC_ZLIB:
		if (uncompress(out, &zlen, in, (uLong)n) != Z_OK ||
		    zlen != expect)
			return -1;
		return 0;
	default:
		if (n != expect)
			return -1;
		memcpy(out, in, n);
		return 0;
	}
}
