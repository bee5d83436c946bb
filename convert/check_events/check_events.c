/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_events.c - parse every event format of the live tracefs, or the
 * formats stored in a trace.dat, with libtraceevent, and name each one
 * that fails.
 *
 * Unlike trace-cmd check-events, which exits 0 whatever it finds, a
 * format that does not parse shows in the exit status: scripts can test
 * a kernel or a recording without reading the output.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"
#include "convert/check_events/check_events.h"
#include "convert/tepfmt/tepfmt.h"
#include "convert/tracefs/tracefs.h"

/* What was checked and what failed. */
struct check {
	struct tep_handle *tep;
	const char *file;	/* -i: the trace.dat, for failure lines */
	struct tepfmt_trial trial;	/* -i: what killed libtraceevent */
	int nformat;		/* -i: formats walked so far */
	int header_checked;
	int checked;
	int failed;
};

/* A handle set up as the formats' kernel was: byte order, long size. */
static struct tep_handle *new_tep(int big_endian, int long_size,
				  int page_size)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN :
						 TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, page_size);
	if (tepfmt_prepare(tep)) {
		tep_free(tep);
		return NULL;
	}
	return tep;
}

/* Names quoted from a file may hold any byte: keep the line printable. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* "WHERE: WHAT: WHY", one line per failing format; WHAT is
 * SYSTEM:EVENT or header_page. */
static void print_failure(struct check *c, const char *where,
			  const char *what, const char *why)
{
	char line[1024];

	snprintf(line, sizeof(line), "%s: %s: %s", where, what, why);
	printable(line);
	printf("%s\n", line);
	c->failed++;
}

/* Lines of a format text that declare a field ("\tfield:..."). */
static int count_field_lines(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	int n = 0;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl - p > 6 && !memcmp(p, "\tfield", 6))
			n++;
		p = nl + 1;
	}
	return n;
}

/*
 * Why a flagged event failed.  libtraceevent keeps an event it could
 * not parse whole, flagged, and returns success: its records then print
 * as [FAILED TO PARSE].  What it managed to fill in tells which part
 * broke; --verbose=warning shows its own messages.
 */
static const char *why_flagged(const struct tep_event *event,
			       const char *text, size_t len)
{
	if (event->format.nr_common + event->format.nr_fields <
	    count_field_lines(text, len))
		return "cannot parse the field list";
	if (!event->print_fmt.format)
		return "cannot parse the print fmt line";
	return "cannot parse the print fmt arguments";
}

static void parse_format(struct check *c, const char *where,
			 const char *system, const char *event,
			 const char *text, size_t len)
{
	struct tep_event *parsed = NULL;
	char what[256], why[256];
	const char *refused;
	enum tep_errno e;

	c->checked++;
	e = tepfmt_parse(c->tep, &parsed, text, len, system, &refused);
	if (e == TEP_ERRNO__SUCCESS && parsed &&
	    !(parsed->flags & TEP_EVENT_FL_FAILED))
		return;
	if (refused) {
		snprintf(why, sizeof(why), "%s", refused);
	} else if (e != TEP_ERRNO__SUCCESS) {
		if (tep_strerror(c->tep, e, why, sizeof(why)))
			snprintf(why, sizeof(why), "libtraceevent error %d",
				 (int)e);
	} else if (!parsed) {
		snprintf(why, sizeof(why), "libtraceevent returned no event");
	} else {
		snprintf(why, sizeof(why), "%s",
			 why_flagged(parsed, text, len));
	}
	snprintf(what, sizeof(what), "%s:%s", system, event);
	print_failure(c, where, what, why);
}

/*
 * libtraceevent takes a header_page without a timestamp or commit field
 * for one where they have size 0; no page could be read with it.
 */
static void parse_header_page(struct check *c, const char *where,
			      char *text, size_t len, int long_size)
{
	char why[128];
	int ts, commit;

	c->header_checked = 1;
	if (tep_parse_header_page(c->tep, text, len, long_size)) {
		print_failure(c, where, "header_page", "cannot be parsed");
		return;
	}
	ts = tep_get_header_timestamp_size(c->tep);
	commit = tep_get_header_page_size(c->tep);
	if (ts != 8)
		snprintf(why, sizeof(why), "the timestamp field has size %d,"
			 " not 8", ts);
	else if (commit != 4 && commit != 8)
		snprintf(why, sizeof(why), "the commit field has size %d,"
			 " not 4 or 8", commit);
	else
		return;
	print_failure(c, where, "header_page", why);
}

/* ---- the live tracefs ------------------------------------------------ */

/* One events/SYSTEM/EVENT/format; a file that cannot be read fails. */
static void check_live_format(struct check *c, const char *dir,
			      const char *system, const char *event)
{
	char rel[PATH_MAX], where[2 * PATH_MAX];
	struct tdat_error err;
	struct tdat_blob text;

	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, event);
	snprintf(where, sizeof(where), "%s/%s", dir, rel);
	if (tfs_read(dir, rel, &text, &err)) {
		/* err names the file and why: it is the line. */
		c->checked++;
		c->failed++;
		printf("%s\n", err.msg);
		return;
	}
	parse_format(c, where, system, event, (const char *)text.data,
		     text.len);
	free(text.data);
}

static int check_live_system(struct check *c, const char *dir,
			     const char *system, struct tdat_error *err)
{
	char rel[PATH_MAX];
	struct tfs_names events;
	int i;

	snprintf(rel, sizeof(rel), "events/%s", system);
	if (tfs_subdirs(dir, rel, &events, err))
		return -1;
	for (i = 0; i < events.n; i++)
		check_live_format(c, dir, system, events.v[i]);
	tfs_names_free(&events);
	return 0;
}

static int check_live(struct check *c, const struct check_events_opts *a,
		      struct tdat_error *err)
{
	char dir[PATH_MAX], where[PATH_MAX + 32];
	struct tep_plugin_list *plugins = NULL;
	struct tfs_names systems;
	struct tdat_blob header;
	int i, r = 0;

	if (tfs_find(dir, sizeof(dir), err) ||
	    tfs_read(dir, "events/header_page", &header, err))
		return -1;
	if (tfs_subdirs(dir, "events", &systems, err)) {
		free(header.data);
		return -1;
	}
	c->tep = new_tep(tdat_host_big_endian(),
			 (int)sizeof(long), getpagesize());
	if (!c->tep) {
		tdat_errorf(err, "out of memory");
		r = -1;
		goto out;
	}
	if (a->plugins)
		plugins = tep_load_plugins(c->tep);
	snprintf(where, sizeof(where), "%s/events/header_page", dir);
	parse_header_page(c, where, (char *)header.data, header.len,
			  (int)sizeof(long));
	for (i = 0; i < systems.n && !r; i++)
		r = check_live_system(c, dir, systems.v[i], err);
	if (plugins)
		tep_unload_plugins(plugins, c->tep);
	tep_free(c->tep);
out:
	tfs_names_free(&systems);
	free(header.data);
	return r;
}

/* ---- a trace.dat -------------------------------------------------------- */

/* The "name: EVENT" line of a format text, or "?" when it has none. */
static void format_name(const char *text, size_t len, char *name,
			size_t cap)
{
	const char *p = text, *end = text + len;
	size_t n = 0;

	strcpy(name, "?");
	if (len < 5 || memcmp(p, "name:", 5))
		return;
	for (p += 5; p < end && *p == ' '; p++)
		;
	while (p < end && *p != '\n' && n + 1 < cap)
		name[n++] = *p++;
	name[n] = 0;
	if (!n)
		strcpy(name, "?");
}

#define KILLED "libtraceevent crashes parsing it (in a trial in a child" \
	       " process)"

static int check_file_format(void *ctx, const char *system,
			     const char *text, size_t len)
{
	struct check *c = ctx;
	char name[128], what[256];

	format_name(text, len, name, sizeof(name));
	if (!tepfmt_trial_ok(&c->trial, 1 + c->nformat++)) {
		c->checked++;
		snprintf(what, sizeof(what), "%s:%s", system, name);
		print_failure(c, c->file, what, KILLED);
		return 0;
	}
	parse_format(c, c->file, system, name, text, len);
	return 0;
}

static int check_file(struct check *c, const struct check_events_opts *a,
		      struct tdat_error *err)
{
	struct tep_plugin_list *plugins = NULL;
	const char *page, *event;
	size_t page_len, event_len;
	struct tdat_file *f;
	char *header = NULL;
	int r = -1;

	f = tdat_open(a->input, err);
	if (!f)
		return -1;
	c->file = a->input;
	if (tdat_header_texts(f, &page, &page_len, &event, &event_len, err))
		goto out;
	/* libtraceevent may write into the text it parses: a copy. */
	header = malloc(page_len + 1);
	c->tep = new_tep(f->big_endian, f->commit_size, (int)f->page_size);
	if (!header || !c->tep) {
		tdat_fail_nooff(err, a->input, "out of memory");
		goto out;
	}
	memcpy(header, page, page_len);
	header[page_len] = 0;
	if (a->plugins)
		plugins = tep_load_plugins(c->tep);
	tepfmt_trial(c->tep, f, &c->trial);
	/* An empty header_page is an old kernel's, not a broken one. */
	if (page_len && !tepfmt_trial_ok(&c->trial, 0)) {
		c->header_checked = 1;
		print_failure(c, a->input, "header_page", KILLED);
	} else if (page_len) {
		parse_header_page(c, a->input, header, page_len,
				  f->commit_size);
	}
	r = tdat_each_format(f, check_file_format, c, err) < 0 ? -1 : 0;
	tepfmt_trial_free(&c->trial);
out:
	if (plugins)
		tep_unload_plugins(plugins, c->tep);
	if (c->tep)
		tep_free(c->tep);
	free(header);
	tdat_close(f);
	return r;
}

/* ---- the summary ---------------------------------------------------------- */

static void print_summary(const struct check *c)
{
	printf("checked %s%d event format%s: %d failed\n",
	       c->header_checked ? "header_page and " : "", c->checked,
	       c->checked == 1 ? "" : "s", c->failed);
}

int check_events_run(const struct check_events_opts *o)
{
	struct check c = { 0 };
	struct tdat_error err;
	int r;

	tep_set_loglevel(o->loglevel);
	if (o->input)
		r = check_file(&c, o, &err);
	else
		r = check_live(&c, o, &err);
	if (r) {
		fflush(stdout);
		fprintf(stderr, "tdat check-events: %s\n", err.msg);
		return 1;
	}
	print_summary(&c);
	return c.failed ? 1 : 0;
}
