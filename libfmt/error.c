/* error.c - errors as values: one line naming file, offset and problem. */
#include <stdio.h>
#include "internal.h"

/* Names and keywords quoted from a damaged file may hold any byte: keep
 * the message on one printable line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int tdat_fail(struct tdat_error *err, const char *file, uint64_t off,
	      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return -1;
	n = snprintf(err->msg, sizeof(err->msg), "%s: offset %llu: ",
		     file ? file : "?", (unsigned long long)off);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	va_end(ap);
	one_line(err->msg);
	return -1;
}

int tdat_fail_nooff(struct tdat_error *err, const char *file,
		    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return -1;
	n = snprintf(err->msg, sizeof(err->msg), "%s: ", file ? file : "?");
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	va_end(ap);
	one_line(err->msg);
	return -1;
}
