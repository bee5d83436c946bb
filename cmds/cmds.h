/*
 * cmds.h - the applets.  Each cmds/NAME.c defines cmd_NAME(): argv[0] is
 * the applet name, the rest its arguments.  It returns the exit status
 * (0 ok, 1 failure, 2 usage error or not implemented) and prints its
 * own usage for --help.
 */
#ifndef CMDS_H
#define CMDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_check_events(int argc, char **argv);

/* cmds/usage.c: shared by the applets' option parsing. */
extern const char *cmd_name;	/* "convert"...: set by the applet */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int getopt_error(int c, char **argv, int optind);
int same_file(const char *a, const char *b);

#endif
