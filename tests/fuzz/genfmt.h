/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * genfmt.h - print fmts made up for a format's fields, for the fuzz
 * targets: __print_array, __print_hex and __print_hex_str over its
 * fields, static and dynamic, with counts and element sizes of every
 * kind libtraceevent takes (a field, an expression on fields, a dynamic
 * array's length, a number, a bad size), and a few array arguments that
 * are not fields.  The record's bytes (the fuzzer's) make the counts.
 */
#ifndef TESTS_FUZZ_GENFMT_H
#define TESTS_FUZZ_GENFMT_H

#include <stddef.h>

/*
 * text (len bytes, a format) with its print fmt line replaced by one of
 * helpers chosen by seed and the text: a malloc'd copy (its length in
 * *out_len), or NULL when the text names no field or out of memory.
 */
char *genfmt_helpers(const char *text, size_t len, unsigned seed,
		     size_t *out_len);

#endif
