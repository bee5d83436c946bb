/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bundle.c - one FtraceEventBundle open per CPU.  Events go into the
 * bundle of the CPU they ran on (trace_processor pairs each
 * sched_switch with the previous one of its bundle's CPU), of their
 * input's machine (run.c: input k is machine k); a bundle is
 * sent when it reaches flush_at bytes, which is smaller the more CPUs
 * all machines have, so that all of them together stay within a few MiB.
 *
 * Bundles need no order: trace_processor sorts every event by its
 * timestamp at the end, keeping the file's order only among equal
 * timestamps (PERFETTO.md 10).  A bundle's events are written grouped
 * by type: each event's absolute timestamp is most of what the
 * compressor cannot shrink, and beside an event of its own type it
 * differs from its neighbour in little else.  Grouped, the packets of a
 * busy trace compress a fifth smaller, and faster.  Each type has its
 * own buffer, written straight into.  The groups are closed (sealed
 * into the bundle in the order they were opened) when the timestamps
 * stop rising, so that events of equal timestamps keep their order,
 * and when a 33rd type comes.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

#define ALL_BUNDLES (4u << 20)	/* bytes all open bundles may reach */
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
	struct cpu_bundle *c;

	while (n <= cpu)
		n *= 2;
	c = realloc(mb->cpu, (size_t)n * sizeof(*c));
	if (!c)
		return -1;
	mb->cpu = c;
	memset(c + mb->n, 0, (size_t)(n - mb->n) * sizeof(*c));
	mb->n = n;
	return 0;
}

/* The bundle of CPU cpu of machine m; NULL when out of range or
 * memory. */
static struct cpu_bundle *room(struct bundles *bs, int m, int cpu)
{
	struct machine_bundles *mb;

	if (m < 0 || m >= EVENTS_MAX_INPUTS || cpu < 0 || cpu >= PF_MAX_CPUS)
		return NULL;
	mb = &bs->m[m];
	return cpu < mb->n || !grow(mb, cpu) ? &mb->cpu[cpu] : NULL;
}

/* The open groups appended to the sealed part, in the order they were
 * opened.  0, or -1 when out of memory. */
static int seal(struct cpu_bundle *cb)
{
	int g;

	for (g = 0; g < cb->ngroups; g++) {
		pb_raw(&cb->sealed, cb->group[g].data, cb->group[g].len);
		pb_reset(&cb->group[g]);
		cb->key[g] = NULL;
	}
	cb->ngroups = 0;
	return pb_failed(&cb->sealed) ? -1 : 0;
}

/* The group of key, opened if new. */
static struct pb *group(struct cpu_bundle *cb, struct pf_map *key,
			uint64_t ts)
{
	int g = key->group_hint;

	if (cb->bytes && ts <= cb->last_ts && seal(cb))
		return NULL;	/* equal timestamps keep their order */
	cb->last_ts = ts;
	if (g < cb->ngroups && cb->key[g] == key)
		return &cb->group[g];
	for (g = 0; g < cb->ngroups && cb->key[g] != key; g++)
		;
	if (g == BUNDLE_GROUPS) {
		if (seal(cb))
			return NULL;
		g = 0;
	}
	if (g == cb->ngroups)
		cb->key[cb->ngroups++] = key;
	key->group_hint = g;
	return &cb->group[g];
}

struct pb *bundle_get_slow(struct bundles *bs, int m, int cpu,
			   struct pf_map *key, uint64_t ts)
{
	struct cpu_bundle *cb = room(bs, m, cpu);
	struct pb *b;

	if (!cb || !(b = group(cb, key, ts)))
		return NULL;
	cb->open = b;
	cb->open_len = b->len;
	return pb_failed(b) ? NULL : b;
}

/* The fields a bundle begins with: cpu (without it the bundle is lost)
 * and lost_events. */
static size_t bundle_head(uint8_t *p, int cpu, int lost)
{
	uint8_t *at = p;

	*p++ = BUNDLE_CPU << 3 | PB_VARINT;
	p = pb_put_varint(p, (uint64_t)cpu);
	if (lost) {
		*p++ = BUNDLE_LOST << 3 | PB_VARINT;
		*p++ = 1;
	}
	return (size_t)(p - at);
}

/* Buffers grown far past what this bundle needed are given back, so
 * that memory follows the bundles' size, not the largest ever seen. */
static void trim(struct pb *b, size_t used, size_t flush_at)
{
	if (b->cap > 4 * used + flush_at / 16)
		pb_free(b);
}

/* b's bytes at out (none: b may never have had a buffer); the end. */
static uint8_t *put_part(uint8_t *out, const struct pb *b)
{
	if (b->len)
		memcpy(out, b->data, b->len);
	return out + b->len;
}

/* The bundle into the sink: head, sealed part, open groups. */
static int put_bundle(struct bundles *bs, struct cpu_bundle *cb, int m,
		      int cpu)
{
	uint8_t head[16], *out;
	size_t n = bundle_head(head, cpu, cb->lost), used = cb->sealed.len;
	int g;

	out = sink_packet_room(bs->sink, PKT_FTRACE_EVENTS, n + cb->bytes,
			       (uint32_t)m);
	if (!out)
		return tdat_errorf(&bs->sink->err, "out of memory");
	memcpy(out, head, n);
	out = put_part(out + n, &cb->sealed);
	for (g = 0; g < cb->ngroups; g++) {
		out = put_part(out, &cb->group[g]);
		trim(&cb->group[g], cb->group[g].len, bs->flush_at);
	}
	trim(&cb->sealed, used, bs->flush_at);
	return sink_packet_end(bs->sink, (uint32_t)m);
}

int bundle_send(struct bundles *bs, int m, int cpu, int lost)
{
	struct cpu_bundle *cb = room(bs, m, cpu);
	int g, r = 0;

	if (!cb)
		return tdat_errorf(&bs->sink->err, "out of memory");
	if (cb->bytes) {
		r = put_bundle(bs, cb, m, cpu);
		cb->lost = 0;
	}
	pb_reset(&cb->sealed);
	for (g = 0; g < BUNDLE_GROUPS; g++) {
		pb_reset(&cb->group[g]);
		cb->key[g] = NULL;
	}
	cb->ngroups = 0;
	cb->bytes = 0;
	if (lost)
		cb->lost = 1;
	return r;
}

int bundles_flush(struct bundles *bs)
{
	int m, i;

	for (m = 0; m < EVENTS_MAX_INPUTS; m++)
		for (i = 0; i < bs->m[m].n; i++)
			if (bundle_send(bs, m, i, 0))
				return -1;
	return 0;
}

void bundles_free(struct bundles *bs)
{
	struct cpu_bundle *cb;
	int m, i, g;

	for (m = 0; m < EVENTS_MAX_INPUTS; m++) {
		for (i = 0; i < bs->m[m].n; i++) {
			cb = &bs->m[m].cpu[i];
			pb_free(&cb->sealed);
			for (g = 0; g < BUNDLE_GROUPS; g++)
				pb_free(&cb->group[g]);
		}
		free(bs->m[m].cpu);
	}
	memset(bs, 0, sizeof(*bs));
}
