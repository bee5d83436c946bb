/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * budget.c - one budget, for the whole process, of the decoded data held
 * at once: metadata sections decompressed and kept, chunk windows of CPU
 * readers, pages being merged or split.
 *
 * A file says how large its decoded parts are, and a hostile one can
 * claim gigabytes from a few kilobytes (a zstd frame of zeros, twenty
 * CPUs pointing at one chunk).  Every buffer sized by such a claim is
 * charged here before it is allocated, and given back when freed.  The
 * limit is a base (64 MiB, tdat_budget_set_base) plus, for every input
 * open, eight times its size: real metadata and chunks decode to a few
 * times their stored size (kallsyms 5.4x, event formats under 10x), so
 * a real file always fits and a bomb is refused with one clear line.
 *
 * This is the one piece of global state in libfmt: a budget shared by
 * all open files and all threads is the point of it.
 */
#include <errno.h>
#include "libfmt/internal.h"

#define MIB (1024.0 * 1024.0)
#define ALLOWANCE_PER_INPUT_BYTE 8

static uint64_t budget_base = TDAT_BUDGET_BASE;
static uint64_t budget_allowance;	/* inputs open, times eight */
static uint64_t budget_held;

static uint64_t load(uint64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

void tdat_budget_set_base(uint64_t bytes)
{
	__atomic_store_n(&budget_base, bytes, __ATOMIC_RELAXED);
}

uint64_t tdat_budget_limit(void)
{
	uint64_t b = load(&budget_base), a = load(&budget_allowance);

	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t tdat_budget_held(void)
{
	return load(&budget_held);
}

int budget_fits(uint64_t n)
{
	uint64_t held = load(&budget_held), limit = tdat_budget_limit();

	if (held <= limit && n <= limit - held)
		return 1;
	errno = E2BIG;
	return 0;
}

int budget_take(uint64_t n)
{
	uint64_t held = load(&budget_held);

	do {
		uint64_t limit = tdat_budget_limit();

		if (held > limit || n > limit - held) {
			errno = E2BIG;
			return -1;
		}
	} while (!__atomic_compare_exchange_n(&budget_held, &held, held + n,
					      0, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return 0;
}

void budget_give(uint64_t n)
{
	__atomic_sub_fetch(&budget_held, n, __ATOMIC_RELAXED);
}

static uint64_t allowance_of(uint64_t input_size)
{
	return input_size > UINT64_MAX / ALLOWANCE_PER_INPUT_BYTE ?
		       UINT64_MAX / ALLOWANCE_PER_INPUT_BYTE :
		       input_size * ALLOWANCE_PER_INPUT_BYTE;
}

void budget_allow_input(uint64_t input_size)
{
	__atomic_add_fetch(&budget_allowance, allowance_of(input_size),
			   __ATOMIC_RELAXED);
}

void budget_forget_input(uint64_t input_size)
{
	__atomic_sub_fetch(&budget_allowance, allowance_of(input_size),
			   __ATOMIC_RELAXED);
}

int tdat_budget_fail(struct tdat_error *err, const char *path, uint64_t off,
		     const char *what, uint64_t need)
{
	if (errno != E2BIG)
		tdat_fail(err, path, off, "%s: out of memory", what);
	else
		tdat_fail(err, path, off, "%s: %.1f MiB decoded would pass the"
			  " memory budget (%.1f MiB held, %.1f MiB allowed;"
			  " TDAT_MEMORY raises it)", what, need / MIB,
			  tdat_budget_held() / MIB, tdat_budget_limit() / MIB);
	if (err)
		err->memory = 1;
	return -1;
}
