/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcore.h - the vmcore engine: the ftrace ring buffers of a crashed
 * kernel, read from its memory dump (kdump's or QEMU's) into a trace.dat,
 * with nothing but the dump: symbols from its kallsyms tables, types from
 * its own BTF.  cmds/extract.c (extract --vmcore) calls vmcore_run.
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

#endif
