/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_setup.c - get tracefs ready for a recording, in trace-cmd
 * record's order, in two steps around the --date measurement:
 *
 *   rec_tracefs_prepare  -d/-D, --cmdlines-size; per buffer: instance,
 *                        tracing off, clock, sizes, CPU mask, wakeups
 *   rec_tracefs_arm      per buffer: function filters, events (filters,
 *                        triggers), tracer, trace options, graph depth,
 *                        process filters; the old data cleared
 *
 * Every file is changed through rec_set (tracefs_save.c), which keeps
 * what it held for rec_tracefs_restore.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

/* How much of the ring buffer must fill before a waiting reader wakes:
 * the kernel's default, set since a user may have changed it.  A wake
 * costs a context switch and a round of reads, and a half-full buffer
 * leaves the reader the other half to catch up.  Against 10, measured
 * with bench/record.sh at -b 256: 0.7x the recorder's CPU, no more
 * events lost, and fewer with both CPUs busy (wakes compete with the
 * traced work). */
#define REC_BUFFER_PERCENT "50"
#define FTRACE_ENABLED_DIR "/proc/sys/kernel"

int rec_is_latency_tracer(const char *tracer)
{
	static const char *const latency[] = {
		"irqsoff", "preemptoff", "preemptirqsoff", "wakeup",
		"wakeup_rt",
	};
	size_t i;

	for (i = 0; tracer && i < sizeof(latency) / sizeof(latency[0]); i++)
		if (!strcmp(tracer, latency[i]))
			return 1;
	return 0;
}

int rec_recorded(const struct record_opts *o, int i)
{
	return i > 0 || o->bufs[0].nevents > 0 || o->bufs[0].tracer;
}

/* dir/file made to read want: written (and saved) only if it differs,
 * so that a file the kernel will not let us write is left alone when
 * it is right already. */
static int ensure(struct rec_tracefs *t, const char *dir, const char *file,
		  const char *want, struct tdat_error *err)
{
	struct tdat_blob now;
	int same;

	if (tfs_read(dir, file, &now, err))
		return -1;
	same = !strncmp((char *)now.data, want, strlen(want)) &&
	       (now.data[strlen(want)] == '\n' || !now.data[strlen(want)]);
	free(now.data);
	return same ? 0 : rec_set(t, dir, file, want, err);
}

/* -d, -D; and a tracer gets the function tracer on, as trace-cmd
 * makes sure. */
static int function_tracing(struct rec_tracefs *t, const struct record_opts *o,
			    struct tdat_error *err)
{
	const char *want = o->ftrace_off ? "0" : "1";
	const char *who = o->ftrace_off == REC_FTRACE_OFF_ALL ? "-D" :
			  o->ftrace_off ? "-d" : "-p";
	int i, tracer = 0, opt = tfs_exists(t->top, "options/function-trace");

	for (i = 0; i < o->nbufs; i++)
		tracer |= o->bufs[i].tracer != NULL;
	if (!o->ftrace_off && !tracer)
		return 0;
	if ((opt && ensure(t, t->top, "options/function-trace", want, err)) ||
	    ((!opt || o->ftrace_off != REC_FTRACE_OFF_OPT) &&
	     tfs_exists(FTRACE_ENABLED_DIR, "ftrace_enabled") &&
	     ensure(t, FTRACE_ENABLED_DIR, "ftrace_enabled", want, err)))
		return rec_because(err, "%s: the kernel refused it", who);
	return 0;
}

static int prepare_buffer(struct rec_tracefs *t, const struct record_opts *o,
			  const struct rec_buf_opts *b, struct tdat_error *err)
{
	char dir[PATH_MAX], num[32];

	if (b->name[0] && rec_use_instance(t, b->name, err))
		return -1;
	if (rec_buffer_dir(t, b->name, dir, sizeof(dir), err) ||
	    rec_set(t, dir, "tracing_on", "0", err))
		return -1;
	if (o->clock && rec_set(t, dir, "trace_clock", o->clock, err))
		return rec_because(err, "-C %s: the kernel has no such clock",
				   o->clock);
	if (o->subbuf_kb) {
		if (!tfs_exists(dir, "buffer_subbuf_size_kb"))
			return tdat_errorf(err, "--subbuf-size: this kernel has"
					   " no %s/buffer_subbuf_size_kb", dir);
		snprintf(num, sizeof(num), "%ld", o->subbuf_kb);
		if (rec_set(t, dir, "buffer_subbuf_size_kb", num, err))
			return -1;
	}
	if (o->buffer_kb) {
		snprintf(num, sizeof(num), "%ld", o->buffer_kb);
		if (rec_set(t, dir, "buffer_size_kb", num, err))
			return -1;
	}
	if (o->cpumask && rec_set(t, dir, "tracing_cpumask", o->cpumask, err))
		return -1;
	if (tfs_exists(dir, "buffer_percent") &&
	    rec_try_own(t, dir, "buffer_percent", REC_BUFFER_PERCENT,
			"readers wake as the kernel's setting says", err) < 0)
		return -1;
	return 0;
}

int rec_tracefs_prepare(struct rec_tracefs *t, const struct record_opts *o,
			struct tdat_error *err)
{
	char num[32];
	int i;

	if (function_tracing(t, o, err))
		return -1;
	if (o->cmdlines_size) {
		snprintf(num, sizeof(num), "%ld", o->cmdlines_size);
		if (rec_set(t, t->top, "saved_cmdlines_size", num, err))
			return rec_because(err, "--cmdlines-size %ld: the kernel"
					   " refused it", o->cmdlines_size);
	}
	for (i = 0; i < o->nbufs; i++)
		if (rec_recorded(o, i) && prepare_buffer(t, o, &o->bufs[i], err))
			return -1;
	return 0;
}

int rec_tracing_on(struct rec_tracefs *t, const struct record_opts *o,
		   int on, struct tdat_error *err)
{
	char dir[PATH_MAX];
	int i;

	for (i = 0; i < o->nbufs; i++) {
		if (!rec_recorded(o, i))
			continue;
		if (rec_buffer_dir(t, o->bufs[i].name, dir, sizeof(dir), err) ||
		    tfs_write(dir, "tracing_on", on ? "1" : "0", err))
			return -1;
	}
	return 0;
}
