/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_merge_meta.c - merge's metadata rules (convert/merge_meta.c) on
 * real fixtures and on copies changed in memory or written to disk:
 * every conflict refused with a line naming it and both files, the joins
 * (formats, kallsyms, cmdlines, buffers, unknown sections) giving the
 * union, and the lazy path (sections known equal by their stored bytes)
 * giving what the slow path gives.  Also libfmt's stored forms: tied to
 * their content, copied by the writer, decoded with the errors of open.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"
#include "convert/merge/merge_internal.h"

#define ZSTD_FIX "v7-zstd-sched-irq.dat"
#define ZLIB_FIX "v7-zlib-sched-irq-tc34.dat"
#define INST_FIX "v7-zstd-2inst-irq-top-sched-inst1.dat"

/* ---- helpers ---- */

static const char *tmp(const char *name)
{
	static char buf[4][4096];
	static int next;
	char *out = buf[next++ % 4];

	snprintf(out, sizeof(buf[0]), "%s/mm-%s", test_tmpdir(), name);
	return out;
}

static struct tdat_file *open_flags(const char *path, unsigned flags)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open_flags(path, flags, &err);

	if (!f)
		fprintf(stderr, "\n  %s\n", err.msg);
	return f;
}

static struct tdat_file *open_fix(const char *name)
{
	return open_flags(fixture(name), 0);
}

/* Replace part m of f by a copy of p (n bytes). */
static void set_part(struct tdat_file *f, int m, const void *p, size_t n)
{
	struct tdat_blob b;

	CU_ASSERT_FATAL(!tdat_blob_dup(&b, p, n));
	tdat_meta_set(f, m, &b);
}

static void add_opt(struct tdat_file *f, uint16_t id, const void *data,
		    uint32_t size)
{
	CU_ASSERT_FATAL(!options_add(f, id, size, data));
}

/* One printable line: no newline, escape or other control byte. */
static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* meta_join of g into a fresh output from f: -1 and the message expected
 * (naming the conflict and both files), or 0. */
static void expect_conflict(struct tdat_file *f, struct tdat_file *g,
			    const char *what)
{
	struct tdat_error err;
	struct tdat_file *m = meta_from_first(f, &err);

	CU_ASSERT_FATAL(m != NULL);
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(meta_join(m, g, "FIRST.dat", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, what));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "FIRST.dat"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, g->path));
	CU_ASSERT(printable(err.msg));
	if (!strstr(err.msg, what))
		fprintf(stderr, "\n  want \"%s\", got: %s\n", what, err.msg);
	meta_free(m);
}

/* The bytes of a format record's "name: X" line of part m in f. */
static char *find_in_part(struct tdat_file *f, int m, const char *s)
{
	return memmem(f->meta[m].data, f->meta[m].len, s, strlen(s));
}

static int blob_same(const struct tdat_blob *a, const struct tdat_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data,
						       a->len));
}

/* Every part a v6 file holds is the same in a and b. */
static void same_v6_parts(const struct tdat_file *a, const struct tdat_file *b)
{
	int i;

	for (i = 0; i < TDAT_META_V6_COUNT; i++)
		CU_ASSERT(blob_same(&a->meta[i], &b->meta[i]));
}

static int count_lines(const char *t, size_t n)
{
	int k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k += t[i] == '\n';
	return k;
}

struct names {
	int n;
	char found[64];
	const char *want;
};

static int note_name(void *ctx, const char *sys, const char *text, size_t len)
{
	struct names *nm = ctx;

	nm->n++;
	if (memmem(text, len, nm->want, strlen(nm->want)))
		snprintf(nm->found, sizeof(nm->found), "%s", sys);
	return 0;
}

/* ---- meta_from_first and joining a file with itself ---- */

static void test_from_first(void)
{
	struct tdat_file *f = open_fix(INST_FIX);
	struct tdat_error err;
	struct tdat_file *m;
	int i;

	CU_ASSERT_FATAL(f != NULL);
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL(m->page_size, f->page_size);
	CU_ASSERT_EQUAL(m->long_size, f->long_size);
	CU_ASSERT_EQUAL(m->codec, f->codec);
	for (i = 0; i < TDAT_META_COUNT; i++) {
		CU_ASSERT_EQUAL(tdat_meta_has(m, i), tdat_meta_has(f, i));
		CU_ASSERT_EQUAL(m->meta[i].len, f->meta[i].len);
		CU_ASSERT(!f->meta[i].len || !memcmp(m->meta[i].data,
						     f->meta[i].data,
						     f->meta[i].len));
	}
	CU_ASSERT_EQUAL(m->noptions, f->noptions);
	CU_ASSERT_EQUAL(m->nbuffers, f->nbuffers);
	CU_ASSERT_EQUAL(meta_buffer(m, "inst1"), meta_buffer(f, "inst1"));
	CU_ASSERT(meta_buffer(m, "inst1") > 0);
	CU_ASSERT_EQUAL(m->cpu_count, tdat_cpus(f));
	/* Joined with itself: nothing changes. */
	CU_ASSERT_EQUAL(meta_join(m, f, f->path, &err), 0);
	CU_ASSERT_EQUAL(m->noptions, f->noptions);
	CU_ASSERT_EQUAL(m->nbuffers, f->nbuffers);
	for (i = 0; i < TDAT_META_COUNT; i++)
		CU_ASSERT_EQUAL(m->meta[i].len, f->meta[i].len);
	meta_free(m);
	tdat_close(f);
}

/* ---- conflicts ---- */

static void test_conflict_header(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(ZSTD_FIX);
	char *p;

	CU_ASSERT_FATAL(f && g);
	g->big_endian = 1;
	expect_conflict(f, g, "different byte order");
	g->big_endian = 0;
	g->long_size = 4;
	expect_conflict(f, g, "different long size");
	g->long_size = 8;
	g->page_size = 8192;
	expect_conflict(f, g, "different page sizes (8192 and 4096)");
	g->page_size = f->page_size;
	p = find_in_part(g, TDAT_META_HEADERS, "field: u64 timestamp");
	CU_ASSERT_FATAL(p != NULL);
	p[7] = 's';	/* "field: s64 timestamp" */
	expect_conflict(f, g, "different header_page or header_event");
	tdat_close(f);
	tdat_close(g);
}

static void test_conflict_formats(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(ZSTD_FIX);
	char *p;

	CU_ASSERT_FATAL(f && g);
	/* A shared event with another format. */
	p = find_in_part(g, TDAT_META_EVENTS, "name: sched_switch");
	CU_ASSERT_FATAL(p != NULL);
	p = memmem(p, (size_t)((char *)g->meta[TDAT_META_EVENTS].data +
			       g->meta[TDAT_META_EVENTS].len - p),
		   "prev_comm", 9);
	CU_ASSERT_FATAL(p != NULL);
	p[0] = 'q';
	expect_conflict(f, g, "different formats of event sched:sched_switch");
	tdat_close(g);

	/* Another event under an ID f gives sched_switch. */
	g = open_fix(ZSTD_FIX);
	p = find_in_part(g, TDAT_META_EVENTS, "name: sched_switch\n");
	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, "name: sched_swatch", 18);
	expect_conflict(f, g, "is sched:sched_swatch in one and"
			" sched:sched_switch in the other");
	tdat_close(g);
	tdat_close(f);
}

static void test_conflict_buffers(void)
{
	struct tdat_file *f = open_fix(INST_FIX), *g = open_fix(INST_FIX);
	int k;

	CU_ASSERT_FATAL(f && g);
	k = meta_buffer(g, "inst1");
	CU_ASSERT_FATAL(k > 0);
	free(g->buffers[k].clock);
	g->buffers[k].clock = strdup("global");
	expect_conflict(f, g, "buffer inst1 has different clocks (global and");
	free(g->buffers[k].clock);
	g->buffers[k].clock = strdup(f->buffers[k].clock);
	g->buffers[0].page_size = 8192;
	expect_conflict(f, g, "buffer (top) has different page sizes (8192 and"
			" 4096)");
	g->buffers[0].page_size = 4096;
	g->buffers[0].latency = 1;
	expect_conflict(f, g, "latency text cannot be joined");
	tdat_close(f);
	tdat_close(g);
}

/* A crafted buffer name (a newline, an escape sequence) must not break
 * the conflict's one line: merge's errors go through libfmt's cleaner. */
static void test_conflict_crafted_name(void)
{
	static const char crafted[] = "in\nst\x1b[1m";
	struct tdat_file *f = open_fix(INST_FIX), *g = open_fix(INST_FIX);
	int k;

	CU_ASSERT_FATAL(f && g);
	k = meta_buffer(g, "inst1");
	CU_ASSERT_FATAL(k > 0 && k == meta_buffer(f, "inst1"));
	free(f->buffers[k].name);
	free(g->buffers[k].name);
	f->buffers[k].name = strdup(crafted);
	g->buffers[k].name = strdup(crafted);
	free(g->buffers[k].clock);
	g->buffers[k].clock = strdup("global");
	expect_conflict(f, g, "buffer in?st?[1m has different clocks (global");
	tdat_close(f);
	tdat_close(g);
}

static void test_conflict_options(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g;
	static const char date1[] = "1700000000", date2[] = "1700000001";
	uint8_t tsc[16] = { 1 }, tsc2[16] = { 2 };
	struct tdat_option *u;

	CU_ASSERT_FATAL(f != NULL);
	g = open_fix(ZSTD_FIX);
	u = (struct tdat_option *)tdat_find_option(g, TDAT_OPT_UNAME);
	CU_ASSERT_FATAL(u && u->size > 2);
	u->data[0] ^= 1;
	expect_conflict(f, g, "different kernels (UNAME)");
	tdat_close(g);

	add_opt(f, TDAT_OPT_DATE, date1, sizeof(date1));
	add_opt(f, TDAT_OPT_OFFSET, "100", 4);
	add_opt(f, TDAT_OPT_TSC2NSEC, tsc, sizeof(tsc));
	g = open_fix(ZSTD_FIX);
	expect_conflict(f, g, "different DATE offsets");	/* g has none */
	add_opt(g, TDAT_OPT_DATE, date2, sizeof(date2));
	expect_conflict(f, g, "different DATE offsets");
	g->options[g->noptions - 1].data[9] = '0';		/* equal now */
	add_opt(g, TDAT_OPT_OFFSET, "200", 4);
	expect_conflict(f, g, "different timestamp OFFSET options");
	g->options[g->noptions - 1].data[0] = '1';
	add_opt(g, TDAT_OPT_TSC2NSEC, tsc2, sizeof(tsc2));
	expect_conflict(f, g, "different TSC2NSEC conversions");
	g->options[g->noptions - 1].data[0] = 1;
	{
		struct tdat_error err;
		struct tdat_file *m = meta_from_first(f, &err);

		CU_ASSERT_FATAL(m != NULL);
		CU_ASSERT_EQUAL(meta_join(m, g, "FIRST.dat", &err), 0);
		/* Single options are not repeated. */
		CU_ASSERT_EQUAL(m->noptions, f->noptions);
		meta_free(m);
	}
	tdat_close(g);
	tdat_close(f);
}

/* ---- joins ---- */

static void test_join_formats(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(ZSTD_FIX);
	struct names nm = { 0, "", "name: sched_wakeuq\n" }, nm0 = nm;
	struct tdat_error err;
	struct tdat_file *m;
	char *p, *id;

	CU_ASSERT_FATAL(f && g);
	/* g knows one event more: sched_wakeuq, ID 9999. */
	p = find_in_part(g, TDAT_META_EVENTS, "name: sched_wakeup\nID: ");
	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, "name: sched_wakeuq", 18);
	id = p + 23;
	CU_ASSERT_FATAL(id[0] >= '1' && id[3] == '\n');	/* three digits */
	memcpy(id, "999", 3);
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL_FATAL(meta_join(m, g, "FIRST.dat", &err), 0);
	CU_ASSERT_EQUAL(tdat_each_format(f, note_name, &nm0, &err), 0);
	CU_ASSERT_EQUAL(tdat_each_format(m, note_name, &nm, &err), 0);
	CU_ASSERT_EQUAL(nm.n, nm0.n + 1);
	CU_ASSERT_STRING_EQUAL(nm.found, "sched");
	CU_ASSERT(m->meta[TDAT_META_EVENTS].len >
		  f->meta[TDAT_META_EVENTS].len);
	/* The ftrace part is unchanged. */
	CU_ASSERT_EQUAL(m->meta[TDAT_META_FTRACE].len,
			f->meta[TDAT_META_FTRACE].len);
	/* A third input with the same formats as the joined ones: no
	 * change. */
	CU_ASSERT_EQUAL(meta_join(m, g, "FIRST.dat", &err), 0);
	nm.n = 0;
	CU_ASSERT_EQUAL(tdat_each_format(m, note_name, &nm, &err), 0);
	CU_ASSERT_EQUAL(nm.n, nm0.n + 1);
	meta_free(m);
	tdat_close(f);
	tdat_close(g);
}

/* part of g: its text with one more line (text size fixed up). */
static void add_line(struct tdat_file *g, int part, const char *line)
{
	size_t hdr = part == TDAT_META_CMDLINES ? 8 : 4;
	const struct tdat_blob *o = &g->meta[part];
	size_t n = o->len + strlen(line);
	uint8_t *p = malloc(n);

	CU_ASSERT_FATAL(p != NULL);
	memcpy(p, o->data, o->len);
	memcpy(p + o->len, line, strlen(line));
	if (hdr == 8)
		tdat_put64(g, p, n - 8);
	else
		tdat_put32(g, p, (uint32_t)(n - 4));
	set_part(g, part, p, n);
	free(p);
}

static void test_join_texts(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(ZSTD_FIX);
	struct tdat_error err;
	struct tdat_file *m;
	const char *t, *pid;
	size_t n, n0;
	int lines0;

	CU_ASSERT_FATAL(f && g);
	CU_ASSERT_FATAL(!tdat_meta_text(f, TDAT_META_KALLSYMS, &t, &n0, &err));
	lines0 = count_lines(t, n0);
	add_line(g, TDAT_META_KALLSYMS, "ffffffffc0ffee00 t tdat_test\n");
	CU_ASSERT_FATAL(!tdat_meta_text(f, TDAT_META_CMDLINES, &t, &n, &err));
	/* A new pid, and a pid f has with another comm (f's stays). */
	pid = strchr(t, ' ');
	CU_ASSERT_FATAL(pid != NULL);
	{
		char line[64];

		snprintf(line, sizeof(line), "%.*s other-comm\n99998 newcomm\n",
			 (int)(pid - t), t);
		add_line(g, TDAT_META_CMDLINES, line);
	}
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL_FATAL(meta_join(m, g, "FIRST.dat", &err), 0);
	CU_ASSERT_FATAL(!tdat_meta_text(m, TDAT_META_KALLSYMS, &t, &n, &err));
	CU_ASSERT_EQUAL(count_lines(t, n), lines0 + 1);
	CU_ASSERT_PTR_NOT_NULL(memmem(t, n, "tdat_test\n", 10));
	CU_ASSERT(!memcmp(t, f->meta[TDAT_META_KALLSYMS].data + 4, n0));
	CU_ASSERT_FATAL(!tdat_meta_text(m, TDAT_META_CMDLINES, &t, &n, &err));
	CU_ASSERT_PTR_NOT_NULL(memmem(t, n, "99998 newcomm\n", 14));
	CU_ASSERT_PTR_NULL(memmem(t, n, "other-comm", 10));
	CU_ASSERT_EQUAL(n, f->meta[TDAT_META_CMDLINES].len - 8 + 14);
	/* printk formats: equal, untouched. */
	CU_ASSERT_EQUAL(m->meta[TDAT_META_PRINTK].len,
			f->meta[TDAT_META_PRINTK].len);
	meta_free(m);
	tdat_close(f);
	tdat_close(g);
}

static void test_join_buffers(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(INST_FIX);
	struct tdat_error err;
	struct tdat_file *m;
	int k, i, has3 = 0;

	CU_ASSERT_FATAL(f && g);
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	/* Different event formats would be refused: compare buffers only. */
	set_part(g, TDAT_META_EVENTS, f->meta[TDAT_META_EVENTS].data,
		 f->meta[TDAT_META_EVENTS].len);
	set_part(g, TDAT_META_CMDLINES, f->meta[TDAT_META_CMDLINES].data,
		 f->meta[TDAT_META_CMDLINES].len);
	/* A CPU of the top buffer f does not have. */
	g->buffers[0].cpus[0].cpu = 3;
	CU_ASSERT_EQUAL_FATAL(meta_join(m, g, "FIRST.dat", &err), 0);
	CU_ASSERT_EQUAL(m->nbuffers, 2);
	CU_ASSERT_STRING_EQUAL(m->buffers[0].name, "");
	k = meta_buffer(m, "inst1");
	CU_ASSERT(k == 1);
	for (i = 0; i < m->buffers[0].ncpus; i++)
		has3 |= m->buffers[0].cpus[i].cpu == 3;
	CU_ASSERT(has3);
	CU_ASSERT(m->cpu_count >= 4);
	meta_free(m);
	tdat_close(f);
	tdat_close(g);
}

/* ---- unknown sections ---- */

static void put_extra(struct tdat_file *f, uint16_t id, uint16_t flags,
		      const void *body, size_t n)
{
	struct tdat_extra_section *x;

	x = realloc(f->extra, (size_t)(f->nextra + 1) * sizeof(*x));
	CU_ASSERT_FATAL(x != NULL);
	f->extra = x;
	x = &f->extra[f->nextra++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->flags = flags;
	x->description = strdup("test");
	CU_ASSERT_FATAL(!tdat_blob_dup(&x->body, body, n));
}

/* A compressed block of text in f's codec (one can compress in several
 * ways: level decides). */
static size_t pack(const struct tdat_file *f, const char *text, int level,
		   uint8_t *out, size_t cap)
{
	struct codec_ctx cc;
	size_t n = strlen(text), clen = 0;

	codec_ctx_init(&cc, f->codec, level);
	CU_ASSERT_FATAL(!codec_compress(&cc, text, n, out + 8, cap - 8,
					&clen));
	codec_ctx_free(&cc);
	tdat_store32(f->big_endian, out, (uint32_t)clen);
	tdat_store32(f->big_endian, out + 4, (uint32_t)n);
	return 8 + clen;
}

static void warned(void *ctx, const char *msg)
{
	char *last = ctx;

	snprintf(last, 512, "%s", msg);
}

static void test_join_extras(void)
{
	struct tdat_file *f = open_fix(ZSTD_FIX), *g = open_fix(ZSTD_FIX);
	struct tdat_file *z = open_fix("v7-zlib-sched-irq-tc34.dat");
	static const char text[] = "some opaque section text, repeated,"
				   " repeated, repeated, repeated";
	uint8_t b1[256], b2[256];
	size_t n1, n2;
	char last[512] = "";
	struct merge_opts o;
	struct merge_input in0;
	struct merge_ctx mc;
	struct tdat_error err;
	struct tdat_file *m;

	CU_ASSERT_FATAL(f && g && z);
	memset(&o, 0, sizeof(o));
	o.warn = warned;
	o.warn_ctx = last;
	put_extra(f, 40, 0, "same", 4);
	n1 = pack(f, text, 1, b1, sizeof(b1));
	n2 = pack(f, text, 19, b2, sizeof(b2));
	put_extra(f, 42, 1, b1, n1);
	put_extra(g, 40, 0, "same", 4);		/* identical: once */
	put_extra(g, 41, 0, "new", 3);		/* new id: added */
	put_extra(g, 40, 0, "other", 5);	/* same id, other: both */
	put_extra(g, 42, 1, b2, n2);		/* same content: once */
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	memset(&mc, 0, sizeof(mc));
	memset(&in0, 0, sizeof(in0));
	in0.path = f->path;
	mc.o = &o;
	mc.meta = m;
	mc.in = &in0;
	mc.nin = 1;
	CU_ASSERT_EQUAL_FATAL(meta_join_input(&mc, g, &err), 0);
	CU_ASSERT_EQUAL_FATAL(m->nextra, 4);
	CU_ASSERT_EQUAL(m->extra[0].id, 40);
	CU_ASSERT_EQUAL(m->extra[1].id, 42);
	CU_ASSERT_EQUAL(m->extra[2].id, 41);
	CU_ASSERT_EQUAL(m->extra[3].id, 40);
	CU_ASSERT_EQUAL(m->extra[3].body.len, 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(last, "section 40 differs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(last, g->path));
	/* Joined again: all there already. */
	CU_ASSERT_EQUAL(meta_join_input(&mc, g, &err), 0);
	CU_ASSERT_EQUAL(m->nextra, 4);
	meta_free(m);

	/* A compressed section of a zlib input joins a zstd output
	 * decompressed.  (Formats and texts differ: join z's extras only,
	 * through a copy of f with z's codec swapped in for the check.) */
	n1 = pack(z, text, 0, b1, sizeof(b1));
	put_extra(z, 43, 1, b1, n1);
	m = meta_from_first(f, &err);
	CU_ASSERT_FATAL(m != NULL);
	{
		struct tdat_file *g2 = open_fix(ZSTD_FIX);

		CU_ASSERT_FATAL(g2 != NULL);
		g2->codec = TDAT_CODEC_ZLIB;
		put_extra(g2, 43, 1, b1, n1);
		CU_ASSERT_EQUAL_FATAL(meta_join(m, g2, "FIRST.dat", &err), 0);
		CU_ASSERT_EQUAL_FATAL(m->nextra, 3);
		CU_ASSERT_EQUAL(m->extra[2].id, 43);
		CU_ASSERT_EQUAL(m->extra[2].flags, 0);
		CU_ASSERT_EQUAL(m->extra[2].body.len, strlen(text));
		CU_ASSERT(!memcmp(m->extra[2].body.data, text, strlen(text)));
		/* Corrupt: refused, naming the file. */
		g2->extra[g2->nextra - 1].body.data[12] ^= 0xff;
		g2->extra[g2->nextra - 1].body.data[13] ^= 0xff;
		g2->extra[g2->nextra - 1].id = 44;
		CU_ASSERT_EQUAL(meta_join(m, g2, "FIRST.dat", &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, g2->path));
		tdat_close(g2);
	}
	meta_free(m);
	tdat_close(f);
	tdat_close(g);
	tdat_close(z);
}

/* ---- stored forms and the lazy path ---- */

/* Write f's metadata (no trace data) as a v7 file of codec c. */
static void write_meta(const struct tdat_file *f, const char *path,
		       enum tdat_codec c, int level)
{
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	struct tdat_error err;

	memset(&wo, 0, sizeof(wo));
	wo.version = 7;
	wo.codec = c;
	wo.level = level;
	wo.threads = 1;
	w = tdat_writer_open(path, f, &wo, &err);
	if (!w)
		fprintf(stderr, "\n  %s\n", err.msg);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_close(w, &err) == 0);
}

static void test_stored_tie(void)
{
	struct tdat_file *k = open_flags(fixture(ZSTD_FIX),
					 TDAT_OPEN_KEEP_STORED);
	struct tdat_file *l = open_flags(fixture(ZSTD_FIX),
					 TDAT_OPEN_LAZY_META);
	struct tdat_file *e = open_fix(ZSTD_FIX);
	struct tdat_error err;
	struct tdat_blob b;
	int i;

	CU_ASSERT_FATAL(k && l && e);
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		CU_ASSERT_PTR_NOT_NULL(tdat_meta_stored(k, i));
		CU_ASSERT_PTR_NOT_NULL(tdat_meta_stored(l, i));
		CU_ASSERT_PTR_NULL(tdat_meta_stored(e, i));
		CU_ASSERT_EQUAL(tdat_meta_pending(l, i),
				i != TDAT_META_HEADERS);
		CU_ASSERT_EQUAL(tdat_meta_same_stored(k, l, i, &err), 1);
		CU_ASSERT_EQUAL(tdat_meta_same_stored(k, e, i, &err), 0);
		/* Decoded on demand: the content tdat_open gives. */
		CU_ASSERT_EQUAL(tdat_meta_check(l, i, &err), 0);
		CU_ASSERT_FATAL(tdat_meta_decode(l, i, &b, &err) == 0);
		CU_ASSERT(b.len == e->meta[i].len &&
			  !memcmp(b.data, e->meta[i].data, b.len));
		free(b.data);
	}
	/* Texts of pending parts are refused, not read as empty. */
	{
		const char *t;
		size_t n;

		CU_ASSERT_EQUAL(tdat_meta_text(l, TDAT_META_KALLSYMS, &t, &n,
					       &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not decoded"));
	}
	CU_ASSERT_EQUAL(tdat_meta_load(l, TDAT_META_KALLSYMS, &err), 0);
	CU_ASSERT(!tdat_meta_pending(l, TDAT_META_KALLSYMS));
	CU_ASSERT_PTR_NOT_NULL(tdat_meta_stored(l, TDAT_META_KALLSYMS));
	CU_ASSERT_EQUAL(l->meta[TDAT_META_KALLSYMS].len,
			e->meta[TDAT_META_KALLSYMS].len);
	/* Content changed through tdat_meta_set: the stored form goes. */
	set_part(k, TDAT_META_KALLSYMS, "\0\0\0\0", 4);
	CU_ASSERT_PTR_NULL(tdat_meta_stored(k, TDAT_META_KALLSYMS));
	CU_ASSERT_EQUAL(tdat_meta_same_stored(k, l, TDAT_META_KALLSYMS, &err),
			0);
	/* ... and changed behind its back: no longer tied either. */
	k->meta[TDAT_META_PRINTK].len--;
	CU_ASSERT_PTR_NULL(tdat_meta_stored(k, TDAT_META_PRINTK));
	k->meta[TDAT_META_PRINTK].len++;
	CU_ASSERT_PTR_NOT_NULL(tdat_meta_stored(k, TDAT_META_PRINTK));
	tdat_close(k);
	tdat_close(l);
	tdat_close(e);
}

/* zlib sections are checked by decoding them through a window. */
static void test_stored_zlib(void)
{
	const char *name = "v7-zlib-sched-irq-tc34.dat";
	struct tdat_file *l = open_flags(fixture(name), TDAT_OPEN_LAZY_META);
	struct tdat_file *e = open_fix(name);
	struct tdat_stored *s;
	struct tdat_error err;
	struct tdat_blob b;
	int i;

	CU_ASSERT_FATAL(l && e);
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		if (!tdat_meta_pending(l, i))
			continue;
		CU_ASSERT_EQUAL(tdat_meta_check(l, i, &err), 0);
		CU_ASSERT_FATAL(tdat_meta_decode(l, i, &b, &err) == 0);
		CU_ASSERT(blob_same(&b, &e->meta[i]));
		free(b.data);
	}
	/* Damage late in the kallsyms stream: adler32 finds it. */
	CU_ASSERT_FATAL(tdat_meta_pending(l, TDAT_META_KALLSYMS));
	CU_ASSERT_EQUAL(tdat_meta_load(l, TDAT_META_PRINTK, &err), 0);
	s = &l->priv->stored[TDAT_META_KALLSYMS];
	CU_ASSERT_FATAL(!fio_read_blob(l, s->offset + SECTION_HEADER_SIZE,
				       s->size, &s->bytes, "test", &err));
	s->bytes.data[s->size - 2] ^= 0x40;
	CU_ASSERT_EQUAL(tdat_meta_check(l, TDAT_META_KALLSYMS, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "zlib data does not decompress"));
	tdat_close(l);
	tdat_close(e);
}

/* The section bodies of a v7 file with their ids, as stored. */
static int stored_equal(const char *a, const char *b, int part)
{
	struct tdat_file *fa = open_flags(a, TDAT_OPEN_LAZY_META);
	struct tdat_file *fb = open_flags(b, TDAT_OPEN_LAZY_META);
	struct tdat_error err;
	int r = -1;

	if (fa && fb)
		r = tdat_meta_same_stored(fa, fb, part, &err);
	tdat_close(fa);
	tdat_close(fb);
	return r;
}

static void test_writer_copies_stored(void)
{
	struct tdat_file *e = open_fix(ZSTD_FIX), *l, *back;
	const char *hi = tmp("level19.dat"), *out = tmp("copied.dat");
	const char *re = tmp("recompressed.dat");
	struct tdat_error err;
	int i;

	CU_ASSERT_FATAL(e != NULL);
	/* Level 19 bytes: recompressing (level 3) would give others. */
	write_meta(e, hi, TDAT_CODEC_ZSTD, 19);
	l = open_flags(hi, TDAT_OPEN_LAZY_META);
	CU_ASSERT_FATAL(l != NULL);
	write_meta(l, out, TDAT_CODEC_ZSTD, 0);
	write_meta(l, re, TDAT_CODEC_ZSTD, 3);
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		CU_ASSERT_EQUAL(stored_equal(hi, out, i), 1);
		if (i == TDAT_META_KALLSYMS)
			CU_ASSERT_EQUAL(stored_equal(hi, re, i), 0);
	}
	/* Another codec: decoded and compressed again, same content. */
	write_meta(l, re, TDAT_CODEC_ZLIB, 0);
	back = open_flags(re, 0);
	CU_ASSERT_FATAL(back != NULL);
	same_v6_parts(back, e);
	tdat_close(back);
	(void)err;
	tdat_close(l);
	tdat_close(e);
}

/* A v6 output holds every part uncompressed: parts a lazy open left
 * pending are decoded for it, whatever the input's codec. */
static void test_lazy_to_v6(void)
{
	const char *names[] = { ZSTD_FIX, ZLIB_FIX };
	const char *out = tmp("lazy6.dat");
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	struct tdat_error err;
	int k;

	for (k = 0; k < 2; k++) {
		struct tdat_file *e = open_fix(names[k]), *l, *back;

		l = open_flags(fixture(names[k]), TDAT_OPEN_LAZY_META);
		CU_ASSERT_FATAL(e != NULL && l != NULL);
		CU_ASSERT(tdat_meta_pending(l, TDAT_META_KALLSYMS));
		memset(&wo, 0, sizeof(wo));
		wo.version = 6;
		wo.threads = 1;
		w = tdat_writer_open(out, l, &wo, &err);
		CU_ASSERT_FATAL(w != NULL);
		CU_ASSERT_FATAL(tdat_writer_close(w, &err) == 0);
		back = open_flags(out, 0);
		CU_ASSERT_FATAL(back != NULL);
		same_v6_parts(back, e);
		tdat_close(back);
		tdat_close(l);
		tdat_close(e);
	}
}

/* The output metadata of inputs joined the slow way (all decoded) and
 * the lazy way must be the same. */
static void compare_meta(struct tdat_file *a, struct tdat_file *b)
{
	struct tdat_error err;
	struct tdat_blob x, y;
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++) {
		CU_ASSERT_EQUAL(tdat_meta_has(a, i), tdat_meta_has(b, i));
		CU_ASSERT_FATAL(!tdat_meta_decode(a, i, &x, &err));
		CU_ASSERT_FATAL(!tdat_meta_decode(b, i, &y, &err));
		CU_ASSERT(blob_same(&x, &y));
		free(x.data);
		free(y.data);
	}
	CU_ASSERT_EQUAL(a->noptions, b->noptions);
	for (i = 0; i < a->noptions && i < b->noptions; i++)
		CU_ASSERT(a->options[i].size == b->options[i].size &&
			  !memcmp(a->options[i].data, b->options[i].data,
				  a->options[i].size));
	CU_ASSERT_EQUAL(a->nbuffers, b->nbuffers);
	CU_ASSERT_EQUAL(a->nextra, b->nextra);
	CU_ASSERT_EQUAL(a->cpu_count, b->cpu_count);
}

static void test_lazy_same_as_slow(void)
{
	struct tdat_file *e = open_fix(ZSTD_FIX), *slow, *lazy;
	struct tdat_file *ins[3];
	const char *paths[3] = { tmp("in0.dat"), tmp("in1.dat"),
				 tmp("in2.dat") };
	struct merge_opts o;
	struct merge_input in0;
	struct merge_ctx mc;
	struct tdat_error err;
	int i;

	CU_ASSERT_FATAL(e != NULL);
	/* in0 = the fixture's metadata; in1 = more kallsyms; in2 = in0. */
	write_meta(e, paths[0], TDAT_CODEC_ZSTD, 0);
	write_meta(e, paths[2], TDAT_CODEC_ZSTD, 0);
	add_line(e, TDAT_META_KALLSYMS, "ffffffffc0ffee00 t tdat_test\n");
	write_meta(e, paths[1], TDAT_CODEC_ZSTD, 0);

	for (i = 0; i < 3; i++)
		CU_ASSERT_FATAL((ins[i] = open_flags(paths[i], 0)) != NULL);
	slow = meta_from_first(ins[0], &err);
	CU_ASSERT_FATAL(slow != NULL);
	for (i = 1; i < 3; i++)
		CU_ASSERT_FATAL(!meta_join(slow, ins[i], paths[0], &err));
	for (i = 0; i < 3; i++)
		tdat_close(ins[i]);

	memset(&o, 0, sizeof(o));
	memset(&in0, 0, sizeof(in0));
	memset(&mc, 0, sizeof(mc));
	in0.path = (char *)paths[0];
	mc.o = &o;
	mc.in = &in0;
	mc.nin = 1;
	for (i = 0; i < 3; i++)
		CU_ASSERT_FATAL((ins[i] = open_flags(paths[i],
						     TDAT_OPEN_LAZY_META)) != NULL);
	lazy = meta_from_first(ins[0], &err);
	CU_ASSERT_FATAL(lazy != NULL);
	mc.meta = lazy;
	/* Copied undecoded from the first input. */
	CU_ASSERT(tdat_meta_pending(lazy, TDAT_META_KALLSYMS));
	CU_ASSERT_FATAL(!meta_join_input(&mc, ins[1], &err));
	/* in1's kallsyms differ: decoded, joined, its stored form gone; the
	 * other sections are still the first input's stored bytes. */
	CU_ASSERT(!tdat_meta_pending(ins[1], TDAT_META_KALLSYMS) &&
		  ins[1]->meta[TDAT_META_KALLSYMS].len);
	CU_ASSERT(tdat_meta_pending(ins[1], TDAT_META_PRINTK));
	CU_ASSERT_PTR_NULL(tdat_meta_stored(lazy, TDAT_META_KALLSYMS));
	CU_ASSERT(tdat_meta_pending(lazy, TDAT_META_PRINTK));
	CU_ASSERT(tdat_meta_pending(lazy, TDAT_META_EVENTS));
	CU_ASSERT_FATAL(!meta_join_input(&mc, ins[2], &err));
	CU_ASSERT(tdat_meta_pending(ins[2], TDAT_META_EVENTS));
	compare_meta(slow, lazy);
	/* A file with pending sections is refused by the eager join. */
	CU_ASSERT_EQUAL(meta_join(lazy, ins[2], paths[0], &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not decoded"));
	for (i = 0; i < 3; i++)
		tdat_close(ins[i]);
	meta_free(slow);
	meta_free(lazy);
	tdat_close(e);
	for (i = 0; i < 3; i++)
		unlink(paths[i]);
}

/* Damage in a compressed section: the lazy open does not see it, loading
 * it reports what tdat_open reports. */
static void test_lazy_damage(void)
{
	struct tdat_file *l = open_flags(fixture(ZSTD_FIX),
					 TDAT_OPEN_LAZY_META);
	const char *bad = tmp("damaged.dat");
	const struct tdat_stored *s;
	struct tdat_error e1, e2;
	uint64_t off;
	uint8_t junk[64];
	FILE *fp;
	char cmd[8192];

	CU_ASSERT_FATAL(l != NULL);
	s = tdat_meta_stored(l, TDAT_META_KALLSYMS);
	CU_ASSERT_FATAL(s != NULL);
	off = s->offset;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fixture(ZSTD_FIX), bad);
	CU_ASSERT_FATAL(system(cmd) == 0);
	/* The zstd frame header of kallsyms's block becomes junk. */
	memset(junk, 0xa5, sizeof(junk));
	fp = fopen(bad, "r+b");
	CU_ASSERT_FATAL(fp != NULL);
	CU_ASSERT_FATAL(!fseek(fp, (long)(s->offset + 16 + 8), SEEK_SET));
	CU_ASSERT_FATAL(fwrite(junk, 1, sizeof(junk), fp) == sizeof(junk));
	fclose(fp);
	tdat_close(l);

	CU_ASSERT_PTR_NULL(tdat_open(bad, &e1));
	l = open_flags(bad, TDAT_OPEN_LAZY_META);
	CU_ASSERT_FATAL(l != NULL);
	CU_ASSERT_EQUAL(tdat_meta_check(l, TDAT_META_KALLSYMS, &e2), -1);
	CU_ASSERT_STRING_EQUAL(e1.msg, e2.msg);
	memset(&e2, 0, sizeof(e2));
	CU_ASSERT_EQUAL(tdat_meta_load(l, TDAT_META_KALLSYMS, &e2), -1);
	CU_ASSERT_STRING_EQUAL(e1.msg, e2.msg);
	CU_ASSERT(tdat_meta_pending(l, TDAT_META_KALLSYMS));
	tdat_close(l);

	/* A hostile size in the block header: the lazy open refuses it as
	 * tdat_open does, before anything is allocated. */
	fp = fopen(bad, "r+b");
	CU_ASSERT_FATAL(fp != NULL);
	CU_ASSERT_FATAL(!fseek(fp, (long)(off + 16 + 4), SEEK_SET));
	CU_ASSERT_FATAL(fwrite("\xf0\xff\xff\xff", 1, 4, fp) == 4);
	fclose(fp);
	CU_ASSERT_PTR_NULL(tdat_open(bad, &e1));
	CU_ASSERT_PTR_NULL(tdat_open_flags(bad, TDAT_OPEN_LAZY_META, &e2));
	CU_ASSERT_STRING_EQUAL(e1.msg, e2.msg);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2.msg, "implausible"));
	unlink(bad);
}

void suite_merge_meta(void)
{
	CU_pSuite s = CU_add_suite("merge_meta", NULL, NULL);

	CU_add_test(s, "meta_from_first, joined with itself", test_from_first);
	CU_add_test(s, "conflict: byte order, long size, page size, header_page",
		    test_conflict_header);
	CU_add_test(s, "conflict: a shared event's format or ID",
		    test_conflict_formats);
	CU_add_test(s, "conflict: a buffer's clock, page size, kind",
		    test_conflict_buffers);
	CU_add_test(s, "conflict: a crafted buffer name stays on one line",
		    test_conflict_crafted_name);
	CU_add_test(s, "conflict: kernel, DATE, OFFSET, TSC2NSEC",
		    test_conflict_options);
	CU_add_test(s, "join: event formats", test_join_formats);
	CU_add_test(s, "join: kallsyms and saved cmdlines", test_join_texts);
	CU_add_test(s, "join: buffers and CPUs", test_join_buffers);
	CU_add_test(s, "join: unknown sections", test_join_extras);
	CU_add_test(s, "stored forms: kept, tied to content, decoded",
		    test_stored_tie);
	CU_add_test(s, "stored forms of zlib sections", test_stored_zlib);
	CU_add_test(s, "writer copies stored sections", test_writer_copies_stored);
	CU_add_test(s, "lazy parts decoded for a v6 output", test_lazy_to_v6);
	CU_add_test(s, "lazy join gives the slow join's result",
		    test_lazy_same_as_slow);
	CU_add_test(s, "damaged section: lazy load reports as open does",
		    test_lazy_damage);
}
