/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guestopts.c - the options of host and guest recordings as dump prints
 * them: TIME_SHIFT, GUEST and TSC2NSEC.  The layout of each line is
 * trace-cmd 3.1.6's (3.4 prints the same).  Where trace-cmd reads past a
 * short payload, these print nothing, or zero, for what is missing.
 */
#include <string.h>
#include "convert/dump/dump_int.h"

#define SAMPLE_LINE "[offset * scaling >> fraction @ time]\n"

/* First pass: each CPU's sample count, checked to fit; the end of the
 * samples in *at and their number in *total, or -1 when broken. */
static int shift_counts(const struct dump *d, const uint8_t *p, uint32_t size,
			uint32_t ncpus, uint32_t *at, uint64_t *total)
{
	uint32_t i, n, pos = 16;

	*total = 0;
	for (i = 0; i < ncpus; i++) {
		if (size - pos < 4)
			return -1;
		n = d_get32(d, p + pos);
		say(d, DUMP_OPTIONS, "%u [samples count for CPU %u]\n", n, i);
		pos += 4;
		if ((uint64_t)n * 24 > size - pos)
			return -1;
		pos += n * 24;
		*total += n;
	}
	*at = pos;
	return 0;
}

/* Second pass: every sample, with its fraction bits when all are there. */
static void shift_samples(const struct dump *d, const uint8_t *p,
			  uint32_t ncpus, const uint8_t *frac)
{
	uint32_t i, k, n, pos = 16;
	uint64_t nth = 0;	/* the sample's place among all CPUs' */

	for (i = 0; i < ncpus; i++) {
		n = d_get32(d, p + pos);
		pos += 4;
		for (k = 0; k < n; k++, nth++)
			say(d, DUMP_OPTIONS, "\t%lld %lld %llu %llu" SAMPLE_LINE,
			    (long long)d_get64(d, p + pos + 8 * (n + k)),
			    (long long)d_get64(d, p + pos + 16 * n + 8 * k),
			    (unsigned long long)(frac ? d_get64(d, frac + 8 * nth)
						      : 0),
			    (unsigned long long)d_get64(d, p + pos + 8 * k));
		pos += n * 24;
	}
}

void dump_time_shift(const struct dump *d, const uint8_t *p, uint32_t size)
{
	uint32_t ncpus, end;
	uint64_t total;

	if (size < 16) {
		say(d, DUMP_OPTIONS, "Broken time shift option\n");
		return;
	}
	ncpus = d_get32(d, p + 12);
	say(d, DUMP_OPTIONS, "0x%llX [peer's trace id]\n",
	    (unsigned long long)d_get64(d, p));
	say(d, DUMP_OPTIONS, "0x%X [peer's protocol flags]\n", d_get32(d, p + 8));
	say(d, DUMP_OPTIONS, "0x%X [peer's CPU count]\n", ncpus);
	if (shift_counts(d, p, size, ncpus, &end, &total) ||
	    (size > end && size - end < total * 8)) {
		say(d, DUMP_OPTIONS, "Broken time shift option\n");
		return;
	}
	shift_samples(d, p, ncpus, size > end ? p + end : NULL);
}

void dump_guest(const struct dump *d, const uint8_t *p, uint32_t size)
{
	size_t n = strnlen((const char *)p, size);
	uint32_t pos = (uint32_t)n + (n < size), i, ncpus = 0;
	uint64_t id = 0;

	say(d, DUMP_OPTIONS, "%.*s [Guest name]\n", (int)n, (const char *)p);
	if (size - pos >= 12) {
		id = d_get64(d, p + pos);
		ncpus = d_get32(d, p + pos + 8);
		pos += 12;
	}
	say(d, DUMP_OPTIONS, "0x%llX [trace id]\n", (unsigned long long)id);
	say(d, DUMP_OPTIONS, "%u [Guest CPUs]\n", ncpus);
	for (i = 0; i < ncpus && size - pos >= 8; i++, pos += 8)
		say(d, DUMP_OPTIONS, "  %d %d [guest cpu, host pid]\n",
		    (int)d_get32(d, p + pos), (int)d_get32(d, p + pos + 4));
}

void dump_tsc2nsec(const struct dump *d, const uint8_t *p, uint32_t size)
{
	if (size < 16)
		return;
	say(d, DUMP_OPTIONS, "%u %u %llu [multiplier, shift, offset]\n",
	    d_get32(d, p), d_get32(d, p + 4),
	    (unsigned long long)d_get64(d, p + 8));
}
