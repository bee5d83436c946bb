/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_gather.c - the events of one timestamp that several streams
 * hold, counted so that repeats are dropped.
 *
 * The first stream at a timestamp T (the front) counts its events there
 * one by one as it writes them (take).  Once they are all known (a later
 * timestamp follows in its page), every other stream's events at T are
 * gathered, over as many of its pages as they take, and judged together
 * against what was written (merge_dups.c): those to write are held, to
 * go out right after the front's (emit_held, merge_out.c).  Gathered
 * events are copies (their pages are gone by then), bounded by
 * GATHER_MAX: past it the timestamp is given up on and all is written.
 * The dropped events are counted in the stats page by page, as head_next
 * counts a stream's own.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_cpu_internal.h"

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

static void items_free(struct items *l)
{
	free(l->it);
	tdat_bytes_free(&l->b);
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
int dups_at(struct cpu_merge *c, struct head *h, uint64_t ts)
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

/* A head's input file name, for messages: its tdat_file may be closed
 * by now (a stream that ended inside a gather gives its input back). */
static const char *in_path(const struct cpu_merge *c, const struct head *h)
{
	return c->m->in[h->s->input].path;
}

/* One warning per merge when a timestamp had too much to compare. */
static void told_capped(struct cpu_merge *c, struct head *h, uint64_t ts)
{
	if (dups_newly_capped(c->d) && !c->m->dups_capped) {
		c->m->dups_capped = 1;
		merge_warn(c->m, "%s: buffer \"%s\" CPU %d: too many events"
			   " at timestamp %llu to look for repeats: all are"
			   " kept", in_path(c, h), c->bufname, c->cpu,
			   (unsigned long long)ts);
	}
}

int take(struct cpu_merge *c, struct head *h, uint32_t k)
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
 * t's events at ts, over as many pages as they take, copied to c->g
 * (where each page ends in c->gp) and counted as dropped until judged.
 */
static int collect(struct cpu_merge *c, struct head *t, uint64_t ts,
		   struct tdat_error *err)
{
	struct items *g = &c->g;
	struct item from;
	uint32_t len, hdr;

	memset(&from, 0, sizeof(from));
	from.input = t->s->input;
	from.in_chunk = t->chunked;
	g->n = 0;
	tdat_bytes_reset(&g->b);
	c->ngp = 0;
	while (!t->done && head_ts(t) == ts) {
		if (t->nev) {
			const uint8_t *item = t->page + t->ioff[t->pos];

			hdr = (uint32_t)(t->data[t->pos] - item);
			len = hdr + t->size[t->pos];
			if (g->b.len + c->held.b.len + len > GATHER_MAX) {
				dups_give_up(c->d);
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
		if (gpage_add(c, t, g->n) || head_next(c, t, err))
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
	struct items *g = &c->g;
	uint32_t k, p, m;
	int keep;

	for (k = p = m = 0; k < g->n; k++) {
		while (p < c->ngp && c->gp[p].first <= k)
			gpage_kept(c, &c->gp[p++], &m);
		keep = c->gkeep[k];
		if (keep && items_add(&c->held, g->b.data + g->it[k].off,
				      g->it[k].len, g->it[k].hdr, &g->it[k]))
			return tdat_fail_nooff(err, in_path(c, t),
					       "out of memory");
		m += keep;
	}
	while (p < c->ngp)
		gpage_kept(c, &c->gp[p++], &m);
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
int gather(struct cpu_merge *c, struct head *t, uint64_t ts,
	   struct tdat_error *err)
{
	int starts = fresh(t, ts), whole;
	struct items *g = &c->g;
	uint32_t k;

	whole = !starts && (t->pos ? t->ts[t->pos - 1] : t->prev) != ts;
	if (collect(c, t, ts, err))
		return -1;
	if (g->n > c->gcap && grow_verdicts(c, g->cap))
		return tdat_fail_nooff(err, in_path(c, t), "out of memory");
	for (k = 0; k < g->n; k++) {
		c->gdata[k] = g->b.data + g->it[k].off + g->it[k].hdr;
		c->gsize[k] = g->it[k].len - g->it[k].hdr;
	}
	dups_run(c->d, t->s, starts, whole && !t->done, g->n, c->gdata,
		 c->gsize, c->gkeep);
	if (hold_kept(c, t, err))
		return -1;
	if (t->done && t->s->key < ts)
		dups_end(c->d, t->s);
	told_capped(c, t, ts);
	return 0;
}

/*
 * h's events at ts are all counted: the other streams' events at ts are
 * judged now.  1 if some are to be written (held), 0 if none, -1.
 */
int drop_repeats(struct cpu_merge *c, struct head *h, uint64_t ts,
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

void gather_free(struct cpu_merge *c)
{
	items_free(&c->g);
	items_free(&c->held);
	free(c->gp);
	free(c->gdata);
	free(c->gsize);
	free(c->gkeep);
}
