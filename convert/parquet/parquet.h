/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parquet.h - convert --to parquet: a trace.dat (or a fleet of them) as
 * a Parquet dataset, one table per event, that DuckDB, Spark, Polars and
 * pandas read as it is.  The layout, the column types and meta.json are
 * in tdat-convert(1); the file writer is the module pqwrite/.
 */
#ifndef PARQUET_H
#define PARQUET_H

#include <stdint.h>
#include "convert/fleet/fleet.h"

struct parquet_opts {
	const char **inputs;	/* trace.dat files (directories expanded
				 * by the caller) */
	int ninputs;
	int fleet;		/* a fleet's layout even for one input (a
				 * directory was given); always for several */
	const char *out;	/* the dataset directory to make */
	int level;		/* zstd level of the pages, 0 = default */
	int add;		/* --add: add the inputs to the fleet dataset
				 * out (made if absent); tasks may add to
				 * one dataset at once */
	struct joblog *log;	/* --add: a line per input; NULL: none */
	/* Stored trace data read so far, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/*
 * Write the dataset: built in a directory beside o->out and renamed into
 * place when complete; nothing is left after an error or a signal
 * (SIGINT, SIGTERM, SIGHUP, through libfmt's outputs list).  A damaged
 * input gets one line with its file and offset on stderr; a cut one is
 * exported as far as its complete pages go.  Returns the exit status:
 * 0, 1 (an input damaged: the dataset is still written, or unreadable:
 * nothing is), 2 (the output cannot be made).  With o->add each input
 * is added whole or not at all, an input in the dataset already is
 * skipped, and one summary line ends the run; 1 when any input failed.
 */
int parquet_run(const struct parquet_opts *o);

/* Expand a directory argument into the trace.dat files in it (regular
 * files ending in ".dat", sorted by name), appended to list (each a
 * malloc'd path).  0, or -1 with errno set. */
int parquet_list_dir(const char *dir, char ***list, int *n);

#endif
