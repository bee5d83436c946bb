/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c - one option as dump prints it: a title line, then what it holds. */
#include <string.h>
#include "convert/dump/dump_int.h"

static const char *const names[] = {
	[TDAT_OPT_DONE] = "DONE", [TDAT_OPT_DATE] = "DATE",
	[TDAT_OPT_CPUSTAT] = "CPUSTAT", [TDAT_OPT_BUFFER] = "BUFFER",
	[TDAT_OPT_TRACECLOCK] = "TRACECLOCK", [TDAT_OPT_UNAME] = "UNAME",
	[TDAT_OPT_HOOK] = "HOOK", [TDAT_OPT_OFFSET] = "OFFSET",
	[TDAT_OPT_CPUCOUNT] = "CPUCOUNT", [TDAT_OPT_VERSION] = "VERSION",
	[TDAT_OPT_PROCMAPS] = "PROCMAPS", [TDAT_OPT_TRACEID] = "TRACEID",
	[TDAT_OPT_TIME_SHIFT] = "TimeShift", [TDAT_OPT_GUEST] = "GUEST",
	[TDAT_OPT_TSC2NSEC] = "TSC2NSEC", [TDAT_OPT_STRINGS] = "STRINGS",
	[TDAT_OPT_HEADER_INFO] = "HEADERS",
	[TDAT_OPT_FTRACE_EVENTS] = "FTRACE EVENTS",
	[TDAT_OPT_EVENT_FORMATS] = "EVENT FORMATS",
	[TDAT_OPT_KALLSYMS] = "KALLSYMS", [TDAT_OPT_PRINTK] = "PRINTK",
	[TDAT_OPT_CMDLINES] = "CMDLINES",
	[TDAT_OPT_BUFFER_TEXT] = "BUFFER TEXT",
	/* trace-cmd 3.4's names; it knows no BTF_FILE option */
	[TDAT_OPT_LAST_BOOT_INFO] = "LAST_BOOT_INFO",
	[TDAT_OPT_MODULES_FILE] = "MODULES_FILE",
};

const char *dump_option_name(uint16_t id)
{
	if (id < sizeof(names) / sizeof(names[0]) && names[id])
		return names[id];
	return "UNKNOWN";
}

/* Options whose payload is the offset of a metadata section. */
static int points_at_section(uint16_t id)
{
	return (id >= TDAT_OPT_HEADER_INFO && id <= TDAT_OPT_CMDLINES) ||
	       id == TDAT_OPT_MODULES_FILE;
}

/* Text options: up to the first NUL, within size. */
static void text(const struct dump *d, unsigned mask, const uint8_t *data,
		 uint32_t size)
{
	say(d, mask, "%.*s\n", (int)strnlen((const char *)data, size),
	    (const char *)data);
}

/* The v7 BUFFER payload (the v6 one is offset and name only). */
static void buffer(const struct dump *d, const uint8_t *p, uint32_t size)
{
	unsigned m = DUMP_OPTIONS | DUMP_FLYRECORD;
	const uint8_t *end = p + size;
	const char *name, *clock;
	uint32_t i, n;

	if (size < 8)
		return;
	say(d, m, "%llu [offset]\n", (unsigned long long)d_get64(d, p));
	name = (const char *)p + 8;
	p += 8 + strnlen(name, end - p - 8) + 1;
	say(d, m, "\"%s\" [name]\n", name);
	if (d->version < 7 || p >= end)
		return;
	clock = (const char *)p;
	p += strnlen(clock, end - p) + 1;
	say(d, m, "\"%s\" [clock]\n", clock);
	if (end - p < 8)
		return;
	say(d, m, "%u [Page size, bytes]\n", d_get32(d, p));
	n = d_get32(d, p + 4);
	say(d, m, "%u [CPUs]:\n", n);
	for (p += 8, i = 0; i < n && end - p >= 20; i++, p += 20)
		say(d, m, "   %u %llu\t%llu\t[id, data offset and size]\n",
		    d_get32(d, p), (unsigned long long)d_get64(d, p + 4),
		    (unsigned long long)d_get64(d, p + 12));
}

static void payload(struct dump *d, uint16_t id, const uint8_t *data,
		    uint32_t size)
{
	switch (id) {
	case TDAT_OPT_TRACECLOCK:
		text(d, DUMP_OPTIONS | DUMP_CLOCK, data, size);
		break;
	case TDAT_OPT_DATE: case TDAT_OPT_CPUSTAT: case TDAT_OPT_UNAME:
	case TDAT_OPT_HOOK: case TDAT_OPT_OFFSET: case TDAT_OPT_VERSION:
	case TDAT_OPT_PROCMAPS:
		text(d, DUMP_OPTIONS, data, size);
		break;
	case TDAT_OPT_LAST_BOOT_INFO:	/* its text ends with a newline */
		text(d, DUMP_OPTIONS, data, size);
		break;
	case TDAT_OPT_TRACEID:
		if (size >= 8)
			say(d, DUMP_OPTIONS, "0x%llX\n",
			    (unsigned long long)d_get64(d, data));
		break;
	case TDAT_OPT_CPUCOUNT:
		if (size >= 4)
			say(d, DUMP_OPTIONS, "%u\n", d_get32(d, data));
		break;
	case TDAT_OPT_DONE:
		if (size >= 8)
			say(d, DUMP_OPTIONS, "%llu\n",
			    (unsigned long long)d_get64(d, data));
		break;
	case TDAT_OPT_BUFFER:
		buffer(d, data, size);
		break;
	case TDAT_OPT_TIME_SHIFT:
		dump_time_shift(d, data, size);
		break;
	case TDAT_OPT_GUEST:
		dump_guest(d, data, size);
		break;
	case TDAT_OPT_TSC2NSEC:
		dump_tsc2nsec(d, data, size);
		break;
	}
}

int dump_option(struct dump *d, uint16_t id, const uint8_t *data,
		uint32_t size, uint64_t at)
{
	unsigned m = DUMP_OPTIONS;

	if (id == TDAT_OPT_BUFFER)
		m |= DUMP_FLYRECORD;
	d->facts.noptions++;
	if (id >= sizeof(names) / sizeof(names[0]) || !names[id]) {
		/* BTF_FILE (23) among them, as trace-cmd prints it */
		say(d, m, " %u %u\t[Unknown option, size - skipping]\n", id,
		    size);
		return 0;
	}
	if (points_at_section(id) && size >= 8) {
		say(d, m, "\t\t[Option %s, %u bytes] @ %llu\n",
		    dump_option_name(id), size,
		    (unsigned long long)d_get64(d, data));
		return 0;
	}
	if (id == TDAT_OPT_TSC2NSEC)	/* trace-cmd's blank line */
		say(d, m, "\n");
	say(d, m, "\t\t[Option %s, %u bytes]\n", dump_option_name(id), size);
	if (id == TDAT_OPT_TRACECLOCK)
		d->have_clock_opt = 1;
	payload(d, id, data, size);
	return 0;
}

int dump_cpucount(struct dump *d, uint16_t id, const uint8_t *data,
		  uint32_t size, uint64_t at, uint32_t *n)
{
	struct tdat_error e;

	if (id != TDAT_OPT_CPUCOUNT || size < 4)
		return 0;
	if (tdat_cpucount_payload(d->big, data, size, n))
		return 1;
	tdat_fail(&e, d->path, at, "option CPUCOUNT (8) of %u bytes holds no"
		  " CPU count (it says %u): ignored", size, *n);
	if (d->o->warn)
		d->o->warn(e.msg);
	return 0;
}
