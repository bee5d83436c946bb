/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - one recording: a session (session.c) around either a
 * COMMAND, the wait for SIGINT/SIGTERM, or (-P without a COMMAND, as
 * trace-cmd) the end of the processes followed.
 *
 * Signals are blocked in every thread and taken with sigwaitinfo, so a
 * signal at any moment only ends the wait: tracefs is always put back.
 */
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "convert/record/record_internal.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void wait_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(set, stop_signals[i]);
	sigaddset(set, SIGUSR1);	/* a reader failed */
	sigaddset(set, SIGCHLD);
}

/* --user: trace-cmd's change of user, in the child before exec. */
static int change_user(const char *user)
{
	struct passwd *pw = getpwnam(user);

	if (!pw || initgroups(user, pw->pw_gid) || setgid(pw->pw_gid) ||
	    setuid(pw->pw_uid))
		return -1;
	return setenv("HOME", pw->pw_dir, 1) || setenv("USER", pw->pw_name, 1) ||
	       setenv("LOGNAME", pw->pw_name, 1) ? -1 : 0;
}

/*
 * The command, forked before tracefs is touched (-F filters on its pid)
 * and held on a pipe: it execs once tracing is on, or exits when the
 * pipe closes unwritten.
 */
static pid_t start_child(char **cmd, const char *user, const sigset_t *mask,
			 int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		close(p[0]);
		sigprocmask(SIG_SETMASK, mask, NULL);
		if (user && change_user(user)) {
			fprintf(stderr, "tdat record: --user %s: cannot become"
				" that user: %s\n", user, strerror(errno));
			_exit(126);
		}
		execvp(cmd[0], cmd);
		fprintf(stderr, "tdat record: %s: cannot run: %s\n", cmd[0],
			strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* -P without a COMMAND: when every recorded buffer follows processes,
 * the recording ends with the last of them (trace-cmd's rule).  Their
 * pidfds, or 0 when the recording waits for a signal. */
static int open_pidfds(const struct record_opts *o, int *fds, int max)
{
	int i, j, n = 0;

	for (i = 0; i < o->nbufs; i++)
		if (rec_recorded(o, i) && !o->bufs[i].npids)
			return 0;
	for (i = 0; i < o->nbufs; i++)
		for (j = 0; j < o->bufs[i].npids && n < max; j++) {
			fds[n] = (int)syscall(SYS_pidfd_open, o->bufs[i].pids[j],
					      0);
			if (fds[n] >= 0)
				n++;	/* (ESRCH: gone already) */
		}
	return n ? n : -1;	/* -1: all gone before the start */
}

/* 1 when none of the n processes runs any more. */
static int all_ended(const int *fds, int n)
{
	struct pollfd p[64];
	int i;

	for (i = 0; i < n; i++) {
		p[i].fd = fds[i];
		p[i].events = POLLIN;
	}
	return poll(p, (nfds_t)n, 0) == n;
}

/* Until the command ends, a stop signal comes, a reader fails or the
 * -P processes end (npids pidfds).  1 when the command ended
 * (*status), 0 otherwise; *why names it. */
static int wait_for_end(pid_t child, const int *pidfds, int npids,
			int *status, const char **why)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	sigset_t set;
	siginfo_t info;
	int sig;

	wait_set(&set);
	for (;;) {
		if (npids && all_ended(pidfds, npids)) {
			*why = "processes";
			return 0;
		}
		sig = npids ? sigtimedwait(&set, &info, &tick) :
			      sigwaitinfo(&set, &info);
		if (sig < 0)
			continue;	/* EINTR, EAGAIN */
		if (sig == SIGUSR1) {
			*why = "reader";
			return 0;
		}
		if (sig == SIGCHLD) {
			if (child > 0 && waitpid(child, status, WNOHANG) == child)
				return 1;
			continue;
		}
		*why = "signal";
		if (child > 0)
			kill(child, sig);	/* it would have got it too */
		return 0;
	}
}

static int report_child(char **cmd, int status, int quiet)
{
	if (WIFEXITED(status)) {
		if (!quiet || WEXITSTATUS(status))
			fprintf(stderr, "tdat record: %s exited with"
				" status %d\n", cmd[0], WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "tdat record: %s was killed by signal %d"
			" (%s)\n", cmd[0], WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return 1;
}

/* The exit status: the command's when it ended, 1 on a failure. */
static int outcome(const struct record_opts *o, pid_t child, int ended,
		   int status, const char *why, int r)
{
	if (!strcmp(why, "reader") && !r)
		r = -1;
	/* After a signal (passed on to it) the command ends soon; after a
	 * failure it is left running rather than waited for. */
	if (child > 0 && !ended &&
	    waitpid(child, &status, strcmp(why, "signal") ? WNOHANG : 0) ==
	    child)
		ended = 1;
	if (r)
		return 1;
	return ended ? report_child(o->cmd, status, o->quiet) : 0;
}

static void close_all(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

int record_run(const struct record_opts *o)
{
	struct rec_session s;
	struct tdat_error err;
	sigset_t set, old;
	const char *why = "";
	pid_t child = -1;
	int go = -1, status = 0, ended = 0, r, pidfds[64], npids = 0;
	uint64_t lost;

	wait_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (o->cmd) {
		child = start_child(o->cmd, o->user, &old, &go);
		if (child < 0) {
			fprintf(stderr, "tdat record: cannot start %s: %s\n",
				o->cmd[0], strerror(errno));
			return 1;
		}
	} else {
		npids = open_pidfds(o, pidfds, 64);
	}
	if (npids < 0) {
		fprintf(stderr, "tdat record: -P: none of those processes"
			" runs\n");
		return 1;
	}
	/* -F: the command (without one, trace-cmd follows itself) */
	if (rec_session_start(&s, o, !o->follow ? 0 : child > 0 ? child :
			      getpid(), &err)) {
		fprintf(stderr, "tdat record: %s\n", err.msg);
		if (go >= 0)
			close(go);	/* the command exits unrun */
		if (child > 0)
			waitpid(child, NULL, 0);
		close_all(pidfds, npids);
		return 1;
	}
	if (child > 0) {
		if (write(go, "g", 1) != 1)
			kill(child, SIGKILL);
		close(go);
	} else if (!o->quiet) {
		fprintf(stderr, "Hit Ctrl^C to stop recording\n");
	}
	ended = wait_for_end(child, pidfds, npids, &status, &why);
	close_all(pidfds, npids);
	r = rec_session_stop(&s, &lost, &err);
	if (r)
		fprintf(stderr, "tdat record: %s\n", err.msg);
	else if (!o->quiet)
		fprintf(stderr, "tdat record: wrote %s (%llu events lost"
			" in the kernel)\n", o->output,
			(unsigned long long)lost);
	return outcome(o, child, ended, status, why, r);
}
