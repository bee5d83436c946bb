/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event_formats.c - report --event REGEX: the format texts of matching
 * events, printed as --events prints all of them.
 *
 * trace-cmd 3.1.6 (checked live) splits REGEX at colons and ignores
 * empty pieces: with two pieces the first must match the system and the
 * second the event name; with one, either may match it.  Matching is
 * case-insensitive (basic regular expressions); ftrace's own formats are
 * never listed.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"
#include "convert/report/event_formats.h"

struct match {
	regex_t sys, name;
	int pieces;		/* 0: nothing matches; 1: sys only */
	uint32_t skip;		/* ftrace formats still to pass over */
	const char *system;	/* the system whose header was printed */
};

/* The event name from a format's first line, "name: NAME". */
static void format_name(const char *text, size_t len, char *name,
			size_t cap)
{
	size_t n = 0;

	if (len > 6 && !strncmp(text, "name: ", 6)) {
		text += 6;
		len -= 6;
		while (n < len && n + 1 < cap && text[n] != '\n')
			n++;
		memcpy(name, text, n);
	}
	name[n] = 0;
}

static int matches(const struct match *m, const char *system,
		   const char *name)
{
	if (m->pieces == 2)
		return !regexec(&m->sys, system, 0, NULL, 0) &&
		       !regexec(&m->name, name, 0, NULL, 0);
	return !regexec(&m->sys, system, 0, NULL, 0) ||
	       !regexec(&m->sys, name, 0, NULL, 0);
}

static int print_match(void *ctx, const char *system, const char *text,
		       size_t len)
{
	struct match *m = ctx;
	char name[256];

	if (m->skip) {
		m->skip--;
		return 0;
	}
	format_name(text, len, name, sizeof(name));
	if (!m->pieces || !matches(m, system, name))
		return 0;
	if (!m->system || strcmp(m->system, system))
		printf("\nsystem: %s\n", system);
	m->system = system;
	fwrite(text, 1, len, stdout);
	putchar('\n');
	return 0;
}

/* Compile the colon-separated pieces of the regex; 0 or -1. */
static int compile(struct match *m, const char *regex)
{
	char *copy = strdup(regex), *piece, *save = NULL, msg[128];
	regex_t *re[2] = { &m->sys, &m->name };
	int r = 0;

	if (!copy)
		return -1;
	for (piece = strtok_r(copy, ":", &save); piece && m->pieces < 2;
	     piece = strtok_r(NULL, ":", &save)) {
		r = regcomp(re[m->pieces], piece, REG_ICASE | REG_NOSUB);
		if (r) {
			regerror(r, re[m->pieces], msg, sizeof(msg));
			fprintf(stderr, "tdat report: --event '%s': %s\n",
				regex, msg);
			break;
		}
		m->pieces++;
	}
	free(copy);
	return r ? -1 : 0;
}

int report_event_formats(const struct report_opts *ro)
{
	struct match m;
	struct tdat_error err;
	struct tdat_file *f;
	int ret = 0;

	memset(&m, 0, sizeof(m));
	if (compile(&m, ro->event_regex)) {
		ret = 2;
		goto out;
	}
	f = tdat_open(ro->ev.inputs[0].path, &err);
	if (!f) {
		fprintf(stderr, "tdat report: %s\n", err.msg);
		ret = 1;
		goto out;
	}
	if (tdat_meta_has(f, TDAT_META_FTRACE) &&
	    f->meta[TDAT_META_FTRACE].len >= 4)
		m.skip = tdat_get32(f, f->meta[TDAT_META_FTRACE].data);
	if (tdat_each_format(f, print_match, &m, &err) < 0) {
		fprintf(stderr, "tdat report: %s\n", err.msg);
		ret = 1;
	}
	tdat_close(f);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "tdat report: write error on output\n");
		ret = 1;
	}
out:
	if (m.pieces > 0)
		regfree(&m.sys);
	if (m.pieces > 1)
		regfree(&m.name);
	return ret;
}
