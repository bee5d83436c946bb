/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_arm.c - the second step of the setup (tracefs_setup.c has the
 * first): per buffer, trace-cmd's order: function filters (-l, -n, -g),
 * events (tracefs_events.c), tracer (-p), trace options (-O, -T, -c,
 * --func-stack), --max-graph-depth, then the process filters (-F, -P)
 * last, and the ring buffer emptied.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"
#include "libfmt/bytes.h"

/* A function list file: emptied, then each name written (as trace-cmd,
 * one write a name). */
static int set_funcs(struct rec_tracefs *t, const char *dir,
		     const char *file, const struct rec_words *w, char opt,
		     struct tdat_error *err)
{
	int i;

	if (!w->n)
		return 0;
	if (!tfs_exists(dir, file))
		return tdat_errorf(err, "-%c %s: this kernel has no %s/%s", opt,
				   w->v[0], dir, file);
	if (rec_save(t, dir, file, err) ||
	    tfs_write_trunc(dir, file, "", err))
		return rec_because(err, "-%c %s: the kernel refused it", opt,
				   w->v[0]);
	for (i = 0; i < w->n; i++)
		if (tfs_write(dir, file, w->v[i], err))
			return rec_because(err, "-%c %s: the kernel refused it"
					   " (is it a traceable function?)",
					   opt, w->v[i]);
	return 0;
}

static int function_filters(struct rec_tracefs *t, const struct record_opts *o,
			    const struct rec_buf_opts *b, const char *dir,
			    struct tdat_error *err)
{
	const char *notrace = "set_ftrace_notrace";

	/* trace-cmd: function_graph takes -n as set_graph_notrace */
	if (b->tracer && !strcmp(b->tracer, "function_graph") &&
	    tfs_exists(dir, "set_graph_notrace"))
		notrace = "set_graph_notrace";
	if (set_funcs(t, dir, "set_ftrace_filter", &b->funcs, 'l', err) ||
	    set_funcs(t, dir, notrace, &b->notrace, 'n', err))
		return -1;
	/* -g: the top buffer's (trace-cmd graphs in the top only) */
	return b->name[0] ? 0 :
	       set_funcs(t, dir, "set_graph_function", &o->graph_funcs, 'g',
			 err);
}

/* Whether word is one of the words of text (available_tracers). */
static int listed(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == text || strchr(" \t\n", p[-1])) &&
		    (!p[n] || strchr(" \t\n", p[n])))
			return 1;
		p += n;
	}
	return 0;
}

static int set_tracer(struct rec_tracefs *t, const struct record_opts *o,
		      const struct rec_buf_opts *b, const char *dir,
		      struct tdat_error *err)
{
	struct tdat_blob avail;
	int ok;

	if (tfs_read(dir, "available_tracers", &avail, err))
		return -1;
	ok = listed((char *)avail.data, b->tracer);
	if (!ok) {
		avail.data[strcspn((char *)avail.data, "\n")] = 0;
		tdat_errorf(err, "-p %s: no such tracer in %s/available_tracers"
			    " (%s)", b->tracer, dir, (char *)avail.data);
	}
	free(avail.data);
	if (!ok)
		return -1;
	if (rec_set(t, dir, "current_tracer", b->tracer, err))
		return rec_because(err, "-p %s: the kernel refused it",
				   b->tracer);
	/* trace-cmd: the function tracers start without stack traces
	 * (--func-stack turns them on below) */
	if (!strncmp(b->tracer, "function", 8) &&
	    tfs_exists(dir, "options/func_stack_trace") &&
	    rec_set(t, dir, "options/func_stack_trace", "0", err))
		return -1;
	return rec_is_latency_tracer(b->tracer) &&
	       tfs_exists(dir, "tracing_max_latency") ?
	       rec_set(t, dir, "tracing_max_latency", "0", err) : 0;
}

/* -O WORD: options/WORD on, or options/NAME off for WORD "noNAME". */
static int set_option(struct rec_tracefs *t, const char *dir,
		      const char *word, struct tdat_error *err)
{
	char file[PATH_MAX];

	snprintf(file, sizeof(file), "options/%s", word);
	if (tfs_exists(dir, file))
		return rec_set(t, dir, file, "1", err);
	if (!strncmp(word, "no", 2)) {
		snprintf(file, sizeof(file), "options/%s", word + 2);
		if (tfs_exists(dir, file))
			return rec_set(t, dir, file, "0", err);
	}
	return tdat_errorf(err, "-O %s: no such trace option in %s/options",
			   word, dir);
}

static int options(struct rec_tracefs *t, const struct record_opts *o,
		   const struct rec_buf_opts *b, const char *dir,
		   struct tdat_error *err)
{
	int i;

	for (i = 0; i < b->options.n; i++)
		if (set_option(t, dir, b->options.v[i], err))
			return -1;
	if (b->children) {
		if (!tfs_exists(dir, "options/event-fork"))
			return tdat_errorf(err, "-c: this kernel has no"
					   " %s/options/event-fork", dir);
		if (rec_set(t, dir, "options/event-fork", "1", err) ||
		    (b->tracer && tfs_exists(dir, "options/function-fork") &&
		     rec_set(t, dir, "options/function-fork", "1", err)))
			return -1;
	}
	if (o->func_stack && !b->name[0] &&
	    rec_set(t, dir, "options/func_stack_trace", "1", err))
		return rec_because(err, "--func-stack: the kernel refused it");
	return 0;
}

/* A pid list file: emptied by the truncation, then the list. */
static int set_pids(struct rec_tracefs *t, const char *dir, const char *file,
		    const char *list, struct tdat_error *err)
{
	return rec_save(t, dir, file, err) ||
	       tfs_write_trunc(dir, file, list, err);
}

/* -P's and -F's processes; set_ftrace_pid where a tracer needs it. */
static int process_filter(struct rec_tracefs *t, const struct rec_buf_opts *b,
			  int follow_pid, const char *dir,
			  struct tdat_error *err)
{
	char list[4096];
	size_t len = 0;
	int i;

	list[0] = 0;
	for (i = 0; i < b->npids && len + 16 < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%d ",
					b->pids[i]);
	if (follow_pid > 0)
		snprintf(list + len, sizeof(list) - len, "%d ", follow_pid);
	if (!list[0])
		return 0;
	if (set_pids(t, dir, "set_event_pid", list, err))
		return rec_because(err, "-F/-P: the kernel refused the process"
				   " filter");
	if (b->tracer && set_pids(t, dir, "set_ftrace_pid", list, err))
		return rec_because(err, "-F/-P with -p %s: the kernel refused the"
				   " tracer's process filter", b->tracer);
	return 0;
}

static int arm_buffer(struct rec_tracefs *t, const struct record_opts *o,
		      const struct rec_buf_opts *b, int follow_pid,
		      struct tdat_error *err)
{
	char dir[PATH_MAX], num[32];

	if (rec_buffer_dir(t, b->name, dir, sizeof(dir), err) ||
	    function_filters(t, o, b, dir, err) ||
	    rec_set_events(t, o, dir, b, err) ||
	    (b->tracer && set_tracer(t, o, b, dir, err)) ||
	    options(t, o, b, dir, err))
		return -1;
	if (b->graph_depth >= 0) {
		snprintf(num, sizeof(num), "%ld", b->graph_depth);
		if (!tfs_exists(dir, "max_graph_depth"))
			return tdat_errorf(err, "--max-graph-depth: this kernel"
					   " has no %s/max_graph_depth", dir);
		if (rec_set(t, dir, "max_graph_depth", num, err))
			return -1;
	}
	if (process_filter(t, b, follow_pid, dir, err))
		return -1;
	/* Old data in the ring buffer is not part of this recording. */
	return tfs_write_trunc(dir, "trace", "", err);
}

/* The threads of this process, as a pid list ("12 13 14 "). */
/* The threads of this process (a reader a CPU: as long as it takes),
 * as a NUL-ended pid list ("12 13 14 "). */
static int own_threads(struct tdat_bytes *list, struct tdat_error *err)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int bad = 0;

	if (!d)
		return tdat_errorf(err, "/proc/self/task: %s", strerror(errno));
	while (!bad && (de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			bad = tdat_bytes_add(list, de->d_name,
					     strlen(de->d_name)) ||
			      tdat_bytes_add(list, " ", 1);
	closedir(d);
	if (bad || tdat_bytes_add(list, "", 1))
		return tdat_errorf(err, "out of memory");
	return 0;
}

int rec_tracefs_leave_self_out(struct rec_tracefs *t,
			       const struct record_opts *o, int follow_pid,
			       struct tdat_error *err)
{
	struct tdat_bytes list = { 0 };
	char dir[PATH_MAX];
	int i, r = 0;

	/* -F without a command follows record itself */
	if (o->no_filter || follow_pid == (int)getpid())
		return 0;
	if (own_threads(&list, err)) {
		tdat_bytes_free(&list);
		return -1;
	}
	for (i = 0; !r && i < o->nbufs; i++) {
		if (!rec_recorded(o, i))
			continue;
		r = rec_buffer_dir(t, o->bufs[i].name, dir, sizeof(dir), err);
		/* added to the list (no truncation); put back even with -k:
		 * the pids will belong to other processes */
		if (!r && tfs_exists(dir, "set_event_notrace_pid") &&
		    rec_try_own(t, dir, "set_event_notrace_pid",
				(const char *)list.data, "record's own threads"
				" stay in the events", err) < 0)
			r = -1;
	}
	tdat_bytes_free(&list);
	return r ? -1 : 0;
}

int rec_tracefs_arm(struct rec_tracefs *t, const struct record_opts *o,
		    int follow_pid, struct tdat_error *err)
{
	int i;

	for (i = 0; i < o->nbufs; i++)
		if (rec_recorded(o, i) &&
		    arm_buffer(t, o, &o->bufs[i], follow_pid, err))
			return -1;
	return 0;
}
