/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error.c - errors as values: one line naming file, offset and problem. */
#include <stdio.h>
#include "libfmt/internal.h"

/* Names and keywords quoted from a damaged file may hold any byte: keep
 * the message on one printable line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* "FILE: offset OFF: what", or "FILE: what" without has_off. */
static void format_error(struct tdat_error *err, const char *file,
			 int has_off, uint64_t off, const char *fmt,
			 va_list ap)
{
	int n;

	if (!err)
		return;
	err->memory = 0;
	if (!file)
		file = "?";
	if (has_off)
		n = snprintf(err->msg, sizeof(err->msg), "%s: offset %llu: ",
			     file, (unsigned long long)off);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return;
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	one_line(err->msg);
}

int tdat_fail(struct tdat_error *err, const char *file, uint64_t off,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_error(err, file, 1, off, fmt, ap);
	va_end(ap);
	return -1;
}

int tdat_vfail(struct tdat_error *err, const char *file, uint64_t off,
	       const char *fmt, va_list ap)
{
	format_error(err, file, 1, off, fmt, ap);
	return -1;
}

int tdat_fail_nooff(struct tdat_error *err, const char *file,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_error(err, file, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int tdat_verrorf(struct tdat_error *err, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	one_line(err->msg);
	return -1;
}

int tdat_errorf(struct tdat_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tdat_verrorf(err, fmt, ap);
	va_end(ap);
	return -1;
}
