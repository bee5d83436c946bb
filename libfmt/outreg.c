/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* outreg.c - the list of names outputs.h takes away on a signal. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/internal.h"
#include "libfmt/outputs.h"

struct outreg_entry {
	char *name;
	int kind;		/* OUTREG_TEMP, _PROVISIONAL or _UNNAMED */
	int fd;			/* _UNNAMED: the finished file, else -1 */
};

/* Unnamed files held at once; past this many (descriptors run out at
 * 1024 by default) they are named at once instead. */
#define MAX_HELD 256

/*
 * libfmt's one piece of global state, and why: a signal handler has no
 * other way to learn what to remove.  It is changed only with every
 * signal blocked (outreg_block), so the handler sees it whole.
 */
static struct outreg_entry *entries;
static size_t nentries, capacity;

void outreg_block(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

void outreg_unblock(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int outreg_add(const char *name, int kind)
{
	char *copy = strdup(name);

	if (!copy)
		return -1;
	if (nentries == capacity) {
		size_t cap = capacity ? capacity * 2 : 16;
		struct outreg_entry *e = realloc(entries, cap * sizeof(*e));

		if (!e) {
			free(copy);
			return -1;
		}
		entries = e;
		capacity = cap;
	}
	entries[nentries].name = copy;
	entries[nentries].kind = kind;
	entries[nentries].fd = -1;
	nentries++;
	return 0;
}

static size_t count_held(void)
{
	size_t i, n = 0;

	for (i = 0; i < nentries; i++)
		n += entries[i].kind == OUTREG_UNNAMED;
	return n;
}

int outreg_hold(const char *name, int fd)
{
	sigset_t old;
	int r = -1;

	outreg_block(&old);
	if (count_held() < MAX_HELD && !outreg_add(name, OUTREG_UNNAMED)) {
		entries[nentries - 1].fd = fd;
		r = 0;
	}
	outreg_unblock(&old);
	return r;
}

static void remove_at(size_t i)
{
	if (entries[i].fd >= 0)
		close(entries[i].fd);	/* an unnamed file: it is gone */
	free(entries[i].name);
	entries[i] = entries[--nentries];
	if (!nentries) {
		free(entries);
		entries = NULL;
		capacity = 0;
	}
}

void outreg_remove(const char *name)
{
	size_t i;

	for (i = nentries; i-- > 0;) {
		if (!strcmp(entries[i].name, name)) {
			remove_at(i);
			return;
		}
	}
}

void tdat_outputs_discard(void)
{
	size_t i;

	/* Unnamed files go with the process; their names are not ours. */
	for (i = 0; i < nentries; i++)
		if (entries[i].kind == OUTREG_TREE)
			tdat_remove_tree(entries[i].name);
		else if (entries[i].kind != OUTREG_UNNAMED)
			unlink(entries[i].name);
}

/* Forget the provisional outputs, removing them first if unlink_them;
 * unnamed ones are closed, and so gone. */
static void settle(int unlink_them)
{
	size_t i;

	for (i = nentries; i-- > 0;) {
		if (entries[i].kind == OUTREG_TEMP ||
		    entries[i].kind == OUTREG_TREE)
			continue;
		if (unlink_them && entries[i].kind == OUTREG_PROVISIONAL)
			unlink(entries[i].name);
		remove_at(i);
	}
}

/* Every held file made durable before any is named: they were written
 * back while the ones after them were written, so little is left. */
static int sync_held(struct tdat_error *err)
{
	size_t i;

	for (i = 0; i < nentries; i++)
		if (entries[i].kind == OUTREG_UNNAMED && fsync(entries[i].fd))
			return tdat_fail_nooff(err, entries[i].name,
					       "cannot sync: %s",
					       strerror(errno));
	return 0;
}

/* Has a held file before i the same directory (synced once for all)? */
static int dir_seen(size_t i)
{
	const char *a = entries[i].name, *sa = strrchr(a, '/'), *b, *sb;
	size_t j;

	for (j = 0; j < i; j++) {
		if (entries[j].kind != OUTREG_UNNAMED)
			continue;
		b = entries[j].name;
		sb = strrchr(b, '/');
		if ((!sa && !sb) ||
		    (sa && sb && sa - a == sb - b && !strncmp(a, b, sa - a)))
			return 1;
	}
	return 0;
}

/* Name the held files, in the order held; on a failure the ones named
 * here are removed again (all or none).  With signals blocked. */
static int name_held(struct tdat_error *err)
{
	size_t i, j;

	for (i = 0; i < nentries; i++)
		if (entries[i].kind == OUTREG_UNNAMED &&
		    out_link_unnamed(entries[i].fd, entries[i].name))
			break;
	if (i == nentries) {
		for (i = 0; i < nentries; i++)
			if (entries[i].kind == OUTREG_UNNAMED && !dir_seen(i))
				tdat_sync_dir_of(entries[i].name);
		return 0;
	}
	tdat_fail_nooff(err, entries[i].name, "cannot put the file in place:"
			" %s", strerror(errno));
	for (j = 0; j < i; j++)
		if (entries[j].kind == OUTREG_UNNAMED)
			unlink(entries[j].name);
	return -1;
}

int tdat_outputs_held_fd(const char *name)
{
	size_t i;

	for (i = 0; i < nentries; i++)
		if (entries[i].kind == OUTREG_UNNAMED &&
		    !strcmp(entries[i].name, name))
			return entries[i].fd;
	return -1;
}

int tdat_outputs_keep(struct tdat_error *err)
{
	sigset_t old;
	int r;

	r = sync_held(err);
	outreg_block(&old);
	if (!r)
		r = name_held(err);
	if (r) {
		settle(1);
	} else {
		settle(0);
	}
	outreg_unblock(&old);
	return r;
}

void tdat_outputs_drop(void)
{
	sigset_t old;

	outreg_block(&old);
	settle(1);
	outreg_unblock(&old);
}

int tdat_outputs_add_tree(const char *path)
{
	sigset_t old;
	int r;

	outreg_block(&old);
	r = outreg_add(path, OUTREG_TREE);
	outreg_unblock(&old);
	return r;
}

void tdat_outputs_forget(const char *path)
{
	sigset_t old;

	outreg_block(&old);
	outreg_remove(path);
	outreg_unblock(&old);
}
