/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - one recording: tracefs set up (each change journaled in
 * OUT.rec/tracefs first), OUT.rec/ described (manifest, head.dat)
 * before the first page moves, readers started, tracing on; then at the
 * end tracing off, every page drained (or, for a latency tracer, the
 * "trace" text saved), tracefs put back, OUT assembled from OUT.rec/
 * (convert/restore/restore.h) and OUT.rec/ removed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/restore/restore.h"
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

static void warn_line(const char *msg)
{
	fprintf(stderr, "tdat record: warning: %s\n", msg);
}

/* The recorded buffers, the top first if it is one. */
static int recorded_names(struct rec_session *s, struct tdat_error *err)
{
	const struct record_opts *o = s->o;
	int i;

	s->st.names = calloc((size_t)o->nbufs, sizeof(*s->st.names));
	if (!s->st.names)
		return tdat_errorf(err, "out of memory");
	for (i = 0; i < o->nbufs; i++)
		if (rec_recorded(o, i))
			s->st.names[s->st.nnames++] = o->bufs[i].name;
	return 0;
}

/* One reader per CPU of every recorded buffer (streams.c). */
static int plan_streams(struct rec_session *s, struct tdat_error *err)
{
	return rec_streams_plan(&s->st, s->t.top, s->recdir, s->ncpus,
				s->meta->page_size, err);
}

static int write_manifest(struct rec_session *s, struct tdat_error *err)
{
	return rec_streams_manifest(&s->st, s->t.top, s->recdir, s->ncpus,
				    s->meta->page_size, s->latency,
				    s->o->version, s->o->codec, err);
}

/* --date's DATE option (microseconds from the trace clock to the wall
 * clock, "0x%llx" as trace-cmd writes it), or --ts-offset's OFFSET. */
static int time_option(struct rec_session *s, const char *dir,
		       struct tdat_error *err)
{
	struct tdat_option opt;
	long long usecs;
	char text[32];

	if (s->o->date) {
		if (rec_date_offset(dir, s->meta, &usecs, err))
			return -1;
		snprintf(text, sizeof(text), "0x%llx", usecs);
		opt.id = TDAT_OPT_DATE;
	} else if (s->o->ts_offset) {
		snprintf(text, sizeof(text), "%s", s->o->ts_offset);
		opt.id = TDAT_OPT_OFFSET;
	} else {
		return 0;
	}
	opt.size = (uint32_t)strlen(text) + 1;
	opt.data = (uint8_t *)text;
	return tdat_add_option(s->meta, &opt) ?
	       tdat_errorf(err, "out of memory") : 0;
}

/* The metadata: formats of the systems recorded (every one with -a and
 * for a latency tracer, as trace-cmd), options of the first recorded
 * buffer (its trace_clock). */
static int collect_meta(struct rec_session *s, struct tdat_error *err)
{
	const struct record_opts *o = s->o;
	struct tfs_names systems;
	char dir[PATH_MAX];
	int first = rec_recorded(o, 0) ? 0 : 1;
	int all = o->all_formats || s->latency;

	if (!all && rec_selected_systems(&s->t, o, &systems, err))
		return -1;
	s->meta = sysmeta_collect(s->t.top, all ? NULL : &systems, NULL, err);
	if (!all)
		tfs_names_free(&systems);
	if (!s->meta)
		return -1;
	s->ncpus = (int)s->meta->cpu_count;
	if (rec_buffer_dir(&s->t, o->bufs[first].name, dir, sizeof(dir), err) ||
	    sysmeta_page_size(dir, &s->meta->page_size, err) ||
	    time_option(s, dir, err))
		return -1;
	return sysmeta_add_options(s->meta, dir, err);
}

static void free_session(struct rec_session *s)
{
	if (s->rd)
		readers_free(s->rd);
	tdat_close(s->meta);
	rec_streams_free(&s->st);
	s->rd = NULL;
	s->meta = NULL;
}

/* The syncer first: its files are its own, the readers' end with them. */
static int stop_syncer(struct rec_session *s, struct tdat_error *err)
{
	int unsupported = 0, r = syncer_stop(s->sync, &unsupported, err);

	s->sync = NULL;
	if (unsupported)
		warn_line("--flush-interval: this file system cannot put files"
			  " on disk on demand (fdatasync); the recording was"
			  " left to its writeback");
	return r;
}

/* Undo a start that failed part way: everything goes back, -k or not. */
static void abort_start(struct rec_session *s)
{
	struct tdat_error e;

	if (s->tracing)
		rec_tracing_on(&s->t, s->o, 0, &e);
	stop_syncer(s, &e);
	if (s->rd)
		readers_stop(s->rd, &e);
	rec_tracefs_restore(&s->t, 0, warn_line);
	if (s->recdir_made && recdir_remove(s->recdir, &e))
		warn_line(e.msg);
	free_session(s);
}

/* Readers wake at least every half --flush-interval: the page the
 * kernel is filling is then in the file by the syncer's next round. */
static long reader_sleep(const struct record_opts *o)
{
	long half = o->flush_ms * 500L;	/* microseconds */

	if (o->flush_ms <= 0 || (o->sleep_us >= 0 && o->sleep_us <= half))
		return o->sleep_us;
	if (o->sleep_us < 0 && half >= REC_READER_SLEEP_US)
		return -1;	/* the default is soon enough */
	return half;
}

static int start_readers(struct rec_session *s, struct tdat_error *err)
{
	const struct record_opts *o = s->o;
	struct reader_opts ro = { (uint64_t)o->max_kb << 10, reader_sleep(o),
				  o->poll, o->rt_prio, s->meta };

	if (!s->st.n)
		return 0;
	s->rd = readers_start(s->st.specs, s->st.n, &ro, err);
	if (!s->rd)
		return -1;
	if (o->flush_ms > 0)
		s->sync = syncer_start(s->recdir, s->st.specs, s->st.n, s->rd,
				       o->flush_ms, err);
	return o->flush_ms > 0 && !s->sync ? -1 : 0;
}


int rec_session_start(struct rec_session *s, const struct record_opts *o,
		      int follow_pid, struct tdat_error *err)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	rec_tracefs_init(&s->t);
	s->t.warn = warn_line;
	s->latency = rec_is_latency_tracer(o->bufs[0].tracer);
	if (tfs_find(s->t.top, sizeof(s->t.top), err) ||
	    recdir_path(o->output, s->recdir, sizeof(s->recdir), err) ||
	    recdir_create(s->recdir, err))
		return -1;
	s->recdir_made = 1;
	if (recorded_names(s, err) ||
	    rec_journal_open(&s->t, s->recdir, o->keep, err) ||
	    rec_tracefs_prepare(&s->t, o, err) || collect_meta(s, err) ||
	    rec_tracefs_arm(&s->t, o, follow_pid, err) ||
	    (!s->latency && plan_streams(s, err)) ||
	    write_manifest(s, err) ||
	    recdir_write_head(s->recdir, s->meta, 7, TDAT_CODEC_NONE, err) ||
	    start_readers(s, err) ||
	    rec_tracefs_leave_self_out(&s->t, o, follow_pid, err))
		goto fail;
	s->tracing = 1;
	if (rec_tracing_on(&s->t, o, 1, err))
		goto fail;
	return 0;
fail:
	abort_start(s);
	return -1;
}

/* "overrun: N" and "dropped events: N" of every CPUSTAT. */
static uint64_t count_lost(const struct tdat_file *m)
{
	static const char *const keys[] = { "\noverrun: ",
					    "\ndropped events: " };
	uint64_t lost = 0;
	const char *p;
	int i, k;

	for (i = 0; i < m->noptions; i++) {
		if (m->options[i].id != TDAT_OPT_CPUSTAT ||
		    !m->options[i].size ||
		    m->options[i].data[m->options[i].size - 1])
			continue;
		for (k = 0; k < 2; k++) {
			p = strstr((char *)m->options[i].data, keys[k]);
			if (p)
				lost += strtoull(p + strlen(keys[k]), NULL, 10);
		}
	}
	return lost;
}

/* Per-CPU stats of every buffer, and the cmdlines seen meanwhile. */
static int final_meta(struct rec_session *s, struct tdat_error *err)
{
	const struct record_opts *o = s->o;
	char dir[PATH_MAX];
	int i;

	for (i = 0; i < o->nbufs; i++) {
		if (!rec_recorded(o, i))
			continue;
		if (rec_buffer_dir(&s->t, o->bufs[i].name, dir, sizeof(dir),
				   err) ||
		    sysmeta_add_cpustats(s->meta, dir, o->bufs[i].name,
					 s->ncpus, err))
			return -1;
	}
	return sysmeta_refresh_cmdlines(s->meta, s->t.top, err);
}

/* A latency tracer's result: the top buffer's "trace" text. */
static int save_latency(struct rec_session *s, struct tdat_error *err)
{
	struct tdat_blob text;
	int r;

	if (tfs_read(s->t.top, "trace", &text, err))
		return -1;
	r = recdir_write_text(s->recdir, REC_LATENCY_FILE, (char *)text.data,
			      err);
	free(text.data);
	return r;
}

static int unlink_journal(struct rec_session *s, struct tdat_error *err)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/tracefs", s->recdir);
	if (unlink(path) && errno != ENOENT)
		return tdat_errorf(err, "%s: cannot remove: %s", path,
				   strerror(errno));
	return 0;
}

/* The stats and cmdlines of the end, into head.dat too: 1 when head.dat
 * now holds s->meta, so the file is assembled from it, not read back. */
static int final_head(struct rec_session *s, uint64_t *lost)
{
	struct tdat_error e;

	if (final_meta(s, &e)) {
		warn_line(e.msg);	/* the head.dat from the start stays */
		return 0;
	}
	*lost = count_lost(s->meta);
	if (recdir_write_head(s->recdir, s->meta, 7, TDAT_CODEC_NONE, &e)) {
		warn_line(e.msg);
		return 0;
	}
	return 1;
}

static void keep_going(void *ctx, const char *msg)
{
	warn_line(msg);
}

int rec_session_stop(struct rec_session *s, uint64_t *lost,
		     struct tdat_error *err)
{
	/* Level 1: a recorder should cost little CPU, and on trace data
	 * zstd -1 is about as small as trace-cmd's -3 (convert --level
	 * recompresses harder). */
	struct convert_opts co = { .version = s->o->version,
				   .codec = s->o->codec, .level = 1,
				   .warn = keep_going };
	struct tdat_error e;
	struct tdat_file *head;
	int r = 0, restored, fresh;

	*lost = 0;
	if (rec_tracing_on(&s->t, s->o, 0, &e)) {
		warn_line(e.msg);
		r = -1;
		*err = e;
	}
	s->tracing = 0;
	if (stop_syncer(s, &e)) {
		if (!r)
			*err = e;
		r = -1;
	}
	if ((s->rd && readers_stop(s->rd, &e)) ||
	    (s->latency && save_latency(s, &e))) {
		if (!r)
			*err = e;
		r = -1;
	}
	if (s->rd && readers_limit_failed(s->rd))
		warn_line("-m: this file system cannot drop the oldest pages"
			  " of a file; everything was kept");
	fresh = final_head(s, lost);
	restored = rec_tracefs_restore(&s->t, s->o->keep, warn_line);
	/* put back: not again by a restore of what is left */
	if (!restored && unlink_journal(s, &e))
		warn_line(e.msg);
	if (r) {
		e = *err;
		free_session(s);
		return tdat_errorf(err, "%s (what was recorded is in %s: \"tdat"
			    " restore %s\" makes the file)", e.msg,
			    s->recdir, s->o->output);
	}
	head = fresh ? s->meta : NULL;	/* NULL: head.dat is read */
	if (fresh)
		s->meta = NULL;
	if (assemble_recording_head(s->recdir, head, s->o->output, &co, &e)) {
		free_session(s);
		return tdat_errorf(err, "%s (the recording stays in %s)", e.msg,
			    s->recdir);
	}
	if (recdir_remove(s->recdir, &e))
		warn_line(e.msg);
	free_session(s);
	if (restored)
		return tdat_errorf(err, "tracefs could not be put back as it was"
			    " (see the warnings above)");
	return 0;
}
