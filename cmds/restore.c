/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore.c - the restore applet: rebuild a trace.dat from what is left.
 *
 *   restore -c [-o HEAD]            header-only file (sysmeta_header_only)
 *   restore [-i HEAD] [-o OUT] CPUFILE...   raw per-CPU files -> OUT
 *                                  (a lone one only with -i)
 *   restore [-o OUT] OUT            a killed "record -o OUT": OUT.rec/
 *   restore --vmcore DUMP [-o OUT] OUT   the same, its files as the
 *                                  crashed kernel's page cache held them
 *   restore -o OUT DAMAGED          salvage a damaged trace.dat
 *
 * The work is in convert/restore/ (restore.h) and, for -c, in
 * convert/tracefs/ (sysmeta.h); this file decides which of them the
 * arguments ask for.  Inputs are only read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "cmds/outopts.h"
#include "cmds/progress.h"
#include "convert/record/record.h"
#include "convert/restore/restore.h"
#include "convert/tracefs/sysmeta.h"
#include "convert/vmcore/vmcore.h"
#include "libfmt/outputs.h"
#include "libfmt/tracedat.h"

static const char usage[] =
"usage: tdat restore -c [-o HEAD] [-t TRACING_DIR] [-k KALLSYMS]\n"
"       tdat restore [-i HEAD] [-o OUT] CPUFILE...\n"
"       tdat restore -o OUT DAMAGED\n"
"       tdat restore [-o OUT] [--vmcore DUMP] RECORDING\n"
"\n"
"Rebuild a trace.dat.\n"
"\n"
"  -c                  write a header-only file (metadata, no data) from\n"
"                      the running system (default name trace-partial.dat)\n"
"  -t DIR              with -c: read formats from this tracing directory\n"
"  -k FILE             with -c: read kallsyms from this file\n"
"  -i HEAD             take the metadata from this header-only file\n"
"                      (without -i: from the running system)\n"
"  -o FILE             output file (default trace.dat)\n"
"  CPUFILE...          raw per-CPU page files for CPU 0, 1, ... (such as\n"
"                      the trace.dat.cpuN left by a killed recorder);\n"
"                      a lone one needs -i\n"
"  DAMAGED             a truncated or corrupt trace.dat: keep every\n"
"                      complete page and decodable chunk, and say what\n"
"                      was dropped (buffer, CPU, offset, bytes) and what\n"
"                      was inferred\n"
"  RECORDING           OUT (or OUT.rec) alone: finish the file of a killed\n"
"                      \"record -o OUT\" from what it left in OUT.rec/,\n"
"                      and put tracefs back as it was before it (needs\n"
"                      root)\n"
"  --vmcore DUMP       with RECORDING: read its files as the page cache of\n"
"                      the kernel that crashed under it held them, from\n"
"                      that kernel's kdump or VM memory dump (what the\n"
"                      disk never got included); tracefs left alone\n"
"  --file-version 6|7  output version (default: the input's or HEAD's)\n"
"  --compression ALG   none, zlib, zstd or any (with --file-version 7)\n"
"  -q                  do not tell what was dropped or inferred\n"
"  -h, --help          show this help\n"
"\n"
"Pages the kernel never filled, cut short or corrupt are dropped, one\n"
"line each on stderr.  The input is never modified; the output appears\n"
"only when complete.\n";

enum { OPT_VMCORE = OPT_OUTOPTS_END };

static const struct option long_opts[] = {
	{ "file-version", required_argument, NULL, OPT_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "help", no_argument, NULL, 'h' },
	{ "vmcore", required_argument, NULL, OPT_VMCORE },
	{ NULL, 0, NULL, 0 },
};

struct args {
	int create;		/* -c */
	const char *head;	/* -i */
	const char *out;	/* -o */
	const char *tracing_dir;
	const char *kallsyms;
	const char *vmcore;	/* --vmcore */
	struct outopts opts;	/* version 0: the input's */
	int quiet;
	char **files;
	int nfiles;
};

static int failed(const struct tdat_error *err)
{
	fprintf(stderr, "tdat restore: %s\n", err->msg);
	return 1;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c;

	memset(a, 0, sizeof(*a));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hci:o:t:k:q", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 1;
		case 'c':
			a->create = 1;
			break;
		case 'i':
			a->head = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 't':
			a->tracing_dir = optarg;
			break;
		case 'k':
			a->kallsyms = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case OPT_VMCORE:
			a->vmcore = optarg;
			break;
		case OPT_VERSION:
		case OPT_COMPRESSION:
			if (outopt_parse(&a->opts, c, optarg))
				return 2;
			break;
		default:
			return getopt_error(c, argv, optind, long_opts);
		}
	}
	a->files = argv + optind;
	a->nfiles = argc - optind;
	return 0;
}

static int pick_codec(const struct args *a, struct convert_opts *o)
{
	const char *c = a->opts.compression;

	o->version = a->opts.version;
	if (!c)
		c = a->opts.version == 7 ? "zstd" : "none";
	else if (!a->opts.version)
		return usage_error("--compression needs --file-version");
	if (!strcmp(c, "any"))
		c = a->opts.version == 6 ? "none" : "zstd";
	if (tdat_codec_by_name(c, &o->codec))
		return usage_error("--compression: \"%s\" is not none, zlib,"
				   " zstd or any", c);
	if (a->opts.version == 6 && o->codec != TDAT_CODEC_NONE)
		return usage_error("version 6 files are never compressed");
	return 0;
}

static void warn_line(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat restore: %s\n", msg);
}

/* ---- what the arguments name ---- */

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int has_file(const char *dir, const char *name)
{
	char path[4300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int has_manifest(const char *dir)
{
	return has_file(dir, "manifest");
}

/* What a killed record left: a manifest, or at least the journal of
 * its tracefs changes (killed before tracing started). */
static int is_recording(const char *dir)
{
	return is_dir(dir) && (has_manifest(dir) || has_file(dir, "tracefs"));
}

/* ---- the modes ---- */

static int create_head(const struct args *a)
{
	const char *out = a->out ? a->out : "trace-partial.dat";
	enum tdat_codec codec = TDAT_CODEC_NONE;
	struct convert_opts o;
	struct tdat_error err;

	if (a->nfiles)
		return usage_error("-c takes no file arguments");
	if (a->head)
		return usage_error("-c and -i do not go together");
	memset(&o, 0, sizeof(o));
	if (a->opts.version && pick_codec(a, &o))
		return 2;
	if (a->opts.version)
		codec = o.codec;
	if (sysmeta_header_only(out, a->opts.version ? a->opts.version : 7,
			       codec, a->tracing_dir, a->kallsyms, 0, &err))
		return failed(&err);
	return 0;
}

static int check_inputs(const struct args *a, const char *out)
{
	int i;

	if (a->head && same_file(a->head, out))
		return usage_error("the output \"%s\" is the input \"%s\"",
				   out, a->head);
	for (i = 0; i < a->nfiles; i++)
		if (same_file(a->files[i], out))
			return usage_error("the output \"%s\" is the input"
					   " \"%s\"", out, a->files[i]);
	return 0;
}

/* CPU files without -i: the metadata of the running system. */
static int assemble_local(const struct args *a, const char *out,
			  const struct convert_opts *o)
{
	char head[4200], held[64];
	struct tdat_error err;
	int r, fd;

	/* A scratch file, held unnamed (read through /proc/self/fd) where
	 * the file system allows, else named and removed at the end or by
	 * a signal. */
	snprintf(head, sizeof(head), "%s.head-%ld", out, (long)getpid());
	if (sysmeta_header_only(head, o->version ? o->version : 7,
			       o->version ? o->codec : TDAT_CODEC_NONE, NULL,
			       NULL, 1, &err)) {
		fprintf(stderr, "tdat restore: no -i HEAD given, and the"
			" running system's metadata cannot be read: %s\n",
			err.msg);
		return 1;
	}
	fd = tdat_outputs_held_fd(head);
	if (fd >= 0)
		snprintf(held, sizeof(held), "/proc/self/fd/%d", fd);
	r = assemble_cpu_files(fd >= 0 ? held : head, a->files, a->nfiles,
			       out, o, &err);
	tdat_outputs_drop();
	return r ? failed(&err) : 0;
}

static int cpu_files(const struct args *a, const struct convert_opts *o)
{
	const char *out = a->out ? a->out : "trace.dat";
	struct tdat_error err;
	int i;

	if (!a->nfiles)
		return usage_error("no CPU files given");
	/* Each one readable and not a trace.dat, before anything is
	 * read from the running system. */
	for (i = 0; i < a->nfiles; i++) {
		int kind = restore_input_kind(a->files[i], &err);

		if (kind < 0)
			return failed(&err);
		if (kind == RESTORE_TRACEDAT)
			return usage_error("\"%s\" is a trace.dat, not a raw"
					   " CPU file (to salvage it: restore -o"
					   " NEW %s)", a->files[i], a->files[i]);
	}
	if (check_inputs(a, out))
		return 2;
	if (!a->head)
		return assemble_local(a, out, o);
	if (assemble_cpu_files(a->head, a->files, a->nfiles, out, o, &err))
		return failed(&err);
	return 0;
}

static void warn_plain(const char *msg)
{
	fprintf(stderr, "tdat restore: %s\n", msg);
}

/* tracefs as it was before the killed recording (OUT.rec/tracefs):
 * 0 put back or nothing to do, 1 failed (said). */
static int put_back(const struct args *a, const char *rec)
{
	struct tdat_error err;
	int r = record_put_back(rec, warn_plain, &err);

	if (r < 0)
		return failed(&err);
	if (!r && !a->quiet)
		fprintf(stderr, "tdat restore: tracefs put back as it was before"
			" the recording (%s/tracefs)\n", rec);
	if (r == 2 && !a->quiet)
		fprintf(stderr, "tdat restore: tracefs left alone: the machine"
			" has restarted since the recording (%s/tracefs names"
			" another boot)\n", rec);
	return 0;
}

/* 1 (said) when rec/ has no manifest: no trace to write. */
static int no_manifest(const char *rec)
{
	if (has_manifest(rec))
		return 0;
	fprintf(stderr, "tdat restore: %s/ has no manifest: the recording was"
		" killed before tracing started, so there is no trace to"
		" write\n", rec);
	return 1;
}

/* OUT.rec/ (named as OUT or as OUT.rec) -> OUT, or -o's name; and
 * tracefs put back. */
static int recording(const struct args *a, const char *rec, const char *out,
		     const struct convert_opts *o)
{
	struct tdat_error err;
	struct raw_source cut;
	int r = put_back(a, rec), bad;

	if (no_manifest(rec))
		return 1;
	/* a machine that died: every CPU's file ends at one moment */
	record_cut_source(rec, &cut);
	bad = assemble_recording_from(rec, &cut, out, o, &err);
	record_cut_free(&cut);
	if (bad)
		return failed(&err);
	if (!a->quiet)
		fprintf(stderr, "tdat restore: wrote %s from %s/ (which"
			" can go now)\n", out, rec);
	return r;
}

/* OUT.rec/ -> OUT with its raw files read through the page cache of
 * --vmcore's crashed kernel (one line per file says what came from
 * it); tracefs left alone: it was that kernel's. */
static int from_dump(const struct args *a, const char *rec, const char *out,
		     const struct convert_opts *o)
{
	struct raw_source src = { NULL, NULL, 0 };
	struct vmcore_cache *vc;
	struct tdat_error err;
	char dir[4200], *slash;
	int r;

	if (no_manifest(rec))
		return 1;
	/* scratch copies of the files go beside the output */
	snprintf(dir, sizeof(dir), "%s", out);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = 0;
	vc = vmcore_cache_open(a->vmcore, dir, &src, &err);
	if (!vc)
		return failed(&err);
	r = assemble_recording_from(rec, &src, out, o, &err);
	vmcore_cache_close(vc);
	if (r)
		return failed(&err);
	if (!a->quiet)
		fprintf(stderr, "tdat restore: wrote %s from %s/ and the page"
			" cache in %s\n", out, rec, a->vmcore);
	return 0;
}

static int one_recording(const struct args *a, const char *rec,
			 const char *out, const struct convert_opts *o)
{
	if (a->out)
		out = a->out;
	return a->vmcore ? from_dump(a, rec, out, o)
			 : recording(a, rec, out, o);
}

/*
 * A lone input that is not a trace.dat: one line saying what it is, and
 * how to ask for raw per-CPU files (never taken for one unasked).  1 if
 * so, 0 for a trace.dat.
 */
static int not_tracedat(const char *f, const char *rec)
{
	struct tdat_error err;
	int kind;

	if (is_dir(f)) {
		fprintf(stderr, "tdat restore: %s: a directory without a"
			" manifest, not a recording of tdat record\n", f);
		return 1;
	}
	kind = restore_input_kind(f, &err);
	if (kind == RESTORE_TRACEDAT)
		return 0;
	if (kind < 0)
		return failed(&err);
	if (kind == RESTORE_EMPTY) {
		fprintf(stderr, "tdat restore: %s: offset 0: an empty file,"
			" and there is no %s/: nothing to restore\n", f, rec);
		return 1;
	}
	fprintf(stderr, "tdat restore: %s, and there is no %s/: to build a"
		" trace from raw per-CPU ring-buffer files, give their header"
		" with -i HEAD (restore -c makes one) and the CPU files\n",
		err.msg, rec);
	return 1;
}

static int one_file(const struct args *a, const struct convert_opts *o)
{
	const char *f = a->files[0];
	char rec[4200], out[4200];
	size_t n = strlen(f);
	struct tdat_error err;

	snprintf(rec, sizeof(rec), "%s.rec", f);
	if (is_recording(rec))
		return one_recording(a, rec, f, o);
	if (n > 4 && !strcmp(f + n - 4, ".rec") && is_recording(f)) {
		snprintf(out, sizeof(out), "%.*s", (int)(n - 4), f);
		return one_recording(a, f, out, o);
	}
	if (a->vmcore)
		return usage_error("--vmcore DUMP goes with a recording: there"
				   " is no %s/manifest", rec);
	if (access(f, F_OK))
		return usage_error("\"%s\" does not exist, and there is no"
				   " %s/manifest", f, rec);
	if (not_tracedat(f, rec))
		return 1;
	if (!a->out)
		return usage_error("\"%s\" is a trace.dat and there is no %s/:"
				   " to salvage it, name a new output with -o",
				   f, rec);
	if (same_file(f, a->out))
		return usage_error("the output \"%s\" is the input", a->out);
	if (salvage_file(f, a->out, o, &err))
		return failed(&err);
	return 0;
}

int cmd_restore(int argc, char **argv)
{
	struct convert_opts o;
	struct progress prog;
	struct args a;
	int r;

	cmd_name = "restore";
	discard_outputs_on_signals();
	r = parse_args(&a, argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	if (a.create)
		return create_head(&a);
	if ((a.tracing_dir || a.kallsyms))
		return usage_error("-t and -k go with -c");
	if (a.vmcore && (a.nfiles != 1 || a.head))
		return usage_error("--vmcore DUMP goes with one recording"
				   " (OUT or OUT.rec), not with CPU files");
	memset(&o, 0, sizeof(o));
	if (a.opts.version && pick_codec(&a, &o))
		return 2;
	if (a.opts.compression && !a.opts.version)
		return usage_error("--compression needs --file-version");
	if (!a.quiet)
		o.warn = warn_line;
	progress_start(&prog, a.quiet);
	o.progress = show_progress;
	o.progress_ctx = &prog;
	if (a.nfiles == 1 && !a.head)
		r = one_file(&a, &o);
	else
		r = cpu_files(&a, &o);
	end_progress(&prog);
	return r;
}
