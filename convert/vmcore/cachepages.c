/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cachepages.c - the pages the crashed kernel's page cache held of a
 * file (pagecache.c found it): its mapping's xarray walked from
 * xa_head, each folio's struct page turned into its page frame and the
 * frame into the address of its bytes in the direct map.  Shadow and
 * swap entries (values) and the xarray's own internal ones hold no page.
 */
#include <stdlib.h>
#include "convert/vmcore/vmcore_internal.h"

/* An xarray entry: a node, a sibling of slot v, or a plain pointer. */
#define XA_INTERNAL(e) (((e) & 3) == 2)
#define XA_NODE(e) (XA_INTERNAL(e) && (e) > 4096)
#define XA_VALUE(e) ((e) & 1)

struct walk {
	struct kcache *c;
	const struct kcache_file *f;
	uint64_t npages;	/* indexes past i_size are not asked for */
	unsigned chunk;		/* log2(slots per node) */
	kcache_page_fn fn;
	void *ctx;
};

/* The folio at folio holds file index canon on; give fn each of the
 * indexes first .. first + count - 1 (those under npages). */
static int emit(struct walk *w, uint64_t folio, uint64_t canon,
		uint64_t first, uint64_t count, struct tdat_error *err)
{
	struct kcache *c = w->c;
	struct kmem *m = &c->k->mem;
	uint64_t pfn, mapping, i;

	if (first >= w->npages)
		return 0;
	if (folio < c->vmemmap || (folio - c->vmemmap) % c->page_struct ||
	    (pfn = (folio - c->vmemmap) / c->page_struct) >> 40)
		return kmem_fail(m, folio, err, "file index %llu: no struct"
				 " page (vmemmap at 0x%llx)",
				 (unsigned long long)first,
				 (unsigned long long)c->vmemmap);
	if (kmem_field(m, folio, &c->pg_mapping, &mapping, "page.mapping",
		       err))
		return -1;
	if (mapping != w->f->mapping)
		return kmem_fail(m, folio, err, "file index %llu: a page of"
				 " mapping 0x%llx, not the file's 0x%llx",
				 (unsigned long long)first,
				 (unsigned long long)mapping,
				 (unsigned long long)w->f->mapping);
	for (i = first; i - first < count && i < w->npages; i++)
		if (w->fn(w->ctx, i, c->direct + (pfn + i - canon) *
			  m->page_size, err))
			return -1;
	return 0;
}

static int node(struct walk *w, uint64_t at, uint64_t base, int parent,
		struct tdat_error *err);

/* Slot j of a node (its slots in s, base, shift). */
static int slot(struct walk *w, const uint64_t *s, uint32_t j, uint64_t base,
		unsigned shift, struct tdat_error *err)
{
	uint64_t e = s[j], first = base + ((uint64_t)j << shift), v;

	if (!e || XA_VALUE(e))
		return 0;
	if (XA_NODE(e))
		return shift ? node(w, e - 2, first, (int)shift, err)
			     : kmem_fail(&w->c->k->mem, e - 2, err, "xa_node"
					 ": a node below a leaf");
	if (!XA_INTERNAL(e))
		return emit(w, e, first, first, 1ull << shift, err);
	v = e >> 2;
	if (v >= j || !s[v] || XA_INTERNAL(s[v]) || XA_VALUE(s[v]))
		return 0;	/* retry and zero entries: no page */
	return emit(w, s[v], base + (v << shift), first, 1ull << shift, err);
}

/* The node at at, its indexes from base; parent: its parent's shift,
 * or -1 for the root. */
static int node(struct walk *w, uint64_t at, uint64_t base, int parent,
		struct tdat_error *err)
{
	struct kcache *c = w->c;
	struct kmem *m = &c->k->mem;
	uint64_t shift, *s;
	uint8_t *raw;
	uint32_t j, n = c->nslots;
	int r = 0;

	if (kmem_field(m, at, &c->xa_shift, &shift, "xa_node.shift", err))
		return -1;
	if (shift % w->chunk || shift > 63 ||
	    (parent >= 0 && shift + w->chunk != (uint64_t)parent))
		return kmem_fail(m, at, err, "xa_node: shift %llu under %d"
				 " (a damaged xarray)",
				 (unsigned long long)shift, parent);
	s = malloc((size_t)n * sizeof(*s));
	raw = malloc((size_t)n * (size_t)m->ptr_size);
	/* the slots in one read, each then in the kernel's order and size */
	if (!s || !raw)
		r = tdat_errorf(err, "out of memory");
	else
		r = kmem_read(m, at + c->xa_slots.off, raw,
			      (size_t)n * (size_t)m->ptr_size, "xa_node.slots",
			      err);
	for (j = 0; j < n && !r; j++)
		s[j] = kmem_load(m, raw + (size_t)j * (size_t)m->ptr_size,
				 m->ptr_size);
	free(raw);
	for (j = 0; j < n && !r; j++) {
		if (shift < 64 && j && (uint64_t)j > (~0ull - base) >> shift)
			break;
		if (base + ((uint64_t)j << shift) >= w->npages)
			break;
		r = slot(w, s, j, base, (unsigned)shift, err);
	}
	free(s);
	return r;
}

int kcache_pages(struct kcache *c, const struct kcache_file *f,
		 kcache_page_fn fn, void *ctx, struct tdat_error *err)
{
	struct walk w = { c, f, 0, 0, fn, ctx };
	uint64_t e = f->xa_head, ps = c->k->mem.page_size;

	if (!ps || ps & (ps - 1))
		return kmem_failn(&c->k->mem, err, "PAGESIZE %llu",
				  (unsigned long long)ps);
	w.npages = f->size / ps + (f->size % ps != 0);
	while ((1u << w.chunk) < c->nslots)
		w.chunk++;
	if ((1u << w.chunk) != c->nslots)
		return kmem_failn(&c->k->mem, err, "xa_node: %u slots, not a"
				  " power of 2", c->nslots);
	if (!e || XA_VALUE(e) || !w.npages)
		return 0;
	if (XA_NODE(e))
		return node(&w, e - 2, 0, -1, err);
	if (XA_INTERNAL(e))
		return 0;
	return emit(&w, e, 0, 0, 1, err);
}
