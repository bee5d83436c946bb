/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.c - dump --json: what the walk learnt, as one JSON object. */
#include <string.h>
#include "convert/dump/dump_int.h"

/* A JSON string: quotes, backslashes and control characters escaped. */
static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void dump_json(const struct dump *d, const char *error)
{
	const struct dump_facts *x = &d->facts;

	printf("{\"file\":");
	jstr(d->path);
	printf(",\"version\":%d,\"big_endian\":%s,\"long_size\":%d,"
	       "\"page_size\":%u,", d->version, d->big ? "true" : "false",
	       d->long_size, d->page_size);
	printf("\"compression\":");
	jstr(d->version >= 7 ? d->codec : "none");
	printf(",\"compression_version\":");
	jstr(d->version >= 7 ? d->codec_version : "");
	printf(",\"header_page_bytes\":%llu,\"header_event_bytes\":%llu,"
	       "\"ftrace_events\":%u,\"systems\":%u,\"kallsyms_bytes\":%llu,"
	       "\"printk_bytes\":%llu,\"cmdlines_bytes\":%llu,",
	       (unsigned long long)x->header_page,
	       (unsigned long long)x->header_event, x->ftrace_events,
	       x->systems, (unsigned long long)x->kallsyms,
	       (unsigned long long)x->printk, (unsigned long long)x->cmdlines);
	printf("\"cpus\":%u,\"options\":%d,\"buffers\":%d,\"sections\":%d,"
	       "\"clock\":", x->cpus, x->noptions, x->nbuffers,
	       x->nsections);
	jstr(x->clock);
	printf(",\"valid\":%s,\"error\":", error ? "false" : "true");
	if (error)
		jstr(error);
	else
		printf("null");
	printf("}\n");
}
