/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wholefile.h - a plain output file of the caller's (an export) that
 * appears whole or not at all, as libfmt's own outputs do (outfile.c):
 * written unnamed beside its name, synced, then linked in place; nothing
 * planted at the name is followed, and a signal leaves nothing behind
 * (outputs.h).  An existing FIFO or /dev/stdout gets the bytes at the end.
 */
#ifndef TDAT_WHOLEFILE_H
#define TDAT_WHOLEFILE_H

#include <stddef.h>
#include <stdint.h>

struct tdat_error;
struct tdat_wholefile;

/* NULL with err when path cannot be made. */
struct tdat_wholefile *tdat_wholefile_open(const char *path,
					   struct tdat_error *err);
/* Append n bytes.  0, or -1 with err. */
int tdat_wholefile_write(struct tdat_wholefile *w, const void *p, size_t n,
			 struct tdat_error *err);
/* Bytes written so far. */
uint64_t tdat_wholefile_size(const struct tdat_wholefile *w);
/* Sync and give the file its name; w is freed either way.  0 or -1. */
int tdat_wholefile_commit(struct tdat_wholefile *w, struct tdat_error *err);
/* Drop it: nothing appears; w is freed. */
void tdat_wholefile_abort(struct tdat_wholefile *w);

#endif
