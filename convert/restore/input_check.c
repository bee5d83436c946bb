/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input_check.c - what restore's inputs are, told from their first
 * bytes before anything is built from them: a trace.dat (to salvage), a
 * damaged trace.dat (refused: restore does not guess past its magic),
 * or something else (refused unless given as a raw CPU file).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "convert/restore/restore.h"
#include "libfmt/tracedat.h"

#define PEEK 18		/* the initial header: magic to page size */

static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				   'i', 'n', 'g' };

/* The first bytes of path (n of them), or -1 with err naming it. */
static int peek(const char *path, uint8_t *b, size_t *n,
		struct tdat_error *err)
{
	int fd = tdat_open_regular(path, err);
	ssize_t r;

	if (fd < 0)
		return -1;
	*n = 0;
	while (*n < PEEK) {
		r = read(fd, b + *n, PEEK - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			tdat_fail(err, path, *n, "read error: %s",
				  strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		*n += (size_t)r;
	}
	close(fd);
	return 0;
}

/* "17 08 44 ..." for messages: up to 10 bytes. */
static void hex(const uint8_t *b, size_t n, char *out, size_t cap)
{
	size_t i, at = 0;

	out[0] = 0;
	for (i = 0; i < n && i < 10 && at + 4 < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%02x",
				       i ? " " : "", b[i]);
}

/* The magic is damaged but the rest of the header reads as one. */
static int damaged_magic(const uint8_t *b, size_t n, size_t *first_bad)
{
	size_t i, same = 0;

	*first_bad = n;
	for (i = 0; i < sizeof(magic) && i < n; i++) {
		if (b[i] == magic[i])
			same++;
		else if (*first_bad == n)
			*first_bad = i;
	}
	if (same >= 7)
		return 1;
	return n >= 14 && (b[10] == '6' || b[10] == '7') && b[11] == 0 &&
	       b[12] <= 1 && (b[13] == 4 || b[13] == 8);
}

int restore_input_kind(const char *path, struct tdat_error *err)
{
	uint8_t b[PEEK];
	char got[40], want[40];
	size_t n, bad;

	if (peek(path, b, &n, err))
		return -1;
	if (n >= sizeof(magic) && !memcmp(b, magic, sizeof(magic)))
		return RESTORE_TRACEDAT;
	if (n == 0)
		return RESTORE_EMPTY;
	hex(b, n, got, sizeof(got));
	hex(magic, sizeof(magic), want, sizeof(want));
	if (damaged_magic(b, n, &bad))
		return tdat_fail(err, path, bad, "a trace.dat whose magic is"
				 " damaged (%s, not %s): restore does not"
				 " guess past it; if the rest is intact, put"
				 " the 10 bytes back in a copy and salvage that"
				 " (restore -o NEW COPY)", got, want);
	(void)tdat_fail(err, path, 0, "not a trace.dat file (it starts %s%s)",
			got, n > 10 ? " ..." : "");
	return RESTORE_OTHER;
}
