/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timeshift.c - a guest recording's TIME_SHIFT option (FORMAT.md 5.7):
 * per guest CPU, samples of (guest time, offset to host time), which map
 * the guest's timestamps onto the host's clock.
 *
 * What trace-cmd 3.1.6's report does with them, found by asking it about
 * files with chosen samples: samples are sorted by time, signed (the
 * first of equal times kept); a timestamp takes the pair of samples
 * around it (the first two before the first sample, the last two after
 * the last), where "around" compares times unsigned, so that negative
 * times lie past every timestamp;
 * without the interpolate flag the pair's lower offset is added, with it
 * the offset on the line through the pair, rounded as
 * off0 + ((off1 - off0) * (t - t0) + (t1 - t0) / 2) / (t1 - t0) in
 * signed 64-bit integers that wrap.  One sample: its offset, nothing else.
 *
 * With two samples or more the timestamp is also scaled by the pair's
 * lower sample before the offset is added: (t * scaling) >> fraction,
 * in unsigned 64-bit arithmetic that wraps, the shift taken modulo 64
 * (as x86 does), the offset still found from the unscaled t.  trace-cmd
 * 3.1.6 and 3.4 agree on all of it, wrap included, so a KVM guest's
 * scaling of 1 << 48 with 48 fraction bits prints what they print.
 * The fraction bits are optional (absent in 2.9-era files): one array
 * per CPU after all the CPUs' samples; a part of them is malformed.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

#define SHIFT_INTERPOLATE 1u

struct shift_sample {
	int64_t time, offset;
	uint64_t scaling, fraction;
	uint32_t order;		/* place in the file: ties keep the first */
};

struct shift_cpu {
	uint32_t n;
	uint32_t nneg;		/* samples with a negative time, first */
	struct shift_sample *s;
};

struct tdat_time_shift {
	int interpolate;
	uint32_t ncpus;
	struct shift_cpu *cpus;
};

void timeshift_free(struct tdat_time_shift *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncpus; i++)
		free(t->cpus[i].s);
	free(t->cpus);
	free(t);
}

static int by_time(const void *a, const void *b)
{
	const struct shift_sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Sorted by time, one sample per time. */
static void sort_samples(struct shift_cpu *c)
{
	uint32_t i, k = 0;

	qsort(c->s, c->n, sizeof(*c->s), by_time);
	for (i = 0; i < c->n; i++)
		if (!k || c->s[i].time != c->s[k - 1].time)
			c->s[k++] = c->s[i];
	c->n = k;
	for (c->nneg = 0; c->nneg < k && c->s[c->nneg].time < 0; c->nneg++)
		;
}

/* One CPU's n, times[n], offsets[n], scalings[n]; sorted later. */
static int read_cpu(struct cursor *cur, struct shift_cpu *c)
{
	const uint8_t *times, *offsets, *scalings;
	uint32_t n, i;

	if (cur_u32(cur, &n, "TIME_SHIFT sample count") ||
	    (uint64_t)n * 24 > cur_left(cur) ||
	    cur_bytes(cur, (size_t)n * 8, &times, "TIME_SHIFT times") ||
	    cur_bytes(cur, (size_t)n * 8, &offsets, "TIME_SHIFT offsets") ||
	    cur_bytes(cur, (size_t)n * 8, &scalings, "TIME_SHIFT scalings"))
		return -1;
	c->s = calloc(n ? n : 1, sizeof(*c->s));
	if (!c->s)
		return -1;
	c->n = n;
	for (i = 0; i < n; i++) {
		c->s[i].time = (int64_t)tdat_load64(cur->big, times + 8 * i);
		c->s[i].offset = (int64_t)tdat_load64(cur->big,
						      offsets + 8 * i);
		c->s[i].scaling = tdat_load64(cur->big, scalings + 8 * i);
		c->s[i].order = i;
	}
	return 0;
}

/* The optional fraction bits: all CPUs' arrays, or none of them. */
static int read_fractions(struct cursor *cur, struct tdat_time_shift *t)
{
	uint64_t want = 0;
	uint32_t i, k;

	for (i = 0; i < t->ncpus; i++)
		want += (uint64_t)t->cpus[i].n * 8;
	if (!cur_left(cur))
		return 0;
	if (cur_left(cur) < want)
		return -1;
	for (i = 0; i < t->ncpus; i++)
		for (k = 0; k < t->cpus[i].n; k++)
			if (cur_u64(cur, &t->cpus[i].s[k].fraction,
				    "TIME_SHIFT fraction bits"))
				return -1;
	return 0;
}

struct tdat_time_shift *timeshift_parse(const struct tdat_file *f,
					const struct tdat_option *o)
{
	struct tdat_time_shift *t = calloc(1, sizeof(*t));
	struct cursor cur;
	uint64_t peer;
	uint32_t flags, n, i;

	if (!t)
		return NULL;
	cur_init(&cur, o->data, o->size, f->big_endian, f->path, 0, NULL);
	if (cur_u64(&cur, &peer, "TIME_SHIFT peer") ||
	    cur_u32(&cur, &flags, "TIME_SHIFT flags") ||
	    cur_u32(&cur, &n, "TIME_SHIFT CPU count") ||
	    (uint64_t)n * 4 > cur_left(&cur))
		goto bad;
	t->interpolate = !!(flags & SHIFT_INTERPOLATE);
	t->cpus = calloc(n ? n : 1, sizeof(*t->cpus));
	if (!t->cpus)
		goto bad;
	t->ncpus = n;
	for (i = 0; i < n; i++)
		if (read_cpu(&cur, &t->cpus[i]))
			goto bad;
	if (read_fractions(&cur, t))
		goto bad;
	for (i = 0; i < n; i++)
		sort_samples(&t->cpus[i]);
	return t;
bad:
	timeshift_free(t);
	return NULL;
}

/* Signed 64-bit arithmetic that wraps, as trace-cmd's does: its
 * interpolation overflows when offsets or times are far apart. */
static int64_t wrap(uint64_t v)
{
	return (int64_t)v;
}

static int64_t wrap_div(int64_t num, int64_t den)
{
	if (den == -1)		/* INT64_MIN / -1 traps; the wrap is -num */
		return wrap(0 - (uint64_t)num);
	return num / den;
}

/* The offset on the line through samples a and b at time ts. */
static int64_t between(const struct shift_sample *a,
		       const struct shift_sample *b, uint64_t ts)
{
	int64_t dt = wrap((uint64_t)b->time - (uint64_t)a->time);
	int64_t d = wrap(((uint64_t)b->offset - (uint64_t)a->offset) *
			 (ts - (uint64_t)a->time));

	return wrap((uint64_t)a->offset +
		    (uint64_t)wrap_div(wrap((uint64_t)d + (uint64_t)(dt / 2)),
				       dt));
}

/* The first of [from, to) whose time, taken unsigned, is past ts; to if
 * none.  Times there ascend also taken unsigned. */
static uint32_t first_past(const struct shift_cpu *c, uint32_t from,
			   uint32_t to, uint64_t ts)
{
	while (from < to) {
		uint32_t mid = from + (to - from) / 2;

		if ((uint64_t)c->s[mid].time > ts)
			to = mid;
		else
			from = mid + 1;
	}
	return from;
}

/*
 * The lower sample of the pair for ts: the one before the first sample
 * whose time, taken unsigned, is past ts, within [0, n - 2].  Samples
 * are sorted signed, so negative times come first and, taken unsigned,
 * are past every ts below 2^63: trace-cmd then takes the first pair.
 */
static uint32_t pair_for(const struct shift_cpu *c, uint64_t ts)
{
	uint32_t i;

	if (c->s[0].time >= 0)
		i = first_past(c, 0, c->n, ts);
	else if ((uint64_t)c->s[0].time > ts)
		i = 0;
	else {
		i = first_past(c, 0, c->nneg, ts);
		if (i == c->nneg)
			i = c->n;	/* the others are below 2^63 <= ts */
	}
	if (i == 0)
		return 0;
	return i - 1 < c->n - 2 ? i - 1 : c->n - 2;
}

uint64_t timeshift_apply(const struct tdat_time_shift *t, int cpu,
			 uint64_t ts)
{
	const struct shift_cpu *c;
	uint64_t scaled;
	uint32_t lo;

	if (!t || cpu < 0 || (uint32_t)cpu >= t->ncpus || !t->cpus[cpu].n)
		return ts;
	c = &t->cpus[cpu];
	if (c->n == 1)
		return ts + (uint64_t)c->s[0].offset;
	lo = pair_for(c, ts);
	scaled = (ts * c->s[lo].scaling) >> (c->s[lo].fraction & 63);
	if (!t->interpolate)
		return scaled + (uint64_t)c->s[lo].offset;
	return scaled + (uint64_t)between(&c->s[lo], &c->s[lo + 1], ts);
}
