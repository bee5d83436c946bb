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
	static const char *bad[][12] = {
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
		{ "-R", "stacktrace", "-e", "sched" },	/* -R before -e */
		{ "-e", "sched", "-P", "12,x" },
		{ "-e", "sched", "-P", "0" },
		{ "-e", "sched", "-P", "1,,2" },
		{ "-e", "sched", "-c" },		/* -c without -F/-P */
		{ "-e", "sched", "-p", "function", "-p", "nop" },
		{ "-e", "sched", "-p", "a b" },
		{ "-e", "sched", "-O", "" },
		{ "-e", "sched", "-O", "a/b" },
		{ "-e", "sched", "-s", "-1" },
		{ "-e", "sched", "-r", "0" },
		{ "-e", "sched", "--max-graph-depth", "x" },
		{ "-e", "sched", "--ts-offset", "12abc" },
		{ "-e", "sched", "--date", "--ts-offset", "5" },
		{ "-e", "sched", "--user", "nobody" },	/* no command */
		{ "-e", "sched", "--func-stack" },	/* no -p function, -l */
		{ "-p", "function", "--func-stack", "-e", "sched" },
		{ "-p", "irqsoff", "-B", "i", "-e", "sched" },
		{ "-e", "sched", "-B", "i", "-p", "wakeup" },
		{ "-B", "i", "-O", "stacktrace" },	/* nothing recorded */
		{ "-v", "-B", "i", "-e", "sched" },	/* deleting: refused */
		{ "-p", "" },
	};
	struct record_opts o;
	char msg[256];
	size_t i;
	int j;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[14] = { "record" };

		for (j = 0; j < 12 && bad[i][j]; j++)
			argv[j + 1] = (char *)bad[i][j];
		msg[0] = 0;
		CU_ASSERT_EQUAL(parse(j + 1, argv, &o, msg), -1);
		CU_ASSERT(msg[0] != 0);
		CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
		record_opts_free(&o);
	}
}

/* The options of trace-cmd's -h: each taken with its meaning. */
static void test_trace_cmd_options(void)
{
	char *argv[] = { "record", "-F", "-c", "-e", "sched", "-R",
			 "stacktrace", "-R", "traceoff", "-p", " function ",
			 "-l", "schedule", "-n", "do_idle", "-g", "vfs_read",
			 "-O", "nooverwrite", "-T", "-P", "12,34", "-P", "5",
			 "--max-graph-depth", "3", "-B", "inst", "-e", "irq",
			 "-v", "-e", "sched:sched_stat*", "-f", "x > 1",
			 "-R", "stacktrace", "-O", "raw", "-k", "-i", "-s", "2000", "-d", "-a",
			 "--date", "--func-stack", "--user", "nobody",
			 "--cmdlines-size", "512", "-r", "10", "--poll",
			 "--no-filter", "--stderr", "--verbose=2", "sleep", "1",
			 NULL };
	struct record_opts o;
	struct rec_buf_opts *top, *inst;
	char msg[256];

	CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
	CU_ASSERT_EQUAL_FATAL(o.nbufs, 2);
	top = &o.bufs[0];
	inst = &o.bufs[1];
	CU_ASSERT_EQUAL(o.follow, 1);
	CU_ASSERT_EQUAL(top->children, 1);
	CU_ASSERT_EQUAL(inst->children, 0);
	CU_ASSERT_EQUAL_FATAL(top->nevents, 1);
	CU_ASSERT_EQUAL(top->events[0].neg, 0);
	CU_ASSERT_EQUAL_FATAL(top->events[0].triggers.n, 2);
	CU_ASSERT_STRING_EQUAL(top->events[0].triggers.v[1], "traceoff");
	CU_ASSERT_STRING_EQUAL(top->tracer, "function");
	CU_ASSERT_EQUAL_FATAL(top->funcs.n, 1);
	CU_ASSERT_STRING_EQUAL(top->funcs.v[0], "schedule");
	CU_ASSERT_STRING_EQUAL(top->notrace.v[0], "do_idle");
	CU_ASSERT_EQUAL_FATAL(o.graph_funcs.n, 1);
	CU_ASSERT_STRING_EQUAL(o.graph_funcs.v[0], "vfs_read");
	CU_ASSERT_EQUAL_FATAL(top->options.n, 2);
	CU_ASSERT_STRING_EQUAL(top->options.v[0], "nooverwrite");
	CU_ASSERT_STRING_EQUAL(top->options.v[1], "stacktrace");	/* -T */
	CU_ASSERT_EQUAL_FATAL(top->npids, 3);
	CU_ASSERT_EQUAL(top->pids[0], 12);
	CU_ASSERT_EQUAL(top->pids[1], 34);
	CU_ASSERT_EQUAL(top->pids[2], 5);
	CU_ASSERT_EQUAL(top->graph_depth, 3);
	CU_ASSERT_EQUAL(inst->graph_depth, -1);
	/* -v: the -e after it */
	CU_ASSERT_EQUAL_FATAL(inst->nevents, 2);
	CU_ASSERT_EQUAL(inst->events[0].neg, 0);
	CU_ASSERT_EQUAL(inst->events[1].neg, 1);
	CU_ASSERT_STRING_EQUAL(inst->events[1].system, "sched");
	CU_ASSERT_STRING_EQUAL(inst->events[1].event, "sched_stat*");
	CU_ASSERT_STRING_EQUAL(inst->events[1].filter, "x > 1");
	CU_ASSERT_EQUAL(inst->events[1].triggers.n, 1);
	CU_ASSERT_EQUAL_FATAL(inst->options.n, 1);
	CU_ASSERT_STRING_EQUAL(inst->options.v[0], "raw");
	CU_ASSERT_PTR_NULL(inst->tracer);
	CU_ASSERT_EQUAL(o.keep, 1);
	CU_ASSERT_EQUAL(o.ignore_missing, 1);
	CU_ASSERT_EQUAL(o.sleep_us, 2000);
	CU_ASSERT_EQUAL(o.ftrace_off, REC_FTRACE_OFF_OPT);
	CU_ASSERT_EQUAL(o.all_formats, 1);
	CU_ASSERT_EQUAL(o.date, 1);
	CU_ASSERT_EQUAL(o.func_stack, 1);
	CU_ASSERT_STRING_EQUAL(o.user, "nobody");
	CU_ASSERT_EQUAL(o.cmdlines_size, 512);
	CU_ASSERT_EQUAL(o.rt_prio, 10);
	CU_ASSERT_EQUAL(o.poll, 1);
	CU_ASSERT_STRING_EQUAL(o.cmd[0], "sleep");
	record_opts_free(&o);
}

static void test_defaults_new(void)
{
	char *argv[] = { "record", "-p", "function_graph", "-D", "-d",
			 "--ts-offset", "0x10", NULL };
	struct record_opts o;
	char msg[256];

	CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
	CU_ASSERT_EQUAL(o.nbufs, 1);		/* a tracer alone records */
	CU_ASSERT_EQUAL(o.bufs[0].nevents, 0);
	CU_ASSERT_EQUAL(o.ftrace_off, REC_FTRACE_OFF_ALL);	/* -D wins */
	CU_ASSERT_STRING_EQUAL(o.ts_offset, "0x10");
	CU_ASSERT_EQUAL(o.sleep_us, -1);
	CU_ASSERT_EQUAL(o.follow, 0);
	CU_ASSERT_PTR_NULL(o.user);
	record_opts_free(&o);
	CU_ASSERT(rec_is_latency_tracer("irqsoff"));
	CU_ASSERT(rec_is_latency_tracer("wakeup_rt"));
	CU_ASSERT(!rec_is_latency_tracer("function"));
	CU_ASSERT(!rec_is_latency_tracer(NULL));
}

/* --flush-interval: seconds with up to three decimals, 0 to 3600. */
static void test_flush_interval(void)
{
	static const struct {
		const char *arg;
		long ms;	/* -1: refused */
	} cases[] = {
		{ "1", 1000 }, { "0.25", 250 }, { "0", 0 }, { "2.5", 2500 },
		{ "0.001", 1 }, { "3600", 3600000 }, { "10.125", 10125 },
		{ "3600.001", -1 }, { "3601", -1 }, { "1.5x", -1 },
		{ ".5", -1 }, { "1.", -1 }, { ".", -1 }, { "", -1 },
		{ "-1", -1 }, { "0.0001", -1 }, { "99999999999999999999", -1 },
	};
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "record", "--flush-interval",
				 (char *)cases[i].arg, "-e", "sched", NULL };
		struct record_opts o;
		int r = parse(ARGC(argv), argv, &o, msg);

		CU_ASSERT_EQUAL(r, cases[i].ms < 0 ? -1 : 0);
		if (!r)
			CU_ASSERT_EQUAL(o.flush_ms, cases[i].ms);
		record_opts_free(&o);	/* a refusal keeps what it parsed */
	}
	{
		char *argv[] = { "record", "-e", "sched", NULL };
		struct record_opts o;

		CU_ASSERT_EQUAL_FATAL(parse(ARGC(argv), argv, &o, msg), 0);
		CU_ASSERT_EQUAL(o.flush_ms, 1000);	/* the default */
		record_opts_free(&o);
	}
}

/* trace-cmd's options that record has not: refused by name. */
static void test_not_implemented(void)
{
	static const char *opts[][2] = {
		{ "-N", "host:1" }, { "-A", "guest" }, { "-V", "3:4" },
		{ "-t", NULL }, { "-S", NULL }, { "-G", NULL },
		{ "-H", "x" }, { "--profile", NULL }, { "--temp", "/tmp" },
		{ "--module", "snd" }, { "--proc-map", NULL },
		{ "--tsc2nsec", NULL }, { "--tsync-interval", "5" },
		{ "--by-comm", NULL }, { "--proxy", "1" }, { "--name", "n" },
		{ "--nosplice", NULL }, { "--fork", NULL },
	};
	struct record_opts o;
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char *argv[6] = { "record", "-e", "sched", (char *)opts[i][0],
				  (char *)opts[i][1], NULL };

		msg[0] = 0;
		CU_ASSERT_EQUAL(parse(opts[i][1] ? 5 : 4, argv, &o, msg), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, "not implemented"));
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, opts[i][0]));
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
	CU_add_test(s, "trace-cmd's options", test_trace_cmd_options);
	CU_add_test(s, "a tracer alone, -d and -D", test_defaults_new);
	CU_add_test(s, "not implemented", test_not_implemented);
	CU_add_test(s, "--flush-interval", test_flush_interval);
}
