/* run.h - what the report applet asks of the report engine. */
#ifndef RUN_H
#define RUN_H

#include <stdint.h>

struct report_opts {
	const char **inputs;
	int ninputs;
	int no_plugins;		/* -N */
	int raw;		/* -R */
	int full_ns;		/* -t */
	int raw_ts;		/* --raw-ts */
	int nodate;		/* --nodate */
	int64_t ts_offset;	/* --ts-offset, ns */
};

int report_run(const struct report_opts *ro);

#endif
