/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shard.c - --shard K/N: which part of the inputs one task takes.
 *
 * A file's part is a hash of its path as given, so every task, on any
 * machine, given the list in any order, puts a file in the same part
 * with no word to the others.  A hash knows names, not sizes: the parts
 * come out even in files, and even in bytes only as far as sizes are
 * spread at random over names (tdat-convert(1) has measured figures).
 */
#include <stdio.h>
#include <string.h>
#include "convert/fleet/fleet.h"

/* A decimal number of digits only, at most max.  0 or -1. */
static int number(const char *s, size_t n, uint32_t max, uint32_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > max)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int bad(char *why, size_t cap, const char *what, const char *arg)
{
	snprintf(why, cap, "--shard %.64s: %s", arg, what);
	return -1;
}

/* Slurm's job array: K is the task's place in it. */
static int from_slurm(struct shard *s, const char *id, const char *min,
		      const char *count, char *why, size_t cap)
{
	uint32_t i, lo = 0;

	if (!id || !count)
		return bad(why, cap, "SLURM_ARRAY_TASK_ID and"
			   " SLURM_ARRAY_TASK_COUNT are not set (not a task"
			   " of a Slurm job array)", "slurm");
	if (number(id, strlen(id), SHARD_MAX, &i) ||
	    number(count, strlen(count), SHARD_MAX, &s->n) || !s->n ||
	    (min && number(min, strlen(min), SHARD_MAX, &lo)))
		return bad(why, cap, "SLURM_ARRAY_TASK_ID, _MIN or _COUNT is"
			   " not a number the size of a job array", "slurm");
	if (i < lo || i - lo >= s->n)
		return bad(why, cap, "the job array's task ids are not"
			   " MIN to MIN+COUNT-1 (--array with a step or a"
			   " list?): give --shard K/N", "slurm");
	s->k = i - lo;
	return 0;
}

int shard_parse(struct shard *s, const char *arg, const char *task_id,
		const char *task_min, const char *task_count, char *why,
		size_t cap)
{
	const char *slash = strchr(arg, '/');

	memset(s, 0, sizeof(*s));
	if (!strcmp(arg, "slurm"))
		return from_slurm(s, task_id, task_min, task_count, why, cap);
	if (!slash || number(arg, (size_t)(slash - arg), SHARD_MAX, &s->k) ||
	    number(slash + 1, strlen(slash + 1), SHARD_MAX, &s->n))
		return bad(why, cap, "not K/N (part K of N, from 0) or slurm",
			   arg);
	if (!s->n)
		return bad(why, cap, "N must be at least 1", arg);
	if (s->k >= s->n)
		return bad(why, cap, "K counts from 0: it must be below N",
			   arg);
	return 0;
}

uint64_t fleet_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

uint64_t fleet_fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

uint32_t shard_of(const char *path, uint32_t n)
{
	/* fmix64: FNV's low bits follow the last bytes too closely for
	 * names that differ only in a counter */
	return (uint32_t)(fleet_fmix64(fleet_fnv1a(FLEET_FNV_BASIS, path,
						   strlen(path))) % n);
}

int shard_takes(const struct shard *s, const char *path)
{
	return !s || !s->n || shard_of(path, s->n) == s->k;
}
