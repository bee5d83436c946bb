/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - the report engine's interface: the options cmds/report.c
 * parses, and the call that prints the events.  The engine's own
 * declarations are in report_internal.h and the headers beside it.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>

#define REPORT_MAX_INPUTS 64
#define REPORT_MAX_FILTERS 64

/*
 * One -i file and the options that apply to it alone.  As in trace-cmd,
 * the first input's --ts2secs (given before the second -i) is the
 * default of every input, and its --ts-offset is ignored.
 */
struct report_input {
	const char *path;
	int64_t ts_offset;	/* --ts-offset after its -i, ns */
	uint64_t ts2secs_hz;	/* --ts2secs: the clock's frequency, 0 = none */
};

struct report_filter {
	const char *text;	/* -F, libtraceevent filter syntax */
	int negate;		/* a -v came before it */
	int after;		/* how many -i came before it */
};

/* What to show instead of the events (print and exit), as bits. */
enum {
	SHOW_ENDIAN = 1 << 0,	/* -e */
	SHOW_FUNCS = 1 << 1,	/* -f */
	SHOW_PRINTK = 1 << 2,	/* -P */
	SHOW_EVENT_LIST = 1 << 3,	/* -E */
	SHOW_FORMATS = 1 << 4,	/* --events */
	SHOW_STAT = 1 << 5,	/* --stat */
	SHOW_UNAME = 1 << 6,	/* --uname */
	SHOW_VERSION = 1 << 7,	/* --version */
	SHOW_CPUS = 1 << 8,	/* --cpus */
	SHOW_FIRST = 1 << 9,	/* --first-event */
	SHOW_LAST = 1 << 10,	/* --last-event */
};

struct report_opts {
	struct report_input inputs[REPORT_MAX_INPUTS];
	int ninputs;
	struct report_filter filters[REPORT_MAX_FILTERS];
	int nfilters;
	unsigned show;		/* SHOW_* bits; 0 = print the events */
	const char *event_regex;/* --event */
	const char *cpu_list;	/* --cpu (several: cpu_lists) */
	char cpu_lists[256];	/* several --cpu: joined, as they add up */
	int no_plugins;		/* -N */
	int raw;		/* -R */
	int full_ns;		/* -t */
	int latency;		/* -l */
	int no_hardirq;		/* -I */
	int no_softirq;		/* -S */
	int test_filters;	/* -T */
	int quiet;		/* -q */
	int raw_ts;		/* --raw-ts */
	int nodate;		/* --nodate */
	int ts_diff;		/* --ts-diff */
	int layout34;		/* --layout 3.4: trace-cmd 3.3+'s line layout */
	int align_ts;		/* --align-ts */
	int json;		/* --json */
	const char *applet;	/* who speaks in messages: "report" when
				 * NULL ("convert" for an export) */
	int lazy_kallsyms;	/* an export: kallsyms loaded into an input's
				 * handle only when one of its events is
				 * printed (report_event_printable) */
	int any_order;		/* an export whose reader sorts (Perfetto):
				 * report_each_event gives each CPU's events
				 * to its end before the next CPU's */
	/* Stored trace data read so far, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/* Print the events (or what ro->show asks for) to stdout, warnings and
 * errors to stderr.  Returns the exit status: 0, 1, or 2 for a filter or
 * --cpu list that does not parse. */
int report_run(const struct report_opts *ro);

/*
 * One event in the report's order, for an export (convert --to parquet):
 * what --json shows of it, before any text is made.
 */
struct report_event {
	struct tep_handle *tep;		/* its input's handle: formats, comms */
	const struct tep_record *rec;	/* data, size (the record's own),
					 * cpu, missed_events */
	struct tep_event *event;	/* its format; NULL when no format
					 * names its id */
	uint64_t ts;			/* as --json shows it */
	int input;			/* index into ro->inputs */
	const char *buffer;		/* "" for the top buffer */
	int pid;
	const char *comm;		/* looked up in stream order */
	void *priv;			/* report's own */
};

/* Called for each event; non-zero stops the walk and is returned. */
typedef int (*report_event_fn)(void *ctx, const struct report_event *e);

/*
 * Every event of ro's inputs that report --json would print, in its
 * order, to fn (ro->json is taken as set).  Warnings and errors go to
 * stderr as report's do.  Returns fn's non-zero value, or the exit
 * status report would have (0, 1 for damage met, 2 for bad options).
 */
int report_each_event(const struct report_opts *ro, report_event_fn fn,
		      void *ctx);
/*
 * e->rec as it may be handed to libtraceevent to print (tep_print_event):
 * the record itself holds only what it holds, so libtraceevent, which
 * reads fields where the format says, is given a padded copy where they
 * run past it (recview.h).  Valid until fn returns; NULL when out of
 * memory.
 */
const struct tep_record *report_event_printable(const struct report_event *e);

/* ---- fields.c: the field rules --json and the exports share ---- */

/*
 * Where field f's bytes are in the payload data[0..size): 0, or -1 when
 * they are not all inside it.  A __data_loc field holds a 32-bit word,
 * length << 16 | offset (__rel_loc: the offset counts from the end of
 * the word); a flexible array (char buf[], size 0) runs to the end, and
 * so does ftrace's kernel_stack's and user_stack's caller[8]: as many
 * frames as the stack had, fewer or more than 8.
 */
int report_field_span(struct tep_handle *tep, const struct tep_format_field *f,
		      const uint8_t *data, size_t size, size_t *start,
		      size_t *len);
/* char arrays are text.  libtraceevent's STRING flag also marks u8 and
 * s8 arrays: those and unsigned char ones are numbers. */
int report_field_is_text(const struct tep_format_field *f);
/* trace_marker_raw's payload: bytes, though declared "char buf[]". */
int report_field_is_raw_marker(const struct tep_format_field *f);
/* Length of the valid UTF-8 sequence at p (a byte >= 0x80), or 0: no
 * overlong forms, no surrogates, nothing past U+10FFFF. */
size_t report_utf8_len(const uint8_t *p, size_t n);
/* n bytes of s appended to out as UTF-8, as --json shows text: valid
 * UTF-8 as it is, every other byte as the character U+00XX.  0, or -1
 * when out of memory. */
struct tdat_bytes;
int report_utf8_add(struct tdat_bytes *out, const char *s, size_t n);

/* How a field's bytes become a value, as --json shows it. */
enum report_read {
	REPORT_READ_INT,	/* a number of `size` bytes */
	REPORT_READ_TEXT,	/* a char array, up to its NUL */
	REPORT_READ_BYTES,	/* bytes (--json: an array of them) */
	REPORT_READ_LIST,	/* an array of `es`-byte numbers */
};

struct report_field_kind {
	enum report_read read;
	int fixed;		/* its place is the format's offset and size
				 * alone (else report_field_span finds it) */
	int size;		/* REPORT_READ_INT: bytes */
	int es;			/* REPORT_READ_LIST: bytes an element */
	int is_signed;		/* numbers sign-extended (never addresses) */
};

/* What field f is, by the rules json_put_field follows; the exports
 * type their columns and values from it. */
void report_field_kind(const struct tep_format_field *f,
		       struct report_field_kind *k);

#endif
