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

#endif
