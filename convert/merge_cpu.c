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
 * Duplicates (inputs that overlap): at each timestamp T that several
 * streams hold, every distinct event goes out as many times as the
 * stream holding most copies of it has it (merge_dups.c), whatever the
 * streams' page boundaries or their order of events at T.  The earliest
 * input's events at T go first; once its events at T are all known (a
 * later timestamp follows in its page), the other streams' repeats of
 * them are dropped at once, page after page, so that its page can go on
 * whole; what another stream holds beyond them goes out next, in its
 * order.  Two streams at the same point of identical pages skip the
 * page's inner timestamps without looking at them: only the events at
 * its first and last timestamps, which other pages may continue, are
 * counted.  A page is cut (libfmt's page cutter) only when streams
 * really interleave inside it or some of its events are dropped; what it
 * keeps goes into one page.
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
	uint8_t *keep;		/* each event: written (1) or a repeat (0) */
	uint32_t dropped;	/* repeats dropped from the page */
	int twin;		/* its page is the front's, at the same point */
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
	/* the timestamp whose repeats are being looked for */
	struct dup_table *d;
	uint64_t dts;
	int dset, dactive;
};

static uint64_t head_ts(const struct head *h)
{
	return h->nev ? h->ts[h->pos] : h->prev;
}

/*
 * Does a (at ts, fresh or not, input ia) go before b?  At one timestamp
 * a stream that had events before it goes before one whose events start
 * there (pieces cut inside the timestamp's events: the earlier piece
 * holds the first ones), then the earlier input.
 */
static int before(uint64_t ts, int fa, int ia, uint64_t tb, int fb, int ib)
{
	if (ts != tb)
		return ts < tb;
	if (fa != fb)
		return fb;
	return ia < ib;
}

/* Is ts the first timestamp of h's stream? */
static int fresh(const struct head *h, uint64_t ts)
{
	return ts == h->s->key;
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
	if (h->nev && h->dropped == h->nev)
		c->m->st->dup_pages++;
	else
		c->m->st->dup_events += h->dropped;
	h->nev = h->pos = h->dropped = 0;
	got = h->chunked ? next_chunk_page(c, h, err) :
			   tdat_cpu_next_page(h->r, &h->page, &h->off, err);
	if (got <= 0) {
		/* a piece that ends inside a timestamp's events (it had
		 * earlier ones): a piece starting there may go on with them */
		if (!got && c->dset && c->dactive && c->dts == h->prev &&
		    h->s->key < h->prev)
			dups_end(c->d, h->s);
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
	h->keep = malloc(cap);
	if (!h->ts || !h->data || !h->size || !h->keep)
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
	free(h->keep);
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
	r = tdat_writer_put_chunk(c->w, h->cdata, h->csize, h->usize, err);
	if (r == -2)
		return bad_page(c, h, "chunk is corrupt (it does not"
				" decompress to whole, sane pages)", err);
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

/* The events of h's page whose keep[] is set, in one page. */
static int put_keep(struct cpu_merge *c, struct head *h,
		    struct tdat_error *err)
{
	uint8_t *p = slot(c, err);

	c->run_h = NULL;
	if (!p || tdat_page_cut_keep(h->f, h->page, c->ps, h->keep, h->nev, p,
				     h->off, err) < 0)
		return -1;
	c->m->st->pages_cut++;
	return 0;
}

/* ---- the merge ---- */

/* Events of h from j with ts T; their count. */
static uint32_t group(const struct head *h, uint32_t j)
{
	uint32_t g = j;

	while (g < h->nev && h->ts[g] == h->ts[j])
		g++;
	return g - j;
}

/*
 * Other streams whose page is h's, at the same point (both at its
 * start): an empty one is dropped now; the others are twins, whose inner
 * timestamps skip_twins passes over.  Pages with one timestamp only go
 * the slow way (every event counted): they may continue both ways.
 */
static int mark_twins(struct cpu_merge *c, struct head *h,
		      struct tdat_error *err)
{
	int i, n = 0;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t == h || t->done || t->pos || t->nev != h->nev ||
		    head_ts(t) != head_ts(h) || memcmp(t->page, h->page, c->ps))
			continue;
		if (!h->nev) {
			c->m->st->dup_pages++;
			if (head_next(c, t, err))
				return -1;
		} else if (h->ts[0] != h->ts[h->nev - 1]) {
			t->twin = 1;
			n++;
		}
	}
	return n;
}

/*
 * Twins that gave their first timestamp's events (counted): the events
 * before the last timestamp are those h writes, one for one, and no page
 * continues them.
 */
static void skip_twins(struct cpu_merge *c, struct head *h, uint32_t first)
{
	uint32_t last = h->nev - 1;
	int i;

	while (h->ts[last - 1] == h->ts[h->nev - 1])
		last--;
	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t->twin && !t->done && t->pos == first) {
			t->dropped += last - first;
			t->pos = last;
		}
		t->twin = 0;
	}
}

/* Does any stream but h hold events at ts (is it there now)? */
static int others_at(const struct cpu_merge *c, const struct head *h,
		     uint64_t ts)
{
	int i;

	for (i = 0; i < c->nh; i++)
		if (&c->h[i] != h && !c->h[i].done && head_ts(&c->h[i]) == ts)
			return 1;
	return 0;
}

/*
 * Must events at ts be counted?  Only when another stream holds some:
 * all streams with events at ts are open and at ts when the first of
 * them is written, and stay so until it is done with ts.
 */
static int dups_at(struct cpu_merge *c, struct head *h, uint64_t ts)
{
	if (!c->dset || c->dts != ts) {
		c->dset = 1;
		c->dts = ts;
		c->dactive = others_at(c, h, ts);
		if (c->dactive)
			dups_reset(c->d);
	}
	return c->dactive;
}

static int take(struct cpu_merge *c, struct head *h, uint32_t k,
		int only_repeat)
{
	int r = dups_take(c->d, h->s, h->data[k], h->size[k], only_repeat,
			  fresh(h, h->ts[k]));

	if (dups_newly_capped(c->d) && !c->m->dups_capped) {
		c->m->dups_capped = 1;
		merge_warn(c->m, "%s: buffer \"%s\" CPU %d: too many events"
			   " at timestamp %llu to look for repeats: all are"
			   " kept", h->f->path, c->bufname, c->cpu,
			   (unsigned long long)h->ts[k]);
	}
	return r;
}

/*
 * h's events at ts are all counted: drop the other streams' repeats of
 * them now, page after page.  1 if some stream still holds events at ts
 * (more copies than h has: they go out next), 0 if none does.
 */
static int drop_repeats(struct cpu_merge *c, struct head *h, uint64_t ts,
			struct tdat_error *err)
{
	int i, more = 0;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		while (t != h && !t->done && head_ts(t) == ts) {
			if (!t->nev || take(c, t, t->pos, 1)) {
				more = 1;	/* an empty page: it goes out */
				break;
			}
			t->keep[t->pos++] = 0;
			t->dropped++;
			if (t->pos == t->nev && head_next(c, t, err))
				return -1;
		}
	}
	return more;
}

/* May h write its events at ts before every other stream's? */
static int h_goes_first(struct cpu_merge *c, struct head *h, uint64_t ts,
			const struct merge_stream *next)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done &&
		    !before(ts, fresh(h, ts), h->s->input, head_ts(t),
			    fresh(t, head_ts(t)), t->s->input))
			return 0;
	}
	return !next || before(ts, fresh(h, ts), h->s->input, next->key, 1,
			       next->input);
}

/* Write what h can of its page before the other streams' events. */
static int step(struct cpu_merge *c, struct head *h,
		const struct merge_stream *next, struct tdat_error *err)
{
	uint32_t j = h->pos, n, k, kept = 0;
	int twins = 0, r;

	if (h->pos == 0) {
		twins = mark_twins(c, h, err);
		if (twins < 0)
			return -1;
	}
	while (j < h->nev) {
		n = group(h, j);
		/* the front's first group always goes */
		if (j > h->pos && !h_goes_first(c, h, h->ts[j], next))
			break;
		if (dups_at(c, h, h->ts[j])) {
			for (k = j; k < j + n; k++)
				kept += h->keep[k] = (uint8_t)take(c, h, k, 0);
		} else {
			memset(h->keep + j, 1, n);
			kept += n;
		}
		j += n;
		if (j == h->nev || !c->dactive)
			continue;
		r = drop_repeats(c, h, h->ts[j - n], err);
		if (r < 0)
			return -1;
		if (twins) {
			skip_twins(c, h, j);
			twins = 0;
		}
		if (r)
			break;
	}
	if (twins)
		skip_twins(c, h, UINT32_MAX);	/* only unmarks them */
	h->dropped += j - h->pos - kept;
	if (!h->nev || (h->pos == 0 && j == h->nev && kept == h->nev))
		r = put_whole(c, h, err);
	else if (kept == j - h->pos)
		r = put_cut(c, h, h->pos, j, err);
	else if (kept) {
		memset(h->keep, 0, h->pos);
		memset(h->keep + j, 0, h->nev - j);
		r = put_keep(c, h, err);
	} else
		r = 0;
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

		if (!h->done &&
		    (!best || before(head_ts(h), fresh(h, head_ts(h)),
				     h->s->input, head_ts(best),
				     fresh(best, head_ts(best)),
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

static int run(struct cpu_merge *c, struct merge_stream *s, int n,
	       struct tdat_error *err)
{
	struct head *h;
	int next = 0;

	for (;;) {
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
	c.d = dups_new();
	if (!c.h || !c.batch || !c.d) {
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
	dups_free(c.d);
	return r;
}
