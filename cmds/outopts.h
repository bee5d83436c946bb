/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outopts.h - the output options of convert, merge, split and restore:
 * --file-version, --compression, --level, --chunk-size, --threads.
 * (record reads its own --file-version and --compression.)
 * Applets that take only some of them list only those in their getopt
 * table; outopt_parse() handles any of them.
 */
#ifndef OUTOPTS_H
#define OUTOPTS_H

#include <getopt.h>
#include <stdint.h>
#include "libfmt/tracedat.h"

enum {
	OPT_VERSION = 256, OPT_COMPRESSION, OPT_LEVEL, OPT_CHUNK, OPT_THREADS,
	OPT_OUTOPTS_END		/* an applet's own options from here */
};

/* All five and --help, for applets with no other long options. */
extern const struct option outopt_long_opts[];

struct outopts {
	const char *out;		/* -o, NULL: not given */
	int quiet;			/* -q */
	int version;			/* 0: not given */
	const char *compression;	/* NULL: not given */
	int level;			/* 0: not given */
	uint32_t chunk_size;		/* 0: not given */
	int threads;			/* 0: online CPUs */
};

int parse_int(const char *s, long lo, long hi, long *v);
/* "512M", "2G", "65536": bytes with a K, M, G or T suffix; parse_size
 * also wants them above 0 and within 32 bits. */
int parse_bytes(const char *s, uint64_t *v);
int parse_size(const char *s, uint32_t *v);

/*
 * The long options above, -o (once only) and -q: 0 done, 2 bad value
 * (said), -1 c is not one of these options.
 */
int outopt_parse(struct outopts *o, int c, const char *arg);

/*
 * The codec named c ("any" = zstd, or none for version 6) checked against
 * the version, --level and --chunk-size; 2 (said) if they clash.
 */
int outopt_codec(const struct outopts *o, int version, const char *c,
		 enum tdat_codec *codec);

#endif
