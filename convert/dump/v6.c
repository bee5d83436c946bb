/* SPDX-License-Identifier: GPL-2.0-or-later */
/* v6.c - the walk of a version 6 file, part after part as they follow each other. */
#include <stdlib.h>
#include <string.h>
#include "convert/dump/dump_int.h"

/* "options  \0": id, size, data... until id 0. */
static int options(struct dump *d, struct dsrc *s)
{
	uint16_t id;
	uint32_t size, n;
	uint8_t *data;
	uint64_t at;
	int count = 0;

	for (;;) {
		at = s->pos;
		if (d_u16(d, s, &id, "option id"))
			return -1;
		if (!id)
			break;
		if (d_u32(d, s, &size, "option size"))
			return -1;
		data = malloc(size + 1);
		if (!data)
			return tdat_fail(&d->err, d->path, at, "out of memory");
		if (d_read(d, s, data, size, "option data")) {
			free(data);
			return -1;
		}
		data[size] = 0;
		dump_option(d, id, data, size, at);
		if (dump_cpucount(d, id, data, size, at + 6, &n))
			d->facts.cpus = n;
		free(data);
		count++;
	}
	say(d, DUMP_SUMMARY | DUMP_OPTIONS, "\t[%d options]\n", count);
	return 0;
}

/* The CPU table and the clock record after "flyrecord\0". */
static int flyrecord(struct dump *d, struct dsrc *s)
{
	uint64_t off, size, len;
	char clock[256];
	uint32_t i;

	say(d, DUMP_SUMMARY | DUMP_FLYRECORD, "\t[Flyrecord tracing data]\n");
	d->facts.nbuffers = 1;
	for (i = 0; i < d->facts.cpus; i++) {
		if (d_u64(d, s, &off, "CPU data offset") ||
		    d_u64(d, s, &size, "CPU data size"))
			return -1;
		say(d, DUMP_FLYRECORD, "\t%11llu %10.0llu\t[offset, size of"
		    " cpu %u]\n", (unsigned long long)off,
		    (unsigned long long)size, i);
	}
	if (!d->have_clock_opt) {
		say(d, DUMP_SUMMARY | DUMP_CLOCK, "\t[Tracing clock]\n\t\t No"
		    " tracing clock saved in the file\n");
		return 0;
	}
	if (d_u64(d, s, &len, "clock record size"))
		return -1;
	if (len >= sizeof(clock))
		return d_fail(d, s, "clock record of %llu bytes",
			      (unsigned long long)len);
	if (d_read(d, s, clock, len, "clock record"))
		return -1;
	clock[len] = 0;
	say(d, DUMP_SUMMARY | DUMP_CLOCK, "\t[Tracing clock]\n\t\t%s\n", clock);
	snprintf(d->facts.clock, sizeof(d->facts.clock), "%.*s",
		 len > 2 ? (int)len - 2 : 0, clock + 1);
	return 0;
}

int dump_v6(struct dump *d, struct dsrc *s)
{
	char word[10];

	if (dump_headers(d, s) || dump_ftrace(d, s) || dump_systems(d, s) ||
	    dump_kallsyms(d, s) || dump_printk(d, s) || dump_cmdlines(d, s) ||
	    d_u32(d, s, &d->facts.cpus, "CPU count"))
		return -1;
	say(d, DUMP_SUMMARY, "\t%u [CPUs with tracing data]\n",
	    d->facts.cpus);
	if (d_read(d, s, word, sizeof(word), "data kind"))
		return -1;
	if (!memcmp(word, "options", 7)) {
		if (options(d, s) ||
		    d_read(d, s, word, sizeof(word), "data kind"))
			return -1;
	}
	if (!memcmp(word, "flyrecord", 9))
		return flyrecord(d, s);
	if (!memcmp(word, "latency", 7)) {
		say(d, DUMP_SUMMARY | DUMP_FLYRECORD,
		    "\t[Latency tracing data]\n");
		return 0;
	}
	s->pos -= sizeof(word);
	return d_fail(d, s, "neither \"flyrecord\" nor \"latency\" here");
}
