/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * date.c - record --date: how the trace clock maps to the wall clock,
 * measured as trace-cmd does.  With tracing on, "stamp" goes into
 * trace_marker between two readings of CLOCK_REALTIME; the marker's
 * timestamp, found in the ring buffer, is taken to be the middle of
 * the two.  The try whose readings are closest wins.  The thread stays
 * on one CPU meanwhile, so the marker is in that CPU's ring buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

#define DATE_TRIES 10

struct date_probe {
	const struct tdat_file *m;
	const char *dir;
	int marker;		/* trace_marker */
	int raw;		/* this CPU's trace_pipe_raw */
	unsigned print_id;	/* ftrace:print, the marker's event */
	uint8_t *page;
};

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* The timestamp of the "stamp" marker in the page read, or 0. */
static uint64_t find_stamp(struct date_probe *p)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	ssize_t n = read(p->raw, p->page, p->m->page_size);

	if (n <= 0 || tdat_page_iter_init(&it, p->m, p->page, p->m->page_size))
		return 0;
	while (tdat_page_iter_next(&it, &ev) == 1)
		if (ev.size >= 2 && tdat_get16(p->m, ev.data) == p->print_id &&
		    memmem(ev.data, ev.size, "stamp", 5))
			return ev.ts;
	return 0;
}

/* One try: 0 with the marker's time and the wall clock's, -1 on a
 * tracefs error, 1 when the marker was not found. */
static int one_try(struct date_probe *p, uint64_t *ts, uint64_t *wall,
		   uint64_t *spread, struct tdat_error *err)
{
	struct timespec a, b;
	ssize_t w;

	if (tfs_write_trunc(p->dir, "trace", "", err) ||
	    tfs_write(p->dir, "tracing_on", "1", err))
		return -1;
	clock_gettime(CLOCK_REALTIME, &a);
	w = write(p->marker, "stamp", 5);
	clock_gettime(CLOCK_REALTIME, &b);
	if (tfs_write(p->dir, "tracing_on", "0", err))
		return -1;
	if (w != 5)
		return tdat_errorf(err, "%s/trace_marker: cannot write: %s",
				   p->dir, strerror(errno));
	*ts = find_stamp(p);
	*spread = ns(&b) - ns(&a);
	*wall = ns(&b) - *spread / 2;
	return *ts ? 0 : 1;
}

static int open_probe(struct date_probe *p, int cpu, struct tdat_error *err)
{
	char path[PATH_MAX];
	struct tdat_blob id;

	if (tfs_read(p->dir, "events/ftrace/print/id", &id, err))
		return -1;
	p->print_id = (unsigned)strtoul((char *)id.data, NULL, 10);
	free(id.data);
	snprintf(path, sizeof(path), "%s/trace_marker", p->dir);
	p->marker = open(path, O_WRONLY | O_CLOEXEC);
	if (p->marker < 0)
		return tdat_errorf(err, "--date: %s: cannot open: %s", path,
				   strerror(errno));
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", p->dir,
		 cpu);
	p->raw = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->raw < 0)
		return tdat_errorf(err, "--date: %s: cannot open: %s", path,
				   strerror(errno));
	p->page = malloc(p->m->page_size);
	return p->page ? 0 : tdat_errorf(err, "out of memory");
}

static int best_of_tries(struct date_probe *p, long long *usecs,
			 struct tdat_error *err)
{
	uint64_t ts = 0, wall = 0, spread = 0, best = UINT64_MAX;
	int i, r;

	for (i = 0; i < DATE_TRIES; i++) {
		r = one_try(p, &ts, &wall, &spread, err);
		if (r < 0)
			return -1;
		if (!r && spread < best) {
			best = spread;
			*usecs = (long long)((wall - ts) / 1000);
		}
	}
	if (best == UINT64_MAX)
		return tdat_errorf(err, "--date: the marker written to"
				   " %s/trace_marker did not show up in the"
				   " ring buffer", p->dir);
	return tfs_write_trunc(p->dir, "trace", "", err);
}

int rec_date_offset(const char *dir, const struct tdat_file *m,
		    long long *usecs, struct tdat_error *err)
{
	struct date_probe p = { m, dir, -1, -1, 0, NULL };
	cpu_set_t old, one;
	int cpu = sched_getcpu(), r;

	if (cpu < 0 || sched_getaffinity(0, sizeof(old), &old))
		return tdat_errorf(err, "--date: which CPU am I on: %s",
				   strerror(errno));
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return tdat_errorf(err, "--date: cannot stay on CPU %d: %s",
				   cpu, strerror(errno));
	r = open_probe(&p, cpu, err);
	if (!r)
		r = best_of_tries(&p, usecs, err);
	sched_setaffinity(0, sizeof(old), &old);
	if (p.marker >= 0)
		close(p.marker);
	if (p.raw >= 0)
		close(p.raw);
	free(p.page);
	return r;
}
