/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfetto_internal.h - what the files of convert/perfetto/ share (the
 * interface is perfetto.h; the wire format writer is pbwrite/pbwrite.h).
 *
 * sink.c gathers packets and writes them zlib-compressed to the file;
 * bundle.c keeps one FtraceEventBundle open per CPU; maps.c decides how
 * each event type is written (typed.c's table, or self-describing) and
 * encode.c writes an event that way; meta.c writes the system info and
 * the threads' names; run.c walks the event stream (convert/events/).
 */
#ifndef PERFETTO_INTERNAL_H
#define PERFETTO_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "convert/perfetto/perfetto.h"
#include "convert/perfetto/pbwrite/pbwrite.h"
#include "convert/events/events.h"
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

/* TracePacket fields (PERFETTO.md 3) */
enum {
	PKT_FTRACE_EVENTS = 1,
	PKT_PROCESS_TREE = 2,
	PKT_SEQUENCE_ID = 10,	/* trusted_packet_sequence_id */
	PKT_SEQUENCE_FLAGS = 13,
	SEQ_STATE_CLEARED = 1,	/* INCREMENTAL_STATE_CLEARED */
	PKT_FTRACE_STATS = 34,
	PKT_SYSTEM_INFO = 45,
	PKT_COMPRESSED = 50,
	PKT_MACHINE_ID = 98,	/* not in PERFETTO.md; tp v58.2 reads it
				 * as tdat-convert(1) says */
};

/* ---- sink.c: the trace file ---- */

struct tdat_wholefile;
struct sink;
struct libdeflate_compressor;

#define SINK_WORKERS 2		/* compressing threads */

/* A chain a worker compresses and writes. */
struct sink_job {
	struct sink *sink;
	pthread_t thread;
	struct pb full;		/* the chain */
	struct libdeflate_compressor *dc;	/* made at its first chain */
	uint8_t *z;		/* the chain compressed */
	size_t zcap, zlen;
	uint64_t seq;		/* its place in the file */
	int busy;		/* holds a chain not written yet */
};

struct sink {
	struct tdat_wholefile *w;
	struct pb chain;	/* Trace.packet fields being gathered */
	int level;
	struct tdat_error err;	/* why the last call failed */
	struct sink_job jobs[SINK_WORKERS];
	int nworkers;		/* threads running (0: compressed inline) */
	int sync;		/* lock and cond made */
	pthread_mutex_t lock;	/* guards the jobs' busy and seq, and: */
	pthread_cond_t cond;
	uint64_t seq;		/* chains handed over */
	uint64_t written;	/* chains in the file: the next to write */
	int stop;
	int failed;		/* a worker could not: werr says why */
	struct tdat_error werr;
};

int sink_open(struct sink *s, const char *path, int level);
/* A packet holding one length-delimited field (its payload) of n bytes,
 * of that machine (0: the first input's, written without machine_id),
 * on the machine's sequence (machine + 1). */
int sink_packet(struct sink *s, uint32_t field, const void *p, size_t n,
		uint32_t machine);
/* The same in two steps: room for the n bytes of the payload (NULL
 * when out of memory), which the caller fills, then the packet's end. */
uint8_t *sink_packet_room(struct sink *s, uint32_t field, size_t n,
			  uint32_t machine);
int sink_packet_end(struct sink *s, uint32_t machine);
/* The first packet of a machine's sequence: its state cleared, so that
 * interned data is taken.  0/-1. */
int sink_sequence_start(struct sink *s, uint32_t machine);
/* Everything still held compressed, the file synced and named.  0/-1. */
int sink_finish(struct sink *s);
void sink_abort(struct sink *s);

/* ---- typed.c: the events Perfetto has a message for ---- */

enum pf_type {
	PT_STR, PT_I32, PT_I64, PT_U32, PT_U64,
	PT_U64_REP,	/* repeated, one tag an element (sys_enter args) */
	PT_S64,		/* self-describing: zigzag */
	PT_JSON,	/* self-describing: an array as --json's text */
};

struct typed_field {
	const char *name;	/* the format's, which is the proto's */
	uint8_t num;
	uint8_t type;		/* enum pf_type */
};

struct typed_event {
	const char *system, *name;
	uint16_t id;		/* FtraceEvent field number */
	uint8_t analysed;	/* Perfetto's analyses read it: typed even
				 * when a field of the format has no place */
	struct typed_field f[8];
};

/* The message for system/name, or NULL. */
const struct typed_event *typed_find(const char *system, const char *name);

/* ---- maps.c: how each event type is written ---- */

enum pf_form {
	FORM_TYPED,	/* Perfetto's own message */
	FORM_SELF,	/* self-describing, its descriptor sent once */
	FORM_LEGACY,	/* GenericFtraceEvent: more fields than 31 */
};

struct pf_field {
	struct field_place place;	/* the field and its kind (the
					 * stream's event_layout) */
	uint32_t num;
	enum pf_type type;
	int names;		/* a pid trace_processor names a thread by */
	int symbol;		/* a kernel function it names by symbol */
	int state;		/* sched_switch's prev_state (taskstate.c) */
};

struct pf_map {
	enum pf_form form;
	uint32_t id;		/* the payload's field number */
	const char *name;	/* the event's (the stream's handle owns it) */
	struct pf_field *fields;
	int n;
	struct pb desc;		/* FORM_SELF: GenericEventDescriptor */
	int desc_sent;
	int print;		/* ftrace/print: typed for atrace text only */
	struct pf_map *plain;	/* print's self-describing form */
	int fast;		/* numbers at fixed places and texts only,
				 * an event under 128 bytes: encode_event's
				 * fast way */
	size_t fixed_end;	/* the record size the fast way needs */
	size_t fast_most;	/* its most bytes but for its texts */
	int fast_texts;		/* text fields, measured event by event */
	int group_hint;		/* its group in the last bundle it went to */
};

struct pf_maps {
	/* per input, a map per event id: 256 pages of 256, made as
	 * needed (an input's ids are few and close together) */
	struct pf_map ***by_id[EVENTS_MAX_INPUTS];
	uint32_t next_self;	/* the next self-describing id */
};

/* The map of l's event of input k, made on first use; NULL when out of
 * memory or out of self-describing ids. */
struct pf_map *maps_get(struct pf_maps *m, int k,
			const struct event_layout *l);
void maps_free(struct pf_maps *m);

/* ---- symbols.c ---- */

/* A set of kernel addresses (open addressing; 0 empty, 1 taken). */
struct pf_syms {
	uint64_t *addr;
	size_t n, cap;
};

/* addr to be named.  0, or -1 when out of memory. */
int syms_add(struct pf_syms *s, uint64_t addr);
/* The names of set's addresses in f's kallsyms, as an interned_data
 * packet of that machine; set is used up.  0/-1. */
int meta_symbols(struct sink *s, const struct tdat_file *f,
		 struct pf_syms *set, uint32_t machine);
void syms_free(struct pf_syms *s);

/* ---- taskstate.c: prev_state as the recording's print fmt reads it ---- */

/* The bits trace_processor decodes prev_state by, chosen by the release
 * SystemInfo declares. */
enum tp_bits {
	TP_BITS_4_4,	/* none (or one it cannot read), up to 4.7 */
	TP_BITS_4_8,	/* 4.8 to 4.13: preemption 0x1000 */
	TP_BITS_4_14,	/* 4.14 on: P I at 0x40 0x80, preemption 0x100 */
};

/* Which for a SystemInfo of sysname and release (trace_processor's
 * reading of them). */
enum tp_bits tp_bits_for(const char *sys, size_t sys_len, const char *rel,
			 size_t rel_len);

struct task_states;
/* The prev_state of tep's sched_switch, read through its print fmt
 * (big: the file's byte order); NULL when it has none or its print fmt
 * shows none (*oom set when out of memory). */
struct task_states *task_states_new(struct tep_handle *tep, int big,
				    int *oom);
/* Whether b has a bit for every letter ts's print fmt shows. */
int task_states_fit(const struct task_states *ts, enum tp_bits b);
/* Write values in b's bits (TP_BITS_4_4 until said). */
void task_states_use(struct task_states *ts, enum tp_bits b);
/* A recorded prev_state as written: the letters its print fmt shows, in
 * ts's bits (as it is when it shows no letter but unknown bits). */
uint64_t task_state_write(struct task_states *ts, uint64_t raw);
void task_states_free(struct task_states *ts);

/* ---- encode.c ---- */

#define PF_NAMED_PIDS (1u << 22)	/* the kernel's PID_MAX_LIMIT */

struct encoder {
	int big[EVENTS_MAX_INPUTS];	/* each input's byte order */
	struct tdat_bytes text;		/* scratch */
	/* per input, a bit per pid some event names (sched_switch,
	 * sched_waking, task_*); NULL: none yet */
	uint8_t *named[EVENTS_MAX_INPUTS];
	struct pf_syms syms[EVENTS_MAX_INPUTS];	/* symbol addresses */
	struct task_states *states[EVENTS_MAX_INPUTS];	/* NULL: as is */
	int failed;		/* out of memory for one of them */
};

/* Whether m's events may go the fast way (m->fast, m->fixed_end). */
void encode_prepare(struct pf_map *m);
/* Event e as an FtraceEvent (field 2 of the bundle b) through map m;
 * m->desc first when not sent yet. */
void encode_event(struct encoder *x, struct pb *b, struct pf_map *m,
		  const struct stream_event *e);

/* ---- bundle.c: one open FtraceEventBundle per CPU of each machine ---- */

#define PF_MAX_CPUS 1024	/* trace_processor refuses more */
#define BUNDLE_GROUPS 32	/* event types open at once in a bundle */

struct cpu_bundle {
	struct pb sealed;	/* events of closed groups */
	struct pb group[BUNDLE_GROUPS];	/* the open groups' events */
	const struct pf_map *key[BUNDLE_GROUPS];	/* and their types */
	int ngroups;
	size_t bytes;		/* of events, sealed or not */
	uint64_t last_ts;
	struct pb *open;	/* the group of the event being written */
	size_t open_len;	/* its bytes before the event */
	int lost;		/* data was lost before this bundle */
};

struct machine_bundles {
	struct cpu_bundle *cpu;	/* by CPU, grown as needed */
	int n;
};

struct bundles {
	struct machine_bundles m[EVENTS_MAX_INPUTS];	/* one an input */
	size_t flush_at;	/* bytes that close a bundle */
	struct sink *sink;	/* its err says why a call failed */
};

/* ncpus: of all the machines together. */
void bundles_init(struct bundles *bs, struct sink *s, int ncpus);
/* Where an event of type key at timestamp ts is to be written, in the
 * open bundle of CPU cpu of machine m; NULL when out of memory or out
 * of range. */
struct pb *bundle_get_slow(struct bundles *bs, int m, int cpu,
			   struct pf_map *key, uint64_t ts);
/* Inline for the usual case, the group its type went to last. */
static inline struct pb *bundle_get(struct bundles *bs, int m, int cpu,
				    struct pf_map *key, uint64_t ts)
{
	struct cpu_bundle *cb;
	int g = key->group_hint;

	if (m < 0 || m >= EVENTS_MAX_INPUTS || cpu < 0 || cpu >= bs->m[m].n)
		return bundle_get_slow(bs, m, cpu, key, ts);
	cb = &bs->m[m].cpu[cpu];
	if (!cb->bytes || ts <= cb->last_ts || g >= cb->ngroups ||
	    cb->key[g] != key || cb->group[g].failed)
		return bundle_get_slow(bs, m, cpu, key, ts);
	cb->last_ts = ts;
	cb->open = &cb->group[g];
	cb->open_len = cb->open->len;
	return cb->open;
}
/* Send the bundle if it holds anything; the next is marked lost when
 * lost is set.  0 or -1. */
int bundle_send(struct bundles *bs, int m, int cpu, int lost);
/* After the event went where bundle_get said: the bundle sent when big
 * enough.  0 or -1. */
static inline int bundle_done(struct bundles *bs, int m, int cpu)
{
	struct cpu_bundle *cb = &bs->m[m].cpu[cpu];

	cb->bytes += cb->open->len - cb->open_len;
	return cb->bytes >= bs->flush_at ? bundle_send(bs, m, cpu, 0) : 0;
}
int bundles_flush(struct bundles *bs);
void bundles_free(struct bundles *bs);

/* ---- meta.c ---- */

/* Whether f has a UNAME; *bits: what trace_processor decodes prev_state
 * by for it (tp_bits_for). */
int meta_uname_bits(const struct tdat_file *f, enum tp_bits *bits);
/* SystemInfo of that machine from f's UNAME; with a note, its sysname is
 * "Linux (note)", which trace_processor decodes no release by (4.4's
 * bits), written even when f has no UNAME.  0 or -1. */
int meta_system_info(struct sink *s, const struct tdat_file *f,
		     uint32_t machine, const char *note);
/* FtraceStats of that machine at the end of the trace from f's CPUSTAT
 * options (the top buffer's).  0 or -1. */
int meta_cpu_stats(struct sink *s, const struct tdat_file *f,
		   uint32_t machine);
/* ---- names.c ---- */

/* The ProcessTree of machine from f, opened again at the end (its
 * tables are not held through the walk): a Process for each
 * tgid of its pid/tgid table (gpuvis's trace-cmd saved one in an option
 * of CPUCOUNT's id), a Thread for each pid of the table (with its tgid)
 * and of the saved cmdlines, named from the cmdlines unless an event
 * names it (named: a bit per pid, may be NULL).  0 or -1. */
int meta_threads(struct sink *s, const struct tdat_file *f,
		 const uint8_t *named, uint32_t machine);

#endif
