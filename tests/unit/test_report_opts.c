/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_opts.c - report's command line (cmds/report.c) read as
 * trace-cmd report 3.1.6 reads it (each case checked against it live).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "cmds/cmds.h"
#include "convert/report/report.h"
#include "tests/unit/units.h"

static struct report_opts ro;
static char err[300];

/* Parse "report" and the words given (NULL-terminated). */
static int parse(const char *first, ...)
{
	char *argv[64];
	const char *w;
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)"report";
	va_start(ap, first);
	for (w = first; w && argc < 63; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	return report_parse_args(argc, argv, &ro, err, sizeof(err));
}

/* A usage error whose message holds what. */
static void check_bad(int r, const char *what)
{
	CU_ASSERT_EQUAL(r, REPORT_ARGS_BAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, what));
	if (!strstr(err, what))
		fprintf(stderr, "\n  error '%s' does not name '%s'\n", err,
			what);
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));	/* one line */
}

static void test_inputs(void)
{
	CU_ASSERT_EQUAL(parse(NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.ninputs, 1);
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[0].path, "trace.dat");

	/* the input as the last word, without -i */
	CU_ASSERT_EQUAL(parse("-t", "x.dat", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.ninputs, 1);
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[0].path, "x.dat");
	CU_ASSERT_EQUAL(ro.full_ns, 1);

	/* repeated -i: every file, in order */
	CU_ASSERT_EQUAL(parse("-i", "a", "-i", "b", "-ic", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.ninputs, 3);
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[0].path, "a");
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[1].path, "b");
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[2].path, "c");

	/* trace-cmd stops at the input word and ignores what follows it
	 * (report a.dat -t shows no full timestamps): refused here */
	check_bad(parse("a.dat", "-t", NULL), "'-t' after the input");
	check_bad(parse("a.dat", "b.dat", NULL), "'b.dat'");
	/* with -i, another word is a usage error in trace-cmd too */
	check_bad(parse("-i", "a", "b", NULL), "unexpected argument 'b'");
	check_bad(parse("-i", NULL), "\"-i\" needs a value");
}

static void test_too_many_inputs(void)
{
	char *argv[2 * EVENTS_MAX_INPUTS + 4];
	int argc = 0, k;

	argv[argc++] = (char *)"report";
	for (k = 0; k <= EVENTS_MAX_INPUTS; k++) {
		argv[argc++] = (char *)"-i";
		argv[argc++] = (char *)"f";
	}
	argv[argc] = NULL;
	CU_ASSERT_EQUAL(report_parse_args(argc - 2, argv, &ro, err,
					  sizeof(err)), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.ninputs, EVENTS_MAX_INPUTS);
	check_bad(report_parse_args(argc, argv, &ro, err, sizeof(err)),
		  "at most");
}

static void test_ts_offset(void)
{
	/* applies to the -i before it */
	CU_ASSERT_EQUAL(parse("-i", "a", "--ts-offset", "5", "-i", "b",
			      "--ts-offset=-7", "-i", "c", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts_offset, 5);
	CU_ASSERT_EQUAL(ro.ev.inputs[1].ts_offset, -7);
	CU_ASSERT_EQUAL(ro.ev.inputs[2].ts_offset, 0);
	CU_ASSERT_EQUAL(parse("-i", "a", "--ts-offset", "0x10", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts_offset, 16);
	CU_ASSERT_EQUAL(parse("-i", "a", "--ts-offset",
			      "-9223372036854775808", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts_offset, INT64_MIN);
	/* trace-cmd: "--ts-offset must come after -i" */
	check_bad(parse("--ts-offset", "5", "-i", "a", NULL),
		  "--ts-offset must come after");
	/* trace-cmd reads 12abc as 12 and abc as 0; refused here */
	check_bad(parse("-i", "a", "--ts-offset", "12abc", NULL),
		  "bad --ts-offset value '12abc'");
	check_bad(parse("-i", "a", "--ts-offset", "", NULL), "--ts-offset");
	check_bad(parse("-i", "a", "--ts-offset", NULL),
		  "\"--ts-offset\" needs a value");
}

static void test_ts2secs(void)
{
	/* before the second -i: the default (kept in the first input) */
	CU_ASSERT_EQUAL(parse("--ts2secs", "1000", "-i", "a", "-i", "b",
			      "--ts2secs", "7", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts2secs_hz, 1000);
	CU_ASSERT_EQUAL(ro.ev.inputs[1].ts2secs_hz, 7);
	CU_ASSERT_EQUAL(parse("-i", "a", "--ts2secs", "3000000000", "-i", "b",
			      NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts2secs_hz, 3000000000ull);
	CU_ASSERT_EQUAL(ro.ev.inputs[1].ts2secs_hz, 0);
	/* the default given before a file named by the last word */
	CU_ASSERT_EQUAL(parse("--ts2secs", "5", "x.dat", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_STRING_EQUAL(ro.ev.inputs[0].path, "x.dat");
	CU_ASSERT_EQUAL(ro.ev.inputs[0].ts2secs_hz, 5);
	check_bad(parse("-i", "a", "--ts2secs", "0", NULL), "--ts2secs");
	check_bad(parse("-i", "a", "--ts2secs", "-5", NULL), "--ts2secs");
	check_bad(parse("-i", "a", "--ts2secs", "1e9", NULL), "'1e9'");
}

static void test_filters(void)
{
	/* each -F its own; -v negates every later one; each remembers how
	 * many -i came before it (filter.h says which input it is for) */
	CU_ASSERT_EQUAL(parse("-F", "a", "-v", "-F", "b", "-i", "x", "-F",
			      "c", "-i", "y", "-Fd", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.nfilters, 4);
	CU_ASSERT_STRING_EQUAL(ro.filters[0].text, "a");
	CU_ASSERT_EQUAL(ro.filters[0].negate, 0);
	CU_ASSERT_EQUAL(ro.filters[0].after, 0);
	CU_ASSERT_STRING_EQUAL(ro.filters[1].text, "b");
	CU_ASSERT_EQUAL(ro.filters[1].negate, 1);
	CU_ASSERT_EQUAL(ro.filters[2].negate, 1);
	CU_ASSERT_EQUAL(ro.filters[2].after, 1);
	CU_ASSERT_STRING_EQUAL(ro.filters[3].text, "d");
	CU_ASSERT_EQUAL(ro.filters[3].after, 2);
	/* -v alone filters nothing */
	CU_ASSERT_EQUAL(parse("-v", "-i", "x", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.nfilters, 0);
	check_bad(parse("-i", "x", "-F", NULL), "\"-F\" needs a value");
}

static void test_cpu_lists(void)
{
	CU_ASSERT_EQUAL(parse("--cpu", "0,2-3", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_STRING_EQUAL(ro.cpu_list, "0,2-3");
	/* trace-cmd: --cpu 0 --cpu 1 shows both CPUs */
	CU_ASSERT_EQUAL(parse("--cpu", "0", "--cpu=1", "--cpu", "5-7", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_STRING_EQUAL(ro.cpu_list, "0,1,5-7");
	CU_ASSERT_EQUAL(parse("--cpu", "1,", "--cpu", "0", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_STRING_EQUAL(ro.cpu_list, "1,0");
	CU_ASSERT_EQUAL(parse(NULL), REPORT_ARGS_RUN);
	CU_ASSERT_PTR_NULL(ro.cpu_list);
	check_bad(parse("--cpu", NULL), "\"--cpu\" needs a value");
}

static void test_flags(void)
{
	CU_ASSERT_EQUAL(parse("-tRl", "-N", "-q", "-I", "-S", "--ts-diff",
			      "--align-ts", "--raw-ts", "--nodate", "-V",
			      "--verbose=3", NULL), REPORT_ARGS_RUN);
	CU_ASSERT(ro.full_ns && ro.raw && ro.latency && ro.ev.no_plugins &&
		  ro.quiet && ro.no_hardirq && ro.no_softirq && ro.ts_diff &&
		  ro.ev.align_ts && ro.ev.raw_ts && ro.ev.nodate);
	CU_ASSERT_EQUAL(ro.json, 0);
	CU_ASSERT_EQUAL(ro.show, 0);
	CU_ASSERT_EQUAL(ro.test_filters, 0);
	CU_ASSERT_EQUAL(parse("-T", "--event", "sched:.*", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.test_filters, 1);
	CU_ASSERT_STRING_EQUAL(ro.event_regex, "sched:.*");
	CU_ASSERT_EQUAL(parse("-e", "-f", "-P", "-E", "--events", "--stat",
			      "--uname", "--version", "--cpus",
			      "--first-event", "--last-event", NULL),
			REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.show, SHOW_ENDIAN | SHOW_FUNCS | SHOW_PRINTK |
			SHOW_EVENT_LIST | SHOW_FORMATS | SHOW_STAT |
			SHOW_UNAME | SHOW_VERSION | SHOW_CPUS | SHOW_FIRST |
			SHOW_LAST);
	/* unambiguous abbreviations, as getopt_long allows */
	CU_ASSERT_EQUAL(parse("--first", "--ts-d", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.show, SHOW_FIRST);
	CU_ASSERT_EQUAL(ro.ts_diff, 1);
	CU_ASSERT_EQUAL(parse("-i", "a", "-h", NULL), REPORT_ARGS_HELP);
	CU_ASSERT_EQUAL(parse("--help", NULL), REPORT_ARGS_HELP);
}

static void test_refused(void)
{
	check_bad(parse("--bogus", NULL), "unknown option \"--bogus\"");
	check_bad(parse("-x", NULL), "unknown option \"-x\"");
	check_bad(parse("-tx", NULL), "unknown option \"-x\"");
	check_bad(parse("--cpu", NULL), "option \"--cpu\" needs a value");
	check_bad(parse("--stt", NULL),
		  "unknown option \"--stt\" (did you mean --stat?)");
	/* trace-cmd's options tdat does not have: named, not ignored */
	check_bad(parse("-r", "sched", NULL), "-r is not supported");
	check_bad(parse("-n", "sched", NULL), "-n is not supported");
	check_bad(parse("-O", "opt", NULL), "-O is not supported");
	check_bad(parse("-L", NULL), "-L is not supported");
	check_bad(parse("-w", NULL), "-w is not supported");
	check_bad(parse("-G", NULL), "-G is not supported");
	check_bad(parse("--profile", NULL), "--profile is not supported");
	check_bad(parse("--by-comm", NULL), "--by-comm is not supported");
	check_bad(parse("--ts-check", NULL), "--ts-check is not supported");
	check_bad(parse("--check-events", NULL), "--check-events");
	/* the first error is the one told */
	check_bad(parse("--bogus", "-x", NULL), "--bogus");
	/* and a later parse starts afresh (getopt's state is reset) */
	check_bad(parse("-tx", NULL), "-x");
	CU_ASSERT_EQUAL(parse("-t", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.full_ns, 1);
	CU_ASSERT_EQUAL(ro.ev.ninputs, 1);
}

static void test_json(void)
{
	CU_ASSERT_EQUAL(parse("--json", "-i", "a", "-F", "sched_switch",
			      "--cpu", "0", NULL), REPORT_ARGS_RUN);
	CU_ASSERT_EQUAL(ro.json, 1);
	/* text-only options are accepted and have no effect */
	CU_ASSERT_EQUAL(parse("--json", "-R", "-t", "-l", "--ts-diff", NULL),
			REPORT_ARGS_RUN);
	/* those that print something else instead of events are refused */
	check_bad(parse("--json", "-f", NULL), "--json does not go");
	/* the file facts print as one JSON object */
	CU_ASSERT_EQUAL(parse("--json", "--stat", "--cpus", "--uname", NULL),
			REPORT_ARGS_RUN);
	check_bad(parse("-e", "--json", NULL), "--json does not go");
	check_bad(parse("--json", "--event", "sched", NULL), "--event");
	check_bad(parse("--json", "-T", "-F", "x", NULL), "-T");
}

void suite_report_opts(void)
{
	CU_pSuite s = CU_add_suite("report options", NULL, NULL);

	CU_add_test(s, "inputs", test_inputs);
	CU_add_test(s, "too many inputs", test_too_many_inputs);
	CU_add_test(s, "--ts-offset", test_ts_offset);
	CU_add_test(s, "--ts2secs", test_ts2secs);
	CU_add_test(s, "-F and -v", test_filters);
	CU_add_test(s, "--cpu", test_cpu_lists);
	CU_add_test(s, "flags and show options", test_flags);
	CU_add_test(s, "refused options", test_refused);
	CU_add_test(s, "--json", test_json);
}
