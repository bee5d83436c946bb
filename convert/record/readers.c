/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readers.c - one thread per CPU stream moves ring-buffer pages from
 * per_cpu/cpuN/trace_pipe_raw into a file of OUT.rec/.
 *
 * A reader sleeps in poll(), which the kernel wakes once buffer_percent
 * of the ring buffer is full (tracefs_setup.c sets it), or after
 * REC_READER_SLEEP_US (-s, or half --flush-interval) at the latest, so
 * that pages reach the file soon even when events are rare (syncer.c
 * then puts them on disk: what a crash leaves is recent).  With --poll
 * the kernel never wakes a reader: it looks every -s.
 *
 * Pages come out through readv(), a page per iovec, into a batch that
 * one pwrite() puts in the file.  Not splice: for every page it moves,
 * the kernel takes a fresh zeroed page to put back in the ring buffer,
 * and that zeroing cost more than the copies of read() (bench/record.sh
 * at -b 256: 28.6 -> 24.6 ms per 100 000 events; a fresh page is slow
 * on virtual machines); read() swaps full pages with the one spare page
 * it keeps.  read() also takes the page the kernel is still filling, as
 * a partial page, so a round asks first for one page fewer than the
 * last round found full, then for one page a call, and stops at the
 * first page that is not nearly full: it does not chase the writer
 * event by event.  (A read() a page instead of the readv: 25.2 against
 * 24.4 ms, a system call a page and the traced syscall events each
 * makes.)
 *
 * Files only ever grow by whole pages (a crash can cut the last one).
 *
 * Rounds (readers_round, for syncer.c): every reader is woken at once,
 * takes what the kernel has, the page it is filling too, and tells how
 * long its file is then: sizes of one moment for all CPUs, which the
 * syncer puts on disk together, so that a dead machine's files can be
 * cut at a common end (no CPU's last events missing while another's
 * later ones are kept).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>
#include "convert/record/record_internal.h"

#define BATCH_PAGES 64
/* Readers use little CPU but must run soon after they wake, or the
 * kernel overwrites pages on a busy machine: a higher weight (when
 * allowed: root) shortens that wait. */
#define READER_NICE (-10)

struct stream {
	struct readers *rs;
	const struct reader_spec *spec;
	char raw_path[PATH_MAX];
	int raw;		/* trace_pipe_raw, non-blocking */
	uint8_t *batch;		/* BATCH_PAGES pages read, to be written */
	int expect;		/* pages the last round found full */
	int out;
	uint64_t pos;		/* bytes in the file */
	uint64_t written;	/* bytes moved in all, including dropped */
	int limit_off;		/* -m cannot cut this file system's files */
	int round_fd;		/* eventfd: a round is asked for */
	uint64_t acked;		/* the last round done (under rs->mu) */
	uint64_t acked_pos;	/* pos then */
	pthread_t thread;
	int started;
	int failed;
	struct tdat_error err;
};

struct readers {
	int n;
	struct stream *s;
	int stop[2];		/* written once: every reader drains and ends */
	uint64_t max_bytes;
	struct timespec sleep;	/* the longest sleep */
	int poll;		/* --poll: not woken by the kernel */
	int rt_prio;		/* -r */
	const struct tdat_file *layout;	/* the pages' header layout */
	pthread_mutex_t mu;	/* round, each stream's acked */
	pthread_cond_t acked;
	uint64_t round;		/* the last round asked for */
};

/* -m: drop the oldest pages once the file is a quarter over the limit. */
static int keep_limit(struct stream *s)
{
	uint64_t max = s->rs->max_bytes, page = s->spec->page_size, drop;

	if (!max || s->limit_off || s->pos < max + max / 4 + page)
		return 0;
	drop = (s->pos - max + page - 1) / page * page;
	if (fallocate(s->out, FALLOC_FL_COLLAPSE_RANGE, 0, (off_t)drop)) {
		if (errno == EOPNOTSUPP || errno == EINVAL) {
			s->limit_off = 1;	/* reported at the end */
			return 0;
		}
		return tdat_errorf(&s->err, "%s: cannot drop old pages: %s",
			    s->spec->path, strerror(errno));
	}
	s->pos -= drop;
	return 0;
}

/* The n bytes of batch to the end of the file. */
static int batch_to_file(struct stream *s, size_t n)
{
	const uint8_t *p = s->batch;
	ssize_t w;

	while (n) {
		w = pwrite(s->out, p, n, (off_t)s->pos);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return tdat_errorf(&s->err, "%s: cannot write: %s",
				    s->spec->path,
				    w < 0 ? strerror(errno) : "no progress");
		p += w;
		n -= (size_t)w;
		s->pos += (uint64_t)w;
		s->written += (uint64_t)w;
	}
	return keep_limit(s);
}

enum page_kind { PAGE_EMPTY, PAGE_PARTIAL, PAGE_FULL };

/*
 * What read() gave.  A page whose events end more than an eighth of the
 * page before its end was (most likely) the one the kernel was filling.
 * A partial page can hold no event at all (only the padding of events
 * the filters dropped, or a time stamp): not worth a place in the file
 * unless it says events were lost.
 */
static enum page_kind page_kind(const struct stream *s, const uint8_t *page)
{
	uint32_t size = s->spec->page_size;
	struct tdat_page_iter it;
	struct tdat_event ev;

	if (tdat_page_iter_init(&it, s->rs->layout, page, size))
		return PAGE_PARTIAL;	/* kept as it came; stop here */
	if (it.end + size / 8 >= size)
		return PAGE_FULL;
	if (!it.missed && tdat_page_iter_next(&it, &ev) == 0)
		return PAGE_EMPTY;
	return PAGE_PARTIAL;
}

/*
 * Up to count pages into the batch at have, in one call (readv: the
 * kernel reads a page per iovec and stops early when it has no more).
 * The number of pages read, 0 when none now, -1 on error.
 */
static int read_pages(struct stream *s, size_t have, int count)
{
	size_t page = s->spec->page_size;
	struct iovec iov[BATCH_PAGES];
	ssize_t n;
	int i;

	for (i = 0; i < count; i++) {
		iov[i].iov_base = s->batch + have + (size_t)i * page;
		iov[i].iov_len = page;
	}
	do
		n = readv(s->raw, iov, count);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EAGAIN)
		return 0;
	if (n < 0)
		return tdat_errorf(&s->err, "%s: cannot read: %s", s->raw_path,
			    strerror(errno));
	if ((size_t)n % page)
		memset(s->batch + have + (size_t)n, 0,
		       page - (size_t)n % page);
	return (int)(((size_t)n + page - 1) / page);
}

/*
 * Classify the got pages just read at have, leaving out the empty ones.
 * The pages kept; *full counts those that came full until the first
 * that was not, which sets *partial.
 */
static int keep_pages(struct stream *s, size_t have, int got, int *full,
		      int *partial)
{
	size_t page = s->spec->page_size;
	uint8_t *p = s->batch + have;
	enum page_kind kind;
	int i, kept = 0;

	for (i = 0; i < got; i++) {
		kind = page_kind(s, p + (size_t)i * page);
		if (kind != PAGE_FULL)
			*partial = 1;
		else if (!*partial)
			(*full)++;
		if (kind == PAGE_EMPTY)
			continue;
		if (kept != i)
			memmove(p + (size_t)kept * page, p + (size_t)i * page,
				page);
		kept++;
	}
	return kept;
}

/* A read failed: the pages already taken from the kernel still go to
 * the file (restore can use them); the read's error is the one kept. */
static int keep_read(struct stream *s, size_t have)
{
	struct tdat_error e = s->err;

	if (have)
		batch_to_file(s, have);
	s->err = e;
	return -1;
}

/*
 * The pages the kernel has now; until the first that is not nearly
 * full, or with all (tracing is off) every one.  The first call asks
 * for one page fewer than the last round found full (so it hardly ever
 * reaches the kernel's own page), the next ones for a page each.
 */
static int move_pages(struct stream *s, int all)
{
	size_t page = s->spec->page_size, have = 0;
	int got, full = 0, partial = 0;
	int count = s->expect > 2 ? s->expect - 1 : 1;

	for (;;) {
		if ((size_t)count > BATCH_PAGES - have / page)
			count = (int)(BATCH_PAGES - have / page);
		got = read_pages(s, have, count);
		if (got < 0)
			return keep_read(s, have);
		have += (size_t)keep_pages(s, have, got, &full, &partial) *
			page;
		if (have && (!got || partial || have == BATCH_PAGES * page)) {
			if (batch_to_file(s, have))
				return -1;
			have = 0;
		}
		if (!got || (partial && !all))
			break;
		count = 1;
	}
	if (full)
		s->expect = full;
	return 0;
}

/* A round was asked for: take what the kernel has, then say so. */
static int do_round(struct stream *s)
{
	struct readers *rs = s->rs;
	uint64_t want, v;
	int r;

	if (read(s->round_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return tdat_errorf(&s->err, "round: %s", strerror(errno));
	pthread_mutex_lock(&rs->mu);
	want = rs->round;
	pthread_mutex_unlock(&rs->mu);
	r = move_pages(s, 0);
	pthread_mutex_lock(&rs->mu);
	if (!r) {
		s->acked = want;
		s->acked_pos = s->pos;
	}
	pthread_cond_broadcast(&rs->acked);
	pthread_mutex_unlock(&rs->mu);
	return r;
}

static void *reader_main(void *arg)
{
	struct stream *s = arg;
	struct pollfd p[3];
	int r;

	if (!s->rs->rt_prio)	/* best effort */
		setpriority(PRIO_PROCESS, (id_t)gettid(), READER_NICE);
	for (;;) {
		/* p[1] is the stop pipe: with --poll, p[0] is ignored */
		p[0].fd = s->rs->poll ? -1 : s->raw;
		p[0].events = POLLIN;
		p[1].fd = s->rs->stop[0];
		p[1].events = POLLIN;
		p[2].fd = s->round_fd;
		p[2].events = POLLIN;
		r = ppoll(p, 3, &s->rs->sleep, NULL);
		if (r < 0 && errno != EINTR) {
			tdat_errorf(&s->err, "%s: poll: %s", s->raw_path,
			     strerror(errno));
			break;
		}
		if (r > 0 && p[1].revents) {
			if (move_pages(s, 1))
				break;
			return NULL;
		}
		if (r > 0 && p[2].revents) {
			if (do_round(s))
				break;
			continue;
		}
		if (move_pages(s, 0))
			break;
	}
	s->failed = 1;
	kill(getpid(), SIGUSR1);	/* the main thread stops the recording */
	return NULL;
}

static int open_stream(struct stream *s, struct tdat_error *err)
{
	const struct reader_spec *sp = s->spec;

	if (snprintf(s->raw_path, sizeof(s->raw_path), "%s/per_cpu/cpu%d/%s",
		     sp->dir, sp->cpu,
		     sp->raw_name ? sp->raw_name : "trace_pipe_raw") >=
	    (int)sizeof(s->raw_path))
		return tdat_errorf(err, "%s: path too long", sp->dir);
	s->raw = open(s->raw_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->raw < 0)
		return tdat_errorf(err, "%s: cannot open: %s", s->raw_path,
			    strerror(errno));
	s->round_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->round_fd < 0)
		return tdat_errorf(err, "eventfd: %s", strerror(errno));
	s->batch = malloc((size_t)BATCH_PAGES * sp->page_size);
	if (!s->batch)
		return tdat_errorf(err, "out of memory");
	/* a new file in the new OUT.rec/: nothing planted is followed */
	s->out = open(sp->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0644);
	if (s->out < 0)
		return tdat_errorf(err, "%s: cannot create: %s", sp->path,
			    strerror(errno));
	return 0;
}

static void close_stream(struct stream *s)
{
	if (s->raw >= 0)
		close(s->raw);
	if (s->out >= 0)
		close(s->out);
	if (s->round_fd >= 0)
		close(s->round_fd);
	s->raw = s->out = s->round_fd = -1;
	free(s->batch);
	s->batch = NULL;
}

/* -r: the thread runs SCHED_FIFO at prio. */
static int realtime(pthread_t th, int prio, struct tdat_error *err)
{
	struct sched_param sp = { .sched_priority = prio };
	int e;

	if (!prio)
		return 0;
	e = pthread_setschedparam(th, SCHED_FIFO, &sp);
	return e ? tdat_errorf(err, "-r %d: cannot run the readers SCHED_FIFO:"
			       " %s", prio, strerror(e)) : 0;
}

/* The syncer waits for answers on the monotonic clock: a step of the
 * wall clock (NTP, a date set by hand) must not stall the syncs. */
static void init_round_sync(struct readers *r)
{
	pthread_condattr_t a;

	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&r->acked, &a);
	pthread_condattr_destroy(&a);
}

struct readers *readers_start(const struct reader_spec *specs, int n,
			      const struct reader_opts *ro,
			      struct tdat_error *err)
{
	long us = ro->sleep_us < 0 ? REC_READER_SLEEP_US : ro->sleep_us;
	struct readers *r = calloc(1, sizeof(*r));
	int i, e;

	if (!r || !(r->s = calloc(n ? (size_t)n : 1, sizeof(*r->s)))) {
		free(r);
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	r->n = n;
	r->max_bytes = ro->max_bytes;
	r->sleep.tv_sec = us / 1000000;
	r->sleep.tv_nsec = us % 1000000 * 1000;
	r->poll = ro->poll;
	r->rt_prio = ro->rt_prio;
	r->layout = ro->layout;
	r->stop[0] = r->stop[1] = -1;
	for (i = 0; i < n; i++) {
		r->s[i].rs = r;
		r->s[i].spec = &specs[i];
		r->s[i].raw = r->s[i].out = r->s[i].round_fd = -1;
	}
	init_round_sync(r);
	if (pipe2(r->stop, O_CLOEXEC)) {
		tdat_errorf(err, "pipe: %s", strerror(errno));
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (open_stream(&r->s[i], err))
			goto fail;
	for (i = 0; i < n; i++) {
		e = pthread_create(&r->s[i].thread, NULL, reader_main,
				   &r->s[i]);
		if (e) {
			tdat_errorf(err, "cannot start a reader thread: %s",
			     strerror(e));
			goto fail;
		}
		r->s[i].started = 1;
		if (realtime(r->s[i].thread, ro->rt_prio, err))
			goto fail;
	}
	return r;
fail:
	readers_stop(r, &(struct tdat_error){ 0 });
	readers_free(r);
	return NULL;
}

int readers_stop(struct readers *r, struct tdat_error *err)
{
	int i, bad = 0;

	/* One byte that nobody reads: every reader's poll sees it. */
	if (r->stop[1] >= 0 && write(r->stop[1], "x", 1) != 1)
		tdat_errorf(err, "stop pipe: %s", strerror(errno));
	for (i = 0; i < r->n; i++) {
		struct stream *s = &r->s[i];

		if (s->started) {
			pthread_join(s->thread, NULL);
			s->started = 0;
		}
		close_stream(s);
		if (s->failed && !bad) {
			*err = s->err;
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* 1 when every reader has done round (under r->mu). */
static int all_acked(const struct readers *r, uint64_t round)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].acked != round)
			return 0;
	return 1;
}

int readers_round(struct readers *r, long timeout_ms, uint64_t *pos)
{
	const uint64_t one = 1;
	struct timespec until;
	uint64_t round;
	int i, e = 0;

	pthread_mutex_lock(&r->mu);
	round = ++r->round;
	pthread_mutex_unlock(&r->mu);
	for (i = 0; i < r->n; i++)
		if (write(r->s[i].round_fd, &one, sizeof(one)) < 0)
			return 1;	/* a reader's end: no round */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += timeout_ms % 1000 * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&r->mu);
	while (!all_acked(r, round) && e != ETIMEDOUT)
		e = pthread_cond_timedwait(&r->acked, &r->mu, &until);
	e = !all_acked(r, round);
	for (i = 0; !e && i < r->n; i++)
		pos[i] = r->s[i].acked_pos;
	pthread_mutex_unlock(&r->mu);
	return e;
}

uint64_t readers_bytes(const struct readers *r, int i)
{
	return r->s[i].pos;
}

int readers_limit_failed(const struct readers *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].limit_off)
			return 1;
	return 0;
}

void readers_free(struct readers *r)
{
	if (!r)
		return;
	if (r->stop[0] >= 0)
		close(r->stop[0]);
	if (r->stop[1] >= 0)
		close(r->stop[1]);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->acked);
	free(r->s);
	free(r);
}
