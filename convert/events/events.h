/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - the event stream: every event of one or more trace.dat
 * files, across CPUs, buffers and files in time order (trace-cmd's
 * order, FORMAT.md 7.7), each with its format, its task, and what its
 * fields are.  report prints it; the exports (Parquet, Perfetto) write
 * it.  A consumer that walks it itself (report's printing pipeline)
 * uses stream.h and inputs.h beside this.
 */
#ifndef EVENTS_H
#define EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>

#define EVENTS_MAX_INPUTS 64

/*
 * One input file and how its timestamps shift.  As in trace-cmd, the
 * first input's --ts2secs (given before the second -i) is the default
 * of every input, and its --ts-offset is ignored.
 */
struct events_input {
	const char *path;
	int64_t ts_offset;	/* --ts-offset after its -i, ns */
	uint64_t ts2secs_hz;	/* --ts2secs: the clock's frequency, 0 = none */
};

struct tdat_file;

/*
 * Called for each input as it opens, before any event is walked: what a
 * consumer sends ahead of the events (Perfetto: each machine's system
 * info, worked out from the input's own formats).  0, or -1 with a
 * one-line message in err (the walk then stops and returns 2).
 */
typedef int (*stream_input_fn)(void *ctx, int input, struct tep_handle *tep,
			       const struct tdat_file *f, char *err,
			       size_t cap);

/* What to read and how its times show. */
struct events_opts {
	struct events_input inputs[EVENTS_MAX_INPUTS];
	int ninputs;
	int no_plugins;		/* -N: no libtraceevent plugins */
	int raw_ts;		/* --raw-ts: the clock's own counts */
	int nodate;		/* --nodate: no DATE offset */
	int align_ts;		/* --align-ts: from the first event */
	const char *applet;	/* who speaks in messages: "report" when
				 * NULL ("convert" for an export) */
	int lazy_kallsyms;	/* kallsyms loaded into an input's handle
				 * only when one of its events is printed
				 * (stream_event_printable) */
	int any_order;		/* a consumer that sorts (Perfetto): each
				 * CPU's events to its end before the next
				 * CPU's */
	/* Stored trace data read so far, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	stream_input_fn opened;	/* events_walk's: may be NULL; given
				 * events_walk's ctx */
};

struct event_layout;
/* One event of the stream, before any text is made. */
struct stream_event {
	struct tep_handle *tep;		/* its input's handle: formats, comms */
	const struct tep_record *rec;	/* data, size (the record's own),
					 * cpu, missed_events */
	struct tep_event *event;	/* its format; NULL when no format
					 * names its id */
	const struct event_layout *layout;	/* event's fields, or NULL
						 * with it (or no memory) */
	uint64_t ts;			/* shifted as eo says */
	int input;			/* index into eo->inputs */
	const char *buffer;		/* "" for the top buffer */
	int pid;
	const char *comm;		/* looked up in stream order */
	void *priv;			/* the walk's own */
};

/* Called for each event; non-zero stops the walk and is returned. */
typedef int (*stream_event_fn)(void *ctx, const struct stream_event *e);

/*
 * Every event of eo's inputs, in order, to fn (eo->opened first on each
 * input).  Warnings and errors go to stderr as "tdat APPLET: ...".
 * Returns fn's non-zero value, or 0, or 1 for damage met (the events
 * that could be read were walked), an input that cannot be read, or no
 * memory, or 2 when eo->opened failed.
 */
int events_walk(const struct events_opts *eo, stream_event_fn fn, void *ctx);
/*
 * e->rec as it may be handed to libtraceevent to print (tep_print_event):
 * the record itself holds only what it holds, so libtraceevent, which
 * reads fields where the format says, is given a padded copy where they
 * run past it (recview.h).  Valid until fn returns; NULL when out of
 * memory.
 */
const struct tep_record *stream_event_printable(const struct stream_event *e);

/* ---- fields.c: what a field's bytes are (--json and the exports) ---- */

/*
 * Where field f's bytes are in the payload data[0..size): 0, or -1 when
 * they are not all inside it.  A __data_loc field holds a 32-bit word,
 * length << 16 | offset (__rel_loc: the offset counts from the end of
 * the word); a flexible array (char buf[], size 0) runs to the end, and
 * so does ftrace's kernel_stack's and user_stack's caller[8]: as many
 * frames as the stack had, fewer or more than 8.
 */
int field_span(struct tep_handle *tep, const struct tep_format_field *f,
	       const uint8_t *data, size_t size, size_t *start, size_t *len);
/* char arrays are text.  libtraceevent's STRING flag also marks u8 and
 * s8 arrays: those and unsigned char ones are numbers. */
int field_is_text(const struct tep_format_field *f);
/* trace_marker_raw's payload: bytes, though declared "char buf[]". */
int field_is_raw_marker(const struct tep_format_field *f);
/* Length of the valid UTF-8 sequence at p (a byte >= 0x80), or 0: no
 * overlong forms, no surrogates, nothing past U+10FFFF. */
size_t utf8_len(const uint8_t *p, size_t n);
/* n bytes of s appended to out as UTF-8, as --json shows text: valid
 * UTF-8 as it is, every other byte as the character U+00XX.  0, or -1
 * when out of memory. */
struct tdat_bytes;
int utf8_add(struct tdat_bytes *out, const char *s, size_t n);

/* How a field's bytes become a value. */
enum field_read {
	FIELD_INT,	/* a number of `size` bytes */
	FIELD_TEXT,	/* a char array, up to its NUL */
	FIELD_BYTES,	/* bytes (--json: an array of them) */
	FIELD_LIST,	/* an array of `es`-byte numbers */
};

struct field_kind {
	enum field_read read;
	int fixed;		/* its place is the format's offset and size
				 * alone (else field_span finds it) */
	int size;		/* FIELD_INT: bytes */
	int es;			/* FIELD_LIST: bytes an element */
	int is_signed;		/* numbers sign-extended (never addresses) */
};

/* What field f is: --json shows it so, the exports type their columns
 * and values from it. */
void field_kind(const struct tep_format_field *f, struct field_kind *k);

/* ---- layout.c: an event type's fields, worked out once ---- */

struct field_place {
	const struct tep_format_field *f;
	struct field_kind k;
};

struct event_layout {
	const struct tep_event *ev;
	struct field_place *common;	/* ev's common fields, in order */
	int ncommon;
	struct field_place *fields;	/* its own fields, in order */
	int nfields;
};

/* ev's layout, malloc'd; NULL when out of memory. */
struct event_layout *event_layout_new(const struct tep_event *ev);
void event_layout_free(struct event_layout *l);
/* Where p's bytes lie in data[0..size), as field_span says (a fixed
 * field without asking it): 0, or -1 outside it. */
int field_place_span(struct tep_handle *tep, const struct field_place *p,
		     const uint8_t *data, size_t size, size_t *start,
		     size_t *len);

#endif
