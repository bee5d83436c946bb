/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fastfmt.c - compiled print fmts (convert/fastfmt) print what
 * libtraceevent prints: on formats written here to pin each rule, both
 * byte orders and long sizes, and on every event of every fixture, each
 * real record and records made from it with random payloads and sizes.
 * Formats that are not plain are left to libtraceevent.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/tracedat.h"
#include "convert/fastfmt/fastfmt.h"
#include "convert/tepfmt/tepfmt.h"
#include "convert/events/stream.h"
#include "convert/report/print.h"

#define ROOM 70000	/* a record's buffer: any __data_loc offset inside */

/* libtraceevent's text of rec, one trailing newline dropped as report
 * drops it. */
static const char *oracle(struct tep_handle *tep, struct tep_record *rec,
			  struct trace_seq *s)
{
	trace_seq_reset(s);
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->buffer[--s->len] = 0;
	return s->buffer;
}

/* The compiled text of rec (NUL-terminated in out), or NULL. */
static const char *compiled(const struct fastfmt *f, struct tep_record *rec,
			    char *out, size_t cap)
{
	int n = fastfmt_print(f, rec->data, (uint32_t)rec->size, out, cap - 1);

	if (n < 0)
		return NULL;
	if (n && out[n - 1] == '\n')
		n--;
	out[n] = 0;
	return out;
}

static void dump(const struct tep_record *rec)
{
	int i;

	for (i = 0; i < rec->size; i++)
		fprintf(stderr, "%02x%s", ((const uint8_t *)rec->data)[i],
			i % 16 == 15 ? "\n" : " ");
	fprintf(stderr, "\n");
}

/* A %p in fmt that this host's libtraceevent cuts to its own pointer's
 * 32 bits, where the compiled text keeps x86_64's 64. */
static int cuts_pointers(const char *fmt)
{
	const char *p;

	if (sizeof(void *) == 8 || !fmt)
		return 0;
	for (p = strchr(fmt, '%'); p; p = strchr(p + 1, '%'))
		if (p[1] == 'p' && !isalnum((unsigned char)p[2]))
			return 1;
	return 0;
}

/* 1 when both agree (or the record is left to libtraceevent). */
static int agree(struct tep_handle *tep, const struct fastfmt *f,
		 struct tep_record *rec, struct trace_seq *s, long *compared)
{
	char out[4096];
	const char *got = compiled(f, rec, out, sizeof(out)), *want;

	if (!got)
		return 1;
	(*compared)++;
	want = oracle(tep, rec, s);
	if (!strcmp(got, want))
		return 1;
	fprintf(stderr, "\n  size %d:\n  fast [%s]\n  tep  [%s]\n", rec->size,
		got, want);
	dump(rec);
	return 0;
}

/* ---- formats written here ---- */

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define FIELDS \
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n" \
	"\tfield:long c;\toffset:16;\tsize:8;\tsigned:1;\n" \
	"\tfield:short d;\toffset:24;\tsize:2;\tsigned:1;\n" \
	"\tfield:char s[6];\toffset:26;\tsize:6;\tsigned:0;\n" \
	"\tfield:__data_loc char[] n;\toffset:32;\tsize:4;\tsigned:0;\n" \
	"\tfield:void * p;\toffset:40;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long args[2];\toffset:48;\tsize:16;\tsigned:0;\n" \
	"\tfield:signed char ch;\toffset:64;\tsize:1;\tsigned:1;\n\n"

static struct tep_handle *handle(int big, int long_size)
{
	struct tep_handle *tep = tep_alloc();

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	return tep;
}

/* The event of "print fmt: " + fmt over FIELDS, in tep, or NULL. */
static struct tep_event *event_of(struct tep_handle *tep, int id,
				  const char *fmt)
{
	struct tep_event *ev = NULL;
	char text[2048];

	snprintf(text, sizeof(text), "name: e%d\nID: %d\nformat:\n" COMMON
		 FIELDS "print fmt: %s\n", id, id, fmt);
	if (tepfmt_parse(tep, &ev, text, strlen(text), "test", NULL))
		return NULL;
	return ev;
}

/* The record the written formats print: the values of exp.c's notes. */
static void fill(uint8_t *d, int big, int id)
{
	memset(d, 0, ROOM);
	tdat_store16(big, d, (uint16_t)id);
	tdat_store32(big, d + 8, (uint32_t)-5);
	tdat_store32(big, d + 12, 0xfffffff0u);
	tdat_store64(big, d + 16, (uint64_t)-3);
	tdat_store16(big, d + 24, (uint16_t)-2);
	memcpy(d + 26, "abcdef", 6);
	tdat_store32(big, d + 32, (5u << 16) | 70);
	tdat_store64(big, d + 40, 0xffff888012345678ull);
	tdat_store64(big, d + 48, 0x1234);
	tdat_store64(big, d + 56, ~0ull);
	d[64] = 0xfe;
	memcpy(d + 70, "hello", 6);
}

static const char *const plain[] = {
	"\"%d %ld %lld %u %lu %x %lx\", REC->a, REC->a, REC->a, REC->a, "
	"REC->a, REC->a, REC->a",
	"\"%d %ld %lld %u %lu %x %lx %hd %hhd %hhu\", REC->b, REC->b, REC->b, "
	"REC->b, REC->b, REC->b, REC->b, REC->b, REC->b, REC->b",
	"\"%d %ld %lld %u %lu %x %lx %Lu %zu %zd %i %X\", REC->c, REC->c, "
	"REC->c, REC->c, REC->c, REC->c, REC->c, REC->c, REC->c, REC->c, "
	"REC->c, REC->c",
	"\"%d %ld %u %x %d %u\", REC->d, REC->d, REC->d, REC->d, REC->ch, "
	"REC->ch",
	"\"%s|%s|%p|%5d|%-5d|%05d|%#x|%03d|%-#12x|%#08x|%08lx|%-05d|\", "
	"REC->s, __get_str(n), REC->p, REC->a, REC->a, REC->a, REC->b, "
	"REC->d, REC->b, REC->d, REC->c, REC->ch",
	"\"%lx %lx %p %p %p\", REC->args[0], REC->args[1], REC->a, "
	"REC->common_type, REC->common_pid",
	"\"%s %s.\", REC->a ? \"yes\" : \"no\", REC->common_pid ? \"yes\" : "
	"\"no\"",
	"\"%llu %lld %llx\", (unsigned long long)REC->a, (long long)REC->c, "
	"(u64)REC->d",
	"\"q\\\"r\\\\s\\tt\\nu%d%%\\n\", REC->a",
	"\"no conversion at all\"",
	"\"%d %u %p %lx %d\", REC->a + 1, REC->b - 16, (((struct page *)"
	"vmemmap_base) + (REC->c)), REC->c != -3 ? REC->c : 0, REC->d == 0",
};

/* libtraceevent's own rules, or its extensions: not compiled. */
static const char *const not_plain[] = {
	"\"%+d\", REC->a", "\"% d\", REC->a", "\"%.3d\", REC->a",
	"\"%8s\", REC->s", "\"%-8s\", REC->s", "\"%.2s\", REC->s",
	"\"%*d\", REC->a, REC->b", "\"%pSR\", REC->p", "\"%pS\", REC->s",
	"\"%ps\", (int)REC->p", "\"%pM\", REC->s", "\"%o\", REC->b", "\"%c\", REC->ch",
	"\"%s\", REC->p", "\"%s\", REC->a", "\"%d\", REC->s",
	"\"%d\", (int)REC->c", "\"%d %d\", REC->a",
	"\"%d\", REC->a * 2", "\"%s %d\", __get_str(n), REC->a + 1",
	"\"%d\", REC->a, REC->b", "\"a\\ab %d\", REC->a",
	"\"%s\", __print_symbolic(REC->a + 1, { 1, \"one\" })",
	"\"%d\", __print_symbolic(REC->a, { 1, \"one\" })",
	"\"%s\", __print_flags(REC->c, \"|\", { 0x8000000000000000, \"hi\" })",
	"\"%s\", REC->a ? \"n\" : __print_flags(REC->a, \"|\", { 1, \"one\" })",
	"\"%s\", (REC->b & REC->a) ? \"y\" : \"n\"",
	"\"%s %s\", (REC->b & 1) ? \"y\" : \"n\", (REC->b & 2) ? \"y\" : \"n\"",
	"\"%d\", REC->args[2]", "\"%s\", REC->a ? REC->s : \"no\"",
	"\"%d\", 5", "\"%s\", REC->a ? \"a\\tb\" : \"n\"", "\"%#d\", REC->a",
	"\"%d%\", REC->a",
};

/*
 * Does fmt have a %l or %z conversion (not %ll) while the host's long is
 * not x86_64's, or a %p while its pointer is not?  Compiled formats print
 * those as trace-cmd on x86_64 does (64 bits), the host's libtraceevent
 * with its own long and pointer: the host is no oracle for them then
 * (make check-cross compares with x86_64's trace-cmd instead).
 */
static int host_long_differs(const char *fmt)
{
	const char *p;

	if (cuts_pointers(fmt))
		return 1;
	if (sizeof(long) == 8)
		return 0;
	for (p = strchr(fmt, '%'); p; p = strchr(p + 1, '%')) {
		p += strspn(p + 1, "-0#123456789") + 1;
		if (*p == 'z' || (*p == 'l' && p[1] != 'l'))
			return 1;
	}
	return 0;
}

static void check_written(int big, int long_size)
{
	struct tep_handle *tep = handle(big, long_size);
	uint8_t *d = malloc(ROOM);
	struct tep_record rec;
	struct trace_seq s;
	struct tep_event *ev;
	struct fastfmt *f;
	long n = 0;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	trace_seq_init(&s);
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		ev = event_of(tep, 100 + (int)i, plain[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
		f = fastfmt_compile(ev);
		/* elements are compiled only of the long size: args' are 8;
		 * a %p a 32-bit host would cut goes to tepfmt's wide helper,
		 * which libtraceevent prints (of an expression, probe.c
		 * finds the host's text cut and leaves it to libtraceevent) */
		CU_ASSERT(f || (long_size == 4 && strstr(plain[i], "args[")) ||
			  cuts_pointers(plain[i]));
		if (!f && long_size == 8 && !cuts_pointers(plain[i]))
			fprintf(stderr, "\n  not compiled: %s\n", plain[i]);
		fill(d, big, 100 + (int)i);
		memset(&rec, 0, sizeof(rec));
		rec.data = d;
		rec.size = 80;
		CU_ASSERT(!f || host_long_differs(plain[i]) ||
			  agree(tep, f, &rec, &s, &n));
		fastfmt_free(f);
	}
	for (i = 0; i < sizeof(not_plain) / sizeof(not_plain[0]); i++) {
		ev = event_of(tep, 200 + (int)i, not_plain[i]);
		f = ev ? fastfmt_compile(ev) : NULL;
		CU_ASSERT_PTR_NULL(f);
		if (f)
			fprintf(stderr, "\n  compiled: %s\n", not_plain[i]);
		fastfmt_free(f);
	}
	CU_ASSERT(n > 0);
	trace_seq_destroy(&s);
	free(d);
	tep_free(tep);
}

static void test_written(void)
{
	check_written(0, 8);
	check_written(1, 8);
	check_written(0, 4);
	check_written(1, 4);
}

/* Records too short for a field, or a string without its end inside,
 * are left to libtraceevent. */
static void test_short_records(void)
{
	struct tep_handle *tep = handle(0, 8);
	struct tep_event *ev = event_of(tep, 300, "\"%d %s\", REC->ch, "
					"__get_str(n)");
	uint8_t *d = malloc(ROOM);
	struct fastfmt *f = ev ? fastfmt_compile(ev) : NULL;
	char out[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	fill(d, 0, 300);
	CU_ASSERT_EQUAL(fastfmt_print(f, d, 80, out, sizeof(out)), 9);
	CU_ASSERT_NSTRING_EQUAL(out, "254 hello", 9);
	CU_ASSERT_EQUAL(fastfmt_print(f, d, 64, out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(fastfmt_print(f, d, 72, out, sizeof(out)), -1);
	CU_ASSERT_EQUAL(fastfmt_print(f, d, 76, out, sizeof(out)), 9);
	CU_ASSERT_EQUAL(fastfmt_print(f, d, 80, out, 8), -1);
	fastfmt_free(f);
	free(d);
	tep_free(tep);
}

static int plugin(struct trace_seq *s, struct tep_record *rec,
		  struct tep_event *ev, void *ctx)
{
	return trace_seq_puts(s, "plugin");
}

/* An event a plugin prints is left to it. */
static void test_handler_left(void)
{
	struct tep_handle *tep = handle(0, 8);
	struct tep_event *ev = event_of(tep, 301, "\"%d\", REC->a");
	int r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	r = tep_register_event_handler(tep, 301, "test", "e301", plugin, NULL);
	CU_ASSERT(r >= 0 && ev->handler);
	CU_ASSERT_PTR_NULL(fastfmt_compile(ev));
	tep_free(tep);
}

/* ftrace's bprint in an old kernel's plain words: libtraceevent prints
 * it from its printk format instead (found by fuzz_fastfmt). */
static const char bprint[] =
	"name: bprint\nID: 6\nformat:\n" COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%08lx fmt:%p\", REC->ip, REC->fmt\n";

static void test_ftrace_left(void)
{
	struct tep_handle *tep = handle(0, 8);
	struct tep_event *ev = NULL;

	CU_ASSERT_EQUAL_FATAL(tepfmt_parse(tep, &ev, bprint,
					   sizeof(bprint) - 1, "ftrace", NULL),
			      0);
	CU_ASSERT_PTR_NULL(fastfmt_compile(ev));
	tep_free(tep);
}

/* ---- kernel symbols, flags and symbolic tables ---- */

static const char *const tabled[] = {
	"\"%pS %ps %pF %pf|%pS\", REC->p, REC->p, (void *)REC->c, REC->c, "
	"(void *)REC->p",
	"\"[%s] [%s]\", __print_flags(REC->b, \"|\", { 0, \"NONE\" }, "
	"{ 1, \"A\" }, { 2, \"B\" }, { 6, \"BC\" }, { 0, \"Z\" }, "
	"{ 0x80000000, \"TOP\" }, { 0, ((void *)0) }), "
	"__print_symbolic(REC->b, { 0, \"zero\" }, { 1, \"one\" }, "
	"{ 0x80000000, \"top\" })",
	"\"%s|%s\", __print_flags(REC->ch, \"\", { 1, \"a\" }, { 0x10, \"b\" }), "
	"REC->a ? __print_flags(REC->a, \",\", { 2, \"two\" }) : \"none\"",
	"\"%s\", REC->d ? __print_symbolic(REC->d, { 65534, \"m2\" }) : \"z\"",
	"\"%s %d\", (1 && (REC->b & ( unsigned long)(( gfp_t)((((1UL))) << "
	"(3))))) ? \"true\" : \"false\", REC->a",
	"\"%s\", (REC->c & 0x80000010) ? __print_flags(REC->c, \"|\", "
	"{ 0x10, \"T\" }) : \"n\"",
};

static const uint64_t tab_values[] = {
	0, 1, 2, 3, 6, 7, 8, 0x40, 0x80000000, 0x80000001, 0xffffffff,
	0xfffe, 0xffff888012345000ull, 0xffff888012345678ull,
	0xffff888012346000ull, 0xffff888012350010ull, 0x10,
};

/* Functions at fa, fb and an end mark, as a kallsyms gives them. */
static void add_functions(struct tep_handle *tep)
{
	tep_register_function(tep, "fa", 0xffff888012345000ull, NULL);
	tep_register_function(tep, "fb", 0xffff888012346000ull, "mod");
	tep_register_function(tep, "fend", 0xffff888012350000ull, NULL);
}

/* Record id with every field of FIELDS holding (a cut of) v. */
static void fill_value(uint8_t *d, int big, int id, uint64_t v)
{
	memset(d, 0, 80);
	tdat_store16(big, d, (uint16_t)id);
	tdat_store32(big, d + 8, (uint32_t)v);
	tdat_store32(big, d + 12, (uint32_t)v);
	tdat_store64(big, d + 16, v);
	tdat_store16(big, d + 24, (uint16_t)v);
	tdat_store64(big, d + 40, v);
	d[64] = (uint8_t)v;
}

/* Each of evs[0..n) over every value of tab_values. */
static void check_values(struct tep_handle *tep, struct tep_event **evs,
			 int n, int big)
{
	struct tep_record rec = { 0 };
	uint8_t d[80];
	struct trace_seq s;
	struct fastfmt *f;
	long compared = 0;
	size_t k;
	int i;

	trace_seq_init(&s);
	for (i = 0; i < n; i++) {
		/* a 32-bit host's libtraceevent cuts pointers (and %pS of no
		 * symbol) to 32 bits where the compiled text keeps x86_64's
		 * 64, and tepfmt gives a plain %p to its helper there */
		int narrow = sizeof(void *) < 8 &&
			     strstr(evs[i]->print_fmt.format, "%p");

		f = fastfmt_compile(evs[i]);
		CU_ASSERT(f || narrow);
		for (k = 0; f && !narrow &&
			    k < sizeof(tab_values) / sizeof(tab_values[0]);
		     k++) {
			fill_value(d, big, evs[i]->id, tab_values[k]);
			rec.data = d;
			rec.size = 80;
			CU_ASSERT(agree(tep, f, &rec, &s, &compared));
		}
		fastfmt_free(f);
	}
	CU_ASSERT(compared > 0 || sizeof(void *) < 8);
	trace_seq_destroy(&s);
}

static void check_tables(int big, int long_size)
{
	struct tep_handle *tep = handle(big, long_size);
	struct tep_event *evs[sizeof(tabled) / sizeof(tabled[0])];
	int i, n = (int)(sizeof(tabled) / sizeof(tabled[0]));

	add_functions(tep);
	for (i = 0; i < n; i++) {
		evs[i] = event_of(tep, 400 + i, tabled[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(evs[i]);
	}
	check_values(tep, evs, n, big);
	tep_free(tep);
}

static void test_tables(void)
{
	check_tables(0, 8);
	check_tables(1, 8);
	check_tables(0, 4);
	check_tables(1, 4);
}

/* kmem's kfree as Linux 6.18 gives it: libtraceevent's kmem plugin puts
 * "(func+0xoff) " of its call site first. */
static const char kfree_format[] =
	"name: kfree\nID: 500\nformat:\n" COMMON
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"call_site=%pS ptr=%p\", (void *)REC->call_site, "
	"REC->ptr\n";

static void test_kmem_plugin(void)
{
	struct tep_handle *tep = handle(0, 8);
	struct tep_plugin_list *plugins = tep_load_plugins(tep);
	struct tep_event *ev = NULL;

	CU_ASSERT_EQUAL_FATAL(tepfmt_parse(tep, &ev, kfree_format,
					   sizeof(kfree_format) - 1, "kmem",
					   NULL), 0);
	/* libtraceevent1-plugin is a dependency (scripts/install-deps) */
	CU_ASSERT_PTR_NOT_NULL(ev->handler);
	add_functions(tep);
	check_values(tep, &ev, 1, 0);
	if (plugins)
		tep_unload_plugins(plugins, tep);
	tep_free(tep);
}

/* ---- every event of the fixtures ---- */

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Records made from rec: random bytes after common_type, random sizes
 * around its own; a byte now and then 0 so strings end. */
static int mutants(struct tep_handle *tep, const struct fastfmt *f,
		   const struct tep_record *rec, uint8_t *buf,
		   struct trace_seq *s, uint64_t *x, long *n)
{
	struct tep_record m = *rec;
	int k, i, ok = 1, max = rec->size + 16 < 4096 ? rec->size + 16 : 4096;

	for (k = 0; k < 8 && ok; k++) {
		memset(buf, 0, (size_t)max + 64);
		memcpy(buf, rec->data, (size_t)rec->size);
		for (i = 2; i < max; i++)
			if (rng_next(x) % 3 == 0)
				buf[i] = (uint8_t)(rng_next(x) % 4 ?
						   rng_next(x) : 0);
		m.data = buf;
		m.size = k ? (int)(rng_next(x) % (uint64_t)max) : rec->size;
		ok = agree(tep, f, &m, s, n);
	}
	return ok;
}

struct tally {
	long records, compared;
	int failed;
};

static void check_record(struct tep_handle *tep, struct fast_table **t,
			 struct tep_record *rec, uint8_t *buf,
			 struct trace_seq *s, uint64_t *x, struct tally *ty)
{
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	const struct fast_event *fe;

	if (!ev || !(fe = fast_event_of(t, ev, 1)) || !fe->prog ||
	    cuts_pointers(ev->print_fmt.format))
		return;
	ty->records++;
	if (!agree(tep, fe->prog, rec, s, &ty->compared) ||
	    !mutants(tep, fe->prog, rec, buf, s, x, &ty->compared)) {
		fprintf(stderr, "  event %s:%s\n", ev->system, ev->name);
		ty->failed++;
	}
}

static void check_fixture(const char *name, struct tally *ty)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct fast_table *t = NULL;
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	struct stream st;
	struct stream_cpu *c;
	struct tep_handle *tep;
	struct tep_record rec;
	struct trace_seq s;
	uint8_t *buf = calloc(1, ROOM);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	tep = tep_from_file(f, 1, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	trace_seq_init(&s);
	memset(&st, 0, sizeof(st));
	for (b = 0; b < f->nbuffers; b++)
		stream_add_buffer(&st, f, 0, b, &err);
	for (; (c = stream_peek(&st)) && ty->failed < 5; stream_advance(&st, c)) {
		memset(&rec, 0, sizeof(rec));
		rec.size = (int)c->ev.size;
		rec.data = (void *)c->ev.data;
		rec.cpu = c->cpu;
		check_record(tep, &t, &rec, buf, &s, &x, ty);
	}
	stream_free(&st);
	fast_table_free(t);
	trace_seq_destroy(&s);
	if (plugins)
		tep_unload_plugins(plugins, tep);
	tep_free(tep);
	tdat_close(f);
	free(buf);
}

static const char *const fixtures[] = {
	"v6-sched-irq.dat", "v6-clock-global.dat",
	"v6-2inst-irq-top-sched-inst1.dat", "v7-zstd-markers-raw_syscalls.dat",
	"v7-zstd-sched-irq-tc34.dat", "v7-zstd-clock-x86tsc-tc34.dat",
	"external/akshudev_aos.dat", "external/alexiusmd.dat",
	"external/carverdamien_full.dat", "external/gpuvis_amdgpu.dat",
	"external/igt_tests_trace.dat", "external/kinmax.dat",
	"external/lanhao.dat", "external/lisa_example_rtapp.dat",
	"external/lisa_trappy_2014a.dat", "external/samarxie_android.dat",
	"v7-zstd-kmem-tc.dat",
};

static void test_fixtures(void)
{
	struct tally ty = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		check_fixture(fixtures[i], &ty);
	fprintf(stderr, "\n  fastfmt: %ld records compiled, %ld texts compared\n",
		ty.records, ty.compared);
	CU_ASSERT_EQUAL(ty.failed, 0);
	/* the compiled path is taken: sched_waking, sys_exit, irq... */
	CU_ASSERT(ty.records > 10000);
	CU_ASSERT(ty.compared > 50000);
}

void suite_fastfmt(void)
{
	CU_pSuite s = CU_add_suite("fastfmt", NULL, NULL);

	CU_add_test(s, "written formats print as libtraceevent", test_written);
	CU_add_test(s, "short records are left to libtraceevent",
		    test_short_records);
	CU_add_test(s, "plugin events are left to it", test_handler_left);
	CU_add_test(s, "symbols, flags and symbolic tables as libtraceevent",
		    test_tables);
	CU_add_test(s, "the kmem plugin's call sites as libtraceevent",
		    test_kmem_plugin);
	CU_add_test(s, "ftrace's own events are left to libtraceevent",
		    test_ftrace_left);
	CU_add_test(s, "every fixture's records print as libtraceevent",
		    test_fixtures);
}
