/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write.c - writing trace.dat v6 and v7: the tdat_writer_* calls.
 *
 * The metadata (header, texts, options, extra sections) goes out in
 * tdat_writer_open; trace data then arrives buffer by buffer, CPU by CPU,
 * and the tables that describe it (v6 CPU tables, v7 BUFFER options,
 * section sizes, chunk counts) are patched in once it is known.  This
 * file keeps that order; the layouts are in write_v6.c and write_v7.c
 * (see writer.h for the map).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/writer.h"

/* ---- buffers in order ---- */

static int finish_buffer(struct tdat_writer *w, struct wbuf *wb,
			 struct tdat_error *err)
{
	if (wb->finished)
		return 0;
	wb->finished = 1;
	if (!wb->keep)
		return 0;
	if (wb->b->latency)	/* v6: the text (if any) is out already */
		return w->version == 6 ? 0 : v7_latency(w, wb, NULL, 0, err);
	if (w->version == 6)
		return v6_finish_block(w, wb, err);
	return v7_finish_flyrecord(w, wb, err);
}

/* Buffers come in meta's order: finish the ones skipped on the way. */
static int goto_buffer(struct tdat_writer *w, int buf, struct tdat_error *err)
{
	if (w->broken)
		return writer_fail(w, err, "the writer failed earlier");
	if (w->in_cpu)
		return writer_fail(w, err, "CPU %d of buffer \"%s\" was not"
				   " ended", w->cpu->cpu,
				   w->bufs[w->cur].b->name);
	if (buf < 0 || buf >= w->nbufs)
		return writer_fail(w, err, "there is no buffer %d", buf);
	if (buf < w->cur || w->bufs[buf].finished)
		return writer_fail(w, err, "buffer \"%s\" was already written"
				   " (buffers go in order)",
				   w->bufs[buf].b->name);
	for (; w->cur < buf; w->cur++)
		if (finish_buffer(w, &w->bufs[w->cur], err))
			return -1;
	return 0;
}

/* ---- CPU streams ---- */

/* The first data of a CPU: align, and for chunks a count to patch. */
static int stream_start(struct tdat_writer *w, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (w->stream)
		return 0;
	if (w->version == 7 && !wb->started && v7_start_flyrecord(w, wb, err))
		return -1;
	if (emit_align(w, w->version == 6 ? w->page_size : wb->page_size, err))
		return -1;
	w->stream = w->out.pos;
	w->cpu->offset = w->stream;
	if (w->codec != TDAT_CODEC_NONE)
		return chunks_begin(w, err);
	return 0;
}

int tdat_writer_begin_cpu(struct tdat_writer *w, int buf, int cpu,
			  struct tdat_error *err)
{
	struct wbuf *wb;
	int i;

	if (goto_buffer(w, buf, err))
		return -1;
	wb = &w->bufs[buf];
	if (wb->b->latency)
		return writer_fail(w, err, "buffer \"%s\" holds latency text,"
				   " not CPU data", wb->b->name);
	if (cpu < 0 || cpu > 65535)
		return writer_fail(w, err, "CPU id %d is out of range", cpu);
	w->cpu = &w->v7cpu;
	memset(&w->v7cpu, 0, sizeof(w->v7cpu));
	w->v7cpu.cpu = cpu;
	if (!wb->keep)
		;	/* accepted and dropped: the output cannot hold it */
	else if (w->version == 6) {
		if (v6_begin_cpu(w, wb, cpu, err))
			return -1;
	} else {
		for (i = 0; i < wb->ncpus; i++)
			if (wb->cpus[i].cpu == cpu)
				return writer_fail(w, err, "buffer \"%s\": CPU"
						   " %d written twice",
						   wb->b->name, cpu);
	}
	w->in_cpu = 1;
	w->stream = 0;
	w->nchunks = 0;
	w->fill = NULL;
	w->filled = 0;
	return 0;
}

static int check_stream(struct tdat_writer *w, struct tdat_error *err)
{
	if (w->broken)
		return writer_fail(w, err, "the writer failed earlier");
	if (!w->in_cpu)
		return writer_fail(w, err, "trace data given outside a CPU"
				   " stream");
	return 0;
}

#define FILE_PAGES_RUN (1u << 20)	/* read at once where not copied */

/* Pages of len bytes about to come: 1 when they are to be written (the
 * stream started), 0 when not (none, or a buffer the output drops). */
static int pages_ready(struct tdat_writer *w, uint64_t len,
		       struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (check_stream(w, err))
		return -1;
	if (len % wb->page_size)
		return writer_fail(w, err, "buffer \"%s\" CPU %d: %llu bytes"
				   " are not whole pages of %u bytes",
				   wb->b->name, w->cpu->cpu,
				   (unsigned long long)len, wb->page_size);
	if (!len || !wb->keep)
		return 0;
	return stream_start(w, err) ? -1 : 1;
}

int tdat_writer_put_pages(struct tdat_writer *w, const void *data,
			  size_t len, struct tdat_error *err)
{
	int r = pages_ready(w, len, err);

	if (r <= 0)
		return r;
	if (w->codec == TDAT_CODEC_NONE)
		return emit(w, data, len, err);
	return chunks_add(w, data, len, w->bufs[w->cur].chunk_size, err);
}

int tdat_writer_put_file_pages(struct tdat_writer *w,
			       const struct tdat_file *f, uint64_t off,
			       uint64_t len, struct tdat_error *err)
{
	uint64_t done = 0, n;
	uint8_t *run;
	int r = pages_ready(w, len, err);

	if (r <= 0)
		return r;
	if (w->codec == TDAT_CODEC_NONE && f->priv->fd >= 0 &&
	    out_copy_from(&w->out, f->priv->fd, off, len, &done, err)) {
		w->broken = 1;
		return -1;
	}
	/* the rest by hand: compressed output, or no copy_file_range */
	run = done < len ? malloc(FILE_PAGES_RUN) : NULL;
	if (done < len && !run)
		return writer_oom(w, err);
	for (r = 0; !r && done < len; done += n) {
		n = len - done < FILE_PAGES_RUN ? len - done : FILE_PAGES_RUN;
		r = fio_read_at(f, off + done, run, (size_t)n, "trace data",
				err) ||
		    tdat_writer_put_pages(w, run, (size_t)n, err) ? -1 : 0;
	}
	free(run);
	if (r)
		w->broken = 1;
	return r;
}

int tdat_writer_put_chunk(struct tdat_writer *w, const void *data,
			  uint32_t csize, uint32_t usize,
			  struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (check_stream(w, err))
		return -1;
	if (w->codec == TDAT_CODEC_NONE)
		return writer_fail(w, err, "a compressed chunk cannot go into"
				   " an uncompressed file");
	if (!wb->keep)
		return 0;
	/* sizes first: the input's, so -2 (chunks_copy) when wrong */
	if (stream_start(w, err))
		return -1;
	return chunks_copy(w, data, csize, usize, err);
}

/* The checks of tdat_writer_put_chunk before a stored chunk goes out. */
static int stored_start(struct tdat_writer *w, struct tdat_error *err)
{
	if (check_stream(w, err))
		return -1;
	if (w->codec == TDAT_CODEC_NONE)
		return writer_fail(w, err, "a compressed chunk cannot go into"
				   " an uncompressed file");
	if (!w->bufs[w->cur].keep)
		return 1;
	return stream_start(w, err);
}

int tdat_writer_put_chunk_stored(struct tdat_writer *w, const void *data,
				 uint32_t csize, uint32_t usize,
				 struct tdat_error *err)
{
	int r = stored_start(w, err);

	return r ? (r > 0 ? 0 : -1) :
		   chunks_put_stored_one(w, data, csize, usize, err);
}

int tdat_writer_put_chunks_stored(struct tdat_writer *w, const void *run,
				  size_t len, struct tdat_error *err)
{
	int r = len ? stored_start(w, err) : 1;

	return r ? (r > 0 ? 0 : -1) : chunks_put_stored(w, run, len, err);
}

int tdat_writer_end_cpu(struct tdat_writer *w, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];
	struct wcpu *c;

	if (check_stream(w, err))
		return -1;
	w->in_cpu = 0;
	if (!wb->keep || !w->stream)
		return 0;	/* no data: v6 keeps a size 0 entry */
	if (w->codec != TDAT_CODEC_NONE && chunks_end(w, w->stream, err))
		return -1;
	w->cpu->size = w->out.pos - w->stream;
	if (w->version == 6)
		return 0;
	c = realloc(wb->cpus, (size_t)(wb->ncpus + 1) * sizeof(*c));
	if (!c)
		return writer_oom(w, err);
	wb->cpus = c;
	wb->cpus[wb->ncpus++] = w->v7cpu;
	return 0;
}

int tdat_writer_put_latency(struct tdat_writer *w, int buf, const void *text,
			    size_t len, struct tdat_error *err)
{
	struct wbuf *wb;

	if (goto_buffer(w, buf, err))
		return -1;
	wb = &w->bufs[buf];
	if (!wb->b->latency)
		return writer_fail(w, err, "buffer \"%s\" is not a latency"
				   " buffer", wb->b->name);
	wb->finished = 1;
	if (!wb->keep)
		return 0;
	if (w->version == 6)	/* right after "latency  \0", to EOF */
		return emit(w, text, len, err);
	return v7_latency(w, wb, text, len, err);
}

/* ---- open and close ---- */

static int setup_buffers(struct tdat_writer *w, const struct tdat_write_opts *o,
			 const char *path, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	int i;

	w->nbufs = m->nbuffers;
	w->bufs = calloc(w->nbufs ? (size_t)w->nbufs : 1, sizeof(*w->bufs));
	if (!w->bufs)
		return tdat_fail_nooff(err, path, "out of memory");
	w->chunk_max = 10 * (size_t)w->page_size;	/* latency text */
	for (i = 0; i < w->nbufs; i++) {
		struct wbuf *wb = &w->bufs[i];
		const struct tdat_buffer *b = &m->buffers[i];

		wb->b = b;
		wb->page_size = b->page_size ? b->page_size : w->page_size;
		if (wb->page_size > TDAT_MAX_PAGE)
			return tdat_fail_nooff(err, path, "buffer \"%s\": page"
					       " size %u is too large", b->name,
					       wb->page_size);
		wb->chunk_size = o->chunk_size ? o->chunk_size :
						 10 * wb->page_size;
		if (!b->latency && wb->chunk_size % wb->page_size)
			return tdat_fail_nooff(err, path, "chunk size %u is not"
					       " a multiple of buffer \"%s\"'s"
					       " page size %u", wb->chunk_size,
					       b->name, wb->page_size);
		if (wb->chunk_size > w->chunk_max)
			w->chunk_max = wb->chunk_size;
		wb->keep = w->version == 7 || v6_keeps_buffer(w, i);
		/* v6 has one page size, the file's (Linux 6.8+ sub-buffers
		 * can make an instance's bigger) */
		if (w->version == 6 && wb->keep && !b->latency &&
		    wb->page_size != w->page_size)
			return tdat_fail_nooff(err, path, "version 6 holds one"
					       " page size (%u): buffer \"%s\""
					       " has pages of %u bytes (write"
					       " version 7)", w->page_size,
					       b->name, wb->page_size);
		if (w->version == 6 && wb->keep && !b->latency &&
		    v6_alloc_cpus(w, wb))
			return tdat_fail_nooff(err, path, "out of memory");
	}
	return 0;
}

static void writer_free(struct tdat_writer *w)
{
	int i;

	chunkpool_free(w->pool);
	codec_ctx_free(&w->cc);
	for (i = 0; w->bufs && i < w->nbufs; i++)
		free(w->bufs[i].cpus);
	free(w->bufs);
	tdat_bytes_free(&w->strings);
	tdat_bytes_free(&w->scratch);
	free(w);
}

static int check_opts(const struct tdat_file *m, const struct tdat_write_opts *o,
		      const char *path, struct tdat_error *err)
{
	if (o->version != 6 && o->version != 7)
		return tdat_fail_nooff(err, path, "cannot write file version %d"
				       " (only 6 and 7)", o->version);
	if (o->version == 7 && (o->codec < TDAT_CODEC_NONE ||
				o->codec > TDAT_CODEC_ZSTD))
		return tdat_fail_nooff(err, path, "unknown compression %d",
				       (int)o->codec);
	if (m->page_size < 64 || m->page_size > TDAT_MAX_PAGE)
		return tdat_fail_nooff(err, path, "page size %u is not usable",
				       m->page_size);
	if (m->long_size != 4 && m->long_size != 8)
		return tdat_fail_nooff(err, path, "long size %d is not 4 or 8",
				       m->long_size);
	if (o->chunk_size > TDAT_MAX_CHUNK)
		return tdat_fail_nooff(err, path, "chunk size %u is larger than"
				       " %u", o->chunk_size, TDAT_MAX_CHUNK);
	return 0;
}

uint32_t tdat_v6_page_size(const struct tdat_file *meta)
{
	const struct tdat_buffer *top = tdat_top_buffer(meta);

	if (top && !top->latency && top->page_size >= 64 &&
	    top->page_size <= TDAT_MAX_PAGE)
		return top->page_size;
	return meta->page_size;
}

struct tdat_writer *tdat_writer_open(const char *path,
				     const struct tdat_file *meta,
				     const struct tdat_write_opts *o,
				     struct tdat_error *err)
{
	struct tdat_writer *w;
	long ncpu;

	if (check_opts(meta, o, path, err))
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w) {
		tdat_fail_nooff(err, path, "out of memory");
		return NULL;
	}
	w->out.fd = -1;
	w->meta = meta;
	w->version = o->version;
	w->big = meta->big_endian ? 1 : 0;
	w->page_size = o->version == 6 ? tdat_v6_page_size(meta) :
					 meta->page_size;
	w->codec = o->version == 7 ? o->codec : TDAT_CODEC_NONE;
	w->level = o->level;
	w->chunk_asked = o->chunk_size;
	w->threads = o->threads;
	if (w->threads <= 0) {
		ncpu = tdat_usable_cpus();
		w->threads = ncpu > 64 ? 64 : (int)ncpu;
	}
	w->cpu_count = tdat_cpus(meta);
	codec_ctx_init(&w->cc, w->codec, w->level);
	if (setup_buffers(w, o, path, err) ||
	    out_open(&w->out, path, o->provisional == TDAT_UNNAMED_UNTIL_KEPT ?
		     OUT_UNNAMED_UNTIL_KEPT : o->provisional ? OUT_PROVISIONAL : 0,
		     err)) {
		writer_free(w);
		return NULL;
	}
	if (o->version == 6 ? v6_start(w, err) : v7_start(w, err)) {
		tdat_writer_abort(w);
		return NULL;
	}
	return w;
}

int tdat_writer_close(struct tdat_writer *w, struct tdat_error *err)
{
	if (w->broken) {
		writer_fail(w, err, "the writer failed earlier");
		goto fail;
	}
	if (w->in_cpu && tdat_writer_end_cpu(w, err))
		goto fail;
	for (; w->cur < w->nbufs; w->cur++)
		if (finish_buffer(w, &w->bufs[w->cur], err))
			goto fail;
	if (w->version == 7 && v7_put_strings(w, err))
		goto fail;
	if (w->version == 6 && v6_trim_tail(w, err))
		goto fail;
	if (out_commit(&w->out, err)) {
		writer_free(w);	/* out_commit removed the temporary file */
		return -1;
	}
	writer_free(w);
	return 0;
fail:
	tdat_writer_abort(w);
	return -1;
}

void tdat_writer_abort(struct tdat_writer *w)
{
	if (!w)
		return;
	out_abort(&w->out);
	writer_free(w);
}

uint32_t tdat_writer_chunk_size(const struct tdat_writer *w, int buf)
{
	if (buf < 0 || buf >= w->nbufs)
		return 0;
	return w->bufs[buf].chunk_size;
}

int tdat_writer_chunk_passes(const struct tdat_writer *w,
			     const struct tdat_file *f, int buf, uint32_t usize)
{
	const struct tdat_buffer *b;

	if (w->codec == TDAT_CODEC_NONE || w->level || buf < 0 ||
	    buf >= f->nbuffers)
		return 0;
	b = &f->buffers[buf];
	if (f->version != 7 || !b->compressed || f->codec != w->codec ||
	    !f->big_endian != !w->big)
		return 0;
	return usize ? !w->chunk_asked || usize == w->chunk_asked :
		       !w->chunk_asked;
}

int tdat_writer_pages_pass(const struct tdat_writer *w,
			   const struct tdat_file *f, int buf)
{
	const struct tdat_buffer *b;

	if (w->codec != TDAT_CODEC_NONE || buf < 0 || buf >= f->nbuffers)
		return 0;
	b = &f->buffers[buf];
	return !b->compressed && !b->latency && !f->big_endian == !w->big;
}

int tdat_writer_threads(const struct tdat_writer *w)
{
	return w->threads;
}

int tdat_writer_keeps_buffer(const struct tdat_writer *w, int buf)
{
	if (buf < 0 || buf >= w->nbufs)
		return 0;
	return w->bufs[buf].keep;
}
