/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.c - read OUT.rec/tracefs (written by tracefs_save.c) back
 * after a killed recording and put tracefs back from it
 * (record_put_back, for "tdat restore OUT").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

/* Undo put_escaped in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*out++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else {
			*out++ = *s;
		}
	}
	*out = 0;
}

/* Split a line at tabs into at most max fields, unescaped. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	for (int i = 0; i < n; i++)
		unescape(f[i]);
	return line ? -1 : n;
}

static int load_line(struct rec_tracefs *t, char *line, const char *path,
		     struct tdat_error *err)
{
	char *f[5];
	int n = fields(line, f, 5);

	if (n == 5 && !strcmp(f[0], "save")) {
		if (rec_tracefs_add_saved(t, f[2], f[3], f[4], f[1][0] == '1'))
			return tdat_errorf(err, "out of memory");
		return 0;
	}
	if (n == 3 && !strcmp(f[0], "instance") &&
	    strlen(f[1]) < sizeof(t->top)) {
		strcpy(t->top, f[1]);
		if (rec_tracefs_add_created(t, f[2]))
			return tdat_errorf(err, "out of memory");
		return 0;
	}
	return tdat_fail_nooff(err, path, "not a line of a tracefs journal");
}

/* 1 while the recorder that wrote the journal still runs (the same
 * program under that pid). */
static int recorder_runs(long pid)
{
	char link[64], a[PATH_MAX], b[PATH_MAX];
	ssize_t na, nb;

	if (pid <= 0 || pid == (long)getpid())
		return 0;
	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	na = readlink(link, a, sizeof(a) - 1);
	nb = readlink("/proc/self/exe", b, sizeof(b) - 1);
	return na > 0 && na == nb && !memcmp(a, b, (size_t)na);
}

int rec_boot_id(char *id, size_t cap)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	int ok = f && fgets(id, (int)cap, f) && id[0] != '\n';

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	id[strcspn(id, "\n \t")] = 0;
	return 0;
}

/* 1 when the journal's first line names a boot that is not this one:
 * the machine restarted since the recording (or this is another
 * machine), and tracefs is not the one the recording changed. */
static int other_boot(const char *line)
{
	char was[64], now[64];

	if (sscanf(line, "tdat-tracefs 1 pid %*d keep %*d boot %63s",
		   was) != 1)
		return 0;	/* an older journal: no boot named */
	return !rec_boot_id(now, sizeof(now)) && strcmp(was, now);
}

/* The journal's text into t; *keep from its first line.  2 when it is
 * of another boot (nothing loaded). */
static int load(char *text, const char *path, struct rec_tracefs *t,
		int *keep, struct tdat_error *err)
{
	char *line = text, *nl;
	long pid;

	nl = strchr(text, '\n');
	if (!nl || sscanf(text, "tdat-tracefs 1 pid %ld keep %d", &pid,
			  keep) != 2)
		return tdat_fail_nooff(err, path, "not a tdat-tracefs 1"
				       " journal");
	if (other_boot(text))
		return 2;
	if (recorder_runs(pid))
		return tdat_fail_nooff(err, path, "its recorder (pid %ld) still"
				       " runs and puts tracefs back itself",
				       pid);
	/* Only whole lines: a cut last one is a change never made. */
	for (line = nl + 1; (nl = strchr(line, '\n')) != NULL;
	     line = nl + 1) {
		*nl = 0;
		if (load_line(t, line, path, err))
			return -1;
	}
	return 0;
}

int record_put_back(const char *recdir, void (*warn)(const char *msg),
		    struct tdat_error *err)
{
	struct rec_tracefs t;
	struct tdat_blob text;
	char path[PATH_MAX];
	int keep = 0, r;

	if (snprintf(path, sizeof(path), "%s/tracefs", recdir) >=
	    (int)sizeof(path))
		return tdat_errorf(err, "%s: path too long", recdir);
	if (access(path, F_OK))
		return 1;
	rec_tracefs_init(&t);
	if (tfs_read(recdir, "tracefs", &text, err))
		return -1;
	/* Empty: the machine died before its first line reached the disk
	 * (after a restart there is nothing to put back), or the recorder
	 * before its first change. */
	r = !text.len ? 1 : load((char *)text.data, path, &t, &keep, err);
	free(text.data);
	if (!r && rec_tracefs_restore(&t, keep, warn))
		return tdat_fail_nooff(err, path, "tracefs could not all be put"
				       " back (see above); the journal stays");
	if (r < 0) {
		rec_tracefs_free(&t);
		return -1;
	}
	rec_tracefs_free(&t);
	if (unlink(path))
		return tdat_errorf(err, "%s: cannot remove: %s", path,
				   strerror(errno));
	return r;
}
