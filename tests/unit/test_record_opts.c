/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_record_opts.c - record's command line (cmds/record.c). */
#include <string.h>
#include <CUnit/CUnit.h>
#include "cmds/cmds.h"
#include "convert/record/record.h"
#include "tests/unit/units.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int parse(int argc, char **argv, struct record_opts *o, char *msg)
{
	return record_opts_parse(argc, argv, o, msg, 256);
}

static void test_defaults(void)
{
	char *argv[] = { "record", "-e", "sched", NULL };
	struct record_opts o;
	char msg[256];

	CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
	CU_ASSERT_EQUAL(o.version, 7);
	CU_ASSERT_EQUAL(o.codec, TDAT_CODEC_ZSTD);
	CU_ASSERT_STRING_EQUAL(o.output, "trace.dat");
	CU_ASSERT_EQUAL(o.nbufs, 1);
	CU_ASSERT_STRING_EQUAL(o.bufs[0].name, "");
	CU_ASSERT_EQUAL(o.bufs[0].nevents, 1);
	CU_ASSERT_STRING_EQUAL(o.bufs[0].events[0].system, "sched");
	CU_ASSERT_PTR_NULL(o.bufs[0].events[0].event);
	CU_ASSERT_PTR_NULL(o.bufs[0].events[0].filter);
	CU_ASSERT_PTR_NULL(o.cmd);
	CU_ASSERT_PTR_NULL(o.clock);
	CU_ASSERT_EQUAL(o.buffer_kb, 0);
	CU_ASSERT_EQUAL(o.quiet, 0);
	record_opts_free(&o);
}

/* -e and -f go to the buffer of the last -B; the command keeps its
 * own options. */
static void test_instances_filters_command(void)
{
	char *argv[] = { "record", "-e", "sched:sched_switch", "-f",
			 "prev_pid > 0", "-B", "inst1", "-e", "irq", "-e",
			 "all", "-o", "x.dat", "--file-version", "6", "-C",
			 "global", "-b", "2048", "-M", "3", "-m", "512", "-q",
			 "--subbuf-size", "8", "sleep", "1", "-e", "x", NULL };
	struct record_opts o;
	char msg[256];

	CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
	CU_ASSERT_EQUAL_FATAL(o.nbufs, 2);
	CU_ASSERT_EQUAL(o.bufs[0].nevents, 1);
	CU_ASSERT_STRING_EQUAL(o.bufs[0].events[0].system, "sched");
	CU_ASSERT_STRING_EQUAL(o.bufs[0].events[0].event, "sched_switch");
	CU_ASSERT_STRING_EQUAL(o.bufs[0].events[0].filter, "prev_pid > 0");
	CU_ASSERT_STRING_EQUAL(o.bufs[1].name, "inst1");
	CU_ASSERT_EQUAL_FATAL(o.bufs[1].nevents, 2);
	CU_ASSERT_STRING_EQUAL(o.bufs[1].events[0].system, "irq");
	CU_ASSERT_PTR_NULL(o.bufs[1].events[1].system);	/* all */
	CU_ASSERT_PTR_NULL(o.bufs[1].events[1].event);
	CU_ASSERT_STRING_EQUAL(o.output, "x.dat");
	CU_ASSERT_EQUAL(o.version, 6);
	CU_ASSERT_EQUAL(o.codec, TDAT_CODEC_NONE);	/* v6 */
	CU_ASSERT_STRING_EQUAL(o.clock, "global");
	CU_ASSERT_EQUAL(o.buffer_kb, 2048);
	CU_ASSERT_STRING_EQUAL(o.cpumask, "3");
	CU_ASSERT_EQUAL(o.max_kb, 512);
	CU_ASSERT_EQUAL(o.subbuf_kb, 8);
	CU_ASSERT_EQUAL(o.quiet, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o.cmd);
	CU_ASSERT_STRING_EQUAL(o.cmd[0], "sleep");
	CU_ASSERT_STRING_EQUAL(o.cmd[2], "-e");
	CU_ASSERT_PTR_NULL(o.cmd[4]);
	record_opts_free(&o);
}

static void test_codecs(void)
{
	static const char *names[] = { "none", "zlib", "zstd", "any" };
	static const enum tdat_codec want[] = { TDAT_CODEC_NONE,
		TDAT_CODEC_ZLIB, TDAT_CODEC_ZSTD, TDAT_CODEC_ZSTD };
	struct record_opts o;
	char msg[256];
	int i;

	for (i = 0; i < 4; i++) {
		char *argv[] = { "record", "--compression", (char *)names[i],
				 "-e", "sched:*", NULL };

		CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
		CU_ASSERT_EQUAL(o.codec, want[i]);
		CU_ASSERT_EQUAL(o.version, 7);
		CU_ASSERT_STRING_EQUAL(o.bufs[0].events[0].system, "sched");
		CU_ASSERT_PTR_NULL(o.bufs[0].events[0].event);
		record_opts_free(&o);
	}
}

static void test_help(void)
{
	char *argv[] = { "record", "-e", "sched", "--help", NULL };
	struct record_opts o;
	char msg[256];

	CU_ASSERT_EQUAL(parse(ARGC(argv), argv, &o, msg), 1);
	record_opts_free(&o);
}

/* Each bad command line is refused with a message naming the problem. */
static void test_errors(void)
{
	static const char *bad[][10] = {
		{ "-f", "x", "-e", "sched" },		/* -f before -e */
		{ "-e", "sched", "-f", "a", "-f", "b" },	/* two -f */
		{ "-e", "sched", "--file-version", "5" },
		{ "-e", "sched", "--compression", "lz4" },
		{ "-e", "sched", "-B", "inst" },	/* instance, no -e */
		{ "-e", "sched", "-B", "a/b", "-e", "irq" },
		{ "-e", "sched", "-B", "i", "-e", "irq", "-B", "i", "-e", "x" },
		{ "-o", "x.dat" },			/* no events */
		{ "-e", "sched", "-b", "0" },
		{ "-e", "sched", "-b", "12k" },
		{ "-e", "sched", "-m", "-5" },
		{ "-e", "sched", "-M", "xyz" },
		{ "-e", "sched", "--file-version", "6", "--compression",
		  "zstd" },
		{ "-e", "sched", "--bogus" },
		{ "-e", "sched", "-b" },		/* no value */
		{ "-e", "a:b:c" },
		{ "-e", "" },
		{ "-e", "sched", "-C", "" },
		{ "-e", "sched", "--subbuf-size", "x" },
	};
	struct record_opts o;
	char msg[256];
	size_t i;
	int j;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[12] = { "record" };

		for (j = 0; j < 10 && bad[i][j]; j++)
			argv[j + 1] = (char *)bad[i][j];
		msg[0] = 0;
		CU_ASSERT_EQUAL(parse(j + 1, argv, &o, msg), -1);
		CU_ASSERT(msg[0] != 0);
		CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
		record_opts_free(&o);
	}
}

void suite_record_opts(void)
{
	CU_pSuite s = CU_add_suite("record_opts", NULL, NULL);

	CU_add_test(s, "defaults", test_defaults);
	CU_add_test(s, "instances, filters, command", test_instances_filters_command);
	CU_add_test(s, "compression names", test_codecs);
	CU_add_test(s, "help", test_help);
	CU_add_test(s, "errors", test_errors);
}
