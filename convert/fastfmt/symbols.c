/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbols.c - kernel symbols in an event's text, as libtraceevent
 * prints them from the functions its handle holds (the file's
 * kallsyms): %pS and %pF of a number are "name+0xoffset", %ps and %pf
 * "name", and 0x and the hex of the number when no function holds it
 * (0 too).  The kmem plugin's events (kmalloc, kfree, kmem_cache_*)
 * start with "(name+0xoffset) " of their call_site, the offset cut to
 * 32 bits, and with nothing when no function holds it; the print fmt's
 * text follows.
 *
 * A lookup is two binary searches of the functions; call sites repeat,
 * so each program keeps its recent ones (a program is used by one
 * thread: report makes one per printer).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "convert/fastfmt/fastfmt_internal.h"
#include "libfmt/tracedat.h"

#define SYM_SLOTS 512		/* a power of two */

struct sym_slot {
	uint64_t addr;
	uint64_t start;		/* of the function holding addr */
	const char *name;	/* NULL: none holds it */
	uint32_t len;
	int used;
};

struct ff_symcache {
	struct sym_slot slot[SYM_SLOTS];
};

/* The function holding addr, through the cache. */
static const struct sym_slot *lookup(const struct fastfmt *f, uint64_t addr)
{
	struct sym_slot *s = &f->syms->slot[(addr ^ addr >> 9) &
					    (SYM_SLOTS - 1)];

	if (s->used && s->addr == addr)
		return s;
	s->addr = addr;
	s->used = 1;
	s->name = tep_find_function(f->tep, addr);
	s->len = s->name ? (uint32_t)strlen(s->name) : 0;
	s->start = s->name ? tep_find_function_address(f->tep, addr) : 0;
	return s;
}

static int use_symbols(struct ff_builder *b)
{
	b->f->tep = b->ev->tep;
	if (!b->f->syms)
		b->f->syms = calloc(1, sizeof(*b->f->syms));
	return b->f->syms ? 0 : -1;
}

/* Is h the handler of libtraceevent's kmem plugin?  Known by the
 * plugin's file: its handlers are not exported. */
static int kmem_plugin_handler(tep_event_handler_func h)
{
	const char *base;
	Dl_info info;

	if (!h || !dladdr((void *)h, &info) || !info.dli_fname)
		return 0;
	base = strrchr(info.dli_fname, '/');
	return !strcmp(base ? base + 1 : info.dli_fname, "plugin_kmem.so");
}

int ff_compile_plugin(struct ff_builder *b)
{
	const struct tep_format_field *f;

	if (!kmem_plugin_handler(b->ev->handler))
		return -1;
	f = tep_find_field(b->ev, "call_site");
	if (!ff_is_number(f))
		return -1;
	b->f->site_off = (uint32_t)f->offset;
	b->f->site_size = (uint8_t)f->size;
	ff_need(b, b->f->site_off, b->f->site_size);
	return use_symbols(b);
}

/* %pS of REC->field or of (type *)REC->field (a pointer cast leaves
 * the number as it is). */
int ff_compile_symbol(struct ff_builder *b, struct ff_op *op,
		      const struct tep_print_arg *a)
{
	const struct tep_format_field *f;
	size_t n;

	if (a && a->type == TEP_PRINT_TYPE) {
		n = a->typecast.type ? strlen(a->typecast.type) : 0;
		if (!n || a->typecast.type[n - 1] != '*')
			return -1;
		a = a->typecast.item;
	}
	f = ff_number_field(b, a);
	if (!f)
		return -1;
	op->kind = FF_SYM;
	op->off = (uint32_t)f->offset;
	op->size = (uint8_t)f->size;
	ff_need(b, op->off, op->size);
	return use_symbols(b);
}

int ff_run_symbol(struct ff_out *o, const struct fastfmt *f,
		  const struct ff_op *op, uint64_t v)
{
	const struct sym_slot *s = lookup(f, v);

	if (!s->name)
		return ff_put_hex(o, v);
	if (ff_put(o, s->name, s->len))
		return -1;
	if (op->ext != 'S')
		return 0;
	return ff_put(o, "+", 1) || ff_put_hex(o, v - s->start);
}

int ff_run_plugin(struct ff_out *o, const struct fastfmt *f,
		  const uint8_t *data)
{
	const struct sym_slot *s =
		lookup(f, tdat_load_n(f->big, data + f->site_off, f->site_size));

	if (!s->name)
		return 0;
	return ff_put(o, "(", 1) || ff_put(o, s->name, s->len) ||
	       ff_put(o, "+", 1) ||
	       ff_put_hex(o, (uint32_t)(s->addr - s->start)) ||
	       ff_put(o, ") ", 2);
}
