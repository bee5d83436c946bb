/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* outreg.c - the list of names outputs.h takes away on a signal. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/internal.h"
#include "libfmt/outputs.h"

struct outreg_entry {
	char *name;
	int kind;		/* OUTREG_TEMP or OUTREG_PROVISIONAL */
};

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
	nentries++;
	return 0;
}

static void remove_at(size_t i)
{
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

	for (i = 0; i < nentries; i++)
		unlink(entries[i].name);
}

/* Forget the provisional outputs, removing them first if unlink_them. */
static void settle(int unlink_them)
{
	sigset_t old;
	size_t i;

	outreg_block(&old);
	for (i = nentries; i-- > 0;) {
		if (entries[i].kind != OUTREG_PROVISIONAL)
			continue;
		if (unlink_them)
			unlink(entries[i].name);
		remove_at(i);
	}
	outreg_unblock(&old);
}

void tdat_outputs_keep(void)
{
	settle(0);
}

void tdat_outputs_drop(void)
{
	settle(1);
}
