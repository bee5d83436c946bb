/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - the record engine's interface: the options cmds/record.c
 * parses, and record_run.
 *
 * It also sets down the on-disk state of a recording (the contract
 * between record and restore, so that a SIGKILLed "record -o OUT" can be
 * finished by "restore OUT").  While it runs, record keeps everything in
 * the directory OUT.rec/:
 *
 *   OUT.rec/head.dat    header-only trace.dat written before tracing
 *                       starts (sysmeta_header_only's content plus the
 *                       recording's options: clock, uname, ...); may be
 *                       rewritten (atomically) when the recording ends,
 *                       to add per-CPU stats.
 *   OUT.rec/manifest    text, written atomically before tracing starts:
 *                         tdat-recording 1
 *                         page_size 4096
 *                         buffer NAME clock CLOCK cpus N
 *                         cpu NAME CPU FILE
 *                       one "buffer" line per buffer ("-" names the top
 *                       buffer, first), then one "cpu" line per CPU
 *                       stream; FILE is relative to OUT.rec/.
 *   OUT.rec/output      added later: one line "VERSION CODEC" ("6 none",
 *                       "7 zstd"), the file the recording was asked for.
 *                       head.dat is always v7 "none" (quick to write
 *                       twice; compressing kallsyms is not), so restore
 *                       OUT should take version and codec from this file
 *                       when it is there.
 *   OUT.rec/FILE        raw ring-buffer pages as read from
 *                       trace_pipe_raw, page after page; the last page
 *                       may be incomplete after a crash.  Note: the
 *                       kernel sets the missed-events flags of the
 *                       commit word through a signed long, so a page
 *                       that follows lost events reads e.g. commit
 *                       0xffffffffc0000fc0 on a 64-bit kernel (bits
 *                       32-63 set, sign-extended from bit 31): a good
 *                       page that trace-cmd reads and reports with
 *                       "CPU:N [M EVENTS DROPPED]", not a bad one.
 *
 * On a normal end, record assembles OUT from OUT.rec with the same code
 * restore uses (convert/restore/restore.h) and then removes OUT.rec.
 */
#ifndef TDAT_RECORD_H
#define TDAT_RECORD_H

#include "libfmt/tracedat.h"

/* One -e: SYSTEM, SYSTEM:EVENT, EVENT or all (system and event NULL). */
struct rec_event {
	char *system;		/* NULL: every system ("all", or EVENT alone) */
	char *event;		/* NULL: every event of system */
	char *filter;		/* -f after it, or NULL */
};

/* The top buffer (name "") or a -B instance, with its -e options. */
struct rec_buf_opts {
	char *name;
	int nevents;
	struct rec_event *events;
};

struct record_opts {
	int nbufs;
	struct rec_buf_opts *bufs;	/* [0]: the top buffer, always there */
	char *clock;		/* -C, or NULL to leave trace_clock alone */
	long buffer_kb;		/* -b, 0: leave buffer_size_kb alone */
	char *cpumask;		/* -M, or NULL */
	long max_kb;		/* -m, 0: no limit */
	char *output;		/* -o, default trace.dat */
	int quiet;		/* -q */
	int version;		/* --file-version: 6 or 7 */
	enum tdat_codec codec;	/* --compression */
	long subbuf_kb;		/* --subbuf-size, 0: leave alone */
	char **cmd;		/* COMMAND [ARGS], or NULL: until a signal */
};

/*
 * Record as o says: set tracefs up, start o->cmd if there is one, wait
 * for it to end (or for SIGINT/SIGTERM/SIGHUP), put tracefs back and
 * write o->output.  Messages go to stderr.  Returns the exit status:
 * 0, 1 on failure, or the command's (128 + N when signal N killed it).
 */
int record_run(const struct record_opts *o);

#endif
