/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ksyms.c - kernel symbols for the report's worker tep handles.
 *
 * Each formatting thread has its own tep handle (they are not
 * thread-safe), but loading kallsyms into every one of them costs time
 * and memory.  A worker's handle asks the input's main handle instead,
 * through a function resolver, and remembers recent answers: call sites
 * repeat a lot.  The main handle's function map is only read here; it is
 * sorted before the workers start (ksyms_prepare).
 */
#include <stdlib.h>
#include "convert/events/stream.h"

#define KSYMS_CACHE 4096	/* a power of two */

struct ksym_slot {
	unsigned long long addr;	/* the address asked for */
	unsigned long long start;	/* its function's first address */
	const char *name;		/* NULL: not a known function */
	int used;
};

struct ksyms {
	struct tep_handle *src;
	struct ksym_slot slot[KSYMS_CACHE];
};

static struct ksym_slot *slot_of(struct ksyms *k, unsigned long long addr)
{
	unsigned long long h = addr ^ (addr >> 5) ^ (addr >> 17);

	return &k->slot[h & (KSYMS_CACHE - 1)];
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct ksyms *k = priv;
	struct ksym_slot *s = slot_of(k, *addrp);

	if (!s->used || s->addr != *addrp) {
		s->used = 1;
		s->addr = *addrp;
		s->name = tep_find_function(k->src, *addrp);
		s->start = s->name ?
			tep_find_function_address(k->src, *addrp) : 0;
	}
	*modp = NULL;
	if (s->name)
		*addrp = s->start;
	return (char *)s->name;
}

void ksyms_prepare(struct tep_handle *src)
{
	/* The first lookup builds the sorted map; later ones only read. */
	tep_find_function(src, 0);
}

struct ksyms *ksyms_attach(struct tep_handle *tep, struct tep_handle *src)
{
	struct ksyms *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->src = src;
	if (tep_set_function_resolver(tep, resolve, k)) {
		free(k);
		return NULL;
	}
	return k;
}

void ksyms_free(struct ksyms *k)
{
	free(k);
}
