/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scratch.c - a private directory and applet calls for the fuzz targets. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/fuzz/scratch.h"

static char dir[256];

static void remove_dir(void)
{
	scratch_clean();
	if (!getenv("FUZZ_KEEP"))
		rmdir(dir);
}

const char *scratch_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/tdat-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return NULL;
	}
	atexit(remove_dir);
	return dir;
}

const char *scratch_path(int slot, const char *name)
{
	static char paths[4][512];

	snprintf(paths[slot & 3], sizeof(paths[0]), "%s/%s", scratch_dir(),
		 name);
	return paths[slot & 3];
}

const char *scratch_write(int slot, const char *name, const uint8_t *data,
			  size_t size)
{
	const char *path;
	int fd;
	ssize_t n;

	if (!scratch_dir())
		return NULL;
	path = scratch_path(slot, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return NULL;
	n = size ? write(fd, data, size) : 0;
	close(fd);
	return n == (ssize_t)size ? path : NULL;
}

void scratch_clean(void)
{
	DIR *d;
	struct dirent *e;

	/* FUZZ_KEEP=1 when replaying an input: its files stay to look at */
	if (getenv("FUZZ_KEEP") || !dir[0] || !(d = opendir(dir)))
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

void scratch_quiet_stdout(void)
{
	if (!freopen("/dev/null", "w", stdout))
		return;
}

int scratch_run(int (*applet)(int, char **), const char *const *args)
{
	char *argv[32];
	int argc, r;

	for (argc = 0; args[argc] && argc < 31; argc++)
		argv[argc] = strdup(args[argc]);
	argv[argc] = NULL;
	optind = 0;	/* glibc: getopt starts afresh */
	r = applet(argc, argv);
	fflush(stdout);
	while (argc--)
		free(argv[argc]);
	return r;
}
