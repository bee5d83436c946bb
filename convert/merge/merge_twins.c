/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_twins.c - repeats found without counting them.
 *
 * Overlapping inputs mostly hold the same pages, or at least the same
 * events at a timestamp, byte for byte.  Counting each event in the
 * per-timestamp table (merge_dups.c) would cost a copy and a lookup per
 * event, so the common cases are caught first: identical pages at the
 * same point (twins, mark_twins/skip_twins) skip all but the timestamps
 * other pages may continue, and streams holding exactly the front's
 * events at a timestamp within their pages (same_groups) drop them.
 * Everything else goes the slow way, counted (merge_gather.c).
 */
#include <string.h>
#include "convert/merge/merge_cpu_internal.h"

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
int mark_twins(struct cpu_merge *c, struct head *h, struct tdat_error *err)
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
void skip_twins(struct cpu_merge *c, struct head *h, uint32_t first)
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
int same_groups(struct cpu_merge *c, struct head *h, uint32_t j, uint32_t n)
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
