/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_parquet.c - libFuzzer target for convert --to parquet
 * (`make fuzz`).
 *
 * Input: one selector byte, then a trace.dat.  The convert applet
 * exports it as a Parquet dataset into a private directory, as a single
 * input or as a fleet of two (the file twice), at a zstd level the
 * selector picks.  Besides sanitizer reports, these must hold (else the
 * target traps): an export that succeeds leaves a directory whose every
 * .parquet file starts and ends with "PAR1" and whose footer length
 * fits the file, and meta.json; a dataset is there whole or not at all
 * (exit 1 may leave one: a damaged input is exported as far as it goes).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmds/cmds.h"
#include "libfmt/outputs.h"
#include "tests/fuzz/scratch.h"

/* A Parquet file's frame: magic at both ends, a footer that fits. */
static int framed(const char *path)
{
	uint8_t head[4], tail[8];
	struct stat st;
	int fd = open(path, O_RDONLY), ok;
	uint32_t len;

	if (fd < 0 || fstat(fd, &st) || st.st_size < 12) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	ok = pread(fd, head, 4, 0) == 4 &&
	     pread(fd, tail, 8, st.st_size - 8) == 8;
	close(fd);
	len = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 |
	      (uint32_t)tail[2] << 16 | (uint32_t)tail[3] << 24;
	return ok && !memcmp(head, "PAR1", 4) && !memcmp(tail + 4, "PAR1", 4) &&
	       len <= (uint64_t)st.st_size - 12;
}

/* Every .parquet file under dir framed; how many there are. */
static int check_tree(const char *dir, int depth)
{
	char path[4096];
	struct dirent *d;
	DIR *D = opendir(dir);
	int n = 0;

	if (!D)
		__builtin_trap();
	while ((d = readdir(D))) {
		size_t len = strlen(d->d_name);

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (d->d_type == DT_DIR && depth < 4)
			n += check_tree(path, depth + 1);
		else if (len > 8 && !strcmp(d->d_name + len - 8, ".parquet")) {
			if (!framed(path))
				__builtin_trap();
			n++;
		}
	}
	closedir(D);
	return n;
}

/* The stage beside the output is gone, whatever happened. */
static void check_no_stage(void)
{
	DIR *D = opendir(scratch_dir());
	struct dirent *d;

	while (D && (d = readdir(D)))
		if (!strncmp(d->d_name, ".out.tdat-", 10))
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
	const char *args[16] = { "convert", "--to", "parquet", "-q" };
	static const char *const levels[] = { "1", "3", "9" };
	const char *in, *out, *meta;
	struct stat st;
	int n = 4, rc;

	if (size < 1)
		return 0;
	in = scratch_write(0, "in.dat", data + 1, size - 1);
	out = scratch_path(1, "out");
	meta = scratch_path(2, "out/meta.json");
	if (!in)
		return 0;
	args[n++] = "--level";
	args[n++] = levels[data[0] % 3];
	args[n++] = "-i";
	args[n++] = in;
	if (data[0] & 4) {	/* a fleet: the same file twice */
		args[n++] = "-i";
		args[n++] = in;
	}
	args[n++] = "-o";
	args[n++] = out;
	args[n] = NULL;
	rc = scratch_run(cmd_convert, args);
	if (!stat(out, &st)) {
		if (rc == 2 || stat(meta, &st))
			__builtin_trap();	/* half a dataset */
		check_tree(out, 0);
	} else if (rc == 0) {
		__builtin_trap();	/* success, and nothing there */
	}
	check_no_stage();
	tdat_remove_tree(out);
	scratch_clean();
	return 0;
}
