/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_dups.c - which events at one timestamp repeat what another input
 * already gave.
 *
 * Inputs that overlap hold the same events; one input may also hold
 * several identical events at one timestamp on purpose.  So for every
 * distinct payload e at timestamp T the output gets as many copies as
 * the input holding most of them: max over inputs of count(e at T).
 * The table keeps, for the current T, each distinct payload seen (a copy
 * of its bytes: pages come and go), how many copies were written, and
 * how many each input stream gave so far.  An event is written when its
 * stream has given more copies of it than were written; whatever order
 * the streams are read in, the totals come out right.
 *
 * Streams may also hold different events of one timestamp: readers that
 * shared one ring buffer each got some of them, and an event both got
 * (identical payloads do happen with coarse clocks) is no repeat.  So a
 * stream's events at T, judged together (dups_run), are all written
 * when they neither all repeat what was written nor hold all of it.
 * (When one reader's share happens to be a part of the other's, the two
 * cannot be told from an overlap: it is taken for one.)
 *
 * A stream that ends at T (after earlier events) and one that starts
 * at T may be two pieces cut inside T's events (split -e or -p): each
 * holds part of them, and an event they both hold may be there twice on
 * purpose, one copy in each.  So they count as one stream (the second
 * takes over the first's counts): their copies add up.  Pieces that
 * overlap only inside one timestamp's events look the same, and then
 * keep those events twice: nothing is ever lost.
 *
 * Memory is bounded: past DUP_MAX_ENTRIES payloads, DUP_MAX_BYTES of
 * them or DUP_MAX_SLOTS streams at one timestamp, the table gives up on
 * that timestamp and keeps every event (the caller warns).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"

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

struct dup_table *dups_new(void)
{
	return calloc(1, sizeof(struct dup_table));
}

void dups_free(struct dup_table *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->slots_made; i++)
		free(d->cnt[i]);
	free(d->e);
	free(d->index);
	tdat_bytes_free(&d->bytes);
	free(d->idx);
	free(d);
}

void dups_reset(struct dup_table *d)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		d->index[d->e[i].bucket] = 0;
	d->n = 0;
	tdat_bytes_reset(&d->bytes);
	d->nslots = 0;
	d->capped = 0;
}

int dups_newly_capped(struct dup_table *d)
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

void dups_give_up(struct dup_table *d)
{
	give_up(d);
}

int dups_gave_up(const struct dup_table *d)
{
	return d->capped;
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

void dups_end(struct dup_table *d, const void *who)
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

int dups_take(struct dup_table *d, const void *who, const uint8_t *data,
	      uint32_t size, int starts)
{
	int64_t i;
	int s;

	if (d->capped)
		return 1;
	s = slot_of(d, who, starts);
	i = s < 0 ? -1 : entry_of(d, data, size, 1);
	if (i < 0 || d->cnt[s][i] == UINT32_MAX) {
		give_up(d);
		return 1;
	}
	if (d->cnt[s][i] < d->e[i].out) {
		d->cnt[s][i]++;
		return 0;	/* as many were written already */
	}
	d->e[i].out = ++d->cnt[s][i];
	return 1;
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

int dups_run(struct dup_table *d, const void *who, int starts, int whole,
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
