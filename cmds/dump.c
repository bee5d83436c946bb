/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dump.c - the dump applet: trace-cmd dump's options read into struct
 * dump_opts; the printing is dump_run's (convert/dump/).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/progress.h"
#include "convert/dump/dump.h"
#include "libfmt/tracedat.h"

static const char usage[] =
"usage: tdat dump [OPTIONS] [-i FILE | FILE]\n"
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
"  -i FILE          the input file\n"
"  -h, --help       show this help\n"
"\n"
"Exit status: 0 when the file was read whole, 1 when it is damaged (what\n"
"comes before the damage is printed, then one line with the offset),\n"
"2 on usage errors.\n";

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
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const unsigned parts[] = {
	DUMP_SUMMARY, DUMP_HEAD_PAGE, DUMP_HEAD_EVENT, DUMP_FTRACE,
	DUMP_SYSTEMS, DUMP_EVENTS, DUMP_KALLSYMS, DUMP_PRINTK, DUMP_CMDLINES,
	DUMP_OPTIONS, DUMP_FLYRECORD, DUMP_CLOCK, DUMP_SECTIONS, DUMP_STRINGS,
	DUMP_ALL,
};

/* 0 run, 1 help shown, 2 usage error shown. */
static int parse_args(int argc, char **argv, struct dump_opts *o)
{
	int c, idx;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:v", long_opts, &idx)) != -1) {
		switch (c) {
		case OPT_PART:
			o->parts |= parts[idx];
			break;
		case 'i':
			o->path = optarg;
			break;
		case 'v':
			o->validate = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_VERBOSE:
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			return getopt_error(c, argv, optind, long_opts);
		}
	}
	if (optind < argc && o->path)
		return usage_error("one input: -i %s or %s, not both",
				   o->path, argv[optind]);
	if (optind < argc)
		o->path = argv[optind++];
	if (optind < argc)
		return usage_error("one input only (\"%s\" is one too many)",
				   argv[optind]);
	if (!o->path)
		o->path = "trace.dat";
	return 0;
}

static void warn_line(const char *msg)
{
	fprintf(stderr, "tdat dump: warning: %s\n", msg);
}

int cmd_dump(int argc, char **argv)
{
	struct dump_opts o;
	struct tdat_error err = { { 0 }, 0 };
	struct progress prog;
	int r;

	cmd_name = "dump";
	r = parse_args(argc, argv, &o);
	if (r)
		return r == 1 ? 0 : 2;
	progress_start(&prog, 0);
	o.progress = show_progress;
	o.progress_ctx = &prog;
	o.warn = warn_line;
	r = dump_run(&o, &err);
	end_progress(&prog);
	return r ? job_failed(&err, &o.path, 1) : 0;
}
