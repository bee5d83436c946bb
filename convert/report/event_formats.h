/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event_formats.h - report --event REGEX (event_formats.c). */
#ifndef EVENT_FORMATS_H
#define EVENT_FORMATS_H

#include "convert/report/report.h"

/*
 * Print the stored formats of the first input's events that match
 * ro->event_regex, as trace-cmd report --event does.  0 on success, 1
 * if the file cannot be read, 2 for a bad regex.
 */
int report_event_formats(const struct report_opts *ro);

#endif
