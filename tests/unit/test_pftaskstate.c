/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pftaskstate.c - convert/perfetto/taskstate.c: which bits
 * trace_processor decodes prev_state by for a release (its reading of
 * the text, as measured with ../shared/tools/tp v58.2), and each
 * recorded value written in those bits for the letters the recording's
 * own print fmt shows, on real formats of three kernel layouts (a 3.x
 * kernel's with preemption at 0x400, a 4.11 one's at 0x1000 with Z and X
 * the other way round, a 6.18 one's), read with libtraceevent's plugins
 * loaded (its sched_switch plugin prints its own letters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "convert/events/stream.h"
#include "convert/perfetto/perfetto_internal.h"

static enum tp_bits bits_of(const char *sys, const char *rel)
{
	return tp_bits_for(sys, strlen(sys), rel, strlen(rel));
}

static void test_release_reading(void)
{
	static const struct {
		const char *sys, *rel;
		enum tp_bits want;
	} cases[] = {
		{ "Linux", "6.18.44-fc-v769", TP_BITS_4_14 },
		{ "Linux", "4.19.0-rpi", TP_BITS_4_14 },
		{ "Linux", "4.14.1", TP_BITS_4_14 },
		{ "Linux", "04.014.1", TP_BITS_4_14 },
		{ "Linux", "5", TP_BITS_4_14 },	/* read as 5.5 */
		{ "Linux", "4.13", TP_BITS_4_8 },
		{ "Linux", "4.11.0-rc4+", TP_BITS_4_8 },
		{ "Linux", "4.8.0", TP_BITS_4_8 },
		{ "Linux", "4.7.9", TP_BITS_4_4 },
		{ "Linux", "4.4.83+", TP_BITS_4_4 },
		{ "Linux", "3.10.0", TP_BITS_4_4 },
		{ "Linux", "4.14-rc1", TP_BITS_4_4 },	/* "14-rc1": none */
		{ "Linux", "4.13rc.1", TP_BITS_4_4 },
		{ "Linux", "abc", TP_BITS_4_4 },
		{ "Linux", "", TP_BITS_4_4 },
		{ "Linux", "4.", TP_BITS_4_4 },
		{ "Linux", "5.99999999999", TP_BITS_4_4 },
		{ "Linuxx", "6.1.0", TP_BITS_4_4 },
		{ "Linux (a note)", "6.1.0", TP_BITS_4_4 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (bits_of(cases[i].sys, cases[i].rel) != cases[i].want)
			fprintf(stderr, "\n%s %s: %d, not %d\n", cases[i].sys,
				cases[i].rel, bits_of(cases[i].sys, cases[i].rel),
				cases[i].want);
		CU_ASSERT_EQUAL(bits_of(cases[i].sys, cases[i].rel),
				cases[i].want);
	}
}

struct loaded {
	struct tdat_file *f;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct task_states *ts;
};

static int load(struct loaded *l, const char *name)
{
	struct tepfmt_trial trial = { 0 };
	struct tdat_error err;
	int oom;

	memset(l, 0, sizeof(*l));
	l->f = tdat_open(fixture(name), &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l->f);
	l->tep = tep_from_file_nosyms(l->f, 1, &l->plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l->tep);
	l->ts = task_states_new(l->tep, l->f->big_endian, &oom);
	CU_ASSERT_EQUAL(oom, 0);
	return l->ts != NULL;
}

static void unload(struct loaded *l)
{
	task_states_free(l->ts);
	if (l->plugins)
		tep_unload_plugins(l->plugins, l->tep);
	tep_free(l->tep);
	tdat_close(l->f);
}

struct written {
	uint64_t raw, want;
};

static void check(struct loaded *l, enum tp_bits b, const struct written *w,
		  size_t n)
{
	uint64_t got;
	size_t i;

	task_states_use(l->ts, b);
	for (i = 0; i < n; i++) {
		got = task_state_write(l->ts, w[i].raw);
		if (got != w[i].want)
			fprintf(stderr, "\nbits %d: %#llx written %#llx, not "
				"%#llx\n", b, (unsigned long long)w[i].raw,
				(unsigned long long)got,
				(unsigned long long)w[i].want);
		CU_ASSERT_EQUAL(got, w[i].want);
	}
}

/* A 3.x kernel (no uname): "+" is 0x400, 16 prints Z and 32 X. */
static void test_preempt_at_0x400(void)
{
	static const struct written old[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 0x400, 0x800 }, { 0x40, 0x40 },
		{ 0x10, 0x20 }, { 0x20, 0x10 }, { 0x82, 0x82 }, { 0x200, 0x200 },
		{ 0x800, 0 }, { 0x401, 0x801 },
	};
	struct loaded l;

	CU_ASSERT_FATAL(load(&l, "external/lisa_trappy_2014a.dat"));
	CU_ASSERT(!task_states_fit(l.ts, TP_BITS_4_14));	/* x K W */
	CU_ASSERT(task_states_fit(l.ts, TP_BITS_4_4));
	check(&l, TP_BITS_4_4, old, sizeof(old) / sizeof(old[0]));
	unload(&l);
}

/* 4.11: "+" is 0x1000 (4.8's bits), 0x400 N; D|N is the idle wait;
 * 0x800 (TASK_NEW) has no letter in its table, which prints it as
 * 0x800: written as recorded. */
static void test_preempt_at_0x1000(void)
{
	static const struct written b48[] = {
		{ 0x1000, 0x1000 }, { 0x40, 0x40 }, { 0x402, 0x402 },
		{ 0x200, 0x200 }, { 0x10, 0x20 }, { 0x800, 0x800 }, { 1, 1 },
		{ 0x801, 1 }, { 0x2000, 0 },
	};
	static const struct written b44[] = {
		{ 0x1000, 0x800 }, { 0x40, 0x40 }, { 0x402, 0x402 },
		{ 0x200, 0x200 }, { 1, 1 },
	};
	struct loaded l;

	CU_ASSERT_FATAL(load(&l, "external/gpuvis_amdgpu.dat"));
	CU_ASSERT(!task_states_fit(l.ts, TP_BITS_4_14));
	CU_ASSERT(task_states_fit(l.ts, TP_BITS_4_8));
	check(&l, TP_BITS_4_8, b48, sizeof(b48) / sizeof(b48[0]));
	check(&l, TP_BITS_4_4, b44, sizeof(b44) / sizeof(b44[0]));
	unload(&l);
}

/* 6.18: the recorded bits are 4.14's; written in 4.4's for a file
 * whose release cannot say so. */
static void test_reporting_bits(void)
{
	static const struct written b414[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 0x10, 0x10 }, { 0x20, 0x20 },
		{ 0x40, 0x40 }, { 0x80, 0x80 }, { 0x100, 0x100 },
		{ 0x200, 0 }, { 0x1000, 0 },
	};
	static const struct written b44[] = {
		{ 0x40, 0x200 }, { 0x80, 0x402 }, { 0x100, 0x800 },
		{ 0x10, 0x10 }, { 0x20, 0x20 }, { 1, 1 }, { 0, 0 },
	};
	struct loaded l;

	CU_ASSERT_FATAL(load(&l, "v6-sched-irq.dat"));
	CU_ASSERT(task_states_fit(l.ts, TP_BITS_4_14));
	check(&l, TP_BITS_4_14, b414, sizeof(b414) / sizeof(b414[0]));
	check(&l, TP_BITS_4_4, b44, sizeof(b44) / sizeof(b44[0]));
	unload(&l);
}

/* No sched_switch format: nothing to write (values go as they are). */
static void test_no_sched_switch(void)
{
	struct loaded l;

	CU_ASSERT(!load(&l, "external/samarxie_android.dat"));
	unload(&l);
}

void suite_pftaskstate(void)
{
	CU_pSuite s = CU_add_suite("pftaskstate", NULL, NULL);

	CU_add_test(s, "trace_processor's reading of a release",
		    test_release_reading);
	CU_add_test(s, "preemption at 0x400, Z and X swapped",
		    test_preempt_at_0x400);
	CU_add_test(s, "preemption at 0x1000, D|N", test_preempt_at_0x1000);
	CU_add_test(s, "4.14's reporting bits", test_reporting_bits);
	CU_add_test(s, "no sched_switch", test_no_sched_switch);
}
