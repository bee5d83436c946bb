/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trial.c - a file's texts parsed by libtraceevent in a child process
 * first (see tepfmt.h): the steps that kill the child are skipped.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "convert/tepfmt/tepfmt.h"

#define MAX_CHILDREN 64		/* then the rest is skipped unseen */
#define STEP_SECONDS 10		/* a step that takes longer hangs */
#define ALL_DONE (-1)

/* What a child does: every step from `from` on, saying which it is in;
 * step `from` with its fields alone when `fields` is set. */
struct run {
	struct tep_handle *tep;
	int from, i, fields;
	volatile int *at;	/* shared with the parent */
};

static int step_format(void *ctx, const char *system, const char *text,
		       size_t len)
{
	struct run *r = ctx;
	int i = r->i++;

	if (i < r->from)
		return 0;
	*r->at = i;
	alarm(STEP_SECONDS);
	if (i == r->from && r->fields)
		tepfmt_parse_fields(r->tep, NULL, text, len, system);
	else
		tepfmt_parse(r->tep, NULL, text, len, system, NULL);
	return 0;
}

/* Crashes end the child for good: no sanitizer or fuzzer handler. */
static void plain_child(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				    SIGALRM };
	int fd = open("/dev/null", O_WRONLY);
	size_t k;

	for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
		signal(sigs[k], SIG_DFL);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
}

static void child(struct tep_handle *tep, const struct tdat_file *f,
		  int from, int fields, volatile int *at)
{
	struct run r = { tep, from, 1, fields, at };
	struct tdat_error err;
	const char *page, *event;
	size_t page_len, event_len;

	plain_child();
	if (from == 0) {
		*at = 0;
		alarm(STEP_SECONDS);
		if (!tdat_header_texts(f, &page, &page_len, &event, &event_len,
				       &err) && page_len)
			tep_parse_header_page(tep, (char *)page, page_len,
					      f->commit_size);
	}
	tdat_each_format(f, step_format, &r, &err);
	*at = ALL_DONE;
	_exit(0);
}

static int count_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	(*(int *)ctx)++;
	return 0;
}

/* One child from step `from` on: the step it died in, or ALL_DONE (or
 * ALL_DONE when no child can be made: nothing is known then). */
static int run_child(struct tep_handle *tep, const struct tdat_file *f,
		     int from, int fields, volatile int *at)
{
	int status;
	pid_t pid;

	*at = from - 1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return ALL_DONE;
	if (pid == 0)
		child(tep, f, from, fields, at);
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && *at == ALL_DONE)
		return ALL_DONE;
	return *at;
}

int tepfmt_trial(struct tep_handle *tep, const struct tdat_file *f,
		 struct tepfmt_trial *t)
{
	struct tdat_error err;
	volatile int *at;
	int n = 0, from = 0, fields = 0, k, dead;

	memset(t, 0, sizeof(*t));
	if (tdat_each_format(f, count_format, &n, &err) < 0)
		n = 0;	/* the caller's walk meets the same error */
	t->n = n + 1;
	t->bad = calloc((size_t)t->n, 1);
	at = mmap(NULL, sizeof(*at), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!t->bad || at == MAP_FAILED) {
		if (at != MAP_FAILED)
			munmap((void *)at, sizeof(*at));
		tepfmt_trial_free(t);
		return -1;
	}
	/* A format that kills the child is tried again by its fields
	 * alone, first thing in the next child. */
	for (k = 0; k < MAX_CHILDREN && from < t->n; k++) {
		dead = run_child(tep, f, from, fields, at);
		if (dead == ALL_DONE || dead < from)
			break;
		if (dead == 0 || (dead == from && fields)) {
			t->bad[dead] = 2;
			from = dead + 1;
			fields = 0;
		} else {
			t->bad[dead] = 1;
			from = dead;
			fields = 1;
		}
	}
	if (k == MAX_CHILDREN)
		memset(t->bad + from, 2, (size_t)(t->n - from));
	munmap((void *)at, sizeof(*at));
	return 0;
}

int tepfmt_trial_ok(const struct tepfmt_trial *t, int step)
{
	return !t->bad || step < 0 || step >= t->n || !t->bad[step];
}

int tepfmt_trial_fields_ok(const struct tepfmt_trial *t, int step)
{
	return !t->bad || step < 0 || step >= t->n || t->bad[step] < 2;
}

void tepfmt_trial_free(struct tepfmt_trial *t)
{
	free(t->bad);
	memset(t, 0, sizeof(*t));
}
