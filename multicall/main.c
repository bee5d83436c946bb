/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the multicall entry point: pick an applet and run it.
 *
 * An applet is chosen by the name we were started as (a symlink named
 * "convert" runs convert) or, when started as "tdat", by the first
 * argument.  Started as "trace-cmd" we act as "tdat", so tdat can
 * stand in for trace-cmd's subcommands that it shares.  Everything else
 * (options, usage text, the work) belongs to the applet in cmds/.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmds/cmds.h"
#include "libfmt/version.h"

struct applet {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
};

static const struct applet applets[] = {
	{ "check-events", "parse event formats of tracefs or a trace.dat",
	  cmd_check_events },
	{ "convert", "convert between trace.dat v6 and v7, recompress, to Parquet",
	  cmd_convert },
	{ "dump", "print what a trace.dat holds, as trace-cmd dump",
	  cmd_dump },
	{ "extract", "read the ring buffers as they are (a crash's last boot)",
	  cmd_extract },
	{ "merge", "merge recordings or split pieces into one file",
	  cmd_merge },
	{ "record", "record events through tracefs into a trace.dat",
	  cmd_record },
	{ "report", "print the events of a trace.dat as text",
	  cmd_report },
	{ "restore", "rebuild a trace.dat from per-CPU files or damage",
	  cmd_restore },
	{ "split", "cut a trace.dat into pieces by time, events or pages",
	  cmd_split },
};

#define NAPPLETS (sizeof(applets) / sizeof(applets[0]))

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const struct applet *find_applet(const char *name)
{
	size_t i;

	for (i = 0; i < NAPPLETS; i++)
		if (!strcmp(applets[i].name, name))
			return &applets[i];
	return NULL;
}

static void list_applets(FILE *out)
{
	size_t i;

	fprintf(out, "usage: tdat APPLET [ARGS...]\n"
		"       APPLET [ARGS...]       (through a symlink named APPLET)\n"
		"       tdat --help | --version\n"
		"\n"
		"Applets (APPLET --help shows each one's options):\n");
	for (i = 0; i < NAPPLETS; i++)
		fprintf(out, "  %-14s %s\n", applets[i].name,
			applets[i].summary);
}

/* argv[0] of the applet is its own name, whatever path we came from. */
static int run_applet(const struct applet *a, int argc, char **argv)
{
	int bad = memory_from_env();

	if (bad)
		return bad;
	argv[0] = (char *)a->name;
	return a->main(argc, argv);
}

/* One line, with the nearest applet when the name looks mistyped. */
static int unknown_applet(const char *name)
{
	const char *names[NAPPLETS];
	const char *near;
	size_t i;

	for (i = 0; i < NAPPLETS; i++)
		names[i] = applets[i].name;
	near = nearest_name(name, names, (int)NAPPLETS);
	if (near)
		fprintf(stderr, "tdat: unknown applet \"%s\" (did you mean"
			" %s?)\n", name, near);
	else
		fprintf(stderr, "tdat: unknown applet \"%s\" (tdat --help"
			" lists them)\n", name);
	return 2;
}

/* "tdat help APPLET" is "APPLET --help". */
static int help_applet(const char *name)
{
	const struct applet *a = find_applet(name);
	char help[] = "--help";
	char *help_argv[] = { NULL, help, NULL };

	if (!a)
		return unknown_applet(name);
	return run_applet(a, 2, help_argv);
}

/* "tdat ARGS...": options of the multicall binary or an applet name. */
static int run_multicall(int argc, char **argv)
{
	const struct applet *a;
	const char *name;

	if (argc < 2) {
		list_applets(stderr);
		return 2;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help")) {
		if (argc > 2)
			return help_applet(argv[2]);
		list_applets(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V") ||
	    !strcmp(name, "version")) {
		printf("tdat %s\n", TDAT_VERSION);
		return 0;
	}
	a = find_applet(name);
	if (!a)
		return unknown_applet(name);
	return run_applet(a, argc - 1, argv + 1);
}

/* A full disk or closed pipe on stdout must not pass for success. */
static int finish_stdout(int status)
{
	int flushed = fflush(stdout) == 0;

	if (flushed && !ferror(stdout))
		return status;
	fprintf(stderr, "tdat: standard output: %s\n",
		flushed ? "write error" : strerror(errno));
	return status ? status : 1;
}

int main(int argc, char **argv)
{
	const struct applet *a = NULL;
	int status;

	if (argc > 0 && argv[0])
		a = find_applet(base_name(argv[0]));
	if (a)
		status = run_applet(a, argc, argv);
	else	/* "tdat", "trace-cmd" or any other name */
		status = run_multicall(argc, argv);
	return finish_stdout(status);
}
