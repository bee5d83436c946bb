/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_split.c - libFuzzer target for split (`make fuzz`).
 *
 * Input: one selector byte, then a trace.dat.  The split applet cuts it
 * with one of the option sets below (by events, pages, time, CPU,
 * buffers; v6 or v7 pieces, compressed or not) into a private directory.
 * Besides sanitizer reports, these must hold (else the target traps):
 * every piece written opens, and when the input reads cleanly (every
 * page and event) so does every piece.
 */
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include "cmds/cmds.h"
#include "tests/fuzz/scratch.h"
#include "tests/fuzz/walk.h"

static const char *const option_sets[][10] = {
	{ NULL },
	{ "-e", "40", "-r", NULL },
	{ "-p", "1", "-r", NULL },
	{ "-m", "5", "-r", "-c", NULL },
	{ "-C", "1", "--file-version", "6", NULL },
	{ "-e", "30", "-r", "--file-version", "7", "--compression", "zstd",
	  NULL },
	{ "-e", "25", "-r", "-c", "--compression", "zlib", NULL },
	{ "-s", "1", "0.5", "99999", NULL },
	{ "-B", "inst1", "-t", NULL },
	{ "--top", "-b", "renamed", "-e", "60", "-r", NULL },
	{ "-u", "700", "-r", "--compression", "none", NULL },
};
#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

/* Every piece in the directory (all but the input) checked. */
static void check_pieces(int input_clean)
{
	DIR *d = opendir(scratch_dir());
	struct dirent *e;
	const char *path;
	int w;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "out", 3))
			continue;
		path = scratch_path(1, e->d_name);
		w = walk_file(path);
		if (w == WALK_UNOPENED)
			walk_trap("a piece split wrote does not open", path);
		if (input_clean && w != WALK_CLEAN)
			walk_trap("a piece of a clean input does not read", path);
	}
	closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[20] = { "split" }, *in;
	const char *const *set;
	int n = 1, k;

	if (size < 1)
		return 0;
	set = option_sets[data[0] % NSETS];
	in = scratch_write(0, "in.dat", data + 1, size - 1);
	if (!in)
		return 0;
	args[n++] = "-i";
	args[n++] = in;
	args[n++] = "-o";
	args[n++] = scratch_path(1, "out");
	for (k = 0; set[k]; k++)
		args[n++] = set[k];
	args[n] = NULL;
	if (scratch_run(cmd_split, args) == 0)
		check_pieces(walk_file(in) == WALK_CLEAN);
	scratch_clean();
	return 0;
}
