/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * convert.c - the convert applet: rewrite a trace.dat as v6 or v7, with
 * another compression (options follow trace-cmd convert; the work is in
 * convert/copy/, copy.h), archive it or a whole tree in place with
 * --archive (convert/archive/, archive.h), or export it with --to parquet
 * (convert/parquet/, parquet.h) or --to perfetto (convert/perfetto/,
 * perfetto.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "convert/archive/archive.h"
#include "convert/copy/copy.h"
#include "convert/parquet/parquet.h"
#include "convert/perfetto/perfetto.h"
#include "cmds/fleetopts.h"
#include "cmds/outopts.h"
#include "cmds/progress.h"

static const char usage[] =
"usage: tdat convert [-i INPUT] [-o OUTPUT | OUTPUT] [OPTIONS]\n"
"       tdat convert --to parquet -i INPUT... -o DIR [--add] [--level N] [-q]\n"
"       tdat convert --to perfetto -i INPUT... -o OUT.pftrace [--level N] [-q]\n"
"       tdat convert --archive --in-place PATH... [-q]\n"
"  (both also [--files-from FILE [-0]] [--shard K/N|slurm] [--log FILE])\n"
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
"  --archive              the smallest file trace-cmd 3.1.6 and 3.4 read:\n"
"                         v7, zstd level 19, 1 MiB chunks (--level and\n"
"                         --chunk-size change them)\n"
"  --in-place             with --archive: archive every trace.dat under\n"
"                         the PATHs (files, directories) where it lies,\n"
"                         each checked against its original before it\n"
"                         replaces it; other files are left alone\n"
"  --to FORMAT            tracedat (the default), or parquet: a dataset\n"
"                         directory DIR, one table per event, meta.json;\n"
"                         several -i, or a directory of .dat files, make\n"
"                         a fleet dataset (tdat-convert(1)); or perfetto:\n"
"                         one Perfetto trace of every -i (ui.perfetto.dev)\n"
"  --add                  with --to parquet: add the inputs to the fleet\n"
"                         dataset DIR (made if absent), each input's\n"
"                         tables whole; inputs already in it skipped;\n"
"                         tasks may add to one DIR at once\n"
"  --files-from FILE      inputs (or PATHs) from FILE, one a line; - is\n"
"                         standard input\n"
"  -0                     FILE's paths are NUL-separated (find -print0)\n"
"  --shard K/N            only part K (0 to N-1) of the files, by a hash\n"
"                         of each path as given; slurm: K and N from a\n"
"                         Slurm job array's task id and count\n"
"  --log FILE             append a JSON line per file to FILE: path,\n"
"                         result, bytes before and after, seconds, reason\n"
"  -q                     no progress line\n"
"  -h, --help             show this help\n"
"\n"
"Compressed chunks are copied as they are when the codec stays the same\n"
"and neither --level nor another --chunk-size is given.\n";

enum { OPT_TO = OPT_OUTOPTS_END, OPT_ARCHIVE, OPT_IN_PLACE, OPT_ADD };

static const struct option long_opts[] = {
	{ "file-version", required_argument, NULL, OPT_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "chunk-size", required_argument, NULL, OPT_CHUNK },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "to", required_argument, NULL, OPT_TO },
	{ "archive", no_argument, NULL, OPT_ARCHIVE },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "add", no_argument, NULL, OPT_ADD },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define MAX_ARGS_IN 1024	/* -i given on the command line */

struct args {
	const char *in;
	const char *ins[MAX_ARGS_IN];	/* every -i, for --to parquet */
	int nin;
	const char *to;		/* --to, NULL: trace.dat */
	int archive;		/* --archive */
	int in_place;		/* --in-place */
	int add;		/* --add */
	struct fleet_args fleet;	/* --files-from, -0, --shard, --log */
	char **paths;		/* --in-place: the PATHs, then the -i ones */
	int npaths;
	struct outopts opts;	/* -o, -q and the output options */
};

static int parse_option(struct args *a, int c, const char *arg)
{
	int r;

	switch (c) {
	case 'i':
		if (a->nin == MAX_ARGS_IN)
			return usage_error("more than %d -i", MAX_ARGS_IN);
		a->ins[a->nin++] = arg;
		a->in = arg;
		return 0;
	case OPT_TO:
		if (strcmp(arg, "parquet") && strcmp(arg, "perfetto") &&
		    strcmp(arg, "tracedat"))
			return usage_error("--to: \"%s\" is not a format"
					   " (tracedat, parquet or perfetto)",
					   arg);
		a->to = strcmp(arg, "tracedat") ? arg : NULL;
		return 0;
	case OPT_ARCHIVE:
		a->archive = 1;
		return 0;
	case OPT_IN_PLACE:
		a->in_place = 1;
		return 0;
	case OPT_ADD:
		a->add = 1;
		return 0;
	default:
		if (!fleet_opt(&a->fleet, c, arg))
			return 0;
		r = outopt_parse(&a->opts, c, arg);
		return r < 0 ? usage_error("unknown option") : r;
	}
}

/* --archive's preset: v7 zstd, its level and chunk size unless given. */
static int archive_args(struct args *a)
{
	if (a->to)
		return usage_error("--archive does not go with --to %s",
				   a->to);
	if (a->opts.version != 7)
		return usage_error("--archive writes file version 7");
	if (a->opts.compression && strcmp(a->opts.compression, "zstd") &&
	    strcmp(a->opts.compression, "any"))
		return usage_error("--archive compresses with zstd");
	if (!a->opts.level)
		a->opts.level = ARCHIVE_LEVEL;
	if (!a->opts.chunk_size)
		a->opts.chunk_size = ARCHIVE_CHUNK;
	return 0;
}

/* --in-place: the words after the options and every -i are PATHs. */
static int in_place_args(struct args *a, int argc, char **argv)
{
	if (!a->archive)
		return usage_error("--in-place goes with --archive");
	if (a->opts.out)
		return usage_error("--in-place writes no -o OUTPUT");
	if (!a->opts.version)
		a->opts.version = 7;
	a->paths = argv + optind;
	a->npaths = argc - optind;
	if (!a->npaths && !a->nin && !a->fleet.files_from)
		return usage_error("--in-place: no PATH given");
	return archive_args(a);
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	memset(a, 0, sizeof(*a));
	a->in = "trace.dat";
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:q0", long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?' || c == ':')
			return getopt_error(c, argv, optind, long_opts);
		r = parse_option(a, c, optarg);
		if (r)
			return r;
	}
	if (fleet_check(&a->fleet))
		return 2;
	if (a->add && (!a->to || strcmp(a->to, "parquet")))
		return usage_error("--add goes with --to parquet");
	if (fleet_given(&a->fleet) && !a->in_place &&
	    (!a->to || strcmp(a->to, "parquet")))
		return usage_error("--files-from, --shard and --log go with"
				   " --archive --in-place or --to parquet");
	if (a->in_place)
		return in_place_args(a, argc, argv);
	if (optind < argc) {
		if (a->opts.out || optind + 1 < argc)
			return usage_error("too many arguments (\"%s\")",
					   argv[a->opts.out ? optind :
						optind + 1]);
		a->opts.out = argv[optind];
	}
	if (!a->opts.out)
		return usage_error("no output file given (-o OUTPUT)");
	if (!a->to && a->nin > 1)
		return usage_error("one -i only (several go with --to parquet"
				   " or perfetto)");
	if (!a->to && !a->opts.version)
		a->opts.version = 7;
	return a->archive ? archive_args(a) : 0;
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

/* The trace.dat options mean nothing to an export. */
static int export_options_ok(const struct args *a)
{
	const char *bad = a->opts.version ? "--file-version" :
			  a->opts.compression ? "--compression" :
			  a->opts.chunk_size ? "--chunk-size" :
			  a->opts.threads ? "--threads" : NULL;

	if (bad)
		return usage_error("%s does not go with --to %s", bad, a->to);
	return 0;
}

static int add_input(char ***list, int *n, const char *path)
{
	char **l = realloc(*list, (size_t)(*n + 1) * sizeof(char *));

	if (l)
		*list = l;
	if (!l || !(l[*n] = strdup(path))) {
		fprintf(stderr, "tdat convert: out of memory\n");
		return 1;
	}
	(*n)++;
	return 0;
}

/* One -i or --files-from path: a directory as the .dat files in it. */
static int parquet_input(const char *path, char ***list, int *n, int *fleet)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return add_input(list, n, path);
	*fleet = 1;
	if (parquet_list_dir(path, list, n)) {
		fprintf(stderr, "tdat convert: %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* The inputs of this shard: -i, then --files-from's. */
static int parquet_inputs(struct args *a, char ***list, int *n, int *fleet)
{
	struct pathlist from = { 0 };
	int k, r = fleet_read_list(&a->fleet, &from), kept = 0;

	for (k = 0; !r && k < a->nin; k++)
		r = parquet_input(a->ins[k], list, n, fleet);
	for (k = 0; !r && k < from.n; k++)
		r = parquet_input(from.v[k], list, n, fleet);
	pathlist_free(&from);
	for (k = 0; k < *n; k++)	/* the shard's own */
		if (shard_takes(&a->fleet.shard, (*list)[k]))
			(*list)[kept++] = (*list)[k];
		else
			free((*list)[k]);
	*n = kept;
	if (r)
		return r;
	if (!*n && !fleet_given(&a->fleet))
		return usage_error("no trace.dat file in the input directory");
	for (k = 0; k < *n; k++)
		if (same_file((*list)[k], a->opts.out))
			return usage_error("the output \"%s\" is an input",
					   a->opts.out);
	return 0;
}

static int run_parquet(struct args *a)
{
	struct parquet_opts po;
	struct progress prog;
	struct joblog log;
	char **list = NULL;
	int n = 0, r, k;

	joblog_none(&log);
	if (export_options_ok(a))
		return 2;
	if (a->fleet.log && !a->add)
		return usage_error("--log goes with --add (or --archive"
				   " --in-place)");
	if (!a->nin && !a->fleet.files_from)
		a->ins[a->nin++] = "trace.dat";
	memset(&po, 0, sizeof(po));
	po.fleet = a->add || fleet_given(&a->fleet);
	r = parquet_inputs(a, &list, &n, &po.fleet);
	if (!r)
		r = fleet_open_log(&a->fleet, &log);
	if (!r && !n && !a->add)
		fprintf(stderr, "tdat convert: no input in this part:"
			" no dataset written\n");
	if (!r && (n || a->add)) {
		po.inputs = (const char **)list;
		po.ninputs = n;
		po.out = a->opts.out;
		po.level = a->opts.level;
		po.add = a->add;
		po.log = &log;
		progress_start(&prog, a->opts.quiet);
		po.progress = show_progress;
		po.progress_ctx = &prog;
		r = parquet_run(&po);
		end_progress(&prog);
	}
	if (fleet_close_log(&log) && !r)
		r = 1;
	for (k = 0; k < n; k++)
		free(list[k]);
	free(list);
	return r;
}

static int run_perfetto(struct args *a)
{
	struct perfetto_opts po;
	struct progress prog;
	int k, r;

	if (export_options_ok(a))
		return 2;
	if (a->opts.level > 9)
		return usage_error("--level: %d is not a zlib level (1 to 9)",
				   a->opts.level);
	if (!a->nin)
		a->ins[a->nin++] = "trace.dat";
	if (a->nin > PERFETTO_MAX_INPUTS)
		return usage_error("at most %d -i go into one trace",
				   PERFETTO_MAX_INPUTS);
	for (k = 0; k < a->nin; k++)
		if (same_file(a->ins[k], a->opts.out))
			return usage_error("the output \"%s\" is an input",
					   a->opts.out);
	memset(&po, 0, sizeof(po));
	po.inputs = a->ins;
	po.ninputs = a->nin;
	po.out = a->opts.out;
	po.level = a->opts.level;
	progress_start(&prog, a->opts.quiet);
	po.progress = show_progress;
	po.progress_ctx = &prog;
	r = perfetto_run(&po);
	end_progress(&prog);
	return r;
}

/* --in-place's PATHs: every -i, the words after the options, then
 * --files-from's. */
static int archive_paths(struct args *a, struct pathlist *all)
{
	int k;

	for (k = 0; k < a->nin; k++)
		if (pathlist_add(all, a->ins[k]))
			goto oom;
	for (k = 0; k < a->npaths; k++)
		if (pathlist_add(all, a->paths[k]))
			goto oom;
	return fleet_read_list(&a->fleet, all);
oom:
	fprintf(stderr, "tdat convert: out of memory\n");
	return 1;
}

/* --archive --in-place: every path archived where it lies. */
static int run_archive(struct args *a)
{
	struct pathlist all = { 0 };
	struct archive_opts ao;
	struct progress prog;
	struct joblog log;
	int r;

	r = archive_paths(a, &all);
	if (!r)
		r = fleet_open_log(&a->fleet, &log);
	if (r) {
		pathlist_free(&all);
		return r;
	}
	memset(&ao, 0, sizeof(ao));
	ao.paths = all.v;
	ao.npaths = all.n;
	ao.level = a->opts.level;
	ao.chunk_size = a->opts.chunk_size;
	ao.threads = a->opts.threads;
	ao.shard = &a->fleet.shard;
	ao.log = &log;
	progress_start(&prog, a->opts.quiet);
	ao.progress = show_progress;
	ao.progress_ctx = &prog;
	r = archive_run(&ao);
	end_progress(&prog);
	if (fleet_close_log(&log))
		r = 1;
	pathlist_free(&all);
	return r;
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
	if (a.in_place)
		return run_archive(&a);
	if (a.to && !strcmp(a.to, "perfetto"))
		return run_perfetto(&a);
	if (a.to)
		return run_parquet(&a);
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
