/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - the progress line of the long jobs (cmds/progress.c):
 * convert, merge, split.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>
#include <time.h>

struct progress {
	struct timespec start, last;
	int enabled;		/* stderr is a terminal and no -q */
	long delay_ms;		/* before the first line */
	int shown;
};

/* quiet: -q.  The line is drawn only on a terminal. */
void progress_start(struct progress *p, int quiet);
/* A progress callback of the engines; ctx is a struct progress.  Drawn
 * once the job has run a second, then four times a second. */
void show_progress(void *ctx, uint64_t done, uint64_t total);
/* Clears the line if one was drawn. */
void end_progress(struct progress *p);

#endif
