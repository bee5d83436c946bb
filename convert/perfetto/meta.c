/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta.c - the packets besides the events: SystemInfo from the file's
 * UNAME (its release says which bits trace_processor reads sched_switch's
 * prev_state with, Linux 4.4's without one; without a machine it cannot
 * name syscalls), and FtraceStats from the per-CPU stats the recording
 * saved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

enum { SI_UTSNAME = 1, UTS_SYSNAME = 1, UTS_VERSION = 2, UTS_RELEASE = 3,
       UTS_MACHINE = 4 };

/* A UNAME in words (the start and length of each). */
struct uname_words {
	const char *u;
	size_t w[64][2];
	int n;
};

/* "sysname nodename release [version...] machine", as trace-cmd saves
 * uname: 0 when f has none of 4 words or more. */
static int uname_words(const struct tdat_file *f, struct uname_words *uw)
{
	const char *u;
	size_t i = 0;

	uw->n = 0;
	if (!tdat_opt_string(f, TDAT_OPT_UNAME, &u))
		return 0;
	uw->u = u;
	while (u[i] && uw->n < 64) {
		for (; u[i] == ' ' || u[i] == '\n'; i++)
			;
		if (!u[i])
			break;
		uw->w[uw->n][0] = i;
		for (; u[i] && u[i] != ' ' && u[i] != '\n'; i++)
			;
		uw->w[uw->n][1] = i - uw->w[uw->n][0];
		uw->n++;
	}
	return uw->n >= 4;
}

/* Words from to to of uw, with what lies between them. */
static void put_words(struct pb *b, uint32_t field,
		      const struct uname_words *uw, int from, int to)
{
	if (from > to)
		return;
	pb_bytes(b, field, uw->u + uw->w[from][0],
		 uw->w[to][0] + uw->w[to][1] - uw->w[from][0]);
}

int meta_uname_bits(const struct tdat_file *f, enum tp_bits *bits)
{
	struct uname_words uw;

	*bits = TP_BITS_4_4;
	if (!uname_words(f, &uw))
		return 0;
	*bits = tp_bits_for(uw.u + uw.w[0][0], uw.w[0][1], uw.u + uw.w[2][0],
			    uw.w[2][1]);
	return 1;
}

/* The file's sysname, or "Linux (note)" (run.c's notes are short). */
static void put_sysname(struct pb *b, const struct uname_words *uw,
			const char *note)
{
	char s[256];

	if (!note) {
		put_words(b, UTS_SYSNAME, uw, 0, 0);
		return;
	}
	snprintf(s, sizeof(s), "Linux (%s)", note);
	pb_string(b, UTS_SYSNAME, s);
}

int meta_system_info(struct sink *s, const struct tdat_file *f,
		     uint32_t machine, const char *note)
{
	struct uname_words uw;
	struct pb b = { 0 };
	struct pb_mark m;
	int has = uname_words(f, &uw), r;

	if (!has && !note)
		return 0;
	m = pb_open(&b, SI_UTSNAME, 1);
	put_sysname(&b, &uw, note);
	if (has) {
		put_words(&b, UTS_VERSION, &uw, 3, uw.n - 2);
		put_words(&b, UTS_RELEASE, &uw, 2, 2);
		put_words(&b, UTS_MACHINE, &uw, uw.n - 1, uw.n - 1);
	}
	pb_close(&b, m);
	r = pb_failed(&b) ? tdat_errorf(&s->err, "out of memory") :
			    sink_packet(s, PKT_SYSTEM_INFO, b.data, b.len,
						machine);
	pb_free(&b);
	return r;
}

/* FtraceStats (PERFETTO.md 9): phase, and a cpu_stats each CPU. */
enum { FS_PHASE = 1, FS_CPU_STATS = 2, FS_END_OF_TRACE = 2 };

static const struct {
	const char *key;	/* the CPUSTAT line's, before ": " */
	uint8_t num;		/* FtraceCpuStats field */
	uint8_t seconds;	/* a double of seconds (else an integer) */
} cpustat_keys[] = {
	{ "CPU", 1, 0 }, { "entries", 2, 0 }, { "overrun", 3, 0 },
	{ "commit overrun", 4, 0 }, { "bytes", 5, 0 },
	{ "oldest event ts", 6, 1 }, { "now ts", 7, 1 },
	{ "dropped events", 8, 0 }, { "read events", 9, 0 },
};

/* One "key: value" line of a CPUSTAT text into b (unknown keys and
 * values that do not parse are left out). */
static void put_stat_line(struct pb *b, const char *p, size_t n)
{
	char line[128], *colon, *end;
	unsigned long long v;
	double d;
	size_t i;

	if (n >= sizeof(line))
		return;
	memcpy(line, p, n);
	line[n] = 0;
	colon = strstr(line, ": ");
	if (!colon)
		return;
	*colon = 0;
	for (i = 0; i < sizeof(cpustat_keys) / sizeof(cpustat_keys[0]); i++) {
		if (strcmp(line, cpustat_keys[i].key))
			continue;
		if (cpustat_keys[i].seconds) {
			d = strtod(colon + 2, &end);
			if (end != colon + 2)
				pb_double(b, cpustat_keys[i].num, d);
			return;
		}
		v = strtoull(colon + 2, &end, 10);
		if (end != colon + 2)
			pb_uint(b, cpustat_keys[i].num, v);
		return;
	}
}

/* A CPUSTAT text ("CPU: 0\nentries: 0\n...") as one cpu_stats. */
static void put_cpu_stats(struct pb *b, const struct tdat_option *o)
{
	const char *p = (const char *)o->data, *nl;
	size_t len = strnlen(p, o->size), n;
	struct pb_mark m = pb_open(b, FS_CPU_STATS, 1);

	for (; len; p += n, len -= n) {
		nl = memchr(p, '\n', len);
		n = nl ? (size_t)(nl - p) + 1 : len;
		put_stat_line(b, p, n - (nl != NULL));
	}
	pb_close(b, m);
}

int meta_cpu_stats(struct sink *s, const struct tdat_file *f,
		   uint32_t machine)
{
	struct pb b = { 0 };
	int k, n = 0, r = 0;

	pb_uint(&b, FS_PHASE, FS_END_OF_TRACE);
	for (k = 0; k < f->noptions; k++) {
		const struct tdat_option *o = &f->options[k];

		if (o->id != TDAT_OPT_CPUSTAT)
			continue;
		if (o->size > 8 && !memcmp(o->data, "\nBuffer:", 8))
			break;	/* the instances': the top buffer's only */
		if (o->size > 5 && !memcmp(o->data, "CPU: ", 5)) {
			put_cpu_stats(&b, o);
			n++;
		}
	}
	if (pb_failed(&b))
		r = tdat_errorf(&s->err, "out of memory");
	else if (n)
		r = sink_packet(s, PKT_FTRACE_STATS, b.data, b.len, machine);
	pb_free(&b);
	return r;
}
