/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kbtf.c - the crashed kernel's types, from the BTF it carries
 * (__start_BTF..__stop_BTF, CONFIG_DEBUG_INFO_BTF), parsed by libbpf.
 * Every struct offset, bitfield and enum value the engine uses comes
 * from here: structures move between kernel versions (and between
 * builds of one), so no offset is ever a constant.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "convert/vmcore/vmcore_internal.h"

#define BTF_MAX (256u << 20)

struct kbtf {
	struct btf *btf;
};

/* libbpf prints its complaints unless told otherwise; the library
 * answers with values, so they go nowhere. */
static int quiet(enum libbpf_print_level level, const char *fmt,
		 va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

struct kbtf *kbtf_new(const void *raw, uint32_t size)
{
	struct kbtf *b = calloc(1, sizeof(*b));

	libbpf_set_print(quiet);
	if (b)
		b->btf = btf__new(raw, size);
	if (b && !b->btf) {
		free(b);
		b = NULL;
	}
	return b;
}

struct kbtf *kbtf_load(struct kmem *m, uint64_t start, uint64_t stop,
		       struct tdat_error *err)
{
	struct kbtf *b;
	uint8_t *raw;

	if (stop <= start || stop - start > BTF_MAX) {
		kmem_fail(m, start, err, "__start_BTF..__stop_BTF: %llu bytes"
			  " (a kernel built without CONFIG_DEBUG_INFO_BTF?)",
			  (unsigned long long)(stop - start));
		return NULL;
	}
	raw = kmem_obj(m, start, (uint32_t)(stop - start), "the kernel's BTF",
		       err);
	if (!raw)
		return NULL;
	b = kbtf_new(raw, (uint32_t)(stop - start));
	free(raw);
	if (!b) {
		kmem_fail(m, start, err, "the kernel's BTF: libbpf cannot"
			  " read it");
		return NULL;
	}
	return b;
}

void kbtf_free(struct kbtf *b)
{
	if (!b)
		return;
	btf__free(b->btf);
	free(b);
}

/* The type under typedefs, const and volatile. */
static const struct btf_type *bare(const struct btf *btf, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);
	int hops = 0;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)) && hops++ < 32) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

static int32_t struct_id(const struct btf *btf, const char *type)
{
	int32_t id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);

	return id > 0 ? id : btf__find_by_name_kind(btf, type, BTF_KIND_UNION);
}

/* Member name of composite type id, searched through anonymous members
 * (depth bounded); *f gets its place relative to id's start, *mid its
 * type.  0, or -1 when there is none. */
static int member(const struct btf *btf, uint32_t id, const char *name,
		  size_t nlen, struct kfield *f, uint32_t *mid, int depth)
{
	const struct btf_type *t = bare(btf, &id);
	const struct btf_member *mb;
	struct kfield sub;
	uint32_t i, bit, sid;
	const char *mn;

	if (!t || !btf_is_composite(t) || depth > 8)
		return -1;
	mb = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++) {
		mn = btf__name_by_offset(btf, mb[i].name_off);
		bit = btf_member_bit_offset(t, i);
		if (mn && mn[0] && strlen(mn) == nlen && !memcmp(mn, name, nlen)) {
			f->off = bit / 8;
			f->bits = btf_member_bitfield_size(t, i);
			f->bit = f->bits ? bit % 8 : 0;
			f->size = (uint32_t)btf__resolve_size(btf, mb[i].type);
			*mid = mb[i].type;
			return 0;
		}
		if ((!mn || !mn[0]) &&
		    !member(btf, mb[i].type, name, nlen, &sub, &sid, depth + 1)) {
			*f = sub;
			f->off += bit / 8;
			*mid = sid;
			return 0;
		}
	}
	return -1;
}

/* path ("a.b") in struct type: 0, or -1 when a part is missing. */
static int find(const struct kbtf *b, const char *type, const char *path,
		struct kfield *f)
{
	int32_t id = struct_id(b->btf, type);
	uint32_t at = 0, mid = (uint32_t)id;
	const char *dot;
	size_t n;

	if (id <= 0)
		return -1;
	for (;;) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (member(b->btf, mid, path, n, f, &mid, 0))
			return -1;
		f->off += at;
		if (!dot)
			return 0;
		at = f->off;
		path = dot + 1;
	}
}

int kbtf_field(const struct kbtf *b, const struct kmem *m, const char *type,
	       const char *path, struct kfield *f, struct tdat_error *err)
{
	if (!find(b, type, path, f) && f->size <= 8 * 1024 * 1024)
		return 0;
	return kmem_failn(m, err, "the kernel's BTF has no %s.%s", type, path);
}

int kbtf_has(const struct kbtf *b, const char *type, const char *path)
{
	struct kfield f;

	return !find(b, type, path, &f);
}

int kbtf_size(const struct kbtf *b, const struct kmem *m, const char *type,
	      uint32_t *size, struct tdat_error *err)
{
	int32_t id = struct_id(b->btf, type);
	int64_t n = id > 0 ? btf__resolve_size(b->btf, (uint32_t)id) : -1;

	if (n <= 0 || n > 1024 * 1024)
		return kmem_failn(m, err, "the kernel's BTF has no struct %s",
				  type);
	*size = (uint32_t)n;
	return 0;
}

/* Enumerator name among type t's: 0 with *v, or -1. */
static int enumerator(const struct btf *btf, const struct btf_type *t,
		      const char *name, int64_t *v)
{
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		if (btf_is_enum(t) &&
		    !strcmp(btf__name_by_offset(btf, btf_enum(t)[i].name_off),
			    name)) {
			*v = btf_enum(t)[i].val;
			return 0;
		}
		if (btf_is_enum64(t) &&
		    !strcmp(btf__name_by_offset(btf,
						btf_enum64(t)[i].name_off),
			    name)) {
			*v = (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
			return 0;
		}
	}
	return -1;
}

int kbtf_enum(const struct kbtf *b, const struct kmem *m, const char *name,
	      int64_t *v, struct tdat_error *err)
{
	uint32_t id, n = btf__type_cnt(b->btf);
	const struct btf_type *t;

	for (id = 1; id < n; id++) {
		t = btf__type_by_id(b->btf, id);
		if (t && (btf_is_enum(t) || btf_is_enum64(t)) &&
		    !enumerator(b->btf, t, name, v))
			return 0;
	}
	return kmem_failn(m, err, "the kernel's BTF has no enumerator %s",
			  name);
}

int kbtf_char_signed(const struct kbtf *b)
{
	int32_t id = btf__find_by_name_kind(b->btf, "char", BTF_KIND_INT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b->btf, (uint32_t)id)
					  : NULL;

	return t && (btf_int_encoding(t) & BTF_INT_SIGNED) ? 1 : 0;
}

uint64_t kfield_get(const struct kmem *m, const uint8_t *obj,
		    const struct kfield *f)
{
	uint64_t v;

	if (!f->bits)
		return kmem_load(m, obj + f->off, f->size <= 8 ? (int)f->size : 8);
	/* obj has 8 readable bytes past its end (kmem_obj) */
	v = tdat_load64(m->big, obj + f->off);
	if (m->big)
		v >>= 64 - f->bit - f->bits;
	else
		v >>= f->bit;
	return f->bits >= 64 ? v : v & ((1ull << f->bits) - 1);
}
