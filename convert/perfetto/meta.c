/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta.c - the packets besides the events: SystemInfo from the file's
 * UNAME (without a release trace_processor reads sched_switch's
 * prev_state with Linux 4.4's bits, without a machine it cannot name
 * syscalls), and a ProcessTree naming the threads of the saved
 * cmdlines (the names report shows) that no event names.
 * trace_processor names threads from sched_switch, sched_waking and
 * task events, the latest name winning, which is the name the kernel
 * saved in its cmdlines; a tree's name would beat them for good, and a
 * thread of the tree without a tgid (trace.dat keeps none) is put in
 * process 0, so the tree holds only those no event names
 * (PERFETTO.md 9).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

enum { SI_UTSNAME = 1, UTS_SYSNAME = 1, UTS_VERSION = 2, UTS_RELEASE = 3,
       UTS_MACHINE = 4 };
enum { PT_THREADS = 2, TH_TID = 1, TH_NAME = 2 };

/* Word i of the n words at w (start and length each). */
static void put_words(struct pb *b, uint32_t field, const char *s,
		      const size_t (*w)[2], int from, int to)
{
	if (from > to)
		return;
	pb_bytes(b, field, s + w[from][0], w[to][0] + w[to][1] - w[from][0]);
}

/* "sysname nodename release [version...] machine", as trace-cmd saves
 * uname. */
int meta_system_info(struct sink *s, const struct tdat_file *f)
{
	size_t w[64][2], i = 0;
	struct pb b = { 0 };
	struct pb_mark m;
	const char *u;
	int n = 0, r;

	if (!tdat_opt_string(f, TDAT_OPT_UNAME, &u))
		return 0;
	while (u[i] && n < 64) {
		for (; u[i] == ' ' || u[i] == '\n'; i++)
			;
		if (!u[i])
			break;
		w[n][0] = i;
		for (; u[i] && u[i] != ' ' && u[i] != '\n'; i++)
			;
		w[n][1] = i - w[n][0];
		n++;
	}
	if (n < 4)
		return 0;
	m = pb_open(&b, SI_UTSNAME, 1);
	put_words(&b, UTS_SYSNAME, u, w, 0, 0);
	put_words(&b, UTS_VERSION, u, w, 3, n - 2);
	put_words(&b, UTS_RELEASE, u, w, 2, 2);
	put_words(&b, UTS_MACHINE, u, w, n - 1, n - 1);
	pb_close(&b, m);
	r = pb_failed(&b) ? tdat_errorf(&s->err, "out of memory") :
			    sink_packet(s, PKT_SYSTEM_INFO, b.data, b.len);
	pb_free(&b);
	return r;
}

static int named(const uint8_t *bits, uint64_t pid)
{
	return bits && pid < PF_NAMED_PIDS && (bits[pid >> 3] >> (pid & 7) & 1);
}

/* "PID COMM" lines: a Thread {tid, name} each but for those named. */
static void put_threads(struct pb *b, const char *text, size_t len,
			const uint8_t *bits)
{
	struct pb_mark m;
	const char *nl;
	uint64_t pid;
	size_t n, i;

	for (; len; text += n, len -= n) {
		nl = memchr(text, '\n', len);
		n = nl ? (size_t)(nl - text) + 1 : len;
		for (i = 0, pid = 0; i < n && text[i] >= '0' &&
		     text[i] <= '9' && pid <= INT32_MAX; i++)
			pid = pid * 10 + (uint64_t)(text[i] - '0');
		if (!i || i >= n || text[i] != ' ' || pid > INT32_MAX ||
		    !pid || named(bits, pid))
			continue;	/* not a cmdline, or named already */
		m = pb_open(b, PT_THREADS, 1);
		pb_uint(b, TH_TID, pid);
		pb_bytes(b, TH_NAME, text + i + 1,
			 n - i - 1 - (nl != NULL));
		pb_close(b, m);
	}
}

int meta_cmdlines(struct tdat_bytes *text, const struct tdat_file *f,
		  struct tdat_error *err)
{
	const char *t;
	size_t len;

	if (!tdat_meta_has(f, TDAT_META_CMDLINES))
		return 0;
	if (tdat_meta_text(f, TDAT_META_CMDLINES, &t, &len, err))
		return -1;
	if (tdat_bytes_add(text, t, len) || tdat_bytes_add(text, "\n", 1))
		return tdat_errorf(err, "out of memory");
	return 0;
}

int meta_threads(struct sink *s, const struct tdat_bytes *text,
		 const uint8_t *bits)
{
	struct pb b = { 0 };
	int r = 0;

	put_threads(&b, (const char *)text->data, text->len, bits);
	if (pb_failed(&b))
		r = tdat_errorf(&s->err, "out of memory");
	else if (b.len)
		r = sink_packet(s, PKT_PROCESS_TREE, b.data, b.len);
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
static void put_stat_line(struct pb *b, const char *p, size_t n, int base)
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
			pb_uint(b, cpustat_keys[i].num,
				i ? v : v + (unsigned long long)base);
		return;
	}
}

/* A CPUSTAT text ("CPU: 0\nentries: 0\n...") as one cpu_stats. */
static void put_cpu_stats(struct pb *b, const struct tdat_option *o,
			  int base)
{
	const char *p = (const char *)o->data, *nl;
	size_t len = strnlen(p, o->size), n;
	struct pb_mark m = pb_open(b, FS_CPU_STATS, 1);

	for (; len; p += n, len -= n) {
		nl = memchr(p, '\n', len);
		n = nl ? (size_t)(nl - p) + 1 : len;
		put_stat_line(b, p, n - (nl != NULL), base);
	}
	pb_close(b, m);
}

int meta_cpu_stats(struct sink *s, const struct tdat_file *f, int base)
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
			put_cpu_stats(&b, o, base);
			n++;
		}
	}
	if (pb_failed(&b))
		r = tdat_errorf(&s->err, "out of memory");
	else if (n)
		r = sink_packet(s, PKT_FTRACE_STATS, b.data, b.len);
	pb_free(&b);
	return r;
}
