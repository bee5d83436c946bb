/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcore.h - the vmcore engine: the ftrace ring buffers of a crashed
 * kernel, read from its memory dump (kdump's or QEMU's) into a trace.dat,
 * with nothing but the dump: symbols from its kallsyms tables, types from
 * its own BTF.  cmds/extract.c (extract --vmcore) calls vmcore_run;
 * cmds/restore.c (restore --vmcore) reads a recording's files through
 * vmcore_cache_open's source.
 */
#ifndef CONVERT_VMCORE_H
#define CONVERT_VMCORE_H

#include "libfmt/tracedat.h"

struct vmcore_opts {
	const char *dump;	/* --vmcore */
	const char *output;	/* -o */
	int top;		/* -t: the top buffer too */
	int all;		/* -a: every instance */
	int nnames;
	char **names;		/* -B, in order */
	int quiet;		/* -q */
	int version;		/* --file-version: 6 or 7 */
	enum tdat_codec codec;	/* --compression */
};

/* Write o->output from o->dump.  Messages go to stderr; the exit status:
 * 0, or 1 (one line naming the dump and what is wrong; no output). */
int vmcore_run(const struct vmcore_opts *o);

/*
 * restore --vmcore DUMP (cmds/restore.c): a source of a recording's raw
 * files (restore.h's struct raw_source, filled in) that gives each file
 * as the crashed kernel's page cache held it, found by the last two
 * components of its path (OUT.rec/cpuN), the disk's bytes where the
 * cache had no page; temporary files go, unnamed, into tmpdir.  NULL
 * with err (the dump unreadable, or a build without libkdumpfile).
 */
struct raw_source;
struct vmcore_cache;
struct vmcore_cache *vmcore_cache_open(const char *dump, const char *tmpdir,
				       struct raw_source *src,
				       struct tdat_error *err);
void vmcore_cache_close(struct vmcore_cache *vc);

#endif
