/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.h - what the fuzz targets that run applets share: a private
 * directory for their input and output files, emptied after every run,
 * and an applet called with a copy of its argument list.
 */
#ifndef FUZZ_SCRATCH_H
#define FUZZ_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

/* The directory (made once, removed at exit): NULL if it cannot be. */
const char *scratch_dir(void);
/* dir/name, in a static buffer per slot (0..3). */
const char *scratch_path(int slot, const char *name);
/* Write data to dir/name: its path, or NULL. */
const char *scratch_write(int slot, const char *name, const uint8_t *data,
			  size_t size);
/* Remove every file in the directory (not with FUZZ_KEEP set: to look
 * at the files of an input replayed). */
void scratch_clean(void);
/* Standard output to /dev/null (reports would flood the fuzzer's log). */
void scratch_quiet_stdout(void);

/* Run an applet on a NULL-terminated argument list (copied, since getopt
 * permutes it): its exit status. */
int scratch_run(int (*applet)(int, char **), const char *const *args);

#endif
