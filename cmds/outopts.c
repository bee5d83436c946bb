/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outopts.c - parsing the output options of convert, merge, split and
 * restore, so that they accept the same values with the same messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/outopts.h"

const struct option outopt_long_opts[] = {
	{ "file-version", required_argument, NULL, OPT_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "chunk-size", required_argument, NULL, OPT_CHUNK },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A decimal integer in [lo, hi], nothing else. */
int parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

/* Bytes with an optional K, M, G or T suffix (powers of 1024, "KiB"
 * too). */
int parse_bytes(const char *s, uint64_t *v)
{
	unsigned long long n;
	unsigned shift = 0;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	}
	if (shift)
		end++;
	if (shift && end[0] == 'i' && end[1] == 'B')
		end += 2;
	if (*end || n > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)n << shift;
	return 0;
}

int parse_size(const char *s, uint32_t *v)
{
	uint64_t n;

	if (parse_bytes(s, &n) || n == 0 || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

int outopt_parse(struct outopts *o, int c, const char *arg)
{
	long v;

	switch (c) {
	case 'o':
		if (o->out)
			return usage_error("the output is given twice");
		o->out = arg;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case OPT_VERSION:
		if (strcmp(arg, "6") && strcmp(arg, "7"))
			return usage_error("--file-version: \"%s\" is not 6 or"
					   " 7", arg);
		o->version = arg[0] - '0';
		return 0;
	case OPT_COMPRESSION:
		o->compression = arg;
		return 0;
	case OPT_LEVEL:
		if (parse_int(arg, 1, 22, &v))
			return usage_error("--level: \"%s\" is not a level from"
					   " 1 to 22", arg);
		o->level = (int)v;
		return 0;
	case OPT_CHUNK:
		if (parse_size(arg, &o->chunk_size))
			return usage_error("--chunk-size: \"%s\" is not a size"
					   " (bytes, K or M suffix)", arg);
		return 0;
	case OPT_THREADS:
		if (parse_int(arg, 0, 256, &v))
			return usage_error("--threads: \"%s\" is not a number"
					   " from 0 to 256", arg);
		o->threads = (int)v;
		return 0;
	default:
		return -1;
	}
}

int outopt_codec(const struct outopts *o, int version, const char *c,
		 enum tdat_codec *codec)
{
	if (!strcmp(c, "any"))
		c = version == 6 ? "none" : "zstd";
	if (tdat_codec_by_name(c, codec))
		return usage_error("--compression: \"%s\" is not none, zlib,"
				   " zstd or any", c);
	if (version == 6 && *codec != TDAT_CODEC_NONE)
		return usage_error("version 6 files are never compressed"
				   " (--compression %s)", c);
	if (o->level && *codec == TDAT_CODEC_NONE)
		return usage_error("--level needs compression");
	if (o->level > 9 && *codec == TDAT_CODEC_ZLIB)
		return usage_error("--level: zlib levels go from 1 to 9");
	if (o->chunk_size && *codec == TDAT_CODEC_NONE)
		return usage_error("--chunk-size needs compression");
	return 0;
}
