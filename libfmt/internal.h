/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - what libfmt's files share and applets do not see:
 * error construction, the bounds-checked byte cursor, file I/O and codecs.
 */
#ifndef LIBFMT_INTERNAL_H
#define LIBFMT_INTERNAL_H

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include "libfmt/tracedat.h"
#include "libfmt/stored.h"
#include "libfmt/pagecut.h"
#include "libfmt/chunkindex.h"
#include "libfmt/salvage.h"
#include "libfmt/outputs.h"
#include "libfmt/metabuild.h"

/* Largest metadata part or chunk we agree to hold in memory. */
#define TDAT_MAX_BLOB   (1u << 30)
#define TDAT_MAX_CHUNK  (256u << 20)
#define TDAT_MAX_PAGE   (1u << 24)

/*
 * The part of a struct tdat_file only libfmt touches (f->priv): the open
 * file, which metadata parts are present, and their stored forms.
 * Allocated with the file by file_alloc, so one free releases both.
 */
struct tdat_priv {
	int fd;			/* -1 for metadata made in memory */
	uint8_t meta_present[TDAT_META_COUNT];
	struct tdat_stored stored[TDAT_META_COUNT];
	struct tdat_time_shift *guest;	/* TIME_SHIFT, parsed (timeshift.c) */
	int nnotes;		/* what the reader worked around (tdat_note) */
	uint64_t allowance;	/* file size given to the budget while open */
	uint64_t meta_held;	/* decoded metadata charged to the budget */
	char **notes;
	unsigned header_end;	/* the initial header's size: 18, or 17
				 * with an empty version string */
};

/* timeshift.c: option o (TIME_SHIFT) of f, or NULL if malformed. */
struct tdat_time_shift *timeshift_parse(const struct tdat_file *f,
					const struct tdat_option *o);
/* ts of guest CPU cpu on the host's clock (NULL t: ts as it is). */
uint64_t timeshift_apply(const struct tdat_time_shift *t, int cpu,
			 uint64_t ts);
void timeshift_free(struct tdat_time_shift *t);

/* read.c: add "FILE: offset OFF: what" to f's notes; -1 out of memory. */
int file_note(struct tdat_file *f, uint64_t off, const char *what);

/* read.c: n bytes of decoded metadata kept by f, charged to the budget
 * until tdat_close; -1 with err (over the budget). */
int file_hold_meta(struct tdat_file *f, size_t n, uint64_t off,
		   struct tdat_error *err);

/* read.c: a zeroed file with its private part (fd -1), or NULL. */
struct tdat_file *file_alloc(void);

/* ---- budget.c: decoded data held at once, for the whole process ---- */

/* 1 if n more bytes fit now (a buffer about to be made and freed soon);
 * 0 with errno E2BIG if not. */
int budget_fits(uint64_t n);
/* Charge n bytes held: 0, or -1 with errno E2BIG when over the limit. */
int budget_take(uint64_t n);
void budget_give(uint64_t n);
/* An input of this size opened (its allowance added) or closed. */
void budget_allow_input(uint64_t input_size);
void budget_forget_input(uint64_t input_size);

/* ---- endian.c: tdat_load and tdat_store are in tracedat.h ---- */

/* ---- cursor.c: bounds-checked decoding of bytes that came from a file ---- */

struct cursor {
	const uint8_t *p;	/* start of the range */
	size_t len;
	size_t pos;
	int big;		/* byte order */
	const char *file;	/* for errors */
	uint64_t base;		/* file offset of p[0], for errors */
	struct tdat_error *err;	/* may be NULL: see failed */
	const char *failed;	/* the what of a read that failed, or NULL */
};

void cur_init(struct cursor *c, const void *p, size_t len, int big,
	      const char *file, uint64_t base, struct tdat_error *err);
size_t cur_left(const struct cursor *c);
uint64_t cur_offset(const struct cursor *c);	/* file offset of pos */
int cur_u8(struct cursor *c, uint8_t *v, const char *what);
int cur_u16(struct cursor *c, uint16_t *v, const char *what);
int cur_u32(struct cursor *c, uint32_t *v, const char *what);
int cur_u64(struct cursor *c, uint64_t *v, const char *what);
/* n bytes in place. */
int cur_bytes(struct cursor *c, size_t n, const uint8_t **out,
	      const char *what);
/* Step over n bytes, n as large as a size field in a file can say. */
int cur_skip(struct cursor *c, uint64_t n, const char *what);
/* A NUL-terminated string in place (the NUL must be inside the range). */
int cur_cstr(struct cursor *c, const char **out, const char *what);

/* ---- fileio.c ---- */

/* Read exactly n bytes at off of f, or fail naming what was cut. */
int fio_read_at(const struct tdat_file *f, uint64_t off, void *buf, size_t n,
		const char *what, struct tdat_error *err);
/* Allocate and read n bytes at off; n is checked against the file size. */
int fio_read_blob(const struct tdat_file *f, uint64_t off, uint64_t n,
		  struct tdat_blob *out, const char *what,
		  struct tdat_error *err);

/* ---- read.c ---- */
int read_v6_head(struct tdat_file *f, uint64_t *pos, int strict,
		 struct tdat_error *err);
/* v6clock.c: the clock record at off into b (its bracketed word; a
 * record that is not exactly "[clock]" is kept in f's own section). */
int v6clock_read(struct tdat_file *f, uint64_t off, struct tdat_buffer *b,
		 struct tdat_error *err);
/* The verbatim record kept for buffer name, when its word is clock: 1
 * with a copy in out (the caller frees it), 0 when there is none, -1. */
int v6clock_record(const struct tdat_file *m, const char *name,
		   const char *clock, struct tdat_blob *out,
		   struct tdat_error *err);
/* ownsection.c: sections of tdat's own, a list of (name, u32 len, data). */
int own_section_append(struct tdat_file *f, uint16_t id,
		       const char *description, const char *name,
		       const void *data, uint32_t len);
void own_section_drop(struct tdat_file *f, uint16_t id);
/* The entry at *pos of body: 1 and moves *pos past it, 0 at the end. */
int own_section_next(const struct tdat_file *m, const struct tdat_blob *body,
		     size_t *pos, const char **name, const uint8_t **data,
		     uint32_t *len);
/* The first entry of a section of that id (in file order) that match
 * takes (1): 1 with a copy of its data in out (to free), 0 when none
 * does, -1 (a body that cannot be decoded, memory). */
typedef int (*own_match_fn)(void *ctx, const char *name, const uint8_t *data,
			    uint32_t len);
int own_section_find(const struct tdat_file *m, uint16_t id,
		     own_match_fn match, void *ctx, struct tdat_blob *out,
		     struct tdat_error *err);
/* v6places.c: a v6 BUFFER option's place among the other options (the
 * number before it), noted while reading, dropped again by finish when
 * every one came after all the others; find: 1 and *place, 0, -1. */
int v6places_note(struct tdat_file *f, const char *name);
void v6places_finish(struct tdat_file *f);
int v6places_find(const struct tdat_file *m, const char *name,
		  uint32_t *place, struct tdat_error *err);
/* v6version.c: a v6 version string other than "6" (an empty one), kept
 * by the reader; find: 1 with it in buf, 0 when none was kept, -1. */
int v6version_keep(struct tdat_file *f, const char *text);
int v6version_find(const struct tdat_file *m, char *buf, size_t cap,
		   struct tdat_error *err);
/* lastboot.c: the hexadecimal number at p (16 digits at most, within
 * len) into *v; how many digits it has (0: none). */
size_t hex_prefix(const char *p, size_t len, uint64_t *v);
/* lastboot.c: a malformed LAST_BOOT_INFO option (id) at off becomes a
 * note of f; -1 out of memory. */
int lastboot_check(struct tdat_file *f, uint16_t id, const uint8_t *d,
		   uint32_t size, uint64_t off);
/* shownclock.c: the clock a v6 reader shows times by, from the option's
 * word and the top clock record's ("" when none). */
const char *shown_clock_pick(const char *option, const char *record);
/* v6shown.c: where a v6 file's clock record decides how times are shown,
 * keep (the reader, given the top record's text) its TRACECLOCK option and
 * the one a v7 file needs; option: that kept option, which "v6" or "v7",
 * 1 with a copy in out, 0 when none was kept, -1; bare_record: 1 when a
 * v6 output's top record must not name clock in brackets (a v7 file's
 * TRACECLOCK option alone decides how its times are shown). */
int v6shown_keep(struct tdat_file *f, const char *text, uint64_t len);
int v6shown_option(const struct tdat_file *m, const char *which,
		   struct tdat_blob *out, struct tdat_error *err);
int v6shown_bare_record(const struct tdat_file *m, const char *clock);
int read_v6_cpu_table(struct tdat_file *f, uint64_t off,
		      struct tdat_buffer *b, struct tdat_error *err);
void tdat_blob_free(struct tdat_blob *b);
int tdat_blob_dup(struct tdat_blob *dst, const void *p, size_t n);

/* ---- outfile.c: an output that appears whole (outputs.h) ---- */
struct outfile {
	int fd;			/* the file being written */
	int direct;		/* FIFO or descriptor's file to copy to, or -1 */
	int flags;		/* OUT_PROVISIONAL... */
	char *path;		/* final name */
	char *tmp;		/* temporary name where O_TMPFILE is missing */
	uint64_t pos;		/* current end, buffered bytes included */
	uint8_t *buf;		/* small appends not yet written (outfile.c) */
	size_t blen;		/* how many: they end at pos */
	uint64_t wb_next;	/* writeback not yet started from here on */
	int wb_off;		/* no writeback behind the writer (outsync.c) */
	int no_copy;		/* copy_file_range refused (outcopy.c) */
	/* copy_file_range(2), or a test's stand-in for it */
	ssize_t (*copy_range)(int in, off_t *in_off, int out, off_t *out_off,
			      size_t n, unsigned flags);
	/* sync_file_range(2), or a test's stand-in for it */
	int (*sync_range)(int fd, uint64_t off, uint64_t n, unsigned flags);
};

enum {
	OUT_PROVISIONAL = 1,	/* listed for tdat_outputs_discard once placed */
	OUT_NO_TMPFILE = 2,	/* (tests) as if the file system had no O_TMPFILE */
	OUT_UNNAMED_UNTIL_KEPT = 4,	/* held unnamed, named by
					 * tdat_outputs_keep */
};

/* outfile.c: the unnamed file fd under path, replacing what is there;
 * -1 with errno. */
int out_link_unnamed(int fd, const char *path);
int out_open(struct outfile *o, const char *path, int flags,
	     struct tdat_error *err);
int out_write(struct outfile *o, const void *p, size_t n,
	      struct tdat_error *err);
int out_pwrite(struct outfile *o, uint64_t off, const void *p, size_t n,
	       struct tdat_error *err);
/* Write what small appends left buffered (every other out_* call that
 * needs the file as written does it first). */
int out_flush(struct outfile *o, struct tdat_error *err);
/* Make pos the end again, dropping whatever lies past it. */
int out_truncate(struct outfile *o, uint64_t pos, struct tdat_error *err);
/* Zero-fill (as a hole) up to the next multiple of align. */
int out_align(struct outfile *o, uint64_t align, struct tdat_error *err);
/* Sync, then give the file its name (or copy it into o->direct). */
int out_commit(struct outfile *o, struct tdat_error *err);
void out_abort(struct outfile *o);
#define OUT_NAME_TRIES 100	/* unpredictable names tried before giving up */
/* ".NAME.tmp-RANDOM" beside path (so rename() stays in one file
 * system), malloc'ed; NULL when out of memory. */
char *out_temp_name(const char *path);
/* open() of a directory with O_TMPFILE failed: only unsupported there? */
int out_no_tmpfile(int e);

/* ---- outsync.c: writeback behind the writer ---- */
void outsync_init(struct outfile *o);
/* After the end moved: writeback started on the ranges completed, the
 * older ones waited for.  0, or -1 on an I/O error. */
int outsync_advance(struct outfile *o, struct tdat_error *err);
/* Writeback started on what is left, without waiting; 0 or -1. */
int outsync_start_rest(struct outfile *o, struct tdat_error *err);

/* ---- outcopy.c: input bytes appended by the kernel ---- */
/* n bytes of in_fd at off appended at o->pos; *done of them were.  0
 * (*done < n: the caller copies the rest itself) or -1 on an error. */
int out_copy_from(struct outfile *o, int in_fd, uint64_t off, uint64_t n,
		  uint64_t *done, struct tdat_error *err);

/* ---- outdirect.c: an output that exists and is not a regular file ---- */
/* 0: o->path is absent or a regular file (or a symlink to one): create
 * or replace it.  1: a FIFO or a descriptor's file (/dev/stdout), now
 * open in o->direct, with o->fd an unnamed scratch file.  -1: refused. */
int outdirect_open(struct outfile *o, struct tdat_error *err);
/* At commit: the scratch file into o->direct, which is closed. */
int outdirect_copy(struct outfile *o, struct tdat_error *err);

/* ---- outreg.c: the names tdat_outputs_discard removes ---- */
enum { OUTREG_TEMP, OUTREG_PROVISIONAL, OUTREG_UNNAMED, OUTREG_TREE };
/* Every signal blocked in this thread (old gets the mask to restore). */
void outreg_block(sigset_t *old);
void outreg_unblock(const sigset_t *old);
/* Call these with signals blocked.  add: 0 or -1 (out of memory). */
int outreg_add(const char *name, int kind);
/* Hold the finished unnamed file fd, to be named name by
 * tdat_outputs_keep: 0 (the list owns fd now), or -1 (too many held, or
 * out of memory: fd is still the caller's). */
int outreg_hold(const char *name, int fd);
void outreg_remove(const char *name);

/* ---- codec.c ---- */

/* A codec with its reusable library state (one per thread). */
struct codec_ctx {
	enum tdat_codec codec;
	int level;		/* 0 = trace-cmd's default for the codec */
	void *cctx;		/* ZSTD_CCtx, made on first use */
	void *dctx;		/* ZSTD_DCtx, made on first use */
};

void codec_ctx_init(struct codec_ctx *x, enum tdat_codec c, int level);
void codec_ctx_free(struct codec_ctx *x);
size_t codec_bound(enum tdat_codec c, size_t n);
/* Compress in into out (cap bytes); *outlen gets the size.  0 or -1. */
int codec_compress(struct codec_ctx *x, const void *in, size_t n, void *out,
		   size_t cap, size_t *outlen);
/* Decompress exactly expect bytes; 0, or -1 if data is corrupt or the
 * size does not match. */
int codec_decompress(struct codec_ctx *x, const void *in, size_t n, void *out,
		     size_t expect);
/* codec_check.c: does in decode to exactly expect bytes?  Checked through
 * a small window; the first headlen decoded bytes land in head.  0 or -1. */
int codec_check(enum tdat_codec c, const void *in, size_t n, size_t expect,
		void *head, size_t headlen);

/* ---- meta.c ---- */

/* Read the six v6 parts starting at *pos into f->meta; *pos moves past. */
int meta_read_v6_parts(struct tdat_file *f, uint64_t *pos,
		       struct tdat_error *err);
/* Learn commit width and page header size from the header_page text;
 * where is the headers part's file offset, for errors. */
int meta_parse_header_page(struct tdat_file *f, uint64_t where,
			   struct tdat_error *err);
/* meta_check_blob's why when a keyword is wrong (not a size field). */
#define META_KEYWORD_PAGE "expected the keyword \"header_page\""
#define META_KEYWORD_EVENT "expected the keyword \"header_event\""
/* Check the size fields (and keywords) inside a v7 metadata part
 * (16..21) against its length: 0, or -1 with *bad = position in the
 * part and *why. */
int meta_check_part(const struct tdat_file *f, int part, size_t *bad,
		    const char **why);
/* The same for a body b of part that is not (yet) in f. */
int meta_check_blob(const struct tdat_file *f, int part,
		    const struct tdat_blob *b, size_t *bad, const char **why);

/* ---- options.c ---- */

/* Options of one list, decoded into f (user options appended, buffers
 * and section offsets recorded).  v7 lists end with DONE and give next. */
struct option_sink {
	uint64_t meta_offset[TDAT_META_COUNT];	/* v7 section offsets, 0 = none */
	uint64_t next;				/* v7 DONE: next options section */
	uint64_t first_options;			/* from the header, for errors */
};
int options_parse_v6(struct tdat_file *f, uint64_t *pos,
		     struct tdat_error *err);
int options_parse_v7(struct tdat_file *f, const uint8_t *body, size_t len,
		     uint64_t base, struct option_sink *sink,
		     struct tdat_error *err);
int options_add(struct tdat_file *f, uint16_t id, uint32_t size,
		const void *data);
struct tdat_buffer *buffers_add(struct tdat_file *f);
/* Buffer i gone from f, with what it holds; the later ones move up. */
void buffers_drop(struct tdat_file *f, int i);

/* ---- sections.c (v7) ---- */

struct section_header {
	uint16_t id;
	uint16_t flags;
	int32_t string_id;
	uint64_t size;
	uint64_t offset;	/* of the header */
};
#define SECTION_HEADER_SIZE 16
#define SECTION_COMPRESSED 1

int section_read_header(struct tdat_file *f, uint64_t off,
			struct section_header *h, struct tdat_error *err);
/* The uncompressed body of a section (block-decompressed if flagged). */
int section_read_body(struct tdat_file *f, const struct section_header *h,
		      struct tdat_blob *out, struct tdat_error *err);
/* Walk all sections from the end of the header: strings and extras. */
int sections_scan(struct tdat_file *f, uint64_t first,
		  struct tdat_error *err);
const char *strings_lookup(const struct tdat_file *f, int32_t id);
/* A compressed block in a body of size bytes: checked at off in the file
 * without reading it all, or decoded from memory (p, as stored at off). */
int block_check_at(const struct tdat_file *f, uint64_t off, uint64_t size,
		   struct tdat_error *err);
int block_decode(const struct tdat_file *f, const uint8_t *p, uint64_t size,
		 uint64_t off, struct tdat_blob *out, struct tdat_error *err);
/* The same block only checked to decode (to *u bytes, the first headlen
 * of them in head), without keeping what it decodes to. */
int block_verify(const struct tdat_file *f, const uint8_t *p, uint64_t size,
		 uint64_t off, void *head, size_t headlen, uint32_t *u,
		 struct tdat_error *err);

/* ---- stored.c: v7 metadata sections kept as stored ---- */

/* n bytes at pos of part m's stored body, from memory or f's file. */
int stored_read(const struct tdat_file *f, int m, uint64_t pos, void *buf,
		size_t n, struct tdat_error *err);
/* The framing check of a v7 part (read.c): its size fields against the
 * body b of the section whose header is at off. */
int meta_check_v7(const struct tdat_file *f, int part,
		  const struct tdat_blob *b, uint64_t off, int compressed,
		  struct tdat_error *err);

/* ---- chunkindex.c ---- */

/* What can be checked of a compressed chunk without decoding it: the
 * codec's frame header and sizes.  NULL if sane, else what is wrong. */
const char *chunk_frame_check(enum tdat_codec c, const uint8_t *p,
			      uint32_t csize, uint32_t usize);

/* ---- chunkpool.c: parallel chunk compression, results in order ---- */

/*
 * Gets each finished chunk in submission order.  out has 8 free bytes
 * (for the u32 csize, u32 usize chunk header) followed by csize
 * compressed bytes; out is NULL if compressing that chunk failed.
 */
typedef int (*chunk_sink_fn)(void *ctx, uint8_t *out, uint32_t csize,
			     uint32_t usize, struct tdat_error *err);
struct chunkpool;

/* threads <= 1 compresses inline; NULL when out of memory. */
struct chunkpool *chunkpool_new(enum tdat_codec c, int level, int threads,
				size_t chunk_max, chunk_sink_fn sink,
				void *sink_ctx);
/* Input buffer (chunk_max bytes) of the next chunk; may sink old ones. */
uint8_t *chunkpool_buffer(struct chunkpool *p, struct tdat_error *err);
/* Queue the filled buffer (len bytes) for compression. */
int chunkpool_submit(struct chunkpool *p, size_t len, struct tdat_error *err);
/* Wait for every queued chunk and sink it. */
int chunkpool_drain(struct chunkpool *p, struct tdat_error *err);
void chunkpool_free(struct chunkpool *p);

#endif
