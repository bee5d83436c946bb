/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * shownclock.c - the clock by which trace-cmd shows a file's times, as
 * trace-cmd 3.1.6 and 3.4 were seen to choose it on made-up files:
 *  - only a file with a TRACECLOCK option has one;
 *  - in v7 it is the word in brackets of that option;
 *  - in v6 trace-cmd then also reads the top buffer's clock record (not
 *    the instances'), and a word in either that is not a clock of time
 *    makes times raw counts for good: the option's [boot] with the
 *    record's [local] shows raw counts, and so does [local] with [boot].
 */
#include <string.h>
#include "libfmt/internal.h"

int tdat_clock_is_time(const char *clock)
{
	static const char *const names[] = { "local", "global", "uptime",
					     "perf", "tai", "tsc2nsec" };
	size_t i;

	if (!strncmp(clock, "mono", 4))
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(clock, names[i]))
			return 1;
	return 0;
}

const char *shown_clock_pick(const char *option, const char *record)
{
	if (option[0] && !tdat_clock_is_time(option))
		return option;
	if (record[0] && (!tdat_clock_is_time(record) || !option[0]))
		return record;
	return option;
}

int tdat_shown_clock(const struct tdat_file *f, char *buf, size_t cap)
{
	const struct tdat_buffer *top = tdat_top_buffer(f);
	const char *record = "", *pick;
	char option[64] = "";

	if (!tdat_find_option(f, TDAT_OPT_TRACECLOCK))
		return 0;
	if (!tdat_opt_clock(f, option, sizeof(option)))
		option[0] = 0;
	if (f->version < 7 && top && !top->latency && top->clock)
		record = top->clock;
	pick = shown_clock_pick(option, record);
	if (!pick[0] || strlen(pick) >= cap)
		return 0;
	strcpy(buf, pick);
	return 1;
}
