/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.c - the progress line of the long jobs: on a terminal's
 * stderr, "tdat NAME:  42%, about 12 s left", redrawn in place a few
 * times a second and erased at the end.  Jobs shorter than a second
 * never draw it (TDAT_PROGRESS_DELAY_MS sets that second: tests and
 * demos set 0), and nothing is drawn when stderr is not a terminal or -q
 * was given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "cmds/progress.h"

#define FIRST_MS 1000	/* no line for jobs shorter than this */
#define EVERY_MS 250

static long ms_since(const struct timespec *t, const struct timespec *now)
{
	return (now->tv_sec - t->tv_sec) * 1000 +
	       (now->tv_nsec - t->tv_nsec) / 1000000;
}

void progress_start(struct progress *p, int quiet)
{
	const char *delay = getenv("TDAT_PROGRESS_DELAY_MS");

	p->delay_ms = delay && *delay ? atol(delay) : FIRST_MS;
	p->shown = 0;
	p->enabled = !quiet && isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

/* "about 12 s left", "about 3 min left", or "" before there is a rate. */
static void eta(char *buf, size_t cap, long elapsed_ms, uint64_t done,
		uint64_t total)
{
	double left;

	buf[0] = 0;
	if (!done || done >= total)
		return;
	left = (double)elapsed_ms / 1000.0 * (double)(total - done) /
	       (double)done;
	if (left < 90)
		snprintf(buf, cap, ", about %.0f s left", left + 0.5);
	else
		snprintf(buf, cap, ", about %.0f min left", left / 60 + 0.5);
}

void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	struct timespec now;
	long elapsed;
	char left[40];

	if (!p->enabled)
		return;
	if (total && done >= total) {	/* all done: the line goes */
		end_progress(p);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	elapsed = ms_since(&p->start, &now);
	if (elapsed < p->delay_ms ||
	    (p->shown && ms_since(&p->last, &now) < EVERY_MS))
		return;
	p->last = now;
	p->shown = 1;
	eta(left, sizeof(left), elapsed, done, total);
	fprintf(stderr, "\rtdat %s: %3u%%%s\033[K", cmd_name,
		(unsigned)(total ? (done > total ? 100 : done * 100 / total) :
			   100), left);
}

void end_progress(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
