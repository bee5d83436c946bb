/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_salvage.c - libFuzzer target for restore's salvage of damaged
 * files (`make fuzz`): convert/restore/salvage.c, libfmt's
 * salvage_scan.c and salvage_page.c.
 *
 * Input: one selector byte, then a trace.dat (inputs without the
 * trace.dat magic are skipped: restore would take them for raw CPU
 * files and read the running system's metadata).  restore -o OUT IN
 * rebuilds it with one of the option sets below.  Besides sanitizer
 * reports, this must hold (else the target traps): when restore
 * succeeds, its output opens and reads cleanly, every page and event.
 */
#include <stdint.h>
#include <string.h>
#include "cmds/cmds.h"
#include "tests/fuzz/scratch.h"
#include "tests/fuzz/walk.h"

static const char magic[10] = "\x17\x08\x44tracing";

static const char *const option_sets[][6] = {
	{ NULL },
	{ "--file-version", "6", NULL },
	{ "--file-version", "7", "--compression", "zstd", NULL },
	{ "--file-version", "7", "--compression", "none", NULL },
};
#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[16] = { "restore", "-q" }, *in, *out;
	const char *const *set;
	int n = 2, k;

	if (size < 1 + sizeof(magic) || memcmp(data + 1, magic, sizeof(magic)))
		return 0;
	set = option_sets[data[0] % NSETS];
	in = scratch_write(0, "in.dat", data + 1, size - 1);
	out = scratch_path(1, "out.dat");
	if (!in)
		return 0;
	for (k = 0; set[k]; k++)
		args[n++] = set[k];
	args[n++] = "-o";
	args[n++] = out;
	args[n++] = in;
	args[n] = NULL;
	if (scratch_run(cmd_restore, args) == 0 &&
	    walk_file(out) != WALK_CLEAN)
		walk_trap("restore wrote a file that does not read cleanly",
			  out);
	scratch_clean();
	return 0;
}
