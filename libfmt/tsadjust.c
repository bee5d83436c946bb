/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tsadjust.c - the timestamps readers show: a file's raw record times
 * adjusted by its own options (FORMAT.md 5 and 7.7), in trace-cmd's
 * order: a guest's TIME_SHIFT first (tdat_ts_apply_cpu), then TSC2NSEC
 * scaling, then + DATE * 1000 + OFFSET.
 */
#include <string.h>
#include "libfmt/internal.h"

void tdat_ts_adjust_init(const struct tdat_file *f, unsigned flags,
			 struct tdat_ts_adjust *a)
{
	struct tdat_tsc2nsec t;
	long long v;

	memset(a, 0, sizeof(*a));
	if (flags & TDAT_TS_RAW)
		return;
	/* unsigned sums: a hostile option wraps like trace-cmd's u64
	 * arithmetic instead of overflowing a signed value */
	if (!(flags & TDAT_TS_NODATE) && tdat_opt_number(f, TDAT_OPT_DATE, &v))
		a->offset = (int64_t)((uint64_t)a->offset +
				      (uint64_t)v * 1000);	/* us */
	if (tdat_opt_number(f, TDAT_OPT_OFFSET, &v))
		a->offset = (int64_t)((uint64_t)a->offset + (uint64_t)v);
	/* the option's own offset field is not applied (as in trace-cmd);
	 * a shift of 64 or more is meaningless and left out */
	if (tdat_opt_tsc2nsec(f, &t) && t.shift < 64) {
		a->mult = t.mult;
		a->shift = t.shift;
	}
	a->guest = f->priv->guest;
}

/*
 * The low 64 bits of (ts * mult) >> shift (shift < 64), the product in
 * 96 bits, from two 32 x 32-bit products: 32-bit hosts have no 128-bit
 * integers.  ts * mult = mid * 2^32 + low 32 bits of lo.
 */
static uint64_t mul_shift(uint64_t ts, uint32_t mult, uint32_t shift)
{
	uint64_t lo = (ts & 0xffffffffu) * mult;
	uint64_t mid = (ts >> 32) * mult + (lo >> 32);

	if (shift >= 32)
		return mid >> (shift - 32);
	return mid << (32 - shift) | (lo & 0xffffffffu) >> shift;
}

uint64_t tdat_ts_apply(const struct tdat_ts_adjust *a, uint64_t ts)
{
	if (a->mult)
		ts = mul_shift(ts, a->mult, a->shift);
	return ts + (uint64_t)a->offset;
}

uint64_t tdat_ts_apply_cpu(const struct tdat_ts_adjust *a, int cpu,
			   uint64_t ts)
{
	return tdat_ts_apply(a, timeshift_apply(a->guest, cpu, ts));
}
