/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * salvage.c - restore -o OUT DAMAGED: a truncated or partly corrupt
 * trace.dat becomes a valid one holding every genuine page it still has.
 *
 * The file is opened tolerantly (tdat_open_salvage).  Buffers whose
 * description survived are read from their recorded CPU streams, clamped
 * to the end of the file; a v7 buffer section whose BUFFER option is lost
 * (a file cut before its trailing options) is searched: CPU streams start
 * on page boundaries, compressed ones with a chunk count and plausible
 * chunk headers, raw ones as pages whose time stamps restart when the
 * next CPU begins.  Every page goes through restore's page filter, every
 * chunk must decompress.  What was dropped and what had to be inferred
 * is said, one line each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/restore/salvage_internal.h"
#include "libfmt/salvage.h"
#include "libfmt/metabuild.h"

static void free_plans(struct salvage *sv)
{
	int i;

	for (i = 0; i < sv->nbufs; i++) {
		free(sv->bufs[i].name);
		free(sv->bufs[i].clock);
		free(sv->bufs[i].cpus);
		free(sv->plans[i].streams);
	}
	free(sv->bufs);
	free(sv->plans);
}

/* A buffer whose description survived: its streams, clamped to the file. */
static int plan_described(struct salvage *sv, int i, struct tdat_error *err)
{
	const struct tdat_buffer *fb = &sv->f->buffers[i];
	uint64_t size = sv->f->file_size;
	struct tdat_buffer *b;
	struct plan *p;
	int j;

	b = sv_add_buffer(sv, fb->name, fb->clock, fb->page_size);
	if (!b)
		return sv_oom(sv, err);
	p = &sv->plans[sv->nbufs - 1];
	p->from = i;
	p->compressed = fb->compressed;
	p->latency = fb->latency;
	b->latency = fb->latency;
	if (fb->latency)
		return 0;
	for (j = 0; j < fb->ncpus; j++) {
		const struct tdat_cpu *c = &fb->cpus[j];
		uint64_t end = c->offset + c->size;

		if (!c->size)
			continue;
		if (end < c->offset)
			end = UINT64_MAX;
		if (c->offset >= size) {
			restore_say_at(sv->o, sv->path, c->offset, "lost:"
				       " buffer \"%s\" CPU %d: all its %llu"
				       " bytes are past the end of the file",
				       fb->name, c->cpu,
				       (unsigned long long)c->size);
			sv->dropped += c->size;
			continue;
		}
		/* Compressed: the chunk count bounds the walk, not the
		 * size (trace-cmd 3.1 records it 4 bytes short). */
		if (sv_add_stream(p, c->cpu, c->offset,
			       end > size || p->compressed ? size : end,
			       end > size ? end - size : 0))
			return sv_oom(sv, err);
	}
	return 0;
}

/* A described compressed stream ends where the file's next one begins:
 * a resync must not wander into another CPU's chunks. */
static void bound_streams(struct salvage *sv)
{
	int i, j, b, c;

	for (i = 0; i < sv->nbufs; i++) {
		struct plan *p = &sv->plans[i];

		if (p->from < 0 || !p->compressed)
			continue;
		for (j = 0; j < p->nstreams; j++) {
			struct stream *s = &p->streams[j];

			for (b = 0; b < sv->f->nbuffers; b++) {
				const struct tdat_buffer *fb =
					&sv->f->buffers[b];

				for (c = 0; c < fb->ncpus; c++)
					if (fb->cpus[c].size &&
					    fb->cpus[c].offset > s->start &&
					    fb->cpus[c].offset < s->end)
						s->end = fb->cpus[c].offset;
			}
		}
	}
}

/* The writer's metadata: the file's, with our buffers and CPU count. */
static int writer_meta(struct salvage *sv, uint32_t cpus,
		       struct tdat_error *err)
{
	int i;

	sv->m = tdat_meta_clone(sv->f, 0, err);
	if (!sv->m)
		return -1;
	for (i = 0; i < sv->nbufs; i++)
		if (tdat_meta_copy_buffer(sv->m, &sv->bufs[i], NULL) < 0)
			return sv_oom(sv, err);
	sv->m->cpu_count = cpus;
	return 0;
}

static int make_plans(struct salvage *sv, struct tdat_error *err)
{
	uint32_t n;
	int i, j;

	for (i = 0; i < sv->f->nbuffers; i++)
		if (plan_described(sv, i, err))
			return -1;
	bound_streams(sv);
	for (i = 0; i < sv->s.nlost; i++)
		if (sv_plan_lost(sv, i, err))
			return -1;
	for (i = 1; i < sv->nbufs; i++) {
		if (sv->bufs[i].name[0])
			continue;
		for (j = i; j > 0; j--) {
			struct tdat_buffer tb = sv->bufs[j];
			struct plan tp = sv->plans[j];

			sv->bufs[j] = sv->bufs[j - 1];
			sv->plans[j] = sv->plans[j - 1];
			sv->bufs[j - 1] = tb;
			sv->plans[j - 1] = tp;
		}
		break;
	}
	/* CPU ids for the writer's count, and the count itself. */
	n = sv->f->cpu_count;
	for (i = 0; i < sv->nbufs; i++) {
		struct plan *p = &sv->plans[i];

		sv->bufs[i].cpus = calloc(p->nstreams ? p->nstreams : 1,
					  sizeof(struct tdat_cpu));
		if (!sv->bufs[i].cpus)
			return sv_oom(sv, err);
		sv->bufs[i].ncpus = p->nstreams;
		for (j = 0; j < p->nstreams; j++) {
			sv->bufs[i].cpus[j].cpu = p->streams[j].cpu;
			if ((uint32_t)p->streams[j].cpu + 1 > n)
				n = (uint32_t)p->streams[j].cpu + 1;
		}
	}
	return writer_meta(sv, n, err);
}

/*
 * Nothing kept: said at the first stream's start, or at the end of the
 * file when there was no stream to read.
 */
static int nothing_kept(struct salvage *sv, struct tdat_error *err)
{
	uint64_t at = UINT64_MAX;
	int b, i;

	for (b = 0; b < sv->nbufs; b++)
		for (i = 0; i < sv->plans[b].nstreams; i++)
			if (sv->plans[b].streams[i].start < at)
				at = sv->plans[b].streams[i].start;
	if (at == UINT64_MAX)
		return tdat_fail(err, sv->path, sv->f->file_size, "nothing to"
				 " salvage: no stream of trace data is described"
				 " or found before the end of the file");
	return tdat_fail(err, sv->path, at, "nothing to salvage: no"
			 " complete page of trace data survives (%llu bytes"
			 " dropped)", (unsigned long long)sv->dropped);
}

static int write_out(struct salvage *sv, const char *out,
		     struct tdat_error *err)
{
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	uint64_t done = 0, total = 0;
	int b, i, r = 0;

	memset(&wo, 0, sizeof(wo));
	wo.version = sv->o && sv->o->version ? sv->o->version : sv->f->version;
	wo.codec = sv->o && sv->o->version ? sv->o->codec : sv->f->codec;
	if (wo.version == 6)
		wo.codec = TDAT_CODEC_NONE;
	wo.threads = sv->o ? sv->o->threads : 0;
	w = tdat_writer_open(out, sv->m, &wo, err);
	if (!w)
		return -1;
	for (b = 0; b < sv->nbufs; b++)
		total += (uint64_t)sv->plans[b].nstreams;
	for (b = 0; !r && b < sv->nbufs; b++) {
		if (sv->plans[b].latency) {
			r = sv_copy_latency(sv, w, b, err);
			continue;
		}
		for (i = 0; !r && i < sv->plans[b].nstreams; i++) {
			r = sv_copy_stream(sv, w, b, &sv->plans[b].streams[i], err);
			if (sv->o && sv->o->progress)	/* streams done */
				sv->o->progress(sv->o->progress_ctx, ++done,
						total);
		}
	}
	if (!r && !sv->pages && !(sv->nbufs && sv->plans[0].latency))
		r = nothing_kept(sv, err);
	if (r) {
		tdat_writer_abort(w);
		return -1;
	}
	return tdat_writer_close(w, err);
}

int salvage_file(const char *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err)
{
	struct salvage sv;
	int i, r = -1;

	memset(&sv, 0, sizeof(sv));
	sv.path = in;
	sv.o = o;
	sv.f = tdat_open_salvage(in, &sv.s, err);
	if (!sv.f)
		return -1;
	for (i = 0; i < sv.s.nnotes; i++)
		restore_say_at(o, in, sv.s.notes[i].offset, "%s",
			       sv.s.notes[i].text);
	sv.ids = malloc(sizeof(*sv.ids));
	if (!sv.ids) {
		sv_oom(&sv, err);
		goto done;
	}
	if (tdat_event_ids_load(sv.f, sv.ids, err) ||
	    make_plans(&sv, err) || write_out(&sv, out, err))
		goto done;
	restore_say(o, "%s: kept %llu pages (%llu events) in %d buffer%s;"
		    " dropped %llu bytes", out, (unsigned long long)sv.pages,
		    (unsigned long long)sv.events, sv.nbufs,
		    sv.nbufs == 1 ? "" : "s", (unsigned long long)sv.dropped);
	r = 0;
done:
	free_plans(&sv);
	free(sv.ids);
	tdat_bytes_free(&sv.cbuf);
	tdat_bytes_free(&sv.ubuf);
	tdat_salvage_free(&sv.s);
	tdat_close(sv.m);
	tdat_close(sv.f);
	return r;
}
