/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_repeats.c - the events of one timestamp that several streams
 * hold: which of them repeat what another input already gave.
 *
 * Inputs that overlap hold the same events; one input may also hold
 * several identical events at one timestamp on purpose.  So for every
 * distinct payload e at timestamp T the output gets as many copies as
 * the input holding most of them: max over inputs of count(e at T).
 *
 * The first stream at T (the front: earlier events, then the earlier
 * input) writes all its events there, counted one by one
 * (repeats_count).  Once they are all known (a later timestamp follows
 * in its page), every other stream's events at T are gathered, over as
 * many of its pages as they take, and judged together against what was
 * written (dups_run): an event is written when its stream has more
 * copies of it than were written.  Those to write are held, to go out
 * right after the front's (merge_cpu.c).  Gathered events are copies
 * (their pages are gone by then), bounded by GATHER_MAX: past it the
 * timestamp is given up on and all is written.  The dropped events are
 * counted in the stats page by page, as a stream's own are.
 *
 * Streams may also hold different events of one timestamp: readers that
 * shared one ring buffer each got some of them, and an event both got
 * (identical payloads do happen with coarse clocks) is no repeat.  So a
 * stream's events at T, judged together, are all written when they
 * neither all repeat what was written nor hold all of it.  (When one
 * reader's share happens to be a part of the other's, the two cannot be
 * told from an overlap: it is taken for one.)
 *
 * A stream that ends at T (after earlier events) and one that starts
 * at T may be two pieces cut inside T's events (split -e or -p): each
 * holds part of them, and an event they both hold may be there twice on
 * purpose, one copy in each.  So they count as one stream (the second
 * takes over the first's counts): their copies add up.  Pieces that
 * overlap only inside one timestamp's events look the same, and then
 * keep those events twice: nothing is ever lost.
 *
 * Cheap cases first (twins): counting costs a copy and a lookup per
 * event, so identical pages at the same point skip all but the
 * timestamps other pages may continue, and streams holding exactly the
 * front's events at T within their pages drop them uncounted.
 *
 * Memory is bounded: past DUP_MAX_ENTRIES payloads, DUP_MAX_BYTES of
 * them or DUP_MAX_SLOTS streams at one timestamp, the table gives up on
 * that timestamp and keeps every event (the user is told once).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"

/* ---- the table of one timestamp's events ---- */

#define DUP_MAX_ENTRIES	(1u << 16)
#define DUP_MAX_BYTES	(8u << 20)
#define DUP_MAX_SLOTS	32

struct dup_entry {
	uint64_t hash;
	uint32_t size, off;	/* payload copy in bytes[off] */
	uint32_t out;		/* copies written */
	uint32_t bucket;	/* where index[] points at it */
};

struct dup_table {
	int capped;		/* gave up on this timestamp */
	int newly_capped;	/* ... and nobody was told yet */
	uint32_t n, cap;	/* entries, room for them */
	struct dup_entry *e;
	uint32_t *index;	/* 2 * cap buckets: entry + 1, 0 = empty */
	struct tdat_bytes bytes;	/* the payloads, one after another */
	int nslots;		/* streams seen at this timestamp */
	const void *who[DUP_MAX_SLOTS];
	int ended[DUP_MAX_SLOTS];	/* its stream ended at T */
	uint32_t *cnt[DUP_MAX_SLOTS];	/* per stream, per entry */
	int slots_made;		/* cnt arrays allocated (kept across T) */
	uint32_t *idx, idxcap;	/* entries of a run (dups_run) */
};

static void dups_free(struct dup_table *d)
{
	int i;

	for (i = 0; i < d->slots_made; i++)
		free(d->cnt[i]);
	free(d->e);
	free(d->index);
	tdat_bytes_free(&d->bytes);
	free(d->idx);
}

static void dups_reset(struct dup_table *d)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		d->index[d->e[i].bucket] = 0;
	d->n = 0;
	tdat_bytes_reset(&d->bytes);
	d->nslots = 0;
	d->capped = 0;
}

static int dups_newly_capped(struct dup_table *d)
{
	int r = d->newly_capped;

	d->newly_capped = 0;
	return r;
}

static void give_up(struct dup_table *d)
{
	if (!d->capped)
		d->newly_capped = 1;
	d->capped = 1;
}

/* Payloads are whole 4-byte words: mix them 8 bytes at a time. */
static uint64_t hash_of(const uint8_t *p, uint32_t size)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ size, w;
	uint32_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	if (i < size) {
		w = 0;
		memcpy(&w, p + i, size - i);
		h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
	}
	return h ^ h >> 29;
}

/* Twice the room: entries, buckets (rehashed) and every stream's counts. */
static int grow(struct dup_table *d)
{
	uint32_t cap = d->cap ? d->cap * 2 : 16, nb = 2 * cap, i, b;
	struct dup_entry *e = realloc(d->e, cap * sizeof(*e));
	uint32_t *index;
	int s;

	if (!e)
		return -1;
	d->e = e;
	for (s = 0; s < d->slots_made; s++) {
		uint32_t *c = realloc(d->cnt[s], cap * sizeof(*c));

		if (!c)
			return -1;
		d->cnt[s] = c;
	}
	index = calloc(nb, sizeof(*index));
	if (!index)
		return -1;
	for (i = 0; i < d->n; i++) {
		for (b = (uint32_t)e[i].hash & (nb - 1); index[b];
		     b = (b + 1) & (nb - 1))
			;
		index[b] = i + 1;
		e[i].bucket = b;
	}
	free(d->index);
	d->index = index;
	d->cap = cap;
	return 0;
}

/*
 * The slot of stream who at this timestamp, -1 if there is no room.  A
 * stream starting at T takes over the slot of one that ended at T.
 */
static int slot_of(struct dup_table *d, const void *who, int starts)
{
	int s;

	for (s = 0; s < d->nslots; s++)
		if (d->who[s] == who)
			return s;
	for (s = 0; starts && s < d->nslots; s++)
		if (d->ended[s]) {
			d->ended[s] = 0;
			d->who[s] = who;
			return s;
		}
	s = d->nslots;
	if (s == DUP_MAX_SLOTS)
		return -1;
	if (s == d->slots_made) {
		d->cnt[s] = malloc((d->cap ? d->cap : 1) * sizeof(uint32_t));
		if (!d->cnt[s])
			return -1;
		d->slots_made++;
	}
	memset(d->cnt[s], 0, d->n * sizeof(uint32_t));
	d->who[s] = who;
	d->ended[s] = 0;
	d->nslots++;
	return s;
}

static void dups_end(struct dup_table *d, const void *who)
{
	int s;

	for (s = 0; s < d->nslots; s++)
		if (d->who[s] == who)
			d->ended[s] = 1;
}

/* The entry of a payload, added (out 0, counts 0) if new; -1 if full. */
static int64_t entry_of(struct dup_table *d, const uint8_t *data,
			uint32_t size, int add)
{
	uint64_t h = hash_of(data, size);
	uint32_t b, i;
	int s;

	for (b = d->cap ? (uint32_t)h & (2 * d->cap - 1) : 0;
	     d->cap && d->index[b]; b = (b + 1) & (2 * d->cap - 1)) {
		const struct dup_entry *e = &d->e[d->index[b] - 1];

		if (e->hash == h && e->size == size &&
		    !memcmp(d->bytes.data + e->off, data, size))
			return d->index[b] - 1;
	}
	if (!add)
		return -2;
	if (d->n == DUP_MAX_ENTRIES || d->bytes.len + size > DUP_MAX_BYTES)
		return -1;
	if (d->n == d->cap) {
		if (grow(d))
			return -1;
		return entry_of(d, data, size, add);
	}
	if (tdat_bytes_add(&d->bytes, data, size))
		return -1;
	i = d->n++;
	d->e[i].hash = h;
	d->e[i].size = size;
	d->e[i].off = (uint32_t)(d->bytes.len - size);
	d->e[i].out = 0;
	d->e[i].bucket = b;
	d->index[b] = i + 1;
	for (s = 0; s < d->nslots; s++)
		d->cnt[s][i] = 0;
	return i;
}

/*
 * Stream who's next event at T, written (the first stream at T writes
 * all its events there, before any other stream's are judged): counted.
 */
static void dups_count(struct dup_table *d, const void *who,
		       const uint8_t *data, uint32_t size, int starts)
{
	int64_t i;
	int s;

	if (d->capped)
		return;
	s = slot_of(d, who, starts);
	i = s < 0 ? -1 : entry_of(d, data, size, 1);
	if (i < 0 || d->cnt[s][i] == UINT32_MAX)
		give_up(d);
	else
		d->e[i].out = ++d->cnt[s][i];
}

/* The entry of each event of a run, in d->idx; -1 if the table is full. */
static int index_run(struct dup_table *d, uint32_t n,
		     const uint8_t *const *data, const uint32_t *size)
{
	uint32_t k;
	int64_t i;

	if (n > d->idxcap) {
		uint32_t *idx = realloc(d->idx, n * sizeof(*idx));

		if (!idx)
			return -1;
		d->idx = idx;
		d->idxcap = n;
	}
	for (k = 0; k < n; k++) {
		i = entry_of(d, data[k], size[k], 1);
		if (i < 0)
			return -1;
		d->idx[k] = (uint32_t)i;
	}
	return 0;
}

/*
 * Are the run's events (counted in slot s) other events than those
 * written: neither all repeats of them nor holding all of them?
 */
static int other_run(struct dup_table *d, int s, uint32_t n)
{
	uint32_t *cnt = d->cnt[s], k, i;
	int all = 1, covers = 1;

	for (k = 0; k < n; k++)
		cnt[d->idx[k]]++;
	for (k = 0; k < n && all; k++)
		all = cnt[d->idx[k]] <= d->e[d->idx[k]].out;
	for (i = 0; i < d->n && covers; i++)
		covers = cnt[i] >= d->e[i].out;
	for (k = 0; k < n; k++)
		cnt[d->idx[k]]--;
	return !all && !covers;
}

static int dups_run(struct dup_table *d, const void *who, int starts, int whole,
	     uint32_t n, const uint8_t *const *data, const uint32_t *size,
	     uint8_t *keep)
{
	/* other_run counts up by n: far below UINT32_MAX (runs are
	 * bounded in bytes), checked below before counting for good */
	uint32_t k, *c, *out;
	int s, other;

	s = d->capped ? -1 : slot_of(d, who, starts);
	if (s < 0 || index_run(d, n, data, size)) {
		give_up(d);
		memset(keep, 1, n);
		return 0;
	}
	other = whole && other_run(d, s, n);
	for (k = 0; k < n; k++) {
		c = &d->cnt[s][d->idx[k]];
		out = &d->e[d->idx[k]].out;
		if (*c == UINT32_MAX || *out == UINT32_MAX) {
			give_up(d);
			memset(keep + k, 1, n - k);
			return 0;
		}
		/* out >= c always: equal means c is beyond those written */
		keep[k] = other || *c == *out;
		*out += keep[k];
		(*c)++;
	}
	return 0;
}

/* The counting of one output CPU stream. */
struct repeats {
	struct dup_table d;
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
};

struct repeats *repeats_new(void)
{
	return calloc(1, sizeof(struct repeats));
}

void repeats_free(struct repeats *rp)
{
	if (!rp)
		return;
	dups_free(&rp->d);
	free(rp->g.it);
	tdat_bytes_free(&rp->g.b);
	free(rp->gp);
	free(rp->gdata);
	free(rp->gsize);
	free(rp->gkeep);
	free(rp);
}

int repeats_gave_up(const struct cpu_merge *c)
{
	return c->rp->d.capped;
}

void repeats_end(struct cpu_merge *c, const struct head *h)
{
	dups_end(&c->rp->d, h->s);
}

/* ---- the events of one timestamp, gathered and judged ---- */

#define GATHER_MAX (8u << 20)	/* bytes of events gathered at one ts */

static int items_add(struct items *l, const uint8_t *item, uint32_t len,
		     uint32_t hdr, const struct item *from)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 64;
		struct item *it = realloc(l->it, cap * sizeof(*it));

		if (!it)
			return -1;
		l->it = it;
		l->cap = cap;
	}
	if (tdat_bytes_add(&l->b, item, len))
		return -1;
	l->it[l->n] = *from;
	l->it[l->n].off = l->b.len - len;
	l->it[l->n].len = len;
	l->it[l->n++].hdr = hdr;
	return 0;
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
int repeats_counting(struct cpu_merge *c, struct head *h, uint64_t ts)
{
	if (!c->dset || c->dts != ts) {
		c->dset = 1;
		c->dts = ts;
		c->dactive = others_at(c, h, ts);
		c->dfirst = h->s;
		if (c->dactive)
			dups_reset(&c->rp->d);
	}
	return c->dactive;
}

/* A head's input file name, for messages: its tdat_file may be closed
 * by now (a stream that ended inside a gather gives its input back). */
static const char *in_path(const struct cpu_merge *c, const struct head *h)
{
	return c->m->in[h->s->input].path;
}

/* One warning per merge when a timestamp had too much to compare. */
static void told_capped(struct cpu_merge *c, struct head *h, uint64_t ts)
{
	if (dups_newly_capped(&c->rp->d) && !c->m->dups_capped) {
		c->m->dups_capped = 1;
		merge_warn(c->m, "%s: buffer \"%s\" CPU %d: too many events"
			   " at timestamp %llu to look for repeats: all are"
			   " kept", in_path(c, h), c->bufname, c->cpu,
			   (unsigned long long)ts);
	}
}

void repeats_count(struct cpu_merge *c, struct head *h, uint32_t j,
		   uint32_t n)
{
	uint32_t k;

	for (k = j; k < j + n; k++)
		dups_count(&c->rp->d, h->s, h->data[k], h->size[k],
			   fresh(h, h->ts[k]));
	told_capped(c, h, h->ts[j]);
}

/* t's page ends within the gathered events (before g's event n). */
static int gpage_add(struct cpu_merge *c, struct head *t, uint32_t n)
{
	if (c->rp->ngp == c->rp->gpcap) {
		uint32_t cap = c->rp->gpcap ? c->rp->gpcap * 2 : 16;
		struct gpage *gp = realloc(c->rp->gp, cap * sizeof(*gp));

		if (!gp)
			return -1;
		c->rp->gp = gp;
		c->rp->gpcap = cap;
	}
	c->rp->gp[c->rp->ngp].first = n;
	c->rp->gp[c->rp->ngp].nev = t->nev;
	c->rp->gp[c->rp->ngp++].whole = t->nev && t->dropped == t->nev;
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
	const uint8_t **d = realloc(c->rp->gdata, cap * sizeof(*d));
	uint32_t *s;
	uint8_t *k;

	if (!d)
		return -1;
	c->rp->gdata = d;
	s = realloc(c->rp->gsize, cap * sizeof(*s));
	if (!s)
		return -1;
	c->rp->gsize = s;
	k = realloc(c->rp->gkeep, cap);
	if (!k)
		return -1;
	c->rp->gkeep = k;
	c->rp->gcap = cap;
	return 0;
}

/*
 * t's events at ts, over as many pages as they take, copied to c->rp->g
 * (where each page ends in c->rp->gp) and counted as dropped until judged.
 */
static int collect(struct cpu_merge *c, struct head *t, uint64_t ts,
		   struct tdat_error *err)
{
	struct items *g = &c->rp->g;
	struct item from;
	uint32_t len, hdr;

	memset(&from, 0, sizeof(from));
	from.input = t->s->input;
	from.in_chunk = t->chunked;
	g->n = 0;
	tdat_bytes_reset(&g->b);
	c->rp->ngp = 0;
	while (!t->done && head_ts(t) == ts) {
		if (t->nev) {
			const uint8_t *item = t->page + t->ioff[t->pos];

			hdr = (uint32_t)(t->data[t->pos] - item);
			len = hdr + t->size[t->pos];
			if (g->b.len + c->held.b.len + len > GATHER_MAX) {
				give_up(&c->rp->d);
				break;
			}
			from.at = t->chunked ? t->off :
					       t->off + t->ioff[t->pos];
			if (items_add(g, item, len, hdr, &from))
				return tdat_fail_nooff(err, in_path(c, t),
						       "out of memory");
			t->pos++;
			t->dropped++;	/* until judged */
		}
		if (t->pos < t->nev)
			continue;
		if (gpage_add(c, t, g->n) || streams_next(c, t, err))
			return -1;
	}
	return 0;
}

/*
 * The gathered events whose gkeep[] is set go to c->held; the pages
 * they came from count them as kept again.
 */
static int hold_kept(struct cpu_merge *c, struct head *t,
		     struct tdat_error *err)
{
	struct items *g = &c->rp->g;
	uint32_t k, p, m;
	int keep;

	for (k = p = m = 0; k < g->n; k++) {
		while (p < c->rp->ngp && c->rp->gp[p].first <= k)
			gpage_kept(c, &c->rp->gp[p++], &m);
		keep = c->rp->gkeep[k];
		if (keep && items_add(&c->held, g->b.data + g->it[k].off,
				      g->it[k].len, g->it[k].hdr, &g->it[k]))
			return tdat_fail_nooff(err, in_path(c, t),
					       "out of memory");
		m += keep;
	}
	while (p < c->rp->ngp)
		gpage_kept(c, &c->rp->gp[p++], &m);
	t->dropped -= m;	/* those on the page t is at */
	return 0;
}

/*
 * All of t's events at ts, over as many pages as they take, judged
 * against what was written at ts: those to write go to c->held, after
 * the front's.  Event by event, a stream gives as many copies of an
 * event as it has beyond those written (overlapping inputs); a stream
 * with other events at ts gives them all (other_events).
 */
int repeats_gather(struct cpu_merge *c, struct head *t, uint64_t ts,
		   struct tdat_error *err)
{
	int starts = fresh(t, ts), whole;
	struct items *g = &c->rp->g;
	uint32_t k;

	whole = !starts && (t->pos ? t->ts[t->pos - 1] : t->prev) != ts;
	if (collect(c, t, ts, err))
		return -1;
	if (g->n > c->rp->gcap && grow_verdicts(c, g->cap))
		return tdat_fail_nooff(err, in_path(c, t), "out of memory");
	for (k = 0; k < g->n; k++) {
		c->rp->gdata[k] = g->b.data + g->it[k].off + g->it[k].hdr;
		c->rp->gsize[k] = g->it[k].len - g->it[k].hdr;
	}
	dups_run(&c->rp->d, t->s, starts, whole && !t->done, g->n, c->rp->gdata,
		 c->rp->gsize, c->rp->gkeep);
	if (hold_kept(c, t, err))
		return -1;
	if (t->done && t->s->key < ts)
		dups_end(&c->rp->d, t->s);
	told_capped(c, t, ts);
	return 0;
}

/*
 * h's events at ts are all counted: the other streams' events at ts are
 * judged now.  1 if some are to be written (held), 0 if none, -1.
 */
int repeats_drop(struct cpu_merge *c, struct head *h, uint64_t ts,
		 struct tdat_error *err)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t != h && !t->done && head_ts(t) == ts &&
		    repeats_gather(c, t, ts, err))
			return -1;
	}
	return c->held.n > 0;
}


/* ---- twins: repeats found without counting ---- */

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
int repeats_mark_twins(struct cpu_merge *c, struct head *h,
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
			if (streams_next(c, t, err))
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
void repeats_skip_twins(struct cpu_merge *c, struct head *h, uint32_t first)
{
	int i;

	for (i = 0; i < c->nh; i++) {
		struct head *t = &c->h[i];

		if (t->twin && !t->done && t->pos == first)
			skip_to_last(h, t);
		t->twin = 0;
	}
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
int repeats_same_groups(struct cpu_merge *c, struct head *h, uint32_t j,
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
