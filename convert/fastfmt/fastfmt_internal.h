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
	FF_CHOICE,	/* %s of cond ? yes : no */
	FF_SYM,		/* %pS %ps (%pF %pf) of a number: a kernel symbol */
	FF_FLAGS,	/* %s of __print_flags(field, delim, table) */
	FF_SYMBOLIC,	/* %s of __print_symbolic(field, table) */
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
	uint32_t yes, yes_len;	/* FF_CHOICE's text when cond holds */
	uint32_t no, no_len;	/* when it does not */
	uint8_t ext;		/* FF_SYM: 'S' symbol+0xoffset, 's' symbol */
	uint8_t cond_size;	/* not 0: the op prints only when the number
				 * at cond_off has a bit of cond_mask, else
				 * the text no */
	uint32_t cond_off;
	uint64_t cond_mask;
	uint32_t tab, ntab;	/* FF_FLAGS, FF_SYMBOLIC: f->tab[tab..+ntab) */
	int expr;		/* FF_NUM, FF_PTR: 1 + the root node of the
				 * expression printed, or 0 (the field) */
	uint32_t delim, delim_len;	/* FF_FLAGS: between names */
};

struct ff_symcache;

/* A node of an expression (expr.c). */
enum ff_node_kind { FN_FIELD, FN_CONST, FN_ADD, FN_SUB, FN_EQ, FN_NE, FN_COND };

struct ff_node {
	uint8_t kind;
	uint8_t size;		/* FN_FIELD: bytes at off */
	uint32_t off;
	uint64_t k;		/* FN_CONST */
	int a, b, c;		/* operands: nodes (FN_COND: a ? b : c) */
};

/* A value of a __print_flags or __print_symbolic table and its name. */
struct ff_name {
	uint64_t value;
	uint32_t str, len;	/* in text */
};

struct fastfmt {
	int big;		/* the file's byte order */
	int nops;
	struct ff_op *ops;
	char *text;		/* literal text, escapes turned */
	uint32_t tail, tail_len;	/* text after the last conversion */
	uint32_t need;		/* bytes of the record the fields take */
	struct ff_name *tab;	/* the tables, one after another */
	uint32_t ntab;
	struct tep_handle *tep;	/* its kernel symbols, for FF_SYM */
	struct ff_symcache *syms;	/* symbols.c's recent lookups */
	struct ff_node *nodes;	/* expressions' */
	uint32_t nnodes;
	uint8_t site_size;	/* not 0: the kmem plugin's "(func+0xoff) " of
				 * the number at site_off comes first */
	uint32_t site_off;
};

/* compile.c's work in progress. */
struct ff_builder {
	struct fastfmt *f;
	struct tep_event *ev;
	size_t len, cap;	/* of f->text */
	int ops_cap;
	uint32_t tab_cap;
	int probe_op;		/* 1 + the op whose cond_mask probe.c finds */
	int probe_all;		/* an expression: probe.c checks the event */
};

/* Append n bytes to the program's text: 0, or -1 (no memory). */
int ff_text_add(struct ff_builder *b, const char *p, size_t n);
/* The record must hold off + size bytes for the program to print it. */
void ff_need(struct ff_builder *b, uint32_t off, uint32_t size);
/* args.c: what op prints of argument a: 0, or -1 when not plain. */
int ff_compile_arg(struct ff_builder *b, struct ff_op *op,
		   struct tep_print_arg *a);
/* args.c: a field of 1, 2, 4 or 8 bytes read as one number? */
int ff_is_number(const struct tep_format_field *f);
/* args.c: the number field of REC->name (or NULL). */
const struct tep_format_field *ff_number_field(struct ff_builder *b,
					       const struct tep_print_arg *a);
/* tables.c: %s of __print_flags or __print_symbolic: 0, or -1. */
int ff_compile_table(struct ff_builder *b, struct ff_op *op,
		     const struct tep_print_arg *a);
/* symbols.c: %pS of a number (a field, or one cast to a pointer). */
int ff_compile_symbol(struct ff_builder *b, struct ff_op *op,
		      const struct tep_print_arg *a);
/* symbols.c: the kmem plugin's prefix when ev has its handler: 0; -1
 * when ev has another handler (not compiled). */
int ff_compile_plugin(struct ff_builder *b);
/* expr.c: a number or %p of an expression: 0, or -1. */
int ff_compile_expr(struct ff_builder *b, struct ff_op *op,
		    const struct tep_print_arg *a);
/* expr.c: the value of node i for the record at data. */
uint64_t ff_eval(const struct fastfmt *f, int i, const uint8_t *data);
/* probe.c: the mask of the op probe_op names, and with probe_all the
 * whole event tried on libtraceevent: 0, or -1 (not compiled). */
int ff_probe(struct ff_builder *b);
/* run.c's output, and what the kinds of tables.c and symbols.c print. */
struct ff_out {
	char *p;
	size_t n, cap;
};
int ff_put(struct ff_out *o, const char *s, size_t n);
int ff_put_hex(struct ff_out *o, uint64_t v);	/* 0x and hex digits */
int ff_run_table(struct ff_out *o, const struct fastfmt *f,
		 const struct ff_op *op, uint64_t v);
int ff_run_symbol(struct ff_out *o, const struct fastfmt *f,
		  const struct ff_op *op, uint64_t v);
int ff_run_plugin(struct ff_out *o, const struct fastfmt *f,
		  const uint8_t *data);

#endif
