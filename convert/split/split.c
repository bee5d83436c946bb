/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split.c - write the pieces a split_plan describes.
 *
 * Pieces are written in batches of at most SPLIT_OPEN open writers (one
 * file descriptor each, whatever the CPU count).  For a batch, each
 * chosen stream is read once: its pages go to the piece whose range holds
 * them, verbatim when wholly inside, through the page cutter when a cut
 * falls in them.  A compressed stream that keeps its codec is walked
 * chunk by chunk: a chunk wholly inside one piece is passed on as stored,
 * only chunks holding a cut (or spanning a batch) are decompressed.
 * Uncompressed streams start each batch with a seek; compressed ones skip
 * the chunks before it unread.  Finished pieces are provisional
 * (libfmt/outputs.h) until the last one is: a failure or a signal
 * removes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/split/split.h"
#include "libfmt/bytes.h"
#include "libfmt/pagecut.h"
#include "libfmt/chunkindex.h"
#include "libfmt/outputs.h"
#include "libfmt/metabuild.h"

#define SPLIT_OPEN 8		/* pieces open at once */
#define RUN_PAGES 64		/* pages handed to a writer at once */

struct batch {
	struct tdat_file *in;
	const struct split_plan *p;
	int k0, k1;		/* pieces [k0, k1) */
	struct tdat_writer **w;
	/* the stream being written */
	int s;
	const struct split_pos *pos;	/* its positions, pos[k] */
	uint32_t ps;
	uint8_t *cut;		/* one page, for the cutter */
	/* a run of whole pages on their way to one writer */
	uint8_t *run;
	size_t nrun;
	int run_k;
	uint64_t done, total;	/* progress: stored bytes of streams */
};

static int oom(const struct tdat_file *in, struct tdat_error *err)
{
	tdat_fail_nooff(err, in->path, "out of memory");
	return -1;
}

static int pos_le(struct split_pos a, struct split_pos b)
{
	return a.page < b.page || (a.page == b.page && a.ev <= b.ev);
}

static int flush_run(struct batch *b, struct tdat_error *err)
{
	int r = 0;

	if (b->nrun)
		r = tdat_writer_put_pages(b->w[b->run_k - b->k0], b->run,
					  b->nrun * b->ps, err);
	b->nrun = 0;
	return r;
}

static int add_page(struct batch *b, int k, const uint8_t *page,
		    struct tdat_error *err)
{
	if ((b->nrun && b->run_k != k) || b->nrun == RUN_PAGES)
		if (flush_run(b, err))
			return -1;
	b->run_k = k;
	memcpy(b->run + b->nrun * b->ps, page, b->ps);
	b->nrun++;
	return 0;
}

/* Page pg of the stream: to every piece of the batch that has part of it. */
static int route_page(struct batch *b, uint64_t pg, const uint8_t *page,
		      uint64_t where, struct tdat_error *err)
{
	struct split_pos whole0 = { pg, 0 }, whole1 = { pg + 1, 0 };
	int k, n;

	for (k = b->k0; k < b->k1; k++) {
		struct split_pos s = b->pos[k], e = b->pos[k + 1];
		uint32_t lo, hi;

		if (pos_le(s, whole0) && pos_le(whole1, e))
			return add_page(b, k, page, err);
		if (s.page > pg || e.page < pg || (e.page == pg && !e.ev))
			continue;
		lo = s.page == pg ? s.ev : 0;
		hi = e.page == pg ? e.ev : UINT32_MAX;
		if (lo >= hi)
			continue;
		n = tdat_page_cut_index(b->in, page, b->ps, lo, hi, b->cut,
					where, err);
		if (n < 0)
			return -1;
		if (n && add_page(b, k, b->cut, err))
			return -1;
	}
	return 0;
}

/* Is [pg0, pg1) of no interest to the batch, or wholly inside one piece? */
static int chunk_piece(const struct batch *b, uint64_t pg0, uint64_t pg1,
		       int *skip)
{
	struct split_pos a = { pg0, 0 }, z = { pg1, 0 };
	int k;

	*skip = pos_le(z, b->pos[b->k0]) || pos_le(b->pos[b->k1], a);
	for (k = b->k0; !*skip && k < b->k1; k++)
		if (pos_le(b->pos[k], a) && pos_le(z, b->pos[k + 1]))
			return k;
	return -1;
}

static int bad_stream(struct batch *b, uint64_t off, const char *what,
		      struct tdat_error *err)
{
	const struct split_stream *s = &b->p->streams[b->s];

	return tdat_fail(err, b->in->path, off, "buffer \"%s\" CPU %d: %s",
			 b->in->buffers[s->in_buf].name, s->cpu, what);
}

/* The stream as chunks: most are copied as stored. */
static int stream_chunks(struct batch *b, struct tdat_error *err)
{
	const struct split_stream *s = &b->p->streams[b->s];
	uint64_t off = b->in->buffers[s->in_buf].cpus[s->idx].offset + 4;
	struct tdat_chunk_decoder *dec = tdat_chunk_decoder_new(b->in);
	struct tdat_cpu_reader *r;
	const uint8_t *data;
	struct tdat_bytes buf = { 0 };
	uint32_t cs, us, i;
	uint64_t pg = 0;
	int got, k, skip, rc = -1;

	r = tdat_cpu_open(b->in, s->in_buf, s->idx, err);
	if (!r || !dec) {
		if (!dec)
			oom(b->in, err);
		goto out;
	}
	while ((got = tdat_cpu_next_chunk(r, &data, &cs, &us, err)) == 1) {
		uint64_t n = us / b->ps;

		if (pos_le(b->pos[b->k1], (struct split_pos){ pg, 0 }))
			break;	/* past the batch */
		k = chunk_piece(b, pg, pg + n, &skip);
		if (k >= 0 && tdat_writer_chunk_passes(b->w[k - b->k0], b->in,
						       s->in_buf, us)) {
			if (flush_run(b, err))
				goto out;
			got = tdat_writer_put_chunk(b->w[k - b->k0], data, cs,
						    us, err);
			if (got == -2)
				bad_stream(b, off, "chunk is corrupt", err);
			if (got)
				goto out;
		} else if (!skip || k >= 0) {
			if (tdat_bytes_reserve_held(&buf, us)) {
				tdat_budget_fail(err, b->in->path, off, "chunk", us);
				goto out;
			}
			if (tdat_chunk_decode(dec, data, cs, buf.data, us, off,
					      err))
				goto out;
			for (i = 0; i < n; i++)
				if (route_page(b, pg + i,
					       buf.data + (size_t)i * b->ps,
					       pg * b->ps + (uint64_t)i * b->ps,
					       err))
					goto out;
		}
		pg += n;
		off += 8 + (uint64_t)cs;
	}
	rc = got < 0 ? -1 : flush_run(b, err);
out:
	tdat_bytes_free(&buf);
	tdat_chunk_decoder_free(dec);
	tdat_cpu_close(r);
	return rc;
}

/* Page pg of an uncompressed stream at off, cut to events [lo, hi) for
 * piece k (nothing when none of its events are there). */
static int raw_cut(struct batch *b, int k, uint64_t off, uint64_t pg,
		   uint32_t lo, uint32_t hi, struct tdat_error *err)
{
	uint8_t *page = b->run;	/* free: runs are not used here */
	int n;

	if (lo >= hi)
		return 0;
	if (tdat_read_stored(b->in, off + pg * b->ps, page, b->ps, err))
		return -1;
	n = tdat_page_cut_index(b->in, page, b->ps, lo, hi, b->cut,
				off + pg * b->ps, err);
	if (n <= 0)
		return n;
	return tdat_writer_put_pages(b->w[k - b->k0], b->cut, b->ps, err);
}

/* Piece k's part of an uncompressed stream of npages at off: the page a
 * cut opens it in, its whole pages as stored (copied by the kernel),
 * the page a cut closes it in. */
static int raw_piece(struct batch *b, int k, uint64_t off, uint64_t npages,
		     struct tdat_error *err)
{
	struct split_pos s = b->pos[k], e = b->pos[k + 1];
	uint64_t a = s.page + (s.ev ? 1 : 0), z = e.page < npages ? e.page :
								      npages;

	if (s.ev && s.page < npages &&
	    raw_cut(b, k, off, s.page, s.ev,
		    e.page == s.page ? e.ev : UINT32_MAX, err))
		return -1;
	if (z > a && tdat_writer_put_file_pages(b->w[k - b->k0], b->in,
						off + a * b->ps,
						(z - a) * b->ps, err))
		return -1;
	if (e.ev && e.page < npages && (e.page != s.page || !s.ev) &&
	    raw_cut(b, k, off, e.page, 0, e.ev, err))
		return -1;
	return 0;
}

/* An uncompressed stream wholly in the file, piece by piece: only the
 * pages a cut falls in are read.  1 when the stream is not such (the
 * reader then says what is wrong with it). */
static int stream_raw(struct batch *b, struct tdat_error *err)
{
	const struct split_stream *s = &b->p->streams[b->s];
	const struct tdat_buffer *tb = &b->in->buffers[s->in_buf];
	const struct tdat_cpu *c = &tb->cpus[s->idx];
	int k;

	if (tb->compressed || c->size % b->ps ||
	    c->offset > b->in->file_size ||
	    c->size > b->in->file_size - c->offset)
		return 1;
	for (k = b->k0; k < b->k1; k++)
		if (raw_piece(b, k, c->offset, c->size / b->ps, err))
			return -1;
	return 0;
}

/* The stream as pages; an uncompressed one starts at the batch. */
static int stream_pages(struct batch *b, struct tdat_error *err)
{
	const struct split_stream *s = &b->p->streams[b->s];
	struct tdat_buffer *tb = &b->in->buffers[s->in_buf];
	struct tdat_cpu save = tb->cpus[s->idx];
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint64_t pg = 0, off, skip = 0;
	int got;

	if (!tb->compressed) {
		/* open the reader at the batch's first page */
		skip = b->pos[b->k0].page;
		if (skip > save.size / b->ps)
			skip = save.size / b->ps;
		tb->cpus[s->idx].offset += skip * b->ps;
		tb->cpus[s->idx].size -= skip * b->ps;
		pg = skip;
	}
	r = tdat_cpu_open(b->in, s->in_buf, s->idx, err);
	tb->cpus[s->idx] = save;
	if (!r)
		return -1;
	while ((got = tdat_cpu_next_page(r, &page, &off, err)) == 1) {
		if (pos_le(b->pos[b->k1], (struct split_pos){ pg, 0 }))
			break;
		if (pos_le(b->pos[b->k0], (struct split_pos){ pg + 1, 0 }) &&
		    route_page(b, pg, page, off, err)) {
			got = -1;
			break;
		}
		pg++;
	}
	tdat_cpu_close(r);
	if (got < 0)
		return -1;
	return flush_run(b, err);
}

static int write_stream(struct batch *b, int s, int chunks,
			struct tdat_error *err)
{
	const struct split_stream *st = &b->p->streams[s];
	int k, r = 0;

	b->s = s;
	b->pos = &b->p->pos[(size_t)s * (b->p->npieces + 1)];
	b->ps = b->in->buffers[st->in_buf].page_size;
	b->nrun = 0;
	for (k = b->k0; k < b->k1; k++)
		if (tdat_writer_begin_cpu(b->w[k - b->k0], st->out_buf,
					  st->cpu, err))
			return -1;
	if (b->in->buffers[st->in_buf].cpus[st->idx].size &&
	    !pos_le(b->pos[b->k1], b->pos[b->k0]))
		r = chunks ? stream_chunks(b, err) : stream_raw(b, err);
	if (r == 1)
		r = stream_pages(b, err);
	for (k = b->k0; !r && k < b->k1; k++)
		r = tdat_writer_end_cpu(b->w[k - b->k0], err);
	return r;
}

/* A latency buffer's text goes whole into the first piece. */
static int write_latency(struct batch *b, const struct split_opts *o,
			 int ob, struct tdat_error *err)
{
	struct tdat_blob text = { NULL, 0 };
	int k, r = 0;

	if (b->k0 == 0 &&
	    tdat_read_latency(b->in, o->buffers[ob].in_buf, &text, err))
		return -1;
	for (k = b->k0; !r && k < b->k1; k++)
		r = tdat_writer_put_latency(b->w[k - b->k0], ob,
					    k ? NULL : text.data,
					    k ? 0 : text.len, err);
	free(text.data);
	return r;
}

/* Output metadata: the input's, with the chosen buffers. */
/* The pieces' metadata: the input's, with the buffers kept, renamed. */
static struct tdat_file *out_meta(struct tdat_file *in,
				  const struct split_opts *o,
				  struct tdat_error *err)
{
	struct tdat_file *m = tdat_meta_clone(in, 0, err);
	int i;

	for (i = 0; m && i < o->nbuffers; i++)
		if (tdat_meta_copy_buffer(m, &in->buffers[o->buffers[i].in_buf],
					  o->buffers[i].name) < 0) {
			tdat_close(m);
			oom(in, err);
			return NULL;
		}
	return m;
}

static uint64_t stream_size(const struct tdat_file *in,
			    const struct split_stream *st)
{
	return in->buffers[st->in_buf].cpus[st->idx].size;
}

/* What every batch reads: all streams, once per batch of pieces. */
static uint64_t work_total(const struct tdat_file *in,
			   const struct split_plan *p, int npieces)
{
	uint64_t once = 0;
	int s;

	for (s = 0; s < p->nstreams; s++)
		once += stream_size(in, &p->streams[s]);
	return once * (uint64_t)((npieces + SPLIT_OPEN - 1) / SPLIT_OPEN);
}

static int run_batch(struct tdat_file *in, const struct split_opts *o,
		     const struct split_plan *p, struct tdat_file *m,
		     struct batch *b, int *written, struct tdat_error *err)
{
	struct tdat_write_opts wo = {
		.version = o->version,
		.codec = o->codec,
		.threads = b->k1 - b->k0 > 1 ? 1 : o->threads,
		/* named only once every piece is written */
		.provisional = TDAT_UNNAMED_UNTIL_KEPT,
	};
	char name[4096];
	int k, s, ob, r = 0;

	for (k = b->k0; k < b->k1; k++) {
		o->piece_name(o->name_ctx, k + 1, name, sizeof(name));
		b->w[k - b->k0] = tdat_writer_open(name, m, &wo, err);
		if (!b->w[k - b->k0])
			return -1;
	}
	for (ob = 0, s = 0; !r && ob < o->nbuffers; ob++) {
		int ib = o->buffers[ob].in_buf;
		const struct tdat_buffer *tb = &in->buffers[ib];
		int chunks = tdat_writer_chunk_passes(b->w[0], in, ib,
				tdat_writer_chunk_size(b->w[0], ob));

		if (tb->latency) {
			r = write_latency(b, o, ob, err);
			continue;
		}
		for (; !r && s < p->nstreams && p->streams[s].out_buf == ob; s++) {
			r = write_stream(b, s, chunks, err);
			b->done += stream_size(in, &p->streams[s]);
			if (o->progress)
				o->progress(o->progress_ctx, b->done, b->total);
		}
	}
	for (k = b->k0; !r && k < b->k1; k++) {
		r = tdat_writer_close(b->w[k - b->k0], err);
		b->w[k - b->k0] = NULL;
		if (!r)
			*written = k + 1;
	}
	return r;
}

int split_write(struct tdat_file *in, const struct split_opts *o,
		const struct split_plan *p, int *written,
		struct tdat_error *err)
{
	struct tdat_writer *w[SPLIT_OPEN] = { NULL };
	struct batch b = { in, p, 0, 0, w, 0, NULL, 0, NULL, NULL, 0, 0, 0, 0 };
	struct tdat_file *m;
	uint32_t ps = in->page_size;
	int i, k, n = p->npieces ? p->npieces : 1, r = 0;

	*written = 0;
	b.total = work_total(in, p, n);
	for (i = 0; i < in->nbuffers; i++)
		if (in->buffers[i].page_size > ps)
			ps = in->buffers[i].page_size;
	m = out_meta(in, o, err);
	if (!m)
		return -1;
	b.cut = malloc(ps);
	b.run = malloc((size_t)ps * RUN_PAGES);
	if (!b.cut || !b.run) {
		r = oom(in, err);
		goto out;
	}
	for (k = 0; !r && k < n; k += SPLIT_OPEN) {
		b.k0 = k;
		b.k1 = k + SPLIT_OPEN < n ? k + SPLIT_OPEN : n;
		r = run_batch(in, o, p, m, &b, written, err);
		for (i = 0; i < SPLIT_OPEN; i++) {
			tdat_writer_abort(w[i]);
			w[i] = NULL;
		}
	}
	/* all pieces or none: the finished ones stay only now */
	if (r) {
		tdat_outputs_drop();
		*written = 0;
	} else if (tdat_outputs_keep(err)) {
		*written = 0;
		r = -1;
	}
out:
	free(b.cut);
	free(b.run);
	tdat_close(m);
	return r;
}
