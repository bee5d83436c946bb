/*
 * assemble.c - placeholder until restore lands (issue 5).
 */
#include <stdio.h>
#include "assemble.h"

int assemble_cpu_files(const char *head, char *const *cpufiles, int n,
		       const char *out, const struct convert_opts *o,
		       struct tdat_error *err)
{
	snprintf(err->msg, sizeof(err->msg), "%s: not implemented yet", out);
	return -1;
}

int assemble_recording(const char *recdir, const char *out,
		       const struct convert_opts *o, struct tdat_error *err)
{
	snprintf(err->msg, sizeof(err->msg), "%s: not implemented yet", out);
	return -1;
}
