/* SPDX-License-Identifier: GPL-2.0-or-later */
/* info.h - report's "show and exit" modes (info.c). */
#ifndef INFO_H
#define INFO_H

#include "convert/report/report.h"

/*
 * Print what ro->show asks for (SHOW_* bits: file facts instead of the
 * events) as trace-cmd report does.  0 on success, 1 when an input
 * cannot be read or part of its data had to be skipped.
 */
int report_info(const struct report_opts *ro);

/* With --json: input number input (open as f) as one JSON object on a
 * line (info_json.c).  0, or 1 as report_info. */
struct tdat_file;
int report_info_json_one(const struct report_opts *ro, int input,
			 struct tdat_file *f);

#endif
