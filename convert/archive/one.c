/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * one.c - one trace.dat archived in place.
 *
 * The archive is written beside the original under a name of its own,
 * ".NAME.tdat-archive", held unnamed until then where the file system
 * allows (libfmt's TDAT_UNNAMED_UNTIL_KEPT: a process killed meanwhile
 * leaves nothing), read back and compared with the original (same.c),
 * given the original's mode, owner and times, synced, named, and only
 * then renamed over the original: at every moment the original's name
 * holds the whole original or the whole archive.  Never is the archive
 * written under the original's name itself, so no way libfmt has of
 * naming an output can replace the original before the check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/archive/archive_internal.h"
#include "convert/copy/copy.h"
#include "libfmt/chunkindex.h"
#include "libfmt/outputs.h"

/* One line on stderr; the first is the reason the log gives. */
static void tell(struct one_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tell(struct one_report *rep, const char *fmt, ...)
{
	char line[sizeof(rep->reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tdat convert: %s\n", line);
	if (!rep->reason[0])
		memcpy(rep->reason, line, sizeof(line));
}

static void say(struct one_report *rep, const char *path, const char *what)
{
	tell(rep, "%s: %s", path, what);
}

static void warn_line(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat convert: %s: %s\n", (const char *)ctx, msg);
}

/* A stream whose chunks but the last are all chunk bytes: 1, 0, -1;
 * *whole counts the chunks of that size. */
static int stream_archived(struct tdat_file *f, int b, int i,
			   uint32_t chunk, int *whole, struct tdat_error *err)
{
	struct tdat_chunk_walk cw;
	struct tdat_chunk c;
	uint32_t last = 0;
	int r, n = 0;

	if (tdat_chunk_walk_init(&cw, f, b, i, err))
		return -1;
	while ((r = tdat_chunk_walk_next(&cw, &c, err)) > 0) {
		if (n++ && last != chunk)
			return 0;
		last = c.usize;
		*whole += c.usize == chunk;
	}
	return r < 0 ? -1 : 1;
}

/*
 * Whether f is what the preset makes: v7 zstd, every CPU's chunks (but
 * its last) of the preset's size, and at least one whole chunk to tell
 * by.  1, 0 (not, or cannot tell: archive_open tries), -1.
 */
static int archived(struct tdat_file *f, uint32_t chunk,
		    struct tdat_error *err)
{
	int b, i, r, whole = 0;

	if (f->version != 7 || f->codec != TDAT_CODEC_ZSTD)
		return 0;
	for (b = 0; b < f->nbuffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];

		if (buf->latency)
			continue;
		if (!buf->compressed)
			return 0;
		for (i = 0; i < buf->ncpus; i++) {
			if (!buf->cpus[i].size)
				continue;
			r = stream_archived(f, b, i, chunk, &whole, err);
			if (r <= 0)
				return r;
		}
	}
	return whole > 0;
}

/* Whether path may be replaced: a regular file of one link, in a
 * directory the process can write to.  1, or 0 (said, rep set). */
static int replaceable(const char *path, const struct stat *st,
		       struct one_report *rep)
{
	char *dir = tdat_dir_of(path);
	int ok = 0;

	if (!S_ISREG(st->st_mode)) {
		say(rep, path, "not a regular file: left as it is");
		rep->result = ONE_LEFT;
	} else if (st->st_nlink > 1) {
		say(rep, path, "has other hard links: left as it is");
		rep->result = ONE_LEFT;
	} else if (!dir || access(path, W_OK) || access(dir, W_OK)) {
		say(rep, path, "cannot be replaced (no permission to write it or"
		    " its directory): left as it is");
		rep->result = ONE_FAILED;
	} else {
		ok = 1;
	}
	free(dir);
	return ok;
}

/* The archive's own name beside path: ".NAME.tdat-archive" (tree.c
 * removes one a killed run left), malloc'd. */
static char *archive_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t dir = base ? (size_t)(base - path) + 1 : 0, n;
	char *s;

	base = base ? base + 1 : path;
	n = strlen(path) + sizeof(ARCHIVE_SUFFIX) + 2;
	s = malloc(n);
	if (s)
		snprintf(s, n, "%.*s.%s%s", (int)dir, path, base,
			 ARCHIVE_SUFFIX);
	return s;
}

/* The archive: held unnamed (its descriptor), or, where the file system
 * makes no unnamed files, already under its own name.  A descriptor to
 * close when *opened, or -1. */
static int archive_fd(const char *name, int *opened)
{
	int fd = tdat_outputs_held_fd(name);

	*opened = fd < 0;
	return fd >= 0 ? fd : open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
}

/* The archive read back: opened through its descriptor. */
static struct tdat_file *open_archive(const char *name, struct tdat_error *err)
{
	int opened, fd = archive_fd(name, &opened);
	struct tdat_file *f;
	char proc[64];

	if (fd < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: the archive cannot"
			 " be read back", name);
		return NULL;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	f = tdat_open(proc, err);
	if (opened)
		close(fd);
	return f;
}

/* The archive takes the original's mode, owner and times; *size is its
 * size.  0 or -1. */
static int finish_archive(const char *name, const struct stat *st,
			  uint64_t *size)
{
	struct timespec times[2] = { st->st_atim, st->st_mtim };
	int opened, fd = archive_fd(name, &opened), r = -1;
	struct stat now;

	if (fd < 0)
		return -1;
	if (!fchmod(fd, st->st_mode & 07777) &&
	    ((st->st_uid == geteuid() && st->st_gid == getegid()) ||
	     !fchown(fd, st->st_uid, st->st_gid)) &&
	    !futimens(fd, times) && !fstat(fd, &now)) {
		*size = (uint64_t)now.st_size;
		r = 0;
	}
	if (opened)
		close(fd);
	return r;
}

/* Whether path is still the file st describes (nobody changed it). */
static int unchanged(const char *path, const struct stat *st)
{
	struct stat now;

	return !lstat(path, &now) && joblog_same_file(st, &now);
}

/* Write in's archive under name (held unnamed where it can be) and
 * check it against in.  0, or 1 (said). */
static int write_checked(struct tdat_file *in, const char *path,
			 const char *name, const struct archive_opts *o,
			 int threads, struct one_report *rep)
{
	struct convert_opts co;
	struct tdat_error err;
	struct tdat_file *out;
	char why[600];
	int r;

	memset(&co, 0, sizeof(co));
	co.version = 7;
	co.codec = TDAT_CODEC_ZSTD;
	co.level = o->level;
	co.chunk_size = o->chunk_size;
	co.threads = threads;
	co.provisional = TDAT_UNNAMED_UNTIL_KEPT;
	co.warn = warn_line;
	co.warn_ctx = (void *)path;
	if (convert_file(in, name, &co, &err)) {
		say(rep, path, err.msg);
		return 1;
	}
	out = open_archive(name, &err);
	r = out ? archive_same(in, out, why, sizeof(why)) : -1;
	tdat_close(out);
	if (!out)
		snprintf(why, sizeof(why), "%s", err.msg);
	if (r) {
		tell(rep, "%s: the archive does not read back as the"
		     " original (%s): left as it is", path, why);
		return 1;
	}
	return 0;
}

/*
 * The archive (under name) put over path: given the original's
 * attributes, kept only if nothing changed path meanwhile and it is
 * smaller, synced and named, then renamed over path, its directory
 * synced.  0, or 1 (said; or rep->result ONE_SKIPPED: the original is
 * no larger, archived already).  On 1 the caller drops the archive.
 */
static int put_in_place(const char *path, const char *name,
			const struct stat *st, struct one_report *rep)
{
	struct tdat_error err;
	uint64_t size = 0;

	if (finish_archive(name, st, &size)) {
		say(rep, path, "cannot give the archive its mode, owner and"
		    " times: left as it is");
		return 1;
	}
	if (!unchanged(path, st)) {
		say(rep, path, "changed while it was archived: left as it is");
		return 1;
	}
	if (size >= rep->before) {	/* no smaller */
		rep->result = ONE_SKIPPED;
		rep->after = rep->before;
		return 1;
	}
	if (tdat_outputs_keep(&err)) {
		say(rep, path, err.msg);
		return 1;
	}
	if (rename(name, path)) {
		tell(rep, "%s: cannot be replaced (%s): left as it is", path,
		     strerror(errno));
		unlink(name);
		return 1;
	}
	tdat_sync_dir_of(path);
	rep->after = size;
	return 0;
}

/* An opened original: its notes (what the reader worked around) make
 * it damaged; archived already, or archived now. */
static void archive_open(struct tdat_file *in, const char *path,
			 const struct archive_opts *o, int threads,
			 const struct stat *st, struct one_report *rep)
{
	struct tdat_error err;
	char *name;
	int i, r;

	for (i = 0; tdat_note(in, i); i++)
		tell(rep, "%s", tdat_note(in, i));
	if (i) {
		say(rep, path, "damaged (see above): left as it is");
		rep->result = ONE_FAILED;
		return;
	}
	r = archived(in, o->chunk_size, &err);
	if (r) {
		if (r < 0)
			tell(rep, "%s: left as it is", err.msg);
		rep->result = r < 0 ? ONE_FAILED : ONE_SKIPPED;
		rep->after = rep->before;
		return;
	}
	rep->result = ONE_FAILED;
	name = archive_name(path);
	if (!name) {
		say(rep, path, "out of memory: left as it is");
		return;
	}
	if (write_checked(in, path, name, o, threads, rep) ||
	    put_in_place(path, name, st, rep))
		tdat_outputs_drop();	/* ONE_SKIPPED: not smaller */
	else
		rep->result = ONE_ARCHIVED;
	free(name);
}

void one_archive(const char *path, const struct archive_opts *o,
		 int threads, struct one_report *rep)
{
	struct tdat_error err;
	struct tdat_file *in;
	struct stat st;

	memset(rep, 0, sizeof(*rep));
	rep->result = ONE_FAILED;
	if (lstat(path, &st)) {
		say(rep, path, "gone before it was archived");
		return;
	}
	rep->before = (uint64_t)st.st_size;
	if (!replaceable(path, &st, rep))
		return;
	in = tdat_open(path, &err);
	if (!in) {
		tell(rep, "%s: left as it is", err.msg);
		return;
	}
	archive_open(in, path, o, threads, &st, rep);
	tdat_close(in);
}
