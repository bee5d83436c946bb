/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.c - the ProcessTree: threads named from the saved cmdlines (the
 * names report shows), and processes where the file has a pid/tgid
 * table (gpuvis's trace-cmd saved one, "PID TGID" lines).
 *
 * trace_processor names threads from sched_switch, sched_waking and
 * task events, the latest name winning, which is the name the kernel
 * saved in its cmdlines; a tree's name would beat them for good, so the
 * tree names only the threads no event names.  trace.dat keeps no
 * tgids but in that table, and trace_processor puts a thread of the
 * tree without a tgid in process 0 (the idle task's; checked with tp
 * v58.2): a thread the table leaves out is sent as a process of its own,
 * the pid as the file knows it (report shows it so).  The threads
 * events name stay out of the tree: trace_processor links them from the
 * task events where the recording has them.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

enum { TREE_PROCESS = 1, TREE_THREAD = 2 };
enum { PR_PID = 1, PR_CMDLINE = 3, PR_CMDLINE_IS_COMM = 9 };
enum { TH_TID = 1, TH_NAME = 2, TH_TGID = 3 };

struct entry {
	uint32_t pid;
	uint32_t val;		/* tgid, or the comm's offset in the text */
	uint32_t len;		/* the comm's length */
	uint32_t order;		/* in the text: the later wins */
};

struct tree {
	const char *cmd;	/* the cmdlines text */
	struct entry *names, *tgids;
	size_t nnames, ntgids;
	const uint8_t *named;
	struct tdat_bytes utf8;
};

static int by_pid(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Digits at p[*i..n) as a pid. */
static int pid_at(const char *p, size_t n, size_t *i, uint32_t *v)
{
	uint64_t x = 0;
	size_t start = *i;

	for (; *i < n && p[*i] >= '0' && p[*i] <= '9' && x <= INT32_MAX; (*i)++)
		x = x * 10 + (uint64_t)(p[*i] - '0');
	*v = (uint32_t)x;
	return *i > start && x <= INT32_MAX ? 0 : -1;
}

/* "PID REST" lines of text into *out: REST as a comm (tgid 0), or as a
 * tgid (tgid 1).  0 or -1. */
static int parse(const char *text, size_t len, int tgid, struct entry **out,
		 size_t *n)
{
	size_t at = 0, k = 0, i, end, cap = 1;
	const char *nl;

	for (i = 0; i < len; i++)
		cap += text[i] == '\n';
	*out = calloc(cap, sizeof(**out));
	if (!*out)
		return -1;
	for (; at < len && k < cap; at = end + 1) {
		nl = memchr(text + at, '\n', len - at);
		end = nl ? (size_t)(nl - text) : len;
		i = at;
		if (pid_at(text, end, &i, &(*out)[k].pid) || i >= end ||
		    text[i++] != ' ' || !(*out)[k].pid)
			continue;	/* not a line of the table */
		if (tgid && pid_at(text, end, &i, &(*out)[k].val))
			continue;
		if (!tgid) {
			(*out)[k].val = (uint32_t)i;
			(*out)[k].len = (uint32_t)(end - i);
		}
		(*out)[k].order = (uint32_t)k;
		k++;
	}
	qsort(*out, k, sizeof(**out), by_pid);
	*n = k;
	return 0;
}

/* The entry of pid (the last given), or NULL. */
static const struct entry *find(const struct entry *e, size_t n, uint32_t pid)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e[mid].pid <= pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && e[lo - 1].pid == pid ? &e[lo - 1] : NULL;
}

static int named(const struct tree *t, uint32_t pid)
{
	return t->named && pid < PF_NAMED_PIDS &&
	       (t->named[pid >> 3] >> (pid & 7) & 1);
}

/* pid's comm, made UTF-8 as report shows it, as field num of b. */
static void put_comm(struct tree *t, struct pb *b, uint32_t num, uint32_t pid)
{
	const struct entry *e = find(t->names, t->nnames, pid);

	if (!e)
		return;
	tdat_bytes_reset(&t->utf8);
	if (utf8_add(&t->utf8, t->cmd + e->val, e->len))
		b->failed = 1;
	else
		pb_bytes(b, num, t->utf8.data, t->utf8.len);
}

static void put_thread(struct tree *t, struct pb *b, uint32_t tid,
		       uint32_t tgid)
{
	struct pb_mark m = pb_open(b, TREE_THREAD, 1);

	pb_uint(b, TH_TID, tid);
	if (tgid)
		pb_uint(b, TH_TGID, tgid);
	if (!named(t, tid))
		put_comm(t, b, TH_NAME, tid);
	pb_close(b, m);
}

/* A Process named by pid's comm (trace_processor ignores one without a
 * cmdline). */
static void put_process(struct tree *t, struct pb *b, uint32_t pid)
{
	struct pb_mark m = pb_open(b, TREE_PROCESS, 1);

	pb_uint(b, PR_PID, pid);
	put_comm(t, b, PR_CMDLINE, pid);
	pb_uint(b, PR_CMDLINE_IS_COMM, 1);
	pb_close(b, m);
}

/* A Process for each tgid of the table whose comm is known, every
 * thread of the table, then each thread of the cmdlines no event names
 * and the table leaves out, as a process of its own. */
static void put_tree(struct tree *t, struct pb *b)
{
	uint32_t pid;
	size_t i;

	for (i = 0; i < t->ntgids; i++)
		if (t->tgids[i].pid == t->tgids[i].val &&
		    find(t->names, t->nnames, t->tgids[i].val))
			put_process(t, b, t->tgids[i].val);
	for (i = 0; i < t->ntgids; i++)
		if (i + 1 == t->ntgids || t->tgids[i + 1].pid != t->tgids[i].pid)
			put_thread(t, b, t->tgids[i].pid, t->tgids[i].val);
	for (i = 0; i < t->nnames; i++) {
		pid = t->names[i].pid;
		if ((i + 1 < t->nnames && t->names[i + 1].pid == pid) ||
		    named(t, pid) || find(t->tgids, t->ntgids, pid))
			continue;
		put_process(t, b, pid);
		put_thread(t, b, pid, pid);
	}
}

/* Every "N N" line, nothing else: a pid/tgid table. */
static int tgid_table(const uint8_t *p, uint32_t n)
{
	uint32_t i, words = 0, digits = 0;

	for (i = 0; i < n && p[i]; i++) {
		if (p[i] >= '0' && p[i] <= '9') {
			digits++;
			continue;
		}
		if (!digits || (p[i] != ' ' && p[i] != '\n') ||
		    (p[i] == ' ') != (words % 2 == 0))
			return 0;
		words++;
		digits = 0;
	}
	return words > 0 && words % 2 == 0 && !digits;
}

/* f's pid/tgid table ("PID TGID" lines, in an option of CPUCOUNT's id
 * that holds no count: gpuvis's trace-cmd) appended to text.  0/-1. */
static int tgids_of(struct tdat_bytes *text, const struct tdat_file *f,
		    struct tdat_error *err)
{
	uint32_t cpus;
	int k;

	for (k = 0; k < f->noptions; k++) {
		const struct tdat_option *o = &f->options[k];

		if (o->id != TDAT_OPT_CPUCOUNT ||
		    tdat_cpucount_payload(f->big_endian, o->data, o->size,
					  &cpus) ||
		    !tgid_table(o->data, o->size))
			continue;
		if (tdat_bytes_add(text, o->data, strnlen((const char *)o->data,
							  o->size)))
			return tdat_errorf(err, "out of memory");
	}
	return 0;
}

/* The saved cmdlines of f appended to text ("PID COMM" lines).  0/-1. */
static int cmdlines_of(struct tdat_bytes *text, const struct tdat_file *f,
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

/* The tree of the tables in cmd and tgids as one packet of machine. */
static int send_tree(struct sink *s, const struct tdat_bytes *cmdlines,
		     const struct tdat_bytes *tgids, const uint8_t *named,
		     uint32_t machine)
{
	struct tree t = { 0 };
	struct pb b = { 0 };
	int r = 0;

	t.cmd = (const char *)cmdlines->data;
	t.named = named;
	if (parse(t.cmd, cmdlines->len, 0, &t.names, &t.nnames) ||
	    parse((const char *)tgids->data, tgids->len, 1, &t.tgids,
		  &t.ntgids))
		b.failed = 1;
	else
		put_tree(&t, &b);
	if (pb_failed(&b))
		r = tdat_errorf(&s->err, "out of memory");
	else if (b.len)
		r = sink_packet(s, PKT_PROCESS_TREE, b.data, b.len, machine);
	pb_free(&b);
	free(t.names);
	free(t.tgids);
	tdat_bytes_free(&t.utf8);
	return r;
}

int meta_threads(struct sink *s, const struct tdat_file *f,
		 const uint8_t *named, uint32_t machine)
{
	struct tdat_bytes cmdlines = { 0 }, tgids = { 0 };
	int r;

	r = cmdlines_of(&cmdlines, f, &s->err) ||
	    tgids_of(&tgids, f, &s->err);
	if (!r)
		r = send_tree(s, &cmdlines, &tgids, named, machine);
	tdat_bytes_free(&cmdlines);
	tdat_bytes_free(&tgids);
	return r ? -1 : 0;
}
