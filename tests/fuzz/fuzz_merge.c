/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_merge.c - libFuzzer target for merge (`make fuzz`).
 *
 * Input: one selector byte, then two trace.dat files one after the
 * other (the second starts at the second trace.dat magic; without one
 * the file is merged with itself).  The merge applet joins them with one
 * of the option sets below.  Besides sanitizer reports, these must hold
 * (else the target traps): a merge that succeeds writes a file that
 * opens, and one that reads cleanly when both inputs do.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include "cmds/cmds.h"
#include "tests/fuzz/scratch.h"
#include "tests/fuzz/walk.h"

static const char magic[10] = "\x17\x08\x44tracing";

static const char *const option_sets[][8] = {
	{ NULL },
	{ "--file-version", "6", NULL },
	{ "--file-version", "7", "--compression", "zstd", "--threads", "1",
	  NULL },
	{ "--compression", "zlib", "--chunk-size", "8K", NULL },
	{ "-v", "--compression", "none", NULL },
	{ "--file-version", "7", "--compression", "zstd", "--level", "1",
	  NULL },
};
#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

/* Where the second file starts: the next magic after the first's. */
static size_t second_at(const uint8_t *d, size_t n)
{
	const uint8_t *p = n > 1 ? memmem(d + 1, n - 1, magic,
					  sizeof(magic)) : NULL;

	return p ? (size_t)(p - d) : n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[20] = { "merge", "-q" }, *a, *b, *out;
	const char *const *set;
	size_t at;
	int n = 2, k, w;

	if (size < 1)
		return 0;
	set = option_sets[data[0] % NSETS];
	data++;
	size--;
	at = second_at(data, size);
	a = scratch_write(0, "a.dat", data, at);
	b = at < size ? scratch_write(1, "b.dat", data + at, size - at) : a;
	out = scratch_path(2, "out.dat");
	if (!a || !b)
		return 0;
	for (k = 0; set[k]; k++)
		args[n++] = set[k];
	args[n++] = "-o";
	args[n++] = out;
	args[n++] = "-i";
	args[n++] = a;
	args[n++] = "-i";
	args[n++] = b;
	args[n] = NULL;
	if (scratch_run(cmd_merge, args) == 0) {
		w = walk_file(out);
		if (w == WALK_UNOPENED)
			walk_trap("merge wrote a file that does not open", out);
		if (w != WALK_CLEAN && walk_file(a) == WALK_CLEAN &&
		    walk_file(b) == WALK_CLEAN)
			walk_trap("merge of clean inputs does not read", out);
	}
	scratch_clean();
	return 0;
}
