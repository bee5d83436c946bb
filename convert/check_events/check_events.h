/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_events.h - the check-events engine's interface: parse every
 * event format (and header_page) of the live tracefs or of a trace.dat
 * with libtraceevent, and name each one that fails.
 */
#ifndef TDAT_CHECK_EVENTS_H
#define TDAT_CHECK_EVENTS_H

#include <event-parse.h>

struct check_events_opts {
	const char *input;	/* -i, or NULL for the live tracefs */
	int plugins;		/* load libtraceevent plugins (0 with -N) */
	enum tep_loglevel loglevel;	/* libtraceevent's own messages */
};

/*
 * One line per format that fails, then a summary line, on stdout; why
 * the input cannot be read, on stderr.  Returns the exit status: 0 when
 * every format parses, 1 when one does not or the input cannot be read.
 */
int check_events_run(const struct check_events_opts *o);

#endif
