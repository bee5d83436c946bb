/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs.h - the live tracefs: where it is mounted, and reading it.
 *
 * Small on purpose; check-events, record and sysmeta.c use it.  Names
 * start with tfs_ so they never clash with libtracefs's tracefs_*.
 * Errors are values as in libfmt: -1 and a struct tdat_error holding one
 * line that names the path and what is wrong.
 */
#ifndef TDAT_TRACEFS_H
#define TDAT_TRACEFS_H

#include <stddef.h>
#include "libfmt/tracedat.h"	/* struct tdat_error, struct tdat_blob */

/* The most a control file may hold before tfs_read refuses it. */
#define TFS_READ_MAX (64u << 20)

/*
 * Find the tracefs mount: /sys/kernel/tracing, /sys/kernel/debug/tracing,
 * then any tracefs entry of /proc/mounts.  When there is none, mount one
 * at /sys/kernel/tracing (this needs root).  Nothing is ever unmounted.
 * The directory is written to dir (cap bytes).
 */
int tfs_find(char *dir, size_t cap, struct tdat_error *err);
/* The control directory of a buffer of the tracefs at top: top itself
 * for the top buffer (name ""), else top/instances/NAME. */
int tfs_buffer_dir(const char *top, const char *name, char *dir, size_t cap,
		   struct tdat_error *err);

/*
 * Read the whole file dir/name.  tracefs files report a size of 0, so
 * this reads to the end, up to TFS_READ_MAX bytes.  out->data is owned by
 * the caller and NUL-terminated (the NUL is not counted in out->len).
 */
int tfs_read(const char *dir, const char *name, struct tdat_blob *out,
	     struct tdat_error *err);
/* The same with room bytes left at the start of out->data, counted in
 * out->len, for the caller to fill: a size before a big text (kallsyms)
 * without copying it. */
int tfs_read_after(const char *dir, const char *name, size_t room,
		   struct tdat_blob *out, struct tdat_error *err);

/* Names of the subdirectories of dir/name, sorted. */
struct tfs_names {
	char **v;
	int n;
};
int tfs_subdirs(const char *dir, const char *name, struct tfs_names *out,
		struct tdat_error *err);
void tfs_names_free(struct tfs_names *names);

/*
 * Write text to the control file dir/name (open, one write, close): the
 * kernel takes each write as one command.  Errors name the path and the
 * kernel's answer.
 */
int tfs_write(const char *dir, const char *name, const char *text,
	      struct tdat_error *err);
/* Same, opening with O_TRUNC (set_event, filters: clear, then set). */
int tfs_write_trunc(const char *dir, const char *name, const char *text,
		    struct tdat_error *err);
/* 1 if dir/name exists, else 0. */
int tfs_exists(const char *dir, const char *name);
/* 1 if dir/name is a directory. */
int tfs_is_dir(const char *dir, const char *name);

/* Create and remove the instance dir/instances/name. */
int tfs_instance_create(const char *dir, const char *name,
			struct tdat_error *err);
int tfs_instance_remove(const char *dir, const char *name,
			struct tdat_error *err);

#endif
