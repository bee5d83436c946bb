/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * codec_check.c - does compressed data decode to exactly n bytes?  Found
 * out through a small window, without the decoded bytes in memory, for
 * metadata copied as it is stored (kallsyms decodes to megabytes, which
 * only need checking): zlib data is decoded through (its adler32 says
 * whether it is intact); zstd frames are walked (see zstd_check).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "libfmt/internal.h"

#define CHECK_WINDOW (64u << 10)

/* Count the decoded bytes; keep the first headlen of them in head. */
struct decoded {
	size_t n;
	uint8_t *head;
	size_t headlen;
};

static void got(struct decoded *d, const uint8_t *p, size_t n)
{
	if (d->n < d->headlen) {
		size_t k = d->headlen - d->n < n ? d->headlen - d->n : n;

		memcpy(d->head + d->n, p, k);
	}
	d->n += n;
}

/*
 * zstd frames as trace-cmd writes them have no checksum and no content
 * size: the frame is walked block header by block header (no decoding),
 * and only the first window is decoded, for head.  Decoding it all would
 * find little more (a damaged literal decodes to other bytes just the
 * same) at the cost of megabytes.
 */
static int zstd_check(const void *in, size_t n, size_t expect, uint8_t *win,
		      struct decoded *d)
{
	ZSTD_DCtx *dc;
	ZSTD_inBuffer ib = { in, n, 0 };
	unsigned long long size = ZSTD_getFrameContentSize(in, n);
	size_t r = ZSTD_findFrameCompressedSize(in, n);

	if (ZSTD_isError(r) || r != n || size == ZSTD_CONTENTSIZE_ERROR ||
	    (size != ZSTD_CONTENTSIZE_UNKNOWN && size != expect))
		return -1;
	if (!d->headlen || !expect)
		return 0;
	if (!(dc = ZSTD_createDCtx()))
		return -1;
	do {
		ZSTD_outBuffer ob = { win, CHECK_WINDOW, 0 };

		r = ZSTD_decompressStream(dc, &ob, &ib);
		if (ZSTD_isError(r))
			break;
		got(d, win, ob.pos);
		/* No progress with input left: cut or corrupt. */
		if (r && !ob.pos && ib.pos == ib.size)
			break;
	} while (r && d->n < d->headlen);
	ZSTD_freeDCtx(dc);
	return ZSTD_isError(r) || (r == 0 && d->n != expect) ||
	       d->n < (expect < d->headlen ? expect : d->headlen) ? -1 : 0;
}

static int zlib_check(const void *in, size_t n, size_t expect, uint8_t *win,
		      struct decoded *d)
{
	z_stream z;
	int r;

	memset(&z, 0, sizeof(z));
	if (n > UINT32_MAX || inflateInit(&z) != Z_OK)
		return -1;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	do {
		z.next_out = win;
		z.avail_out = CHECK_WINDOW;
		r = inflate(&z, Z_NO_FLUSH);
		got(d, win, CHECK_WINDOW - z.avail_out);
	} while (r == Z_OK && d->n <= expect);
	inflateEnd(&z);
	return r == Z_STREAM_END && d->n == expect ? 0 : -1;
}

int codec_check(enum tdat_codec c, const void *in, size_t n, size_t expect,
		void *head, size_t headlen)
{
	struct decoded d = { 0, head, headlen };
	uint8_t *win;
	int r;

	if (c == TDAT_CODEC_NONE) {
		got(&d, in, n);
		return n == expect ? 0 : -1;
	}
	win = malloc(CHECK_WINDOW);
	if (!win)
		return -1;
	r = c == TDAT_CODEC_ZSTD ? zstd_check(in, n, expect, win, &d) :
				   zlib_check(in, n, expect, win, &d);
	free(win);
	return r;
}
