/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - convert --to perfetto: each input's system info first, as
 * the stream opens it, then every event of the event stream (several
 * inputs merged on one timeline as report merges them), each into its
 * CPU's bundle, and last each input's thread names.  Input k is
 * Perfetto's machine k: a host and its guest keep their own CPUs, and
 * their threads of the same pid stay apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

struct run {
	struct sink sink;
	struct bundles bs;
	struct pf_maps maps;
	struct encoder x;
	int ninputs;
	uint64_t events, unknown;
	char err[600];		/* why the walk stopped */
};

static int stop(struct run *r, const char *what)
{
	snprintf(r->err, sizeof(r->err), "%s", what);
	return -1;
}

static int on_event(void *ctx, const struct stream_event *e)
{
	struct run *r = ctx;
	struct pf_map *m;
	struct pb *b;
	int k = e->input, cpu = e->rec->cpu;

	if (!e->event || e->event->id < 0 || e->event->id > 65535) {
		r->unknown++;	/* no format: --json shows its id only */
		return 0;
	}
	m = maps_get(&r->maps, e->input, e->layout);
	if (!m)
		return stop(r, "out of memory");
	if (cpu >= PF_MAX_CPUS) {
		snprintf(r->err, sizeof(r->err), "CPU %d: Perfetto reads"
			 " at most %d CPUs", cpu, PF_MAX_CPUS);
		return -1;
	}
	if (e->rec->missed_events && bundle_send(&r->bs, k, cpu, 1))
		return stop(r, r->sink.err.msg);
	b = bundle_get(&r->bs, k, cpu, m, e->ts);
	if (!b)
		return stop(r, "out of memory");
	encode_event(&r->x, b, m, e);
	if (pb_failed(b) || r->x.failed)
		return stop(r, "out of memory");
	r->events++;
	return bundle_done(&r->bs, k, cpu) ? stop(r, r->sink.err.msg) : 0;
}

/* Each input's byte order and CPUs.  0, or 1 when one is unreadable
 * (said). */
static int read_inputs(struct run *r, const struct perfetto_opts *o)
{
	struct tdat_error err;
	struct tdat_file *f;
	int k, cpus = 0;

	for (k = 0; k < o->ninputs; k++) {
		f = tdat_open(o->inputs[k], &err);
		if (!f) {
			fprintf(stderr, "tdat convert: %s\n", err.msg);
			return 1;
		}
		r->x.big[k] = f->big_endian;
		cpus += (int)tdat_cpus(f);
		r->ninputs = k + 1;
		tdat_close(f);	/* the stream reads its own */
	}
	bundles_init(&r->bs, &r->sink, cpus);
	return 0;
}

#define NO_UNAME "no uname in the trace.dat: prev_state in Linux 4.4's bits"
#define OWN_BITS "prev_state in Linux 4.4's bits, which have every state" \
		 " this kernel's sched_switch shows"

/*
 * Machine k's packets ahead of its events, as the stream opens it: its
 * system info and CPU stats, and how its prev_state is written
 * (taskstate.c): in the bits trace_processor reads for the file's
 * release, unless they lack a state the format shows, or there is no
 * release; then 4.4's, and SystemInfo says so.
 */
static int on_input(void *ctx, int k, struct tep_handle *tep,
		    const struct tdat_file *f, char *err, size_t cap)
{
	struct run *r = ctx;
	struct task_states *ts;
	const char *note = NULL;
	enum tp_bits bits;
	int oom, has = meta_uname_bits(f, &bits);

	ts = r->x.states[k] = task_states_new(tep, f->big_endian, &oom);
	if (oom) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	if (ts && !has)
		note = NO_UNAME;
	else if (ts && !task_states_fit(ts, bits))
		note = OWN_BITS;
	if (ts)
		task_states_use(ts, note ? TP_BITS_4_4 : bits);
	if (sink_sequence_start(&r->sink, (uint32_t)k) ||
	    meta_system_info(&r->sink, f, (uint32_t)k, note) ||
	    meta_cpu_stats(&r->sink, f, (uint32_t)k)) {
		snprintf(err, cap, "%s", r->sink.err.msg);
		return -1;
	}
	return 0;
}

/* Each machine's process tree and function names, from its file opened
 * once more (none of its tables is held through the walk). */
static int threads(struct run *r, const struct perfetto_opts *o)
{
	struct tdat_file *f;
	int k, bad;

	for (k = 0; k < r->ninputs; k++) {
		f = tdat_open(o->inputs[k], &r->sink.err);
		if (!f)
			return -1;
		bad = meta_threads(&r->sink, f, r->x.named[k], (uint32_t)k) ||
		      meta_symbols(&r->sink, f, &r->x.syms[k], (uint32_t)k);
		tdat_close(f);
		if (bad)
			return -1;
	}
	return 0;
}

static int walk(struct run *r, const struct perfetto_opts *o)
{
	struct events_opts *eo = calloc(1, sizeof(*eo));
	int k, status;

	if (!eo) {
		fprintf(stderr, "tdat convert: out of memory\n");
		return 1;
	}
	for (k = 0; k < o->ninputs; k++)
		eo->inputs[k].path = o->inputs[k];
	eo->ninputs = o->ninputs;
	eo->applet = "convert";
	eo->lazy_kallsyms = 1;
	eo->any_order = 1;	/* trace_processor sorts (PERFETTO.md 10) */
	eo->progress = o->progress;
	eo->progress_ctx = o->progress_ctx;
	eo->opened = on_input;
	status = events_walk(eo, on_event, r);
	free(eo);
	if (status == -1) {
		fprintf(stderr, "tdat convert: %s\n", r->err);
		return 2;
	}
	if ((!status || status == 1) && (bundles_flush(&r->bs) || threads(r, o))) {
		fprintf(stderr, "tdat convert: %s\n", r->sink.err.msg);
		return 2;
	}
	return status;
}

static void free_inputs(struct run *r)
{
	int k;

	for (k = 0; k < EVENTS_MAX_INPUTS; k++) {
		free(r->x.named[k]);
		syms_free(&r->x.syms[k]);
		task_states_free(r->x.states[k]);
	}
}

int perfetto_run(const struct perfetto_opts *o)
{
	struct run *r = calloc(1, sizeof(*r));
	int status;

	if (!r || o->ninputs < 1 || o->ninputs > EVENTS_MAX_INPUTS) {
		fprintf(stderr, "tdat convert: %s\n", r ? "1 to 64 inputs" :
			"out of memory");
		free(r);
		return r ? 2 : 1;
	}
	if (sink_open(&r->sink, o->out, o->level)) {
		fprintf(stderr, "tdat convert: %s\n", r->sink.err.msg);
		free(r);
		return 2;
	}
	status = read_inputs(r, o);
	/* damage met on the way (1) still gives the trace read so far */
	if (!status && (status = walk(r, o)) <= 1) {
		if (sink_finish(&r->sink)) {
			fprintf(stderr, "tdat convert: %s\n", r->sink.err.msg);
			status = 2;
		}
	} else {
		sink_abort(&r->sink);
	}
	bundles_free(&r->bs);
	maps_free(&r->maps);
	tdat_bytes_free(&r->x.text);
	free_inputs(r);
	free(r);
	return status;
}
