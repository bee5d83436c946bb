/* salvage.c - a damaged trace.dat -> a valid one (in progress). */
#include <stdio.h>
#include "salvage.h"

int salvage_file(const char *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err)
{
	snprintf(err->msg, sizeof(err->msg), "%.400s: salvage is not"
		 " implemented yet", in);
	return -1;
}
