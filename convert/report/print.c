/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.c - one event line, formatted as trace-cmd report prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/events/stream.h"
#include "convert/report/print.h"
#include "convert/report/funcgraph.h"
#include "convert/tepfmt/tepfmt.h"

void print_init(struct printer *p, struct outbuf *o,
		const struct print_opts *opts)
{
	memset(p, 0, sizeof(*p));
	p->line = print_text_line;
	p->o = o;
	p->opts = *opts;
	p->fast_on = fastfmt_enabled();
	trace_seq_init(&p->seq);
}

void print_done(struct printer *p)
{
	trace_seq_destroy(&p->seq);
	body_cache_free(p->cache);
	p->cache = NULL;
	tdat_bytes_free(&p->swapped);
	fast_table_free(p->fast);
	p->fast = NULL;
	event_memo_free(p->memo);
	p->memo = NULL;
}

/* Nanoseconds to the nearest microsecond, without overflow at the top. */
static uint64_t round_us(uint64_t ts)
{
	return ts / 1000 + (ts % 1000 >= 500);
}

/*
 * The prefix of every line is made by hand: printf's format parsing was
 * a tenth of a report's time.  Same output as the formats noted.
 */

/* Decimal digits of v, at least min (<= 24) of them (zero-padded); its
 * length.  Two digits a division: the line prefix's numbers were a
 * few percent of a report. */
static int put_digits(char *buf, uint64_t v, int min)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char tmp[32];
	int n = (int)sizeof(tmp), len;

	while (v >= 100) {
		n -= 2;
		memcpy(tmp + n, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		n -= 2;
		memcpy(tmp + n, pairs + 2 * v, 2);
	} else {
		tmp[--n] = (char)('0' + v);
	}
	while ((int)sizeof(tmp) - n < min && n > 0)
		tmp[--n] = '0';
	len = (int)sizeof(tmp) - n;
	tdat_copy_short(buf, tmp + n, (size_t)len);
	return len;
}

/* "%*llu": right-aligned in width columns. */
static void put_u_right(struct outbuf *o, uint64_t v, int width)
{
	char buf[24];
	int n = put_digits(buf, v, 1);

	if (n < width)
		outbuf_pad(o, (size_t)(width - n));
	outbuf_put(o, buf, (size_t)n);
}

/* "%0*llu" */
static void put_u_zero(struct outbuf *o, uint64_t v, int width)
{
	char buf[24];

	outbuf_put(o, buf, (size_t)put_digits(buf, v, width));
}

/* "%16s-%-5d [%03d]" */
static void put_task(struct outbuf *o, const char *comm, int pid, int cpu)
{
	size_t len = strlen(comm);
	char buf[24];
	int n = 0;

	if (pid < 0 || cpu < 0) {	/* not seen in real files */
		outbuf_printf(o, "%16s-%-5d [%03d]", comm, pid, cpu);
		return;
	}
	if (len < 16)
		outbuf_pad(o, 16 - len);
	outbuf_put(o, comm, len);
	buf[n++] = '-';
	n += put_digits(buf + n, (uint64_t)pid, 1);
	while (n < 6)
		buf[n++] = ' ';
	outbuf_put(o, buf, (size_t)n);
	outbuf_put(o, " [", 2);
	put_u_zero(o, (uint64_t)cpu, 3);
	outbuf_putc(o, ']');
}

static void put_time(struct outbuf *o, const struct printer *p,
		     const struct event_view *e)
{
	uint64_t ts = e->ts, us;

	if (!e->time_is_ns) {			/* "%12llu:" */
		put_u_right(o, ts, 12);
	} else if (p->opts.full_ns) {		/* " %5llu.%09llu:" */
		outbuf_putc(o, ' ');
		put_u_right(o, ts / 1000000000ull, 5);
		outbuf_putc(o, '.');
		put_u_zero(o, ts % 1000000000ull, 9);
	} else {				/* " %5llu.%06llu:" */
		us = round_us(ts);
		outbuf_putc(o, ' ');
		put_u_right(o, us / 1000000ull, 5);
		outbuf_putc(o, '.');
		put_u_zero(o, us % 1000000ull, 6);
	}
	outbuf_putc(o, ':');
}

/*
 * --ts-diff: "(+N)" in an 8-column field, N the time since the last
 * event shown: the difference of the rounded microseconds when the file
 * has a TRACECLOCK option (even an empty one, or one shown raw) and -t
 * is not given, else of the
 * timestamps.  As trace-cmd, the last value is kept as used here, rounded
 * or not, and the field is blank while it is 0: at the first event, after
 * --align-ts, and while a clock counting from 0 (counter) is under 500.
 */
static void put_diff(struct printer *p, const struct event_view *e)
{
	char buf[32] = "";
	uint64_t ts = e->ts;

	if (!p->opts.full_ns && e->has_clock)
		ts = round_us(ts);
	if (p->prev_ts)
		snprintf(buf, sizeof(buf), "(+%lld)",
			 (long long)(ts - p->prev_ts));
	outbuf_printf(p->o, " %-8s", buf);
	p->prev_ts = ts;
}

/*
 * The first three latency flags as trace-cmd 3.4 (libtraceevent 1.9)
 * prints them, seen on every value of the flags byte: kernels since 6.12
 * use bit 0x02, once "irqs not supported" ('X' in libtraceevent 1.7), for
 * a lazy need-resched.  'd' irqs off; 'N' need-resched, else 'L' lazy;
 * 'H' hard and soft irq, 'h' hard, 's' soft (NMI and the other bits show
 * nothing).
 */
static void flags34(char *s, int flags)
{
	s[0] = flags & 0x01 ? 'd' : '.';
	s[1] = flags & 0x04 ? 'N' : flags & 0x02 ? 'L' : '.';
	s[2] = (flags & 0x18) == 0x18 ? 'H' : flags & 0x08 ? 'h' :
	       flags & 0x10 ? 's' : '.';
}

/* -l: irqs-off, need-resched, irq context and preempt depth flags; -R
 * shows the raw flags byte instead. */
static void put_latency(struct printer *p, const struct event_view *e)
{
	struct trace_seq *seq = &p->seq;

	if (p->opts.raw) {
		outbuf_printf(p->o, "-0x%x", tep_data_flags(e->tep, e->rec));
		return;
	}
	trace_seq_reset(seq);
	tep_print_event(e->tep, seq, e->rec, "%s", TEP_PRINT_LATENCY);
	trace_seq_terminate(seq);
	if (p->opts.layout34 && seq->len >= 3)
		flags34(seq->buffer, tep_data_flags(e->tep, e->rec));
	outbuf_put(p->o, seq->buffer, seq->len);
}

/*
 * Whether printing ev may change how later events print: a plugin
 * handler that keeps state (the sched_switch plugin registers comms,
 * the function plugin tracks call depth; kmem's and hrtimer's handlers
 * only print the event), or bprint, whose format libtraceevent parses
 * for each record and flags failed for good on the first whose
 * arguments do not match it (every later bprint of the handle is then
 * "[FAILED TO PARSE]"): a worker's handle, seeing only some records,
 * printed either text for the same record.
 */
int event_has_state(const struct tep_event *ev)
{
	if (ev->flags & TEP_EVENT_FL_ISBPRINT)
		return 1;
	return ev->handler && strcmp(ev->system, "kmem") &&
	       strcmp(ev->system, "timer");
}

/* One trailing newline is dropped; the line gets its own. */
static void put_body(struct outbuf *o, const char *text, size_t len)
{
	if (len && text[len - 1] == '\n')
		len--;
	outbuf_put(o, text, len);
}

/*
 * The text of an event whose print fmt is compiled (fastfmt.h), as
 * libtraceevent prints it: 1, or 0 when the record is left to it.  -R
 * prints the fields instead, and stays with libtraceevent.
 */
static int put_compiled(struct printer *p, const struct event_view *e,
			const struct fast_event *fe)
{
	const size_t cap = 2048;	/* longer texts: libtraceevent's */
	char *at;
	int n;

	if (!fe || !fe->prog || p->opts.raw)
		return 0;
	at = outbuf_room(p->o, cap);	/* printed in place */
	if (!at)
		return 0;
	n = fastfmt_print(fe->prog, e->rec->data, (uint32_t)e->rec->size,
			  at, cap);
	if (n < 0)
		return 0;
	if (n && at[n - 1] == '\n')
		n--;
	outbuf_commit(p->o, (size_t)n);
	return 1;
}

/* ev's text for rec into p->seq: where libtraceevent's would depend
 * on the host, our own. */
static void event_text(struct printer *p, const struct event_view *e,
		       struct tep_event *ev, struct tep_record *rec)
{
	struct trace_seq *seq = &p->seq;
	unsigned int from;

	if (!p->opts.raw && rawdata_wanted(ev) &&
	    !rawdata_print(seq, e->tep, rec))
		return;
	if (fieldlist_wanted(ev, p->opts.raw)) {
		fieldlist_print(seq, ev, rec, p->opts.raw, e->readable);
		return;
	}
	from = seq->len;
	tep_print_event(e->tep, seq, rec, "%s",
			p->opts.raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	if (p->opts.raw)
		fieldlist_wide_nils(seq, from, ev, rec, e->readable);
}

static void put_info(struct printer *p, const struct event_view *e,
		     struct tep_event *ev)
{
	struct trace_seq *seq = &p->seq;
	/* A padded record's text depends on bytes past it: not cached. */
	int cache = !event_has_state(ev) && e->readable == (uint32_t)e->rec->size;
	const struct fast_event *fe = fast_event_of(&p->fast, ev, p->fast_on);
	const struct tep_record *rec = e->rec;
	struct tep_record tmp;
	const char *text;
	size_t len;

	if (put_compiled(p, e, fe))
		return;
	if (cache && !p->cache)
		p->cache = body_cache_new();
	if (cache && p->cache) {
		text = body_cache_get(p->cache, e->tep, e->rec, &len);
		if (text) {
			outbuf_put(p->o, text, len);
			return;
		}
	}
	trace_seq_reset(seq);
	/* this handle's helper counts, for rec */
	if (!p->opts.raw && (!fe || fe->counts))
		tepfmt_bound_counts(e->tep, e->rec, (uint32_t)e->rec->size);
	rec = host_pointers(e, ev, p->opts.raw, &tmp, &p->swapped);
	if (!rec)
		rec = e->rec;
	event_text(p, e, ev, (struct tep_record *)rec);
	trace_seq_terminate(seq);
	put_body(p->o, seq->buffer, seq->len);
	if (seq->len && seq->buffer[seq->len - 1] == '\n')
		seq->len--;
	if (cache && p->cache)
		body_cache_put(p->cache, e->tep, e->rec, seq->buffer,
			       seq->len);
}

static void put_missed(struct outbuf *o, const struct tep_record *rec)
{
	if (rec->missed_events > 0)
		outbuf_printf(o, "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu,
			      (long long)rec->missed_events);
	else
		outbuf_printf(o, "CPU:%d [EVENTS DROPPED]\n", rec->cpu);
}

/*
 * An event whose type has no format (the file lacks it, or libtraceevent
 * could not parse it): trace-cmd 3.1.6 and 3.4 print each part
 * libtraceevent formats (task, latency flags, time) as "[UNKNOWN
 * EVENT]", -R's raw flags as they are, its name as "(NULL)", then
 * "[UNKNOWN EVENT]" for its fields.
 */
static void put_unknown(struct printer *p, const struct event_view *e)
{
	static const char unknown[] = "[UNKNOWN EVENT]";
	struct outbuf *o = p->o;

	outbuf_puts(o, unknown);
	if (p->opts.latency || p->opts.layout34) {
		if (p->opts.raw)
			put_latency(p, e);
		else
			outbuf_puts(o, unknown);
	}
	outbuf_puts(o, unknown);
	if (p->opts.ts_diff)
		put_diff(p, e);
	outbuf_puts(o, " (NULL): ");
	outbuf_pad(o, 20 - 6);
	outbuf_puts(o, unknown);
	outbuf_putc(o, '\n');
}

void print_text_line(struct printer *p, const struct event_view *e)
{
	struct outbuf *o = p->o;
	struct tep_event *ev = event_memo_find(&p->memo, e);
	int pid = e->pid;
	const char *comm = e->comm;
	size_t nlen;

	if (e->rec->missed_events)
		put_missed(o, e->rec);
	if (e->label)
		outbuf_puts(o, e->label);
	if (!ev) {
		put_unknown(p, e);
		return;
	}
	if (p->opts.latency) {
		outbuf_printf(o, "%8.8s-%-5d %3d", comm, pid, e->rec->cpu);
		put_latency(p, e);
	} else {
		put_task(o, comm, pid, e->rec->cpu);
		if (p->opts.layout34 && !p->opts.raw)
			outbuf_putc(o, ' ');
		if (p->opts.layout34)
			put_latency(p, e);
	}
	put_time(o, p, e);
	if (p->opts.ts_diff)
		put_diff(p, e);
	outbuf_putc(o, ' ');
	outbuf_puts(o, ev->name);
	outbuf_puts(o, ": ");
	nlen = strlen(ev->name);
	if (nlen < 20)
		outbuf_pad(o, 20 - nlen);
	if (e->fg && (ev->id == e->fg->entry_id || ev->id == e->fg->exit_id))
		fgraph_put_info(o, e->tep, e->fg, e->rec, e->fg_leaf,
				e->fg_ns);
	else
		put_info(p, e, ev);
	outbuf_putc(o, '\n');
}
