/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.c - the merge applet: join trace.dat files or pieces into one.
 * trace-cmd has no merge; the options are convert's.  The work is in
 * convert/merge/ (merge.h).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "convert/merge/merge.h"
#include "cmds/outopts.h"
#include "cmds/progress.h"

static const char usage[] =
"usage: tdat merge [OPTIONS] -o OUT IN...\n"
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
"  -v                  say how the data went: pages merged or copied,\n"
"                      streams and chunks copied as stored\n"
"  -h, --help          show this help\n";

struct args {
	const char **in;
	int nin;
	int verbose;		/* -v */
	struct outopts opts;	/* -o, -q and the output options */
};

static int parse_option(struct args *a, int c, const char *arg)
{
	int r;

	switch (c) {
	case 'i':
		a->in[a->nin++] = arg;
		return 0;
	case 'v':
		a->verbose = 1;
		return 0;
	default:
		r = outopt_parse(&a->opts, c, arg);
		return r < 0 ? usage_error("unknown option") : r;
	}
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	memset(a, 0, sizeof(*a));
	a->in = calloc((size_t)argc + 1, sizeof(*a->in));
	if (!a->in) {
		fputs("tdat merge: out of memory\n", stderr);
		return 1;
	}
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:qv", outopt_long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return -1;
		}
		if (c == '?' || c == ':')
			return getopt_error(c, argv, optind, outopt_long_opts);
		r = parse_option(a, c, optarg);
		if (r)
			return r;
	}
	while (optind < argc)
		a->in[a->nin++] = argv[optind++];
	if (!a->opts.out)
		return usage_error("no output file given (-o OUT)");
	if (!a->nin)
		return usage_error("no input files given");
	return 0;
}

/* --compression and --file-version against each other. */
static int pick_codec(const struct args *a, struct merge_opts *o)
{
	const struct outopts *w = &a->opts;
	const char *c = w->compression;

	o->version = w->version;
	if (!c) {
		/* --level or --chunk-size ask for compression */
		if (w->level || w->chunk_size)
			c = w->version == 6 ? "none" : "any";
		else
			return 0;	/* the first input's */
	}
	o->codec_given = 1;
	if (outopt_codec(w, w->version, c, &o->codec))
		return 2;
	if (!w->version && o->codec != TDAT_CODEC_NONE)
		o->version = 7;		/* compression means version 7 */
	return 0;
}

static void warn_line(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat merge: warning: %s\n", msg);
}

static void report_duplicates(const struct merge_stats *st)
{
	if (st->dup_pages || st->dup_events)
		fprintf(stderr, "tdat merge: dropped %llu repeated pages"
			" and %llu repeated events\n",
			(unsigned long long)st->dup_pages,
			(unsigned long long)st->dup_events);
}

/* -v: what went which way, one line (tests check the fast path). */
static void report_stats(const struct merge_stats *st)
{
	fprintf(stderr, "tdat merge: %llu pages in, %llu copied, %llu cut;"
		" %llu streams copied whole, %llu pages unparsed, %llu"
		" chunks copied, %llu of them not decompressed\n",
		(unsigned long long)st->pages_in,
		(unsigned long long)st->pages_copied,
		(unsigned long long)st->pages_cut,
		(unsigned long long)st->streams_copied,
		(unsigned long long)st->pages_raw_copied,
		(unsigned long long)st->chunks_copied,
		(unsigned long long)st->chunks_stored);
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
	cmd_name = "merge";
	discard_outputs_on_signals();
	memset(&o, 0, sizeof(o));
	r = parse_args(&a, argc, argv);
	if (!r && pick_codec(&a, &o))
		r = 2;
	for (i = 0; !r && i < a.nin; i++)
		if (same_file(a.in[i], a.opts.out))
			r = usage_error("the output \"%s\" is an input",
					a.opts.out);
	if (r) {
		free(a.in);
		return r < 0 ? 0 : r;
	}
	o.level = a.opts.level;
	o.chunk_size = a.opts.chunk_size;
	o.threads = a.opts.threads;
	o.warn = warn_line;
	progress_start(&prog, a.opts.quiet);
	o.progress = show_progress;
	o.progress_ctx = &prog;
	r = merge_files(a.in, a.nin, a.opts.out, &o, &st, &err);
	end_progress(&prog);
	if (r)
		job_failed(&err, (const char *const *)a.in, a.nin);
	free(a.in);
	if (r)
		return 1;
	if (!a.opts.quiet)
		report_duplicates(&st);
	if (a.verbose)
		report_stats(&st);
	return 0;
}
