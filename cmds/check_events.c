/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_events.c - the check-events applet: its command line, read into
 * struct check_events_opts; the checking is check_events_run's
 * (convert/check_events/).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <event-parse.h>
#include "cmds/cmds.h"
#include "convert/check_events/check_events.h"

static const char usage[] =
"usage: tdat check-events [-N] [-i FILE] [--verbose[=LEVEL]]\n"
"\n"
"Parse every event format of the live tracefs (mounted if needed), or of\n"
"the formats stored in FILE, with libtraceevent; print each format that\n"
"fails and why, then a summary line.\n"
"\n"
"  -i FILE             check the formats stored in this trace.dat\n"
"  -N                  do not load libtraceevent plugins\n"
"  --verbose[=LEVEL]   libtraceevent messages: none, critical, error,\n"
"                      warning, info, debug, all, or 0 to 6 (default\n"
"                      none; info when LEVEL is left out)\n"
"  -h, --help          show this help\n"
"\n"
"Exit status: 0 when every format parses, 1 when one does not or the\n"
"input cannot be read, 2 on usage errors.  (trace-cmd check-events exits\n"
"0 even when formats fail.)\n";

enum { OPT_VERBOSE = 256 };

static const struct option long_opts[] = {
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* trace-cmd's level names, or their numbers. */
static int parse_loglevel(const char *s, enum tep_loglevel *level)
{
	static const char *const names[] = {
		"none", "critical", "error", "warning", "info", "debug", "all",
	};
	int i;

	for (i = 0; i <= TEP_LOG_ALL; i++) {
		if (!strcmp(s, names[i]) ||
		    (s[0] == '0' + i && s[1] == 0)) {
			*level = (enum tep_loglevel)i;
			return 0;
		}
	}
	return -1;
}

static int parse_args(struct check_events_opts *a, int argc, char **argv)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->plugins = 1;
	a->loglevel = TEP_LOG_NONE;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:N", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 1;
		case 'i':
			a->input = optarg;
			break;
		case 'N':
			a->plugins = 0;
			break;
		case OPT_VERBOSE:
			if (!optarg)
				a->loglevel = TEP_LOG_INFO;
			else if (parse_loglevel(optarg, &a->loglevel))
				return usage_error("--verbose: \"%s\" is not a"
						   " level (none ... all, 0 to"
						   " 6)", optarg);
			break;
		default:
			return getopt_error(c, argv, optind, long_opts);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument \"%s\"", argv[optind]);
	return 0;
}

int cmd_check_events(int argc, char **argv)
{
	struct check_events_opts a;
	int r;

	cmd_name = "check-events";
	r = parse_args(&a, argc, argv);
	if (r)
		return r == 1 ? 0 : r;
	return check_events_run(&a);
}
