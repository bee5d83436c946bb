/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nearest.c - "did you mean ...?": the known name nearest to a mistyped
 * one, by edit distance counting a swap of two neighbours as one edit.
 */
#include <string.h>
#include "cmds/cmds.h"

#define MAX_WORD 64

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/* Edits (insert, delete, change, swap two neighbours) from a to b. */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int d[MAX_WORD + 1][MAX_WORD + 1];

	if (la > MAX_WORD || lb > MAX_WORD)
		return MAX_WORD;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int same = a[i - 1] == b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + !same);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

/* The one name word is a prefix of, or NULL (none, or several). */
static const char *unique_prefix(const char *word, const char *const *names,
				 int n)
{
	const char *found = NULL;
	size_t len = strlen(word);
	int i;

	for (i = 0; i < n && len; i++) {
		if (strncmp(names[i], word, len))
			continue;
		if (found && strcmp(found, names[i]))
			return NULL;
		found = names[i];
	}
	return found;
}

const char *nearest_name(const char *word, const char *const *names, int n)
{
	const char *best = unique_prefix(word, names, n);
	int i, d, best_d = MAX_WORD;
	/* A third of the word may be wrong, at least one letter. */
	int limit = (int)strlen(word) / 3 > 1 ? (int)strlen(word) / 3 : 1;

	if (best)
		return best;
	for (i = 0; i < n; i++) {
		d = distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
