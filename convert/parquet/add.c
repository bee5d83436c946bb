/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * add.c - convert --to parquet --add: inputs added to a fleet dataset
 * that other tasks may be adding to at the same moment.
 *
 * The dataset is made if absent (whole, by one rename, as any dataset)
 * with its meta.json, which is never written again.  Each input then
 * gets its name (claim.c), is exported into a stage of its own inside
 * the dataset, and its files are moved into place (publish.c), its
 * traces/NAME.json last.  No two inputs share a file, so no file is
 * written by two tasks; an input whose traces/NAME.json is there is
 * skipped, and one whose claim a killed run left is cleared and done
 * again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "convert/parquet/parquet_internal.h"

enum { ADDED, ALREADY, FAILED };

struct add_run {
	const struct parquet_opts *o;
	int count[3];
	int damaged;		/* an input added as far as it went */
};

/* Whether dir holds a fleet dataset of this layout: its meta.json is
 * FLEET_META and it has traces/.  0, or -1 with why. */
static int is_fleet(const char *dir, char *why, size_t cap)
{
	char path[4200], head[sizeof(FLEET_META) + 1];
	ssize_t n = -1;
	struct stat st;
	int fd;

	if (lstat(dir, &st))
		return -1;	/* why: the caller's */
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	fd = S_ISDIR(st.st_mode) ? open(path, O_RDONLY | O_NOFOLLOW |
					O_CLOEXEC) : -1;
	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/traces", dir);
	if (n == (ssize_t)strlen(FLEET_META) &&
	    !memcmp(head, FLEET_META, (size_t)n) && !lstat(path, &st) &&
	    S_ISDIR(st.st_mode))
		return 0;
	snprintf(why, cap, "%s: not a fleet dataset of this tdat (its"
		 " meta.json is not %.*s): nothing is added to it", dir,
		 (int)strlen(FLEET_META) - 1, FLEET_META);
	return -1;
}

/* The dataset there, made (empty) if it is not.  0, or -1 with why. */
static int dataset_ready(const char *dir, char *why, size_t cap)
{
	struct stage st;

	if (!is_fleet(dir, why, cap))
		return 0;
	if (!stage_open(&st, dir) && !stage_mkdir(&st, "traces") &&
	    !stage_write(&st, "meta.json", FLEET_META, strlen(FLEET_META)) &&
	    !stage_commit(&st))
		return 0;
	snprintf(why, cap, "%s", st.err);
	stage_abort(&st);
	return is_fleet(dir, why, cap);	/* another task made it first */
}

/* The input exported into st and published.  0, 1 (damaged, added as
 * far as it goes), -1 (why said). */
static int export_publish(struct add_run *r, struct stage *st,
			  struct export_input *in, uint64_t *bytes)
{
	struct tdat_bytes meta = { 0 };
	char rel[300];
	int s = export_one(st, r->o, in, &meta);

	snprintf(rel, sizeof(rel), "%s.json", in->name);
	if (s >= 0 && (text_add(&meta, "\n") ||
		       stage_write(st, rel, meta.data, meta.len))) {
		snprintf(in->why, sizeof(in->why), "%s", st->err[0] ?
			 st->err : "out of memory");
		s = -2;
	}
	if (s >= 0 && publish(st, r->o->out, in->name, bytes, in->why,
			      sizeof(in->why)))
		s = -2;
	if (s == -2)	/* export_one said its own */
		fprintf(stderr, "tdat convert: %s\n", in->why);
	tdat_bytes_free(&meta);
	return s < 0 ? -1 : s;
}

/* One input, named, exported, published; what was done, logged. */
static void add_one(struct add_run *r, const char *path)
{
	struct joblog_entry e = { path, "failed", 0, 0, 0, 0, NULL, NULL };
	struct export_input in;
	struct timespec t0;
	struct stat sb = { 0 };
	struct stage st;
	char name[256];
	int c, s = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&in, 0, sizeof(in));
	memset(&st, 0, sizeof(st));
	in.path = path;
	in.fleet = 1;
	in.name = name;
	c = claim_name(r->o->out, path, name, sizeof(name), in.why,
		       sizeof(in.why));
	if (c == CLAIM_OURS)
		publish_clean(r->o->out, name, 1);
	if (c == CLAIM_DONE) {	/* a run killed once it was whole */
		publish_clean(r->o->out, name, 0);
		claim_drop(r->o->out, name);
	}
	if (c == CLAIM_NEW || c == CLAIM_OURS) {
		if (stage_open_inside(&st, r->o->out, name)) {
			snprintf(in.why, sizeof(in.why), "%s", st.err);
			fprintf(stderr, "tdat convert: %s\n", in.why);
		} else {
			s = export_publish(r, &st, &in, &e.after);
		}
		stage_abort(&st);
		if (s < 0)	/* nothing of it left, its name free */
			publish_clean(r->o->out, name, 1);
		claim_drop(r->o->out, name);
	}
	if (c == CLAIM_DONE)
		e.result = "added already";
	else if (s >= 0)
		e.result = "added";
	else if (c < 0)
		fprintf(stderr, "tdat convert: %s\n", in.why);
	if (s == 1)
		snprintf(in.why, sizeof(in.why), "damaged: added as far as"
			 " its complete pages go (the line above)");
	r->count[c == CLAIM_DONE ? ALREADY : s >= 0 ? ADDED : FAILED]++;
	r->damaged |= s == 1;
	e.sized = !stat(path, &sb) && s >= 0;
	e.before = (uint64_t)sb.st_size;
	e.seconds = joblog_since(&t0);
	e.reason = in.why[0] && c != CLAIM_DONE ? in.why : NULL;
	if (r->o->log)
		joblog_write(r->o->log, &e);
}

int parquet_add(const struct parquet_opts *o)
{
	struct add_run r;
	char why[600];
	int k;

	memset(&r, 0, sizeof(r));
	r.o = o;
	if (dataset_ready(o->out, why, sizeof(why))) {
		fprintf(stderr, "tdat convert: %s\n", why);
		return 2;
	}
	for (k = 0; k < o->ninputs; k++)
		add_one(&r, o->inputs[k]);
	fprintf(stderr, "tdat convert: %d added, %d added already, %d"
		" failed\n", r.count[ADDED], r.count[ALREADY],
		r.count[FAILED]);
	return r.count[FAILED] || r.damaged ? 1 : 0;
}
