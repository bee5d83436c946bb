/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_outsync.c - writeback behind the writer (libfmt/outsync.c): the
 * ranges handed to sync_file_range, and what happens when it fails: a
 * file system without it leaves the output to fsync (still complete
 * under its name), an I/O error fails the output (nothing named).  And
 * input bytes copied by the kernel (libfmt/outcopy.c, the writer's
 * tdat_writer_put_file_pages): where copy_file_range refuses, at once or
 * halfway, the rest is read and written by hand, to the same bytes.
 */
#define _GNU_SOURCE		/* sync_file_range flags */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"
#include "libfmt/outputs.h"
#include "libfmt/writer.h"

#define MIB (1u << 20)

/* What the stand-in for sync_file_range saw, and what it answers. */
static struct {
	int calls, fail_errno;
	uint64_t off[64], n[64];
	unsigned flags[64];
} sr;

static int fake_sync_range(int fd, uint64_t off, uint64_t n, unsigned flags)
{
	if (sr.calls < 64) {
		sr.off[sr.calls] = off;
		sr.n[sr.calls] = n;
		sr.flags[sr.calls] = flags;
	}
	sr.calls++;
	if (sr.fail_errno) {
		errno = sr.fail_errno;
		return -1;
	}
	return sync_file_range(fd, (off_t)off, (off_t)n, flags);
}

static const char *path_of(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/outsync-%s", test_tmpdir(), name);
	unlink(p);
	return p;
}

/* MIB-sized blocks, block i filled with the byte i. */
static int write_blocks(struct outfile *o, int n, struct tdat_error *err)
{
	static uint8_t b[MIB];
	int i;

	for (i = 0; i < n; i++) {
		memset(b, i, sizeof(b));
		if (out_write(o, b, sizeof(b), err))
			return -1;
	}
	return 0;
}

static int blocks_are(const char *path, int n)
{
	static uint8_t b[MIB];
	FILE *f = fopen(path, "rb");
	int i, ok = f != NULL;

	for (i = 0; ok && i < n; i++) {
		ok = fread(b, 1, sizeof(b), f) == sizeof(b) &&
		     b[0] == (uint8_t)i && b[MIB - 1] == (uint8_t)i;
	}
	ok = ok && fgetc(f) == EOF;
	if (f)
		fclose(f);
	return ok;
}

static int open_faked(struct outfile *o, const char *path, int flags,
		      int fail_errno, struct tdat_error *err)
{
	memset(&sr, 0, sizeof(sr));
	sr.fail_errno = fail_errno;
	if (out_open(o, path, flags, err))
		return -1;
	o->sync_range = fake_sync_range;
	return 0;
}

/* 36 MiB: four 8 MiB ranges started as they complete, each waited for
 * two ranges later; the 4 MiB tail is left to fsync. */
static void test_ranges(void)
{
	const char *path = path_of("ranges");
	struct tdat_error err;
	struct outfile o;

	CU_ASSERT_FATAL(open_faked(&o, path, 0, 0, &err) == 0);
	CU_ASSERT_FATAL(write_blocks(&o, 36, &err) == 0);
	CU_ASSERT(sr.calls == 6);
	CU_ASSERT(sr.off[0] == 0 && sr.n[0] == 8 * MIB &&
		  sr.flags[0] == SYNC_FILE_RANGE_WRITE);
	CU_ASSERT(sr.off[1] == 8 * MIB && sr.flags[1] == SYNC_FILE_RANGE_WRITE);
	CU_ASSERT(sr.off[2] == 16 * MIB && sr.flags[2] == SYNC_FILE_RANGE_WRITE);
	CU_ASSERT(sr.off[3] == 0 && sr.n[3] == 8 * MIB &&
		  sr.flags[3] == SYNC_FILE_RANGE_WAIT_BEFORE);
	CU_ASSERT(sr.off[4] == 24 * MIB && sr.flags[4] == SYNC_FILE_RANGE_WRITE);
	CU_ASSERT(sr.off[5] == 8 * MIB &&
		  sr.flags[5] == SYNC_FILE_RANGE_WAIT_BEFORE);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(blocks_are(path, 36));
}

/* A file system without sync_file_range: asked once, then never again,
 * and the file is complete under its name (out_commit's fsync). */
static void test_unsupported(void)
{
	static const int errs[] = { ENOSYS, EINVAL, ESPIPE, EOPNOTSUPP };
	struct tdat_error err;
	struct outfile o;
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		const char *path = path_of("unsupported");

		CU_ASSERT_FATAL(open_faked(&o, path, 0, errs[i], &err) == 0);
		CU_ASSERT(write_blocks(&o, 20, &err) == 0);
		CU_ASSERT(sr.calls == 1);
		CU_ASSERT(o.wb_off == 1);
		CU_ASSERT(out_commit(&o, &err) == 0);
		CU_ASSERT(blocks_are(path, 20));
	}
}

/* An I/O error reported by writeback fails the output: fsync would not
 * report it again.  Nothing is left under the name. */
static void test_io_error(void)
{
	const char *path = path_of("eio");
	struct tdat_error err;
	struct outfile o;
	struct stat st;

	CU_ASSERT_FATAL(open_faked(&o, path, 0, EIO, &err) == 0);
	CU_ASSERT(write_blocks(&o, 20, &err) == -1);
	CU_ASSERT(strstr(err.msg, "offset 0: cannot write back: Input/output"
			 " error") != NULL);
	out_abort(&o);
	CU_ASSERT(stat(path, &st) == -1 && errno == ENOENT);
}

/* A piece held unnamed starts the writeback of its tail at commit and
 * is synced when kept; an error there fails the commit. */
static void test_held(void)
{
	const char *path = path_of("held");
	struct tdat_error err;
	struct outfile o;
	struct stat st;

	CU_ASSERT_FATAL(open_faked(&o, path, OUT_UNNAMED_UNTIL_KEPT, 0,
				   &err) == 0);
	CU_ASSERT_FATAL(write_blocks(&o, 10, &err) == 0);
	CU_ASSERT(sr.calls == 1);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(sr.calls == 2 && sr.off[1] == 8 * MIB &&
		  sr.n[1] == 2 * MIB && sr.flags[1] == SYNC_FILE_RANGE_WRITE);
	CU_ASSERT(stat(path, &st) == -1);
	CU_ASSERT(tdat_outputs_keep(&err) == 0);
	CU_ASSERT(blocks_are(path, 10));

	path = path_of("held-eio");
	CU_ASSERT_FATAL(open_faked(&o, path, OUT_UNNAMED_UNTIL_KEPT, 0,
				   &err) == 0);
	CU_ASSERT_FATAL(write_blocks(&o, 2, &err) == 0);
	sr.fail_errno = EIO;
	CU_ASSERT(out_commit(&o, &err) == -1);
	CU_ASSERT(strstr(err.msg, "cannot write back") != NULL);
	CU_ASSERT(tdat_outputs_keep(&err) == 0);
	CU_ASSERT(stat(path, &st) == -1 && errno == ENOENT);
}

/* A scratch file copied into a FIFO at the end is never written back. */
static void test_direct_scratch(void)
{
	struct tdat_error err;
	struct outfile o;
	char fifo[512];
	pid_t pid;

	snprintf(fifo, sizeof(fifo), "%s/outsync-fifo", test_tmpdir());
	unlink(fifo);
	CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {		/* the reader the FIFO needs */
		char buf[65536];
		int fd = open(fifo, O_RDONLY);

		while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	CU_ASSERT_FATAL(open_faked(&o, fifo, 0, 0, &err) == 0);
	CU_ASSERT(write_blocks(&o, 20, &err) == 0);
	CU_ASSERT(sr.calls == 0);
	CU_ASSERT(out_commit(&o, &err) == 0);
	waitpid(pid, NULL, 0);
	unlink(fifo);
}

/* The stand-in for copy_file_range: copies up to allow bytes for real,
 * then fails with copy_errno. */
static struct {
	int calls, copy_errno;
	size_t allow;
} cr;

static ssize_t fake_copy(int in, off_t *in_off, int out, off_t *out_off,
			 size_t n, unsigned flags)
{
	ssize_t c;

	cr.calls++;
	if (!cr.allow) {
		errno = cr.copy_errno;
		return -1;
	}
	c = copy_file_range(in, in_off, out, out_off,
			    n < cr.allow ? n : cr.allow, flags);
	if (c > 0)
		cr.allow -= (size_t)c;
	return c;
}

/* A 20 MiB input of blocks, open for reading. */
static int blocks_input(void)
{
	const char *path = path_of("copy-in");
	struct tdat_error err;
	struct outfile o;

	if (out_open(&o, path, 0, &err) || write_blocks(&o, 20, &err) ||
	    out_commit(&o, &err))
		return -1;
	return open(path, O_RDONLY);
}

/* Refused halfway (EXDEV, another file system): the copied part counts,
 * later calls go by hand, the bytes are the same. */
static void test_copy_refused(void)
{
	const char *path = path_of("copy-out");
	static uint8_t b[MIB];
	struct tdat_error err;
	struct outfile o;
	uint64_t done;
	int in = blocks_input();

	CU_ASSERT_FATAL(in >= 0);
	CU_ASSERT_FATAL(out_open(&o, path, 0, &err) == 0);
	memset(&cr, 0, sizeof(cr));
	cr.allow = 3 * MIB;
	cr.copy_errno = EXDEV;
	o.copy_range = fake_copy;
	CU_ASSERT(out_copy_from(&o, in, 0, 20 * MIB, &done, &err) == 0);
	CU_ASSERT(done == 3 * MIB && o.pos == 3 * MIB && o.no_copy == 1);
	for (; done < 20 * MIB; done += MIB)
		CU_ASSERT(pread(in, b, MIB, (off_t)done) == MIB &&
			  out_write(&o, b, MIB, &err) == 0);
	CU_ASSERT(out_copy_from(&o, in, 0, MIB, &done, &err) == 0);
	CU_ASSERT(done == 0 && cr.calls == 2);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(blocks_are(path, 20));
	close(in);
}

/* A real copy, written back as it goes; an I/O error fails it. */
static void test_copy_real_and_eio(void)
{
	const char *path = path_of("copy-real");
	struct tdat_error err;
	struct outfile o;
	uint64_t done;
	int in = blocks_input();

	CU_ASSERT_FATAL(in >= 0);
	CU_ASSERT_FATAL(open_faked(&o, path, 0, 0, &err) == 0);
	CU_ASSERT(out_copy_from(&o, in, 0, 20 * MIB, &done, &err) == 0);
	CU_ASSERT(done == 20 * MIB && o.no_copy == 0);
	CU_ASSERT(sr.calls >= 2);	/* 8 and 16 MiB written back */
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(blocks_are(path, 20));

	CU_ASSERT_FATAL(out_open(&o, path, 0, &err) == 0);
	memset(&cr, 0, sizeof(cr));
	cr.copy_errno = EIO;
	o.copy_range = fake_copy;
	CU_ASSERT(out_copy_from(&o, in, 0, MIB, &done, &err) == -1);
	CU_ASSERT(strstr(err.msg, "write error: Input/output error") != NULL);
	out_abort(&o);
	close(in);
}

/* A fixture's CPU streams through tdat_writer_put_file_pages, with
 * copy_file_range refused after refuse_after bytes (or never): the file
 * written.  0, or -1. */
static int write_file_pages(const char *out, size_t refuse_after,
			    int never)
{
	struct tdat_write_opts wo = { .version = 6 };
	struct tdat_error err;
	struct tdat_writer *w;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"),
					&err);
	int b, i, r = 0;

	if (!f)
		return -1;
	w = tdat_writer_open(out, f, &wo, &err);
	memset(&cr, 0, sizeof(cr));
	cr.allow = refuse_after;
	cr.copy_errno = EXDEV;
	if (w && !never)
		w->out.copy_range = fake_copy;
	for (b = 0; w && !r && b < f->nbuffers; b++)
		for (i = 0; !r && i < f->buffers[b].ncpus; i++) {
			const struct tdat_cpu *c = &f->buffers[b].cpus[i];

			r = tdat_writer_begin_cpu(w, b, c->cpu, &err) ||
			    tdat_writer_put_file_pages(w, f, c->offset,
						       c->size, &err) ||
			    tdat_writer_end_cpu(w, &err);
		}
	r = !w || r || tdat_writer_close(w, &err) ? -1 : 0;
	tdat_close(f);
	return r;
}

static int same_files(const char *a, const char *b)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

static void test_writer_file_pages(void)
{
	char a[512], b[512];

	snprintf(a, sizeof(a), "%s", path_of("pages-copied.dat"));
	snprintf(b, sizeof(b), "%s", path_of("pages-by-hand.dat"));
	CU_ASSERT_FATAL(write_file_pages(a, 0, 1) == 0);
	CU_ASSERT_FATAL(write_file_pages(b, 4096 * 3, 0) == 0);
	CU_ASSERT(cr.calls >= 2);	/* copied, then refused */
	CU_ASSERT(same_files(a, b));
	/* and as the engines wrote it before: convert's copy, v6 to v6 */
	CU_ASSERT(same_files(a, fixture("v6-sched-irq.dat")));
}

void suite_outsync(void)
{
	CU_pSuite s = CU_add_suite("outsync", NULL, NULL);

	CU_add_test(s, "ranges written back behind the writer", test_ranges);
	CU_add_test(s, "no sync_file_range: fsync alone", test_unsupported);
	CU_add_test(s, "an I/O error fails the output", test_io_error);
	CU_add_test(s, "held pieces synced when kept", test_held);
	CU_add_test(s, "a FIFO's scratch file not written back",
		    test_direct_scratch);
	CU_add_test(s, "copy_file_range refused halfway: by hand",
		    test_copy_refused);
	CU_add_test(s, "copy_file_range copies; an I/O error fails",
		    test_copy_real_and_eio);
	CU_add_test(s, "the writer's file pages, copied or by hand",
		    test_writer_file_pages);
}
