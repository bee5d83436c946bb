/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repair_hint.h - how an error about a damaged input ends: with what
 * the user can do about it.  The applets (cmds/usage.c job_failed) and
 * report's damage lines (convert/events/stream.c) use it.
 */
#ifndef CONVERT_REPAIR_HINT_H
#define CONVERT_REPAIR_HINT_H

/* printf format; %s is the damaged input. */
static const char repair_hint_fmt[] =
	" (tdat restore -o FIXED.dat %s saves what can be read)";

#endif
