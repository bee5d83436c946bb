/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fastcache.c - what put_info knows of each event type it has printed:
 * its compiled print fmt (convert/fastfmt), made on first sight, and
 * whether libtraceevent needs its helper counts bounded (tepfmt.h).
 * One table per printer, so per thread and per tep handle: keyed by the
 * event, which lives as long as its handle.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/tepfmt/tepfmt.h"

struct fast_table {
	size_t n, cap;		/* cap a power of two, or 0 */
	struct fast_event *slot;
};

static size_t slot_of(const struct fast_table *t, const struct tep_event *ev)
{
	uintptr_t h = (uintptr_t)ev;

	h ^= h >> 17;
	h *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (t->cap - 1);
}

static int grow(struct fast_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64, i, k;
	struct fast_event *old = t->slot, *s = calloc(cap, sizeof(*s));
	size_t oldcap = t->cap;

	if (!s)
		return -1;
	t->slot = s;
	t->cap = cap;
	for (i = 0; i < oldcap; i++) {
		if (!old[i].ev)
			continue;
		for (k = slot_of(t, old[i].ev); s[k].ev; k = (k + 1) & (cap - 1))
			;
		s[k] = old[i];
	}
	free(old);
	return 0;
}

static void describe(struct fast_event *fe, struct tep_event *ev, int compile)
{
	fe->ev = ev;
	fe->counts = tepfmt_has_counts(ev);
	fe->prog = compile ? fastfmt_compile(ev) : NULL;
}

const struct fast_event *fast_event_of(struct fast_table **tp,
				       struct tep_event *ev, int compile)
{
	struct fast_table *t = *tp;
	size_t k;

	if (!t && !(t = *tp = calloc(1, sizeof(*t))))
		return NULL;
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return NULL;
	for (k = slot_of(t, ev); t->slot[k].ev; k = (k + 1) & (t->cap - 1))
		if (t->slot[k].ev == ev)
			return &t->slot[k];
	describe(&t->slot[k], ev, compile);
	t->n++;
	return &t->slot[k];
}

void fast_table_free(struct fast_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->cap; i++)
		fastfmt_free(t->slot[i].prog);
	free(t->slot);
	free(t);
}
