/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fastfmt_internal.h - the compiled program (compile.c makes it, run.c
 * runs it). */
#ifndef FASTFMT_INTERNAL_H
#define FASTFMT_INTERNAL_H

#include <stdint.h>
#include "convert/fastfmt/fastfmt.h"

enum ff_kind {
	FF_NUM,		/* a number field (or array element) */
	FF_PTR,		/* %p of a number field */
	FF_STR_FIXED,	/* %s of a char array */
	FF_STR_DYN,	/* %s of __get_str: off/size is the data loc */
	FF_CHOICE,	/* %s of field ? yes : no */
};

#define FF_LEFT 1	/* '-' */
#define FF_ZERO 2	/* '0' */
#define FF_ALT 4	/* '#' */

struct ff_op {
	uint32_t lit, lit_len;	/* text before the conversion, in text */
	uint8_t kind;
	char conv;		/* d i u x X p s */
	uint8_t bits;		/* the conversion's C type: 8 16 32 64 */
	uint8_t flags;		/* FF_* */
	uint8_t width;
	uint8_t size;		/* bytes read at off: 1 2 4 8 (FF_STR_FIXED:
				 * unused) */
	uint32_t off;		/* in the record */
	uint32_t len;		/* FF_STR_FIXED: the array's bytes */
	uint32_t yes, yes_len, no, no_len;	/* FF_CHOICE's texts */
};

struct fastfmt {
	int big;		/* the file's byte order */
	int nops;
	struct ff_op *ops;
	char *text;		/* literal text, escapes turned */
	uint32_t tail, tail_len;	/* text after the last conversion */
	uint32_t need;		/* bytes of the record the fields take */
};

/* compile.c's work in progress. */
struct ff_builder {
	struct fastfmt *f;
	struct tep_event *ev;
	size_t len, cap;	/* of f->text */
	int ops_cap;
};

/* Append n bytes to the program's text: 0, or -1 (no memory). */
int ff_text_add(struct ff_builder *b, const char *p, size_t n);
/* args.c: what op prints of argument a: 0, or -1 when not plain. */
int ff_compile_arg(struct ff_builder *b, struct ff_op *op,
		   struct tep_print_arg *a);

#endif
