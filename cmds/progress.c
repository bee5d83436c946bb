/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.c - the progress line of convert and merge: on stderr, a few
 * updates a second, "tdat NAME:  42% (...)".
 * The applet decides whether stderr is a TTY worth drawing on.
 */
#include <stdio.h>
#include "cmds/cmds.h"
#include "cmds/progress.h"

void progress_start(struct progress *p, uint64_t min_total)
{
	p->shown = 0;
	p->min_total = min_total;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
}

void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	struct timespec now;
	long ms;

	if (total < p->min_total)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - p->last.tv_sec) * 1000 +
	     (now.tv_nsec - p->last.tv_nsec) / 1000000;
	if (ms < 250 && done < total)
		return;
	p->last = now;
	p->shown = 1;
	fprintf(stderr, "\rtdat %s: %3u%% (%llu of %llu MiB)", cmd_name,
		(unsigned)(total ? done * 100 / total : 100),
		(unsigned long long)(done >> 20),
		(unsigned long long)(total >> 20));
}

void end_progress(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}
