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

#endif
