/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dict.c - a column chunk's dictionary, built from its buffered values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "convert/parquet/pqwrite/pqwrite.h"

#define PQ_SLOTS_MIN 64u
#define PQ_GOLDEN 0x9e3779b97f4a7c15u

/* Multiplicative hashing: the high half is the well-mixed one. */
static inline uint32_t hash_int(uint64_t v)
{
	return (uint32_t)((v * PQ_GOLDEN) >> 32);
}

/* Eight bytes at a time, mixed as in a multiply-xorshift. */
static uint32_t hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t h = PQ_GOLDEN ^ n, t = 0;
	size_t i;

	for (; n >= 8; p += 8, n -= 8) {
		h = (h ^ pq_load_le64(p)) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	for (i = 0; i < n; i++)
		t |= (uint64_t)p[i] << 8 * i;
	h = (h ^ t) * 0xc4ceb9fe1a85ec53u;
	return (uint32_t)(h >> 32);
}

/* Its memory; whether the column gave up on dictionaries stays. */
void pq_dict_free(struct pq_dict *d)
{
	int gave_up = d->gave_up;

	free(d->slot);
	free(d->skey);
	free(d->key);
	free(d->hash);
	memset(d, 0, sizeof(*d));
	d->gave_up = gave_up;
}

/* The table doubled, every entry placed again.  The load stays under
 * 1/4: probes mostly end at once, which a branch predictor likes.  An
 * integer's key sits by its slot too: a probe reads both at once. */
static int rehash(struct pq_dict *d, int ints)
{
	uint32_t nslots = d->slot ? (d->mask + 1) * 2 : PQ_SLOTS_MIN;
	uint32_t *slot = calloc(nslots, sizeof(*slot)), i, s, h;
	uint64_t *skey = ints ? malloc(nslots * sizeof(*skey)) : NULL;

	if (!slot || (ints && !skey)) {
		free(slot);
		free(skey);
		return -1;
	}
	for (i = 0; i < d->n; i++) {
		h = ints ? hash_int(d->key[i]) : d->hash[i];
		for (s = h & (nslots - 1); slot[s]; s = (s + 1) & (nslots - 1))
			;
		slot[s] = i + 1;
		if (ints)
			skey[s] = d->key[i];
	}
	free(d->slot);
	free(d->skey);
	d->slot = slot;
	d->skey = skey;
	d->mask = nslots - 1;
	return 0;
}

/* Room for one more entry in the key (and hash) arrays. */
static int grow_entries(struct pq_dict *d, int ints)
{
	uint32_t cap = d->cap ? d->cap * 2 : PQ_SLOTS_MIN / 2;
	uint64_t *key;
	uint32_t *hash;

	if (d->n < d->cap)
		return 0;
	key = realloc(d->key, cap * sizeof(*key));
	if (!key)
		return -1;
	d->key = key;
	if (!ints) {
		hash = realloc(d->hash, cap * sizeof(*hash));
		if (!hash)
			return -1;
		d->hash = hash;
	}
	d->cap = cap;
	return 0;
}

/* A new entry at free slot s, unless the dictionary would outgrow a
 * page or PQ_DICT_MAX entries: 1 added, 0 too big, -1. */
static int add_entry(struct pq_writer *w, struct pq_dict *d, uint32_t s,
		     uint64_t key, uint32_t h, size_t size, int ints)
{
	if (d->n >= PQ_DICT_MAX || d->bytes + size > w->page_bytes)
		return 0;
	if (grow_entries(d, ints))
		return -1;
	d->key[d->n] = key;
	if (ints)
		d->skey[s] = key;
	else
		d->hash[d->n] = h;
	d->slot[s] = ++d->n;
	d->bytes += size;
	if (d->n * 4 > d->mask && rehash(d, ints))
		return -1;
	return 1;
}

/* Value i of an integer column of width bytes (4 or 8) as it was put. */
static inline __attribute__((always_inline))
uint64_t int_at(const struct pq_col *c, const uint8_t *p, int width)
{
	uint64_t v;

	if (width == 8)
		return pq_load_le64(p);
	v = pq_load_le32(p);
	return c->is_signed ? pq_sext32(v) : v;
}

/* Integers: the key is the value as the statistics order it.  A value
 * equal to the last one (a run) takes its entry without hashing; made
 * once per width, which the caller passes as a constant. */
static inline __attribute__((always_inline))
int build_ints_of(struct pq_writer *w, struct pq_col *c, int width)
{
	struct pq_dict *d = &c->dict;
	const uint8_t *p = c->vals.p;
	uint16_t *idx = d->idx, last_e = 0;
	uint64_t v, last = 0;
	uint32_t s, e;
	size_t i;
	int r;

	for (i = 0; i < c->nvals; i++, p += width) {
		v = int_at(c, p, width);
		if (i && v == last) {
			idx[i] = last_e;
			continue;
		}
		for (s = hash_int(v) & d->mask; (e = d->slot[s]);
		     s = (s + 1) & d->mask)
			if (d->skey[s] == v)
				break;
		if (!e) {
			r = add_entry(w, d, s, v, 0, (size_t)width, 1);
			if (r <= 0)
				return r;
			e = d->n;
		}
		last = v;
		last_e = (uint16_t)(e - 1);
		idx[i] = last_e;
	}
	return 1;
}

static int build_ints(struct pq_writer *w, struct pq_col *c)
{
	return c->width == 8 ? build_ints_of(w, c, 8) : build_ints_of(w, c, 4);
}

/* A dictionary of the one integer v that every value of c is. */
int pq_dict_one(struct pq_col *c, uint64_t v)
{
	struct pq_dict *d = &c->dict;

	if (grow_entries(d, 1))
		return -1;
	d->key[0] = v;
	d->n = 1;
	d->bytes = (size_t)c->width;
	return 0;
}

/* Byte arrays: the key is the offset of the first one's PLAIN bytes in
 * vals, so the dictionary holds no copy. */
static int build_bytes(struct pq_writer *w, struct pq_col *c)
{
	struct pq_dict *d = &c->dict;
	const uint8_t *p = c->vals.p, *q, *prev;
	uint16_t *idx = d->idx;
	uint32_t n, h, s, e;
	size_t i;
	int r;

	for (i = 0, prev = NULL; i < c->nvals; prev = p, p += 4 + n, i++) {
		n = pq_load_le32(p);
		if (prev && pq_load_le32(prev) == n &&
		    !memcmp(prev + 4, p + 4, n)) {	/* a run */
			idx[i] = idx[i - 1];
			continue;
		}
		h = hash_bytes(p + 4, n);
		for (s = h & d->mask; (e = d->slot[s]); s = (s + 1) & d->mask) {
			q = c->vals.p + d->key[e - 1];
			if (d->hash[e - 1] == h && pq_load_le32(q) == n &&
			    !memcmp(q + 4, p + 4, n))
				break;
		}
		if (!e) {
			r = add_entry(w, d, s, (uint64_t)(p - c->vals.p), h,
				      4 + (size_t)n, 0);
			if (r <= 0)
				return r;
			e = d->n;
		}
		idx[i] = (uint16_t)(e - 1);
	}
	return 1;
}

/* 1: the chunk's dictionary is in c->dict, an entry per value in
 * room; 0: its values do not fit one (nothing kept); -1. */
int pq_dict_build(struct pq_writer *w, struct pq_col *c, struct pq_buf *room)
{
	struct pq_dict *d = &c->dict;
	int r;

	if (!c->nvals || c->nvals > SIZE_MAX / 2 || d->gave_up)
		return 0;
	room->len = 0;
	if (pq_buf_reserve(room, c->nvals * 2) || rehash(d, c->width != 0)) {
		pq_dict_free(d);
		return pq_fail(w, "out of memory");
	}
	d->idx = (uint16_t *)room->p;
	r = c->width ? build_ints(w, c) : build_bytes(w, c);
	if (r < 0)
		pq_fail(w, "out of memory");
	if (r <= 0)
		pq_dict_free(d);
	d->gave_up = r == 0;
	return r;
}
