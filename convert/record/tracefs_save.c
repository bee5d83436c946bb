/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_save.c - every control file a recording changes is read
 * before its first change, and what it held is kept twice: in memory
 * (struct rec_tracefs) for the normal ways out, and in OUT.rec/tracefs,
 * the journal, for "tdat restore OUT" after a SIGKILL.  A journal line
 * goes out (one write) before the change it describes, so the journal
 * never misses a change that happened.
 *
 * Journal: a first line "tdat-tracefs 1 pid PID keep 0|1 boot BOOT_ID"
 * (the kernel's boot_id: restore after a restart leaves tracefs alone;
 * older journals have no boot), then
 *   save<TAB>OWN<TAB>DIR<TAB>FILE<TAB>VALUE
 *   instance<TAB>TOP<TAB>NAME          (an instance record made)
 * each ending in a newline, fields escaped (\\, \n, \t); OWN is 1 for
 * record's own settings (put back even with -k).  A last line without
 * its newline was cut by the kill: its change never happened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"
#include "libfmt/bytes.h"

void rec_tracefs_init(struct rec_tracefs *t)
{
	memset(t, 0, sizeof(*t));
	t->journal = -1;
}

int rec_because(struct tdat_error *err, const char *fmt, ...)
{
	char why[sizeof(err->msg)], what[sizeof(err->msg)];
	va_list ap;

	snprintf(why, sizeof(why), "%s", err->msg);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return tdat_errorf(err, "%s (%s)", what, why);
}

int rec_buffer_dir(const struct rec_tracefs *t, const char *name,
		   char *dir, size_t cap, struct tdat_error *err)
{
	return tfs_buffer_dir(t->top, name, dir, cap, err);
}

/* ---- the journal ---- */

static int put_escaped(struct tdat_bytes *b, const char *s)
{
	char two[2] = { '\\', 0 };

	for (; *s; s++) {
		two[1] = *s == '\n' ? 'n' : *s == '\t' ? 't' : '\\';
		if (*s == '\n' || *s == '\t' || *s == '\\') {
			if (tdat_bytes_add(b, two, 2))
				return -1;
		} else if (tdat_bytes_add(b, s, 1)) {
			return -1;
		}
	}
	return 0;
}

/* One line of fields, written at once. */
static int journal_line(struct rec_tracefs *t, const char *const *fields,
			int n, struct tdat_error *err)
{
	struct tdat_bytes b = { 0 };
	ssize_t w;
	size_t len;
	int i;

	if (t->journal < 0)
		return 0;
	for (i = 0; i < n; i++)
		if ((i && tdat_bytes_add(&b, "\t", 1)) ||
		    put_escaped(&b, fields[i])) {
			tdat_bytes_free(&b);
			return tdat_errorf(err, "out of memory");
		}
	if (tdat_bytes_add(&b, "\n", 1)) {
		tdat_bytes_free(&b);
		return tdat_errorf(err, "out of memory");
	}
	len = b.len;
	do
		w = write(t->journal, b.data, len);
	while (w < 0 && errno == EINTR);
	tdat_bytes_free(&b);
	if (w != (ssize_t)len)
		return tdat_errorf(err, "%s: cannot write: %s", t->journal_path,
				   w < 0 ? strerror(errno) : "short write");
	return 0;
}

int rec_journal_open(struct rec_tracefs *t, const char *recdir, int keep,
		     struct tdat_error *err)
{
	char head[160], boot[64];
	int n;

	if (snprintf(t->journal_path, sizeof(t->journal_path), "%s/tracefs",
		     recdir) >= (int)sizeof(t->journal_path))
		return tdat_errorf(err, "%s: path too long", recdir);
	t->journal = open(t->journal_path, O_WRONLY | O_CREAT | O_EXCL |
			  O_APPEND | O_CLOEXEC, 0644);
	if (t->journal < 0)
		return tdat_errorf(err, "%s: cannot create: %s",
				   t->journal_path, strerror(errno));
	if (rec_boot_id(boot, sizeof(boot)))
		strcpy(boot, "-");	/* no /proc: never taken for another */
	n = snprintf(head, sizeof(head), "tdat-tracefs 1 pid %ld keep %d"
		     " boot %s\n", (long)getpid(), keep ? 1 : 0, boot);
	if (write(t->journal, head, (size_t)n) != n)
		return tdat_errorf(err, "%s: cannot write: %s",
				   t->journal_path, strerror(errno));
	return 0;
}

void rec_journal_close(struct rec_tracefs *t)
{
	if (t->journal >= 0)
		close(t->journal);
	t->journal = -1;
}

/* ---- saving ---- */

static int is_saved(const struct rec_tracefs *t, const char *dir,
		    const char *file)
{
	int i;

	for (i = 0; i < t->nsaved; i++)
		if (!strcmp(t->saved[i].dir, dir) &&
		    !strcmp(t->saved[i].file, file))
			return 1;
	return 0;
}

int rec_tracefs_add_saved(struct rec_tracefs *t, const char *dir,
			  const char *file, const char *value, int own)
{
	struct rec_saved *s;

	s = realloc(t->saved, (size_t)(t->nsaved + 1) * sizeof(*s));
	if (!s)
		return -1;
	t->saved = s;
	s = &t->saved[t->nsaved];
	s->dir = strdup(dir);
	s->file = strdup(file);
	s->value = strdup(value);
	s->own = own;
	if (!s->dir || !s->file || !s->value) {
		free(s->dir);
		free(s->file);
		free(s->value);
		return -1;
	}
	t->nsaved++;
	return 0;
}

static int save(struct rec_tracefs *t, const char *dir, const char *file,
		int own, struct tdat_error *err)
{
	const char *f[5] = { "save", own ? "1" : "0", dir, file, "" };
	struct tdat_blob old;
	int r;

	if (is_saved(t, dir, file))
		return 0;
	if (tfs_read(dir, file, &old, err))
		return -1;
	if (old.data)
		f[4] = (char *)old.data;
	r = journal_line(t, f, 5, err);
	if (!r && rec_tracefs_add_saved(t, dir, file, f[4], own))
		r = tdat_errorf(err, "out of memory");
	free(old.data);
	return r;
}

int rec_save(struct rec_tracefs *t, const char *dir, const char *file,
	     struct tdat_error *err)
{
	return save(t, dir, file, 0, err);
}

int rec_set(struct rec_tracefs *t, const char *dir, const char *file,
	    const char *value, struct tdat_error *err)
{
	return save(t, dir, file, 0, err) || tfs_write(dir, file, value, err);
}

int rec_set_own(struct rec_tracefs *t, const char *dir, const char *file,
		const char *value, struct tdat_error *err)
{
	return save(t, dir, file, 1, err) || tfs_write(dir, file, value, err);
}

int rec_try_own(struct rec_tracefs *t, const char *dir, const char *file,
		const char *value, const char *without, struct tdat_error *err)
{
	int was_saved = is_saved(t, dir, file);
	char line[sizeof(err->msg) + 200];
	struct rec_saved *s;

	if (save(t, dir, file, 1, err))
		return -1;
	if (!tfs_write(dir, file, value, err))
		return 0;
	/* refused: the file is as it was, nothing to put back */
	if (!was_saved) {
		s = &t->saved[--t->nsaved];
		free(s->dir);
		free(s->file);
		free(s->value);
	}
	if (t->warn) {
		snprintf(line, sizeof(line), "%s; %s", err->msg, without);
		t->warn(line);
	}
	return 1;
}

int rec_tracefs_add_created(struct rec_tracefs *t, const char *name)
{
	char **v = realloc(t->created, (size_t)(t->ncreated + 1) *
			   sizeof(*v));

	if (!v)
		return -1;
	t->created = v;
	v[t->ncreated] = strdup(name);
	if (!v[t->ncreated])
		return -1;
	t->ncreated++;
	return 0;
}

int rec_use_instance(struct rec_tracefs *t, const char *name,
		     struct tdat_error *err)
{
	const char *f[3] = { "instance", t->top, name };
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "instances/%s", name);
	if (tfs_exists(t->top, rel))
		return 0;	/* someone's instance: used, restored, kept */
	if (journal_line(t, f, 3, err))
		return -1;
	if (rec_tracefs_add_created(t, name))
		return tdat_errorf(err, "out of memory");
	if (tfs_instance_create(t->top, name, err)) {
		free(t->created[--t->ncreated]);
		return -1;
	}
	return 0;
}
