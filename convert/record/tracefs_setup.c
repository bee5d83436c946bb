/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_setup.c - get tracefs ready for a recording and put it back.
 *
 * Every control file is read before its first change and the text kept,
 * so that rec_tracefs_restore can write it back on any way out (normal
 * end, signal, error).  Events go through set_event, which lists what is
 * enabled and takes the same words back, and filters per event, so each
 * file's old text is all there is to restore.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

/* How much of the ring buffer must fill before a waiting reader wakes:
 * low enough that the reader keeps well ahead of the writer under load,
 * high enough that it does not wake for every page. */
#define REC_BUFFER_PERCENT "10"

struct rec_saved {
	char *dir;
	char *file;
	char *value;	/* as read */
};

int rec_buffer_dir(const struct rec_tracefs *t, const char *name,
		   char *dir, size_t cap, struct tdat_error *err)
{
	int n = name[0] ? snprintf(dir, cap, "%s/instances/%s", t->top, name)
			: snprintf(dir, cap, "%s", t->top);

	if (n < 0 || (size_t)n >= cap)
		return tdat_errorf(err, "%s/instances/%s: path too long", t->top,
			    name);
	return 0;
}

static int is_saved(const struct rec_tracefs *t, const char *dir,
		    const char *file)
{
	int i;

	for (i = 0; i < t->nsaved; i++)
		if (!strcmp(t->saved[i].dir, dir) &&
		    !strcmp(t->saved[i].file, file))
			return 1;
	return 0;
}

static int save(struct rec_tracefs *t, const char *dir, const char *file,
		struct tdat_error *err)
{
	struct rec_saved *s;
	struct tdat_blob old;

	if (is_saved(t, dir, file))
		return 0;
	if (tfs_read(dir, file, &old, err))
		return -1;
	s = realloc(t->saved, (size_t)(t->nsaved + 1) * sizeof(*s));
	if (!s) {
		free(old.data);
		return tdat_errorf(err, "out of memory");
	}
	t->saved = s;
	s = &t->saved[t->nsaved];
	s->dir = strdup(dir);
	s->file = strdup(file);
	s->value = old.data ? (char *)old.data : strdup("");
	if (!s->dir || !s->file || !s->value) {
		free(s->dir);
		free(s->file);
		free(s->value);
		return tdat_errorf(err, "out of memory");
	}
	t->nsaved++;
	return 0;
}

int rec_set(struct rec_tracefs *t, const char *dir, const char *file,
	    const char *value, struct tdat_error *err)
{
	return save(t, dir, file, err) || tfs_write(dir, file, value, err);
}

/* ---- events and filters ---- */

/* The words set_event takes for e: "*:*", "SYS:*", "SYS:EV" or "WORD". */
static void event_word(const struct rec_event *e, char *buf, size_t cap)
{
	if (!e->system)
		snprintf(buf, cap, "*:%s", e->event ? e->event : "*");
	else if (e->event)
		snprintf(buf, cap, "%s:%s", e->system, e->event);
	else
		snprintf(buf, cap, "%s", e->system);
}

/* Whether events/SYS/EV is one of those e names (trace-cmd's globs
 * allowed); word_sys: -e WORD names systems (some system matches it),
 * else events in any system. */
static int match(const char *pattern, const char *name)
{
	return !fnmatch(pattern, name, 0);
}

static int event_matches(const struct rec_event *e, const char *sys,
			 const char *ev, int word_sys)
{
	if (!e->system)		/* all */
		return !e->event || match(e->event, ev);
	if (e->event)
		return match(e->system, sys) && match(e->event, ev);
	return word_sys ? match(e->system, sys) : match(e->system, ev);
}

static int has_glob(const char *s)
{
	return s && strpbrk(s, "*?[") != NULL;
}

static int add_path(struct tfs_names *out, int *cap, const char *sys,
		    const char *ev)
{
	char **v;

	if (out->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		v = realloc(out->v, (size_t)*cap * sizeof(*v));
		if (!v)
			return -1;
		out->v = v;
	}
	out->v[out->n] = malloc(strlen(sys) + strlen(ev) + 9);
	if (!out->v[out->n])
		return -1;
	sprintf(out->v[out->n++], "events/%s/%s", sys, ev);
	return 0;
}

/* The event directories (events/SYS/EV, relative to dir) that e names.
 * The ftrace system only when named. */
static int event_dirs(const char *dir, const struct rec_event *e,
		      struct tfs_names *out, struct tdat_error *err)
{
	struct tfs_names sys, evs;
	char rel[PATH_MAX];
	int i, j, r = 0, cap = 0, word_sys = 0;

	out->v = NULL;
	out->n = 0;
	if (tfs_subdirs(dir, "events", &sys, err))
		return -1;
	for (i = 0; e->system && !e->event && i < sys.n; i++)
		word_sys |= match(e->system, sys.v[i]);
	for (i = 0; !r && i < sys.n; i++) {
		if (!strcmp(sys.v[i], "ftrace") &&
		    !(e->system && !strcmp(e->system, "ftrace")))
			continue;
		snprintf(rel, sizeof(rel), "events/%s", sys.v[i]);
		if (tfs_subdirs(dir, rel, &evs, err)) {
			r = -1;
			break;
		}
		for (j = 0; !r && j < evs.n; j++)
			if (event_matches(e, sys.v[i], evs.v[j], word_sys) &&
			    add_path(out, &cap, sys.v[i], evs.v[j]))
				r = tdat_errorf(err, "out of memory");
		tfs_names_free(&evs);
	}
	tfs_names_free(&sys);
	if (r)
		tfs_names_free(out);
	return r;
}

/* The filter on every event e names; some may lack its fields (a
 * system-wide filter), but one at least must take it. */
static int set_filter(struct rec_tracefs *t, const char *dir,
		      const struct rec_event *e, const char *word,
		      struct tdat_error *err)
{
	struct tfs_names evs;
	char file[PATH_MAX];
	struct tdat_error first = { 0 };
	int i, ok = 0;

	if (event_dirs(dir, e, &evs, err))
		return -1;
	for (i = 0; i < evs.n; i++) {
		snprintf(file, sizeof(file), "%s/filter", evs.v[i]);
		if (!tfs_exists(dir, file))
			continue;
		if (rec_set(t, dir, file, e->filter, err)) {
			if (!first.msg[0])
				first = *err;
			continue;
		}
		ok++;
	}
	tfs_names_free(&evs);
	if (ok)
		return 0;
	if (first.msg[0])
		return tdat_errorf(err, "-e %s -f '%s': the kernel refuses the filter"
			    " (%s)", word, e->filter, first.msg);
	return tdat_errorf(err, "-e %s: no such event", word);
}

/* set_event takes no globs: each event a glob names, one by one. */
static int enable_each(const char *dir, const struct rec_event *e,
		       const char *word, struct tdat_error *err)
{
	struct tfs_names evs;
	int i, r = 0;

	if (event_dirs(dir, e, &evs, err))
		return -1;
	if (!evs.n)
		r = tdat_errorf(err, "-e %s: no event in %s/events matches", word,
			 dir);
	for (i = 0; !r && i < evs.n; i++) {
		char *sys = evs.v[i] + strlen("events/");
		char *slash = strchr(sys, '/');

		*slash = ':';
		r = tfs_write(dir, "set_event", sys, err);
	}
	tfs_names_free(&evs);
	return r;
}

static int set_events(struct rec_tracefs *t, const char *dir,
		      const struct rec_buf_opts *b, struct tdat_error *err)
{
	char word[512];
	int i;

	if (save(t, dir, "set_event", err) ||
	    tfs_write_trunc(dir, "set_event", "", err))
		return -1;
	for (i = 0; i < b->nevents; i++) {
		const struct rec_event *e = &b->events[i];

		event_word(e, word, sizeof(word));
		if (has_glob(e->system) || has_glob(e->event)) {
			if (enable_each(dir, e, word, err))
				return -1;
		} else if (tfs_write(dir, "set_event", word, err)) {
			return tdat_errorf(err, "-e %s: no such event or system in"
				    " %s/events", word, dir);
		}
		if (e->filter && set_filter(t, dir, e, word, err))
			return -1;
	}
	return 0;
}

/* ---- buffers ---- */

static int use_instance(struct rec_tracefs *t, const char *name,
			struct tdat_error *err)
{
	char rel[PATH_MAX], **v;

	snprintf(rel, sizeof(rel), "instances/%s", name);
	if (tfs_exists(t->top, rel))
		return 0;	/* someone's instance: used, restored, kept */
	v = realloc(t->created, (size_t)(t->ncreated + 1) * sizeof(*v));
	if (!v)
		return tdat_errorf(err, "out of memory");
	t->created = v;
	v[t->ncreated] = strdup(name);
	if (!v[t->ncreated])
		return tdat_errorf(err, "out of memory");
	if (tfs_instance_create(t->top, name, err)) {
		free(v[t->ncreated]);
		return -1;
	}
	t->ncreated++;
	return 0;
}

static int setup_buffer(struct rec_tracefs *t, const struct record_opts *o,
			const struct rec_buf_opts *b, struct tdat_error *err)
{
	char dir[PATH_MAX], num[32];

	if (b->name[0] && use_instance(t, b->name, err))
		return -1;
	if (rec_buffer_dir(t, b->name, dir, sizeof(dir), err) ||
	    rec_set(t, dir, "tracing_on", "0", err) ||
	    set_events(t, dir, b, err))
		return -1;
	if (o->clock && rec_set(t, dir, "trace_clock", o->clock, err))
		return tdat_errorf(err, "-C %s: the kernel has no such clock (%s)",
			    o->clock, err->msg);
	if (o->subbuf_kb) {
		if (!tfs_exists(dir, "buffer_subbuf_size_kb"))
			return tdat_errorf(err, "--subbuf-size: this kernel has no"
				    " %s/buffer_subbuf_size_kb", dir);
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
	    rec_set(t, dir, "buffer_percent", REC_BUFFER_PERCENT, err))
		return -1;
	/* Old data in the ring buffer is not part of this recording. */
	return tfs_write_trunc(dir, "trace", "", err);
}

/* The top buffer is recorded when it has events of its own. */
static int recorded(const struct record_opts *o, int i)
{
	return i > 0 || o->bufs[0].nevents > 0;
}

int rec_tracefs_setup(struct rec_tracefs *t, const struct record_opts *o,
		      struct tdat_error *err)
{
	int i;

	for (i = 0; i < o->nbufs; i++)
		if (recorded(o, i) && setup_buffer(t, o, &o->bufs[i], err))
			return -1;
	return 0;
}

int rec_tracing_on(struct rec_tracefs *t, const struct record_opts *o,
		   int on, struct tdat_error *err)
{
	char dir[PATH_MAX];
	int i;

	for (i = 0; i < o->nbufs; i++) {
		if (!recorded(o, i))
			continue;
		if (rec_buffer_dir(t, o->bufs[i].name, dir, sizeof(dir), err) ||
		    tfs_write(dir, "tracing_on", on ? "1" : "0", err))
			return -1;
	}
	return 0;
}

/* ---- putting it back ---- */

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

/* set_event: cleared, then each line it held. */
static int restore_events(const struct rec_saved *s, struct tdat_error *err)
{
	const char *p = s->value, *nl;
	char word[512];

	if (tfs_write_trunc(s->dir, "set_event", "", err))
		return -1;
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p && (size_t)(nl - p) < sizeof(word)) {
			snprintf(word, sizeof(word), "%.*s", (int)(nl - p), p);
			if (tfs_write(s->dir, "set_event", word, err))
				return -1;
		}
		if (!*nl)
			break;
	}
	return 0;
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

int rec_tracefs_restore(struct rec_tracefs *t, void (*warn)(const char *msg))
{
	struct tdat_error err;
	char *text;
	int i, r = 0;

	for (i = t->nsaved - 1; i >= 0; i--) {
		struct rec_saved *s = &t->saved[i];
		size_t cap = strlen(s->value) + 32;

		if (in_created(t, s->dir))
			;
		else if (!strcmp(s->file, "set_event")) {
			if (restore_events(s, &err)) {
				warn(err.msg);
				r = -1;
			}
		} else if ((text = malloc(cap)) != NULL) {
			restore_text(s->file, s->value, text, cap);
			if (tfs_write(s->dir, s->file, text, &err)) {
				warn(err.msg);
				r = -1;
			}
			free(text);
		}
		free(s->dir);
		free(s->file);
		free(s->value);
	}
	free(t->saved);
	t->saved = NULL;
	t->nsaved = 0;
	for (i = t->ncreated - 1; i >= 0; i--) {
		if (tfs_instance_remove(t->top, t->created[i], &err)) {
			warn(err.msg);
			r = -1;
		}
		free(t->created[i]);
	}
	free(t->created);
	t->created = NULL;
	t->ncreated = 0;
	return r;
}

/* ---- what gets into the file ---- */

static int add_unique(struct tfs_names *out, const char *name)
{
	char **v;
	int i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i], name))
			return 0;
	v = realloc(out->v, (size_t)(out->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	out->v = v;
	v[out->n] = strdup(name);
	if (!v[out->n])
		return -1;
	out->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rec_selected_systems(const struct rec_tracefs *t,
			 const struct record_opts *o, struct tfs_names *out,
			 struct tdat_error *err)
{
	struct tfs_names evs;
	char sys[PATH_MAX], *slash;
	int i, j, k;

	out->v = NULL;
	out->n = 0;
	for (i = 0; i < o->nbufs; i++) {
		for (j = 0; j < o->bufs[i].nevents; j++) {
			/* the top's events directory lists every system */
			if (event_dirs(t->top, &o->bufs[i].events[j], &evs,
				       err))
				goto fail;
			for (k = 0; k < evs.n; k++) {
				snprintf(sys, sizeof(sys), "%s",
					 evs.v[k] + strlen("events/"));
				slash = strchr(sys, '/');
				if (slash)
					*slash = 0;
				if (add_unique(out, sys)) {
					tfs_names_free(&evs);
					tdat_errorf(err, "out of memory");
					goto fail;
				}
			}
			tfs_names_free(&evs);
		}
	}
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(*out->v), by_name);
	return 0;
fail:
	tfs_names_free(out);
	return -1;
}
