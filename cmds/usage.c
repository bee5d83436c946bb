/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.c - what every applet's option parsing says the same way: a
 * usage error naming the applet, getopt's complaints, and the check that
 * an output is not an input.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cmds/cmds.h"
#include "convert/repair_hint.h"
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

/* The option as the user wrote it: "-x" for a letter (optopt), else
 * the word without any "=value". */
static void refused_word(char **argv, int optind, char *buf, size_t cap)
{
	const char *w = argv[optind - 1];

	if (optopt > 0 && optopt < 256) {
		snprintf(buf, cap, "-%c", optopt);
		return;
	}
	snprintf(buf, cap, "%.*s", (int)strcspn(w, "="), w);
}

/* " (did you mean --NAME?)" for the long option nearest to word. */
static void option_hint(const char *word, const struct option *longopts,
			char *buf, size_t cap)
{
	const char *names[128];
	const char *near;
	int n = 0;

	buf[0] = 0;
	if (!longopts || strncmp(word, "--", 2))
		return;
	for (; longopts[n].name && n < 128; n++)
		names[n] = longopts[n].name;
	near = nearest_name(word + 2, names, n);
	if (near)
		snprintf(buf, cap, " (did you mean --%s?)", near);
}

void getopt_msg(char *buf, size_t cap, int c, char **argv, int optind,
		const struct option *longopts)
{
	char word[64], hint[96];

	refused_word(argv, optind, word, sizeof(word));
	if (c == ':') {
		snprintf(buf, cap, "option \"%s\" needs a value", word);
		return;
	}
	option_hint(word, longopts, hint, sizeof(hint));
	snprintf(buf, cap, "unknown option \"%s\"%s", word, hint);
}

/* getopt_long's '?' or ':' (with opterr = 0 and a ':' optstring). */
int getopt_error(int c, char **argv, int optind,
		 const struct option *longopts)
{
	char msg[256];

	getopt_msg(msg, sizeof(msg), c, argv, optind, longopts);
	return usage_error("%s", msg);
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

/* "PATH: offset N: ..." about one of the inputs, and no memory error:
 * damage that restore may get around. */
static const char *damaged_input(const struct tdat_error *e,
				 const char *const *inputs, int n)
{
	size_t len;
	int i;

	if (e->memory)
		return NULL;
	for (i = 0; i < n; i++) {
		len = strlen(inputs[i]);
		if (!strncmp(e->msg, inputs[i], len) &&
		    !strncmp(e->msg + len, ": offset ", 9))
			return inputs[i];
	}
	return NULL;
}

int job_failed(const struct tdat_error *e, const char *const *inputs, int n)
{
	const char *bad = damaged_input(e, inputs, n);

	fprintf(stderr, "tdat %s: %s", cmd_name, e->msg);
	if (bad && strcmp(cmd_name, "restore"))
		fprintf(stderr, repair_hint_fmt, bad);
	fputc('\n', stderr);
	return 1;
}
