/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - one recording: a session (session.c) around either a
 * COMMAND or the wait for SIGINT/SIGTERM.
 *
 * Signals are blocked in every thread and taken with sigwaitinfo, so a
 * signal at any moment only ends the wait: tracefs is always put back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * The command, forked before tracefs is touched and held on a pipe: it
 * execs once tracing is on, or exits when the pipe closes unwritten.
 */
static pid_t start_child(char **cmd, const sigset_t *mask, int *go)
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
		execvp(cmd[0], cmd);
		fprintf(stderr, "tdat record: %s: cannot run: %s\n", cmd[0],
			strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Until the command ends, a stop signal comes or a reader fails.
 * 1 when the command ended (*status), 0 otherwise; *why names it. */
static int wait_for_end(pid_t child, int *status, const char **why)
{
	sigset_t set;
	siginfo_t info;
	int sig;

	wait_set(&set);
	for (;;) {
		sig = sigwaitinfo(&set, &info);
		if (sig < 0)
			continue;	/* EINTR */
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

int record_run(const struct record_opts *o)
{
	struct rec_session s;
	struct tdat_error err;
	sigset_t set, old;
	const char *why = "";
	pid_t child = -1;
	int go = -1, status = 0, ended = 0, r;
	uint64_t lost;

	wait_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (o->cmd) {
		child = start_child(o->cmd, &old, &go);
		if (child < 0) {
			fprintf(stderr, "tdat record: cannot start %s: %s\n",
				o->cmd[0], strerror(errno));
			return 1;
		}
	}
	if (rec_session_start(&s, o, &err)) {
		fprintf(stderr, "tdat record: %s\n", err.msg);
		if (go >= 0)
			close(go);	/* the command exits unrun */
		if (child > 0)
			waitpid(child, NULL, 0);
		return 1;
	}
	if (child > 0) {
		if (write(go, "g", 1) != 1)
			kill(child, SIGKILL);
		close(go);
	} else if (!o->quiet) {
		fprintf(stderr, "Hit Ctrl^C to stop recording\n");
	}
	ended = wait_for_end(child, &status, &why);
	r = rec_session_stop(&s, &lost, &err);
	if (r)
		fprintf(stderr, "tdat record: %s\n", err.msg);
	else if (!o->quiet)
		fprintf(stderr, "tdat record: wrote %s (%llu events lost"
			" in the kernel)\n", o->output,
			(unsigned long long)lost);
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
