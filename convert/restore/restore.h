/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore.h - the restore engine's interface: a trace.dat rebuilt from
 * what is left.  Raw per-CPU page files plus metadata become a
 * trace.dat (what record does when it ends, and what restore does with
 * the files a crashed recorder left: trace-cmd's trace.dat.cpuN, or our
 * own OUT.rec/ directory, described in convert/record/record.h); a
 * damaged trace.dat becomes a valid one.
 */
#ifndef TDAT_RESTORE_H
#define TDAT_RESTORE_H

#include "convert/opts.h"

/* restore -i HEAD -o OUT CPUFILE...: cpufiles[i] holds CPU i of the top
 * buffer (clock "local" unless head says otherwise). */
int assemble_cpu_files(const char *head, char *const *cpufiles, int n,
		       const char *out, const struct convert_opts *o,
		       struct tdat_error *err);

/*
 * Where a recording's raw files are read from.  By default each file,
 * whole; a source may give fewer bytes of it (what the last round a
 * dead machine's disk completed holds) or another descriptor (the file
 * as a crashed kernel's page cache held it).  open gives a descriptor
 * at offset 0 and the bytes to take (*size), and may put one line for
 * the user in note (cap bytes; "" for none); -1 with err.
 */
struct raw_source {
	int (*open)(void *ctx, const char *path, uint64_t *size, char *note,
		    size_t cap, struct tdat_error *err);
	void *ctx;
	/* 1: open is asked for files the disk lacks too (a crashed
	 * kernel's page cache may hold a file whose name never reached
	 * the disk); 0: such a file is an empty CPU, said so */
	int sees_missing;
};

/* OUT.rec/ (manifest, head.dat, raw files) -> out. */
int assemble_recording(const char *recdir, const char *out,
		       const struct convert_opts *o, struct tdat_error *err);
/* The same with head.dat's metadata given (taken over and closed; NULL
 * reads head.dat): the recorder's own, just written there, is not read
 * back. */
int assemble_recording_head(const char *recdir, struct tdat_file *head,
			    const char *out, const struct convert_opts *o,
			    struct tdat_error *err);
/* The same with the raw files read through src. */
int assemble_recording_from(const char *recdir, const struct raw_source *src,
			    const char *out, const struct convert_opts *o,
			    struct tdat_error *err);

/*
 * restore -o OUT DAMAGED: read in as far as it goes (strictly where it
 * can, tolerantly where it must), infer what was lost (buffers, CPUs,
 * clock), and write out with every genuine page.  o->version 0 keeps the
 * input's version and codec.  Lines about what was dropped and inferred
 * go to o->warn.  0, or -1 with err (nothing written).
 */
int salvage_file(const char *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err);

/*
 * What the file path starts with (input_check.c): RESTORE_TRACEDAT (the
 * trace.dat magic), RESTORE_EMPTY (no byte), RESTORE_OTHER (anything
 * else: err then says what it starts with, at offset 0), or -1 with err
 * if it cannot be read or is a trace.dat whose magic is damaged.
 */
enum { RESTORE_TRACEDAT, RESTORE_EMPTY, RESTORE_OTHER };
int restore_input_kind(const char *path, struct tdat_error *err);

#endif
