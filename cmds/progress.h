/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - the progress line of convert and merge (cmds/progress.c).
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>
#include <time.h>

/* Below this much data a run is too short for a progress line. */
#define PROGRESS_MIN_BYTES (64ull << 20)

struct progress {
	struct timespec last;
	uint64_t min_total;	/* totals below this: no line */
	int shown;
};

void progress_start(struct progress *p, uint64_t min_total);
/* A progress callback of the convert engine; ctx is a struct progress. */
void show_progress(void *ctx, uint64_t done, uint64_t total);
/* Clears the line if one was drawn. */
void end_progress(struct progress *p);

#endif
