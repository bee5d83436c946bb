/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * convert.c - copy a trace.dat into a new file of either version and codec.
 *
 * The writer takes the input's metadata as is; this file moves the trace
 * data: compressed chunks pass through untouched when nothing about their
 * compression changes, everything else goes page by page and the writer
 * (re)compresses.  For v6 output it first says what v6 cannot hold.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/copy/copy.h"
#include "libfmt/chunkindex.h"

/* ---- progress ---- */

static void progress_report(struct copy_progress *pr)
{
	if (pr->fn)
		pr->fn(pr->ctx, pr->done, pr->total);
}

/* ---- one CPU stream ---- */

/* Pages out of the reader, to the writer a read window at a time (the
 * writer copies them into its chunks: no batch buffer in between). */
static int copy_pages(struct tdat_file *in, int buf, int idx,
		      struct tdat_writer *w, struct copy_progress *pr,
		      struct tdat_error *err)
{
	const struct tdat_buffer *b = &in->buffers[buf];
	size_t ps = b->page_size, len, i;
	struct tdat_cpu_reader *r;
	struct tdat_page_iter it;
	const uint8_t *pages;
	uint64_t off;
	int got;

	r = tdat_cpu_open(in, buf, idx, err);
	if (!r)
		return -1;
	if (tdat_writer_threads(w) > 1)	/* decompress beside the writing */
		tdat_cpu_read_ahead(r);
	while ((got = tdat_cpu_next_pages(r, &pages, &len, &off, err)) == 1) {
		/* Pages are copied verbatim, but never broken ones. */
		for (i = 0; i < len; i += ps)
			if (tdat_page_iter_init(&it, in, pages + i,
						(uint32_t)ps))
				break;
		if (i < len) {
			got = tdat_cpu_bad_commit(in, buf, idx, off + i, err);
			break;
		}
		if (tdat_writer_put_pages(w, pages, len, err)) {
			got = -1;
			break;
		}
		pr->pages += len / ps;
		if (!b->compressed) {	/* stored bytes are pages */
			pr->done += len;
			progress_report(pr);
		}
	}
	tdat_cpu_close(r);
	return got == 0 ? 0 : -1;
}

/* The writer refused a chunk as corrupt, or could not hold it decoded:
 * say where it is in the input. */
static int bad_chunk(struct tdat_file *in, int buf, int idx, uint32_t k,
		     uint64_t off, enum copy_mode how,
		     struct tdat_error *err)
{
	const struct tdat_buffer *b = &in->buffers[buf];

	if (!err->memory)
		return tdat_fail(err, in->path, off, "buffer \"%s\" CPU %d:"
				 " chunk %u is corrupt (%s)", b->name,
				 b->cpus[idx].cpu, k, how == COPY_UNREAD ?
				 "its sizes or frame header are not sane" :
				 "it does not decompress to the whole, sane"
				 " pages it claims");
	tdat_fail(err, in->path, off, "buffer \"%s\" CPU %d: chunk %u cannot"
		  " be held decoded: out of memory or over the memory budget"
		  " (TDAT_MEMORY raises it)", b->name, b->cpus[idx].cpu, k);
	err->memory = 1;
	return -1;
}

static int put_chunk(struct tdat_file *in, int buf, int idx,
		     struct tdat_writer *w, enum copy_mode how,
		     const uint8_t *data, uint32_t cs, uint32_t us, uint32_t k,
		     uint64_t off, struct copy_progress *pr,
		     struct tdat_error *err)
{
	int r = how == COPY_UNREAD ?
		tdat_writer_put_chunk_stored(w, data, cs, us, err) :
		tdat_writer_put_chunk(w, data, cs, us, err);

	if (r == -2)
		return bad_chunk(in, buf, idx, k, off, how, err);
	pr->chunks++;
	pr->chunks_unread += how == COPY_UNREAD;
	pr->pages += us / in->buffers[buf].page_size;
	pr->done += 8 + (uint64_t)cs;
	progress_report(pr);
	return r ? -1 : 0;
}

/*
 * Chunks as stored, each checked by the writer.  When the writer does
 * not take the first chunk's size (a chunk size was asked), it is taken
 * alone if it is the stream's only chunk and shorter; else 1 is returned
 * before anything was written, to copy pages instead.  off follows the
 * chunk headers (u32 count, then u32 c, u32 u, data).
 */
static int copy_chunks(struct tdat_file *in, int buf, int idx,
		       struct tdat_writer *w, enum copy_mode how,
		       struct copy_progress *pr, struct tdat_error *err)
{
	uint64_t off = in->buffers[buf].cpus[idx].offset + 4;
	struct tdat_cpu_reader *r;
	const uint8_t *data;
	uint8_t *first = NULL;
	uint32_t cs, us, fcs, fus, k = 0;
	int got;

	r = tdat_cpu_open(in, buf, idx, err);
	if (!r)
		return -1;
	got = tdat_cpu_next_chunk(r, &data, &cs, &us, err);
	if (got == 1 && !tdat_writer_chunk_passes(w, in, buf, us)) {
		if (us > tdat_writer_chunk_size(w, buf) ||
		    !(first = malloc(cs ? cs : 1)))
			goto rechunk;
		memcpy(first, data, cs);
		fcs = cs;
		fus = us;
		got = tdat_cpu_next_chunk(r, &data, &cs, &us, err);
		if (got != 0)
			goto rechunk;	/* more than one short chunk */
		got = put_chunk(in, buf, idx, w, how, first, fcs, fus, k, off,
				pr, err);
	}
	while (got == 1) {
		if (put_chunk(in, buf, idx, w, how, data, cs, us, k++, off,
			      pr, err)) {
			got = -1;
			break;
		}
		off += 8 + (uint64_t)cs;
		got = tdat_cpu_next_chunk(r, &data, &cs, &us, err);
	}
	free(first);
	tdat_cpu_close(r);
	return got;
rechunk:
	free(first);
	tdat_cpu_close(r);
	return got < 0 ? -1 : 1;
}

/* About this much stored data is read and written at a time. */
#define RUN_BYTES (1u << 20)

/* Chunks as stored, in runs of whole chunks with their headers, not
 * decoded: the writer checks what needs no decoding. */
static int copy_chunk_runs(struct tdat_file *in, int buf, int idx,
			   struct tdat_writer *w, struct copy_progress *pr,
			   struct tdat_error *err)
{
	struct tdat_chunk_walk cw;
	uint8_t *run = NULL;
	size_t cap = 0;
	uint32_t k;
	int64_t n;
	int r = 0;

	if (tdat_chunk_walk_init(&cw, in, buf, idx, err))
		return -1;
	while ((n = tdat_chunk_walk_run(&cw, &run, &cap, RUN_BYTES, &k,
					err)) > 0) {
		r = tdat_writer_put_chunks_stored(w, run, (size_t)n, err);
		if (r)
			break;
		pr->chunks += k;
		pr->chunks_unread += k;
		pr->done += (uint64_t)n;
		progress_report(pr);
	}
	free(run);
	if (n < 0 || r)
		return -1;
	pr->pages += cw.usize / in->buffers[buf].page_size;
	return 0;
}

/* Raw pages as stored, by the kernel, unread: only their extent is
 * checked (whole pages inside the file). */
static int copy_raw_unread(struct tdat_file *in, int buf, int idx,
			   struct tdat_writer *w, struct copy_progress *pr,
			   struct tdat_error *err)
{
	const struct tdat_buffer *b = &in->buffers[buf];
	const struct tdat_cpu *c = &b->cpus[idx];
	uint64_t got, n;

	if (c->size % b->page_size || c->offset > in->file_size ||
	    c->size > in->file_size - c->offset)
		return 1;	/* the reader says what is wrong */
	for (got = 0; got < c->size; got += n) {
		n = c->size - got < RUN_BYTES ? c->size - got : RUN_BYTES;
		if (tdat_writer_put_file_pages(w, in, c->offset + got, n, err))
			return -1;
		pr->pages += n / b->page_size;
		pr->done += n;
		progress_report(pr);
	}
	return 0;
}

int copy_stream_data(struct tdat_file *in, int buf, int idx,
		     struct tdat_writer *w, enum copy_mode how,
		     struct copy_progress *pr, struct tdat_error *err)
{
	int r = 1;

	if (how == COPY_UNREAD && tdat_writer_chunk_passes(w, in, buf, 0))
		return copy_chunk_runs(in, buf, idx, w, pr, err);
	if (how == COPY_UNREAD && tdat_writer_pages_pass(w, in, buf))
		r = copy_raw_unread(in, buf, idx, w, pr, err);
	if (r != 1)
		return r;
	if (how != COPY_PAGES &&
	    tdat_writer_chunk_passes(w, in, buf, tdat_writer_chunk_size(w, buf)))
		r = copy_chunks(in, buf, idx, w, how, pr, err);
	if (r == 1)
		r = copy_pages(in, buf, idx, w, pr, err);
	return r;
}

int copy_cpu_stream(struct tdat_file *in, int buf, int idx,
		    struct tdat_writer *w, enum copy_mode how,
		    struct copy_progress *pr, struct tdat_error *err)
{
	const struct tdat_cpu *c = &in->buffers[buf].cpus[idx];
	struct copy_progress none = { 0 };
	uint64_t base;

	if (!pr)
		pr = &none;
	base = pr->done;
	if (tdat_writer_begin_cpu(w, buf, c->cpu, err))
		return -1;
	if (c->size && tdat_writer_keeps_buffer(w, buf) &&
	    copy_stream_data(in, buf, idx, w, how, pr, err))
		return -1;
	pr->done = base + c->size;
	progress_report(pr);
	return tdat_writer_end_cpu(w, err);
}

/* ---- whole files ---- */

/* One line to warn (if any), as errors are: printable, one line. */
struct warner {
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

static void warnf(const struct warner *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(const struct warner *o, const char *fmt, ...)
{
	struct tdat_error e;
	va_list ap;

	if (!o->warn)
		return;
	va_start(ap, fmt);
	tdat_verrorf(&e, fmt, ap);
	va_end(ap);
	o->warn(o->ctx, e.msg);
}

static const char *buffer_label(const struct tdat_buffer *b)
{
	return b->name[0] ? b->name : "(top)";
}

void copy_warn_v6_losses(const struct tdat_file *in, int extras,
			 void (*warn)(void *ctx, const char *msg), void *ctx)
{
	const struct tdat_buffer *top = tdat_top_buffer(in);
	const struct warner w = { warn, ctx }, *o = &w;
	int i;

	for (i = 0; extras && i < in->nextra; i++) {
		if (tdat_extra_v6_kept(&in->extra[i]))
			continue;
		warnf(o, "v6 cannot hold section %u (\"%s\"): dropped",
		      in->extra[i].id, in->extra[i].description ?
		      in->extra[i].description : "no description");
	}
	if (tdat_meta_has(in, TDAT_META_BTF))
		warnf(o, "v6 cannot hold the BTF section: dropped");
	if (tdat_meta_has(in, TDAT_META_MODULES))
		warnf(o, "v6 cannot hold the modules section: dropped");
	if (top && top->latency && tdat_find_option(in, TDAT_OPT_TRACECLOCK))
		warnf(o, "v6 cannot hold a TRACECLOCK option beside latency"
		      " text: dropped");
	for (i = 0; i < in->nbuffers; i++) {
		const struct tdat_buffer *b = &in->buffers[i];

		if (b == top)
			continue;
		if (b->latency) {
			warnf(o, "v6 cannot hold latency buffer \"%s\":"
			      " dropped", buffer_label(b));
			continue;
		}
		if (top && top->latency) {
			warnf(o, "v6 cannot hold instance \"%s\" beside latency"
			      " text: dropped", buffer_label(b));
			continue;
		}
		/* a page size not the file's: the writer refuses v6 */
		if (top && b->clock && top->clock && b->clock[0] &&
		    strcmp(b->clock, top->clock))
			warnf(o, "v6 readers may show instance \"%s\" with"
			      " clock \"%s\" instead of its own \"%s\"",
			      buffer_label(b), top->clock, b->clock);
	}
}

/* Indices of a buffer's CPUs sorted by id: streams go in CPU order. */
static int *cpus_in_order(const struct tdat_buffer *b)
{
	int *ix = malloc((b->ncpus ? (size_t)b->ncpus : 1) * sizeof(*ix));
	int i, j;

	if (!ix)
		return NULL;
	for (i = 0; i < b->ncpus; i++) {
		for (j = i; j > 0 && b->cpus[ix[j - 1]].cpu > b->cpus[i].cpu;
		     j--)
			ix[j] = ix[j - 1];
		ix[j] = i;
	}
	return ix;
}

static int copy_latency(struct tdat_file *in, int buf, struct tdat_writer *w,
			struct copy_progress *pr, struct tdat_error *err)
{
	struct tdat_blob text;
	int r;

	if (tdat_read_latency(in, buf, &text, err))
		return -1;
	r = tdat_writer_put_latency(w, buf, text.data, text.len, err);
	free(text.data);
	pr->done += in->buffers[buf].latency_size;
	progress_report(pr);
	return r;
}

static int copy_buffer(struct tdat_file *in, int buf, struct tdat_writer *w,
		       const struct convert_opts *o, struct copy_progress *pr,
		       struct tdat_error *err)
{
	const struct tdat_buffer *b = &in->buffers[buf];
	int *ix, i, r = 0;

	if (!tdat_writer_keeps_buffer(w, buf))
		return 0;
	if (b->latency)
		return copy_latency(in, buf, w, pr, err);
	ix = cpus_in_order(b);
	if (!ix) {
		tdat_fail_nooff(err, in->path, "out of memory");
		return -1;
	}
	for (i = 0; !r && i < b->ncpus; i++)
		r = copy_cpu_stream(in, buf, ix[i], w, COPY_CHUNKS_CHECKED, pr,
				    err);
	free(ix);
	return r;
}

int convert_file(struct tdat_file *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err)
{
	struct tdat_write_opts wo = {
		.version = o->version,
		.codec = o->codec,
		.level = o->level,
		.chunk_size = o->chunk_size,
		.threads = o->threads,
		.provisional = o->provisional,
	};
	struct copy_progress pr = { 0, tdat_data_size(in), o->progress,
				    o->progress_ctx, 0, 0, 0 };
	struct tdat_writer *w;
	int i;

	if (o->version == 6)
		copy_warn_v6_losses(in, 1, o->warn, o->warn_ctx);
	w = tdat_writer_open(out, in, &wo, err);
	if (!w)
		return -1;
	for (i = 0; i < in->nbuffers; i++) {
		if (copy_buffer(in, i, w, o, &pr, err)) {
			tdat_writer_abort(w);
			return -1;
		}
	}
	return tdat_writer_close(w, err);
}
