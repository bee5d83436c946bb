/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_write.c - the writer: byte identity with trace-cmd's v6 files,
 * v6 -> v7 -> v6 round trips, chunking and threads, and synthetic files
 * made by hand-filling a struct tdat_file (big endian, 32-bit long size,
 * sparse CPU ids, an instance with its own page size, an unknown section,
 * latency text, empty buffers), read back with tdat_open and compared.
 * Also every way writing can fail, and that no temporary file remains.
 */
#define _GNU_SOURCE		/* memmem */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"
#include "convert/copy/copy.h"

/* ---- helpers ---- */

static const char *tmp(const char *name)
{
	static char buf[4][4096];
	static int next;
	char *out = buf[next++ % 4];

	snprintf(out, sizeof(buf[0]), "%s/%s", test_tmpdir(), name);
	return out;
}

static struct tdat_file *open_path(const char *path)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);

	if (!f)
		fprintf(stderr, "\n  %s\n", err.msg);
	return f;
}

static int same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* No ".NAME.tmp-RANDOM" left behind in the test directory. */
static int no_temp_files(void)
{
	DIR *d = opendir(test_tmpdir());
	struct dirent *e;
	int clean = 1;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp-"))
			clean = 0;
	closedir(d);
	return clean;
}

/* Copy in to out through the writer API, pages or (if asked) chunks. */
static int copy_file(struct tdat_file *in, const char *out,
		     const struct tdat_write_opts *o, int chunks)
{
	struct tdat_error err;
	struct tdat_writer *w = tdat_writer_open(out, in, o, &err);
	int b, c;

	if (!w) {
		fprintf(stderr, "\n  %s\n", err.msg);
		return -1;
	}
	for (b = 0; b < in->nbuffers; b++) {
		const struct tdat_buffer *buf = &in->buffers[b];
		struct tdat_blob text;

		if (buf->latency) {
			if (tdat_read_latency(in, b, &text, &err) ||
			    tdat_writer_put_latency(w, b, text.data, text.len,
						    &err))
				goto fail;
			free(text.data);
			continue;
		}
		for (c = 0; c < buf->ncpus; c++)
			if (copy_cpu_stream(in, b, c, w, chunks ?
					    COPY_CHUNKS_CHECKED : COPY_PAGES,
					    NULL, &err))
				goto fail;
	}
	if (tdat_writer_close(w, &err) == 0)
		return 0;
	fprintf(stderr, "\n  %s\n", err.msg);
	return -1;
fail:
	fprintf(stderr, "\n  %s\n", err.msg);
	tdat_writer_abort(w);
	return -1;
}

static const struct tdat_buffer *find_buffer(const struct tdat_file *f,
					     const char *name)
{
	int i;

	for (i = 0; i < f->nbuffers; i++)
		if (!strcmp(f->buffers[i].name, name))
			return &f->buffers[i];
	return NULL;
}

/* All data of one CPU stream, concatenated (NULL len 0 if none). */
static uint8_t *cpu_bytes(struct tdat_file *f, const struct tdat_buffer *b,
			  int cpu, size_t *len)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint8_t *all = NULL;
	int i, got;

	*len = 0;
	for (i = 0; i < b->ncpus && b->cpus[i].cpu != cpu; i++)
		;
	if (i == b->ncpus || b->cpus[i].size == 0)
		return NULL;
	r = tdat_cpu_open(f, (int)(b - f->buffers), i, &err);
	CU_ASSERT_FATAL(r != NULL);
	while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) == 1) {
		all = realloc(all, *len + b->page_size);
		CU_ASSERT_FATAL(all != NULL);
		memcpy(all + *len, page, b->page_size);
		*len += b->page_size;
	}
	CU_ASSERT_EQUAL(got, 0);
	tdat_cpu_close(r);
	return all;
}

static void same_blob(const struct tdat_blob *a, const struct tdat_blob *b)
{
	CU_ASSERT_EQUAL(a->len, b->len);
	CU_ASSERT(a->len == b->len && (!a->len ||
					memcmp(a->data, b->data, a->len) == 0));
}

/* What a reader can see: metadata, options, buffers, every CPU's bytes. */
static void same_content(struct tdat_file *a, struct tdat_file *b)
{
	int i, j, cpu;

	CU_ASSERT_EQUAL(a->big_endian, b->big_endian);
	CU_ASSERT_EQUAL(a->long_size, b->long_size);
	CU_ASSERT_EQUAL(a->page_size, b->page_size);
	CU_ASSERT_EQUAL(tdat_cpus(a), tdat_cpus(b));
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		CU_ASSERT_EQUAL(tdat_meta_has(a, i), tdat_meta_has(b, i));
		same_blob(&a->meta[i], &b->meta[i]);
	}
	CU_ASSERT_EQUAL_FATAL(a->noptions, b->noptions);
	for (i = 0; i < a->noptions; i++) {
		CU_ASSERT_EQUAL(a->options[i].id, b->options[i].id);
		CU_ASSERT_EQUAL(a->options[i].size, b->options[i].size);
		CU_ASSERT(a->options[i].size == b->options[i].size &&
			  (!a->options[i].size ||
			   !memcmp(a->options[i].data, b->options[i].data,
				   a->options[i].size)));
	}
	for (i = 0; i < a->nbuffers; i++) {
		const struct tdat_buffer *x = &a->buffers[i];
		const struct tdat_buffer *y = find_buffer(b, x->name);

		CU_ASSERT_FATAL(y != NULL);
		CU_ASSERT_STRING_EQUAL(x->clock, y->clock);
		CU_ASSERT_EQUAL(x->latency, y->latency);
		for (j = 0; !x->latency && j < x->ncpus; j++) {
			size_t la, lb;
			uint8_t *da, *db;

			cpu = x->cpus[j].cpu;
			da = cpu_bytes(a, x, cpu, &la);
			db = cpu_bytes(b, y, cpu, &lb);
			CU_ASSERT_EQUAL(la, lb);
			CU_ASSERT(la == lb && (!la || !memcmp(da, db, la)));
			free(da);
			free(db);
		}
	}
}

/* ---- byte identity and round trips on real files ---- */

static const char *const v6_fixtures[] = {
	"v6-sched-irq.dat",
	"v6-clock-global.dat",
	"v6-2inst-irq-top-sched-inst1.dat",
};

static void test_v6_rewrite_identical(void)
{
	struct tdat_write_opts o = { .version = 6 };
	size_t i;

	for (i = 0; i < sizeof(v6_fixtures) / sizeof(v6_fixtures[0]); i++) {
		struct tdat_file *f = open_path(fixture(v6_fixtures[i]));

		CU_ASSERT_FATAL(f != NULL);
		CU_ASSERT_EQUAL(copy_file(f, tmp("v6.dat"), &o, 0), 0);
		CU_ASSERT(same_bytes(fixture(v6_fixtures[i]), tmp("v6.dat")));
		tdat_close(f);
	}
}

/*
 * v6 clock records that are not "[clock]" (trace-cmd 2.x wrote the whole
 * trace_clock list): both buffers of a v6 file with an instance get one,
 * of the same length so the CPU offsets hold.  The clocks are the words
 * in brackets, and v6 -> v6 and v6 -> v7 -> v6 give the bytes back.
 */
static void edit_clock(uint8_t *d, size_t n, size_t *from, const char *text)
{
	static const uint8_t rec[] = "\7\0\0\0\0\0\0\0[local]";
	uint8_t *p = memmem(d + *from, n - *from, rec, 15);

	CU_ASSERT_FATAL(p != NULL);
	memcpy(p + 8, text, 7);
	*from = (size_t)(p - d) + 15;
}

static void test_v6_clock_records(void)
{
	struct tdat_write_opts o6 = { .version = 6 };
	struct tdat_write_opts o7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_file *f, *g;
	size_t n, at = 0;
	uint8_t *d;
	FILE *out;

	d = slurp_file(fixture("v6-2inst-irq-top-sched-inst1.dat"), &n);
	CU_ASSERT_FATAL(d != NULL);
	edit_clock(d, n, &at, "x[mono]");
	edit_clock(d, n, &at, "[boot] ");
	out = fopen(tmp("clocks.dat"), "wb");
	CU_ASSERT_FATAL(out && fwrite(d, 1, n, out) == n);
	fclose(out);
	free(d);
	f = open_path(tmp("clocks.dat"));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_STRING_EQUAL(f->buffers[0].clock, "mono");
	CU_ASSERT_STRING_EQUAL(f->buffers[1].clock, "boot");
	CU_ASSERT_EQUAL(copy_file(f, tmp("clocks6.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("clocks.dat"), tmp("clocks6.dat")));
	CU_ASSERT_EQUAL(copy_file(f, tmp("clocks7.dat"), &o7, 0), 0);
	tdat_close(f);
	g = open_path(tmp("clocks7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_STRING_EQUAL(g->buffers[1].clock, "boot");
	CU_ASSERT_EQUAL(copy_file(g, tmp("clocks76.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("clocks.dat"), tmp("clocks76.dat")));
	tdat_close(g);
}

/*
 * trace-cmd 2.x put each instance's BUFFER option just before that
 * instance's CPUSTAT options, 3.x after all the options: a fixture's
 * BUFFER option moved before its first CPUSTAT (same bytes, so offsets
 * hold) comes back in that place from v6 -> v6 and v6 -> v7 -> v6.
 */
static void move_buffer_option(uint8_t *d, size_t n)
{
	uint8_t *p = memmem(d, n, "options  ", 10), *first = NULL, *buf;
	uint32_t size = 0;
	uint16_t id;

	CU_ASSERT_FATAL(p != NULL);
	for (p += 10; (id = tdat_load16(0, p)) != 0; p += 6 + size) {
		size = tdat_load32(0, p + 2);
		if (id == TDAT_OPT_CPUSTAT && !first)
			first = p;
		if (id == TDAT_OPT_BUFFER)
			break;
	}
	CU_ASSERT_FATAL(id == TDAT_OPT_BUFFER && first != NULL);
	buf = malloc(6 + size);
	CU_ASSERT_FATAL(buf != NULL);
	memcpy(buf, p, 6 + size);
	memmove(first + 6 + size, first, (size_t)(p - first));
	memcpy(first, buf, 6 + size);
	free(buf);
}

static void test_v6_buffer_option_place(void)
{
	struct tdat_write_opts o6 = { .version = 6 };
	struct tdat_write_opts o7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_file *f, *g;
	size_t n;
	uint8_t *d;
	FILE *out;

	d = slurp_file(fixture("v6-2inst-irq-top-sched-inst1.dat"), &n);
	CU_ASSERT_FATAL(d != NULL);
	move_buffer_option(d, n);
	out = fopen(tmp("place.dat"), "wb");
	CU_ASSERT_FATAL(out && fwrite(d, 1, n, out) == n);
	fclose(out);
	free(d);
	f = open_path(tmp("place.dat"));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(f->nextra, 1);
	CU_ASSERT_EQUAL(copy_file(f, tmp("place6.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("place.dat"), tmp("place6.dat")));
	CU_ASSERT_EQUAL(copy_file(f, tmp("place7.dat"), &o7, 0), 0);
	tdat_close(f);
	g = open_path(tmp("place7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_EQUAL(copy_file(g, tmp("place76.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("place.dat"), tmp("place76.dat")));
	tdat_close(g);
}

/*
 * An event system's name is bounded only by its file: v7 sections allow
 * any length, and a v6 file written from one must read back.  The
 * fixture's "sched" becomes 300 bytes long; its padding before the CPU
 * data shrinks by as much, so every offset holds.
 */
static void test_v6_long_system_name(void)
{
	static const uint8_t sched[] = "\2\0\0\0sched";
	struct tdat_write_opts o6 = { .version = 6 };
	struct tdat_write_opts o7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	const size_t grow = 300 - 5;
	struct tdat_file *f, *g;
	uint8_t *d, *p, *out;
	uint64_t data;
	size_t n, at;
	FILE *fp;

	d = slurp_file(fixture("v6-sched-irq.dat"), &n);
	CU_ASSERT_FATAL(d != NULL);
	p = memmem(d, n, sched, 9);
	CU_ASSERT_FATAL(p != NULL);
	at = (size_t)(p - d) + 4;
	data = tdat_load64(0, (uint8_t *)memmem(d, n, "flyrecord", 10) + 10);
	out = malloc(n);
	CU_ASSERT_FATAL(out != NULL && data > at && data <= n);
	memcpy(out, d, at);
	memset(out + at, 's', 300);
	/* what is dropped is padding */
	CU_ASSERT_FATAL(d[data - grow] == 0 && d[data - 1] == 0);
	memcpy(out + at + 300, d + at + 5, (size_t)data - at - 300);
	memcpy(out + data, d + data, n - (size_t)data);
	fp = fopen(tmp("longsys.dat"), "wb");
	CU_ASSERT_FATAL(fp && fwrite(out, 1, n, fp) == n);
	fclose(fp);
	free(out);
	free(d);
	f = open_path(tmp("longsys.dat"));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(copy_file(f, tmp("longsys6.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("longsys.dat"), tmp("longsys6.dat")));
	CU_ASSERT_EQUAL(copy_file(f, tmp("longsys7.dat"), &o7, 0), 0);
	tdat_close(f);
	g = open_path(tmp("longsys7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_EQUAL(copy_file(g, tmp("longsys76.dat"), &o6, 0), 0);
	CU_ASSERT(same_bytes(tmp("longsys.dat"), tmp("longsys76.dat")));
	tdat_close(g);
}

static void test_v6_v7_v6(void)
{
	static const enum tdat_codec codecs[] = {
		TDAT_CODEC_NONE, TDAT_CODEC_ZLIB, TDAT_CODEC_ZSTD
	};
	const char *src = fixture("v6-2inst-irq-top-sched-inst1.dat");
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_file *f = open_path(src), *g, *h;
	size_t i;

	CU_ASSERT_FATAL(f != NULL);
	for (i = 0; i < 3; i++) {
		struct tdat_write_opts v7 = { .version = 7, .codec = codecs[i] };

		CU_ASSERT_FATAL(copy_file(f, tmp("v7.dat"), &v7, 0) == 0);
		g = open_path(tmp("v7.dat"));
		CU_ASSERT_FATAL(g != NULL);
		CU_ASSERT_EQUAL(g->version, 7);
		CU_ASSERT_EQUAL(g->codec, codecs[i]);
		CU_ASSERT_EQUAL(g->has_cpucount, 1);
		CU_ASSERT_EQUAL(g->nextra, 0);
		same_content(f, g);
		CU_ASSERT_FATAL(copy_file(g, tmp("back.dat"), &v6, 0) == 0);
		CU_ASSERT(same_bytes(src, tmp("back.dat")));
		/* and v7 -> v7 again gives the same v7 file */
		CU_ASSERT_FATAL(copy_file(g, tmp("v7b.dat"), &v7, 1) == 0);
		CU_ASSERT(same_bytes(tmp("v7.dat"), tmp("v7b.dat")));
		h = open_path(tmp("back.dat"));
		CU_ASSERT_FATAL(h != NULL);
		tdat_close(h);
		tdat_close(g);
	}
	tdat_close(f);
	CU_ASSERT(no_temp_files());
}

/* The layout trace-cmd writes (FORMAT.md 4.7, 5.4): aligned streams,
 * sizes = the full chunk span, strings with the reference names. */
static void test_v7_layout(void)
{
	struct tdat_write_opts o = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_file *f = open_path(fixture("v6-sched-irq.dat")), *g;
	struct tdat_error err;
	int i;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_FATAL(copy_file(f, tmp("v7.dat"), &o, 0) == 0);
	g = open_path(tmp("v7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_STRING_EQUAL(g->codec_name, "zstd");
	CU_ASSERT_EQUAL_FATAL(g->nbuffers, 1);
	for (i = 0; i < g->buffers[0].ncpus; i++) {
		const struct tdat_cpu *c = &g->buffers[0].cpus[i];
		struct tdat_cpu_reader *r = tdat_cpu_open(g, 0, i, &err);
		const uint8_t *d;
		uint32_t cs, us;
		uint64_t span = 4;

		CU_ASSERT_EQUAL(c->offset % 4096, 0);
		CU_ASSERT_FATAL(r != NULL);
		while (tdat_cpu_next_chunk(r, &d, &cs, &us, &err) == 1) {
			span += 8 + cs;
			CU_ASSERT(us <= 40960 && us % 4096 == 0);
		}
		CU_ASSERT_EQUAL(c->size, span);
		tdat_cpu_close(r);
	}
	CU_ASSERT(g->strings.len > 0);
	CU_ASSERT(memmem(g->strings.data, g->strings.len,
			 "buffer flyrecord \0options\0strings\0", 34) != NULL);
	CU_ASSERT(memmem(g->strings.data, g->strings.len,
			 "headers\0ftrace events\0events format\0kallsyms\0"
			 "printk\0command lines\0options\0", 74) != NULL);
	tdat_close(g);
	tdat_close(f);
}

/* Copying chunks through and recompressing them: same content. */
static void test_chunk_copy(void)
{
	struct tdat_write_opts o = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_file *f = open_path(fixture("v7-zstd-markers-raw_syscalls.dat"));
	struct tdat_file *g, *h;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_FATAL(copy_file(f, tmp("copy.dat"), &o, 1) == 0);
	CU_ASSERT_FATAL(copy_file(f, tmp("recompressed.dat"), &o, 0) == 0);
	g = open_path(tmp("copy.dat"));
	h = open_path(tmp("recompressed.dat"));
	CU_ASSERT_FATAL(g && h);
	same_content(f, g);
	same_content(f, h);
	tdat_close(f);
	tdat_close(g);
	tdat_close(h);
}

/* The chunk layout does not depend on the number of threads. */
static void test_threads_and_chunk_size(void)
{
	struct tdat_write_opts o = { .version = 7, .codec = TDAT_CODEC_ZSTD,
				     .chunk_size = 3 * 4096 };
	struct tdat_file *f = open_path(fixture("v6-sched-irq.dat")), *g;
	struct tdat_error err;
	int threads[] = { 1, 2, 5 }, i, n = 0;
	const uint8_t *d;
	uint32_t cs, us, last = 0;

	CU_ASSERT_FATAL(f != NULL);
	for (i = 0; i < 3; i++) {
		o.threads = threads[i];
		CU_ASSERT_FATAL(copy_file(f, tmp(i ? "t.dat" : "t1.dat"), &o,
					  0) == 0);
		if (i)
			CU_ASSERT(same_bytes(tmp("t1.dat"), tmp("t.dat")));
	}
	g = open_path(tmp("t1.dat"));
	CU_ASSERT_FATAL(g != NULL);
	same_content(f, g);
	{
		struct tdat_cpu_reader *r = tdat_cpu_open(g, 0, 0, &err);

		CU_ASSERT_FATAL(r != NULL);
		while (tdat_cpu_next_chunk(r, &d, &cs, &us, &err) == 1) {
			if (n++)
				CU_ASSERT_EQUAL(last, 3 * 4096);
			last = us;
		}
		CU_ASSERT(n >= 1 && last <= 3 * 4096 && last % 4096 == 0);
		tdat_cpu_close(r);
	}
	tdat_close(g);
	/* a chunk size that is not whole pages is refused at open */
	o.chunk_size = 5000;
	CU_ASSERT_PTR_NULL(tdat_writer_open(tmp("bad.dat"), f, &o, &err));
	CU_ASSERT(strstr(err.msg, "not a multiple") != NULL);
	CU_ASSERT(access(tmp("bad.dat"), F_OK) != 0);
	tdat_close(f);
	CU_ASSERT(no_temp_files());
}

/* ---- synthetic files ---- */

/* Re-encode the size fields of a metadata part to another byte order. */
static void swap_u32(uint8_t *p, size_t *pos, int from, int to)
{
	tdat_store32(to, p + *pos, tdat_load32(from, p + *pos));
	*pos += 4;
}

static uint64_t swap_u64(uint8_t *p, size_t *pos, int from, int to)
{
	uint64_t v = tdat_load64(from, p + *pos);

	tdat_store64(to, p + *pos, v);
	*pos += 8;
	return v;
}

/* n x (u64 size, text) */
static void swap_texts(uint8_t *p, size_t *pos, uint32_t n, int from, int to)
{
	uint64_t len;

	while (n--) {
		len = swap_u64(p, pos, from, to);
		*pos += len;
	}
}

static void reencode_meta(struct tdat_blob *b, int part, int from, int to)
{
	uint8_t *p = b->data;
	size_t pos = 0;
	uint32_t n, nev;

	switch (part) {
	case TDAT_META_HEADERS:	/* "header_page\0", u64, text, ... */
		pos = 12;
		swap_texts(p, &pos, 1, from, to);
		pos += 13;
		swap_texts(p, &pos, 1, from, to);
		break;
	case TDAT_META_FTRACE:
		n = tdat_load32(from, p);
		swap_u32(p, &pos, from, to);
		swap_texts(p, &pos, n, from, to);
		break;
	case TDAT_META_EVENTS:
		n = tdat_load32(from, p);
		swap_u32(p, &pos, from, to);
		while (n--) {
			pos += strlen((char *)p + pos) + 1;
			nev = tdat_load32(from, p + pos);
			swap_u32(p, &pos, from, to);
			swap_texts(p, &pos, nev, from, to);
		}
		break;
	case TDAT_META_KALLSYMS:
	case TDAT_META_PRINTK:
		swap_u32(p, &pos, from, to);
		break;
	case TDAT_META_CMDLINES:
		swap_u64(p, &pos, from, to);
		break;
	}
}

static void add_option(struct tdat_file *f, uint16_t id, const void *data,
		       uint32_t size)
{
	struct tdat_option *o;

	f->options = realloc(f->options, (f->noptions + 1) * sizeof(*o));
	CU_ASSERT_FATAL(f->options != NULL);
	o = &f->options[f->noptions++];
	o->id = id;
	o->size = size;
	o->data = malloc(size ? size : 1);
	memcpy(o->data, data, size);
}

static struct tdat_buffer *add_buffer(struct tdat_file *f, const char *name,
				      const char *clock, uint32_t page_size)
{
	struct tdat_buffer *b;

	f->buffers = realloc(f->buffers, (f->nbuffers + 1) * sizeof(*b));
	CU_ASSERT_FATAL(f->buffers != NULL);
	b = &f->buffers[f->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->clock = strdup(clock);
	b->page_size = page_size;
	return b;
}

static void add_cpu(struct tdat_buffer *b, int cpu, uint64_t size)
{
	b->cpus = realloc(b->cpus, (b->ncpus + 1) * sizeof(*b->cpus));
	CU_ASSERT_FATAL(b->cpus != NULL);
	b->cpus[b->ncpus].cpu = cpu;
	b->cpus[b->ncpus].offset = 0;
	b->cpus[b->ncpus].size = size;	/* just "has data" for the writer */
	b->ncpus++;
}

/* Metadata of a real file, header fields and options left to the test. */
static struct tdat_file *meta_from(const char *name, int big)
{
	struct tdat_file *src = open_path(fixture(name));
	struct tdat_file *f = tdat_meta_new(7, big, 8, 4096, NULL);
	struct tdat_blob part;
	int i;

	CU_ASSERT_FATAL(src && f);
	f->path = strdup("synthetic");
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		part = src->meta[i];	/* take them over */
		src->meta[i].data = NULL;
		src->meta[i].len = 0;
		if (big)
			reencode_meta(&part, i, 0, 1);
		tdat_meta_set(f, i, &part);
	}
	tdat_close(src);
	return f;
}

/*
 * Recognisable pages: a pattern, and a plausible page header (timestamp,
 * small commit) every 4 KiB, so that an 8 KiB page still reads as two
 * sane 4 KiB pages once v6 forces the file's page size on it.
 */
static void make_pages(uint8_t *p, size_t n, uint32_t ps, int big, int seed)
{
	size_t i, j;

	for (i = 0; i < n * ps; i++)
		p[i] = (uint8_t)(i * 31 + (i >> 12) * 7 + (size_t)seed);
	for (j = 0; j < n * ps; j += 4096) {
		tdat_store64(big, p + j, 1000000 * (uint64_t)seed + j / 4096);
		tdat_store64(big, p + j + 8, 0);
	}
}

static int write_cpu(struct tdat_writer *w, int buf, int cpu, uint32_t ps,
		     size_t npages, int big, int seed)
{
	struct tdat_error err;
	uint8_t *p = malloc(npages * ps + 1);
	size_t i;
	int r;

	make_pages(p, npages, ps, big, seed);
	r = tdat_writer_begin_cpu(w, buf, cpu, &err);
	/* in uneven pieces, to cross chunk boundaries */
	for (i = 0; !r && i < npages; i += 3)
		r = tdat_writer_put_pages(w, p + i * ps,
					  (npages - i < 3 ? npages - i : 3) * ps,
					  &err);
	r = r || tdat_writer_end_cpu(w, &err);
	if (r)
		fprintf(stderr, "\n  %s\n", err.msg);
	free(p);
	return r;
}

static void check_cpu(struct tdat_file *f, const char *buf, int cpu,
		      size_t npages, uint32_t ps, int seed)
{
	const struct tdat_buffer *b = find_buffer(f, buf);
	uint8_t *want = malloc(npages * ps + 1), *got;
	size_t len;

	CU_ASSERT_FATAL(b != NULL && want != NULL);
	make_pages(want, npages, ps, f->big_endian, seed);
	got = cpu_bytes(f, b, cpu, &len);
	CU_ASSERT_EQUAL(len, npages * ps);
	CU_ASSERT(len == npages * ps && (!len || !memcmp(got, want, len)));
	free(got);
	free(want);
}

/*
 * Big endian, user-space long size 4, sparse CPU ids (0 and 3 of 4),
 * an instance with 8 KiB pages, an unknown option, an unknown section
 * and a BTF section: write v7 zstd, read it back, write v6 from that.
 */
static struct tdat_file *synthetic_meta(void)
{
	struct tdat_file *f = meta_from("v6-sched-irq.dat", 1);
	static const char clock[] = "local [global] counter\n";
	uint8_t n[8] = { 0, 0, 0, 0, 0, 0, 0, 42 };
	struct tdat_buffer *b;
	struct tdat_blob btf;

	f->long_size = 4;
	f->cpu_count = 2;	/* the top buffer's CPU 3 makes it 4 */
	add_option(f, TDAT_OPT_TRACECLOCK, clock, sizeof(clock));
	add_option(f, TDAT_OPT_UNAME, "Linux synth 6.0 s390x", 22);
	add_option(f, 200, "unknown to everyone", 20);
	add_option(f, TDAT_OPT_TRACEID, n, 8);
	b = add_buffer(f, "", "global", 4096);
	add_cpu(b, 0, 1);
	add_cpu(b, 3, 1);
	b = add_buffer(f, "big pages", "mono", 8192);
	add_cpu(b, 1, 1);
	f->extra = calloc(1, sizeof(*f->extra));
	f->nextra = 1;
	f->extra[0].id = 40;
	f->extra[0].description = strdup("a section from the future");
	tdat_blob_dup(&f->extra[0].body, "opaque body\0\1\2", 14);
	tdat_blob_dup(&btf, "\x9f\xeb\x01\0btf", 7);
	tdat_meta_set(f, TDAT_META_BTF, &btf);
	return f;
}

static int write_synthetic(struct tdat_file *m, const char *path,
			   const struct tdat_write_opts *o)
{
	struct tdat_error err;
	struct tdat_writer *w = tdat_writer_open(path, m, o, &err);

	if (!w) {
		fprintf(stderr, "\n  %s\n", err.msg);
		return -1;
	}
	if (write_cpu(w, 0, 0, 4096, 25, m->big_endian, 1) ||
	    write_cpu(w, 0, 3, 4096, 2, m->big_endian, 2) ||
	    write_cpu(w, 1, 1, 8192, 13, m->big_endian, 3)) {
		tdat_writer_abort(w);
		return -1;
	}
	if (tdat_writer_close(w, &err)) {
		fprintf(stderr, "\n  %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void check_synthetic_v7(struct tdat_file *m, struct tdat_file *g)
{
	const struct tdat_buffer *top, *inst;
	int i;

	CU_ASSERT_EQUAL(g->version, 7);
	CU_ASSERT_EQUAL(g->big_endian, 1);
	CU_ASSERT_EQUAL(g->long_size, 4);
	CU_ASSERT_EQUAL(tdat_cpus(g), 4);
	for (i = 0; i < TDAT_META_V6_COUNT; i++)
		same_blob(&m->meta[i], &g->meta[i]);
	CU_ASSERT_EQUAL(tdat_meta_has(g, TDAT_META_BTF), 1);
	same_blob(&m->meta[TDAT_META_BTF], &g->meta[TDAT_META_BTF]);
	CU_ASSERT_EQUAL_FATAL(g->noptions, 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(g->options[i].id, m->options[i].id);
		CU_ASSERT_EQUAL(g->options[i].size, m->options[i].size);
		CU_ASSERT(!memcmp(g->options[i].data, m->options[i].data,
				  m->options[i].size));
	}
	CU_ASSERT_EQUAL_FATAL(g->nextra, 1);
	CU_ASSERT_EQUAL(g->extra[0].id, 40);
	CU_ASSERT_STRING_EQUAL(g->extra[0].description,
			       "a section from the future");
	same_blob(&m->extra[0].body, &g->extra[0].body);
	top = find_buffer(g, "");
	inst = find_buffer(g, "big pages");
	CU_ASSERT_FATAL(top && inst);
	CU_ASSERT_STRING_EQUAL(top->clock, "global");
	CU_ASSERT_STRING_EQUAL(inst->clock, "mono");
	CU_ASSERT_EQUAL(inst->page_size, 8192);
	CU_ASSERT_EQUAL_FATAL(top->ncpus, 2);
	CU_ASSERT_EQUAL(top->cpus[0].cpu, 0);
	CU_ASSERT_EQUAL(top->cpus[1].cpu, 3);
	CU_ASSERT_EQUAL(top->cpus[0].offset % 4096, 0);
	CU_ASSERT_EQUAL(inst->cpus[0].offset % 8192, 0);
	check_cpu(g, "", 0, 25, 4096, 1);
	check_cpu(g, "", 3, 2, 4096, 2);
	check_cpu(g, "big pages", 1, 13, 8192, 3);
}

static void test_synthetic_big_endian(void)
{
	static const enum tdat_codec codecs[] = {
		TDAT_CODEC_NONE, TDAT_CODEC_ZLIB, TDAT_CODEC_ZSTD
	};
	struct tdat_file *m = synthetic_meta(), *g, *h;
	struct tdat_write_opts v6 = { .version = 6 };
	const struct tdat_buffer *b;
	size_t i;

	for (i = 0; i < 3; i++) {
		struct tdat_write_opts v7 = { .version = 7, .codec = codecs[i],
					      .chunk_size = 8 * 8192 };

		CU_ASSERT_FATAL(write_synthetic(m, tmp("be.dat"), &v7) == 0);
		g = open_path(tmp("be.dat"));
		CU_ASSERT_FATAL(g != NULL);
		check_synthetic_v7(m, g);
		/* to v6: one page size, so the instance of 8 KiB pages is
		 * refused (it was written as pages v6 readers find damaged);
		 * without it, what v6 holds is kept, the rest dropped */
		unlink(tmp("be6.dat"));
		CU_ASSERT(copy_file(g, tmp("be6.dat"), &v6, 0) == -1);
		CU_ASSERT_EQUAL(access(tmp("be6.dat"), F_OK), -1);
		CU_ASSERT_STRING_EQUAL_FATAL(g->buffers[g->nbuffers - 1].name,
					     "big pages");
		g->nbuffers--;
		CU_ASSERT_FATAL(copy_file(g, tmp("be6.dat"), &v6, 0) == 0);
		g->nbuffers++;
		h = open_path(tmp("be6.dat"));
		CU_ASSERT_FATAL(h != NULL);
		CU_ASSERT_EQUAL(h->version, 6);
		CU_ASSERT_EQUAL(h->big_endian, 1);
		CU_ASSERT_EQUAL(h->long_size, 4);
		CU_ASSERT_EQUAL(h->cpu_count, 4);
		CU_ASSERT_EQUAL(h->nextra, 0);
		CU_ASSERT_EQUAL(tdat_meta_has(h, TDAT_META_BTF), 0);
		CU_ASSERT_EQUAL(h->noptions, 4);
		b = find_buffer(h, "");
		CU_ASSERT_FATAL(b != NULL && b->ncpus == 4);
		CU_ASSERT_STRING_EQUAL(b->clock, "global");
		CU_ASSERT_EQUAL(b->cpus[1].size, 0);
		CU_ASSERT_EQUAL(b->cpus[2].size, 0);
		check_cpu(h, "", 0, 25, 4096, 1);
		check_cpu(h, "", 3, 2, 4096, 2);
		CU_ASSERT_PTR_NULL(find_buffer(h, "big pages"));
		tdat_close(h);
		tdat_close(g);
	}
	tdat_close(m);
}

/* v6 -> v6 of a little-endian file with 32-bit long size round-trips. */
static void test_synthetic_v6_identity(void)
{
	struct tdat_file *m = meta_from("v6-sched-irq.dat", 0), *g;
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_write_opts v7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_buffer *b;
	struct tdat_error err;
	struct tdat_writer *w;

	m->version = 6;
	m->long_size = 4;
	m->cpu_count = 3;
	add_option(m, TDAT_OPT_TRACECLOCK, "[local] global\n", 16);
	b = add_buffer(m, "", "local", 4096);
	add_cpu(b, 0, 1);
	add_cpu(b, 1, 0);
	add_cpu(b, 2, 1);
	w = tdat_writer_open(tmp("s6.dat"), m, &v6, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(write_cpu(w, 0, 0, 4096, 3, 0, 7) == 0);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 1, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_end_cpu(w, &err) == 0);
	CU_ASSERT_FATAL(write_cpu(w, 0, 2, 4096, 1, 0, 8) == 0);
	CU_ASSERT_FATAL(tdat_writer_close(w, &err) == 0);
	g = open_path(tmp("s6.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_EQUAL(g->long_size, 4);
	CU_ASSERT_EQUAL_FATAL(g->buffers[0].ncpus, 3);
	/* the empty CPU points where its data would have been */
	CU_ASSERT_EQUAL(g->buffers[0].cpus[1].offset,
			g->buffers[0].cpus[2].offset);
	check_cpu(g, "", 0, 3, 4096, 7);
	check_cpu(g, "", 2, 1, 4096, 8);
	CU_ASSERT_FATAL(copy_file(g, tmp("s6b.dat"), &v6, 0) == 0);
	CU_ASSERT(same_bytes(tmp("s6.dat"), tmp("s6b.dat")));
	CU_ASSERT_FATAL(copy_file(g, tmp("s7.dat"), &v7, 0) == 0);
	tdat_close(g);
	g = open_path(tmp("s7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_EQUAL(g->buffers[0].ncpus, 2);	/* empty CPU omitted */
	CU_ASSERT_FATAL(copy_file(g, tmp("s6c.dat"), &v6, 0) == 0);
	CU_ASSERT(same_bytes(tmp("s6.dat"), tmp("s6c.dat")));
	tdat_close(g);
	tdat_close(m);
}

/* Latency text: v6 drops TRACECLOCK (it would eat the text), v7 chunks it. */
static void test_latency(void)
{
	struct tdat_file *m = meta_from("v6-sched-irq.dat", 0), *g;
	static const enum tdat_codec codecs[] = {
		TDAT_CODEC_NONE, TDAT_CODEC_ZLIB, TDAT_CODEC_ZSTD
	};
	struct tdat_error err;
	struct tdat_blob text;
	size_t len = 100000, i, v;
	char *t = malloc(len);

	for (i = 0; i < len; i++)
		t[i] = "# tracer: irqsoff\n  <idle>-0  1d..1  0us : x\n"[i % 45];
	m->cpu_count = 2;
	add_option(m, TDAT_OPT_TRACECLOCK, "[local] global\n", 16);
	add_option(m, TDAT_OPT_UNAME, "Linux x", 8);
	add_buffer(m, "", "", 4096)->latency = 1;
	for (v = 0; v < 4; v++) {
		struct tdat_write_opts o = { .version = v ? 7 : 6,
					     .codec = codecs[v ? v - 1 : 0] };
		struct tdat_writer *w = tdat_writer_open(tmp("lat.dat"), m, &o,
							 &err);

		CU_ASSERT_FATAL(w != NULL);
		CU_ASSERT_EQUAL(tdat_writer_begin_cpu(w, 0, 0, &err), -1);
		tdat_writer_abort(w);
		w = tdat_writer_open(tmp("lat.dat"), m, &o, &err);
		CU_ASSERT_FATAL(w != NULL);
		CU_ASSERT_FATAL(tdat_writer_put_latency(w, 0, t, len, &err) == 0);
		CU_ASSERT_FATAL(tdat_writer_close(w, &err) == 0);
		g = open_path(tmp("lat.dat"));
		CU_ASSERT_FATAL(g != NULL);
		CU_ASSERT_EQUAL_FATAL(g->nbuffers, 1);
		CU_ASSERT_EQUAL(g->buffers[0].latency, 1);
		CU_ASSERT_EQUAL(g->noptions, v ? 2 : 1);
		if (!v)
			CU_ASSERT_PTR_NULL(tdat_find_option(g,
							 TDAT_OPT_TRACECLOCK));
		CU_ASSERT_FATAL(tdat_read_latency(g, 0, &text, &err) == 0);
		CU_ASSERT_EQUAL(text.len, len);
		CU_ASSERT(text.len == len && !memcmp(text.data, t, len));
		free(text.data);
		tdat_close(g);
	}
	free(t);
	tdat_close(m);
}

/* Empty buffers: v7 leaves out a top buffer without data but keeps an
 * empty instance; v6 always has a top flyrecord (clock from TRACECLOCK). */
static void test_empty_buffers(void)
{
	struct tdat_file *m = meta_from("v6-sched-irq.dat", 0), *g, *h;
	struct tdat_write_opts v7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_error err;
	struct tdat_writer *w;
	int i;

	m->cpu_count = 2;
	add_option(m, TDAT_OPT_TRACECLOCK, "local [mono]\n", 14);
	add_cpu(add_buffer(m, "", "mono", 4096), 0, 0);
	add_buffer(m, "idle", "mono", 4096);
	w = tdat_writer_open(tmp("e7.dat"), m, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_end_cpu(w, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_close(w, &err) == 0);
	g = open_path(tmp("e7.dat"));
	CU_ASSERT_FATAL(g != NULL);
	CU_ASSERT_EQUAL_FATAL(g->nbuffers, 1);
	CU_ASSERT_STRING_EQUAL(g->buffers[0].name, "idle");
	CU_ASSERT_EQUAL(g->buffers[0].ncpus, 0);
	CU_ASSERT_EQUAL(tdat_cpus(g), 2);
	CU_ASSERT_FATAL(copy_file(g, tmp("e6.dat"), &v6, 0) == 0);
	h = open_path(tmp("e6.dat"));
	CU_ASSERT_FATAL(h != NULL);
	CU_ASSERT_EQUAL_FATAL(h->nbuffers, 2);
	CU_ASSERT_STRING_EQUAL(h->buffers[0].name, "");
	CU_ASSERT_STRING_EQUAL(h->buffers[0].clock, "mono");
	CU_ASSERT_EQUAL_FATAL(h->buffers[0].ncpus, 2);
	for (i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(h->buffers[0].cpus[i].size, 0);
		CU_ASSERT_EQUAL(h->buffers[0].cpus[i].offset % 4096, 0);
	}
	CU_ASSERT_STRING_EQUAL(h->buffers[1].name, "idle");
	tdat_close(h);
	tdat_close(g);
	tdat_close(m);
}

/* An instance of 8 KiB sub-buffers (Linux 6.8+) beside a top buffer of
 * 4 KiB pages: v7 keeps each buffer's size, v6 has one and refuses (it
 * used to write the bigger pages as damaged small ones). */
static void test_page_size_per_buffer(void)
{
	struct tdat_file *m = meta_from("v6-sched-irq.dat", 0);
	struct tdat_write_opts v7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_error err;
	struct tdat_writer *w;

	m->cpu_count = 1;
	add_cpu(add_buffer(m, "", "local", 4096), 0, 0);
	add_cpu(add_buffer(m, "big", "local", 8192), 0, 0);
	w = tdat_writer_open(tmp("ps7.dat"), m, &v7, &err);
	CU_ASSERT_PTR_NOT_NULL(w);
	if (w)
		tdat_writer_abort(w);
	CU_ASSERT_PTR_NULL(tdat_writer_open(tmp("ps6.dat"), m, &v6, &err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "version 6 holds one page size"
				      " (4096): buffer \"big\" has pages of"
				      " 8192 bytes"));
	CU_ASSERT_EQUAL(access(tmp("ps6.dat"), F_OK), -1);
	tdat_close(m);
}

/* tdat_writer_chunk_passes of a v7 zstd file's chunks (40 KiB) into
 * writers of w's options. */
static int passes(struct tdat_file *f, struct tdat_write_opts w,
		  uint32_t usize)
{
	struct tdat_error err;
	struct tdat_writer *wr = tdat_writer_open(tmp("cp.dat"), f, &w, &err);
	int r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(wr);
	r = tdat_writer_chunk_passes(wr, f, 0, usize);
	tdat_writer_abort(wr);
	return r;
}

/* One rule for a stored chunk passing unchanged: the output's codec,
 * no level, the chunk size asked if any (convert and merge ask it). */
static void test_chunk_passes(void)
{
	struct tdat_file *f = open_path(fixture("v7-zstd-markers-raw_syscalls.dat"));
	struct tdat_file *n = open_path(fixture("v7-none-sched-irq.dat"));
	struct tdat_write_opts z = { .version = 7, .codec = TDAT_CODEC_ZSTD,
				     .threads = 1 };
	struct tdat_write_opts o = z;

	CU_ASSERT_EQUAL(passes(f, z, 0), 1);
	CU_ASSERT_EQUAL(passes(f, z, 40960), 1);
	CU_ASSERT_EQUAL(passes(f, z, 8192), 1);
	o.chunk_size = 40960;
	CU_ASSERT_EQUAL(passes(f, o, 0), 0);	/* not every size */
	CU_ASSERT_EQUAL(passes(f, o, 40960), 1);
	CU_ASSERT_EQUAL(passes(f, o, 8192), 0);
	o = z;
	o.level = 3;
	CU_ASSERT_EQUAL(passes(f, o, 40960), 0);
	o = z;
	o.codec = TDAT_CODEC_ZLIB;
	CU_ASSERT_EQUAL(passes(f, o, 40960), 0);
	o = z;
	o.version = 6;
	o.codec = TDAT_CODEC_NONE;
	CU_ASSERT_EQUAL(passes(f, o, 40960), 0);
	CU_ASSERT_EQUAL(passes(n, z, 40960), 0);	/* raw pages */
	tdat_close(f);
	tdat_close(n);
}

/* ---- failures ---- */

static void test_misuse(void)
{
	struct tdat_file *f = open_path(fixture("v6-2inst-irq-top-sched-inst1.dat"));
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_write_opts v7 = { .version = 7 };
	struct tdat_write_opts bad = { .version = 5 };
	struct tdat_error err;
	struct tdat_writer *w;
	uint8_t page[4096] = { 0 };

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_PTR_NULL(tdat_writer_open(tmp("x.dat"), f, &bad, &err));
	CU_ASSERT(strstr(err.msg, "version 5") != NULL);
	/* v6 has a table of cpu_count entries */
	w = tdat_writer_open(tmp("x.dat"), f, &v6, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_EQUAL(tdat_writer_begin_cpu(w, 0, 2, &err), -1);
	CU_ASSERT(strstr(err.msg, "v6 cannot hold CPU id 2") != NULL);
	CU_ASSERT(strstr(err.msg, "x.dat: offset ") != NULL);
	tdat_writer_abort(w);
	/* whole pages only */
	w = tdat_writer_open(tmp("x.dat"), f, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_put_pages(w, page, 100, &err), -1);
	CU_ASSERT(strstr(err.msg, "not whole pages") != NULL);
	tdat_writer_abort(w);
	/* buffers go in order, CPUs once each */
	w = tdat_writer_open(tmp("x.dat"), f, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 1, 0, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_put_pages(w, page, 4096, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_end_cpu(w, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_begin_cpu(w, 1, 0, &err), -1);
	CU_ASSERT(strstr(err.msg, "written twice") != NULL);
	tdat_writer_abort(w);
	w = tdat_writer_open(tmp("x.dat"), f, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 1, 0, &err) == 0);
	CU_ASSERT_FATAL(tdat_writer_end_cpu(w, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_begin_cpu(w, 0, 0, &err), -1);
	CU_ASSERT(strstr(err.msg, "already written") != NULL);
	/* and after a failure only abort is left */
	CU_ASSERT_EQUAL(tdat_writer_begin_cpu(w, 1, 1, &err), -1);
	tdat_writer_abort(w);
	/* compressed chunks need a compressed file */
	w = tdat_writer_open(tmp("x.dat"), f, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, page, 10, 4096, &err), -1);
	tdat_writer_abort(w);
	CU_ASSERT(access(tmp("x.dat"), F_OK) != 0);
	CU_ASSERT(no_temp_files());
	tdat_close(f);
}

/* A chunk to copy that does not decompress is refused, not copied. */
static void test_corrupt_chunk(void)
{
	struct tdat_file *f = open_path(fixture("v7-zstd-sched-irq.dat"));
	struct tdat_write_opts o = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct tdat_cpu_reader *r;
	struct tdat_error err;
	struct tdat_writer *w;
	const uint8_t *d;
	uint8_t *bad;
	uint32_t cs, us;

	CU_ASSERT_FATAL(f != NULL);
	r = tdat_cpu_open(f, 0, 0, &err);
	CU_ASSERT_FATAL(r != NULL);
	CU_ASSERT_FATAL(tdat_cpu_next_chunk(r, &d, &cs, &us, &err) == 1);
	bad = calloc(1, cs + 3 * 4096);	/* room for the sizes below */
	memcpy(bad, d, cs);
	w = tdat_writer_open(tmp("c.dat"), f, &o, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, bad, cs, us, &err), 0);
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, bad, cs, us + 4096, &err), -2);
	CU_ASSERT(strstr(err.msg, "does not decompress") != NULL);
	CU_ASSERT(strstr(err.msg, "v7-zstd-sched-irq.dat") != NULL);
	tdat_writer_abort(w);
	/* sizes no chunk can have are the input's fault too: -2, so the
	 * caller names the input and where the chunk is */
	w = tdat_writer_open(tmp("c.dat"), f, &o, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, bad, cs, 0, &err), -2);
	CU_ASSERT(strstr(err.msg, "whole pages") != NULL);
	tdat_writer_abort(w);
	w = tdat_writer_open(tmp("c.dat"), f, &o, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, bad, 3 * 4096, 4096, &err),
			-2);
	CU_ASSERT(strstr(err.msg, "larger than any compression") != NULL);
	tdat_writer_abort(w);
	w = tdat_writer_open(tmp("c.dat"), f, &o, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	bad[0] ^= 0xff;		/* the zstd magic */
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, bad, cs, us, &err), -2);
	/* after a failure, only abort */
	CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, d, cs, us, &err), -1);
	tdat_writer_abort(w);
	/* a chunk that decompresses fine but holds a broken page */
	{
		struct codec_ctx x;
		uint8_t page[4096] = { 0 }, z[4096 + 512];
		size_t zl;

		tdat_store64(f->big_endian, page + 8, 0x07fffff0);
		codec_ctx_init(&x, TDAT_CODEC_ZSTD, 0);
		CU_ASSERT_FATAL(codec_compress(&x, page, 4096, z, sizeof(z),
					       &zl) == 0);
		codec_ctx_free(&x);
		w = tdat_writer_open(tmp("c.dat"), f, &o, &err);
		CU_ASSERT_FATAL(w != NULL);
		CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
		CU_ASSERT_EQUAL(tdat_writer_put_chunk(w, z, (uint32_t)zl, 4096,
						      &err), -2);
		CU_ASSERT(strstr(err.msg, "commit") != NULL);
		tdat_writer_abort(w);
	}
	CU_ASSERT(no_temp_files());
	free(bad);
	tdat_cpu_close(r);
	tdat_close(f);
}

/* A write error (here: the file size limit) fails cleanly, no file left. */
static void test_write_error(void)
{
	struct tdat_file *f = open_path(fixture("v6-sched-irq.dat"));
	struct tdat_write_opts v6 = { .version = 6 };
	struct tdat_write_opts v7 = { .version = 7, .codec = TDAT_CODEC_ZSTD };
	struct rlimit old, lim;
	struct tdat_error err;
	void (*old_sig)(int);
	struct tdat_writer *w;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_FATAL(getrlimit(RLIMIT_FSIZE, &old) == 0);
	old_sig = signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 1 << 20;
	CU_ASSERT_FATAL(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	/* v6: kallsyms alone is over the limit */
	w = tdat_writer_open(tmp("big.dat"), f, &v6, &err);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT(strstr(err.msg, "write error: File too large") != NULL);
	/* v7 zstd fits the metadata; the trace data is made too big */
	w = tdat_writer_open(tmp("big.dat"), f, &v7, &err);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_FATAL(tdat_writer_begin_cpu(w, 0, 0, &err) == 0);
	{
		size_t n = 2 << 20;
		uint8_t *p = calloc(1, n);
		uint32_t x = 1;
		size_t i;
		int r = 0;

		for (i = 0; i < n; i++) {	/* incompressible */
			x = x * 1103515245 + 12345;
			p[i] = (uint8_t)(x >> 23);
		}
		r = tdat_writer_put_pages(w, p, n, &err) ||
		    tdat_writer_end_cpu(w, &err);
		if (r)
			tdat_writer_abort(w);
		else	/* close frees w and removes the file on failure */
			r = tdat_writer_close(w, &err) != 0;
		CU_ASSERT_EQUAL(r, 1);
		CU_ASSERT(strstr(err.msg, "write error: File too large") !=
			  NULL);
		free(p);
	}
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, old_sig);
	CU_ASSERT(access(tmp("big.dat"), F_OK) != 0);
	CU_ASSERT(no_temp_files());
	tdat_close(f);
}

void suite_write(void)
{
	CU_pSuite s = CU_add_suite("write", NULL, NULL);

	CU_add_test(s, "v6 rewritten as v6 is byte-identical",
		    test_v6_rewrite_identical);
	CU_add_test(s, "v6 clock records kept whatever their text",
		    test_v6_clock_records);
	CU_add_test(s, "v6 BUFFER options keep their place (trace-cmd 2.x)",
		    test_v6_buffer_option_place);
	CU_add_test(s, "v6 system names of any length read back",
		    test_v6_long_system_name);
	CU_add_test(s, "v6 -> v7 (none/zlib/zstd) -> v6 identical",
		    test_v6_v7_v6);
	CU_add_test(s, "v7 layout as trace-cmd's", test_v7_layout);
	CU_add_test(s, "chunks copied through or recompressed",
		    test_chunk_copy);
	CU_add_test(s, "threads and chunk size", test_threads_and_chunk_size);
	CU_add_test(s, "synthetic big-endian file, v7 and v6",
		    test_synthetic_big_endian);
	CU_add_test(s, "synthetic v6 with an empty CPU",
		    test_synthetic_v6_identity);
	CU_add_test(s, "latency text", test_latency);
	CU_add_test(s, "empty buffers", test_empty_buffers);
	CU_add_test(s, "page size per buffer", test_page_size_per_buffer);
	CU_add_test(s, "stored chunks passing through", test_chunk_passes);
	CU_add_test(s, "misuse is an error", test_misuse);
	CU_add_test(s, "corrupt chunks are not copied", test_corrupt_chunk);
	CU_add_test(s, "write errors", test_write_error);
}
