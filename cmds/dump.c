/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - the dump applet: trace-cmd dump's options read into struct
 * dump_opts; the printing is dump_run's, the validation of several files
 * dump_validate_many's (convert/dump/).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/fleetopts.h"
#include "cmds/progress.h"
#include "convert/dump/dump.h"
#include "libfmt/tracedat.h"

static const char usage[] =
"usage: tdat dump [OPTIONS] [-i FILE | FILE]\n"
"       tdat dump --validate [FILE...] [--files-from LIST [-0]]\n"
"                 [--shard K/N|slurm] [--log LOG]\n"
"\n"
"Print what a trace.dat (v6 or v7, any compression) holds, as trace-cmd\n"
"dump prints it.  FILE defaults to trace.dat.\n"
"\n"
"  --summary        the summary of every part (the default)\n"
"  --head-page      the header_page format\n"
"  --head-event     the header_event format\n"
"  --ftrace-events  the ftrace event formats\n"
"  --systems        the event systems and their event counts\n"
"  --events         the event formats of every system\n"
"  --kallsyms       the kernel symbols\n"
"  --printk         the trace_printk formats\n"
"  --cmd-lines      the saved command lines\n"
"  --options        every option\n"
"  --flyrecord      where each CPU's data is\n"
"  --clock          the trace clock\n"
"  --sections       the v7 sections\n"
"  --strings        the v7 strings table\n"
"  --all            all of the above\n"
"  -v, --validate   read every page and chunk too; say whether it is valid\n"
"  --json           one JSON object (see tdat-dump(1)) instead of the text\n"
"  --verbose[=L]    accepted for trace-cmd's sake; no effect\n"
"  --files-from LIST  with -v: validate the files LIST names, one a line\n"
"                   (- is standard input), besides any FILEs given\n"
"  -0               LIST's names are NUL-separated (find -print0)\n"
"  --shard K/N      with -v: only part K (0 to N-1) of the files, by a\n"
"                   hash of each path as given; slurm: from the job array\n"
"  --log LOG        with -v: append a JSON line per file to LOG; a file\n"
"                   LOG says was validated, unchanged since, is not read\n"
"  -i FILE          the input file\n"
"  -h, --help       show this help\n"
"\n"
"Exit status: 0 when the file was read whole, 1 when it is damaged (what\n"
"comes before the damage is printed, then one line with the offset),\n"
"2 on usage errors.  Several files (-v only): a line each, a summary,\n"
"exit status 1 when any is damaged.\n";

enum { OPT_JSON = 256, OPT_VERBOSE, OPT_PART };

/* The part options: their flags are in parts[], by index. */
static const struct option long_opts[] = {
	{ "summary", no_argument, NULL, OPT_PART },
	{ "head-page", no_argument, NULL, OPT_PART },
	{ "head-event", no_argument, NULL, OPT_PART },
	{ "ftrace-events", no_argument, NULL, OPT_PART },
	{ "systems", no_argument, NULL, OPT_PART },
	{ "events", no_argument, NULL, OPT_PART },
	{ "kallsyms", no_argument, NULL, OPT_PART },
	{ "printk", no_argument, NULL, OPT_PART },
	{ "cmd-lines", no_argument, NULL, OPT_PART },
	{ "options", no_argument, NULL, OPT_PART },
	{ "flyrecord", no_argument, NULL, OPT_PART },
	{ "clock", no_argument, NULL, OPT_PART },
	{ "sections", no_argument, NULL, OPT_PART },
	{ "strings", no_argument, NULL, OPT_PART },
	{ "all", no_argument, NULL, OPT_PART },
	{ "validate", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const unsigned parts[] = {
	DUMP_SUMMARY, DUMP_HEAD_PAGE, DUMP_HEAD_EVENT, DUMP_FTRACE,
	DUMP_SYSTEMS, DUMP_EVENTS, DUMP_KALLSYMS, DUMP_PRINTK, DUMP_CMDLINES,
	DUMP_OPTIONS, DUMP_FLYRECORD, DUMP_CLOCK, DUMP_SECTIONS, DUMP_STRINGS,
	DUMP_ALL,
};

struct args {
	struct dump_opts o;
	struct fleet_args fleet;
	char **files;		/* the FILEs after the options */
	int nfiles;
	int many;		/* several files: -v's line each, a summary */
};

/* One option: 0, or 1 help shown, 2 usage error shown. */
static int parse_option(struct args *a, int c, int idx, char **argv)
{
	switch (c) {
	case OPT_PART:
		a->o.parts |= parts[idx];
		return 0;
	case 'i':
		a->o.path = optarg;
		return 0;
	case 'v':
		a->o.validate = 1;
		return 0;
	case OPT_JSON:
		a->o.json = 1;
		return 0;
	case OPT_VERBOSE:
		return 0;
	case 'h':
		fputs(usage, stdout);
		return 1;
	default:
		if (!fleet_opt(&a->fleet, c, optarg))
			return 0;
		return getopt_error(c, argv, optind, long_opts);
	}
}

/* Several files (or a list, or a part of one): -v alone, no parts. */
static int many_args(struct args *a)
{
	if (!a->o.validate)
		return usage_error("several files, --files-from and --shard"
				   " go with --validate");
	if (a->o.parts || a->o.json)
		return usage_error("several files are validated only (no"
				   " parts, no --json)");
	return 0;
}

/* 0 run, 1 help shown, 2 usage error shown. */
static int parse_args(int argc, char **argv, struct args *a)
{
	int c, idx, r;

	memset(a, 0, sizeof(*a));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:v0", long_opts,
				&idx)) != -1) {
		r = parse_option(a, c, idx, argv);
		if (r)
			return r;
	}
	if (fleet_check(&a->fleet))
		return 2;
	a->files = argv + optind;
	a->nfiles = argc - optind;
	a->many = a->nfiles + !!a->o.path > 1 || fleet_given(&a->fleet);
	if (a->many)
		return many_args(a);
	if (a->nfiles && a->o.path)
		return usage_error("one input: -i %s or %s, not both",
				   a->o.path, argv[optind]);
	if (a->nfiles)
		a->o.path = a->files[0];
	if (!a->o.path)
		a->o.path = "trace.dat";
	return 0;
}

static void warn_line(const char *msg)
{
	fprintf(stderr, "tdat dump: warning: %s\n", msg);
}

/* The paths to validate: the FILEs, -i, then the list's.  0, or 1
 * after one line. */
static int gather(struct args *a, struct pathlist *all)
{
	int k, r = 0;

	if (a->o.path && pathlist_add(all, a->o.path))
		r = 1;
	for (k = 0; !r && k < a->nfiles; k++)
		r = pathlist_add(all, a->files[k]) ? 1 : 0;
	if (r) {
		fprintf(stderr, "tdat dump: out of memory\n");
		return 1;
	}
	return fleet_read_list(&a->fleet, all);
}

/* dump --validate of several files, those of this part; with --log,
 * those an earlier run logged as validated, unchanged since, not read
 * again (convert/dump/many.c). */
static int validate_many(struct args *a)
{
	struct dump_many m;
	struct pathlist all = { 0 };
	struct joblog log = { 0 };
	struct logdone done = { 0 };
	int r;

	done.fd = -1;
	r = gather(a, &all);
	if (!r)
		fleet_read_done(&a->fleet, dump_log_results, &done);
	if (!r)
		r = fleet_open_log(&a->fleet, &log);
	if (!r) {
		memset(&m, 0, sizeof(m));
		m.o = &a->o;
		m.paths = all.v;
		m.npaths = all.n;
		m.shard = &a->fleet.shard;
		m.log = &log;
		m.logged = a->fleet.log != NULL;
		m.done = &done;
		r = dump_validate_many(&m);
		r = fleet_close_log(&log) || r ? 1 : 0;
	}
	logdone_free(&done);
	pathlist_free(&all);
	return r;
}

int cmd_dump(int argc, char **argv)
{
	struct tdat_error err = { { 0 }, 0 };
	struct progress prog;
	struct args a;
	int r;

	cmd_name = "dump";
	r = parse_args(argc, argv, &a);
	if (r)
		return r == 1 ? 0 : 2;
	a.o.warn = warn_line;
	if (a.many)
		return validate_many(&a);
	progress_start(&prog, 0);
	a.o.progress = show_progress;
	a.o.progress_ctx = &prog;
	r = dump_run(&a.o, &err);
	end_progress(&prog);
	return r ? job_failed(&err, &a.o.path, 1) : 0;
}
