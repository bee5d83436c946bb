/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syncer.c - puts what the readers wrote on disk as the recording goes
 * (--flush-interval), so that a machine that dies while recording (a
 * panic, a power cut) leaves every event older than about the interval.
 *
 * The readers only pwrite(): their files live in the page cache, which
 * the kernel writes back after half a minute or so, and a dead machine
 * takes that with it.  A thread of its own calls fdatasync() on every
 * reader's file each half interval (the readers wake at least as often,
 * taking the page the kernel is filling), so the readers never wait on
 * the disk; the directory is synced once first, for the files' names.
 * A file whose size and modification time have not changed since its
 * last sync is left alone (an idle CPU's: ext4 would still flush the
 * disk's cache for it).
 *
 * Each tick is a round: the readers are asked to take what the kernel
 * has at that moment (readers_round), the files are synced, and only
 * then are the sizes of that moment written to OUT.rec/synced (rounds.c):
 * after a power cut every file holds at least those bytes, and restore
 * cuts them there, a common end for all CPUs.  A round a reader did not
 * answer in time is synced but not written down.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/record/record_internal.h"

/* A file as it was when last synced. */
struct synced {
	off_t size;
	struct timespec mtime;
};

struct syncer {
	int n;
	int *fds;		/* the readers' files, opened again here */
	struct synced *last;
	const struct reader_spec *specs;
	struct readers *rd;
	struct rounds *rounds;	/* OUT.rec/synced */
	uint64_t *sizes;	/* the readers' file sizes at this round */
	uint64_t *put;		/* the sizes last written to synced */
	uint64_t round;
	long answer_ms;		/* how long readers may take to answer */
	int stop[2];		/* written once: the thread ends */
	struct timespec tick;	/* half the interval */
	pthread_t thread;
	int started;
	int unsupported;	/* the file system cannot sync: stopped */
	int failed;
	struct tdat_error err;
};

/* 1 when file i changed since its last sync (or cannot be told). */
static int changed(struct syncer *s, int i)
{
	struct synced *l = &s->last[i];
	struct stat st;

	if (fstat(s->fds[i], &st))
		return 1;
	if (st.st_size == l->size && st.st_mtim.tv_sec == l->mtime.tv_sec &&
	    st.st_mtim.tv_nsec == l->mtime.tv_nsec)
		return 0;
	/* what the sync will cover at least: later writes change these */
	l->size = st.st_size;
	l->mtime = st.st_mtim;
	return 1;
}

/* One round over every file: 0, or -1 with the error kept. */
static int sync_round(struct syncer *s)
{
	int i, asked = readers_round(s->rd, s->answer_ms, s->sizes) == 0;

	for (i = 0; i < s->n; i++) {
		if (!changed(s, i) || !fdatasync(s->fds[i]))
			continue;
		if (errno == EINVAL || errno == EROFS) {
			s->unsupported = 1;	/* no sync here, ever */
			return 0;
		}
		return tdat_errorf(&s->err, "%s: cannot put on disk: %s",
				   s->specs[i].path, strerror(errno));
	}
	if (!asked || !memcmp(s->put, s->sizes, (size_t)s->n * sizeof(*s->put)))
		return 0;	/* no round, or nothing new since the last */
	memcpy(s->put, s->sizes, (size_t)s->n * sizeof(*s->put));
	return rounds_put(s->rounds, ++s->round, s->sizes, &s->err);
}

static void *syncer_main(void *arg)
{
	struct syncer *s = arg;
	struct pollfd p = { s->stop[0], POLLIN, 0 };
	int r;

	while (!s->unsupported) {
		r = ppoll(&p, 1, &s->tick, NULL);
		if (r > 0)
			return NULL;	/* stopped: record writes OUT itself */
		if (r < 0 && errno != EINTR) {
			tdat_errorf(&s->err, "syncer: poll: %s",
				    strerror(errno));
			break;
		}
		if (sync_round(s))
			break;
	}
	if (s->unsupported)
		return NULL;
	s->failed = 1;
	kill(getpid(), SIGUSR1);	/* the main thread stops the recording */
	return NULL;
}

/* The directory's entries (the readers' files were just made in it). */
static int sync_dir(const char *dir, struct tdat_error *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return tdat_errorf(err, "%s: cannot open: %s", dir,
				   strerror(errno));
	if (fsync(fd) && errno != EINVAL && errno != EROFS)
		e = errno;
	close(fd);
	return e ? tdat_errorf(err, "%s: cannot put on disk: %s", dir,
			       strerror(e)) : 0;
}

static int open_files(struct syncer *s, struct tdat_error *err)
{
	int i;

	for (i = 0; i < s->n; i++) {
		s->fds[i] = open(s->specs[i].path, O_RDONLY | O_NOFOLLOW |
				 O_CLOEXEC);
		if (s->fds[i] < 0)
			return tdat_errorf(err, "%s: cannot open: %s",
					   s->specs[i].path, strerror(errno));
	}
	return 0;
}

struct syncer *syncer_start(const char *dir, const struct reader_spec *specs,
			    int n, struct readers *rd, long interval_ms,
			    struct tdat_error *err)
{
	struct syncer *s = calloc(1, sizeof(*s));
	long half = interval_ms / 2 > 0 ? interval_ms / 2 : 1;
	size_t m = n ? (size_t)n : 1;
	int i, e;

	if (!s || !(s->fds = malloc(m * sizeof(int))) ||
	    !(s->last = calloc(m, sizeof(*s->last))) ||
	    !(s->sizes = calloc(m, sizeof(*s->sizes))) ||
	    !(s->put = calloc(m, sizeof(*s->put)))) {
		if (s) {
			free(s->fds);
			free(s->last);
			free(s->sizes);
		}
		free(s);
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	s->n = n;
	s->specs = specs;
	s->rd = rd;
	s->answer_ms = half;
	s->stop[0] = s->stop[1] = -1;
	for (i = 0; i < n; i++)
		s->fds[i] = -1;
	s->tick.tv_sec = half / 1000;
	s->tick.tv_nsec = half % 1000 * 1000000;
	/* synced is made before the directory's one sync: its name too */
	if (!(s->rounds = rounds_open(dir, specs, n, err)) ||
	    sync_dir(dir, err) || open_files(s, err))
		goto fail;
	if (pipe2(s->stop, O_CLOEXEC)) {
		tdat_errorf(err, "pipe: %s", strerror(errno));
		goto fail;
	}
	e = pthread_create(&s->thread, NULL, syncer_main, s);
	if (e) {
		tdat_errorf(err, "cannot start the syncer thread: %s",
			    strerror(e));
		goto fail;
	}
	s->started = 1;
	return s;
fail:
	syncer_stop(s, NULL, &(struct tdat_error){ 0 });
	return NULL;
}

int syncer_stop(struct syncer *s, int *unsupported, struct tdat_error *err)
{
	int i, r = 0;

	if (!s)
		return 0;
	if (unsupported)
		*unsupported = s->unsupported;
	if (s->started) {
		/* one byte nobody reads: the poll sees it */
		if (write(s->stop[1], "x", 1) != 1)
			tdat_errorf(err, "syncer: stop pipe: %s",
				    strerror(errno));
		pthread_join(s->thread, NULL);
	}
	if (s->failed) {
		*err = s->err;
		r = -1;
	}
	for (i = 0; i < s->n; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	if (s->stop[0] >= 0)
		close(s->stop[0]);
	if (s->stop[1] >= 0)
		close(s->stop[1]);
	rounds_close(s->rounds);
	free(s->fds);
	free(s->last);
	free(s->sizes);
	free(s->put);
	free(s);
	return r;
}
