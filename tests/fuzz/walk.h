/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.h - a file read whole, as the fuzz targets that write files check
 * their outputs: opened, every page of every CPU and every event in
 * them walked.
 */
#ifndef FUZZ_WALK_H
#define FUZZ_WALK_H

enum { WALK_CLEAN = 0, WALK_DAMAGED = 1, WALK_UNOPENED = -1 };

/* WALK_CLEAN, WALK_DAMAGED (a page or event did not read), or
 * WALK_UNOPENED (tdat_open refused it). */
int walk_file(const char *path);

/* Stop the fuzzer with this message (on stderr when it is open). */
void walk_trap(const char *what, const char *path) __attribute__((noreturn));

#endif
