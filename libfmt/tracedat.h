/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracedat.h - libfmt, the trace.dat (v6 and v7) format library.
 *
 * The core header: open, inspect, stream and write.  The model is
 * simple: tdat_open() parses all metadata of a file into a struct
 * tdat_file (small: texts, options, the buffer table) and leaves trace
 * data on disk.  Trace data is streamed a page (or a compressed chunk) at
 * a time through a tdat_cpu_reader, and written through a tdat_writer,
 * so memory stays bounded whatever the file size.
 *
 * Engines that need more include the headers beside this one, one
 * concept each: metabuild.h (metadata made for a writer), stored.h
 * (lazy and stored metadata sections), pagecut.h (new pages from some
 * events of others), chunkindex.h (compressed streams chunk by chunk),
 * salvage.h (damaged files), bytes.h (a growable byte buffer) and
 * outputs.h (outputs not final yet, for a signal handler).
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
	int memory;		/* 1: out of memory or over the budget, not
				 * damage (tdat_budget_fail) */
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

/* ---- the memory budget ------------------------------------------------ */

/*
 * Decoded data held at once (metadata decompressed, chunk windows) is
 * charged to one budget for the process: a base plus eight times the
 * size of every input open.  A file claiming more gets an error, not
 * gigabytes.  The base is 64 MiB unless set (applets: TDAT_MEMORY).
 */
#define TDAT_BUDGET_BASE (64ull << 20)
void tdat_budget_set_base(uint64_t bytes);
uint64_t tdat_budget_limit(void);
uint64_t tdat_budget_held(void);
/* After a budgeted allocation failed: "FILE: offset OFF: what: N MiB
 * decoded would pass the memory budget (...)" when it was the budget
 * (errno E2BIG), else "...: what: out of memory".  Returns -1. */
int tdat_budget_fail(struct tdat_error *err, const char *path, uint64_t off,
		     const char *what, uint64_t need);

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
/*
 * A section id of tdat's own: v6 clock records that are not exactly
 * "[clock]" (trace-cmd 2.x wrote the whole trace_clock list), kept so
 * that a v6 output gets them back.  Made by the v6 reader, carried like
 * any unknown section, used by the v6 writer (v6clock.c).
 */
#define TDAT_SECTION_V6_CLOCKS 0x7464
/* Another: where a v6 file's BUFFER options stood among its other options
 * when that is not after all of them (trace-cmd 2.x), see v6places.c. */
#define TDAT_SECTION_V6_PLACES 0x7465
/* A third: a v6 file's version string when it was not "6" (an Android
 * build of trace-cmd wrote an empty one), see v6version.c. */
#define TDAT_SECTION_V6_VERSION 0x7466
/* A fourth: a v6 file's TRACECLOCK option when its clock record, which
 * v7 has not, decides how times are shown, and the option a v7 file
 * needs instead, see v6shown.c. */
#define TDAT_SECTION_V6_TRACECLOCK 0x7467

struct tdat_extra_section {
	uint16_t id;
	uint16_t flags;
	char *description;	/* from the strings table, or NULL */
	struct tdat_blob body;	/* as stored (still compressed if flagged) */
	uint64_t offset;	/* its section header in the file, 0 if made */
};

/* 1 when a v6 output keeps what section x holds (tdat's own v6 clock
 * records go back into the clock records), 0 when v6 has no place. */
int tdat_extra_v6_kept(const struct tdat_extra_section *x);

struct tdat_priv;

/*
 * A file's metadata.  Only libfmt makes one (tdat_open*, or metabuild.h
 * for metadata made in memory) and tdat_close frees it: never declare
 * or copy one by value, since f->priv is libfmt's own.
 */
struct tdat_file {
	char *path;
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

	/* Part i is in the file when tdat_meta_has(f, i); meta[i] is its
	 * content (empty while pending, see stored.h). */
	struct tdat_blob meta[TDAT_META_COUNT];

	uint32_t cpu_count;	/* v6 header count; v7 CPUCOUNT; see tdat_cpus() */
	int has_cpucount;	/* v7: a structural CPUCOUNT was present */

	int noptions;		/* user options, file order */
	struct tdat_option *options;

	int nbuffers;		/* top buffer first when present */
	struct tdat_buffer *buffers;

	int nextra;		/* v7 sections of unknown id */
	struct tdat_extra_section *extra;

	struct tdat_blob strings;	/* v7: the strings table */

	/* What only libfmt touches (the open file, which parts are present,
	 * their stored forms): made with f, freed by tdat_close. */
	struct tdat_priv *priv;
};

/* ---- opening and inspecting files ------------------------------------ */

/*
 * What the reader noticed and worked around, one line each ("FILE:
 * offset N: ..."), for the applet to show as warnings: note i, or NULL
 * past the last.
 */
const char *tdat_note(const struct tdat_file *f, int i);

/* path opened for reading if it is a regular file (a FIFO or device is
 * refused at once, never waited on): the fd, or -1 with err. */
int tdat_open_regular(const char *path, struct tdat_error *err);

/* Parse all metadata.  Returns NULL and fills err on failure. */
struct tdat_file *tdat_open(const char *path, struct tdat_error *err);
void tdat_close(struct tdat_file *f);
/*
 * Parse only the initial header (version, byte order, long size, page
 * size), for callers that need no more and must work on files damaged
 * further on.  Nothing else in f is filled in.  Close with tdat_close.
 */
struct tdat_file *tdat_open_header(const char *path, struct tdat_error *err);

/* 1 if the file has metadata part m (its content may be empty). */
int tdat_meta_has(const struct tdat_file *f, enum tdat_meta m);

/* The CPU count readers show as cpus=N (v7: max of CPUCOUNT and ids+1). */
uint32_t tdat_cpus(const struct tdat_file *f);

/* Stored bytes of trace data (CPU streams and latency text) in f. */
uint64_t tdat_data_size(const struct tdat_file *f);

/* The top buffer, or NULL when the file has none. */
const struct tdat_buffer *tdat_top_buffer(const struct tdat_file *f);
/* The page size a v6 copy of f has: a v6 file has one, its header's,
 * and readers read the top buffer's pages with it, so a v7 top buffer's
 * own page size (the v7 header's is only a default) wins. */
uint32_t tdat_v6_page_size(const struct tdat_file *f);

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
/*
 * How trace-cmd shows a file's times (shownclock.c): as seconds when the
 * clock that decides is a clock of time (tdat_clock_is_time), as raw
 * counts when it is not.  That clock: 1 with its name in buf, 0 when
 * none decides (no TRACECLOCK option, or nothing names a clock): times
 * are then nanoseconds.
 */
int tdat_shown_clock(const struct tdat_file *f, char *buf, size_t cap);
/* local, global, uptime, perf, tai, tsc2nsec and mono*: trace-cmd shows
 * their times as seconds (FORMAT.md 9.1). */
int tdat_clock_is_time(const char *clock);
/* DATE (microseconds) and OFFSET (nanoseconds): numbers kept as text. */
int tdat_opt_number(const struct tdat_file *f, uint16_t id, long long *v);
/*
 * A CPUCOUNT payload as readers take it: 1 with the count in *n, 0 when
 * it holds none (*n then has what its first 4 bytes say, if it has 4):
 * shorter than 4 bytes, or more than TDAT_MAX_CPUS (gpuvis's patched
 * trace-cmd stored a pid/tgid table under that id).
 */
#define TDAT_MAX_CPUS 65536
int tdat_cpucount_payload(int big, const void *data, uint32_t size,
			  uint32_t *n);
/* CPUCOUNT (u32) and TRACEID (u64). */
int tdat_opt_u32(const struct tdat_file *f, uint16_t id, uint32_t *v);
int tdat_opt_u64(const struct tdat_file *f, uint16_t id, uint64_t *v);
struct tdat_tsc2nsec {
	uint32_t mult, shift;
	uint64_t offset;
};
/* A GUEST option (a host's file has one a guest): the guest's trace id
 * (its file's TRACEID) and the host task running each vCPU. */
struct tdat_guest {
	uint64_t trace_id;
	uint32_t nvcpus;	/* the (vcpu, task) pairs the payload holds */
	const uint8_t *vcpus;	/* in the option: u32 vcpu, u32 task each */
	int big;
};
/* The next well-formed GUEST option from option *pos on (start at 0);
 * 1 with it in *g, 0 when there is none.  A count larger than the
 * payload reads as the pairs it holds. */
int tdat_guest_next(const struct tdat_file *f, int *pos, struct tdat_guest *g);
/* Host task (pid) of pair k, k < nvcpus. */
int32_t tdat_guest_task(const struct tdat_guest *g, uint32_t k);
int tdat_opt_tsc2nsec(const struct tdat_file *f, struct tdat_tsc2nsec *t);

/*
 * A LAST_BOOT_INFO option (lastboot.c): instance's pages are from the
 * boot before this file's kallsyms were read, and this says where that
 * boot's kernel was: a text delta (kernels 6.12-6.14: this boot's
 * addresses minus the last boot's), or the last boot's _text and its
 * modules' addresses (6.15 on), or nothing to move ("# Current").
 */
enum tdat_boot_kind {
	TDAT_BOOT_UNSET, TDAT_BOOT_CURRENT, TDAT_BOOT_DELTA, TDAT_BOOT_TEXT
};
struct tdat_boot_module {
	uint64_t addr;		/* where it was loaded in the last boot */
	char name[64];
};
struct tdat_last_boot {
	char instance[256];	/* the buffer it is about */
	enum tdat_boot_kind kind;
	int64_t text_delta, data_delta;	/* TDAT_BOOT_DELTA */
	uint64_t old_text;		/* TDAT_BOOT_TEXT */
	size_t nmods;
	struct tdat_boot_module *mods;	/* TDAT_BOOT_TEXT */
};
/* Parse an option's payload (size bytes, its NUL included): 0, or -1
 * with why it is malformed in why.  Free with tdat_last_boot_free. */
int tdat_last_boot_parse(const char *text, size_t size,
			 struct tdat_last_boot *lb, char *why, size_t cap);
void tdat_last_boot_free(struct tdat_last_boot *lb);
/* The next well-formed LAST_BOOT_INFO option from option *pos on (start
 * at 0): 1 with it in *lb (to free), 0 when there is none. */
int tdat_last_boot_next(const struct tdat_file *f, int *pos,
			struct tdat_last_boot *lb);
/*
 * The kallsyms by which f's events are named (bootsyms.c): the file's
 * own, or, where a buffer with data holds the last boot's pages, those
 * symbols moved to where they were in that boot.  *owned is then the
 * text to free, NULL when text points into f.
 */
int tdat_event_kallsyms(const struct tdat_file *f, const char **text,
			size_t *len, char **owned, struct tdat_error *err);

/*
 * The timestamps readers show (tsadjust.c): raw record times scaled by
 * TSC2NSEC ((ts * mult) >> shift, its offset field unused), then plus
 * DATE * 1000 + OFFSET nanoseconds, as trace-cmd report does.  Applets
 * may add their own offset to a->offset after init.
 */
struct tdat_time_shift;
struct tdat_ts_adjust {
	int64_t offset;		/* ns added after scaling */
	uint32_t mult, shift;	/* TSC2NSEC scaling when mult != 0 */
	/* a guest's TIME_SHIFT (first of all, per CPU), or NULL; points
	 * into the file, valid while it is open */
	const struct tdat_time_shift *guest;
};
#define TDAT_TS_NODATE	1u	/* leave DATE out (report --nodate) */
#define TDAT_TS_RAW	2u	/* no adjustment at all (report --raw-ts) */
void tdat_ts_adjust_init(const struct tdat_file *f, unsigned flags,
			 struct tdat_ts_adjust *a);
uint64_t tdat_ts_apply(const struct tdat_ts_adjust *a, uint64_t ts);
/* The same for an event of CPU cpu: a guest recording's TIME_SHIFT moves
 * it onto the host's clock first (tdat_ts_apply leaves that out). */
uint64_t tdat_ts_apply_cpu(const struct tdat_ts_adjust *a, int cpu,
			   uint64_t ts);

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

/* Byte-order helpers on file data (the one place byte order is decided:
 * here and libfmt/endian.c). */
/* Loads and stores in the byte order big says (1: big-endian).  The
 * loads are inline, byte by byte, which compilers turn into one load
 * (and a swap) whatever the host's order and alignment. */
static inline uint16_t tdat_load16(int big, const void *p)
{
	const uint8_t *b = p;

	if (big)
		return (uint16_t)(b[0] << 8 | b[1]);
	return (uint16_t)(b[1] << 8 | b[0]);
}

static inline uint32_t tdat_load32(int big, const void *p)
{
	const uint8_t *b = p;

	if (big)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		       (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[1] << 8 | b[0];
}

static inline uint64_t tdat_load64(int big, const void *p)
{
	const uint8_t *b = p;

	if (big)
		return (uint64_t)tdat_load32(1, b) << 32 | tdat_load32(1, b + 4);
	return (uint64_t)tdat_load32(0, b + 4) << 32 | tdat_load32(0, b);
}

/* A field's unsigned value of n bytes (1, 2, 4; anything else 8). */
static inline uint64_t tdat_load_n(int big, const void *p, int n)
{
	switch (n) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return tdat_load16(big, p);
	case 4:
		return tdat_load32(big, p);
	}
	return tdat_load64(big, p);
}

void tdat_store16(int big, void *p, uint16_t v);
void tdat_store32(int big, void *p, uint32_t v);
void tdat_store64(int big, void *p, uint64_t v);
/* v's low n bytes (1, 2, 4; anything else 8), as tdat_load_n reads. */
void tdat_store_n(int big, void *p, int n, uint64_t v);
/* 1 when this program runs on a big-endian host: libtraceevent must be
 * told (tep_set_local_bigendian), and recordings are in it. */
int tdat_host_big_endian(void);
/* The same in f's byte order (inline: every page walk goes through
 * them, a call per event word cost split's and restore's walks 10%). */
static inline uint16_t tdat_get16(const struct tdat_file *f, const void *p)
{
	return tdat_load16(f->big_endian, p);
}

static inline uint32_t tdat_get32(const struct tdat_file *f, const void *p)
{
	return tdat_load32(f->big_endian, p);
}

static inline uint64_t tdat_get64(const struct tdat_file *f, const void *p)
{
	return tdat_load64(f->big_endian, p);
}

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
/* How far r is through its stream, in stored bytes (for progress). */
void tdat_cpu_position(const struct tdat_cpu_reader *r, uint64_t *done,
		       uint64_t *total);

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
/* -1 with the error for the page at offset (as tdat_cpu_next_page gives
 * it) of f's buffers[buf].cpus[idx] whose commit runs past the page
 * (tdat_page_iter_init refused it): what convert and dump -v say. */
int tdat_cpu_bad_commit(const struct tdat_file *f, int buf, int idx,
			uint64_t offset, struct tdat_error *err);

/*
 * Like tdat_cpu_next_page, but every page read with it at once: the rest
 * of the read window (raw data, up to 64 pages) or of the chunk
 * (compressed); *len is whole pages.
 */
int tdat_cpu_next_pages(struct tdat_cpu_reader *r, const uint8_t **pages,
			size_t *len, uint64_t *offset, struct tdat_error *err);

/*
 * Decompress a compressed stream's chunks ahead, on a thread of its own,
 * while the caller works on the pages handed out: tdat_cpu_next_page(s)
 * then give the same pages and errors, in the same order, with the
 * second core busy.  For a reader nothing was read from yet; 1 if the
 * thread runs, 0 if not (an uncompressed or one-chunk stream, no
 * thread to be had): the reader works as before either way.  The
 * thread holds a few chunks decoded; tdat_cpu_close stops it.
 */
int tdat_cpu_read_ahead(struct tdat_cpu_reader *r);

/*
 * Next compressed chunk as stored, for copying without recompression:
 * 1 with the payload, 0 at end, -1 on error.  Only for compressed
 * streams, and not mixed with tdat_cpu_next_page on one reader.
 */
int tdat_cpu_next_chunk(struct tdat_cpu_reader *r, const uint8_t **data,
			uint32_t *csize, uint32_t *usize,
			struct tdat_error *err);

/* n bytes of the file at off, as stored (an uncompressed stream's pages). */
int tdat_read_stored(const struct tdat_file *f, uint64_t off, void *buf,
		     size_t n, struct tdat_error *err);
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

enum { TDAT_UNNAMED_UNTIL_KEPT = 2 };

struct tdat_write_opts {
	int version;		/* 6 or 7 */
	enum tdat_codec codec;	/* v7 only; v6 is never compressed */
	int level;		/* codec level, 0 = codec default */
	uint32_t chunk_size;	/* uncompressed bytes per chunk, 0 = 10 pages */
	int threads;		/* compression threads, 0 = online CPUs */
	int provisional;	/* once complete, the file stays only if the
				 * job succeeds (libfmt/outputs.h): 1 named
				 * now, TDAT_UNNAMED_UNTIL_KEPT unnamed until
				 * tdat_outputs_keep, so that even SIGKILL
				 * leaves nothing */
};

struct tdat_writer;

/*
 * Start writing path.  The file is written unnamed and gets its name in
 * tdat_writer_close (libfmt/outputs.h): a name that exists is replaced,
 * a symlink there too, never written through; an existing FIFO, or the
 * file behind /dev/stdout or /dev/fd/N, gets the finished file copied
 * into it; any other kind of file there is refused.  Header fields, metadata, user options, extra
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
/* Whole pages stored at [off, off + len) of f, an uncompressed stream's
 * (inside the file: the caller checks), as they are: copied by the
 * kernel when the output is uncompressed (copy_file_range), where it
 * can. */
int tdat_writer_put_file_pages(struct tdat_writer *w,
			       const struct tdat_file *f, uint64_t off,
			       uint64_t len, struct tdat_error *err);
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

/* Finish, sync and give the file its name.  Frees w either way; on
 * failure nothing is left (no tdat_writer_abort needed). */
int tdat_writer_close(struct tdat_writer *w, struct tdat_error *err);
/* Give up: nothing is left. */
void tdat_writer_abort(struct tdat_writer *w);

/* Effective chunk size the writer uses for a buffer (for copy decisions). */
uint32_t tdat_writer_chunk_size(const struct tdat_writer *w, int buf);
/*
 * May a stored chunk of f's buffers[buf], of usize bytes decoded, go
 * into this output as it is (tdat_writer_put_chunk, _stored)?  When the
 * output is v7 in f's codec and byte order with no level asked (a level
 * means recompressing), and usize is the chunk size asked, if one was.
 * usize 0: may every chunk, whatever its size (no chunk size asked).
 */
int tdat_writer_chunk_passes(const struct tdat_writer *w,
			     const struct tdat_file *f, int buf,
			     uint32_t usize);
/*
 * May the raw pages of f's buffers[buf] go into this output as they are,
 * copied by the kernel, unread (tdat_writer_put_file_pages)?  When the
 * stream and the output are both uncompressed, in the same byte order.
 */
int tdat_writer_pages_pass(const struct tdat_writer *w,
			   const struct tdat_file *f, int buf);
/* CPUs this process may keep busy: online ones within its affinity
 * mask and its cgroup's CPU quota (a scheduler's allotment), at least 1. */
int tdat_usable_cpus(void);
/* Threads the job may use (tdat_write_opts.threads, 0 made the number
 * of usable CPUs). */
int tdat_writer_threads(const struct tdat_writer *w);
/* 0 if the output cannot hold buffer buf (v6: latency instances, instances
 * beside a latency top buffer); its data is then accepted and dropped. */
int tdat_writer_keeps_buffer(const struct tdat_writer *w, int buf);

#endif
