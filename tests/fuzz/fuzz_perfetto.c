/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_perfetto.c - libFuzzer target for convert --to perfetto
 * (`make fuzz`).
 *
 * Input: one selector byte, then a trace.dat.  The convert applet
 * exports it as a Perfetto trace into a private directory, from the
 * file alone or twice (two inputs on one timeline), at a zlib level the
 * selector picks.  Besides sanitizer reports, these must hold (else the
 * target traps): an export that succeeds (0) or exports a damaged input
 * as far as it goes (1) leaves a file that is a chain of Trace.packet
 * fields to its last byte, each a compressed_packets whose zlib data
 * expands to such a chain, or a packet of its own; exit 2 leaves
 * nothing; no temporary name is left beside it.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "cmds/cmds.h"
#include "tests/fuzz/scratch.h"

static int varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*i < n && shift < 64) {
		uint8_t c = p[(*i)++];

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

/* A chain of Trace.packet (field 1, length-delimited) fields filling
 * p[0..n); compressed ones expanded and checked alike (depth 1). */
static int chain(const uint8_t *p, size_t n, int depth)
{
	size_t i = 0, j;
	uint64_t tag, len, ztag, zlen;
	uLongf out;
	uint8_t *buf;
	int ok;

	while (i < n) {
		if (varint(p, n, &i, &tag) || tag != 0x0a ||
		    varint(p, n, &i, &len) || len > n - i)
			return 0;
		j = i;
		if (!varint(p, i + len, &j, &ztag) && ztag == (50 << 3 | 2)) {
			if (depth || varint(p, i + len, &j, &zlen) ||
			    zlen != i + len - j)
				return 0;
			out = 64u << 20;
			buf = malloc(out);
			ok = buf && uncompress(buf, &out, p + j, (uLong)zlen) == Z_OK &&
			     chain(buf, out, 1);
			free(buf);
			if (!ok)
				return 0;
		}
		i += len;
	}
	return 1;
}

static void check_file(const char *path, const struct stat *st)
{
	size_t n = (size_t)st->st_size;
	uint8_t *p = malloc(n + 1);
	FILE *f = fopen(path, "rb");
	int ok = p && f && fread(p, 1, n, f) == n && chain(p, n, 0);

	if (f)
		fclose(f);
	free(p);
	if (!ok)
		__builtin_trap();
}

/* No temporary name is left beside the output. */
static void check_no_temp(void)
{
	DIR *D = opendir(scratch_dir());
	struct dirent *d;

	while (D && (d = readdir(D)))
		if (strstr(d->d_name, ".tmp-"))
			__builtin_trap();
	if (D)
		closedir(D);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[16] = { "convert", "--to", "perfetto", "-q" };
	static const char *const levels[] = { "1", "6", "9" };
	const char *in, *out;
	struct stat st;
	int n = 4, rc;

	if (size < 1)
		return 0;
	in = scratch_write(0, "in.dat", data + 1, size - 1);
	out = scratch_path(1, "out.pftrace");
	if (!in)
		return 0;
	args[n++] = "--level";
	args[n++] = levels[data[0] % 3];
	args[n++] = "-i";
	args[n++] = in;
	if (data[0] & 4) {	/* two inputs: the same file twice */
		args[n++] = "-i";
		args[n++] = in;
	}
	args[n++] = "-o";
	args[n++] = out;
	args[n] = NULL;
	rc = scratch_run(cmd_convert, args);
	if (!stat(out, &st)) {
		if (rc == 2)
			__builtin_trap();	/* a failed output named */
		check_file(out, &st);
		unlink(out);
	} else if (rc == 0) {
		__builtin_trap();	/* success, and nothing there */
	}
	check_no_temp();
	scratch_clean();
	return 0;
}
