/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bundle.c - one FtraceEventBundle open per CPU.  Events go into the
 * bundle of the CPU they ran on (trace_processor pairs each
 * sched_switch with the previous one of its bundle's CPU), of their
 * input's machine (run.c: input k is machine k); a bundle is
 * sent when it reaches flush_at bytes, which is smaller the more CPUs
 * all machines have, so that all of them together stay within a few MiB.
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

static int grow(struct machine_bundles *mb, int cpu)
{
	int n = mb->n ? mb->n : 8;
	struct pb *c;
	uint8_t *l;

	while (n <= cpu)
		n *= 2;
	c = realloc(mb->cpu, (size_t)n * sizeof(*c));
	if (!c)
		return -1;
	mb->cpu = c;
	l = realloc(mb->lost, (size_t)n);
	if (!l)
		return -1;
	mb->lost = l;
	memset(c + mb->n, 0, (size_t)(n - mb->n) * sizeof(*c));
	memset(l + mb->n, 0, (size_t)(n - mb->n));
	mb->n = n;
	return 0;
}

/* Machine m's bundles, with room for cpu; NULL when out of range or
 * memory. */
static struct machine_bundles *room(struct bundles *bs, int m, int cpu)
{
	struct machine_bundles *mb;

	if (m < 0 || m >= REPORT_MAX_INPUTS || cpu < 0 || cpu >= PF_MAX_CPUS)
		return NULL;
	mb = &bs->m[m];
	return cpu < mb->n || !grow(mb, cpu) ? mb : NULL;
}

struct pb *bundle_get(struct bundles *bs, int m, int cpu)
{
	struct machine_bundles *mb = room(bs, m, cpu);
	struct pb *b;

	if (!mb)
		return NULL;
	b = &mb->cpu[cpu];
	if (!b->len) {	/* cpu is required: without it the bundle is lost */
		pb_uint(b, BUNDLE_CPU, (uint64_t)cpu);
		if (mb->lost[cpu])
			pb_uint(b, BUNDLE_LOST, 1);
		mb->lost[cpu] = 0;
	}
	return pb_failed(b) ? NULL : b;
}

int bundle_send(struct bundles *bs, int m, int cpu, int lost)
{
	struct machine_bundles *mb = room(bs, m, cpu);
	struct pb *b;
	int r = 0;

	if (!mb)
		return -1;
	b = &mb->cpu[cpu];
	if (b->len)
		r = sink_packet(bs->sink, PKT_FTRACE_EVENTS, b->data, b->len,
				(uint32_t)m);
	pb_reset(b);
	if (lost)
		mb->lost[cpu] = 1;
	return r;
}

int bundle_done(struct bundles *bs, int m, int cpu)
{
	return bs->m[m].cpu[cpu].len >= bs->flush_at ?
		       bundle_send(bs, m, cpu, 0) : 0;
}

int bundles_flush(struct bundles *bs)
{
	int m, i;

	for (m = 0; m < REPORT_MAX_INPUTS; m++)
		for (i = 0; i < bs->m[m].n; i++)
			if (bundle_send(bs, m, i, 0))
				return -1;
	return 0;
}

void bundles_free(struct bundles *bs)
{
	int m, i;

	for (m = 0; m < REPORT_MAX_INPUTS; m++) {
		for (i = 0; i < bs->m[m].n; i++)
			pb_free(&bs->m[m].cpu[i]);
		free(bs->m[m].cpu);
		free(bs->m[m].lost);
	}
	memset(bs, 0, sizeof(*bs));
}
