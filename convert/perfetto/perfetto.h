/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfetto.h - convert --to perfetto: one or several trace.dat files as
 * one Perfetto protobuf trace (ui.perfetto.dev, trace_processor): every
 * CPU's events in FtraceEventBundles, typed where Perfetto's analyses
 * read them (sched, irq, counters, atrace markers), self-describing for
 * every other event, threads named from the saved cmdlines.  The mapping
 * is in tdat-convert(1); the wire format writer is the module pbwrite/.
 */
#ifndef PERFETTO_H
#define PERFETTO_H

#include <stdint.h>

#define PERFETTO_MAX_INPUTS 64	/* as report's -i */

struct perfetto_opts {
	const char **inputs;	/* trace.dat files, merged as report
				 * merges several -i */
	int ninputs;
	const char *out;	/* the trace file to make */
	int level;		/* zlib level of the packets, 0 = default */
	/* Stored trace data read so far, now and then; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/*
 * Write the trace: made unnamed beside o->out, synced and named when
 * complete; nothing is left after an error or a signal.  A damaged input
 * gets one line with its file and offset on stderr and is exported as
 * far as it goes.  Returns the exit status: 0, 1 (an input damaged: the
 * trace is still written, or unreadable: nothing is), 2 (the output
 * cannot be made).
 */
int perfetto_run(const struct perfetto_opts *o);

#endif
