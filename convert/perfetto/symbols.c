/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbols.c - kernel function names for the addresses Perfetto shows
 * as functions (a workqueue's work function: its slices are named by
 * it).  The walk gathers the addresses the events hold, a set per
 * machine; at the end each machine's kallsyms are read once, a line at
 * a time, and the names of those addresses go into one interned_data
 * packet on the machine's sequence (trace_processor resolves them when
 * it parses, after the whole file is read: a later packet of the same
 * sequence serves every bundle before it; checked with tp v58.2).
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

enum { PKT_INTERNED_DATA = 12, ID_KERNEL_SYMBOLS = 26, KS_IID = 1,
       KS_STR = 2 };

#define MOST_SYMBOLS (1u << 20)	/* addresses kept a machine */

static size_t slot_of(const struct pf_syms *s, uint64_t a)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 32) & (s->cap - 1);
}

static int grow(struct pf_syms *s)
{
	struct pf_syms n = { 0 };
	size_t i;

	n.cap = s->cap ? s->cap * 2 : 64;
	n.addr = calloc(n.cap, sizeof(*n.addr));
	if (!n.addr)
		return -1;
	for (i = 0; i < s->cap; i++)
		if (s->addr[i])
			syms_add(&n, s->addr[i]);
	free(s->addr);
	*s = n;
	return 0;
}

int syms_add(struct pf_syms *s, uint64_t addr)
{
	size_t i;

	if (addr <= 1)
		return 0;	/* no function (1 marks a taken slot) */
	if (s->cap)
		for (i = slot_of(s, addr); s->addr[i]; i = (i + 1) & (s->cap - 1))
			if (s->addr[i] == addr)
				return 0;
	if (s->n >= MOST_SYMBOLS)
		return 0;	/* a crafted file: the rest stay addresses */
	if ((s->n + 1) * 2 > s->cap && grow(s))
		return -1;
	for (i = slot_of(s, addr); s->addr[i]; i = (i + 1) & (s->cap - 1))
		;
	s->addr[i] = addr;
	s->n++;
	return 0;
}

/* Take addr out of the set (its first name wins); 1 if it was in. */
static int take(struct pf_syms *s, uint64_t addr)
{
	size_t i;

	if (!s->cap || addr <= 1)
		return 0;
	for (i = slot_of(s, addr); s->addr[i]; i = (i + 1) & (s->cap - 1))
		if (s->addr[i] == addr) {
			s->addr[i] = 1;	/* a tombstone no address matches */
			return 1;
		}
	return 0;
}

/* "ADDRESS TYPE NAME [MODULE]": the address and the name's span. */
static int parse_line(const char *p, size_t n, uint64_t *addr,
		      size_t *name, size_t *len)
{
	size_t i = 0, k;
	uint64_t a = 0;
	int d;

	for (; i < n && i < 16; i++) {
		d = p[i] >= '0' && p[i] <= '9' ? p[i] - '0' :
		    p[i] >= 'a' && p[i] <= 'f' ? p[i] - 'a' + 10 :
		    p[i] >= 'A' && p[i] <= 'F' ? p[i] - 'A' + 10 : -1;
		if (d < 0)
			break;
		a = a << 4 | (uint64_t)d;
	}
	if (!i || i + 3 > n || p[i] != ' ' || p[i + 2] != ' ')
		return -1;
	for (k = i + 3; k < n && p[k] != ' ' && p[k] != '\t'; k++)
		;
	*addr = a;
	*name = i + 3;
	*len = k - (i + 3);
	return *len ? 0 : -1;
}

/* The names of set's addresses in f's kallsyms, as kernel_symbols. */
static int put_names(struct pb *b, struct pf_syms *set,
		     const struct tdat_file *f, struct tdat_error *err)
{
	const char *text, *nl;
	size_t len, n, at, nlen;
	char *moved;
	uint64_t a;

	if (!set->n || !tdat_meta_has(f, TDAT_META_KALLSYMS))
		return 0;
	/* kallsyms as the events' boot had them (a last boot's buffer) */
	if (tdat_event_kallsyms(f, &text, &len, &moved, err))
		return -1;
	for (; len; text += n, len -= n) {
		nl = memchr(text, '\n', len);
		n = nl ? (size_t)(nl - text) : len;
		if (!parse_line(text, n, &a, &at, &nlen) && take(set, a)) {
			struct pb_mark m = pb_open(b, ID_KERNEL_SYMBOLS, 1);

			pb_uint(b, KS_IID, a);
			pb_bytes(b, KS_STR, text + at, nlen);
			pb_close(b, m);
		}
		n += nl != NULL;
	}
	free(moved);
	return 0;
}

int meta_symbols(struct sink *s, const struct tdat_file *f,
		 struct pf_syms *set, uint32_t machine)
{
	struct pb b = { 0 };
	int r;

	if (!set->n)
		return 0;
	r = put_names(&b, set, f, &s->err);
	if (!r && pb_failed(&b))
		r = tdat_errorf(&s->err, "out of memory");
	else if (!r && b.len)
		r = sink_packet(s, PKT_INTERNED_DATA, b.data, b.len, machine);
	pb_free(&b);
	return r;
}

void syms_free(struct pf_syms *s)
{
	free(s->addr);
	memset(s, 0, sizeof(*s));
}
