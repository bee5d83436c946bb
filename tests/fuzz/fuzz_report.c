/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_report.c - libFuzzer target for report (`make fuzz`).
 *
 * Input: one selector byte, then a trace.dat.  The file is reported by
 * the report applet with one of the option sets below (the selector
 * picks it, and whether worker threads format the lines): every event
 * formatted through libtraceevent from the file's own event formats,
 * header_page, printk formats, kallsyms and cmdlines, as text or JSON,
 * and the show-and-exit listings.  Output goes to /dev/null.  Any
 * crash, leak or sanitizer report is a bug; exit statuses are not
 * checked (most inputs are bad files).
 */
#include <stdint.h>
#include <stdlib.h>
#include "cmds/cmds.h"
#include "tests/fuzz/scratch.h"

#define IN "@"		/* replaced by the input's path */

static const char *const option_sets[][8] = {
	{ NULL },
	{ "-R", NULL },
	{ "--json", NULL },
	{ "-l", "-t", NULL },
	{ "--nodate", "--layout", "3.4", "--ts-diff", NULL },
	{ "--events", NULL },
	{ "--stat", NULL },
	{ "-E", NULL },
	{ "-f", "-P", NULL },
	{ "--cpus", "--first-event", "--last-event", "--uname", NULL },
	{ "--cpu", "0,2-3", NULL },
	{ "-F", "sched_switch: prev_pid != 0 || common_pid > 1", NULL },
	{ "--event", "sched", NULL },
	{ "-N", "--align-ts", NULL },
	{ "--raw-ts", "-I", "-S", "-q", NULL },
	{ "-i", IN, "--ts-offset", "1000", "--ts2secs", "1000000", NULL },
	{ "--json", "--cpu", "1", NULL },
	{ "-e", "--version", NULL },
};
#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[16] = { "report" }, *path;
	const char *const *set;
	int n = 1, k;

	if (size < 1)
		return 0;
	set = option_sets[data[0] % NSETS];
	path = scratch_write(0, "in.dat", data + 1, size - 1);
	if (!path)
		return 0;
	/* worker threads for odd multiples, the caller's thread else */
	setenv("TDAT_REPORT_THREADS", data[0] / NSETS % 2 ? "2" : "0", 1);
	for (k = 0; set[k]; k++)
		args[n++] = set[k][0] == '@' ? path : set[k];
	args[n++] = "-i";
	args[n++] = path;
	args[n] = NULL;
	scratch_run(cmd_report, args);
	scratch_clean();
	return 0;
}
