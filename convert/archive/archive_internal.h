/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * archive_internal.h - what the files of convert/archive/ share (the
 * interface is archive.h).
 *
 * tree.c finds the files under the paths given; one.c archives one file
 * in place (in a child process of its own); same.c compares an archive
 * with its original; jobs.c runs the children, a few at once, and adds
 * up what they did.
 */
#ifndef ARCHIVE_INTERNAL_H
#define ARCHIVE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "convert/archive/archive.h"
#include "libfmt/tracedat.h"

/* An archive's own name beside its original NAME: ".NAME" this. */
#define ARCHIVE_SUFFIX ".tdat-archive"

/* ---- same.c ---- */

/* 0 when b holds what a holds; 1 when not, -1 when one could not be
 * read (why says what, in one line). */
int archive_same(struct tdat_file *a, struct tdat_file *b, char *why,
		 size_t cap);

/* ---- tree.c ---- */

struct tree {
	char **files;		/* candidates: regular files, not links */
	int n, cap;
	int others;		/* left alone and said: not trace.dat, links */
	int missing;		/* a path given that is not there */
	const struct shard *shard;	/* the part walked, or NULL */
	struct joblog *log;	/* what is left alone goes there too */
	struct pathlist given;	/* the files given by name, not found */
};

/* Every file under the paths (directories recursed, symlinks never
 * followed) that the shard takes, in name order; what is left alone
 * said on stderr and logged, and the leftovers of an archive run that
 * was killed removed. */
int tree_find(struct tree *t, char **paths, int n, const struct shard *s,
	      struct joblog *log);
void tree_free(struct tree *t);

/* ---- leftover.c ---- */

/* The original a leftover of a killed run belongs to, malloc'd, or
 * NULL: for the archive's own name ".NAME.tdat-archive", or libfmt's
 * temporary name of that ("." before it, ".tmp-HEX" after), NAME. */
char *leftover_original(const char *name);
/* The leftovers of the files given by name removed (each directory
 * read once): a list or a shard gives files, not directories, and a
 * file system without unnamed files (NFS) leaves named ones.  0, or
 * -1 out of memory. */
int leftover_sweep(const struct pathlist *given);

/* ---- one.c ---- */

enum one_result {
	ONE_ARCHIVED,
	ONE_SKIPPED,		/* archived already */
	ONE_LEFT,		/* not a trace.dat, other links: said */
	ONE_FAILED,		/* damaged, unwritable, not the same: said */
};

struct one_report {
	enum one_result result;
	uint64_t before, after;	/* bytes */
	char reason[480];	/* why not archived (the line said), or "" */
};

/* Archive path in place, as archive.h says; its errors on stderr. */
void one_archive(const char *path, const struct archive_opts *o,
		 int threads, struct one_report *rep);

#endif
