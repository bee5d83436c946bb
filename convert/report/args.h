/* args.h - report's command line into struct report_opts (run.h). */
#ifndef ARGS_H
#define ARGS_H

#include <stddef.h>
#include "convert/report/run.h"

enum {
	REPORT_ARGS_RUN = 0,	/* ro is ready for report_run() */
	REPORT_ARGS_HELP = 1,	/* -h/--help: show the usage */
	REPORT_ARGS_BAD = 2,	/* usage error: one line in err */
};

/*
 * Parse trace-cmd report's options (and --json) into ro, which it
 * clears first.  No side effects: nothing printed, nothing opened; only
 * getopt's globals change, and argv is permuted as getopt_long does.
 * ro's strings point into argv.  REPORT_ARGS_BAD also when an option
 * known to trace-cmd is not supported, or --json meets an option that
 * prints something other than events.
 */
int report_parse_args(int argc, char **argv, struct report_opts *ro,
		      char *err, size_t cap);

#endif
