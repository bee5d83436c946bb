/*
 * header_only.c - placeholder until the recorder lands (issue 5).
 */
#include <stdio.h>
#include "record.h"

int record_header_only(const char *out, int version, enum tdat_codec codec,
		       const char *tracing_dir, const char *kallsyms,
		       struct tdat_error *err)
{
	snprintf(err->msg, sizeof(err->msg),
		 "%s: header-only files are not implemented yet", out);
	return -1;
}
