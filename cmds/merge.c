/*
 * merge.c - the merge applet: join trace.dat files or pieces into one.
 * trace-cmd has no merge; the options are convert's.  The work is in
 * convert/merge.c.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmds.h"
#include "merge.h"

static const char usage[] =
"usage: tracebox merge [OPTIONS] -o OUT IN...\n"
"\n"
"Put trace.dat files back together.  Pieces of one recording (such as\n"
"split output) become one file whose per-CPU data are in time order;\n"
"recordings of different instances of one kernel become one file with\n"
"each instance as its own buffer.  Repeated pages and events are kept\n"
"once.  Inputs that cannot share one file (different event formats,\n"
"page sizes, clocks of one buffer...) are refused and nothing is\n"
"written.  The output appears only when complete.\n"
"\n"
"  -o OUT              output file (required)\n"
"  -i IN               an input (or give inputs as arguments)\n"
"  --file-version 6|7  output version (default: the first input's)\n"
"  --compression ALG   none, zlib, zstd or any (= zstd); default: the\n"
"                      first input's, zstd if it is version 6\n"
"  --level N           compression level (default: zstd 3, zlib 9)\n"
"  --chunk-size SIZE   uncompressed bytes per chunk, a multiple of the\n"
"                      page size; K and M suffixes (default 10 pages)\n"
"  --threads N         compression threads (default: online CPUs)\n"
"  -q                  no progress line, no notes about duplicates\n"
"  -h, --help          show this help\n";

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
	const char **in;
	int nin;
	const char *out;
	int version;			/* 0: not given */
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

	fputs("tracebox merge: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see tracebox merge --help)\n", stderr);
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
		a->in[a->nin++] = arg;
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
	a->in = calloc((size_t)argc + 1, sizeof(*a->in));
	if (!a->in) {
		fputs("tracebox merge: out of memory\n", stderr);
		return 1;
	}
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:q", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return -1;
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
	while (optind < argc)
		a->in[a->nin++] = argv[optind++];
	if (!a->out)
		return usage_error("no output file given (-o OUT)");
	if (!a->nin)
		return usage_error("no input files given");
	return 0;
}

/* --compression and --file-version against each other. */
static int pick_codec(const struct args *a, struct merge_opts *o)
{
	const char *c = a->compression;

	o->version = a->version;
	if (!c) {
		if (a->level || a->chunk_size)	/* they ask for compression */
			c = a->version == 6 ? "none" : "any";
		else
			return 0;	/* the first input's */
	}
	if (!strcmp(c, "any"))
		c = a->version == 6 ? "none" : "zstd";
	if (tdat_codec_by_name(c, &o->codec))
		return usage_error("--compression: \"%s\" is not none, zlib,"
				   " zstd or any", c);
	o->codec_given = 1;
	if (a->version == 6 && o->codec != TDAT_CODEC_NONE)
		return usage_error("version 6 files are never compressed"
				   " (--compression %s)", c);
	if (!a->version && o->codec != TDAT_CODEC_NONE)
		o->version = 7;		/* compression means version 7 */
	if (a->level && o->codec == TDAT_CODEC_NONE)
		return usage_error("--level needs compression");
	if (a->level > 9 && o->codec == TDAT_CODEC_ZLIB)
		return usage_error("--level: zlib levels go from 1 to 9");
	if (a->chunk_size && o->codec == TDAT_CODEC_NONE)
		return usage_error("--chunk-size needs compression");
	return 0;
}

/* Refuse to write over an input: same path, or the same file. */
static int same_file(const char *in, const char *out)
{
	struct stat si, so;

	if (!strcmp(in, out))
		return 1;
	return !stat(in, &si) && !stat(out, &so) && si.st_dev == so.st_dev &&
	       si.st_ino == so.st_ino;
}

static void warn_line(void *ctx, const char *msg)
{
	fprintf(stderr, "tracebox merge: warning: %s\n", msg);
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

	if (total < PROGRESS_MIN_BYTES)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - p->last.tv_sec) * 1000 +
	     (now.tv_nsec - p->last.tv_nsec) / 1000000;
	if (ms < 250 && done < total)
		return;
	p->last = now;
	p->shown = 1;
	fprintf(stderr, "\rtracebox merge: %3u%% (%llu of %llu MiB)",
		(unsigned)(total ? done * 100 / total : 100),
		(unsigned long long)(done >> 20),
		(unsigned long long)(total >> 20));
}

static void end_progress(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

static void report_duplicates(const struct merge_stats *st)
{
	if (st->dup_pages || st->dup_events)
		fprintf(stderr, "tracebox merge: dropped %llu repeated pages"
			" and %llu repeated events\n",
			(unsigned long long)st->dup_pages,
			(unsigned long long)st->dup_events);
}

int cmd_merge(int argc, char **argv)
{
	struct merge_stats st;
	struct merge_opts o;
	struct progress prog;
	struct tdat_error err;
	struct args a;
	int i, r;

	/* Each input's metadata (megabytes of kallsyms) is read and freed in
	 * turn: let the heap keep those buffers for the next input instead
	 * of mapping and faulting in fresh pages every time. */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	memset(&o, 0, sizeof(o));
	r = parse_args(&a, argc, argv);
	if (!r && pick_codec(&a, &o))
		r = 2;
	for (i = 0; !r && i < a.nin; i++)
		if (same_file(a.in[i], a.out))
			r = usage_error("the output \"%s\" is an input", a.out);
	if (r) {
		free(a.in);
		return r < 0 ? 0 : r;
	}
	o.level = a.level;
	o.chunk_size = a.chunk_size;
	o.threads = a.threads;
	o.warn = warn_line;
	memset(&prog, 0, sizeof(prog));
	if (!a.quiet && isatty(2)) {
		o.progress = show_progress;
		o.progress_ctx = &prog;
		clock_gettime(CLOCK_MONOTONIC, &prog.last);
	}
	r = merge_files(a.in, a.nin, a.out, &o, &st, &err);
	end_progress(&prog);
	free(a.in);
	if (r) {
		fprintf(stderr, "tracebox merge: %s\n", err.msg);
		return 1;
	}
	if (!a.quiet)
		report_duplicates(&st);
	return 0;
}
