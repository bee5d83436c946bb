/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kallsyms.c - the crashed kernel's symbol table, decoded from its
 * kallsyms tables (VMCOREINFO names them since Linux 6.0), so that no
 * vmlinux is needed.
 *
 * kallsyms_names holds one entry per symbol: a length (one byte, or two
 * when the first has its top bit set: Linux 6.1+), then that many token
 * numbers; token_table holds 256 NUL-terminated tokens and token_index
 * where each begins.  The first character of the expansion is the
 * type.  Addresses are absolute (kallsyms_addresses), or 32-bit offsets
 * (kallsyms_offsets) that kernels have read three ways: from
 * kallsyms_relative_base, the same with negative ones absolute
 * (per-CPU symbols), or from the offset's own place.  The way whose
 * _stext is VMCOREINFO's is the kernel's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

#define KSYM_NAME_MAX 512
#define KSYMS_MAX (8u << 20)
#define NAMES_CHUNK 65536

struct tokens {
	char text[256][KSYM_NAME_MAX];
	uint16_t len[256];
};

struct names_reader {
	struct kmem *m;
	uint64_t addr;		/* kallsyms_names */
	uint64_t pos;		/* next byte's offset */
	uint8_t buf[NAMES_CHUNK];
	uint64_t have_at;	/* offset of buf[0] */
	size_t have;
};

static int names_byte(struct names_reader *r, uint8_t *b,
		      struct tdat_error *err)
{
	if (r->pos < r->have_at || r->pos >= r->have_at + r->have) {
		r->have_at = r->pos;
		r->have = NAMES_CHUNK - (size_t)((r->addr + r->pos) % 4096);
		/* the table may end where readable memory ends: then only
		 * the rest of this page */
		if (kmem_read(r->m, r->addr + r->pos, r->buf, r->have,
			      "kallsyms_names", NULL)) {
			r->have = 4096 - (size_t)((r->addr + r->pos) % 4096);
			if (kmem_read(r->m, r->addr + r->pos, r->buf, r->have,
				      "kallsyms_names", err))
				return -1;
		}
	}
	*b = r->buf[r->pos++ - r->have_at];
	return 0;
}

static int load_tokens(struct kmem *m, struct tokens *t,
		       struct tdat_error *err)
{
	uint64_t table, index;
	uint8_t idx[512], *text;
	uint32_t at[256], span = 0;
	int i;

	if (kmem_info_hex(m, "SYMBOL(kallsyms_token_table)", &table) ||
	    kmem_info_hex(m, "SYMBOL(kallsyms_token_index)", &index))
		return kmem_failn(m, err, "VMCOREINFO names no kallsyms"
				  " tables (a kernel older than 6.0, or one"
				  " built without CONFIG_KALLSYMS)");
	if (kmem_read(m, index, idx, sizeof(idx), "kallsyms_token_index", err))
		return -1;
	for (i = 0; i < 256; i++) {
		at[i] = (uint32_t)kmem_load(m, idx + 2 * i, 2);
		if (at[i] > span)
			span = at[i];
	}
	span += KSYM_NAME_MAX;
	text = kmem_obj(m, table, span, "kallsyms_token_table", err);
	if (!text)
		return -1;
	for (i = 0; i < 256; i++) {
		size_t n = strnlen((char *)text + at[i], span - at[i]);

		if (n >= KSYM_NAME_MAX) {
			free(text);
			return kmem_fail(m, table + at[i], err,
					 "kallsyms token %d: no end", i);
		}
		memcpy(t->text[i], text + at[i], n);
		t->len[i] = (uint16_t)n;
	}
	free(text);
	return 0;
}

/* One entry's expansion into out (KSYM_NAME_MAX + 1 bytes). */
static int one_name(struct names_reader *r, const struct tokens *t,
		    char *out, size_t *len, struct tdat_error *err)
{
	uint8_t b, b2, tok;
	unsigned n, i;

	if (names_byte(r, &b, err))
		return -1;
	n = b;
	if (b & 0x80) {
		if (names_byte(r, &b2, err))
			return -1;
		n = (b & 0x7fu) | (unsigned)b2 << 7;
	}
	*len = 0;
	for (i = 0; i < n; i++) {
		if (names_byte(r, &tok, err))
			return -1;
		if (*len + t->len[tok] > KSYM_NAME_MAX)
			return kmem_fail(r->m, r->addr + r->pos, err,
					 "kallsyms_names: a name longer"
					 " than %d bytes", KSYM_NAME_MAX);
		memcpy(out + *len, t->text[tok], t->len[tok]);
		*len += t->len[tok];
	}
	out[*len] = 0;
	if (!*len)
		return kmem_fail(r->m, r->addr + r->pos, err,
				 "kallsyms_names: an empty entry");
	return 0;
}

static int add_name(struct ksymtab *s, uint32_t i, const char *name,
		    size_t len, struct tdat_bytes *names)
{
	s->v[i].type = name[0];
	s->v[i].name = (uint32_t)names->len;
	return tdat_bytes_add(names, name + 1, len);	/* with its NUL */
}

static int load_names(struct kmem *m, struct ksymtab *s, struct tdat_error *err)
{
	struct names_reader *r = calloc(1, sizeof(*r));
	struct tokens *t = malloc(sizeof(*t));
	struct tdat_bytes names = { 0 };
	char name[KSYM_NAME_MAX + 1];
	size_t len;
	uint32_t i;
	int ret = -1;

	if (!r || !t) {
		tdat_errorf(err, "out of memory");
		goto out;
	}
	r->m = m;
	if (kmem_info_hex(m, "SYMBOL(kallsyms_names)", &r->addr)) {
		kmem_failn(m, err, "VMCOREINFO has no SYMBOL(kallsyms_names)");
		goto out;
	}
	if (load_tokens(m, t, err))
		goto out;
	for (i = 0; i < s->n; i++) {
		if (one_name(r, t, name, &len, err))
			goto out;
		if (add_name(s, i, name, len, &names)) {
			tdat_errorf(err, "out of memory");
			goto out;
		}
	}
	s->names = (char *)names.data;
	s->names_len = names.len;
	names.data = NULL;
	ret = 0;
out:
	tdat_bytes_free(&names);
	free(r);
	free(t);
	return ret;
}

enum way { ABSOLUTE, RELATIVE, PERCPU, PLACE, NWAYS };

static uint64_t address(enum way w, uint64_t base, uint64_t place,
			int32_t off, int ptr_size)
{
	uint64_t a = 0;

	switch (w) {
	case RELATIVE: a = base + (uint32_t)off; break;
	case PERCPU: a = off >= 0 ? (uint64_t)off : base - 1 - (int64_t)off;
		break;
	case PLACE: a = place + (uint64_t)(int64_t)off; break;
	default: break;
	}
	return ptr_size == 4 ? (uint32_t)a : a;
}

/* The offsets, read the way that puts _stext (symbol at) where
 * VMCOREINFO says. */
static int load_offsets(struct kmem *m, struct ksymtab *s, uint32_t at,
			struct tdat_error *err)
{
	uint64_t offs, base = 0, stext;
	uint8_t *raw;
	uint32_t i;
	int w;

	if (kmem_info_hex(m, "SYMBOL(kallsyms_offsets)", &offs) ||
	    kmem_info_hex(m, "SYMBOL(_stext)", &stext))
		return kmem_failn(m, err, "VMCOREINFO has neither"
				  " kallsyms_addresses nor kallsyms_offsets"
				  " and _stext");
	if (!kmem_info_hex(m, "SYMBOL(kallsyms_relative_base)", &base) &&
	    kmem_ptr(m, base, &base, "kallsyms_relative_base", err))
		return -1;
	raw = kmem_obj(m, offs, s->n * 4, "kallsyms_offsets", err);
	if (!raw)
		return -1;
	for (w = RELATIVE; w < NWAYS; w++)
		if (at < s->n &&
		    address(w, base, offs + 4ull * at,
			    (int32_t)kmem_load(m, raw + 4 * at, 4),
			    m->ptr_size) == stext)
			break;
	if (w == NWAYS) {
		free(raw);
		return kmem_fail(m, offs, err, "kallsyms_offsets: no reading"
				 " of them puts _stext at 0x%llx",
				 (unsigned long long)stext);
	}
	for (i = 0; i < s->n; i++)
		s->v[i].addr = address(w, base, offs + 4ull * i,
				       (int32_t)kmem_load(m, raw + 4 * i, 4),
				       m->ptr_size);
	free(raw);
	return 0;
}

static int load_addresses(struct kmem *m, struct ksymtab *s, uint64_t addrs,
			  struct tdat_error *err)
{
	uint8_t *raw = kmem_obj(m, addrs, s->n * (uint32_t)m->ptr_size,
				"kallsyms_addresses", err);
	uint32_t i;

	if (!raw)
		return -1;
	for (i = 0; i < s->n; i++)
		s->v[i].addr = kmem_load(m, raw + i * m->ptr_size, m->ptr_size);
	free(raw);
	return 0;
}

int ksymtab_load(struct kmem *m, struct ksymtab *s, struct tdat_error *err)
{
	uint64_t num, addrs;
	uint32_t stext = UINT32_MAX, i;

	memset(s, 0, sizeof(*s));
	if (kmem_info_hex(m, "SYMBOL(kallsyms_num_syms)", &num))
		return kmem_failn(m, err, "VMCOREINFO names no kallsyms"
				  " tables (a kernel older than 6.0, or one"
				  " built without CONFIG_KALLSYMS)");
	if (kmem_u32(m, num, &s->n, "kallsyms_num_syms", err))
		return -1;
	if (!s->n || s->n > KSYMS_MAX)
		return kmem_fail(m, num, err, "kallsyms_num_syms: %u symbols",
				 s->n);
	s->v = calloc(s->n, sizeof(*s->v));
	if (!s->v)
		return tdat_errorf(err, "out of memory");
	if (load_names(m, s, err))
		goto fail;
	for (i = 0; i < s->n && stext == UINT32_MAX; i++)
		if (!strcmp(s->names + s->v[i].name, "_stext"))
			stext = i;
	if (!kmem_info_hex(m, "SYMBOL(kallsyms_addresses)", &addrs) ?
	    load_addresses(m, s, addrs, err) : load_offsets(m, s, stext, err))
		goto fail;
	return 0;
fail:
	ksymtab_free(s);
	return -1;
}

void ksymtab_free(struct ksymtab *s)
{
	free(s->v);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

int ksymtab_find(const struct ksymtab *s, const char *name, uint64_t *addr)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->names + s->v[i].name, name)) {
			*addr = s->v[i].addr;
			return 0;
		}
	return -1;
}

int ksymtab_need(const struct ksymtab *s, const struct kmem *m,
	       const char *name, uint64_t *addr, struct tdat_error *err)
{
	if (!ksymtab_find(s, name, addr))
		return 0;
	return kmem_failn(m, err, "the kernel's kallsyms have no %s (a"
			  " kernel built without CONFIG_KALLSYMS_ALL keeps"
			  " no data symbols)", name);
}

uint64_t ksymtab_end(const struct ksymtab *s, uint64_t addr)
{
	uint64_t best = 0;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].addr > addr && (!best || s->v[i].addr < best))
			best = s->v[i].addr;
	return best;
}

int ksymtab_text(const struct ksymtab *s, int ptr_size, struct tdat_bytes *out)
{
	char line[KSYM_NAME_MAX + 40];
	uint32_t i;
	int n;

	for (i = 0; i < s->n; i++) {
		n = snprintf(line, sizeof(line), "%0*llx %c %s\n",
			     ptr_size * 2, (unsigned long long)s->v[i].addr, s->v[i].type,
			     s->names + s->v[i].name);
		if (tdat_bytes_add(out, line, (size_t)n))
			return -1;
	}
	return 0;
}
