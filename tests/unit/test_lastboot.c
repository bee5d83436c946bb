/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lastboot.c - LAST_BOOT_INFO (libfmt/lastboot.c) as kernels 6.12
 * and 7.2 wrote it (tests/vm/crash saw both), malformed ones, and the
 * kallsyms moved to the last boot's addresses (libfmt/bootsyms.c).
 */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/metabuild.h"
#include "libfmt/tracedat.h"

/* text as an option payload: its NUL counted */
static int parse(const char *text, struct tdat_last_boot *lb)
{
	char why[128];

	return tdat_last_boot_parse(text, strlen(text) + 1, lb, why,
				    sizeof(why));
}

static void test_forms(void)
{
	struct tdat_last_boot lb;

	CU_ASSERT_EQUAL_FATAL(parse("boot_map:ffffffff9ca00000\t[kernel]\n"
				    "ffffffffc0400000\tvirtio_blk\n", &lb), 0);
	CU_ASSERT_STRING_EQUAL(lb.instance, "boot_map");
	CU_ASSERT_EQUAL(lb.kind, TDAT_BOOT_TEXT);
	CU_ASSERT_EQUAL(lb.old_text, 0xffffffff9ca00000ull);
	CU_ASSERT_EQUAL_FATAL(lb.nmods, 1);
	CU_ASSERT_EQUAL(lb.mods[0].addr, 0xffffffffc0400000ull);
	CU_ASSERT_STRING_EQUAL(lb.mods[0].name, "virtio_blk");
	tdat_last_boot_free(&lb);

	CU_ASSERT_EQUAL_FATAL(parse("boot_map:text delta:\t-312475648\n"
				    "data delta:\t-312475648\n", &lb), 0);
	CU_ASSERT_EQUAL(lb.kind, TDAT_BOOT_DELTA);
	CU_ASSERT_EQUAL(lb.text_delta, -312475648);
	CU_ASSERT_EQUAL(lb.data_delta, -312475648);
	tdat_last_boot_free(&lb);

	CU_ASSERT_EQUAL_FATAL(parse("b:# Current\n", &lb), 0);
	CU_ASSERT_EQUAL(lb.kind, TDAT_BOOT_CURRENT);
	tdat_last_boot_free(&lb);
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"no colon", ":ffffffff9ca00000\t[kernel]\n", "boot_map:",
		"boot_map:ffffffff9ca00000 [kernel]\n",
		"boot_map:ffffffff9ca00000\t[kernel] x\n",
		"boot_map:1ffffffff9ca00000\t[kernel]\n",
		"boot_map:ffffffffzca00000\t[kernel]\n",
		"boot_map:ffffffffc0400000\tvirtio_blk\n",
		"boot_map:ffffffff9ca00000\t[kernel]\nffff\tbad name\n",
		"boot_map:ffffffff9ca00000\t[kernel]\nffff\t\n",
		"boot_map:ffffffff9ca00000\t[kernel]\n\tmod\n",
		"boot_map:text delta:\t12\n",
		"boot_map:text delta:\t12x\ndata delta:\t12\n",
		"boot_map:text delta:\t12\ndata delta:\t12\nmore\n",
		"boot_map:# Current\nffff\tmod\n",
	};
	struct tdat_last_boot lb;
	char why[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(bad[i], &lb), -1);
		CU_ASSERT_PTR_NULL(lb.mods);
	}
	/* no NUL within its size */
	CU_ASSERT_EQUAL(tdat_last_boot_parse("b:# Current", 11, &lb, why,
					     sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "NUL"));
}

/* A file in memory: kallsyms, one buffer per name (those in data with
 * a CPU of data), the options given, and a modules part if any. */
static struct tdat_file *made(const char *ksyms, const char *const *bufs,
			      const int *data, int nbufs,
			      const char *const *opts, int nopts,
			      const char *modules)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_meta_new(7, 0, 8, 4096, &err);
	struct tdat_blob b;
	size_t n = strlen(ksyms);
	int i, k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	b.data = malloc(n + 4);
	b.len = n + 4;
	tdat_store32(0, b.data, (uint32_t)n);
	memcpy(b.data + 4, ksyms, n);
	tdat_meta_set(f, TDAT_META_KALLSYMS, &b);
	if (modules) {
		b.data = (uint8_t *)strdup(modules);
		b.len = strlen(modules);
		tdat_meta_set(f, TDAT_META_MODULES, &b);
	}
	for (i = 0; i < nbufs; i++) {
		k = tdat_meta_add_buffer(f, bufs[i], "local", 4096);
		CU_ASSERT_FATAL(k >= 0 && !tdat_meta_add_cpu(f, k, 0));
		f->buffers[k].cpus[0].size = data[i] ? 4096 : 0;
	}
	for (i = 0; i < nopts; i++) {
		struct tdat_option o = { TDAT_OPT_LAST_BOOT_INFO,
					 (uint32_t)strlen(opts[i]) + 1,
					 (uint8_t *)opts[i] };

		CU_ASSERT_FATAL(!tdat_add_option(f, &o));
	}
	return f;
}

static const char ksyms[] =
	"0000000000001000 A fixed_percpu_data\n"
	"ffffffffa0000000 T _text\n"
	"ffffffffa0001000 T foo\n"
	"ffffffffa2000000 D some_data\n"
	"ffffffffc0600000 t bar\t[mymod]\n"
	"ffffffffc0600100 t bar2\t[mymod]\n"
	"ffffffffc0700000 t baz\t[newmod]\n";

/* f's event kallsyms, compared with want ("" means f's own text). */
static void expect_syms(struct tdat_file *f, const char *want)
{
	struct tdat_error err;
	const char *text;
	size_t len;
	char *owned;

	CU_ASSERT_EQUAL_FATAL(tdat_event_kallsyms(f, &text, &len, &owned,
						  &err), 0);
	if (!*want) {
		CU_ASSERT_PTR_NULL(owned);
		want = ksyms;
	}
	CU_ASSERT_EQUAL(len, strlen(want));
	CU_ASSERT_NSTRING_EQUAL(text, want, len);
	free(owned);
	tdat_close(f);
}

static void test_moved(void)
{
	const char *boot[] = { "boot_map" };
	const char *both[] = { "", "boot_map" };
	const int one[] = { 1 }, two[] = { 1, 1 }, none[] = { 0 };
	const char *text[] = { "boot_map:ffffffff90000000\t[kernel]\n"
			       "ffffffffc0400000\tmymod\n" };
	const char *delta[] = { "boot_map:text delta:\t268435456\n"
				"data delta:\t268435456\n" };
	const char *current[] = { "boot_map:# Current\n" };
	static const char moved[] =
		"0000000000001000 A fixed_percpu_data\n"
		"ffffffff90000000 T _text\n"
		"ffffffff90001000 T foo\n"
		"ffffffff92000000 D some_data\n"
		"ffffffffc0400000 t bar\t[mymod]\n"
		"ffffffffc0400100 t bar2\t[mymod]\n";

	/* 6.15+: the core by _text's move; mymod by its base's (its lowest
	 * symbol now); newmod was not loaded then */
	expect_syms(made(ksyms, boot, one, 1, text, 1, NULL), moved);
	/* this boot's /proc/modules says where mymod is */
	expect_syms(made(ksyms, boot, one, 1, text, 1,
			 "mymod 4096 0 - Live 0xffffffffc05ff000\n"),
		    "0000000000001000 A fixed_percpu_data\n"
		    "ffffffff90000000 T _text\n"
		    "ffffffff90001000 T foo\n"
		    "ffffffff92000000 D some_data\n"
		    "ffffffffc0401000 t bar\t[mymod]\n"
		    "ffffffffc0401100 t bar2\t[mymod]\n");
	/* 6.12: the core by the delta (now minus then); modules stay */
	expect_syms(made(ksyms, boot, one, 1, delta, 1, NULL),
		    "0000000000001000 A fixed_percpu_data\n"
		    "ffffffff90000000 T _text\n"
		    "ffffffff90001000 T foo\n"
		    "ffffffff92000000 D some_data\n"
		    "ffffffffc0600000 t bar\t[mymod]\n"
		    "ffffffffc0600100 t bar2\t[mymod]\n"
		    "ffffffffc0700000 t baz\t[newmod]\n");
	/* this boot's pages, no buffer with data, no option: as stored */
	expect_syms(made(ksyms, boot, one, 1, current, 1, NULL), "");
	expect_syms(made(ksyms, boot, none, 1, text, 1, NULL), "");
	expect_syms(made(ksyms, boot, one, 1, NULL, 0, NULL), "");
	/* an option about another instance does not apply */
	text[0] = "other:ffffffff90000000\t[kernel]\n";
	expect_syms(made(ksyms, boot, one, 1, text, 1, NULL), "");
	/* the top buffer's data is this boot's: both sets of names */
	text[0] = "boot_map:ffffffff90000000\t[kernel]\n"
		  "ffffffffc0400000\tmymod\n";
	{
		char both_text[sizeof(moved) + sizeof(ksyms)];

		strcpy(both_text, moved);
		strcat(both_text, ksyms);
		expect_syms(made(ksyms, both, two, 2, text, 1, NULL),
			    both_text);
	}
}

/* Every allocation of the move failing in turn: -1 or the text, never
 * a crash or a leak (the leak checker of make check-asan). */
static void test_move_memory(void)
{
	const char *boot[] = { "boot_map" };
	const int one[] = { 1 };
	const char *text[] = { "boot_map:ffffffff90000000\t[kernel]\n"
			       "ffffffffc0400000\tmymod\n" };
	struct tdat_file *f = made(ksyms, boot, one, 1, text, 1, NULL);
	struct tdat_error err;
	const char *t;
	size_t len;
	char *owned;
	long k;
	int r;

	for (k = 0; k < 200; k++) {
		failalloc_arm(k);
		r = tdat_event_kallsyms(f, &t, &len, &owned, &err);
		if (failalloc_disarm() <= k) {
			CU_ASSERT_EQUAL(r, 0);
			free(owned);
			break;
		}
		if (!r)
			free(owned);
	}
	CU_ASSERT(k < 200);
	tdat_close(f);
}

void suite_lastboot(void)
{
	CU_pSuite s = CU_add_suite("lastboot", NULL, NULL);

	CU_add_test(s, "the 6.12 and 6.15+ forms, # Current", test_forms);
	CU_add_test(s, "malformed texts are refused", test_malformed);
	CU_add_test(s, "kallsyms moved to the last boot", test_moved);
	CU_add_test(s, "the move with allocations failing", test_move_memory);
}
