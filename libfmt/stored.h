/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stored.h - v7 metadata sections opened lazily or kept as stored (stored.c).
 *
 * For engines that copy or compare big metadata (merge): parts can be
 * left compressed until needed, compared by their stored bytes, and
 * handed to a writer of the same codec without compressing them again.
 */
#ifndef LIBFMT_STORED_H
#define LIBFMT_STORED_H

#include "libfmt/tracedat.h"

/*
 * A v7 metadata section's body as the file stores it: one compression
 * block (u32 csize, u32 usize, data), still compressed.  Kept only when
 * asked (tdat_open_flags), so that a writer of the same codec can copy it
 * instead of compressing meta[i] again, and so that two files' sections
 * can be compared without decompressing them.  It stands for meta[i] only
 * while meta[i] is the content it decodes to: tdat_meta_stored() checks
 * that (content and content_len are the meta[i] it was decoded into), and
 * tdat_meta_set() drops it.  Change meta[i] only through tdat_meta_set().
 */
struct tdat_stored {
	struct tdat_blob bytes;	/* the body; empty while only located */
	uint64_t offset;	/* the section header in the file (for errors) */
	uint64_t size;		/* body bytes */
	enum tdat_codec codec;
	int big_endian;		/* of the block header */
	int pending;		/* meta[i] not decoded yet: tdat_meta_load */
	const uint8_t *content;	/* meta[i].data it decodes to */
	size_t content_len;
};

/*
 * Opening with flags (0 is tdat_open).  For v7 files whose metadata
 * sections are compressed:
 *   TDAT_OPEN_KEEP_STORED  decode every section as tdat_open does, and
 *                          keep its stored bytes too;
 *   TDAT_OPEN_LAZY_META    decode only the headers section (page layout);
 *                          the others are located, checked for size, and
 *                          left pending (tdat_meta_has() says 1, meta[i]
 *                          empty) until tdat_meta_load().  The stored
 *                          bytes of pending sections are read from the
 *                          file when needed, so the file must stay open.
 * A file with pending sections is only for the tdat_meta_* calls below
 * and in metabuild.h, and the v7 writer; load them before anything else
 * reads meta[].
 */
#define TDAT_OPEN_KEEP_STORED	1u
#define TDAT_OPEN_LAZY_META	2u
struct tdat_file *tdat_open_flags(const char *path, unsigned flags,
				  struct tdat_error *err);

/* 1 if part m is still to be decoded (opened with TDAT_OPEN_LAZY_META). */
int tdat_meta_pending(const struct tdat_file *f, enum tdat_meta m);
/* Decode a pending part into meta[m] (checked as tdat_open checks it);
 * 0 if it was not pending.  -1 with err naming the file and offset. */
int tdat_meta_load(struct tdat_file *f, enum tdat_meta m,
		   struct tdat_error *err);
/* Check that a pending part decodes as tdat_meta_load would have it,
 * without keeping what it decodes to (big texts go through a small
 * window).  0 if it does or is not pending; -1 with err as at open. */
int tdat_meta_check(const struct tdat_file *f, enum tdat_meta m,
		    struct tdat_error *err);
/* Part m's content, decoded from its stored bytes if it is pending, as a
 * copy the caller frees.  For writers given a const file. */
int tdat_meta_decode(const struct tdat_file *f, enum tdat_meta m,
		     struct tdat_blob *out, struct tdat_error *err);
/* The stored form of part m, or NULL when there is none or meta[m] is no
 * longer what it decodes to. */
const struct tdat_stored *tdat_meta_stored(const struct tdat_file *f,
					   enum tdat_meta m);
/* Are part m of a and b known equal by their stored bytes (both stored,
 * same codec and byte order, same bytes)?  1 yes, 0 not known (they may
 * still be equal once decoded), -1 on a read error. */
int tdat_meta_same_stored(const struct tdat_file *a, const struct tdat_file *b,
			  enum tdat_meta m, struct tdat_error *err);
/* Forget the stored form of part m (its bytes are freed). */
void tdat_meta_drop_stored(struct tdat_file *f, enum tdat_meta m);

/* The body of an unknown section, decompressed if it is flagged
 * compressed (with f's codec), as a copy the caller frees. */
int tdat_extra_decode(const struct tdat_file *f,
		      const struct tdat_extra_section *x, struct tdat_blob *out,
		      struct tdat_error *err);

#endif
