/* SPDX-License-Identifier: GPL-2.0-or-later */
/* meta.c - the metadata parts (headers, formats, kallsyms, printk, cmdlines) as dump prints them. */
#include <string.h>
#include "convert/dump/dump_int.h"

/* "header_page\0" or "header_event\0", its u64 size and text. */
static int one_header(struct dump *d, struct dsrc *s, const char *key,
		      const char *title, unsigned mask, uint64_t *size)
{
	char word[16];
	size_t n = strlen(key) + 1;

	/* trace-cmd prints the title before it reads the keyword */
	say(d, DUMP_SUMMARY | mask, "\t[%s, ", title);
	if (d_read(d, s, word, n, key))
		return -1;
	if (memcmp(word, key, n)) {
		s->pos -= n;
		return d_fail(d, s, "no \"%s\" keyword", key);
	}
	if (d_u64(d, s, size, "header size"))
		return -1;
	say(d, DUMP_SUMMARY | mask, "%llu bytes]\n", (unsigned long long)*size);
	if (d_text(d, s, *size, mask, title))
		return -1;
	say(d, mask, "\n");
	return 0;
}

int dump_headers(struct dump *d, struct dsrc *s)
{
	if (one_header(d, s, "header_page", "Header page", DUMP_HEAD_PAGE,
		       &d->facts.header_page))
		return -1;
	return one_header(d, s, "header_event", "Header event",
			  DUMP_HEAD_EVENT, &d->facts.header_event);
}

/* count × (u64 size, format text). */
static int formats(struct dump *d, struct dsrc *s, uint32_t count,
		   unsigned mask)
{
	uint64_t size;
	uint32_t i;

	for (i = 0; i < count; i++) {
		if (d_u64(d, s, &size, "event format size") ||
		    d_text(d, s, size, mask, "event format"))
			return -1;
		say(d, mask, "\n");
	}
	return 0;
}

int dump_ftrace(struct dump *d, struct dsrc *s)
{
	uint32_t count;

	if (d_u32(d, s, &count, "ftrace format count"))
		return -1;
	d->facts.ftrace_events = count;
	say(d, DUMP_SUMMARY | DUMP_FTRACE, "\t[Ftrace format, %u events]\n",
	    count);
	return formats(d, s, count, DUMP_FTRACE);
}

int dump_systems(struct dump *d, struct dsrc *s)
{
	uint32_t nsys, nev, i;
	char name[256];

	if (d_u32(d, s, &nsys, "system count"))
		return -1;
	d->facts.systems = nsys;
	say(d, DUMP_SUMMARY | DUMP_SYSTEMS | DUMP_EVENTS,
	    "\t[Events format, %u systems]\n", nsys);
	for (i = 0; i < nsys; i++) {
		if (d_cstr(d, s, name, sizeof(name), "system name") ||
		    d_u32(d, s, &nev, "event count"))
			return -1;
		say(d, DUMP_SYSTEMS, "\t\t%s %u [system, events]\n", name,
		    nev);
		if (formats(d, s, nev, DUMP_EVENTS))
			return -1;
	}
	return 0;
}

/* u32 size + text (kallsyms, printk). */
static int sized32(struct dump *d, struct dsrc *s, const char *title,
		   unsigned mask, uint64_t *fact)
{
	uint32_t size;

	if (d_u32(d, s, &size, title))
		return -1;
	*fact = size;
	say(d, DUMP_SUMMARY | mask, "\t[%s, %u bytes]\n", title, size);
	if (d_text(d, s, size, mask, title))
		return -1;
	say(d, mask, "\n");
	return 0;
}

int dump_kallsyms(struct dump *d, struct dsrc *s)
{
	return sized32(d, s, "Kallsyms", DUMP_KALLSYMS, &d->facts.kallsyms);
}

int dump_printk(struct dump *d, struct dsrc *s)
{
	return sized32(d, s, "Trace printk", DUMP_PRINTK, &d->facts.printk);
}

int dump_cmdlines(struct dump *d, struct dsrc *s)
{
	uint64_t size;

	if (d_u64(d, s, &size, "saved command lines size"))
		return -1;
	d->facts.cmdlines = size;
	say(d, DUMP_SUMMARY | DUMP_CMDLINES,
	    "\t[Saved command lines, %llu bytes]\n",
	    (unsigned long long)size);
	if (d_text(d, s, size, DUMP_CMDLINES, "saved command lines"))
		return -1;
	say(d, DUMP_CMDLINES, "\n");
	return 0;
}

/* The modules section (trace-cmd 3.4): /proc/modules as it was, the
 * whole body. */
int dump_modules(struct dump *d, struct dsrc *s)
{
	uint64_t size = s->mem ? s->len - s->pos : 0;

	say(d, DUMP_SUMMARY, "\t[Saved modules]\n");
	if (d_text(d, s, size, DUMP_SUMMARY, "saved modules"))
		return -1;
	say(d, DUMP_SUMMARY, "\n[%llu bytes]\n", (unsigned long long)size);
	return 0;
}
