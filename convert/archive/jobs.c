/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobs.c - an in-place archive run: the files found (tree.c), each
 * archived in a child process of its own (one.c), as many at once as
 * there are CPUs, and one summary at the end.
 *
 * A child per file keeps each file's outputs apart (libfmt names the
 * held outputs of a process together) and one file's trouble away from
 * the others.  A child dies with its parent (PR_SET_PDEATHSIG): killed
 * in any way, the run leaves at most what tree.c clears the next time.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "convert/archive/archive_internal.h"

struct child {
	pid_t pid;
	int fd;			/* its report comes here */
	int file;
	struct timespec start;	/* for the log's seconds */
};

struct run {
	const struct archive_opts *o;
	struct tree *t;
	struct child *kids;
	int nkids, threads;
	uint64_t done, total;	/* bytes of the files, for the progress */
	int count[4];		/* per enum one_result */
	uint64_t before, after;	/* of the files archived */
};

static void child_main(struct run *r, int file, int fd, pid_t parent)
{
	struct one_report rep;

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)	/* the parent died before */
		_exit(1);
	one_archive(r->t->files[file], r->o, r->threads, &rep);
	if (write(fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(1);
	_exit(0);
}

static int start(struct run *r, int file)
{
	struct child *c = &r->kids[r->nkids];
	pid_t parent = getpid();
	int p[2];

	if (pipe(p))
		return -1;
	fflush(stderr);
	c->pid = fork();
	if (c->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!c->pid) {
		close(p[0]);
		child_main(r, file, p[1], parent);
	}
	close(p[1]);
	c->fd = p[0];
	c->file = file;
	clock_gettime(CLOCK_MONOTONIC, &c->start);
	r->nkids++;
	return 0;
}

/* The log's line for a file done. */
static void log_file(struct run *r, const struct child *c,
		     const struct one_report *rep)
{
	static const char *const words[] = {
		[ONE_ARCHIVED] = "archived", [ONE_SKIPPED] = "archived already",
		[ONE_LEFT] = "left alone", [ONE_FAILED] = "failed",
	};
	struct joblog_entry e;

	memset(&e, 0, sizeof(e));
	e.path = r->t->files[c->file];
	e.result = words[rep->result];
	e.sized = rep->before > 0;
	e.before = rep->before;
	e.after = rep->result == ONE_ARCHIVED || rep->result == ONE_SKIPPED ?
		  rep->after : rep->before;
	e.seconds = joblog_since(&c->start);
	e.reason = rep->reason[0] ? rep->reason : NULL;
	joblog_write(r->o->log, &e);
}

/* Child k ended with status: its report counted. */
static void finish(struct run *r, int k, int status)
{
	struct child *c = &r->kids[k];
	const char *path = r->t->files[c->file];
	struct one_report rep;

	if (read(c->fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep)) {
		memset(&rep, 0, sizeof(rep));
		rep.result = ONE_FAILED;
		if (WIFSIGNALED(status))
			snprintf(rep.reason, sizeof(rep.reason), "%s: stopped"
				 " by signal %d: left as it is", path,
				 WTERMSIG(status));
		else
			snprintf(rep.reason, sizeof(rep.reason), "%s: its"
				 " process ended without a word (status %d):"
				 " left as it is", path, WEXITSTATUS(status));
		fprintf(stderr, "tdat convert: %s\n", rep.reason);
	}
	close(c->fd);
	if (r->o->log)
		log_file(r, c, &rep);
	r->count[rep.result]++;
	if (rep.result == ONE_ARCHIVED) {
		r->before += rep.before;
		r->after += rep.after;
	}
	r->done += rep.before;
	if (r->o->progress)
		r->o->progress(r->o->progress_ctx, r->done, r->total);
	r->kids[k] = r->kids[--r->nkids];
}

/* Wait for a child to end.  0, or -1 when none is left. */
static int reap(struct run *r)
{
	int status, k;
	pid_t pid;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return -1;
	for (k = 0; k < r->nkids; k++)
		if (r->kids[k].pid == pid) {
			finish(r, k, status);
			break;
		}
	return 0;
}

/* Files at once: a job given few CPUs of a big node (a Slurm task, a
 * container) archives as many files as it has CPUs, not the node's. */
static int usable_cpus(void)
{
	int n = tdat_usable_cpus();

	return n > 64 ? 64 : n;
}

static uint64_t total_bytes(const struct tree *t)
{
	uint64_t sum = 0;
	struct stat st;
	int k;

	for (k = 0; k < t->n; k++)
		if (!lstat(t->files[k], &st))
			sum += (uint64_t)st.st_size;
	return sum;
}

/* Every file through a child, jobs at a time. */
static void run_all(struct run *r, int jobs)
{
	int next = 0;

	while (next < r->t->n || r->nkids) {
		if (next < r->t->n && r->nkids < jobs) {
			if (!start(r, next)) {
				next++;
				continue;
			}
			if (!r->nkids) {	/* no child at all to be had */
				fprintf(stderr, "tdat convert: cannot start a"
					" process: %s\n", strerror(errno));
				r->count[ONE_FAILED] += r->t->n - next;
				return;
			}
		}
		if (reap(r))
			return;
	}
}

static double mib(uint64_t n)
{
	return (double)n / (1 << 20);
}

static void summary(const struct run *r, const struct tree *t)
{
	fprintf(stderr, "tdat convert: %d archived (%.1f MiB -> %.1f MiB),"
		" %d archived already, %d left as they are, %d failed\n",
		r->count[ONE_ARCHIVED], mib(r->before), mib(r->after),
		r->count[ONE_SKIPPED], r->count[ONE_LEFT] + t->others,
		r->count[ONE_FAILED] + t->missing);
}

int archive_run(const struct archive_opts *o)
{
	struct tree t;
	struct run r;
	int jobs;

	if (tree_find(&t, o->paths, o->npaths, o->shard, o->log)) {
		tree_free(&t);
		return 1;
	}
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.t = &t;
	jobs = o->jobs > 0 ? o->jobs : usable_cpus();
	r.threads = o->threads > 0 ? o->threads : usable_cpus();
	r.kids = calloc((size_t)jobs, sizeof(*r.kids));
	if (!r.kids) {
		fprintf(stderr, "tdat convert: out of memory\n");
		tree_free(&t);
		return 1;
	}
	r.total = total_bytes(&t);
	run_all(&r, jobs);
	summary(&r, &t);
	free(r.kids);
	tree_free(&t);
	return r.count[ONE_FAILED] || t.missing ? 1 : 0;
}
