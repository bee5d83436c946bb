/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskstate.c - sched_switch's prev_state, written so that Perfetto's
 * thread states are the ones the recording's own print fmt shows.
 *
 * Kernels changed its bits: up to 4.13 sched_switch reported the
 * scheduler's own state (x K W P N at 0x40 to 0x400; preemption at 0x400
 * before 4.2, 0x800 until 4.8, then 0x1000), from 4.14 a set made for
 * reporting (P 0x40, I 0x80, preemption 0x100); vendor kernels mix the
 * two, and the older tables print 0x10 as Z and 0x20 as X.
 * trace_processor picks its decoding by the release SystemInfo declares
 * alone (4.4's without one), and a bit it does not know makes the state
 * NULL and counts task_state_invalid.  So each value is read through the
 * format's print fmt (libtraceevent renders it, with the plugin that
 * prints sched_switch its own way set aside, as report -N shows it), and
 * its letters are written in the bits of the decoding trace_processor
 * will apply.  Where that decoding lacks a letter the format has (x K W
 * N past 4.14), the export declares no Linux release to decode by
 * (meta.c says so), and 4.4's bits, which have every letter, are used.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"
#include "convert/tepfmt/tepfmt.h"

/* Each letter's bits for trace_processor: a 4.14+ release's and an
 * older one's (0: it has none; I there is D|N, which it reads as I). */
static const struct {
	char c;
	uint16_t bits414, bits_old;
} letters[] = {
	{ 'S', 0x1, 0x1 }, { 'D', 0x2, 0x2 }, { 'T', 0x4, 0x4 },
	{ 't', 0x8, 0x8 }, { 'X', 0x10, 0x10 }, { 'Z', 0x20, 0x20 },
	{ 'P', 0x40, 0x200 }, { 'I', 0x80, 0x402 }, { 'x', 0, 0x40 },
	{ 'K', 0, 0x80 }, { 'W', 0, 0x100 }, { 'N', 0, 0x400 },
};

#define NLETTERS (sizeof(letters) / sizeof(letters[0]))
#define MEMO 64			/* values remembered: a kernel has a few */
#define MOST_BITS 32		/* of prev_state looked at for letters */
#define MOST_RECORD 65536	/* a record of the format, at most */
#define PAD 64			/* zeros past it, for what reads past */

struct task_states {
	struct tep_handle *tep;
	struct tep_event *ev;
	uint8_t *rec;		/* a record of ev: its type, the value being
				 * read, zeros */
	int size, at, width, big;
	unsigned alphabet;	/* the letters its print fmt shows (bit k:
				 * letters[k]) */
	enum tp_bits bits;	/* the decoding trace_processor applies */
	int n;
	uint64_t raw[MEMO], out[MEMO];
};

/* A state as the print fmt shows it. */
struct shown {
	unsigned letters;	/* bit k: letters[k] */
	int runnable, preempted;
	int unknown;		/* a bit the table has no letter for */
};

/* "S", "D|K", "R+", "S|0x4000": the text after prev_state=. */
static void parse_shown(const char *p, size_t n, struct shown *s)
{
	size_t i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		if (p[i] == '|')
			continue;
		if (p[i] == '0' && i + 1 < n && p[i + 1] == 'x') {
			s->unknown = 1;	/* __print_flags' leftover bits */
			for (; i + 1 < n && p[i + 1] != '|'; i++)
				;
			continue;
		}
		if (p[i] == 'R' || p[i] == '+') {
			*(p[i] == 'R' ? &s->runnable : &s->preempted) = 1;
			continue;
		}
		for (k = 0; k < NLETTERS && letters[k].c != p[i]; k++)
			;
		if (k < NLETTERS)
			s->letters |= 1u << k;
		else
			s->unknown = 1;
	}
}

/* How the print fmt shows raw: 0, or -1 when its text has no
 * "prev_state=" (or no memory). */
static int render(struct task_states *ts, uint64_t raw, struct shown *s)
{
	struct tep_record rec;
	struct trace_seq seq;
	int flags = ts->ev->flags, r = -1;
	const char *p;

	memset(&rec, 0, sizeof(rec));
	tdat_store_n(ts->big, ts->rec + ts->at, ts->width, raw);
	rec.data = ts->rec;
	rec.size = rec.record_size = ts->size;
	trace_seq_init(&seq);
	tepfmt_bound_counts(ts->tep, &rec, (uint32_t)ts->size);
	/* the print fmt itself, not the plugin's printer: for this one
	 * call (the export's events are walked on one thread) */
	ts->ev->flags |= TEP_EVENT_FL_NOHANDLE;
	tep_print_event(ts->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	ts->ev->flags = flags;
	trace_seq_terminate(&seq);
	p = seq.state == TRACE_SEQ__GOOD && seq.buffer ?
		    strstr(seq.buffer, "prev_state=") : NULL;
	if (p) {
		p += strlen("prev_state=");
		parse_shown(p, strcspn(p, " "), s);
		r = 0;
	}
	trace_seq_destroy(&seq);
	return r;
}

static uint16_t preempt_bit(enum tp_bits b)
{
	return b == TP_BITS_4_14 ? 0x100 : b == TP_BITS_4_8 ? 0x1000 : 0x800;
}

/* s in b's bits; raw as it is when s has no letter b reads (only bits
 * the table does not know). */
static uint64_t encode(const struct shown *s, enum tp_bits b, uint64_t raw)
{
	uint64_t v = 0;
	size_t k;

	for (k = 0; k < NLETTERS; k++)
		if (s->letters & 1u << k)
			v |= b == TP_BITS_4_14 ? letters[k].bits414 :
						 letters[k].bits_old;
	if (s->preempted)
		v |= preempt_bit(b);
	return v || s->runnable ? v : raw;
}

/* The bytes of a record of ev: up to the end of its last field. */
static int record_size(const struct tep_event *ev)
{
	const struct tep_format_field *f;
	int end = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (f = pass ? ev->format.fields : ev->format.common_fields;
		     f; f = f->next)
			if (f->offset >= 0 && f->size >= 0 &&
			    f->offset <= MOST_RECORD - f->size &&
			    f->offset + f->size > end)
				end = f->offset + f->size;
	return end;
}

static int word_size(int n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* ts's record made, its type stored; 0, or -1 when the format's
 * fields do not allow one. */
static int make_record(struct task_states *ts)
{
	struct tep_format_field *type, *st;

	type = tep_find_common_field(ts->ev, "common_type");
	st = tep_find_field(ts->ev, "prev_state");
	ts->size = record_size(ts->ev);
	if (!type || !st || !word_size(type->size) || !word_size(st->size) ||
	    type->offset < 0 || type->offset + type->size > ts->size ||
	    st->offset < 0 || st->offset + st->size > ts->size)
		return -1;
	ts->at = st->offset;
	ts->width = st->size;
	ts->rec = calloc((size_t)ts->size + PAD, 1);
	if (ts->rec)
		tdat_store_n(ts->big, ts->rec + type->offset, type->size,
			     (uint64_t)ts->ev->id);
	return 0;
}

struct task_states *task_states_new(struct tep_handle *tep, int big,
				    int *oom)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched",
						       "sched_switch");
	struct task_states *ts;
	struct shown s;
	int bit;

	*oom = 0;
	if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
		return NULL;	/* no print fmt to read it by */
	ts = calloc(1, sizeof(*ts));
	if (!ts) {
		*oom = 1;
		return NULL;
	}
	ts->tep = tep;
	ts->ev = ev;
	ts->big = big;
	ts->bits = TP_BITS_4_4;
	if (!make_record(ts) && !ts->rec)
		*oom = 1;
	if (!ts->rec || render(ts, 0, &s)) {
		task_states_free(ts);	/* no prev_state it shows */
		return NULL;
	}
	for (bit = 0; bit < ts->width * 8 && bit < MOST_BITS; bit++)
		if (!render(ts, 1ull << bit, &s))
			ts->alphabet |= s.letters;
	return ts;
}

int task_states_fit(const struct task_states *ts, enum tp_bits b)
{
	size_t k;

	for (k = 0; k < NLETTERS; k++)
		if (ts->alphabet & 1u << k &&
		    !(b == TP_BITS_4_14 ? letters[k].bits414 :
					  letters[k].bits_old))
			return 0;
	return 1;
}

void task_states_use(struct task_states *ts, enum tp_bits b)
{
	ts->bits = b;
	ts->n = 0;
}

uint64_t task_state_write(struct task_states *ts, uint64_t raw)
{
	struct shown s;
	uint64_t out;
	int i;

	for (i = 0; i < ts->n; i++)
		if (ts->raw[i] == raw)
			return ts->out[i];
	out = render(ts, raw, &s) ? raw : encode(&s, ts->bits, raw);
	if (ts->n < MEMO) {
		ts->raw[ts->n] = raw;
		ts->out[ts->n++] = out;
	}
	return out;
}

void task_states_free(struct task_states *ts)
{
	if (ts)
		free(ts->rec);
	free(ts);
}

/* trace_processor's reading of a release: the number up to the first
 * dot, then up to the next (with no dot, the whole text again), each
 * all digits; anything else leaves it without a version. */
static int release_number(const char *p, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	if (!n || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(p[i] - '0');
	}
	return *v > UINT32_MAX ? -1 : 0;	/* a uint32 there */
}

enum tp_bits tp_bits_for(const char *sys, size_t sys_len, const char *rel,
			 size_t rel_len)
{
	const char *dot = memchr(rel, '.', rel_len), *minor, *end;
	uint64_t major, min;

	if (sys_len != 5 || memcmp(sys, "Linux", 5))
		return TP_BITS_4_4;
	minor = dot ? dot + 1 : rel;
	end = memchr(minor, '.', (size_t)(rel + rel_len - minor));
	if (!end)
		end = rel + rel_len;
	if (release_number(rel, dot ? (size_t)(dot - rel) : rel_len, &major) ||
	    release_number(minor, (size_t)(end - minor), &min))
		return TP_BITS_4_4;
	if (major != 4)
		return major > 4 ? TP_BITS_4_14 : TP_BITS_4_4;
	return min >= 14 ? TP_BITS_4_14 : min >= 8 ? TP_BITS_4_8 : TP_BITS_4_4;
}
