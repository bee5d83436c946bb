/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extract.c - the extract applet: what the ring buffers hold now into a
 * trace.dat, tracefs left as it is; first of all a buffer kept across a
 * reboot (the last boot's trace after a crash).  Its command line is
 * read here into a struct extract_opts (convert/record/record.h); the
 * work is extract_run's.  trace-cmd extract's options with its meaning;
 * those that would change tracefs (-p, -O) are refused: they would
 * clear a buffer kept across a reboot before it is read.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/record_args.h"
#include "convert/record/record.h"
#include "convert/vmcore/vmcore.h"

static const char usage[] =
"usage: tdat extract [OPTIONS]\n"
"\n"
"Read what the ring buffers hold now into a trace.dat file, leaving tracefs\n"
"as it is: nothing is enabled, cleared or turned on or off.  Reading takes\n"
"the pages out of the buffers.  Needs root.  The options are trace-cmd\n"
"extract's (3.4).\n"
"\n"
"After a crash: a kernel booted with\n"
"  reserve_mem=20M:2M:trace trace_instance=boot_map^traceoff@trace\n"
"keeps the instance boot_map's ring buffer across a reboot; run\n"
"  tdat extract -B boot_map -o crash.dat\n"
"before anything else touches boot_map.  The file records the instance's\n"
"last_boot_info, and report and the exports name every address of the last\n"
"boot as that boot's kernel had it.\n"
"\n"
"  -B NAME             extract the instance NAME (repeatable)\n"
"  -a                  extract every instance\n"
"  -t                  the top buffer too (it is the default without -B\n"
"                      and -a)\n"
"  -s                  the snapshot buffers instead (snapshot_raw)\n"
"  -o FILE             output file (default trace.dat)\n"
"  --file-version 6|7  output format version (default 7)\n"
"  --compression ALG   none, zlib, zstd or any (default any, that is zstd)\n"
"  -q, --quiet         print nothing but errors\n"
"  --verbose[=LEVEL]   accepted, no effect\n"
"  -h, --help          show this help\n"
"\n"
"Not implemented (refused, exit status 2): -p and -O (they change tracefs\n"
"first: a buffer kept across a reboot would be cleared).\n"
"\n"
"While it reads, FILE.rec/ holds the pages already taken from the kernel;\n"
"if extract is killed, \"tdat restore FILE\" makes FILE of them.\n"
"\n"
"  --vmcore DUMP       read the ring buffers of a crashed kernel from its\n"
"                      memory dump instead (kdump's or QEMU's: ELF,\n"
"                      kdump-compressed, flattened): no tracefs, no root,\n"
"                      no vmlinux; symbols and types come from the dump\n"
"                      (a kernel with CONFIG_KALLSYMS_ALL and\n"
"                      CONFIG_DEBUG_INFO_BTF).  -B, -a, -t, -o,\n"
"                      --file-version, --compression and -q apply.\n";

enum {
	OPT_FILE_VERSION = 256,
	OPT_COMPRESSION,
	OPT_VERBOSE,
	OPT_VMCORE,
};

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "vmcore", required_argument, NULL, OPT_VMCORE },
	{ NULL, 0, NULL, 0 },
};

/* A usage error in one line, whatever an argument holds (usage_vmsg
 * keeps its control characters from breaking the line): 2. */
static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	usage_vmsg(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return usage_error("%s", msg);
}

static int add_name(struct extract_opts *o, const char *name)
{
	char **v = realloc(o->names, (size_t)(o->nnames + 1) * sizeof(*v));

	if (!v)
		return bad("out of memory");
	o->names = v;
	v[o->nnames++] = (char *)name;
	return 0;
}

/* One option c with its argument; 0, or 2 after a usage line. */
static int one_option(int c, const char *arg, struct extract_opts *o,
		      const char **vmcore, int *have_comp)
{
	switch (c) {
	case OPT_VMCORE: *vmcore = arg; return 0;
	case 'B':
		if (rarg_name(arg))
			return bad("-B %s: not an instance name", arg);
		return add_name(o, arg) ? 2 : 0;
	case 'a': o->all = 1; return 0;
	case 't': o->top = 1; return 0;
	case 's': o->snapshot = 1; return 0;
	case 'q': o->quiet = 1; return 0;
	case 'o': o->output = (char *)arg; return 0;
	case OPT_VERBOSE: return 0;
	case OPT_FILE_VERSION:
		if (strcmp(arg, "6") && strcmp(arg, "7"))
			return bad("--file-version %s: only 6 and 7"
					   " exist", arg);
		o->version = arg[0] - '0';
		return 0;
	case OPT_COMPRESSION:
		if (rarg_compression(arg, &o->codec))
			return bad("--compression %s: not none, zlib,"
					   " zstd or any", arg);
		*have_comp = 1;
		return 0;
	case 'p': case 'O':
		return bad("-%c: not implemented (it changes tracefs"
				   " before the buffers are read)", c);
	}
	return 2;
}

static int parse(int argc, char **argv, struct extract_opts *o,
		 const char **vmcore)
{
	int c, r, have_comp = 0;

	memset(o, 0, sizeof(*o));
	o->version = 7;
	o->codec = TDAT_CODEC_ZSTD;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hqatsB:o:p:O:", longopts,
				NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':')
			return getopt_error(c, argv, optind, longopts);
		r = one_option(c, optarg, o, vmcore, &have_comp);
		if (r)
			return r;
	}
	if (optind < argc)
		return bad("unexpected argument \"%s\"", argv[optind]);
	if (*vmcore && o->snapshot)
		return bad("-s: not with --vmcore (the snapshot buffers are"
			   " not read from dumps)");
	if (o->version == 6 && have_comp && o->codec != TDAT_CODEC_NONE)
		return bad("--compression %s needs --file-version 7",
				   tdat_codec_name(o->codec));
	if (o->version == 6)
		o->codec = TDAT_CODEC_NONE;
	if (!o->output)
		o->output = "trace.dat";
	return 0;
}

/* extract --vmcore: the same options, for the vmcore engine. */
static int run_vmcore(const struct extract_opts *o, const char *dump)
{
	struct vmcore_opts v = {
		.dump = dump, .output = o->output, .top = o->top,
		.all = o->all, .nnames = o->nnames, .names = o->names,
		.quiet = o->quiet, .version = o->version, .codec = o->codec,
	};

	return vmcore_run(&v);
}

int cmd_extract(int argc, char **argv)
{
	struct extract_opts o;
	const char *vmcore = NULL;
	int r;

	cmd_name = "extract";
	r = parse(argc, argv, &o, &vmcore);
	if (r == 1) {
		fputs(usage, stdout);
		r = 0;
	} else if (!r) {
		discard_outputs_on_signals();
		r = vmcore ? run_vmcore(&o, vmcore) : extract_run(&o);
	}
	free(o.names);
	return r;
}
