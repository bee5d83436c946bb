/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs_events.c - the events of a buffer: enabled through set_event
 * (which lists what is enabled and takes the same words back, so its
 * old text is all there is to put back), -v's disabled ones, filters
 * and triggers per event; and the systems whose formats go into the
 * file.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

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

/* The events of system sys that e names, appended to out. */
static int add_system(const char *dir, const struct rec_event *e,
		      const char *sys, int word_sys, struct tfs_names *out,
		      int *cap, struct tdat_error *err)
{
	struct tfs_names evs;
	char rel[PATH_MAX];
	int j, r = 0;

	snprintf(rel, sizeof(rel), "events/%s", sys);
	if (tfs_subdirs(dir, rel, &evs, err))
		return -1;
	for (j = 0; !r && j < evs.n; j++)
		if (event_matches(e, sys, evs.v[j], word_sys) &&
		    add_path(out, cap, sys, evs.v[j]))
			r = tdat_errorf(err, "out of memory");
	tfs_names_free(&evs);
	return r;
}

/* e names one system plainly (no glob, no path) and it is there: only
 * its directory need be listed.  eventfs makes every directory it is
 * asked to list, so listing all of them for each -e costs tens of ms. */
static int one_system(const char *dir, const struct rec_event *e)
{
	char rel[PATH_MAX];

	if (!e->system || has_glob(e->system) || strchr(e->system, '/') ||
	    !strcmp(e->system, ".") || !strcmp(e->system, ".."))
		return 0;
	snprintf(rel, sizeof(rel), "events/%s", e->system);
	return tfs_is_dir(dir, rel);
}

/* The event directories (events/SYS/EV, relative to dir) that e names.
 * The ftrace system only when named. */
static int event_dirs(const char *dir, const struct rec_event *e,
		      struct tfs_names *out, struct tdat_error *err)
{
	struct tfs_names sys = { NULL, 0 };
	int i, r = 0, cap = 0, word_sys = 0, plain = one_system(dir, e);

	out->v = NULL;
	out->n = 0;
	if (plain)
		r = add_system(dir, e, e->system, 1, out, &cap, err);
	else if (tfs_subdirs(dir, "events", &sys, err))
		return -1;
	for (i = 0; e->system && !e->event && i < sys.n; i++)
		word_sys |= match(e->system, sys.v[i]);
	for (i = 0; !r && i < sys.n; i++) {
		if (!strcmp(sys.v[i], "ftrace") &&
		    !(e->system && !strcmp(e->system, "ftrace")))
			continue;
		r = add_system(dir, e, sys.v[i], word_sys, out, &cap, err);
	}
	tfs_names_free(&sys);
	if (r)
		tfs_names_free(out);
	return r;
}

/* What to do about an -e that names nothing: an error, or with -i a
 * warning and nothing done (1). */
static int missing(struct rec_tracefs *t, const struct record_opts *o,
		   const char *word, const char *dir, struct tdat_error *err)
{
	char line[PATH_MAX + 600];

	if (!o->ignore_missing)
		return tdat_errorf(err, "-e %s: no such event or system in"
				   " %s/events", word, dir);
	snprintf(line, sizeof(line), "-e %s: no such event or system in"
		 " %s/events (ignored: -i)", word, dir);
	t->warn(line);
	return 1;
}

/* The filter on every event e names; some may lack its fields (a
 * system-wide filter), but one at least must take it. */
static int set_filter(struct rec_tracefs *t, const char *dir,
		      const struct rec_event *e, const struct tfs_names *evs,
		      const char *word, struct tdat_error *err)
{
	char file[PATH_MAX];
	struct tdat_error first = { 0 };
	int i, ok = 0;

	for (i = 0; i < evs->n; i++) {
		snprintf(file, sizeof(file), "%s/filter", evs->v[i]);
		if (!tfs_exists(dir, file))
			continue;
		if (rec_set(t, dir, file, e->filter, err)) {
			if (!first.msg[0])
				first = *err;
			continue;
		}
		ok++;
	}
	if (ok)
		return 0;
	if (first.msg[0])
		return tdat_errorf(err, "-e %s -f '%s': the kernel refuses the"
				   " filter (%s)", word, e->filter, first.msg);
	return tdat_errorf(err, "-e %s -f '%s': no event of it has a filter"
			   " file", word, e->filter);
}

/* Every -R of e on every event it names (trace-cmd: a system's events
 * each get it).  The trigger files are saved: triggers added are
 * removed at the end. */
static int set_triggers(struct rec_tracefs *t, const char *dir,
			const struct rec_event *e, const struct tfs_names *evs,
			const char *word, struct tdat_error *err)
{
	char file[PATH_MAX];
	int i, j;

	for (i = 0; i < evs->n; i++) {
		snprintf(file, sizeof(file), "%s/trigger", evs->v[i]);
		if (!tfs_exists(dir, file))
			return tdat_errorf(err, "-e %s -R: %s/%s: this kernel"
					   " has no event triggers", word, dir,
					   file);
		if (rec_save(t, dir, file, err))
			return -1;
		for (j = 0; j < e->triggers.n; j++)
			if (tfs_write(dir, file, e->triggers.v[j], err))
				return rec_because(err, "-e %s -R '%s': the kernel"
						   " refused the trigger", word,
						   e->triggers.v[j]);
	}
	return 0;
}

/* set_event takes no globs: each event a glob names, one by one;
 * "!SYS:EV" disables. */
static int set_each(const char *dir, const struct tfs_names *evs, int neg,
		    struct tdat_error *err)
{
	char word[PATH_MAX];
	int i;

	for (i = 0; i < evs->n; i++) {
		const char *sys = evs->v[i] + strlen("events/");
		const char *slash = strchr(sys, '/');

		snprintf(word, sizeof(word), "%s%.*s:%s", neg ? "!" : "",
			 (int)(slash - sys), sys, slash + 1);
		if (tfs_write(dir, "set_event", word, err))
			return -1;
	}
	return 0;
}

/* One -e: enabled (or with -v disabled), its filter and triggers. */
static int one_event(struct rec_tracefs *t, const struct record_opts *o,
		     const char *dir, const struct rec_event *e,
		     struct tdat_error *err)
{
	struct tfs_names evs;
	char word[512], neg_word[520];
	int r;

	event_word(e, word, sizeof(word));
	if (event_dirs(dir, e, &evs, err))
		return -1;
	if (!evs.n) {
		tfs_names_free(&evs);
		r = missing(t, o, word, dir, err);
		return r > 0 ? 0 : r;
	}
	r = 0;
	if (!e->neg && e->filter)
		r = set_filter(t, dir, e, &evs, word, err);
	if (!r && e->triggers.n)
		r = set_triggers(t, dir, e, &evs, word, err);
	snprintf(neg_word, sizeof(neg_word), "!%s", word);
	if (!r && (has_glob(e->system) || has_glob(e->event)))
		r = set_each(dir, &evs, e->neg, err);
	else if (!r && tfs_write(dir, "set_event", e->neg ? neg_word : word,
				 err))
		r = rec_because(err, "-e %s: the kernel refused it", word);
	tfs_names_free(&evs);
	return r;
}

/* set_event emptied, then trace-cmd's order: the events enabled, then
 * those -v disables. */
int rec_set_events(struct rec_tracefs *t, const struct record_opts *o,
		   const char *dir, const struct rec_buf_opts *b,
		   struct tdat_error *err)
{
	int pass, i;

	if (rec_save(t, dir, "set_event", err) ||
	    tfs_write_trunc(dir, "set_event", "", err))
		return -1;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < b->nevents; i++)
			if (b->events[i].neg == pass &&
			    one_event(t, o, dir, &b->events[i], err))
				return -1;
	return 0;
}

/* ---- the formats that go into the file ---- */

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
