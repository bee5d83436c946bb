/*
 * convert.c - the convert applet: rewrite a trace.dat as v6 or v7, with
 * another compression.  Options follow trace-cmd convert; the work is in
 * convert/convert.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmds.h"
#include "convert.h"

static const char usage[] =
"usage: tracebox convert [-i INPUT] [-o OUTPUT | OUTPUT] [OPTIONS]\n"
"\n"
"Rewrite a trace.dat as file version 6 or 7, with the compression asked\n"
"for.  Everything the output version can hold is kept; what v6 cannot\n"
"hold is named in a warning.  The output appears only when complete.\n"
"\n"
"  -i INPUT               input file (default trace.dat)\n"
"  -o OUTPUT              output file (or give it as the last argument)\n"
"  --file-version 6|7     output file version (default 7)\n"
"  --compression ALG      none, zlib, zstd or any (= zstd; the default);\n"
"                         version 6 is never compressed\n"
"  --level N              compression level (default: zstd 3, zlib 9)\n"
"  --chunk-size SIZE      uncompressed bytes per chunk, a multiple of the\n"
"                         page size; K and M suffixes (default 10 pages)\n"
"  --threads N            compression threads (default: online CPUs)\n"
"  -q                     no progress line\n"
"  -h, --help             show this help\n"
"\n"
"Compressed chunks are copied as they are when the codec stays the same\n"
"and neither --level nor another --chunk-size is given.\n";

enum { OPT_VERSION = 256, OPT_COMPRESSION, OPT_LEVEL, OPT_CHUNK, OPT_THREADS };

static const struct option long_opts[] = {
	{ "file-version", required_argument, NULL, OPT_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "chunk-size", required_argument, NULL, OPT_CHUNK },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *in;
	const char *out;
	int version;
	const char *compression;	/* NULL: not given */
	int level;
	uint32_t chunk_size;
	int threads;
	int quiet;
};

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tracebox convert: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see tracebox convert --help)\n", stderr);
	return 2;
}

/* A decimal integer in [lo, hi], nothing else. */
static int parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

/* Bytes with an optional K, M or G suffix (powers of 1024). */
static int parse_size(const char *s, uint32_t *v)
{
	unsigned long long n, mult = 1;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end == 'K' || *end == 'k')
		mult = 1024;
	else if (*end == 'M' || *end == 'm')
		mult = 1024 * 1024;
	else if (*end == 'G' || *end == 'g')
		mult = 1024 * 1024 * 1024;
	if (mult > 1)
		end++;
	if (*end == 'i' && mult > 1 && end[1] == 'B')
		end += 2;
	if (*end || n == 0 || n > UINT32_MAX / mult)
		return -1;
	*v = (uint32_t)(n * mult);
	return 0;
}

static int parse_option(struct args *a, int c, const char *arg)
{
	long v;

	switch (c) {
	case 'i':
		a->in = arg;
		return 0;
	case 'o':
		if (a->out)
			return usage_error("the output is given twice");
		a->out = arg;
		return 0;
	case 'q':
		a->quiet = 1;
		return 0;
	case OPT_VERSION:
		if (parse_int(arg, 6, 7, &v))
			return usage_error("--file-version: \"%s\" is not 6 or"
					   " 7", arg);
		a->version = (int)v;
		return 0;
	case OPT_COMPRESSION:
		a->compression = arg;
		return 0;
	case OPT_LEVEL:
		if (parse_int(arg, 1, 22, &v))
			return usage_error("--level: \"%s\" is not a level from"
					   " 1 to 22", arg);
		a->level = (int)v;
		return 0;
	case OPT_CHUNK:
		if (parse_size(arg, &a->chunk_size))
			return usage_error("--chunk-size: \"%s\" is not a size"
					   " (bytes, K or M suffix)", arg);
		return 0;
	case OPT_THREADS:
		if (parse_int(arg, 0, 256, &v))
			return usage_error("--threads: \"%s\" is not a number"
					   " from 0 to 256", arg);
		a->threads = (int)v;
		return 0;
	default:
		return usage_error("unknown option");
	}
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	memset(a, 0, sizeof(*a));
	a->in = "trace.dat";
	a->version = 7;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:q", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?')
			return usage_error("unknown option \"%s\"",
					   argv[optind - 1]);
		if (c == ':')
			return usage_error("option \"%s\" needs a value",
					   argv[optind - 1]);
		r = parse_option(a, c, optarg);
		if (r)
			return r;
	}
	if (optind < argc) {
		if (a->out || optind + 1 < argc)
			return usage_error("too many arguments (\"%s\")",
					   argv[a->out ? optind : optind + 1]);
		a->out = argv[optind];
	}
	if (!a->out)
		return usage_error("no output file given (-o OUTPUT)");
	return 0;
}

/* The codec from --compression and --file-version; 2 if they clash. */
static int pick_codec(const struct args *a, struct convert_opts *o)
{
	const char *c = a->compression ? a->compression : "any";

	if (!strcmp(c, "any"))
		c = a->version == 6 ? "none" : "zstd";
	if (tdat_codec_by_name(c, &o->codec))
		return usage_error("--compression: \"%s\" is not none, zlib,"
				   " zstd or any", c);
	if (a->version == 6 && o->codec != TDAT_CODEC_NONE)
		return usage_error("version 6 files are never compressed"
				   " (--compression %s)", c);
	if (a->level && o->codec == TDAT_CODEC_NONE)
		return usage_error("--level needs compression");
	if (a->level > 9 && o->codec == TDAT_CODEC_ZLIB)
		return usage_error("--level: zlib levels go from 1 to 9");
	if (a->chunk_size && o->codec == TDAT_CODEC_NONE)
		return usage_error("--chunk-size needs compression");
	return 0;
}

/* Refuse to write over the input: same path, or the same file. */
static int same_file(const char *in, const char *out)
{
	struct stat si, so;

	if (!strcmp(in, out))
		return 1;
	return !stat(in, &si) && !stat(out, &so) && si.st_dev == so.st_dev &&
	       si.st_ino == so.st_ino;
}

static int check_chunk_size(const struct tdat_file *f, uint32_t chunk)
{
	int i;

	for (i = 0; chunk && i < f->nbuffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];

		if (!b->latency && b->page_size && chunk % b->page_size)
			return usage_error("--chunk-size %u is not a multiple"
					   " of the page size %u", chunk,
					   b->page_size);
	}
	return 0;
}

static void warn_line(void *ctx, const char *msg)
{
	fprintf(stderr, "tracebox convert: warning: %s\n", msg);
}

/* ---- the progress line: TTY only, a few updates a second ---- */

#define PROGRESS_MIN_BYTES (64ull << 20)

struct progress {
	struct timespec last;
	int shown;
};

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - p->last.tv_sec) * 1000 +
	     (now.tv_nsec - p->last.tv_nsec) / 1000000;
	if (ms < 250 && done < total)
		return;
	p->last = now;
	p->shown = 1;
	fprintf(stderr, "\rtracebox convert: %3u%% (%llu of %llu MiB)",
		(unsigned)(total ? done * 100 / total : 100),
		(unsigned long long)(done >> 20),
		(unsigned long long)(total >> 20));
}

static void end_progress(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o;
	struct progress prog;
	struct tdat_error err;
	struct tdat_file *in;
	struct args a;
	int r;

	r = parse_args(&a, argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	memset(&o, 0, sizeof(o));
	if (pick_codec(&a, &o))
		return 2;
	if (same_file(a.in, a.out))
		return usage_error("the output \"%s\" is the input", a.out);
	in = tdat_open(a.in, &err);
	if (!in) {
		fprintf(stderr, "tracebox convert: %s\n", err.msg);
		return 1;
	}
	if (check_chunk_size(in, a.chunk_size)) {
		tdat_close(in);
		return 2;
	}
	o.version = a.version;
	o.level = a.level;
	o.chunk_size = a.chunk_size;
	o.threads = a.threads;
	o.warn = warn_line;
	memset(&prog, 0, sizeof(prog));
	if (!a.quiet && isatty(2) &&
	    convert_data_size(in) > PROGRESS_MIN_BYTES) {
		o.progress = show_progress;
		o.progress_ctx = &prog;
		clock_gettime(CLOCK_MONOTONIC, &prog.last);
	}
	r = convert_file(in, a.out, &o, &err);
	end_progress(&prog);
	tdat_close(in);
	if (r) {
		fprintf(stderr, "tracebox convert: %s\n", err.msg);
		return 1;
	}
	return 0;
}
