/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_restore.c - put back what tracefs_save.c saved: at the end of
 * a recording from memory, after a SIGKILL from OUT.rec/tracefs (the
 * journal, read back here).  Each kind of control file takes its old
 * text back its own way: lists (set_event, pid and function lists) are
 * cleared and refilled, triggers that were not there are removed, the
 * rest is written back as read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

/* The text to write back for a file that read as value. */
static void restore_text(const char *file, const char *value, char *buf,
			 size_t cap)
{
	const char *base = strrchr(file, '/');
	const char *open, *close;

	base = base ? base + 1 : file;
	if (!strcmp(base, "trace_clock")) {
		open = strchr(value, '[');
		close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			snprintf(buf, cap, "%.*s", (int)(close - open - 1),
				 open + 1);
			return;
		}
	}
	if (!strcmp(base, "buffer_size_kb")) {
		/* "7 (expanded: 1408)": a buffer never used yet; it cannot be
		 * made unexpanded again, and 7 KiB would starve the next
		 * user: the size it would have had. */
		open = strstr(value, "expanded:");
		snprintf(buf, cap, "%ld", strtol(open ? open + 9 : value, NULL,
						 10));
		return;
	}
	if (!strcmp(base, "filter") && !strncmp(value, "none", 4)) {
		snprintf(buf, cap, "0");
		return;
	}
	snprintf(buf, cap, "%s", value);
}

/* Lists: set_event (cleared by truncation, one word a line), the pid
 * lists and the function lists.  Comment lines ("#### all functions
 * enabled ####") and "no pid" mean empty. */
static int is_list(const char *file)
{
	static const char *const lists[] = {
		"set_event", "set_event_pid", "set_event_notrace_pid",
		"set_ftrace_pid", "set_ftrace_notrace_pid",
		"set_ftrace_filter", "set_ftrace_notrace",
		"set_graph_function", "set_graph_notrace",
	};
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(file, lists[i]))
			return 1;
	return 0;
}

static int restore_list(const struct rec_saved *s, struct tdat_error *err)
{
	const char *p = s->value, *nl;
	char word[4096], *unl;

	if (tfs_write_trunc(s->dir, s->file, "", err))
		return -1;
	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl == p || *p == '#' || (size_t)(nl - p) >= sizeof(word) ||
		    !strncmp(p, "no pid", 6))
			continue;
		snprintf(word, sizeof(word), "%.*s", (int)(nl - p), p);
		/* function probes read back "FUNC:CMD:unlimited" */
		unl = strstr(word, ":unlimited");
		if (unl && !unl[10])
			*unl = 0;
		if (tfs_write(s->dir, s->file, word, err))
			return -1;
	}
	return 0;
}

/* Whether line (len bytes) is a line of text. */
static int has_line(const char *text, const char *line, size_t len)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if ((size_t)(nl - p) == len && !memcmp(p, line, len))
			return 1;
		p = *nl ? nl + 1 : nl;
	}
	return 0;
}

/* One pass over an event's triggers: those not in the saved text go
 * ("!" and the trigger's first word, as the kernel takes them back).
 * The number of triggers still to remove, or -1. */
static int remove_new_triggers(const struct rec_saved *s,
			       struct tdat_error *err)
{
	struct tdat_blob now;
	char cmd[4096];
	const char *p, *nl;
	int left = 0;
	size_t n;

	if (tfs_read(s->dir, s->file, &now, err))
		return -1;
	for (p = (char *)now.data; p && *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		n = (size_t)(nl - p);
		if (!n || *p == '#' || has_line(s->value, p, n) ||
		    n + 2 > sizeof(cmd))
			continue;
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)strcspn(p, " \n"), p);
		if (tfs_write(s->dir, s->file, cmd, err))
			left++;
	}
	free(now.data);
	return left;
}

/* Some triggers only go after others (enable_event before its hist):
 * a few passes. */
static int restore_triggers(const struct rec_saved *s, struct tdat_error *err)
{
	int pass, left = 0;

	for (pass = 0; pass < 4; pass++) {
		left = remove_new_triggers(s, err);
		if (left <= 0)
			return left;
	}
	return -1;	/* err holds the last refusal */
}

/* The file reads as it read before: nothing to put back. */
static int unchanged(const struct rec_saved *s)
{
	struct tdat_error ignored;
	struct tdat_blob now;
	int same;

	if (tfs_read(s->dir, s->file, &now, &ignored))
		return 0;
	same = !strcmp((char *)now.data, s->value);
	free(now.data);
	return same;
}

static int put_back_one(const struct rec_saved *s, struct tdat_error *err)
{
	const char *base = strrchr(s->file, '/');
	size_t cap = strlen(s->value) + 32;
	char *text;
	int r;

	base = base ? base + 1 : s->file;
	if (is_list(s->file))
		return restore_list(s, err);
	if (!strcmp(base, "trigger"))
		return restore_triggers(s, err);
	if (unchanged(s))
		return 0;	/* (and files we may not write stay unwritten) */
	text = malloc(cap);
	if (!text)
		return tdat_errorf(err, "out of memory");
	restore_text(s->file, s->value, text, cap);
	r = tfs_write(s->dir, s->file, text, err);
	free(text);
	return r;
}

/* Files inside instances this recording made go with the instance. */
static int in_created(const struct rec_tracefs *t, const char *dir)
{
	char mine[PATH_MAX];
	int i;

	for (i = 0; i < t->ncreated; i++) {
		if (snprintf(mine, sizeof(mine), "%s/instances/%s", t->top,
			     t->created[i]) < (int)sizeof(mine) &&
		    !strcmp(dir, mine))
			return 1;
	}
	return 0;
}

void rec_tracefs_free(struct rec_tracefs *t)
{
	int i;

	for (i = 0; i < t->nsaved; i++) {
		free(t->saved[i].dir);
		free(t->saved[i].file);
		free(t->saved[i].value);
	}
	free(t->saved);
	for (i = 0; i < t->ncreated; i++)
		free(t->created[i]);
	free(t->created);
	t->saved = NULL;
	t->nsaved = 0;
	t->created = NULL;
	t->ncreated = 0;
	rec_journal_close(t);
}

int rec_tracefs_restore(struct rec_tracefs *t, int keep,
			void (*warn)(const char *msg))
{
	struct tdat_error err;
	int i, r = 0;

	for (i = t->nsaved - 1; i >= 0; i--) {
		struct rec_saved *s = &t->saved[i];

		if ((keep && !s->own) || (!keep && in_created(t, s->dir)))
			continue;
		if (put_back_one(s, &err)) {
			warn(err.msg);
			r = -1;
		}
	}
	for (i = t->ncreated - 1; i >= 0; i--) {
		char rel[PATH_MAX];

		/* (after a kill, the journal may name one never made) */
		snprintf(rel, sizeof(rel), "instances/%s", t->created[i]);
		if (!keep && tfs_exists(t->top, rel) &&
		    tfs_instance_remove(t->top, t->created[i], &err)) {
			warn(err.msg);
			r = -1;
		}
	}
	rec_tracefs_free(t);
	return r;
}
