/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.c - what every applet's option parsing says the same way: a
 * usage error naming the applet, getopt's complaints, and the check that
 * an output is not an input.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cmds/cmds.h"
#include "libfmt/tracedat.h"

/* One applet runs per process: it sets this before parsing. */
const char *cmd_name = "tdat";

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tdat %s: ", cmd_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see tdat %s --help)\n", cmd_name);
	return 2;
}

/* getopt_long's '?' or ':' (with opterr = 0 and a ':' optstring). */
int getopt_error(int c, char **argv, int optind)
{
	if (c == ':')
		return usage_error("option \"%s\" needs a value",
				   argv[optind - 1]);
	return usage_error("unknown option \"%s\"", argv[optind - 1]);
}

/* The same path, or another name of the same file. */
int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

void usage_vmsg(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct tdat_error e;

	tdat_verrorf(&e, fmt, ap);
	snprintf(buf, cap, "%s", e.msg);
}
