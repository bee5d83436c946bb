/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.h - the report's output: a large buffer, and the line format. */
#ifndef PRINT_H
#define PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <event-parse.h>
#include "libfmt/bytes.h"
#include "convert/fastfmt/fastfmt.h"

struct fgraph;

/* Output through one large buffer: few write() calls for big reports.
 * With fp NULL the buffer grows and is never written. */
struct outbuf {
	FILE *fp;
	struct tdat_bytes b;	/* text not yet written */
	int error;		/* a write failed */
};

void outbuf_init(struct outbuf *o, FILE *fp);
/* n bytes at the end (making room: flushing, or growing). */
void outbuf_put_any(struct outbuf *o, const char *p, size_t n);

/* The common case inline, with the room there: a line is a dozen puts. */
static inline void outbuf_put(struct outbuf *o, const char *p, size_t n)
{
	if (n <= o->b.cap - o->b.len) {
		tdat_copy_short(o->b.data + o->b.len, p, n);
		o->b.len += n;
	} else {
		outbuf_put_any(o, p, n);
	}
}

static inline void outbuf_putc(struct outbuf *o, char c)
{
	if (o->b.len < o->b.cap)
		o->b.data[o->b.len++] = (uint8_t)c;
	else
		outbuf_put_any(o, &c, 1);
}

/* n bytes of room at the end, written in place and then kept with
 * outbuf_commit (any part of them): their start, or NULL. */
char *outbuf_room(struct outbuf *o, size_t n);
void outbuf_commit(struct outbuf *o, size_t n);
void outbuf_puts(struct outbuf *o, const char *s);
void outbuf_pad(struct outbuf *o, size_t n);
void outbuf_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int outbuf_flush(struct outbuf *o);
void outbuf_free(struct outbuf *o);

/* One event as the print loop hands it to a line formatter. */
struct event_view {
	struct tep_handle *tep;
	struct tep_record *rec;	/* data, size, cpu, ts, missed_events */
	uint32_t readable;	/* bytes at rec->data libtraceevent may read:
				 * rec->size, or more for a padded copy */
	uint64_t ts;		/* adjusted timestamp */
	int time_is_ns;		/* show sec.usec, not raw clock counts */
	int has_clock;		/* the input has a TRACECLOCK option */
	const char *label;	/* line prefix (file or instance), or NULL */
	const char *path;	/* the input file */
	const char *buffer;	/* buffer name, "" for the top buffer */
	int has_type;		/* 0: libtraceevent reads the type */
	int type;		/* else common_type as the reader read it */
	int pid;		/* common_pid */
	const char *comm;	/* its command name, looked up in stream
				 * order: use it, not tep's (see pipeline.c) */
	const struct fgraph *fg;/* function_graph events as trace-cmd
				 * prints them, or NULL (funcgraph.h) */
	int fg_leaf;		/* a funcgraph entry is a leaf: */
	uint64_t fg_ns;		/* of this duration */
};

struct print_opts {
	int full_ns;		/* -t */
	int raw;		/* -R */
	int latency;		/* -l */
	int ts_diff;		/* --ts-diff */
	int layout34;		/* latency flags after the CPU, as 3.3+ */
};

/*
 * A line formatter and its state.  print_init() sets up trace-cmd's text
 * lines; another format (say JSON) replaces line and keeps the rest.
 */
struct printer {
	void (*line)(struct printer *p, const struct event_view *e);
	struct outbuf *o;
	struct print_opts opts;
	struct trace_seq seq;	/* scratch for libtraceevent's text */
	uint64_t prev_ts;	/* --ts-diff: the last event's time as the
				 * difference used it (put_diff), 0 none */
	struct body_cache *cache;	/* texts by payload, made on first use */
	struct tdat_bytes swapped;	/* hostptr.c's copy of a record */
	struct fast_table *fast;	/* per event type, made on first use */
	int fast_on;		/* compile print fmts (TDAT_NO_FASTFMT unset) */
	struct event_memo *memo;	/* event_memo_find's, made on first use */
};

/* hostptr.c: e's record for libtraceevent's text, or on a big-endian
 * host a copy in buf (tmp its record) with the values libtraceevent
 * reads in the host's order turned, so that it prints what it prints on
 * a little-endian host; NULL when out of memory. */
const struct tep_record *host_pointers(const struct event_view *e,
				       struct tep_event *ev, int raw,
				       struct tep_record *tmp,
				       struct tdat_bytes *buf);

/* hostptr.c: rec for libtraceevent's filters, or on a big-endian host a
 * copy in buf (tmp its record) with each __data_loc string's offset and
 * length turned as for host_pointers (readable: the bytes at rec->data
 * that may be read); NULL when out of memory. */
const struct tep_record *host_dataloc(struct tep_handle *tep,
				      struct tep_record *rec,
				      uint32_t readable, struct tep_record *tmp,
				      struct tdat_bytes *buf);

/* rawdata.c: is ev ftrace's raw_data?  Then rawdata_print() prints its
 * text (not -R's) as on x86_64: 0, or -1 when the record is
 * too short (libtraceevent prints it then). */
int rawdata_wanted(const struct tep_event *ev);
int rawdata_print(struct trace_seq *s, struct tep_handle *tep,
		  const struct tep_record *rec);

/* fieldlist.c: is ev's text (-R with raw, or [FAILED TO PARSE]) its
 * field list, with a signed char in it?  Then fieldlist_print() prints
 * it (readable: the bytes at rec->data that may be read), the same on
 * every host. */
int fieldlist_wanted(const struct tep_event *ev, int raw);
void fieldlist_print(struct trace_seq *s, struct tep_event *ev,
		     struct tep_record *rec, int raw, uint32_t readable);
/* After libtraceevent's -R text of rec (from offset from of s): a NULL
 * pointer tepfmt widened (a 32-bit host reading a 64-bit file) shows as
 * "0x0" there, made "(nil)" as x86_64 prints it. */
void fieldlist_wide_nils(struct trace_seq *s, unsigned int from,
			 const struct tep_event *ev,
			 const struct tep_record *rec, uint32_t readable);

/* bodycache.c: recent event texts by payload, for events whose text
 * depends on nothing else (print.c says which). */
struct body_cache;
struct body_cache *body_cache_new(void);
void body_cache_free(struct body_cache *c);
const char *body_cache_get(struct body_cache *c, const void *tep,
			   const struct tep_record *r, size_t *len);
void body_cache_put(struct body_cache *c, const void *tep,
		    const struct tep_record *r, const char *text, size_t len);

/* eventmemo.c: e's event, as tep_find_event_by_record(e->tep, e->rec)
 * finds it (NULL: its type has no format), remembered in *m (made on
 * first use) by handle and e->type. */
struct event_memo;
struct tep_event *event_memo_find(struct event_memo **m,
				  const struct event_view *e);
/* The layout of ev, what event_memo_find gave for e, made on first use
 * and kept beside it; NULL where the memo keeps no slot for it (or out
 * of memory): read the format's fields then. */
struct event_layout;
const struct event_layout *event_memo_layout(struct event_memo *m,
					     const struct event_view *e,
					     const struct tep_event *ev);
void event_memo_free(struct event_memo *m);

/* fastcache.c: what put_info keeps of each event type it printed. */
struct fast_event {
	const struct tep_event *ev;	/* NULL: an empty slot */
	struct fastfmt *prog;	/* its compiled print fmt, or NULL */
	int counts;		/* tepfmt_bound_counts has work */
};
struct fast_table;
/* ev's entry in *t (made, with *t, on first use; compiled unless compile
 * is 0), or NULL when out of memory. */
const struct fast_event *fast_event_of(struct fast_table **t,
				       struct tep_event *ev, int compile);
void fast_table_free(struct fast_table *t);

/* Printing ev may change how later events print (a plugin that keeps
 * state, bprint's failed flag): every such event must be printed in
 * stream order, on one handle. */
int event_has_state(const struct tep_event *ev);
void print_init(struct printer *p, struct outbuf *o,
		const struct print_opts *opts);
void print_done(struct printer *p);
/* trace-cmd report's line, what print_init installs as p->line. */
void print_text_line(struct printer *p, const struct event_view *e);

#endif
