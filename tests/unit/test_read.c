/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_read.c - tdat_open on every kind of fixture, and on broken files.
 *
 * The expected values are real: sizes, offsets, option ids and lengths
 * were read from `trace-cmd dump --options --flyrecord --sections` and
 * `trace-cmd dump --summary` (Debian's 3.1.6) on the same fixtures; the
 * v6 instance's CPU table is not printed by dump and was read from the
 * file's bytes at the BUFFER option's offset.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "libfmt/internal.h"

static struct tdat_file *open_fixture(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);

	if (!f)
		fprintf(stderr, "\n  %s\n", err.msg);
	return f;
}

/* The payload of an option as text (all text options end with NUL). */
static const char *opt_text(const struct tdat_option *o)
{
	if (!o->size || o->data[o->size - 1] != 0)
		return "";
	return (const char *)o->data;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

struct want_opt {
	uint16_t id;
	uint32_t size;
	const char *text;	/* prefix of the payload, or NULL */
};

/* The first n user options, in file order. */
static void check_options(const struct tdat_file *f, const struct want_opt *w,
			  int n)
{
	int i;

	CU_ASSERT_FATAL(f->noptions >= n);
	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(f->options[i].id, w[i].id);
		CU_ASSERT_EQUAL(f->options[i].size, w[i].size);
		if (w[i].text)
			CU_ASSERT(starts(opt_text(&f->options[i]), w[i].text));
	}
}

struct want_cpu {
	int cpu;
	uint64_t offset, size;
};

static void check_buffer(const struct tdat_buffer *b, const char *name,
			 const char *clock, uint64_t section, int compressed,
			 const struct want_cpu *w, int n)
{
	int i;

	CU_ASSERT_STRING_EQUAL(b->name, name);
	CU_ASSERT_STRING_EQUAL(b->clock, clock);
	CU_ASSERT_EQUAL(b->page_size, 4096);
	CU_ASSERT_EQUAL(b->latency, 0);
	CU_ASSERT_EQUAL(b->compressed, compressed);
	CU_ASSERT_EQUAL(b->section_offset, section);
	CU_ASSERT_EQUAL_FATAL(b->ncpus, n);
	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(b->cpus[i].cpu, w[i].cpu);
		CU_ASSERT_EQUAL(b->cpus[i].offset, w[i].offset);
		CU_ASSERT_EQUAL(b->cpus[i].size, w[i].size);
	}
}

/* Header fields of every fixture here: little endian, 8-byte long, 4 KiB. */
static void check_common_header(const struct tdat_file *f, int version)
{
	CU_ASSERT_EQUAL(f->version, version);
	CU_ASSERT_EQUAL(f->big_endian, 0);
	CU_ASSERT_EQUAL(f->long_size, 8);
	CU_ASSERT_EQUAL(f->page_size, 4096);
	CU_ASSERT_EQUAL(f->commit_size, 8);
	CU_ASSERT_EQUAL(f->page_header_size, 16);
	CU_ASSERT_EQUAL(f->cpu_count, 2);
	CU_ASSERT_EQUAL(tdat_cpus(f), 2);
}

/* Text sizes as `trace-cmd dump --summary` prints them; the blobs add
 * their size fields (kallsyms and printk u32, cmdlines u64). */
static void check_meta(const struct tdat_file *f, size_t events,
		       uint64_t cmdlines)
{
	const struct tdat_blob *m = f->meta;

	CU_ASSERT(tdat_meta_has(f, TDAT_META_HEADERS));
	CU_ASSERT_EQUAL(m[TDAT_META_HEADERS].len, 12 + 8 + 205 + 13 + 8 + 205);
	CU_ASSERT_EQUAL(memcmp(m[TDAT_META_HEADERS].data, "header_page", 12),
			0);
	CU_ASSERT_EQUAL(tdat_get64(f, m[TDAT_META_HEADERS].data + 12), 205);
	CU_ASSERT_EQUAL(memcmp(m[TDAT_META_HEADERS].data + 225,
			       "header_event", 13), 0);
	CU_ASSERT_EQUAL(m[TDAT_META_FTRACE].len, 11922);
	CU_ASSERT_EQUAL(tdat_get32(f, m[TDAT_META_FTRACE].data), 18);
	CU_ASSERT_EQUAL(m[TDAT_META_EVENTS].len, events);
	CU_ASSERT_EQUAL(m[TDAT_META_KALLSYMS].len, 5414586 + 4);
	CU_ASSERT_EQUAL(tdat_get32(f, m[TDAT_META_KALLSYMS].data), 5414586);
	CU_ASSERT_EQUAL(m[TDAT_META_PRINTK].len, 4316 + 4);
	CU_ASSERT_EQUAL(tdat_get32(f, m[TDAT_META_PRINTK].data), 4316);
	CU_ASSERT_EQUAL(m[TDAT_META_CMDLINES].len, cmdlines + 8);
	CU_ASSERT_EQUAL(tdat_get64(f, m[TDAT_META_CMDLINES].data), cmdlines);
	CU_ASSERT_FALSE(tdat_meta_has(f, TDAT_META_BTF));
	CU_ASSERT_FALSE(tdat_meta_has(f, TDAT_META_MODULES));
}

#define CLOCKS " global counter uptime perf mono mono_raw boot tai x86-tsc\n"

static void test_v6(void)
{
	static const struct want_opt opts[] = {
		{ TDAT_OPT_TRACECLOCK, 67, "[local]" CLOCKS },
		{ TDAT_OPT_UNAME, 32, "Linux vm 6.18.44-fc-v769 x86_64" },
		{ TDAT_OPT_VERSION, 21, "3.1.6 not-a-git-repo" },
		{ TDAT_OPT_TRACEID, 8, NULL },
		{ TDAT_OPT_CPUSTAT, 143, "CPU: 0\nentries: 0\n" },
		{ TDAT_OPT_CPUSTAT, 146, "CPU: 1\nentries: 237\n" },
	};
	static const struct want_cpu cpus[] = {
		{ 0, 5455872, 8192 }, { 1, 5464064, 12288 },
	};
	struct tdat_file *f = open_fixture("v6-sched-irq.dat");
	const struct tdat_option *o;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 6);
	CU_ASSERT_EQUAL(f->file_size, 5476352);
	CU_ASSERT_EQUAL(f->codec, TDAT_CODEC_NONE);
	check_meta(f, 20475, 1137);
	CU_ASSERT_EQUAL(f->noptions, 6);
	check_options(f, opts, 6);
	CU_ASSERT_EQUAL(tdat_get64(f, f->options[3].data),
			0x3913081D82F3B4D6ull);
	o = tdat_find_option(f, TDAT_OPT_CPUSTAT);
	CU_ASSERT_PTR_EQUAL(o, &f->options[5]);	/* the last one */
	CU_ASSERT_PTR_NULL(tdat_find_option(f, TDAT_OPT_CPUCOUNT));
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	CU_ASSERT_PTR_EQUAL(tdat_top_buffer(f), &f->buffers[0]);
	/* "flyrecord" follows the DONE at the end of the options. */
	check_buffer(&f->buffers[0], "", "local", 5453390, 0, cpus, 2);
	CU_ASSERT_EQUAL(f->nextra, 0);
	CU_ASSERT_EQUAL(f->strings.len, 0);
	tdat_close(f);
}

static void test_v6_clock(void)
{
	static const struct want_cpu cpus[] = {
		{ 0, 5443584, 20480 }, { 1, 5464064, 12288 },
	};
	struct tdat_file *f = open_fixture("v6-clock-global.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 6);
	check_meta(f, 5679, 2415);
	CU_ASSERT_EQUAL_FATAL(f->noptions, 6);
	CU_ASSERT_EQUAL(f->options[0].id, TDAT_OPT_TRACECLOCK);
	CU_ASSERT(starts(opt_text(&f->options[0]), "local [global] counter"));
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	check_buffer(&f->buffers[0], "", "global", 5439873, 0, cpus, 2);
	tdat_close(f);
}

static void test_v6_instances(void)
{
	static const struct want_opt opts[] = {
		{ TDAT_OPT_TRACECLOCK, 67, "[local]" CLOCKS },
		{ TDAT_OPT_UNAME, 32, "Linux vm" },
		{ TDAT_OPT_VERSION, 21, "3.1.6 " },
		{ TDAT_OPT_TRACEID, 8, NULL },
		{ TDAT_OPT_CPUSTAT, 144, "CPU: 0\n" },
		{ TDAT_OPT_CPUSTAT, 146, "CPU: 1\n" },
		{ TDAT_OPT_CPUSTAT, 17, "\nBuffer: inst1\n\n" },
		{ TDAT_OPT_CPUSTAT, 142, "CPU: 0\n" },
		{ TDAT_OPT_CPUSTAT, 145, "CPU: 1\n" },
	};
	static const struct want_cpu top[] = {
		{ 0, 5455872, 4096 }, { 1, 5459968, 4096 },
	};
	static const struct want_cpu inst[] = {
		{ 0, 5468160, 4096 }, { 1, 5472256, 4096 },
	};
	struct tdat_file *f = open_fixture("v6-2inst-irq-top-sched-inst1.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 6);
	check_meta(f, 20475, 1796);
	/* dump counts 10 options: the BUFFER one becomes buffers[1]. */
	CU_ASSERT_EQUAL(f->noptions, 9);
	check_options(f, opts, 9);
	CU_ASSERT_PTR_NULL(tdat_find_option(f, TDAT_OPT_BUFFER));
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 2);
	check_buffer(&f->buffers[0], "", "local", 5454392, 0, top, 2);
	check_buffer(&f->buffers[1], "inst1", "local", 5464064, 0, inst, 2);
	tdat_close(f);
}

static const struct want_opt v7_opts_316[] = {
	{ TDAT_OPT_TRACECLOCK, 67, "[local]" CLOCKS },
	{ TDAT_OPT_UNAME, 32, "Linux vm 6.18.44-fc-v769 x86_64" },
	{ TDAT_OPT_VERSION, 21, "3.1.6 not-a-git-repo" },
	{ TDAT_OPT_TRACEID, 8, NULL },
};

static void test_v7_none(void)
{
	static const struct want_cpu cpus[] = {
		{ 0, 5455872, 12288 }, { 1, 5468160, 8192 },
	};
	struct tdat_file *f = open_fixture("v7-none-sched-irq.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 7);
	CU_ASSERT_EQUAL(f->file_size, 5476575);
	CU_ASSERT_EQUAL(f->codec, TDAT_CODEC_NONE);
	CU_ASSERT_STRING_EQUAL(f->codec_name, "none");
	CU_ASSERT_STRING_EQUAL(f->codec_version, "");
	CU_ASSERT(f->has_cpucount);
	check_meta(f, 20475, 1197);
	/* The offset options (16-21) and CPUCOUNT are structure, not user
	 * options; TRACECLOCK is the first user option. */
	CU_ASSERT_EQUAL_FATAL(f->noptions, 6);
	check_options(f, v7_opts_316, 4);
	CU_ASSERT_EQUAL(f->options[4].id, TDAT_OPT_CPUSTAT);
	CU_ASSERT_EQUAL(f->options[4].size, 146);
	CU_ASSERT_EQUAL(f->options[5].size, 146);
	CU_ASSERT_EQUAL(tdat_get64(f, f->options[3].data),
			0x647CC0600B35C901ull);
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	check_buffer(&f->buffers[0], "", "local", 5453671, 0, cpus, 2);
	/* The strings table, ids = byte offsets (FORMAT.md 4.5). */
	CU_ASSERT_EQUAL(f->strings.len, 108);
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 0), "headers");
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 8), "ftrace events");
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 36), "kallsyms");
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 74), "buffer flyrecord ");
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 100), "strings");
	CU_ASSERT_PTR_NULL(strings_lookup(f, 108));
	CU_ASSERT_PTR_NULL(strings_lookup(f, -1));
	CU_ASSERT_EQUAL(f->nextra, 0);
	tdat_close(f);
}

/* Sum of 8 + csize over the chunks of a compressed CPU stream. */
static uint64_t chunk_bytes(struct tdat_file *f, int buf, int idx,
			    uint64_t *usum)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, buf, idx, &err);
	const uint8_t *d;
	uint32_t c, u;
	uint64_t sum = 0;
	int got;

	*usum = 0;
	if (!r)
		return 0;
	while ((got = tdat_cpu_next_chunk(r, &d, &c, &u, &err)) == 1) {
		sum += 8 + (uint64_t)c;
		*usum += u;
	}
	CU_ASSERT_EQUAL(got, 0);
	tdat_cpu_close(r);
	return sum;
}

/* 3.1.6 records compressed CPU sizes 4 bytes short (no chunk count). */
static void test_v7_zstd_316(void)
{
	static const struct want_cpu cpus[] = {
		{ 0, 1019904, 5243 }, { 1, 1028096, 2950 },
	};
	struct tdat_file *f = open_fixture("v7-zstd-sched-irq.dat");
	uint64_t u;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 7);
	CU_ASSERT_EQUAL(f->codec, TDAT_CODEC_ZSTD);
	CU_ASSERT_STRING_EQUAL(f->codec_name, "zstd");
	CU_ASSERT_STRING_EQUAL(f->codec_version, "1.5.4");
	check_meta(f, 20475, 1351);
	CU_ASSERT_EQUAL(f->noptions, 6);
	check_options(f, v7_opts_316, 4);
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	check_buffer(&f->buffers[0], "", "local", 1019731, 1, cpus, 2);
	for (i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(chunk_bytes(f, 0, i, &u), cpus[i].size);
		CU_ASSERT(u > 0 && u % 4096 == 0);
	}
	CU_ASSERT_EQUAL(f->strings.len, 108);
	tdat_close(f);
}

/* 3.4 records the exact stored size: 4 + sum(8 + csize). */
static void test_v7_zstd_34(void)
{
	static const struct want_cpu cpus[] = {
		{ 0, 1019904, 2585 }, { 1, 1024000, 16392 },
	};
	struct tdat_file *f = open_fixture("v7-zstd-sched-irq-tc34.dat");
	uint64_t u;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 7);
	CU_ASSERT_STRING_EQUAL(f->codec_version, "1.5.4");
	check_meta(f, 20475, 1487);
	CU_ASSERT_EQUAL_FATAL(f->noptions, 6);
	CU_ASSERT_EQUAL(f->options[0].id, TDAT_OPT_TRACECLOCK);
	CU_ASSERT_EQUAL(f->options[0].size, 67);
	CU_ASSERT_EQUAL(f->options[2].id, TDAT_OPT_VERSION);
	CU_ASSERT_EQUAL(f->options[2].size, 48);
	CU_ASSERT(starts(opt_text(&f->options[2]), "3.4.0 3ce20923b3ef"));
	CU_ASSERT_EQUAL(f->options[4].size, 147);
	CU_ASSERT_EQUAL(f->options[5].size, 149);
	check_buffer(&f->buffers[0], "", "local", 1019806, 1, cpus, 2);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(4 + chunk_bytes(f, 0, i, &u), cpus[i].size);
	tdat_close(f);
}

static void test_v7_zlib(void)
{
	static const struct want_cpu cpus[] = {
		{ 0, 856064, 3769 }, { 1, 860160, 2912 },
	};
	struct tdat_file *f = open_fixture("v7-zlib-sched-irq-tc34.dat");
	const struct tdat_blob *k;
	uint64_t u;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 7);
	CU_ASSERT_EQUAL(f->codec, TDAT_CODEC_ZLIB);
	CU_ASSERT_STRING_EQUAL(f->codec_name, "zlib");
	CU_ASSERT_STRING_EQUAL(f->codec_version, "1.2.13");
	check_meta(f, 20475, 1427);
	k = &f->meta[TDAT_META_KALLSYMS];
	CU_ASSERT(k->len > 40 &&
		  !memcmp(k->data + 4, "ffffffff81000000 T ", 19));
	check_buffer(&f->buffers[0], "", "local", 855562, 1, cpus, 2);
	for (i = 0; i < 2; i++)
		CU_ASSERT_EQUAL(4 + chunk_bytes(f, 0, i, &u), cpus[i].size);
	tdat_close(f);
}

static void test_v7_instances(void)
{
	static const struct want_cpu top[] = {
		{ 0, 1024000, 380 }, { 1, 1028096, 736 },
	};
	static const struct want_cpu inst[] = {
		{ 0, 1032192, 646 }, { 1, 1036288, 851 },
	};
	struct tdat_file *f =
		open_fixture("v7-zstd-2inst-irq-top-sched-inst1-tc34.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	check_common_header(f, 7);
	check_meta(f, 20475, 1872);
	CU_ASSERT_EQUAL_FATAL(f->noptions, 9);
	CU_ASSERT_EQUAL(f->options[6].id, TDAT_OPT_CPUSTAT);
	CU_ASSERT_STRING_EQUAL(opt_text(&f->options[6]), "\nBuffer: inst1\n\n");
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 2);
	check_buffer(&f->buffers[0], "", "local", 1020244, 1, top, 2);
	check_buffer(&f->buffers[1], "inst1", "local", 1028931, 1, inst, 2);
	CU_ASSERT_EQUAL(f->strings.len, 139);
	CU_ASSERT_STRING_EQUAL(strings_lookup(f, 74), "buffer flyrecord ");
	tdat_close(f);
}

static void test_v7_clocks(void)
{
	struct tdat_file *f = open_fixture("v7-zstd-clock-mono-tc34.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_STRING_EQUAL(f->buffers[0].clock, "mono");
	tdat_close(f);
	f = open_fixture("v7-zstd-clock-x86tsc-tc34.dat");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_STRING_EQUAL(f->buffers[0].clock, "x86-tsc");
	tdat_close(f);
}

/* restore output: no strings section, CPUCOUNT alone in an options list. */
static void test_v7_restored(void)
{
	struct tdat_file *f = open_fixture("crashed/restored.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->version, 7);
	CU_ASSERT_EQUAL(f->strings.len, 0);
	CU_ASSERT_EQUAL(tdat_cpus(f), 2);
	CU_ASSERT_EQUAL(f->meta[TDAT_META_EVENTS].len, 2012676);
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	CU_ASSERT_EQUAL(f->buffers[0].ncpus, 2);
	CU_ASSERT_EQUAL(f->buffers[0].cpus[1].size, 65536);
	tdat_close(f);
}

/* ---- broken files ---- */

/*
 * gpuvis's patched trace-cmd stored a 1047-byte pid/tgid table under
 * option id 8 (trace-cmd's CPUCOUNT): one note, the header's 4 CPUs, the
 * option kept as it is.
 */
static void test_v6_foreign_cpucount(void)
{
	struct tdat_file *f = open_fixture("external/gpuvis_amdgpu.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->cpu_count, 4);
	CU_ASSERT_EQUAL(tdat_cpus(f), 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tdat_note(f, 0));
	CU_ASSERT_PTR_NOT_NULL(strstr(tdat_note(f, 0), "offset 5943655: option"
				      " CPUCOUNT (8) of 1047 bytes holds no CPU"
				      " count"));
	CU_ASSERT_PTR_NULL(tdat_note(f, 1));
	CU_ASSERT_EQUAL_FATAL(f->noptions, 7);
	CU_ASSERT_EQUAL(f->options[0].id, TDAT_OPT_CPUCOUNT);
	CU_ASSERT_EQUAL(f->options[0].size, 1047);
	CU_ASSERT_EQUAL(memcmp(f->options[0].data, "25412 20337\n", 12), 0);
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	CU_ASSERT_EQUAL(f->buffers[0].ncpus, 4);
	tdat_close(f);
}

/* An Android build of trace-cmd wrote an empty version string: read as
 * v6 with the header one byte shorter, the string kept for a v6 output. */
static void test_v6_empty_version(void)
{
	struct tdat_file *f = open_fixture("external/samarxie_android.dat");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->version, 6);
	CU_ASSERT_EQUAL(f->long_size, 4);
	CU_ASSERT_EQUAL(f->page_size, 4096);
	CU_ASSERT_EQUAL(f->cpu_count, 8);
	CU_ASSERT_EQUAL(f->meta[TDAT_META_KALLSYMS].len, 1853067 + 4);
	CU_ASSERT_EQUAL_FATAL(f->nbuffers, 1);
	CU_ASSERT_STRING_EQUAL(f->buffers[0].clock, "boot");
	CU_ASSERT_EQUAL(f->buffers[0].cpus[7].offset, 2453504);
	/* the version, the clock list, and (since the list's [boot] shows
	 * times as raw counts where the empty TRACECLOCK option would not)
	 * the option as it was and as v7 needs it */
	CU_ASSERT_EQUAL_FATAL(f->nextra, 3);
	CU_ASSERT_EQUAL(f->extra[0].id, TDAT_SECTION_V6_VERSION);
	CU_ASSERT_EQUAL(f->extra[0].body.len, 8 + 4);
	CU_ASSERT_EQUAL(f->extra[1].id, TDAT_SECTION_V6_CLOCKS);
	CU_ASSERT_EQUAL(f->extra[2].id, TDAT_SECTION_V6_TRACECLOCK);
	/* "v6" + NUL + u32 0; "v7" + NUL + u32 55 + the record and a NUL */
	CU_ASSERT_EQUAL(f->extra[2].body.len, 3 + 4 + 3 + 4 + 55);
	CU_ASSERT_PTR_NULL(tdat_note(f, 0));
	tdat_close(f);
}

static char *tmpfile_path(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", test_tmpdir(), name);
	return p;
}

/* Write the first n bytes of a fixture, with bytes [at, at+len) replaced. */
static const char *make_file(const char *name, const char *from, size_t n,
			     size_t at, const void *patch, size_t len)
{
	const char *path = tmpfile_path(name);
	uint8_t *b = calloc(1, n ? n : 1);
	FILE *in, *out;

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	if (from) {
		in = fopen(fixture(from), "rb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(in);
		CU_ASSERT_EQUAL(fread(b, 1, n, in), n);
		fclose(in);
	}
	if (patch)
		memcpy(b + at, patch, len);
	out = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(fwrite(b, 1, n, out), n);
	fclose(out);
	free(b);
	return path;
}

/* Overwrite len bytes at at of an existing file. */
static void patch_file(const char *path, long at, const void *p, size_t len)
{
	FILE *f = fopen(path, "r+b");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fseek(f, at, SEEK_SET), 0);
	CU_ASSERT_EQUAL(fwrite(p, 1, len, f), len);
	fclose(f);
}

/* tdat_open must fail with one line naming the file and containing want. */
static void expect_open_error(const char *path, const char *want)
{
	struct tdat_error err;
	struct tdat_file *f;

	memset(&err, 0, sizeof(err));
	f = tdat_open(path, &err);
	CU_ASSERT_PTR_NULL(f);
	if (f) {
		tdat_close(f);
		return;
	}
	CU_ASSERT(starts(err.msg, path));
	CU_ASSERT_PTR_NULL(strchr(err.msg, '\n'));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
	if (!strstr(err.msg, want))
		fprintf(stderr, "\n  got \"%s\", want \"%s\"\n", err.msg, want);
}

static void test_missing(void)
{
	expect_open_error(tmpfile_path("no-such-file.dat"), "cannot open");
}

static void test_directory(void)
{
	expect_open_error(test_tmpdir(), "not a regular file");
}

static void test_empty(void)
{
	expect_open_error(make_file("empty.dat", NULL, 0, 0, NULL, 0),
			  "offset 0: file is too short");
}

static void test_bad_magic(void)
{
	expect_open_error(make_file("magic.dat", "v6-sched-irq.dat", 4096, 1,
				    "\x09", 1), "offset 0: not a trace.dat");
	/* A text file is not a trace.dat either. */
	expect_open_error(make_file("text.dat", NULL, 64, 0,
				    "hello, world\n", 13), "offset 0: ");
}

static void test_bad_version(void)
{
	expect_open_error(make_file("v8.dat", "v7-zstd-sched-irq.dat", 4096,
				    10, "8", 1), "offset 10: unsupported file"
			  " version \"8\"");
	expect_open_error(make_file("v5.dat", "v6-sched-irq.dat", 4096, 10,
				    "5", 1), "offset 10: ");
	expect_open_error(make_file("v66.dat", "v6-sched-irq.dat", 4096, 11,
				    "6", 1), "offset 10: ");
}

static void test_bad_header_fields(void)
{
	expect_open_error(make_file("endian.dat", "v6-sched-irq.dat", 4096,
				    12, "\x02", 1), "offset 12: ");
	expect_open_error(make_file("long.dat", "v6-sched-irq.dat", 4096, 13,
				    "\x05", 1), "offset 13: ");
	expect_open_error(make_file("page.dat", "v6-sched-irq.dat", 4096, 14,
				    "\0\0\0\0", 4), "offset 14: ");
	expect_open_error(make_file("codec.dat", "v7-zstd-sched-irq.dat",
				    4096, 18, "zzzz", 4),
			  "offset 18: unsupported compression");
}

/* Cut short: metadata reads report the cut with its offset. */
static void test_truncated_meta(void)
{
	expect_open_error(make_file("cut17.dat", "v6-sched-irq.dat", 17, 0,
				    NULL, 0), "offset 17: file is too short");
	expect_open_error(make_file("cut100.dat", "v6-sched-irq.dat", 100, 0,
				    NULL, 0), "offset 38: header_page");
	expect_open_error(make_file("cutopt.dat", "v7-zstd-sched-irq.dat",
				    1019157 + 20, 0, NULL, 0),
			  "offset 1019157: section 0: size 558 runs past");
}

static void test_truncated_fixtures(void)
{
	struct tdat_error err;
	struct tdat_file *f;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	int got, pages = 0;

	/* Cut before the second options section: trace-cmd shows nothing,
	 * we say where the missing section should have been. */
	expect_open_error(fixture("truncated/v7-zstd-markers-raw_syscalls"
				  ".cut-at-1059000.dat"),
			  "offset 1149511: section header: needs 16 bytes");

	/* Cut inside CPU 1's pages: the metadata is whole, the stream is
	 * not; CPU 1 starts at 5464064, 6000 bytes are left = 1 page. */
	f = tdat_open(fixture("truncated/v6-sched-irq.cut-at-5470064.dat"),
		      &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	r = tdat_cpu_open(f, 0, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) == 1)
		pages++;
	CU_ASSERT_EQUAL(got, -1);
	CU_ASSERT_EQUAL(pages, 1);
	CU_ASSERT(starts(err.msg, f->path));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "offset 5468160: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "truncated"));
	tdat_cpu_close(r);
	tdat_close(f);
}

/* Damage a reader must refuse, each with the offset of the damage. */
static void test_bad_structure(void)
{
	const char *path;

	/* header_page says the commit word is 7 bytes wide (v6 @ 18). */
	expect_open_error(make_file("commit7.dat", "v6-sched-irq.dat",
				    5476352, 123 + 5, "7", 1),
			  "offset 18: header_page: commit size 7");
	/* A page size below header_page's sub-buffer (16 + 4080). */
	expect_open_error(make_file("page2k.dat", "v6-sched-irq.dat",
				    5476352, 14, "\0\x08\0\0", 4),
			  "offset 18: page size 2048 is smaller than");
	/* v7 kallsyms section whose inner size field says one byte more
	 * than the section holds: a v6 copy would be unreadable. */
	expect_open_error(make_file("ksize.dat", "v7-none-sched-irq.dat",
				    5476575, 32944, "\xbb\x9e\x52\x00", 4),
			  "offset 32948: section 19: kallsyms");
	/* v7 headers section whose keyword says "heades_page": trace-cmd
	 * reads nothing, and a v6 copy was unreadable (found by the
	 * fuzz_salvage target, through restore). */
	expect_open_error(make_file("keyword.dat", "v7-none-sched-irq.dat",
				    5476575, 52, "s", 1),
			  "offset 48: section 16: expected the keyword"
			  " \"header_page\"");
	/* CPUCOUNT of 2^31 - 1 (v7 zstd, options section @ 1019157). */
	expect_open_error(make_file("cpucount.dat", "v7-zstd-sched-irq.dat",
				    1031266, 1019713, "\xff\xff\xff\x7f", 4),
			  "offset 1019713: CPUCOUNT 2147483647 is not");
	/* A section of unknown id (18 @ 2063 renumbered 40), then a strings
	 * section whose block does not fit (found by the fuzzer: the
	 * unknown section's description was freed before it was one). */
	path = make_file("extra.dat", "v7-zstd-sched-irq.dat", 1031266, 2063,
			 "\x28", 1);
	patch_file(path, 1031165, "\xff\xff\xff\x7f", 4);
	expect_open_error(path, "offset 1031165: compressed block claims");
	/* HEADER_INFO turned into an unknown option id. */
	expect_open_error(make_file("nohdr.dat", "v7-zstd-sched-irq.dat",
				    1031266, 1019173, "\x50", 1),
			  "offset 1019157: no header_page section");
}

/* A compressed CPU stream whose recorded size passes the end of the
 * file (the size is not used to walk chunks, but it must fit). */
static void test_bad_streams(void)
{
	struct tdat_error err;
	struct tdat_file *f;
	struct tdat_cpu_reader *r;
	const char *path;

	/* BUFFER option data @ 1031072; CPU 0's size field @ 1031107. */
	path = make_file("cpusize.dat", "v7-zstd-sched-irq.dat", 1031266,
			 1031107 + 6, "\x10", 1);
	f = tdat_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	r = tdat_cpu_open(f, 0, 0, &err);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "offset 1019904: buffer \"\""
				      " CPU 0: data runs past the end"));
	tdat_cpu_close(r);
	tdat_close(f);
}

void suite_read(void)
{
	CU_pSuite s = CU_add_suite("read", NULL, NULL);

	CU_add_test(s, "v6", test_v6);
	CU_add_test(s, "v6 global clock", test_v6_clock);
	CU_add_test(s, "v6 instances", test_v6_instances);
	CU_add_test(s, "v6 CPUCOUNT holding no count", test_v6_foreign_cpucount);
	CU_add_test(s, "v6 empty version string", test_v6_empty_version);
	CU_add_test(s, "v7 none", test_v7_none);
	CU_add_test(s, "v7 zstd by 3.1.6 (sizes 4 short)", test_v7_zstd_316);
	CU_add_test(s, "v7 zstd by 3.4 (exact sizes)", test_v7_zstd_34);
	CU_add_test(s, "v7 zlib", test_v7_zlib);
	CU_add_test(s, "v7 instances", test_v7_instances);
	CU_add_test(s, "v7 clocks", test_v7_clocks);
	CU_add_test(s, "v7 restore output", test_v7_restored);
	CU_add_test(s, "error: missing file", test_missing);
	CU_add_test(s, "error: directory", test_directory);
	CU_add_test(s, "error: empty file", test_empty);
	CU_add_test(s, "error: bad magic", test_bad_magic);
	CU_add_test(s, "error: version", test_bad_version);
	CU_add_test(s, "error: header fields", test_bad_header_fields);
	CU_add_test(s, "error: truncated metadata", test_truncated_meta);
	CU_add_test(s, "error: truncated fixtures", test_truncated_fixtures);
	CU_add_test(s, "error: inconsistent structure", test_bad_structure);
	CU_add_test(s, "error: bad CPU streams", test_bad_streams);
}
