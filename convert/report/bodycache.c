/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bodycache.c - recently printed event bodies, by payload.
 *
 * libtraceevent's text of an event (what follows "name: ") is most of a
 * report's time, yet in a busy recording most payloads come back again
 * and again (the same syscall returning the same value, the same slab
 * object freed from the same call site).  For an event whose text
 * depends on nothing but its payload, its CPU and the file's tables
 * (formats, kallsyms, printk), the text of an identical earlier payload
 * is the text: the cache keeps the last one per hash slot.  Events whose
 * plugins keep state never come here (print.c).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"

#define BC_SLOTS 8192		/* a power of two */
#define BC_DATA 128		/* longer payloads are not kept */
#define BC_TEXT 256		/* nor longer texts */

struct bc_slot {
	const void *tep;	/* NULL: empty */
	uint32_t size;
	int cpu;
	uint32_t len;
	unsigned char data[BC_DATA];
	char text[BC_TEXT];
};

struct body_cache {
	struct bc_slot slot[BC_SLOTS];
};

struct body_cache *body_cache_new(void)
{
	return calloc(1, sizeof(struct body_cache));
}

void body_cache_free(struct body_cache *c)
{
	free(c);
}

static uint64_t hash(const unsigned char *p, size_t n, int cpu)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)(unsigned)cpu ^ n;
	uint64_t w;

	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 32);
}

static struct bc_slot *slot_for(struct body_cache *c, const struct tep_record *r)
{
	uint64_t h = hash(r->data, (size_t)r->size, r->cpu);

	return &c->slot[h & (BC_SLOTS - 1)];
}

const char *body_cache_get(struct body_cache *c, const void *tep,
			   const struct tep_record *r, size_t *len)
{
	struct bc_slot *s;

	if (r->size <= 0 || r->size > BC_DATA)
		return NULL;
	s = slot_for(c, r);
	if (s->tep != tep || s->size != (uint32_t)r->size || s->cpu != r->cpu ||
	    memcmp(s->data, r->data, (size_t)r->size))
		return NULL;
	*len = s->len;
	return s->text;
}

void body_cache_put(struct body_cache *c, const void *tep,
		    const struct tep_record *r, const char *text, size_t len)
{
	struct bc_slot *s;

	if (r->size <= 0 || r->size > BC_DATA || len > BC_TEXT)
		return;
	s = slot_for(c, r);
	s->tep = tep;
	s->size = (uint32_t)r->size;
	s->cpu = r->cpu;
	s->len = (uint32_t)len;
	memcpy(s->data, r->data, (size_t)r->size);
	memcpy(s->text, text, len);
}
