/*
 * assemble.h - build a trace.dat from metadata plus raw per-CPU page
 * files: what record does when it ends, and what restore does with the
 * files a crashed recorder left (trace-cmd's trace.dat.cpuN, or our own
 * OUT.rec/ directory, described in record/record.h).
 */
#ifndef TDAT_ASSEMBLE_H
#define TDAT_ASSEMBLE_H

#include "convert/opts.h"

/* restore -i HEAD -o OUT CPUFILE...: cpufiles[i] holds CPU i of the top
 * buffer (clock "local" unless head says otherwise). */
int assemble_cpu_files(const char *head, char *const *cpufiles, int n,
		       const char *out, const struct convert_opts *o,
		       struct tdat_error *err);

/* OUT.rec/ (manifest, head.dat, raw files) -> out. */
int assemble_recording(const char *recdir, const char *out,
		       const struct convert_opts *o, struct tdat_error *err);

#endif
