/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_codec.c - the codecs: round trips, what trace-cmd's frames look
 * like (FORMAT.md 6.4, 6.5), and rejection of corrupt or mis-sized data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zlib.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

#define SAMPLE_LEN (3 * 40960 + 123)

/* Trace-like bytes: repetitive records with a counter, some noise. */
static uint8_t *sample(size_t n)
{
	uint8_t *p = malloc(n);
	uint32_t x = 12345;
	size_t i;

	for (i = 0; p && i < n; i++) {
		x = x * 1103515245 + 12345;
		p[i] = (i % 64 < 40) ? (uint8_t)(i / 64) : (uint8_t)(x >> 24);
	}
	return p;
}

/* Compress with c at level, decompress, compare; returns the size. */
static size_t round_trip(enum tdat_codec c, int level, const uint8_t *in,
			 size_t n)
{
	struct codec_ctx x;
	size_t cap = codec_bound(c, n), clen = 0;
	uint8_t *z = malloc(cap), *back = malloc(n ? n : 1);

	CU_ASSERT_FATAL(z && back);
	codec_ctx_init(&x, c, level);
	CU_ASSERT_EQUAL(codec_compress(&x, in, n, z, cap, &clen), 0);
	CU_ASSERT(clen <= cap);
	CU_ASSERT_EQUAL(codec_decompress(&x, z, clen, back, n), 0);
	CU_ASSERT(memcmp(in, back, n) == 0);
	/* the same context again: state must not leak between calls */
	CU_ASSERT_EQUAL(codec_compress(&x, in, n, z, cap, &clen), 0);
	CU_ASSERT_EQUAL(codec_decompress(&x, z, clen, back, n), 0);
	CU_ASSERT(memcmp(in, back, n) == 0);
	codec_ctx_free(&x);
	free(z);
	free(back);
	return clen;
}

static void test_round_trips(void)
{
	uint8_t *in = sample(SAMPLE_LEN);
	size_t z;

	CU_ASSERT_FATAL(in != NULL);
	CU_ASSERT_EQUAL(round_trip(TDAT_CODEC_NONE, 0, in, SAMPLE_LEN),
			SAMPLE_LEN);
	z = round_trip(TDAT_CODEC_ZSTD, 0, in, SAMPLE_LEN);
	CU_ASSERT(z < SAMPLE_LEN);
	CU_ASSERT(round_trip(TDAT_CODEC_ZSTD, 19, in, SAMPLE_LEN) < SAMPLE_LEN);
	CU_ASSERT(round_trip(TDAT_CODEC_ZSTD, 1, in, SAMPLE_LEN) < SAMPLE_LEN);
	CU_ASSERT(round_trip(TDAT_CODEC_ZLIB, 0, in, SAMPLE_LEN) < SAMPLE_LEN);
	CU_ASSERT(round_trip(TDAT_CODEC_ZLIB, 1, in, SAMPLE_LEN) < SAMPLE_LEN);
	/* empty and one-byte inputs */
	round_trip(TDAT_CODEC_ZSTD, 0, in, 0);
	round_trip(TDAT_CODEC_ZLIB, 0, in, 0);
	round_trip(TDAT_CODEC_ZSTD, 0, in, 1);
	round_trip(TDAT_CODEC_ZLIB, 0, in, 1);
	free(in);
}

static size_t compress_with(enum tdat_codec c, int level, const uint8_t *in,
			    size_t n, uint8_t *out, size_t cap)
{
	struct codec_ctx x;
	size_t clen = 0;

	codec_ctx_init(&x, c, level);
	CU_ASSERT_EQUAL(codec_compress(&x, in, n, out, cap, &clen), 0);
	codec_ctx_free(&x);
	return clen;
}

static int decompress_with(enum tdat_codec c, const uint8_t *in, size_t n,
			   uint8_t *out, size_t expect)
{
	struct codec_ctx x;
	int r;

	codec_ctx_init(&x, c, 0);
	r = codec_decompress(&x, in, n, out, expect);
	codec_ctx_free(&x);
	return r;
}

/* FORMAT.md 6.4: a plain frame, level 3, no content size, no checksum. */
static void test_zstd_frame_shape(void)
{
	uint8_t *in = sample(40960);
	size_t cap = ZSTD_compressBound(40960), n, ref;
	uint8_t *out = malloc(cap), *expect = malloc(cap);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	static const uint8_t magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	CU_ASSERT_FATAL(in && out && expect && cc);
	n = compress_with(TDAT_CODEC_ZSTD, 0, in, 40960, out, cap);
	CU_ASSERT_FATAL(n > 5);
	CU_ASSERT(memcmp(out, magic, 4) == 0);
	CU_ASSERT_EQUAL(out[4], 0x00);	/* frame header descriptor */
	CU_ASSERT_EQUAL(ZSTD_getFrameContentSize(out, n),
			ZSTD_CONTENTSIZE_UNKNOWN);
	/* level 0 means trace-cmd's level 3: identical bytes */
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
	ref = ZSTD_compress2(cc, expect, cap, in, 40960);
	CU_ASSERT_EQUAL(ref, n);
	CU_ASSERT(ref == n && memcmp(out, expect, n) == 0);
	/* an explicit level keeps the shape */
	n = compress_with(TDAT_CODEC_ZSTD, 12, in, 40960, out, cap);
	CU_ASSERT_EQUAL(out[4], 0x00);
	ZSTD_freeCCtx(cc);
	free(in);
	free(out);
	free(expect);
}

/* FORMAT.md 6.5: an RFC 1950 stream at level 9 (header 78 DA). */
static void test_zlib_stream_shape(void)
{
	uint8_t *in = sample(40960);
	size_t cap = compressBound(40960), n;
	uint8_t *out = malloc(cap);
	uLongf back_len = 40960;
	uint8_t *back = malloc(40960);

	CU_ASSERT_FATAL(in && out && back);
	n = compress_with(TDAT_CODEC_ZLIB, 0, in, 40960, out, cap);
	CU_ASSERT_EQUAL(out[0], 0x78);
	CU_ASSERT_EQUAL(out[1], 0xda);
	CU_ASSERT_EQUAL(uncompress(back, &back_len, out, n), Z_OK);
	CU_ASSERT_EQUAL(back_len, 40960);
	CU_ASSERT(memcmp(in, back, 40960) == 0);
	free(in);
	free(out);
	free(back);
}

static void corrupt_checks(enum tdat_codec c)
{
	uint8_t *in = sample(40960);
	size_t cap = codec_bound(c, 40960), n;
	uint8_t *z = malloc(cap), *bad = malloc(cap), *out = malloc(40961);
	size_t i;

	CU_ASSERT_FATAL(in && z && bad && out);
	n = compress_with(c, 0, in, 40960, z, cap);
	CU_ASSERT_EQUAL(decompress_with(c, z, n, out, 40960), 0);
	/* wrong expected sizes: one short, one long */
	CU_ASSERT_EQUAL(decompress_with(c, z, n, out, 40959), -1);
	CU_ASSERT_EQUAL(decompress_with(c, z, n, out, 40961), -1);
	/* cut short */
	CU_ASSERT_EQUAL(decompress_with(c, z, n / 2, out, 40960), -1);
	CU_ASSERT_EQUAL(decompress_with(c, z, 3, out, 40960), -1);
	CU_ASSERT_EQUAL(decompress_with(c, z, 0, out, 40960), -1);
	/* a broken header */
	memcpy(bad, z, n);
	bad[0] ^= 0xff;
	CU_ASSERT_EQUAL(decompress_with(c, bad, n, out, 40960), -1);
	/* garbage */
	for (i = 0; i < n; i++)
		bad[i] = (uint8_t)(i * 7 + 3);
	CU_ASSERT_EQUAL(decompress_with(c, bad, n, out, 40960), -1);
	free(in);
	free(z);
	free(bad);
	free(out);
}

static void test_corrupt_rejected(void)
{
	uint8_t *in = sample(40960);
	uint8_t *z = malloc(codec_bound(TDAT_CODEC_ZLIB, 40960));
	uint8_t out[4096];
	size_t n;

	corrupt_checks(TDAT_CODEC_ZSTD);
	corrupt_checks(TDAT_CODEC_ZLIB);
	/* zlib's Adler-32 catches a flipped bit anywhere */
	CU_ASSERT_FATAL(in && z);
	n = compress_with(TDAT_CODEC_ZLIB, 0, in, 40960, z,
			  codec_bound(TDAT_CODEC_ZLIB, 40960));
	z[n / 2] ^= 0x10;
	{
		uint8_t *back = malloc(40960);

		CU_ASSERT_EQUAL(decompress_with(TDAT_CODEC_ZLIB, z, n, back,
						40960), -1);
		free(back);
	}
	/* none: the sizes must agree */
	CU_ASSERT_EQUAL(decompress_with(TDAT_CODEC_NONE, in, 100, out, 100), 0);
	CU_ASSERT_EQUAL(decompress_with(TDAT_CODEC_NONE, in, 100, out, 99), -1);
	CU_ASSERT_EQUAL(decompress_with(TDAT_CODEC_NONE, in, 99, out, 100), -1);
	free(in);
	free(z);
}

static void test_names(void)
{
	enum tdat_codec c;

	CU_ASSERT_EQUAL(tdat_codec_by_name("none", &c), 0);
	CU_ASSERT_EQUAL(c, TDAT_CODEC_NONE);
	CU_ASSERT_EQUAL(tdat_codec_by_name("zlib", &c), 0);
	CU_ASSERT_EQUAL(c, TDAT_CODEC_ZLIB);
	CU_ASSERT_EQUAL(tdat_codec_by_name("zstd", &c), 0);
	CU_ASSERT_EQUAL(c, TDAT_CODEC_ZSTD);
	CU_ASSERT_EQUAL(tdat_codec_by_name("lz4", &c), -1);
	CU_ASSERT_EQUAL(tdat_codec_by_name("", &c), -1);
	CU_ASSERT_STRING_EQUAL(tdat_codec_name(TDAT_CODEC_NONE), "none");
	CU_ASSERT_STRING_EQUAL(tdat_codec_name(TDAT_CODEC_ZLIB), "zlib");
	CU_ASSERT_STRING_EQUAL(tdat_codec_name(TDAT_CODEC_ZSTD), "zstd");
	CU_ASSERT_STRING_EQUAL(tdat_codec_lib_version(TDAT_CODEC_NONE), "");
	CU_ASSERT_STRING_EQUAL(tdat_codec_lib_version(TDAT_CODEC_ZSTD),
			       ZSTD_versionString());
	CU_ASSERT_STRING_EQUAL(tdat_codec_lib_version(TDAT_CODEC_ZLIB),
			       zlibVersion());
	CU_ASSERT(codec_bound(TDAT_CODEC_ZSTD, 40960) >= 40960);
	CU_ASSERT(codec_bound(TDAT_CODEC_ZLIB, 40960) >= 40960);
	CU_ASSERT_EQUAL(codec_bound(TDAT_CODEC_NONE, 40960), 40960);
}

void suite_codec(void)
{
	CU_pSuite s = CU_add_suite("codec", NULL, NULL);

	CU_add_test(s, "round trips none/zlib/zstd", test_round_trips);
	CU_add_test(s, "zstd frames as trace-cmd's", test_zstd_frame_shape);
	CU_add_test(s, "zlib streams as trace-cmd's", test_zlib_stream_shape);
	CU_add_test(s, "corrupt and mis-sized data rejected",
		    test_corrupt_rejected);
	CU_add_test(s, "names and versions", test_names);
}
