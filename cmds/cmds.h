/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmds.h - the applets.  Each cmds/NAME.c defines cmd_NAME(): argv[0] is
 * the applet name, the rest its arguments.  It returns the exit status
 * (0 ok, 1 failure, 2 usage error or not implemented) and prints its
 * own usage for --help.
 *
 * cmds/NAME.c is the command line of applet NAME: its usage text beside
 * its option table, the parsing, then the call into its engine, through
 * that engine's one interface header (convert/ENGINE/ENGINE.h).
 */
#ifndef CMDS_H
#define CMDS_H

#include <stdarg.h>
#include <stddef.h>

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_check_events(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_extract(int argc, char **argv);

/* cmds/memory.c: TDAT_MEMORY sets libfmt's memory budget; 0, or 2
 * after one line on stderr when it is not a size. */
int memory_from_env(void);

/* cmds/usage.c: shared by the applets' option parsing. */
extern const char *cmd_name;	/* "convert"...: set by the applet */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct option;
/* getopt_long's complaint ('?' or ':', with opterr = 0) in the one
 * wording every applet uses: 'unknown option "--lenght" (did you mean
 * --length?)' or 'option "-o" needs a value'; _msg into buf. */
int getopt_error(int c, char **argv, int optind,
		 const struct option *longopts);
void getopt_msg(char *buf, size_t cap, int c, char **argv, int optind,
		const struct option *longopts);
/* A job's failure: "tdat APPLET: MSG" on stderr, ended by a pointer at
 * restore when MSG is damage at an offset in one of the inputs.  1. */
struct tdat_error;
int job_failed(const struct tdat_error *e, const char *const *inputs,
	       int n);
/* cmds/nearest.c: the name of names[0..n) nearest to word (a typo or a
 * unique prefix), or NULL when none is near enough. */
const char *nearest_name(const char *word, const char *const *names, int n);
int same_file(const char *a, const char *b);
/* cmds/signals.c: SIGINT, SIGTERM and SIGHUP remove the outputs not
 * final yet (libfmt/outputs.h) and end the applet as before.  For the
 * applets that write trace.dat files (record takes those signals
 * itself). */
void discard_outputs_on_signals(void);
/* A parser's one-line message into buf (cap bytes), through libfmt's
 * constructor so that an argument's control characters cannot break the
 * line. */
void usage_vmsg(char *buf, size_t cap, const char *fmt, va_list ap);

/*
 * The parsers that tests/unit calls directly.  Each fills its engine's
 * options struct (convert/X/X.h) and prints nothing: messages go to the
 * caller's buffer.
 */

/* cmds/report.c */
struct report_opts;
enum {
	REPORT_ARGS_RUN = 0,	/* ro is ready for report_run() */
	REPORT_ARGS_HELP = 1,	/* -h/--help: show the usage */
	REPORT_ARGS_BAD = 2,	/* usage error: one line in err */
};
/*
 * Parse trace-cmd report's options (and --json) into ro, which it
 * clears first.  No side effects: nothing printed, nothing opened; only
 * getopt's globals change, and argv is permuted as getopt_long does.
 * ro's strings point into argv.  REPORT_ARGS_BAD also when an option
 * known to trace-cmd is not supported, or --json meets an option that
 * prints something other than events.
 */
int report_parse_args(int argc, char **argv, struct report_opts *ro,
		      char *err, size_t cap);

/* cmds/record.c */
struct record_opts;
/* 0 ok, 1 help was asked for, -1 usage error (msg holds one line).
 * record_opts_free is needed either way. */
int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      char *msg, size_t cap);
void record_opts_free(struct record_opts *o);

#endif
