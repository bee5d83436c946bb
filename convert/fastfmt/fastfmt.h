/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fastfmt.h - an event's print fmt compiled into field reads and number
 * and string formatting, for the formats that are plain: libtraceevent's
 * text of an event (tep_print_event's TEP_PRINT_INFO) is most of a
 * report's time, and most of it is spent parsing the same print fmt
 * again for every record.
 *
 * Compiled: conversions %d %i %u %x %X (flags '-' '0' '#', a width,
 * length hh h l ll L z), a plain %p, %pS %ps %pF %pf, a plain %s;
 * arguments REC->field (a number of 1, 2, 4 or 8 bytes, or a char
 * array for %s), __get_str(field), REC->array[N] (elements of the file's
 * long size), a cast to a 64-bit type (or to a pointer, for %pS),
 * __print_flags and __print_symbolic of a number field with numbers in
 * their tables (tables.c), and for %s COND ? "text" : "text" or
 * COND ? __print_flags(...) : "text", COND a number field or
 * [1 &&] (REC->field & constants) (probe.c).  The kmem plugin's
 * events are compiled with its call-site prefix (symbols.c).
 * Everything else is left to libtraceevent (fastfmt_compile says NULL):
 * other plugin handlers, other helpers, arithmetic, the other %p
 * extensions, other escapes.
 *
 * The text is libtraceevent's (1.7, on this host): a field is read
 * unsigned in the file's byte order, then converted to the conversion's
 * C type (so "%d" of a short -2 is 65534, as there); %p of 0 is "(nil)";
 * %l, %z and %p are x86_64's 64 bits on every host (trace-cmd's text on
 * x86_64, where a 32-bit host's libtraceevent would cut them);
 * a string ends at its first NUL; \n \t \r \\ \" in the fmt are turned.
 * A record that holds less than a field it reads, or a dynamic string
 * that does not end inside it, is not printed here (fastfmt_print says
 * -1): libtraceevent has rules of its own for those.
 */
#ifndef FASTFMT_H
#define FASTFMT_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>

struct fastfmt;

/* ev's compiled print fmt, or NULL when it is not plain (or no memory). */
struct fastfmt *fastfmt_compile(struct tep_event *ev);
void fastfmt_free(struct fastfmt *f);

/*
 * The text of the record at data (size bytes) into out (cap bytes, not
 * terminated): its length, or -1 when the record must be printed by
 * libtraceevent (too short, a string without its end, out too small).
 */
int fastfmt_print(const struct fastfmt *f, const uint8_t *data,
		  uint32_t size, char *out, size_t cap);

/* Test and debug switch: TDAT_NO_FASTFMT=1 in the environment turns the
 * compiled path off (every event through libtraceevent). */
int fastfmt_enabled(void);

#endif
