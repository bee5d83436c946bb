/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parquet_internal.h - what the files of convert/parquet/ share (the
 * interface is parquet.h; the Parquet file writer is pqwrite/pqwrite.h).
 *
 * stage.c makes the dataset's directory beside its final name; schema.c
 * turns an event format into a table's columns; table.c holds a table's
 * writer and file and keeps the memory of all tables bounded; rows.c
 * puts each event of the event stream into its table; symtabs.c
 * writes cmdlines and kallsyms; meta.c writes meta.json; text.c makes
 * trace bytes UTF-8 and JSON.
 */
#ifndef PARQUET_INTERNAL_H
#define PARQUET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "convert/parquet/parquet.h"
#include "convert/parquet/pqwrite/pqwrite.h"
#include "convert/events/events.h"
#include "libfmt/bytes.h"

/* ---- text.c ---- */

/* n bytes of s as UTF-8 into out (reset first): valid UTF-8 as it is,
 * every other byte as the character U+00XX (what --json's \u00XX
 * escape means).  0, or -1 when out of memory. */
int text_utf8(struct tdat_bytes *out, const char *s, size_t n);
/* s (n bytes, made UTF-8 as above) as a JSON string, quotes included,
 * appended to out.  0 or -1. */
int text_json(struct tdat_bytes *out, const char *s, size_t n);
int text_add(struct tdat_bytes *out, const char *s);
/* A name from a file fit for a path: only [A-Za-z0-9_.-] (others
 * become '_'), never "." first, never empty; cut to cap. */
void text_safe_name(char *out, size_t cap, const char *s);

/* ---- stage.c: the dataset's directory until it is complete ---- */

struct stage {
	char *final;		/* the name asked for */
	char *dir;		/* .NAME.tdat-XXXXXX beside it */
	char err[512];		/* why the last call failed */
};

/* Check that final can be made (absent, or an empty directory), then
 * make the staging directory, registered for removal on a signal.  0 or
 * -1 (err said). */
int stage_open(struct stage *s, const char *final);
/* --add: an input's stage inside the dataset, ADD_STAGE "NAME.XXXXXX"
 * (a run killed leaves it; the next one removes it, publish.c).  0 or
 * -1 (err said). */
#define ADD_STAGE ".tdat-add-"
int stage_open_inside(struct stage *s, const char *dataset,
		      const char *name);
/* Make directory rel (one level) inside the stage, if not there. */
int stage_mkdir(struct stage *s, const char *rel);
/* The stage's path of rel, malloc'd (NULL out of memory). */
char *stage_path(const struct stage *s, const char *rel);
/* Write a small whole file rel (synced).  0 or -1. */
int stage_write(struct stage *s, const char *rel, const void *p, size_t n);
/* Sync the directories, give the stage its final mode and name.  0 or
 * -1; the stage is removed either way on failure. */
int stage_commit(struct stage *s);
/* Remove the stage and all it holds. */
void stage_abort(struct stage *s);

/* ---- schema.c: an event's columns ---- */

enum col_src {
	SRC_TRACE, SRC_TS, SRC_CPU, SRC_BUFFER, SRC_PID, SRC_COMM,
	SRC_MISSED, SRC_FIELD, SRC_MESSAGE,
};

struct colspec {
	enum col_src src;
	struct field_place place;	/* SRC_FIELD: the field and its kind
					 * (the stream's event_layout) */
	int quick;		/* a fixed integer: read without checks when
				 * the record holds the table's quick_end */
	char *from;		/* where --json shows it: "fields.pid" */
};

/* An event table's own columns, in this order from its `own` index
 * (after trace, in a fleet). */
enum own_col {
	OWN_TS, OWN_CPU, OWN_BUFFER, OWN_PID, OWN_COMM, OWN_MISSED,
};

struct table_schema {
	struct pq_column *cols;	/* names owned */
	struct colspec *spec;
	int ncols;
	int quick_end;		/* where the last quick field ends */
	struct quick_field {	/* the quick columns, read in one loop */
		int col, offset, size;
	} *quick;
	int nquick;
	int *slow;		/* the other fields (and bprint's message) */
	int nslow;
	int own;		/* index of the timestamp column, then the
				 * rest of enum own_col; -1: a fixed table */
};

/* The columns of the table of l's event: [trace,] timestamp, cpu,
 * buffer, pid, comm, missed_events, the common fields, the format fields
 * (a name already taken gets "field_" before it), [message for
 * ftrace/bprint].  0 or -1 (out of memory). */
int schema_for_event(struct table_schema *s, const struct event_layout *l,
		     int with_trace);
/* A fixed table: n columns of the given names and kinds (cmdlines,
 * kallsyms). */
int schema_fixed(struct table_schema *s, const struct pq_column *cols,
		 int n);
void schema_free(struct table_schema *s);
/* Parquet's name of a column's type, for meta.json ("UINT64", "STRING",
 * "LIST<INT32>", ...). */
const char *schema_type_name(const struct pq_column *c, char *buf,
			     size_t cap);

/* ---- table.c: a table's writer and file ---- */

struct tables;

struct table {
	struct tables *set;
	char *rel;		/* its path in the dataset */
	const struct tep_event *ev;	/* its format, while the events are
					 * walked (the stream's handle owns it);
					 * NULL for cmdlines, kallsyms */
	char *system, *name;	/* the event's, kept past the walk */
	int id;
	struct table_schema schema;
	struct pq_writer *w;
	int fd;			/* open while the writer writes, else -1 */
	int made;		/* its file exists */
	size_t held;		/* pq_buffered() after the last row */
	uint64_t rows, first_ts, last_ts;
};

struct tables {
	struct stage *stage;
	struct table **all;	/* in the order made */
	int n, cap;
	struct table **by_id;	/* event id -> table, 65536, lazily */
	size_t held, budget;	/* bytes buffered by all, and the most */
	int level;		/* zstd */
	struct tdat_bytes wbuf;	/* writes to the open file gather here */
	char err[512];		/* why the last call failed */
};

void tables_init(struct tables *ts, struct stage *st, int level);
/* A new table at rel with schema s (taken over).  NULL on failure. */
struct table *table_new(struct tables *ts, const char *rel,
			struct table_schema *s);
/* Close row r of t: pq_end_row, then the file closed again and the
 * budget kept.  0 or -1 (ts->err said). */
int table_end_row(struct table *t);
/* Finish every table: last row groups, footers, synced.  0 or -1. */
int tables_finish(struct tables *ts);
void tables_free(struct tables *ts);

/* ---- rows.c: the events into their tables ---- */

struct export_input {
	const char *path;
	char why[512];		/* the first line said of it, or "" */
	const char *name;	/* a fleet's trace name, or NULL */
	int fleet;
	int big_endian;		/* the file's byte order */
	uint64_t rows, unknown;	/* exported; without a format */
	uint64_t first_ts, last_ts;
};

/* Export every event of in (through the event stream) into ts.  Returns
 * the exit status as events_walk does, or -1 when writing failed
 * (ts->err said). */
int rows_export(struct tables *ts, struct export_input *in,
		const struct parquet_opts *o);

/* ---- symtabs.c ---- */

struct tdat_file;
/* cmdlines and kallsyms tables of f.  0 or -1 (err said). */
int symtabs_write(struct tables *ts, const struct tdat_file *f,
		  const struct export_input *in, uint64_t *ncmd,
		  uint64_t *nsyms);

/* ---- run.c ---- */

/* A fleet's meta.json: the traces are in traces/NAME.json, one file an
 * input, so that tasks adding inputs at once share no file. */
#define FLEET_META "{\"tdat_dataset\":2,\"layout\":\"fleet\"," \
		   "\"trace_files\":\"traces/*.json\"}\n"
/* An input's trace name in a fleet: its base name less ".dat", fit for
 * a file name; the alternative for a second input of that name adds 8
 * hex digits of a hash of its path. */
void trace_stem(char *out, size_t cap, const char *path);
void trace_alt(char *out, size_t cap, const char *path);
/* One input into the stage, its meta.json object into meta.  The exit
 * status: 0, 1 (damaged, exported as far as it goes), or -1 (nothing
 * can be written: said, and kept in in->why). */
int export_one(struct stage *st, const struct parquet_opts *o,
	       struct export_input *in, struct tdat_bytes *meta);

/* ---- add.c, claim.c, publish.c: --add ---- */

int parquet_add(const struct parquet_opts *o);

enum claim {
	CLAIM_NEW,		/* the name is this input's now */
	CLAIM_OURS,		/* claimed by a run of it that was killed */
	CLAIM_DONE,		/* the input is in the dataset */
};
/* The name of path's input in dataset (its stem, or if another input
 * has that, the alternative) into name, claimed (traces/NAME.claim)
 * unless the input is there already.  enum claim, or -1 with why. */
int claim_name(const char *dataset, const char *path, char *name,
	       size_t cap, char *why, size_t wcap);
/* The claim removed once traces/NAME.json is there. */
void claim_drop(const char *dataset, const char *name);

/* What a killed run of input NAME left in dataset removed: its stage,
 * its claim's temporary file, and with tables its tables (not when its
 * traces/NAME.json is there: the run was killed after it). */
void publish_clean(const char *dataset, const char *name, int tables);
/* The stage's files renamed into the dataset at the same places (never
 * over a file), then its top-level NAME.json to traces/NAME.json, each
 * directory synced; *bytes is their size.  0, or -1 with why. */
int publish(struct stage *st, const char *dataset, const char *name,
	    uint64_t *bytes, char *why, size_t cap);

/* ---- meta.c ---- */

/* One input's object for meta.json, appended to out, open its first
 * bytes ("{" and keys of the caller's).  0 or -1. */
int meta_input(struct tdat_bytes *out, const char *open,
	       const struct tdat_file *f,
	       const struct export_input *in, const struct tables *ts,
	       uint64_t ncmd, uint64_t nsyms);

#endif
