/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - convert --to perfetto: the inputs' system info and thread
 * names first, then every event of report's stream (several inputs
 * merged on one timeline as report merges them, each input's CPUs after
 * the previous input's), each into its CPU's bundle.
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
	int base[REPORT_MAX_INPUTS];	/* input k's CPU 0 in the trace */
	struct tdat_bytes cmdlines;	/* every input's, for the names */
	struct tdat_bytes tgids;	/* every input's pid/tgid table */
	uint64_t events, unknown;
	char err[600];		/* why the walk stopped */
};

static int stop(struct run *r, const char *what)
{
	snprintf(r->err, sizeof(r->err), "%s", what);
	return -1;
}

static int on_event(void *ctx, const struct report_event *e)
{
	struct run *r = ctx;
	struct pf_map *m;
	struct pb *b;
	int cpu = r->base[e->input] + e->rec->cpu;

	if (!e->event || e->event->id < 0 || e->event->id > 65535) {
		r->unknown++;	/* no format: --json shows its id only */
		return 0;
	}
	m = maps_get(&r->maps, e->input, e->event);
	if (!m)
		return stop(r, "out of memory");
	if (cpu >= PF_MAX_CPUS) {
		snprintf(r->err, sizeof(r->err), "CPU %d: Perfetto reads"
			 " at most %d CPUs", cpu, PF_MAX_CPUS);
		return -1;
	}
	if (e->rec->missed_events && bundle_send(&r->bs, cpu, 1))
		return stop(r, r->sink.err.msg);
	b = bundle_get(&r->bs, cpu);
	if (!b)
		return stop(r, "out of memory");
	encode_event(&r->x, b, m, e);
	if (pb_failed(b))
		return stop(r, "out of memory");
	r->events++;
	return bundle_done(&r->bs, cpu) ? stop(r, r->sink.err.msg) : 0;
}

/* Each input's byte order, CPUs and names; the first's system info.
 * 0, or the exit status (said): 1 an input unreadable, 2 the output. */
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
		r->base[k] = cpus;
		cpus += (int)tdat_cpus(f);
		if ((!k && meta_system_info(&r->sink, f)) ||
		    meta_cpu_stats(&r->sink, f, r->base[k]) ||
		    meta_cmdlines(&r->cmdlines, f, &r->sink.err) ||
		    meta_tgids(&r->tgids, f, &r->sink.err)) {
			tdat_close(f);
			fprintf(stderr, "tdat convert: %s\n", r->sink.err.msg);
			return 2;
		}
		tdat_close(f);	/* report reads its own */
	}
	bundles_init(&r->bs, &r->sink, cpus);
	return 0;
}

static int walk(struct run *r, const struct perfetto_opts *o)
{
	struct report_opts *ro = calloc(1, sizeof(*ro));
	int k, status;

	if (!ro) {
		fprintf(stderr, "tdat convert: out of memory\n");
		return 1;
	}
	for (k = 0; k < o->ninputs; k++)
		ro->inputs[k].path = o->inputs[k];
	ro->ninputs = o->ninputs;
	ro->applet = "convert";
	ro->lazy_kallsyms = 1;
	ro->progress = o->progress;
	ro->progress_ctx = o->progress_ctx;
	status = report_each_event(ro, on_event, r);
	free(ro);
	if (status == -1) {
		fprintf(stderr, "tdat convert: %s\n", r->err);
		return 2;
	}
	if (!status || status == 1)
		if (bundles_flush(&r->bs) ||
		    meta_threads(&r->sink, &r->cmdlines, &r->tgids,
				 r->x.named)) {
			fprintf(stderr, "tdat convert: %s\n", r->sink.err.msg);
			return 2;
		}
	return status;
}

int perfetto_run(const struct perfetto_opts *o)
{
	struct run *r = calloc(1, sizeof(*r));
	int status;

	if (!r || o->ninputs < 1 || o->ninputs > REPORT_MAX_INPUTS) {
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
	r->x.named = calloc(PF_NAMED_PIDS / 8, 1);
	status = r->x.named ? read_inputs(r, o) : 1;
	if (!r->x.named)
		fprintf(stderr, "tdat convert: out of memory\n");
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
	tdat_bytes_free(&r->cmdlines);
	tdat_bytes_free(&r->tgids);
	free(r->x.named);
	free(r);
	return status;
}
