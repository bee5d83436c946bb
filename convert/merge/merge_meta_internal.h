/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_meta_internal.h - what the files joining the inputs' metadata
 * share (private to merge_meta.c, merge_formats.c, merge_texts.c,
 * merge_options.c, merge_extras.c and merge_parts.c; the rest of the merge
 * engine sees only the meta_* entry points in merge_internal.h).
 */
#ifndef MERGE_META_INTERNAL_H
#define MERGE_META_INTERNAL_H

#include "convert/merge/merge_internal.h"

/* The input being joined, for messages, and what is known of it. */
struct who {
	const char *file, *first;
	struct tdat_error *err;
	unsigned known;		/* parts known equal by their stored bytes */
	struct merge_ctx *mc;	/* for warnings; may be NULL */
};

/* ---- merge_parts.c ---- */

/* 0, or -1 when out of memory. */
int blob_copy(struct tdat_blob *to, const struct tdat_blob *from);
int blob_equal(const struct tdat_blob *a, const struct tdat_blob *b);
/* Append bytes to a growing blob (cap: its allocated size). */
int blob_add(struct tdat_blob *b, size_t *cap, const void *p, size_t n);
/* Is part the same in m and f: known so, or compared? */
int same_part(const struct tdat_file *m, const struct tdat_file *f,
	      int part, const struct who *w);
/* "FILE: cannot be merged with FIRST: what" into w->err; returns -1. */
int conflict(const struct who *w, const char *what);

/* ---- merge_formats.c ---- */

/* The union of the event formats; -1 on a conflict. */
int join_formats(struct tdat_file *m, const struct tdat_file *f,
		 const struct who *w);

/* ---- merge_texts.c ---- */

/* Part (kallsyms, printk, cmdlines) of m becomes its text plus the lines
 * only f has. */
int join_text(struct tdat_file *m, const struct tdat_file *f,
	      enum tdat_meta part, const struct who *w);
/* BTF and modules: raw files of the boot; the larger one wins. */
int join_raw(struct tdat_file *m, const struct tdat_file *f,
	     enum tdat_meta part, const struct who *w);

/* ---- merge_options.c ---- */

/* Check the options that must match and add f's others to m. */
int join_options(struct tdat_file *m, const struct tdat_file *f,
		 const struct who *w);
/* A CPUCOUNT among the user options says the largest count. */
void fix_cpucount_option(struct tdat_file *m);

/* ---- merge_extras.c ---- */

/* Add f's unknown sections that m does not hold yet. */
int join_extras(struct tdat_file *m, const struct tdat_file *f,
		const struct who *w);

#endif
