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
 * streams' page boundaries or their order of events at T; streams that
 * hold other events at T (readers that shared one ring buffer) add up,
 * and so do a piece ending inside T's events and one starting there.
 * The first stream at T (the one with earlier events, then the earlier
 * input) writes its events there as they come.  Once they are all known
 * (a later timestamp follows in its page), every other stream's events
 * at T are gathered, over as many of its pages as they take, judged
 * together, and those to write go out right after (gather).  So the
 * first stream's page goes on whole unless another adds events inside
 * it.  Cheap cases first: a stream alone at T, or others holding T's
 * events byte for byte within their pages as it does (same_groups), and
 * identical pages at the same point (mark_twins) skip the counting.
 * Pages not written whole give their kept events to one gathering page
 * (libfmt's tdat_page_fill_*), so interleaving costs few pages.
 */
#include <stdlib.h>
#include <string.h>
#include "merge_internal.h"

#define BATCH_PAGES 64
#define GATHER_MAX (8u << 20)	/* bytes of events gathered at one ts */

/* Event items (header words and payload) copied out of their pages. */
struct items {
	struct item {
		size_t off;	/* in b */
		uint32_t len, hdr;	/* item bytes, of them header */
	} *it;
	uint32_t n, cap;
	uint8_t *b;
	size_t nb, bcap;
};

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
	uint32_t *ioff;		/* each event's item offset in the page */
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
	/* kept events of pages not written whole, gathered */
	uint8_t *pend;
	struct tdat_page_fill pf;
	int pf_open;
	/* the timestamp whose repeats are being looked for */
	struct dup_table *d;
	uint64_t dts;
	int dset, dactive;
	const struct merge_stream *dfirst;	/* wrote first at dts */
	struct items g;		/* a later stream's events at dts */
	const uint8_t **gdata;	/* their payloads, sizes, verdicts */
	uint32_t *gsize;
	uint8_t *gkeep;
	uint32_t gcap;
	struct gpage {		/* the pages they came from, for stats */
		uint32_t first;	/* the first of them in g */
		uint32_t nev;	/* events of the page */
		int whole;	/* counted as a page dropped whole */
	} *gp;
	uint32_t ngp, gpcap;
	struct items held;	/* those of them to write */
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
		h->ioff[h->nev] = ev.offset;
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
	h->ioff = malloc(cap * sizeof(*h->ioff));
	if (!h->ts || !h->data || !h->size || !h->keep || !h->ioff)
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
	free(h->ioff);
}

static int items_add(struct items *l, const uint8_t *item, uint32_t len,
		     uint32_t hdr)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 64;
		struct item *it = realloc(l->it, cap * sizeof(*it));

		if (!it)
			return -1;
		l->it = it;
		l->cap = cap;
	}
	if (l->nb + len > l->bcap) {
		size_t bcap = l->bcap ? l->bcap : 4096;
		uint8_t *b;

		while (bcap < l->nb + len)
			bcap *= 2;
		b = realloc(l->b, bcap);
		if (!b)
			return -1;
		l->b = b;
		l->bcap = bcap;
	}
	memcpy(l->b + l->nb, item, len);
	l->it[l->n].off = l->nb;
	l->it[l->n].len = len;
	l->it[l->n++].hdr = hdr;
	l->nb += len;
	return 0;
}

static void items_free(struct items *l)
{
	free(l->it);
	free(l->b);
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

/* The page gathering kept events, written out. */
static int pend_flush(struct cpu_merge *c, struct tdat_error *err)
{
	uint8_t *p;

	if (!c->pf_open)
		return 0;
	c->pf_open = 0;
	if (!c->pf.nev)
		return 0;
	c->run_h = NULL;
	p = slot(c, err);
	if (!p)
		return -1;
	tdat_page_fill_finish(c->m->meta, &c->pf);
	memcpy(p, c->pend, c->ps);
	c->m->st->pages_cut++;
	return 0;
}

static int put_whole(struct cpu_merge *c, struct head *h,
		     struct tdat_error *err)
{
	uint8_t *p;

	if (pend_flush(c, err))
		return -1;
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

/*
 * The events of h's page whose keep[] is set, added to the page that
 * gathers them (pagecut.c): pages that streams interleave in, or that
 * lose repeats, take as few output pages as they can.
 */
static int put_kept(struct cpu_merge *c, struct head *h,
		    struct tdat_error *err)
{
	uint32_t next = 0;
	int r;

	c->run_h = NULL;
	for (;;) {
		if (!c->pf_open) {
			tdat_page_fill_init(c->m->meta, &c->pf, c->pend, c->ps);
			c->pf_open = 1;
		}
		r = tdat_page_fill_keep(h->f, &c->pf, h->page, h->keep, h->nev,
					&next, h->off, err);
		if (r)
			return r < 0 ? -1 : 0;
		if (pend_flush(c, err))
			return -1;
	}
}

/* The held events of other streams, after what was written. */
static int emit_held(struct cpu_merge *c, struct tdat_error *err)
{
	const struct tdat_file *f = c->m->meta;
	uint32_t k;
	int r;

	c->run_h = NULL;
	for (k = 0; k < c->held.n; k++) {
		const struct item *it = &c->held.it[k];

		do {
			if (!c->pf_open) {
				tdat_page_fill_init(f, &c->pf, c->pend, c->ps);
				c->pf_open = 1;
			}
			r = tdat_page_fill_item(f, &c->pf, c->held.b + it->off,
						it->len, c->dts);
			if (r < 0)
				return merge_fail(err, "buffer \"%s\" CPU %d:"
						  " an event at %llu does not"
						  " fit a page", c->bufname,
						  c->cpu, (unsigned long long)
						  c->dts);
			if (!r && pend_flush(c, err))
				return -1;
		} while (!r);
	}
	c->held.n = 0;
	c->held.nb = 0;
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

/* The index of the first event of h's last timestamp. */
static uint32_t last_group(const struct head *h)
{
	uint32_t last = h->nev - 1;

	while (last && h->ts[last - 1] == h->ts[h->nev - 1])
		last--;
	return last;
}

/* t (h's twin) goes on at its page's last timestamp. */
static void skip_to_last(const struct head *h, struct head *t)
{
	uint32_t last = last_group(h);

	t->dropped += last - t->pos;
	t->pos = last;
}

/*
 * Other streams whose page is h's, at the same point (both at its
 * start): an empty one is dropped now.  The others skip all but their
 * last timestamp's events (other pages may continue those) when their
 * first timestamp starts on this page in both; else they are twins,
 * whose inner timestamps skip_twins passes over once their first
 * timestamp's events were counted.  Pages with one timestamp only go the
 * slow way (every event counted): they may continue both ways.
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
		} else if (h->ts[0] == h->ts[h->nev - 1]) {
			continue;
		} else if (h->prev < h->ts[0] && t->prev < h->ts[0]) {
			/* its first timestamp starts here in both: all
			 * but the last are h's, one for one */
			skip_to_last(h, t);
		} else {
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
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t->twin && !t->done && t->pos == first)
			skip_to_last(h, t);
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
		c->dfirst = h->s;
		if (c->dactive)
			dups_reset(c->d);
	}
	return c->dactive;
}

/* One warning per merge when a timestamp had too much to compare. */
static void told_capped(struct cpu_merge *c, struct head *h, uint64_t ts)
{
	if (dups_newly_capped(c->d) && !c->m->dups_capped) {
		c->m->dups_capped = 1;
		merge_warn(c->m, "%s: buffer \"%s\" CPU %d: too many events"
			   " at timestamp %llu to look for repeats: all are"
			   " kept", h->f->path, c->bufname, c->cpu,
			   (unsigned long long)ts);
	}
}

/* h's event k at the timestamp being counted: 1 to write it. */
static int take(struct cpu_merge *c, struct head *h, uint32_t k)
{
	int r = dups_take(c->d, h->s, h->data[k], h->size[k],
			  fresh(h, h->ts[k]));

	told_capped(c, h, h->ts[k]);
	return r;
}

/* t's page ends within the gathered events (before g's event n). */
static int gpage_add(struct cpu_merge *c, struct head *t, uint32_t n)
{
	if (c->ngp == c->gpcap) {
		uint32_t cap = c->gpcap ? c->gpcap * 2 : 16;
		struct gpage *gp = realloc(c->gp, cap * sizeof(*gp));

		if (!gp)
			return -1;
		c->gp = gp;
		c->gpcap = cap;
	}
	c->gp[c->ngp].first = n;
	c->gp[c->ngp].nev = t->nev;
	c->gp[c->ngp++].whole = t->nev && t->dropped == t->nev;
	return 0;
}

/* m gathered events of a page already counted as dropped were kept. */
static void gpage_kept(struct cpu_merge *c, const struct gpage *gp,
		       uint32_t *m)
{
	if (!*m)
		return;
	if (gp->whole) {
		c->m->st->dup_pages--;
		c->m->st->dup_events += gp->nev - *m;
	} else {
		c->m->st->dup_events -= *m;
	}
	*m = 0;
}

/* Room for cap gathered events' payloads, sizes and verdicts. */
static int grow_verdicts(struct cpu_merge *c, uint32_t cap)
{
	const uint8_t **d = realloc(c->gdata, cap * sizeof(*d));
	uint32_t *s;
	uint8_t *k;

	if (!d)
		return -1;
	c->gdata = d;
	s = realloc(c->gsize, cap * sizeof(*s));
	if (!s)
		return -1;
	c->gsize = s;
	k = realloc(c->gkeep, cap);
	if (!k)
		return -1;
	c->gkeep = k;
	c->gcap = cap;
	return 0;
}

/*
 * All of t's events at ts, over as many pages as they take, judged
 * against what was written at ts: those to write go to c->held, after
 * the front's.  Event by event, a stream gives as many copies of an
 * event as it has beyond those written (overlapping inputs); a stream
 * with other events at ts gives them all (other_events).
 */
static int gather(struct cpu_merge *c, struct head *t, uint64_t ts,
		  struct tdat_error *err)
{
	int starts = fresh(t, ts), whole, keep;
	struct items *g = &c->g;
	uint32_t k, len, hdr, p, m;

	whole = !starts && (t->pos ? t->ts[t->pos - 1] : t->prev) != ts;
	g->n = 0;
	g->nb = 0;
	c->ngp = 0;
	while (!t->done && head_ts(t) == ts) {
		if (t->nev) {
			const uint8_t *item = t->page + t->ioff[t->pos];

			hdr = (uint32_t)(t->data[t->pos] - item);
			len = hdr + t->size[t->pos];
			if (g->nb + c->held.nb + len > GATHER_MAX) {
				dups_give_up(c->d);
				break;
			}
			if (items_add(g, item, len, hdr))
				return merge_fail(err, "%s: out of memory",
						  t->f->path);
			t->pos++;
			t->dropped++;	/* until judged */
		}
		if (t->pos < t->nev)
			continue;
		if (gpage_add(c, t, g->n) || head_next(c, t, err))
			return -1;
	}
	if (g->n > c->gcap && grow_verdicts(c, g->cap))
		return merge_fail(err, "%s: out of memory", t->f->path);
	for (k = 0; k < g->n; k++) {
		c->gdata[k] = g->b + g->it[k].off + g->it[k].hdr;
		c->gsize[k] = g->it[k].len - g->it[k].hdr;
	}
	dups_run(c->d, t->s, starts, whole && !t->done, g->n, c->gdata,
		 c->gsize, c->gkeep);
	for (k = p = m = 0; k < g->n; k++) {
		while (p < c->ngp && c->gp[p].first <= k)
			gpage_kept(c, &c->gp[p++], &m);
		keep = c->gkeep[k];
		if (keep && items_add(&c->held, g->b + g->it[k].off,
				      g->it[k].len, g->it[k].hdr))
			return merge_fail(err, "%s: out of memory",
					  t->f->path);
		m += keep;
	}
	while (p < c->ngp)
		gpage_kept(c, &c->gp[p++], &m);
	t->dropped -= m;	/* those on the page t is at */
	if (t->done && t->s->key < ts)
		dups_end(c->d, t->s);
	told_capped(c, t, ts);
	return 0;
}

/*
 * h's events at ts are all counted: the other streams' events at ts are
 * judged now.  1 if some are to be written (held), 0 if none, -1.
 */
static int drop_repeats(struct cpu_merge *c, struct head *h, uint64_t ts,
			struct tdat_error *err)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done && head_ts(t) == ts &&
		    gather(c, t, ts, err))
			return -1;
	}
	return c->held.n > 0;
}

/* Are h's events [j, j + n) all of its events at their timestamp? */
static int closed(const struct head *h, uint32_t j, uint32_t n)
{
	uint64_t ts = h->ts[j];

	return j + n < h->nev && (j ? h->ts[j - 1] : h->prev) < ts &&
	       !fresh(h, ts);
}

/*
 * The common overlap, cheaply: every other stream at h's timestamp has
 * there exactly h's events [j, j + n), byte for byte and in order, all
 * in its page as in h's.  Those are dropped (1), without counting.
 */
static int same_groups(struct cpu_merge *c, struct head *h, uint32_t j,
		       uint32_t n)
{
	uint64_t ts = h->ts[j];
	uint32_t k;
	int i, any = 0;

	if (!closed(h, j, n))
		return 0;
	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t == h || t->done || head_ts(t) != ts)
			continue;
		if (!t->nev || group(t, t->pos) != n || !closed(t, t->pos, n))
			return 0;
		for (k = 0; k < n; k++)
			if (t->size[t->pos + k] != h->size[j + k] ||
			    memcmp(t->data[t->pos + k], h->data[j + k],
				   h->size[j + k]))
				return 0;
		any = 1;
	}
	for (i = 0; any && i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done && head_ts(t) == ts) {
			t->pos += n;
			t->dropped += n;
		}
	}
	return any;
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

	/* a later stream at the timestamp being counted */
	if (h->nev && c->dset && c->dactive && c->dts == h->ts[h->pos] &&
	    c->dfirst != h->s && !dups_gave_up(c->d))
		return gather(c, h, c->dts, err) || emit_held(c, err) ? -1 : 0;
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
		if ((!c->dset || c->dts != h->ts[j]) &&
		    (c->nh == 1 || same_groups(c, h, j, n))) {
			/* alone, or the others' repeats dropped: nothing
			 * more to count at ts */
			c->dset = 1;
			c->dts = h->ts[j];
			c->dactive = 0;
			memset(h->keep + j, 1, n);
			kept += n;
		} else if (dups_at(c, h, h->ts[j])) {
			for (k = j; k < j + n; k++)
				kept += h->keep[k] = (uint8_t)take(c, h, k);
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
	if (!h->nev || (h->pos == 0 && j == h->nev && kept == h->nev)) {
		r = put_whole(c, h, err);
	} else if (kept) {
		memset(h->keep, 0, h->pos);
		memset(h->keep + j, 0, h->nev - j);
		r = put_kept(c, h, err);
	} else {
		r = 0;
	}
	if (r || (c->held.n && emit_held(c, err)))
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
		/* events kept in the gathering page go before the copy */
		if (pend_flush(c, err) || flush(c, err) ||
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
	c.d = dups_new();
	c.pend = malloc(c.ps);
	if (!c.h || !c.batch || !c.d || !c.pend) {
		r = merge_fail(err, "%s: out of memory", m->in[s[0].input].path);
		goto out;
	}
	r = run(&c, s, n, err);
	if (!r)
		r = pend_flush(&c, err);
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
	free(c.pend);
	items_free(&c.g);
	items_free(&c.held);
	free(c.gp);
	free(c.gdata);
	free(c.gsize);
	free(c.gkeep);
	return r;
}
