/*
 * merge_cpu.c - one output CPU stream from the inputs' streams of that
 * CPU.
 *
 * The streams are merged by event timestamp, a page at a time: the
 * stream whose next event is the earliest goes first (ties: the earlier
 * input on the command line), and its page is copied whole when no other
 * stream has an event inside the page's time range.  Streams are opened
 * only when the merge reaches their first event, so pieces that follow
 * each other in time are read one after the other.
 *
 * Duplicates: a page identical to the page another stream holds at the
 * same point is dropped; so is a group of events (those of one page that
 * share a timestamp) equal, byte for byte and in order, to the group
 * another stream holds at that timestamp.  Only when streams really
 * interleave inside a page, or a page loses repeated events, is it cut
 * (libfmt's page cutter) into the events that go before and after the
 * other stream's.
 */
#include <stdlib.h>
#include <string.h>
#include "merge_internal.h"

#define BATCH_PAGES 64

struct head {
	struct merge_stream *s;
	struct tdat_file *f;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint64_t off;		/* of the page, for messages */
	uint32_t nev, pos;	/* events in the page, next to write */
	uint64_t *ts;		/* each event's timestamp */
	const uint8_t **data;	/* each event's payload */
	uint32_t *size;
	uint64_t prev;		/* the stream's latest timestamp before page */
	int done;
	/* chunk mode: stored chunks read as they are, then decoded */
	int chunked;
	struct tdat_chunk_decoder *dec;
	const uint8_t *cdata;
	uint32_t csize, usize;
	uint8_t *ubuf;
	uint32_t ucap;
	uint32_t pg, npg;	/* page in the chunk, pages in the chunk */
	uint64_t seq;		/* chunks read */
	uint64_t coff;		/* file offset of the next chunk */
};

struct cpu_merge {
	struct merge_ctx *m;
	struct tdat_writer *w;
	uint32_t ps;
	const char *bufname;
	int cpu;
	int nh;
	struct head *h;
	uint8_t *batch;
	size_t nbatch;
	/* whole pages of one stored chunk written in a row: if the chunk
	 * ends so, it is written as it was stored instead */
	struct head *run_h;
	uint64_t run_seq;
	size_t run_start;
	uint32_t run_pages;
};

static uint64_t head_ts(const struct head *h)
{
	return h->nev ? h->ts[h->pos] : h->prev;
}

/* Does a (at ts, input ia) go before b? */
static int before(uint64_t ts, int ia, uint64_t tb, int ib)
{
	return ts < tb || (ts == tb && ia < ib);
}

/* ---- reading ---- */

static int bad_page(struct cpu_merge *c, struct head *h, const char *what,
		    struct tdat_error *err)
{
	return merge_fail(err, "%s: offset %llu: buffer \"%s\" CPU %d: %s",
			  h->f->path, (unsigned long long)h->off, c->bufname,
			  c->cpu, what);
}

static void head_close(struct cpu_merge *c, struct head *h)
{
	struct merge_input *in = &c->m->in[h->s->input];

	tdat_cpu_close(h->r);
	h->r = NULL;
	h->done = 1;
	in->busy = 0;
	c->m->done += h->s->size;
	if (c->m->o->progress)
		c->m->o->progress(c->m->o->progress_ctx, c->m->done,
				  c->m->total);
	input_trim(c->m);
}

/* The next page of a stream in chunk mode: 1, 0 at the end, -1. */
static int next_chunk_page(struct cpu_merge *c, struct head *h,
			   struct tdat_error *err)
{
	int got;

	if (h->pg + 1 < h->npg) {
		h->pg++;
		h->page = h->ubuf + (size_t)h->pg * c->ps;
		return 1;
	}
	got = tdat_cpu_next_chunk(h->r, &h->cdata, &h->csize, &h->usize, err);
	if (got <= 0)
		return got;
	h->off = h->coff;
	h->coff += 8 + (uint64_t)h->csize;
	if (!h->usize || h->usize % c->ps)
		return bad_page(c, h, "chunk does not hold whole pages", err);
	if (h->usize > h->ucap) {
		uint8_t *b = realloc(h->ubuf, h->usize);

		if (!b)
			return merge_fail(err, "%s: out of memory",
					  h->f->path);
		h->ubuf = b;
		h->ucap = h->usize;
	}
	if (tdat_chunk_decode(h->dec, h->cdata, h->csize, h->ubuf, h->usize,
			      h->off, err))
		return -1;
	h->seq++;
	h->pg = 0;
	h->npg = h->usize / c->ps;
	h->page = h->ubuf;
	return 1;
}

/* The stream's next page and its events; done at the end. */
static int head_next(struct cpu_merge *c, struct head *h,
		     struct tdat_error *err)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int got;

	if (h->nev)
		h->prev = h->ts[h->nev - 1];
	h->nev = h->pos = 0;
	got = h->chunked ? next_chunk_page(c, h, err) :
			   tdat_cpu_next_page(h->r, &h->page, &h->off, err);
	if (got <= 0) {
		head_close(c, h);
		return got;
	}
	c->m->st->pages_in++;
	if (tdat_page_iter_init(&it, h->f, h->page, c->ps))
		return bad_page(c, h, "page commit is larger than the page",
				err);
	while ((got = tdat_page_iter_next(&it, &ev)) == 1) {
		h->ts[h->nev] = ev.ts;
		h->data[h->nev] = ev.data;
		h->size[h->nev++] = ev.size;
		if (h->nev > 1 && ev.ts < h->ts[h->nev - 2])
			return bad_page(c, h, "timestamps go backwards", err);
	}
	if (got < 0)
		return bad_page(c, h, "an event runs past the page", err);
	return 0;
}

static int head_open(struct cpu_merge *c, struct head *h,
		     struct merge_stream *s, struct tdat_error *err)
{
	uint32_t cap = c->ps / 4 + 1;

	memset(h, 0, sizeof(*h));
	h->s = s;
	h->prev = s->key;
	h->ts = malloc(cap * sizeof(*h->ts));
	h->data = malloc(cap * sizeof(*h->data));
	h->size = malloc(cap * sizeof(*h->size));
	if (!h->ts || !h->data || !h->size)
		return merge_fail(err, "%s: out of memory",
				  c->m->in[s->input].path);
	h->f = input_get(c->m, s->input, err);
	if (!h->f)
		return -1;
	c->m->in[s->input].busy = 1;
	h->r = tdat_cpu_open(h->f, s->buf, s->idx, err);
	if (!h->r) {
		c->m->in[s->input].busy = 0;
		return -1;
	}
	if (c->m->copy_chunks && h->f->version == 7 &&
	    h->f->buffers[s->buf].compressed &&
	    h->f->codec == c->m->out_codec) {
		h->dec = tdat_chunk_decoder_new(h->f);
		if (!h->dec)
			return merge_fail(err, "%s: out of memory",
					  h->f->path);
		h->chunked = 1;
		h->coff = h->f->buffers[s->buf].cpus[s->idx].offset + 4;
	}
	return head_next(c, h, err);
}

static void head_free(struct head *h)
{
	tdat_cpu_close(h->r);
	tdat_chunk_decoder_free(h->dec);
	free(h->ubuf);
	free(h->ts);
	free(h->data);
	free(h->size);
}

/* ---- writing ---- */

static int flush(struct cpu_merge *c, struct tdat_error *err)
{
	int r = 0;

	if (c->nbatch)
		r = tdat_writer_put_pages(c->w, c->batch, c->nbatch * c->ps,
					  err);
	c->nbatch = 0;
	return r;
}

static uint8_t *slot(struct cpu_merge *c, struct tdat_error *err)
{
	if (c->nbatch == BATCH_PAGES) {
		c->run_h = NULL;	/* its first pages are gone */
		if (flush(c, err))
			return NULL;
	}
	return c->batch + c->nbatch++ * c->ps;
}

/* A chunk whose pages all went out whole, in a row, as it was stored. */
static int put_stored_chunk(struct cpu_merge *c, struct head *h,
			    struct tdat_error *err)
{
	int r;

	c->run_h = NULL;
	if (c->m->o->chunk_size && h->usize != c->m->o->chunk_size)
		return 0;	/* the pages stay: the writer rechunks */
	c->nbatch = c->run_start;
	if (flush(c, err))
		return -1;
	/* decoded already (its events were read): not checked again */
	r = tdat_writer_put_chunk_stored(c->w, h->cdata, h->csize, h->usize,
					 err);
	if (r == -2)
		return bad_page(c, h, "chunk is corrupt (its sizes or frame"
				" header are not sane)", err);
	if (r)
		return -1;
	c->m->st->chunks_copied++;
	return 0;
}

static int put_whole(struct cpu_merge *c, struct head *h,
		     struct tdat_error *err)
{
	uint8_t *p;

	if (h->chunked && h->pg == 0) {
		if (c->nbatch + h->npg > BATCH_PAGES && flush(c, err))
			return -1;
		c->run_h = h;
		c->run_seq = h->seq;
		c->run_start = c->nbatch;
		c->run_pages = 0;
	}
	if (c->run_h != h || c->run_seq != h->seq || c->run_pages != h->pg)
		c->run_h = NULL;
	p = slot(c, err);
	if (!p)
		return -1;
	memcpy(p, h->page, c->ps);
	c->m->st->pages_copied++;
	if (c->run_h == h && ++c->run_pages == h->npg)
		return put_stored_chunk(c, h, err);
	return 0;
}

/* Events [from, to) of h's page as a page of their own (pagecut.c). */
static int put_cut(struct cpu_merge *c, struct head *h, uint32_t from,
		   uint32_t to, struct tdat_error *err)
{
	uint8_t *p = slot(c, err);

	c->run_h = NULL;
	if (!p || tdat_page_cut_index(h->f, h->page, c->ps, from, to, p,
				      h->off, err) < 0)
		return -1;
	c->m->st->pages_cut++;
	return 0;
}

/* ---- the merge ---- */

/* Drop t's page if it is the same as h's; 1 if dropped. */
static int drop_same_page(struct cpu_merge *c, struct head *h,
			  struct head *t, struct tdat_error *err)
{
	if (t->done || t->pos || head_ts(t) != head_ts(h) ||
	    memcmp(t->page, h->page, c->ps))
		return 0;
	c->m->st->dup_pages++;
	return head_next(c, t, err) ? -1 : 1;
}

/* Events of h from j with ts T; their count. */
static uint32_t group(const struct head *h, uint32_t j)
{
	uint32_t g = j;

	while (g < h->nev && h->ts[g] == h->ts[j])
		g++;
	return g - j;
}

static int same_events(const struct head *a, uint32_t i,
		       const struct head *b, uint32_t j, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		if (a->size[i + k] != b->size[j + k] ||
		    memcmp(a->data[i + k], b->data[j + k], a->size[i + k]))
			return 0;
	return 1;
}

/*
 * Drop t's events at the timestamp of h's group [j, j+n) when they
 * repeat it: t's whole group when it is a run of h's (t's page was cut
 * inside the group), or the first n of t's when h's group is where t's
 * begins (h's page was cut inside it).
 */
static int drop_same_group(struct cpu_merge *c, struct head *h, uint32_t j,
			   uint32_t n, struct head *t, struct tdat_error *err)
{
	uint32_t m, q, drop = 0;

	if (t->done || !t->nev || head_ts(t) != h->ts[j])
		return 0;
	m = group(t, t->pos);
	for (q = 0; m <= n && q + m <= n && !drop; q++)
		if (same_events(h, j + q, t, t->pos, m))
			drop = m;
	if (!drop && n < m && same_events(h, j, t, t->pos, n))
		drop = n;
	if (!drop)
		return 0;
	c->m->st->dup_events += drop;
	t->pos += drop;
	if (t->pos == t->nev && head_next(c, t, err))
		return -1;
	return 1;
}

/* May h write its events at ts before every other stream's? */
static int h_goes_first(struct cpu_merge *c, struct head *h, uint64_t ts,
			const struct merge_stream *next)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done && !before(ts, h->s->input, head_ts(t),
						  t->s->input))
			return 0;
	}
	return !next || before(ts, h->s->input, next->key, next->input);
}

/* Write what h can of its page before the other streams' events. */
static int step(struct cpu_merge *c, struct head *h,
		const struct merge_stream *next, struct tdat_error *err)
{
	uint32_t j = h->pos, n;
	int i, r;

	for (i = 0; h->pos == 0 && i < c->nh; i++)
		if (&c->h[i] != h && drop_same_page(c, h, &c->h[i], err) < 0)
			return -1;
	while (j < h->nev) {
		n = group(h, j);
		for (i = 0; i < c->nh; i++) {
			if (&c->h[i] == h)
				continue;
			r = drop_same_group(c, h, j, n, &c->h[i], err);
			if (r < 0)
				return -1;
		}
		if (!h_goes_first(c, h, h->ts[j], next))
			break;
		j += n;
	}
	if (!h->nev || (h->pos == 0 && j == h->nev))
		r = put_whole(c, h, err);
	else
		r = put_cut(c, h, h->pos, j, err);
	if (r)
		return -1;
	h->pos = j;
	if (h->pos < h->nev)
		return 0;
	return head_next(c, h, err);
}

/* The stream whose next event comes first, or NULL when all are done. */
static struct head *front(struct cpu_merge *c)
{
	struct head *best = NULL;
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *h = &c->h[i];

		if (!h->done && (!best || before(head_ts(h), h->s->input,
						 head_ts(best),
						 best->s->input)))
			best = h;
	}
	return best;
}

/* Forget the streams that ended. */
static void compact(struct cpu_merge *c)
{
	int i, k = 0;

	for (i = 0; i < c->nh; i++) {
		if (c->h[i].done) {
			head_free(&c->h[i]);
			continue;
		}
		c->h[k++] = c->h[i];
	}
	c->nh = k;
}

/* The latest timestamp of h's page: streams starting before it may
 * interleave with the page, or repeat its events. */
static uint64_t page_last(const struct head *h)
{
	return h->nev ? h->ts[h->nev - 1] : h->prev;
}

/* The next streams to open, while one lies wholly before every other
 * stream (open or not): written as stored (merge_copy.c). */
static int copy_whole(struct cpu_merge *c, struct merge_stream *s, int n,
		      int *next, struct tdat_error *err)
{
	for (; *next < n; ++*next) {
		int i, has = *next + 1 < n;
		uint64_t limit = has ? s[*next + 1].key : UINT64_MAX;

		for (i = 0; i < c->nh; i++)
			if (!c->h[i].done && (!has ||
					      head_ts(&c->h[i]) < limit)) {
				limit = head_ts(&c->h[i]);
				has = 1;
			}
		if (!merge_copy_fits(&s[*next], has, limit))
			return 0;
		c->run_h = NULL;
		if (flush(c, err) ||
		    merge_copy_stream(c->m, c->w, &s[*next], err))
			return -1;
	}
	return 0;
}

static int run(struct cpu_merge *c, struct merge_stream *s, int n,
	       struct tdat_error *err)
{
	struct head *h;
	int next = 0;

	for (;;) {
		if (copy_whole(c, s, n, &next, err))
			return -1;
		h = front(c);
		/* Open the streams that start inside the front's page. */
		while (next < n && (!h || s[next].key <= page_last(h))) {
			if (head_open(c, &c->h[c->nh++], &s[next++], err))
				return -1;
			h = front(c);
		}
		if (!h)
			return 0;
		if (step(c, h, next < n ? &s[next] : NULL, err))
			return -1;
		compact(c);
	}
}

int merge_cpu(struct merge_ctx *m, struct tdat_writer *w,
	      struct merge_stream *s, int n, struct tdat_error *err)
{
	struct cpu_merge c;
	int i, r;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.w = w;
	c.cpu = s[0].cpu;
	c.bufname = m->meta->buffers[s[0].out_buf].name;
	c.ps = m->meta->buffers[s[0].out_buf].page_size;
	if (tdat_writer_begin_cpu(w, s[0].out_buf, c.cpu, err))
		return -1;
	c.h = calloc((size_t)n, sizeof(*c.h));
	c.batch = malloc((size_t)BATCH_PAGES * c.ps);
	if (!c.h || !c.batch) {
		r = merge_fail(err, "%s: out of memory", m->in[s[0].input].path);
		goto out;
	}
	r = run(&c, s, n, err);
	if (!r)
		r = flush(&c, err);
	if (!r)
		r = tdat_writer_end_cpu(w, err);
out:
	for (i = 0; i < c.nh; i++) {
		if (c.h[i].r)
			m->in[c.h[i].s->input].busy = 0;
		head_free(&c.h[i]);
	}
	free(c.h);
	free(c.batch);
	return r;
}
