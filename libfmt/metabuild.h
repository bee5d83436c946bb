/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metabuild.h - metadata made in memory, for writers (metabuild.c).
 *
 * Engines that write a file describe it with a struct tdat_file: a copy
 * of an input's metadata with buffers of their own (split, restore,
 * merge), or one made from scratch (record).  These calls make and fill
 * one, so that no engine allocates a struct tdat_file or touches what
 * only libfmt may (f->priv).  Close what they make with tdat_close.
 * Header fields, options and buffer flags stay plain fields to set.
 */
#ifndef LIBFMT_METABUILD_H
#define LIBFMT_METABUILD_H

#include "libfmt/tracedat.h"

/* An empty file of this layout: no parts, options or buffers, no path,
 * no file behind it.  NULL with err when out of memory. */
struct tdat_file *tdat_meta_new(int version, int big_endian, int long_size,
				uint32_t page_size, struct tdat_error *err);

/*
 * A copy of from's metadata: path, header fields, codec, every part (with
 * its stored form, read into memory: the copy needs no open file),
 * options, unknown sections, the strings table and the CPU count.  The
 * buffers too with TDAT_CLONE_BUFFERS, else none.  file_size is 0: no
 * file is behind the copy.  NULL with err (from's path) on failure.
 */
#define TDAT_CLONE_BUFFERS	1u
/* No part at all: the caller takes them over with tdat_meta_take. */
#define TDAT_CLONE_NO_PARTS	2u
struct tdat_file *tdat_meta_clone(const struct tdat_file *from,
				  unsigned what, struct tdat_error *err);

/* Append a buffer with no CPUs (clock NULL is ""): its index, or -1 when
 * out of memory. */
int tdat_meta_add_buffer(struct tdat_file *f, const char *name,
			 const char *clock, uint32_t page_size);
/* Append a copy of buffer from (flags, offsets, CPUs; it may be one of
 * f's own) named name (NULL: from's own name): its index, or -1 when
 * out of memory. */
int tdat_meta_copy_buffer(struct tdat_file *f, const struct tdat_buffer *from,
			  const char *name);
/* List CPU cpu in buffer buf (offset and size 0: a writer places the
 * data); a CPU already listed stays listed once.  -1 when out of memory. */
int tdat_meta_add_cpu(struct tdat_file *f, int buf, int cpu);

/* Replace part m by content (taken over; content is emptied) and mark it
 * present; its stored form is dropped. */
void tdat_meta_set(struct tdat_file *f, enum tdat_meta m,
		   struct tdat_blob *content);
/* Remove part m: its content and stored form are freed, and the file no
 * longer has it (tdat_meta_has says 0). */
void tdat_meta_drop(struct tdat_file *f, enum tdat_meta m);
/* Copy part m of from into to (which must not have it): content, and the
 * stored form (bytes read into memory) tied to the copy.  -1 with err. */
int tdat_meta_copy(struct tdat_file *to, const struct tdat_file *from,
		   enum tdat_meta m, struct tdat_error *err);
/* Move part m from from into to (which must not have it), decoded first
 * if it is pending: no copy is made, and no stored form goes with it (a
 * writer encodes the content).  from no longer has the part.  For big
 * parts (kallsyms) of a file the caller is done with.  -1 with err. */
int tdat_meta_take(struct tdat_file *to, struct tdat_file *from,
		   enum tdat_meta m, struct tdat_error *err);

#endif
