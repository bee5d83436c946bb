/*
 * tracedat.h - libfmt, the trace.dat (v6 and v7) format library.
 *
 * One public header for every applet.  The model is simple: tdat_open()
 * parses all metadata of a file into a struct tdat_file (small: texts,
 * options, the buffer table) and leaves trace data on disk.  Trace data is
 * streamed a page (or a compressed chunk) at a time through a
 * tdat_cpu_reader, and written through a tdat_writer, so memory stays
 * bounded whatever the file size.
 *
 * Errors are values: every function that can fail returns -1 (or NULL) and
 * fills a struct tdat_error with one line naming the file, the byte offset
 * and what is wrong.  The library never prints, exits or aborts.
 */
#ifndef TRACEDAT_H
#define TRACEDAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ---- errors ---------------------------------------------------------- */

struct tdat_error {
	char msg[512];		/* "FILE: offset N: what is wrong" */
};

/* Fill err (may be NULL) with a printf-style line, kept on one printable
 * line; returns -1 so callers can "return tdat_errorf(...)". */
int tdat_errorf(struct tdat_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "FILE: offset OFF: what", the usual form; returns -1.  file may be
 * NULL ("?"). */
int tdat_fail(struct tdat_error *err, const char *file, uint64_t off,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Same without an offset: "FILE: what". */
int tdat_fail_nooff(struct tdat_error *err, const char *file,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* tdat_errorf and tdat_fail for wrappers that take their own "...". */
int tdat_verrorf(struct tdat_error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
int tdat_vfail(struct tdat_error *err, const char *file, uint64_t off,
	       const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* ---- small value types ----------------------------------------------- */

struct tdat_blob {
	uint8_t *data;		/* owned; NULL when len == 0 */
	size_t len;
};

enum tdat_codec {
	TDAT_CODEC_NONE = 0,
	TDAT_CODEC_ZLIB,
	TDAT_CODEC_ZSTD,
};

/* Option ids (FORMAT.md section 5).  Section ids reuse them. */
enum {
	TDAT_OPT_DONE = 0,
	TDAT_OPT_DATE = 1,
	TDAT_OPT_CPUSTAT = 2,
	TDAT_OPT_BUFFER = 3,
	TDAT_OPT_TRACECLOCK = 4,
	TDAT_OPT_UNAME = 5,
	TDAT_OPT_HOOK = 6,
	TDAT_OPT_OFFSET = 7,
	TDAT_OPT_CPUCOUNT = 8,
	TDAT_OPT_VERSION = 9,
	TDAT_OPT_PROCMAPS = 10,
	TDAT_OPT_TRACEID = 11,
	TDAT_OPT_TIME_SHIFT = 12,
	TDAT_OPT_GUEST = 13,
	TDAT_OPT_TSC2NSEC = 14,
	TDAT_OPT_STRINGS = 15,
	TDAT_OPT_HEADER_INFO = 16,
	TDAT_OPT_FTRACE_EVENTS = 17,
	TDAT_OPT_EVENT_FORMATS = 18,
	TDAT_OPT_KALLSYMS = 19,
	TDAT_OPT_PRINTK = 20,
	TDAT_OPT_CMDLINES = 21,
	TDAT_OPT_BUFFER_TEXT = 22,
	TDAT_OPT_BTF_FILE = 23,
	TDAT_OPT_LAST_BOOT_INFO = 24,
	TDAT_OPT_MODULES_FILE = 25,
};

/*
 * Metadata parts.  The index is the v7 section id minus TDAT_META_FIRST.
 * Each blob holds the uncompressed section body, which for 16..21 is
 * byte for byte the matching v6 part (size fields included).
 */
enum tdat_meta {
	TDAT_META_HEADERS = 0,	/* 16: "header_page\0" ... header_event text */
	TDAT_META_FTRACE,	/* 17: u32 count, formats */
	TDAT_META_EVENTS,	/* 18: u32 nsys, systems */
	TDAT_META_KALLSYMS,	/* 19: u32 size + text */
	TDAT_META_PRINTK,	/* 20: u32 size + text */
	TDAT_META_CMDLINES,	/* 21: u64 size + text */
	TDAT_META_V6_COUNT,	/* the parts v6 can hold end here */
	TDAT_META_BTF = 7,	/* 23: raw bytes (v7 only) */
	TDAT_META_MODULES = 9,	/* 25: raw bytes (v7 only) */
	TDAT_META_COUNT = 10,
};
#define TDAT_META_FIRST 16

/* A user option, kept as raw bytes in file order. */
struct tdat_option {
	uint16_t id;
	uint32_t size;
	uint8_t *data;		/* owned, size bytes */
};

/* One CPU of a buffer as the file records it. */
struct tdat_cpu {
	int cpu;		/* CPU id */
	uint64_t offset;	/* absolute offset of the stream */
	uint64_t size;		/* recorded size (v7 compressed: may be 4 short) */
};

/* A buffer: the top one (name "") or an instance. */
struct tdat_buffer {
	char *name;		/* "" for the top buffer */
	char *clock;		/* clock name, no brackets; "" if unknown */
	uint32_t page_size;
	int latency;		/* latency text instead of CPU pages */
	int compressed;		/* v7: section flag bit 0 */
	uint64_t section_offset;/* v7 section header, v6 "flyrecord" keyword */
	int ncpus;		/* entries in cpus[] */
	struct tdat_cpu *cpus;	/* v6: dense 0..n-1 incl. empty; v7: as listed */
	uint64_t latency_offset;/* latency text (or its chunk stream) */
	uint64_t latency_size;
};

/* A v7 section libfmt does not interpret, kept verbatim. */
struct tdat_extra_section {
	uint16_t id;
	uint16_t flags;
	char *description;	/* from the strings table, or NULL */
	struct tdat_blob body;	/* as stored (still compressed if flagged) */
	uint64_t offset;	/* its section header in the file, 0 if made */
};


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

struct tdat_file {
	char *path;
	int fd;
	uint64_t file_size;

	/* initial header */
	int version;		/* 6 or 7 */
	int big_endian;
	int long_size;		/* the header byte (user space long) */
	uint32_t page_size;

	/* v7 compression */
	enum tdat_codec codec;
	char *codec_name;	/* as in the file: "none", "zstd", "zlib" */
	char *codec_version;

	/* learnt from header_page */
	int commit_size;	/* width of the page commit word: 4 or 8 */
	int page_header_size;	/* 8 + commit_size, or header_page's data offset */

	struct tdat_blob meta[TDAT_META_COUNT];
	uint8_t meta_present[TDAT_META_COUNT];

	uint32_t cpu_count;	/* v6 header count; v7 CPUCOUNT; see tdat_cpus() */
	int has_cpucount;	/* v7: a structural CPUCOUNT was present */

	int noptions;		/* user options, file order */
	struct tdat_option *options;

	int nbuffers;		/* top buffer first when present */
	struct tdat_buffer *buffers;

	int nextra;		/* v7 sections of unknown id */
	struct tdat_extra_section *extra;

	struct tdat_blob strings;	/* v7: the strings table */

	/* v7: compressed metadata sections as stored (tdat_open_flags). */
	struct tdat_stored stored[TDAT_META_COUNT];
};

/* ---- opening and inspecting files ------------------------------------ */

/* Parse all metadata.  Returns NULL and fills err on failure. */
struct tdat_file *tdat_open(const char *path, struct tdat_error *err);
void tdat_close(struct tdat_file *f);
/*
 * Parse only the initial header (version, byte order, long size, page
 * size), for callers that need no more and must work on files damaged
 * further on.  Nothing else in f is filled in.  Close with tdat_close.
 */
struct tdat_file *tdat_open_header(const char *path, struct tdat_error *err);

/*
 * Opening with flags (0 is tdat_open).  For v7 files whose metadata
 * sections are compressed:
 *   TDAT_OPEN_KEEP_STORED  decode every section as tdat_open does, and
 *                          keep its stored bytes too (f->stored[i]);
 *   TDAT_OPEN_LAZY_META    decode only the headers section (page layout);
 *                          the others are located, checked for size, and
 *                          left pending (meta_present[i] set, meta[i]
 *                          empty) until tdat_meta_load().  The stored
 *                          bytes of pending sections are read from the
 *                          file when needed, so the file must stay open.
 * A file with pending sections is only for the tdat_meta_* calls below
 * and the v7 writer; load them before anything else reads meta[].
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
/* Replace part m by content (taken over; content is emptied) and mark it
 * present; its stored form is dropped. */
void tdat_meta_set(struct tdat_file *f, enum tdat_meta m,
		   struct tdat_blob *content);
/* Forget the stored form of part m (its bytes are freed). */
void tdat_meta_drop_stored(struct tdat_file *f, enum tdat_meta m);
/* Copy part m of from into to (which must not have it): content, and the
 * stored form (bytes read into memory) tied to the copy.  -1 with err. */
int tdat_meta_copy(struct tdat_file *to, const struct tdat_file *from,
		   enum tdat_meta m, struct tdat_error *err);

/* The body of an unknown section, decompressed if it is flagged
 * compressed (with f's codec), as a copy the caller frees. */
int tdat_extra_decode(const struct tdat_file *f,
		      const struct tdat_extra_section *x, struct tdat_blob *out,
		      struct tdat_error *err);

/* The CPU count readers show as cpus=N (v7: max of CPUCOUNT and ids+1). */
uint32_t tdat_cpus(const struct tdat_file *f);

/* Stored bytes of trace data (CPU streams and latency text) in f. */
uint64_t tdat_data_size(const struct tdat_file *f);

/* The top buffer, or NULL when the file has none. */
const struct tdat_buffer *tdat_top_buffer(const struct tdat_file *f);

/* Last option with this id, or NULL. */
const struct tdat_option *tdat_find_option(const struct tdat_file *f,
					   uint16_t id);

/* Append a copy of option o to f's options.  -1 when out of memory. */
int tdat_add_option(struct tdat_file *f, const struct tdat_option *o);

/*
 * Known options, decoded (the last one of an id wins, as in trace-cmd).
 * Each returns 1 with the value, or 0 when the option is absent or
 * malformed.
 */
/* UNAME, VERSION, HOOK, LAST_BOOT_INFO...: NUL-terminated text in f. */
int tdat_opt_string(const struct tdat_file *f, uint16_t id, const char **s);
/* TRACECLOCK: the selected clock, the word in brackets ("local"). */
int tdat_opt_clock(const struct tdat_file *f, char *buf, size_t cap);
/* DATE (microseconds) and OFFSET (nanoseconds): numbers kept as text. */
int tdat_opt_number(const struct tdat_file *f, uint16_t id, long long *v);
/* CPUCOUNT (u32) and TRACEID (u64). */
int tdat_opt_u32(const struct tdat_file *f, uint16_t id, uint32_t *v);
int tdat_opt_u64(const struct tdat_file *f, uint16_t id, uint64_t *v);
struct tdat_tsc2nsec {
	uint32_t mult, shift;
	uint64_t offset;
};
int tdat_opt_tsc2nsec(const struct tdat_file *f, struct tdat_tsc2nsec *t);

/*
 * The timestamps readers show (tsadjust.c): raw record times scaled by
 * TSC2NSEC ((ts * mult) >> shift, its offset field unused), then plus
 * DATE * 1000 + OFFSET nanoseconds, as trace-cmd report does.  Applets
 * may add their own offset to a->offset after init.
 */
struct tdat_ts_adjust {
	int64_t offset;		/* ns added after scaling */
	uint32_t mult, shift;	/* TSC2NSEC scaling when mult != 0 */
};
#define TDAT_TS_NODATE	1u	/* leave DATE out (report --nodate) */
#define TDAT_TS_RAW	2u	/* no adjustment at all (report --raw-ts) */
void tdat_ts_adjust_init(const struct tdat_file *f, unsigned flags,
			 struct tdat_ts_adjust *a);
uint64_t tdat_ts_apply(const struct tdat_ts_adjust *a, uint64_t ts);

/* The text of a kallsyms, printk or cmdlines part (points into f). */
int tdat_meta_text(const struct tdat_file *f, enum tdat_meta m,
		   const char **text, size_t *len, struct tdat_error *err);
/* header_page and header_event texts (point into f). */
int tdat_header_texts(const struct tdat_file *f, const char **page,
		      size_t *page_len, const char **event, size_t *event_len,
		      struct tdat_error *err);
/*
 * Call fn for every event format text: the ftrace ones (system
 * "ftrace") first, then each system's, in file order.  A non-zero
 * return from fn stops the walk and is returned; -1 on a framing error.
 */
typedef int (*tdat_format_fn)(void *ctx, const char *system,
			      const char *text, size_t len);
int tdat_each_format(const struct tdat_file *f, tdat_format_fn fn, void *ctx,
		     struct tdat_error *err);

/* Byte-order helpers on file data (the one place byte order is decided). */
uint16_t tdat_get16(const struct tdat_file *f, const void *p);
uint32_t tdat_get32(const struct tdat_file *f, const void *p);
uint64_t tdat_get64(const struct tdat_file *f, const void *p);
void tdat_put16(const struct tdat_file *f, void *p, uint16_t v);
void tdat_put32(const struct tdat_file *f, void *p, uint32_t v);
void tdat_put64(const struct tdat_file *f, void *p, uint64_t v);

const char *tdat_codec_name(enum tdat_codec c);
int tdat_codec_by_name(const char *name, enum tdat_codec *c);
/* Version string of the linked library ("" for none). */
const char *tdat_codec_lib_version(enum tdat_codec c);

/* ---- streaming trace data --------------------------------------------- */

struct tdat_cpu_reader;

/*
 * Open the stream of buffers[buf].cpus[idx].  Pages come out whole
 * (page_size bytes).  For v7 compressed data the chunk headers are
 * walked, so the 4-byte-short sizes of trace-cmd 3.1.x are fine.
 */
struct tdat_cpu_reader *tdat_cpu_open(struct tdat_file *f, int buf, int idx,
				      struct tdat_error *err);
void tdat_cpu_close(struct tdat_cpu_reader *r);

/*
 * Next page: 1 and *page points at page_size bytes valid until the next
 * call; 0 at the end of the stream; -1 on error (err filled).  After an
 * error the reader may go on: a chunk that does not decompress is
 * skipped and the next call continues after it; after an error nothing
 * further can be reached from, the next call returns 0.
 * *offset is the page's file offset (uncompressed) or its byte position
 * in the uncompressed stream (compressed).
 */
int tdat_cpu_next_page(struct tdat_cpu_reader *r, const uint8_t **page,
		       uint64_t *offset, struct tdat_error *err);

/*
 * Like tdat_cpu_next_page, but every page read with it at once: the rest
 * of the read window (raw data, up to 64 pages) or of the chunk
 * (compressed); *len is whole pages.
 */
int tdat_cpu_next_pages(struct tdat_cpu_reader *r, const uint8_t **pages,
			size_t *len, uint64_t *offset, struct tdat_error *err);

/*
 * Next compressed chunk as stored, for copying without recompression:
 * 1 with the payload, 0 at end, -1 on error.  Only for compressed
 * streams, and not mixed with tdat_cpu_next_page on one reader.
 */
int tdat_cpu_next_chunk(struct tdat_cpu_reader *r, const uint8_t **data,
			uint32_t *csize, uint32_t *usize,
			struct tdat_error *err);

/* Read a latency buffer's whole text (decompressing if needed). */
int tdat_read_latency(struct tdat_file *f, int buf, struct tdat_blob *out,
		      struct tdat_error *err);

/* ---- events in a page -------------------------------------------------- */

struct tdat_event {
	uint64_t ts;		/* absolute, in trace clock units */
	const uint8_t *data;	/* payload: common_type first */
	uint32_t size;		/* payload bytes (rounded to 4) */
	uint32_t offset;	/* item offset within the page */
};

struct tdat_page_iter {
	const struct tdat_file *f;
	const uint8_t *page;
	uint32_t page_size;
	uint32_t pos;		/* next item, from page start */
	uint32_t end;		/* end of the commit area */
	uint64_t ts;
	int64_t missed;		/* -1 unknown, 0 none, N lost before page */
};

/* 0 on success, -1 if the page header is corrupt (commit > page). */
int tdat_page_iter_init(struct tdat_page_iter *it, const struct tdat_file *f,
			const uint8_t *page, uint32_t page_size);
/* 1 with the next data event, 0 at the end of the page, -1 if corrupt. */
int tdat_page_iter_next(struct tdat_page_iter *it, struct tdat_event *ev);

/* ---- writing ------------------------------------------------------------ */

struct tdat_write_opts {
	int version;		/* 6 or 7 */
	enum tdat_codec codec;	/* v7 only; v6 is never compressed */
	int level;		/* codec level, 0 = codec default */
	uint32_t chunk_size;	/* uncompressed bytes per chunk, 0 = 10 pages */
	int threads;		/* compression threads, 0 = online CPUs */
};

struct tdat_writer;

/*
 * Start writing path (through a temporary name, renamed by
 * tdat_writer_close).  Header fields, metadata, user options, extra
 * sections and the buffer list (names, clocks, page sizes, latency flags,
 * CPU ids) are taken from meta; trace data is then given per CPU, buffer
 * by buffer in meta's order, CPUs in the order of meta->buffers[b].cpus.
 * v6 output needs dense CPU ids; v6 writes an entry for every CPU below
 * the CPU count.
 */
struct tdat_writer *tdat_writer_open(const char *path,
				     const struct tdat_file *meta,
				     const struct tdat_write_opts *o,
				     struct tdat_error *err);

int tdat_writer_begin_cpu(struct tdat_writer *w, int buf, int cpu,
			  struct tdat_error *err);
/* Whole pages of the buffer's page size. */
int tdat_writer_put_pages(struct tdat_writer *w, const void *data,
			  size_t len, struct tdat_error *err);
/* A chunk already compressed with the output codec.  It is checked first
 * (it must decompress to usize bytes of sane pages): -2 if it is not. */
int tdat_writer_put_chunk(struct tdat_writer *w, const void *data,
			  uint32_t csize, uint32_t usize,
			  struct tdat_error *err);
/*
 * The same, copied as stored without being decompressed (cheap): only
 * what needs no decoding is checked (sizes, whole pages, the codec's
 * frame header against csize and usize), -2 if that is wrong.  The
 * payload is trusted: it is the input's, unchanged, so the output is as
 * sound as the input, and readers check every page they decode.
 * _chunks_stored takes a run of whole chunks with their 8-byte headers
 * (u32 csize, u32 usize) as a file of the output's byte order stores
 * them, and writes it at once.
 */
int tdat_writer_put_chunk_stored(struct tdat_writer *w, const void *data,
				 uint32_t csize, uint32_t usize,
				 struct tdat_error *err);
int tdat_writer_put_chunks_stored(struct tdat_writer *w, const void *run,
				  size_t len, struct tdat_error *err);
int tdat_writer_end_cpu(struct tdat_writer *w, struct tdat_error *err);
/* A latency buffer's text, instead of CPUs. */
int tdat_writer_put_latency(struct tdat_writer *w, int buf, const void *text,
			    size_t len, struct tdat_error *err);

/* Finish, flush and rename into place.  Frees w either way; on failure
 * the temporary file is removed (no tdat_writer_abort needed). */
int tdat_writer_close(struct tdat_writer *w, struct tdat_error *err);
/* Give up: remove the temporary file. */
void tdat_writer_abort(struct tdat_writer *w);

/* Effective chunk size the writer uses for a buffer (for copy decisions). */
uint32_t tdat_writer_chunk_size(const struct tdat_writer *w, int buf);
/* 0 if the output cannot hold buffer buf (v6: latency instances, instances
 * beside a latency top buffer); its data is then accepted and dropped. */
int tdat_writer_keeps_buffer(const struct tdat_writer *w, int buf);

/* ---- salvage: checks for damaged or raw data (restore) ------------------ */

/* The event ids the file's formats declare (a bitmap over u16). */
struct tdat_event_ids {
	uint8_t known[8192];
	int count;		/* 0: no formats, every id passes */
};
int tdat_event_ids_load(const struct tdat_file *f, struct tdat_event_ids *ids,
			struct tdat_error *err);
int tdat_event_id_known(const struct tdat_event_ids *ids, uint16_t id);

enum { TDAT_PAGE_OK = 0, TDAT_PAGE_EMPTY = 1, TDAT_PAGE_BAD = 2 };
struct tdat_page_check {
	int nevents;		/* data events */
	uint64_t page_ts;	/* the header's time stamp */
	uint64_t last_ts;	/* after the last item */
	const char *why;	/* EMPTY or BAD: what is wrong, for messages */
};
/*
 * Strictly check a page as the kernel writes it: commit within the page
 * and no reserved bit set, items walking exactly to the commit, every
 * data event of a known id (ids may be NULL), absolute stamps not before
 * the page's.  TDAT_PAGE_OK with events, TDAT_PAGE_EMPTY (commit 0 or no
 * event), or TDAT_PAGE_BAD.
 */
int tdat_page_check(const struct tdat_file *f, const uint8_t *page,
		    uint32_t page_size, const struct tdat_event_ids *ids,
		    struct tdat_page_check *pc);

/*
 * Open a damaged file as far as it goes (salvage_scan.c): metadata where
 * intact, buffers as far as their descriptions survive.  v7 sections are
 * found by walking their headers; buffer sections whose BUFFER option is
 * lost come back in s->lost (byte ranges to search), and s->notes say
 * where the walk stopped or what it skipped.  The buffers of f may point
 * past the end of the file.  Close with tdat_close and tdat_salvage_free.
 */
#define TDAT_SALVAGE_NOTES 32
struct tdat_salvage_note {
	uint64_t offset;
	char text[400];
};
struct tdat_salvage_section {
	uint64_t offset;	/* section header */
	uint64_t body, end;	/* body, cut at the end of the file */
	uint16_t id, flags;
	int32_t string_id;
	const char *description;/* from the strings table (in f), or NULL */
};
struct tdat_salvage {
	int nlost;
	struct tdat_salvage_section *lost;
	int nnotes;
	struct tdat_salvage_note notes[TDAT_SALVAGE_NOTES];
};
struct tdat_file *tdat_open_salvage(const char *path, struct tdat_salvage *s,
				    struct tdat_error *err);
void tdat_salvage_free(struct tdat_salvage *s);
/* Bytes at off (all n, or -1), and one chunk decompressed to usize bytes
 * with f's codec (0, or -1 if corrupt). */
int tdat_salvage_read(const struct tdat_file *f, uint64_t off, void *buf,
		      size_t n, struct tdat_error *err);
int tdat_salvage_decompress(const struct tdat_file *f, const void *in,
			    size_t n, void *out, size_t usize);

/* ---- cutting pages (pagecut.c) ----------------------------------------- */

/*
 * Write into out (page_size bytes) a valid page holding only some data
 * events of the page in, each with exactly its old absolute timestamp:
 *   tdat_page_cut_index keeps the events whose index (0-based, in the
 *     order tdat_page_iter_next yields them) is in [first, last);
 *   tdat_page_cut_time keeps those with lo <= ts <= hi (both inclusive).
 * The page header timestamp becomes the first kept event's time (delta
 * 0); time extends are added where deltas need them; the input's
 * time-extend, absolute-timestamp and padding items are dropped.  The
 * missed-events flags (and a stored count) stay only if the first kept
 * event is the page's first event: a drop belongs to the piece holding
 * the event after it.  commit = bytes kept, the tail is zero.  With
 * nothing kept, out is an empty page (commit 0, in's timestamp).
 * Returns the number of events kept, or -1 (err: f's path, offset
 * where, i.e. the page's file offset, or its position in the
 * uncompressed stream).  in and out must not overlap.
 */
int tdat_page_cut_index(const struct tdat_file *f, const uint8_t *in,
			uint32_t page_size, uint32_t first, uint32_t last,
			uint8_t *out, uint64_t where, struct tdat_error *err);
int tdat_page_cut_time(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, uint64_t lo, uint64_t hi,
		       uint8_t *out, uint64_t where, struct tdat_error *err);
/*
 * Like tdat_page_cut_index, keeping the events whose keep[index] is
 * non-zero (index < nkeep; later events are dropped): any subset, in
 * one page, in their order.
 */
int tdat_page_cut_keep(const struct tdat_file *f, const uint8_t *in,
		       uint32_t page_size, const uint8_t *keep, uint32_t nkeep,
		       uint8_t *out, uint64_t where, struct tdat_error *err);

/*
 * One page gathering kept events of several pages, in order, each with
 * exactly its old timestamp (as the cuts above).  init empties page;
 * fill_keep appends the events of in with index >= *next whose keep[]
 * is set (index < nkeep) while they fit: 1 when all went in, 0 when the
 * page is full (*next: the first left out; finish the page and go on
 * in a new one), -1 if in is corrupt.  A page's missed-events mark
 * stays only at the start of a page (fill_keep says 0 when it comes
 * later).  finish writes the commit word.
 */
struct tdat_page_fill {
	uint8_t *page;
	uint32_t size;		/* page size */
	uint32_t pos;		/* next free byte */
	uint32_t end;		/* events end before (a missed count after) */
	uint64_t ts;		/* time of the last event */
	uint32_t nev;		/* events in the page */
	uint64_t missed;	/* commit flags */
	uint8_t count[8];	/* stored missed count */
};
void tdat_page_fill_init(const struct tdat_file *f, struct tdat_page_fill *pf,
			 uint8_t *page, uint32_t page_size);
int tdat_page_fill_keep(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *in, const uint8_t *keep, uint32_t nkeep,
			uint32_t *next, uint64_t where, struct tdat_error *err);
void tdat_page_fill_finish(const struct tdat_file *f,
			   struct tdat_page_fill *pf);
/* One event item (len bytes: header word(s) and payload, as in a page)
 * at time ts appended: 1, 0 if the page is full, -1 if it cannot go. */
int tdat_page_fill_item(const struct tdat_file *f, struct tdat_page_fill *pf,
			const uint8_t *item, uint32_t len, uint64_t ts);

/* ---- chunk headers of a compressed stream (chunkindex.c) ---------------- */

/*
 * Walk the chunks of a compressed CPU stream by their 8-byte headers,
 * payloads read only when asked: to find the last chunk, to copy chunks
 * as stored, or to read them one at a time with no reader open (a walk
 * is a position and the stream's bounds, no buffer).  Each header is
 * checked (inside the stream's extent and its chunk count, whole pages,
 * at most TDAT_MAX_CHUNK, no larger than the codec's worst case) before
 * it is used; failures name the file, the header's offset and what is
 * wrong.
 */
struct tdat_chunk {
	uint64_t offset;	/* of the header; payload at offset + 8 */
	uint32_t csize, usize;
};
struct tdat_chunk_walk {
	struct tdat_file *f;
	const char *buf_name;
	int cpu;
	uint32_t page_size;
	uint32_t nchunks;	/* the stream's chunk count */
	uint32_t done;		/* headers walked */
	uint64_t next;		/* offset of the next header */
	uint64_t end;		/* end of the stream's extent */
	uint64_t usize;		/* uncompressed bytes of the chunks walked */
};
/* Start at buffers[buf].cpus[idx] (compressed), reading its chunk count. */
int tdat_chunk_walk_init(struct tdat_chunk_walk *cw, struct tdat_file *f,
			 int buf, int idx, struct tdat_error *err);
/* The next header: 1 with c, 0 after the last chunk, -1. */
int tdat_chunk_walk_next(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 struct tdat_error *err);
/* The next header from 8 bytes the caller read at cw->next: 1 or -1. */
int tdat_chunk_walk_header(struct tdat_chunk_walk *cw, const uint8_t *h,
			   struct tdat_chunk *c, struct tdat_error *err);
/* Walk to the end: 1 with the last chunk holding pages, 0 if none, -1. */
int tdat_chunk_walk_last(struct tdat_chunk_walk *cw, struct tdat_chunk *last,
			 struct tdat_error *err);
/* The payload of a chunk the walk gave (c->csize bytes into buf). */
int tdat_chunk_read(struct tdat_chunk_walk *cw, const struct tdat_chunk *c,
		    void *buf, struct tdat_error *err);
/* The next chunk and its payload as stored in *buf (grown as needed, *cap
 * bytes; free it): 1, 0 after the last chunk, -1. */
int tdat_chunk_walk_read(struct tdat_chunk_walk *cw, struct tdat_chunk *c,
			 uint8_t **buf, size_t *cap, struct tdat_error *err);
/*
 * Read whole chunks, headers and payloads as stored, from the walk's
 * position into *buf (grown as needed, *cap bytes; free it): about want
 * bytes, at least one chunk.  Returns the bytes (0 after the last chunk)
 * with *nchunks, or -1.
 */
int64_t tdat_chunk_walk_run(struct tdat_chunk_walk *cw, uint8_t **buf,
			    size_t *cap, size_t want, uint32_t *nchunks,
			    struct tdat_error *err);

/* ---- the end of a CPU stream (streamtail.c) ------------------------------ */

/*
 * The timestamp of the last event of buffers[buf].cpus[idx], found from
 * the end: the last pages of raw data, or the last chunk holding pages
 * (found by its header walk) of compressed data, decoded alone.  1 with
 * *ts; 0 when it cannot be known cheaply (no event in the last few
 * pages or the last chunk, a last page or chunk that does not read);
 * -1 only when a chunk header is out of bounds (err filled).
 */
int tdat_cpu_last_ts(struct tdat_file *f, int buf, int idx, uint64_t *ts,
		     struct tdat_error *err);

/* ---- decompressing single chunks (chunkdec.c) --------------------------- */

/*
 * For callers that walk a compressed CPU stream with tdat_cpu_next_chunk
 * (to pass most chunks on as they are) and need the pages of some: out
 * gets exactly usize bytes, or -1 (err names f's path and where, the
 * chunk's file offset).  One decoder per thread.
 */
struct tdat_chunk_decoder;
struct tdat_chunk_decoder *tdat_chunk_decoder_new(const struct tdat_file *f);
int tdat_chunk_decode(struct tdat_chunk_decoder *d, const void *data,
		      uint32_t csize, void *out, uint32_t usize,
		      uint64_t where, struct tdat_error *err);
void tdat_chunk_decoder_free(struct tdat_chunk_decoder *d);

#endif
