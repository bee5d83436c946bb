/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bundle.c - one FtraceEventBundle open per CPU.  Events go into the
 * bundle of the CPU they ran on (trace_processor pairs each
 * sched_switch with the previous one of its bundle's CPU); a bundle is
 * sent when it reaches flush_at bytes, which is smaller the more CPUs
 * there are, so that all of them together stay within a few MiB.
 * Bundles need no order: trace_processor sorts every event at the end.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

#define ALL_BUNDLES (8u << 20)	/* bytes all open bundles may reach */
#define MOST (256u << 10)
#define LEAST (4u << 10)

enum { BUNDLE_CPU = 1, BUNDLE_LOST = 3 };

void bundles_init(struct bundles *bs, struct sink *s, int ncpus)
{
	size_t at = ALL_BUNDLES / (size_t)(ncpus > 0 ? ncpus : 1);

	memset(bs, 0, sizeof(*bs));
	bs->sink = s;
	bs->flush_at = at > MOST ? MOST : at < LEAST ? LEAST : at;
}

static int grow(struct bundles *bs, int cpu)
{
	int n = bs->n ? bs->n : 8;
	struct pb *c;
	uint8_t *l;

	while (n <= cpu)
		n *= 2;
	c = realloc(bs->cpu, (size_t)n * sizeof(*c));
	if (!c)
		return -1;
	bs->cpu = c;
	l = realloc(bs->lost, (size_t)n);
	if (!l)
		return -1;
	bs->lost = l;
	memset(c + bs->n, 0, (size_t)(n - bs->n) * sizeof(*c));
	memset(l + bs->n, 0, (size_t)(n - bs->n));
	bs->n = n;
	return 0;
}

struct pb *bundle_get(struct bundles *bs, int cpu)
{
	struct pb *b;

	if (cpu < 0 || cpu >= PF_MAX_CPUS || (cpu >= bs->n && grow(bs, cpu)))
		return NULL;
	b = &bs->cpu[cpu];
	if (!b->len) {	/* cpu is required: without it the bundle is lost */
		pb_uint(b, BUNDLE_CPU, (uint64_t)cpu);
		if (bs->lost[cpu])
			pb_uint(b, BUNDLE_LOST, 1);
		bs->lost[cpu] = 0;
	}
	return pb_failed(b) ? NULL : b;
}

int bundle_send(struct bundles *bs, int cpu, int lost)
{
	struct pb *b;
	int r = 0;

	if (cpu < 0 || cpu >= PF_MAX_CPUS || (cpu >= bs->n && grow(bs, cpu)))
		return -1;
	b = &bs->cpu[cpu];
	if (b->len)
		r = sink_packet(bs->sink, PKT_FTRACE_EVENTS, b->data, b->len);
	pb_reset(b);
	if (lost)
		bs->lost[cpu] = 1;
	return r;
}

int bundle_done(struct bundles *bs, int cpu)
{
	return bs->cpu[cpu].len >= bs->flush_at ? bundle_send(bs, cpu, 0) : 0;
}

int bundles_flush(struct bundles *bs)
{
	int i;

	for (i = 0; i < bs->n; i++)
		if (bundle_send(bs, i, 0))
			return -1;
	return 0;
}

void bundles_free(struct bundles *bs)
{
	int i;

	for (i = 0; i < bs->n; i++)
		pb_free(&bs->cpu[i]);
	free(bs->cpu);
	free(bs->lost);
	memset(bs, 0, sizeof(*bs));
}
