/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * convert.c - the convert applet: rewrite a trace.dat as v6 or v7, with
 * another compression.  Options follow trace-cmd convert; the work is in
 * convert/copy/ (copy.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "convert/copy/copy.h"
#include "cmds/outopts.h"
#include "cmds/progress.h"

static const char usage[] =
"usage: tdat convert [-i INPUT] [-o OUTPUT | OUTPUT] [OPTIONS]\n"
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

struct args {
	const char *in;
	struct outopts opts;	/* -o, -q and the output options */
};

static int parse_option(struct args *a, int c, const char *arg)
{
	int r;

	switch (c) {
	case 'i':
		a->in = arg;
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
	a->in = "trace.dat";
	a->opts.version = 7;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:q", outopt_long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?' || c == ':')
			return getopt_error(c, argv, optind, outopt_long_opts);
		r = parse_option(a, c, optarg);
		if (r)
			return r;
	}
	if (optind < argc) {
		if (a->opts.out || optind + 1 < argc)
			return usage_error("too many arguments (\"%s\")",
					   argv[a->opts.out ? optind :
						optind + 1]);
		a->opts.out = argv[optind];
	}
	if (!a->opts.out)
		return usage_error("no output file given (-o OUTPUT)");
	return 0;
}

/* The codec from --compression and --file-version; 2 if they clash. */
static int pick_codec(const struct args *a, struct convert_opts *o)
{
	const char *c = a->opts.compression ? a->opts.compression : "any";

	return outopt_codec(&a->opts, a->opts.version, c, &o->codec);
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
	fprintf(stderr, "tdat convert: warning: %s\n", msg);
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts o;
	struct progress prog;
	struct tdat_error err;
	struct tdat_file *in;
	struct args a;
	int r;

	cmd_name = "convert";
	discard_outputs_on_signals();
	r = parse_args(&a, argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	memset(&o, 0, sizeof(o));
	if (pick_codec(&a, &o))
		return 2;
	if (same_file(a.in, a.opts.out))
		return usage_error("the output \"%s\" is the input",
				   a.opts.out);
	in = tdat_open(a.in, &err);
	if (!in)
		return job_failed(&err, &a.in, 1);
	for (r = 0; tdat_note(in, r); r++)
		warn_line(NULL, tdat_note(in, r));
	if (check_chunk_size(in, a.opts.chunk_size)) {
		tdat_close(in);
		return 2;
	}
	o.version = a.opts.version;
	o.level = a.opts.level;
	o.chunk_size = a.opts.chunk_size;
	o.threads = a.opts.threads;
	o.warn = warn_line;
	progress_start(&prog, a.opts.quiet);
	o.progress = show_progress;
	o.progress_ctx = &prog;
	r = convert_file(in, a.opts.out, &o, &err);
	end_progress(&prog);
	tdat_close(in);
	return r ? job_failed(&err, &a.in, 1) : 0;
}
