/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pfbundle.c - the order of a Perfetto export's events.
 *
 * bundle.c groups a bundle's events by type, but only within runs of
 * rising timestamps (trace_processor keeps the file's order among equal
 * ones) and of at most BUNDLE_GROUPS types: events go through a real
 * sink into a trace file, which is read back (zlib) and its bundles'
 * events listed.  And events_walk with any_order gives each CPU's
 * events to its end before the next CPU's, each CPU's in the order the
 * merged walk gives them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "tests/unit/units.h"
#include "convert/perfetto/perfetto_internal.h"

#define MAX_SEEN 4096

/* What a trace file's bundles hold, in file order. */
struct seen {
	int cpu[MAX_SEEN], lost[MAX_SEEN];	/* per bundle */
	int nbundles;
	int id[MAX_SEEN];	/* the events' ids, all bundles */
	int nid;
};

static uint64_t get_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < end && shift < 64) {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		if (!(*(*p)++ & 0x80))
			return v;
	}
	CU_FAIL("varint runs out");
	return v;
}

/* The fields of message [p, end): fn for each length-delimited one. */
static void each_len(const uint8_t *p, const uint8_t *end,
		     void (*fn)(void *ctx, int field, const uint8_t *p,
				size_t n, uint64_t v),
		     void *ctx)
{
	uint64_t tag, v;

	while (p < end) {
		tag = get_varint(&p, end);
		v = get_varint(&p, end);
		if ((tag & 7) == 2) {
			CU_ASSERT_FATAL(v <= (uint64_t)(end - p));
			fn(ctx, (int)(tag >> 3), p, (size_t)v, 0);
			p += v;
		} else {
			fn(ctx, (int)(tag >> 3), NULL, 0, v);
		}
	}
}

static void on_event_field(void *ctx, int field, const uint8_t *p,
			   size_t n, uint64_t v)
{
	struct seen *s = ctx;

	if (field == 1 && !p && s->nid < MAX_SEEN)
		s->id[s->nid++] = (int)v;
}

static void on_bundle_field(void *ctx, int field, const uint8_t *p,
			    size_t n, uint64_t v)
{
	struct seen *s = ctx;

	if (field == 1)
		s->cpu[s->nbundles - 1] = (int)v;
	else if (field == 3)
		s->lost[s->nbundles - 1] = (int)v;
	else if (field == 2)
		each_len(p, p + n, on_event_field, s);
}

static void on_packet_field(void *ctx, int field, const uint8_t *p,
			    size_t n, uint64_t v)
{
	struct seen *s = ctx;

	if (field != PKT_FTRACE_EVENTS || s->nbundles == MAX_SEEN)
		return;
	s->cpu[s->nbundles] = -1;
	s->lost[s->nbundles++] = 0;
	each_len(p, p + n, on_bundle_field, s);
}

static void on_trace_packet(void *ctx, int field, const uint8_t *p, size_t n,
			    uint64_t v)
{
	if (field == 1)
		each_len(p, p + n, on_packet_field, ctx);
}

/* The compressed packets of the file, expanded and read. */
static void on_outer(void *ctx, int field, const uint8_t *p, size_t n,
		     uint64_t v)
{
	uLongf len = 8u << 20;
	uint8_t *out;

	if (field != PKT_COMPRESSED)
		return;
	out = malloc(len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL_FATAL(uncompress(out, &len, p, n), Z_OK);
	each_len(out, out + len, on_trace_packet, ctx);
	free(out);
}

static void on_file_packet(void *ctx, int field, const uint8_t *p, size_t n,
			   uint64_t v)
{
	if (field == 1)
		each_len(p, p + n, on_outer, ctx);
}

static void read_trace(const char *path, struct seen *s)
{
	size_t len;
	uint8_t *d = slurp_file(path, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	memset(s, 0, sizeof(*s));
	each_len(d, d + len, on_file_packet, s);
	free(d);
}

/* An event of a test: id of type k at ts on cpu (FtraceEvent
 * { timestamp: id }); type LOST sends cpu's bundle, marking the next. */
struct ev {
	int cpu, k;
	uint64_t ts;
	int id;
};

#define LOST (-1)
#define TYPES 40

/* A test's bundles and sink, writing to a file of its own, and what the
 * file holds. */
struct bed {
	struct sink sink;
	struct bundles bs;
	struct pf_map type[TYPES];
	char path[512];
	struct seen seen;
};

static void put(struct bed *t, const struct ev *e)
{
	struct pb *b;
	struct pb_mark m;

	if (e->k == LOST) {
		CU_ASSERT_EQUAL(bundle_send(&t->bs, 0, e->cpu, 1), 0);
		return;
	}
	b = bundle_get(&t->bs, 0, e->cpu, &t->type[e->k], e->ts);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	m = pb_open(b, 2, 1);
	pb_uint(b, 1, (uint64_t)e->id);
	pb_close(b, m);
	CU_ASSERT_EQUAL(bundle_done(&t->bs, 0, e->cpu), 0);
}

/* Events e[0..n) through bundles and a sink into file name, read back;
 * the caller frees the bed. */
static struct bed *run_events(const char *name, const struct ev *e, int n)
{
	struct bed *t = calloc(1, sizeof(*t));
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	snprintf(t->path, sizeof(t->path), "%s/%s", test_tmpdir(), name);
	CU_ASSERT_EQUAL_FATAL(sink_open(&t->sink, t->path, 1), 0);
	bundles_init(&t->bs, &t->sink, 2);
	for (i = 0; i < n; i++)
		put(t, &e[i]);
	CU_ASSERT_EQUAL(bundles_flush(&t->bs), 0);
	CU_ASSERT_EQUAL(sink_finish(&t->sink), 0);
	bundles_free(&t->bs);
	read_trace(t->path, &t->seen);
	return t;
}

static int ids_are(const struct seen *s, const int *want, int n)
{
	int i;

	if (s->nid != n)
		return 0;
	for (i = 0; i < n && s->id[i] == want[i]; i++)
		;
	return i == n;
}

static void test_grouped_by_type(void)
{
	static const struct ev e[] = {	/* types A B A B C A, rising */
		{ 0, 0, 10, 1 }, { 0, 1, 20, 2 }, { 0, 0, 30, 3 },
		{ 0, 1, 40, 4 }, { 0, 2, 50, 5 }, { 0, 0, 60, 6 },
	};
	static const int want[] = { 1, 3, 6, 2, 4, 5 };
	struct bed *t = run_events("grouped.pftrace", e, 6);

	CU_ASSERT_EQUAL(t->seen.nbundles, 1);
	CU_ASSERT_EQUAL(t->seen.cpu[0], 0);
	CU_ASSERT(ids_are(&t->seen, want, 6));
	free(t);
}

/* B at 20 and A at 20: A must stay after B, whatever the types. */
static void test_equal_times_keep_order(void)
{
	static const struct ev e[] = {
		{ 0, 0, 10, 1 }, { 0, 1, 20, 2 },
		{ 0, 0, 20, 3 },	/* equal: A1 B2 closed first */
		{ 0, 1, 30, 4 }, { 0, 0, 40, 5 },
		{ 0, 1, 35, 6 },	/* earlier: A3 B4 A5 closed first */
	};
	static const int want[] = { 1, 2, 3, 5, 4, 6 };
	struct bed *t = run_events("equal.pftrace", e, 6);

	CU_ASSERT(ids_are(&t->seen, want, 6));
	free(t);
}

/* BUNDLE_GROUPS types open; the next type closes them. */
static void test_groups_run_out(void)
{
	struct ev e[BUNDLE_GROUPS + 4];
	int want[BUNDLE_GROUPS + 4], k, n = 0;
	struct bed *t;

	CU_ASSERT_FATAL(BUNDLE_GROUPS + 1 < TYPES);
	for (k = 0; k <= BUNDLE_GROUPS; k++)
		e[n++] = (struct ev){ 0, k, 100 + (uint64_t)k, k };
	e[n++] = (struct ev){ 0, 0, 200, 1000 };
	e[n++] = (struct ev){ 0, BUNDLE_GROUPS, 201, 1001 };
	e[n++] = (struct ev){ 0, 0, 202, 1002 };
	t = run_events("many.pftrace", e, n);
	for (n = 0; n < BUNDLE_GROUPS; n++)
		want[n] = n;
	want[n++] = BUNDLE_GROUPS;	/* a new run: its own group first */
	want[n++] = 1001;
	want[n++] = 1000;
	want[n++] = 1002;
	CU_ASSERT(ids_are(&t->seen, want, n));
	free(t);
}

/* Each CPU its bundle; lost marks the bundle after it only. */
static void test_cpus_and_lost(void)
{
	static const struct ev e[] = {
		{ 0, 0, 10, 1 }, { 1, 0, 11, 2 }, { 0, 1, 12, 3 },
		{ 1, 1, 13, 4 }, { 1, LOST, 0, 0 }, { 1, 1, 14, 5 },
	};
	static const int want[] = { 2, 4, 1, 3, 5 };
	struct bed *t = run_events("cpus.pftrace", e, 6);
	const struct seen *s = &t->seen;

	CU_ASSERT_EQUAL_FATAL(s->nbundles, 3);
	CU_ASSERT(s->cpu[0] == 1 && !s->lost[0]);	/* sent by the loss */
	CU_ASSERT(s->cpu[1] == 0 && !s->lost[1]);
	CU_ASSERT(s->cpu[2] == 1 && s->lost[2] == 1);
	CU_ASSERT(ids_are(s, want, 5));
	free(t);
}

/* ---- any_order ---- */

#define MAX_EVENTS 200000

struct walk {
	int key[MAX_EVENTS];	/* buffer and CPU, as one number */
	uint64_t ts[MAX_EVENTS];
	int n;
};

static int on_walk_event(void *ctx, const struct stream_event *e)
{
	struct walk *w = ctx;

	if (w->n == MAX_EVENTS)
		return 1;
	w->key[w->n] = (e->buffer[0] ? 1000 : 0) + e->rec->cpu;
	w->ts[w->n++] = e->ts;
	return 0;
}

static void walk_file(const char *path, int any_order, struct walk *w)
{
	struct events_opts *eo = calloc(1, sizeof(*eo));

	CU_ASSERT_PTR_NOT_NULL_FATAL(eo);
	eo->inputs[0].path = path;
	eo->ninputs = 1;
	eo->applet = "convert";
	eo->any_order = any_order;
	w->n = 0;
	CU_ASSERT_EQUAL(events_walk(eo, on_walk_event, w), 0);
	free(eo);
}

/* Whether key k's events come in the same order in a and b. */
static int same_stream(const struct walk *a, const struct walk *b, int k)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < a->n && a->key[i] != k)
			i++;
		while (j < b->n && b->key[j] != k)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (a->ts[i++] != b->ts[j++])
			return 0;
	}
}

/* Runs of events of one key, and (in *keys) how many keys. */
static int runs_of(const struct walk *w, int *keys)
{
	int seen[64], nseen = 0, runs = 0, i, j;

	for (i = 0; i < w->n; i++) {
		if (i && w->key[i] == w->key[i - 1])
			continue;
		runs++;
		for (j = 0; j < nseen && seen[j] != w->key[i]; j++)
			;
		if (j == nseen && nseen < 64)
			seen[nseen++] = w->key[i];
	}
	*keys = nseen;
	return runs;
}

static void test_any_order(void)
{
	static const char *names[] = {
		"v6-2inst-irq-top-sched-inst1.dat", "v6-sched-irq.dat",
		"v7-zstd-kmem-tc.dat",
	};
	struct walk *merged = malloc(sizeof(*merged));
	struct walk *drained = malloc(sizeof(*drained));
	int f, i, keys, keys2;

	CU_ASSERT_FATAL(merged && drained);
	for (f = 0; f < 3; f++) {
		walk_file(fixture(names[f]), 0, merged);
		walk_file(fixture(names[f]), 1, drained);
		CU_ASSERT(merged->n > 100);
		CU_ASSERT_EQUAL(merged->n, drained->n);
		/* merged, the CPUs interleave; drained, each is one run */
		CU_ASSERT(runs_of(merged, &keys) > keys);
		CU_ASSERT_EQUAL(runs_of(drained, &keys2), keys2);
		CU_ASSERT_EQUAL(keys, keys2);
		CU_ASSERT(keys > 1);
		for (i = 0; i < drained->n; i++)
			if (!i || drained->key[i] != drained->key[i - 1])
				CU_ASSERT(same_stream(merged, drained,
						      drained->key[i]));
	}
	free(merged);
	free(drained);
}
void suite_pfbundle(void)
{
	CU_pSuite s = CU_add_suite("pfbundle", NULL, NULL);

	CU_add_test(s, "a bundle's events grouped by type", test_grouped_by_type);
	CU_add_test(s, "equal timestamps keep their order",
		    test_equal_times_keep_order);
	CU_add_test(s, "a type past the groups closes them",
		    test_groups_run_out);
	CU_add_test(s, "bundles by CPU; lost marks the next",
		    test_cpus_and_lost);
	CU_add_test(s, "any_order: each CPU to its end, in its order",
		    test_any_order);
}
