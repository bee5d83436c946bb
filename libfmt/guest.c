/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guest.c - the GUEST option (FORMAT.md 5.8), one a guest in a host's
 * file: the guest's name and trace id, then for each of its vCPUs the
 * host task that runs it.  Duplicates are the rule, so they are walked,
 * not looked up.
 */
#include <string.h>
#include "libfmt/internal.h"

/* name, NUL, u64 trace id, u32 vCPU count: 13 bytes at least. */
static int decode(const struct tdat_file *f, const struct tdat_option *o,
		  struct tdat_guest *g)
{
	size_t n = strnlen((const char *)o->data, o->size);
	uint32_t pos = (uint32_t)n + 1, count, room;

	if (n == o->size || o->size - pos < 12)
		return 0;
	g->trace_id = tdat_get64(f, o->data + pos);
	count = tdat_get32(f, o->data + pos + 8);
	pos += 12;
	room = (o->size - pos) / 8;	/* whole (vcpu, pid) pairs */
	g->nvcpus = count < room ? count : room;
	g->vcpus = o->data + pos;
	g->big = f->big_endian;
	return 1;
}

int tdat_guest_next(const struct tdat_file *f, int *pos, struct tdat_guest *g)
{
	while (*pos >= 0 && *pos < f->noptions) {
		const struct tdat_option *o = &f->options[(*pos)++];

		if (o->id == TDAT_OPT_GUEST && decode(f, o, g))
			return 1;
	}
	return 0;
}

int32_t tdat_guest_task(const struct tdat_guest *g, uint32_t k)
{
	return (int32_t)tdat_load32(g->big, g->vcpus + 8 * (size_t)k + 4);
}
