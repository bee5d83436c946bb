/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ringbuf.c - one CPU's ring buffer in the crashed kernel's memory, read
 * as the kernel's own non-consuming iterator reads it (the tracefs
 * "trace" file): the reader page from where reading stopped, then the
 * ring from the head page through the commit page, each page up to its
 * commit.  The head page is the one whose list pointer from its
 * predecessor carries a flag in its low bits.  Every walk is bounded by
 * the CPU's page count (itself bounded), so a looping or broken list is
 * an error, never a hang.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

/* More pages than this on one CPU (16 GiB of 4 KiB pages) is corrupt. */
#define RING_PAGES_MAX (4u << 20)
#define LIST_FLAGS 3ull	/* RB_PAGE_HEAD | RB_PAGE_UPDATE */

struct rb_layout {
	uint32_t cpu_size, bpage_size;
	struct kfield buffers;			/* trace_buffer */
	struct kfield head, commit, reader, nr_pages;	/* per-CPU */
	struct kfield list, page, read;		/* buffer_page */
};

static int rb_layout(struct kernel *k, struct rb_layout *l,
		     struct tdat_error *err)
{
	const struct kbtf *b = k->btf;
	struct kmem *m = &k->mem;
	const char *cpu = "ring_buffer_per_cpu", *bp = "buffer_page";

	return kbtf_field(b, m, "trace_buffer", "buffers", &l->buffers, err) ||
	       kbtf_size(b, m, cpu, &l->cpu_size, err) ||
	       kbtf_field(b, m, cpu, "head_page", &l->head, err) ||
	       kbtf_field(b, m, cpu, "commit_page", &l->commit, err) ||
	       kbtf_field(b, m, cpu, "reader_page", &l->reader, err) ||
	       kbtf_field(b, m, cpu, "nr_pages", &l->nr_pages, err) ||
	       kbtf_size(b, m, bp, &l->bpage_size, err) ||
	       kbtf_field(b, m, bp, "list", &l->list, err) ||
	       kbtf_field(b, m, bp, "page", &l->page, err) ||
	       kbtf_field(b, m, bp, "read", &l->read, err) ? -1 : 0;
}

int kring_layout(struct kernel *k, uint64_t buffer, struct kring *r,
		 struct tdat_error *err)
{
	struct kfield commit, data, order;
	uint32_t size;
	uint8_t *obj;
	uint64_t o = 0;

	if (kbtf_field(k->btf, &k->mem, "buffer_data_page", "commit", &commit,
		       err) ||
	    kbtf_field(k->btf, &k->mem, "buffer_data_page", "data", &data, err))
		return -1;
	/* Linux 6.8+: sub-buffers of PAGE_SIZE << subbuf_order */
	if (kbtf_has(k->btf, "trace_buffer", "subbuf_order")) {
		if (kbtf_size(k->btf, &k->mem, "trace_buffer", &size, err) ||
		    kbtf_field(k->btf, &k->mem, "trace_buffer", "subbuf_order",
			       &order, err))
			return -1;
		obj = kmem_obj(&k->mem, buffer, size, "trace_buffer", err);
		if (!obj)
			return -1;
		o = kfield_get(&k->mem, obj, &order);
		free(obj);
		if (o > 8)
			return kmem_fail(&k->mem, buffer, err, "trace_buffer."
					 "subbuf_order: %llu",
					 (unsigned long long)o);
	}
	r->page_size = k->mem.page_size << o;
	r->data_off = data.off;
	r->commit_off = commit.off;
	r->commit_size = commit.size;
	if (r->data_off >= r->page_size || (r->commit_size != 4 &&
					    r->commit_size != 8))
		return kmem_failn(&k->mem, err, "buffer_data_page: data at %u,"
				  " commit of %u bytes", r->data_off,
				  r->commit_size);
	return 0;
}

/* The ring walk's state for one CPU. */
struct walk {
	struct kernel *k;
	const struct rb_layout *l;
	const struct kring *r;
	uint8_t *page;		/* one sub-buffer */
	uint64_t nr_pages;
	struct kring_stats *st;
};

/* buffer_page bp's next in the ring (flags off) and the flags. */
static int next_page(struct walk *w, uint64_t bp, uint64_t *next,
		     uint64_t *flags, struct tdat_error *err)
{
	uint64_t raw;

	if (kmem_ptr(&w->k->mem, bp + w->l->list.off, &raw, "buffer_page.list",
		     err))
		return -1;
	*flags = raw & LIST_FLAGS;
	*next = (raw & ~LIST_FLAGS) - w->l->list.off;
	return 0;
}

/* The head page: found from any ring page within nr_pages steps. */
static int find_head(struct walk *w, uint64_t from, uint64_t *head,
		     struct tdat_error *err)
{
	uint64_t bp = from, next, flags, i;

	for (i = 0; i <= w->nr_pages; i++) {
		if (next_page(w, bp, &next, &flags, err))
			return -1;
		if (flags) {
			*head = next;
			return 0;
		}
		bp = next;
	}
	return kmem_fail(&w->k->mem, from, err, "ring buffer: no head page"
			 " among %llu pages", (unsigned long long)w->nr_pages);
}

/* Page bp's sub-buffer to fn, from byte skip of its data, unless empty
 * (inside: a page before the commit page, never empty in a ring). */
static int emit(struct walk *w, uint64_t bp, uint32_t skip, int inside,
		kring_page_fn fn, void *ctx, struct tdat_error *err)
{
	uint64_t data, commit;

	if (kmem_ptr(&w->k->mem, bp + w->l->page.off, &data, "buffer_page.page",
		     err) ||
	    kmem_read(&w->k->mem, data, w->page, w->r->page_size,
		      "ring-buffer page", err))
		return -1;
	commit = kmem_load(&w->k->mem, w->page + w->r->commit_off,
			   (int)w->r->commit_size);
	if (commit > w->r->page_size - w->r->data_off)
		return kmem_fail(&w->k->mem, data, err, "ring-buffer page:"
				 " commit %llu beyond its %u bytes",
				 (unsigned long long)commit,
				 w->r->page_size - w->r->data_off);
	if (!commit && inside)
		w->st->hollow++;
	if (!commit || skip >= commit)
		return 0;
	return fn(ctx, w->page, skip, err);
}

static int walk_ring(struct walk *w, const uint8_t *cpu, kring_page_fn fn,
		     void *ctx, struct tdat_error *err)
{
	const struct rb_layout *l = w->l;
	struct kmem *m = &w->k->mem;
	uint64_t reader = kfield_get(m, cpu, &l->reader);
	uint64_t commit = kfield_get(m, cpu, &l->commit);
	uint64_t bp = 0, head, flags, i;
	uint32_t read;

	if (kmem_u32(m, reader + l->read.off, &read, "buffer_page.read", err) ||
	    emit(w, reader, read, 0, fn, ctx, err))
		return -1;
	if (reader == commit)
		return 0;
	if (find_head(w, kfield_get(m, cpu, &l->head), &bp, err))
		return -1;
	for (i = 0, head = bp; i <= w->nr_pages; i++) {
		if (emit(w, bp, 0, bp != commit, fn, ctx, err))
			return -1;
		if (bp == commit)
			return 0;
		if (next_page(w, bp, &bp, &flags, err))
			return -1;
		if (bp == head)	/* round the ring: no commit page in it */
			break;
	}
	return kmem_fail(m, commit, err, "ring buffer: the commit page is not"
			 " in the ring after the head (%llu pages)",
			 (unsigned long long)w->nr_pages);
}

int kring_pages(struct kernel *k, uint64_t buffer, int cpu,
		const struct kring *r, kring_page_fn fn, void *ctx,
		struct kring_stats *st, struct tdat_error *err)
{
	struct rb_layout l;
	struct walk w = { k, &l, r, NULL, 0, st };
	uint64_t buffers, per_cpu;
	uint8_t *obj;
	int ret;

	st->none = 0;
	st->hollow = 0;
	if (rb_layout(k, &l, err) ||
	    kmem_ptr(&k->mem, buffer + l.buffers.off, &buffers,
		     "trace_buffer.buffers", err) ||
	    kmem_ptr(&k->mem, buffers + (uint64_t)cpu * (uint64_t)k->mem.ptr_size,
		     &per_cpu, "trace_buffer.buffers[cpu]", err))
		return -1;
	if (!per_cpu) {
		st->none = 1;
		return 0;
	}
	obj = kmem_obj(&k->mem, per_cpu, l.cpu_size, "ring_buffer_per_cpu", err);
	if (!obj)
		return -1;
	w.nr_pages = kfield_get(&k->mem, obj, &l.nr_pages);
	w.page = malloc(r->page_size);
	if (w.nr_pages > RING_PAGES_MAX || !w.page)
		ret = w.page ? kmem_fail(&k->mem, per_cpu, err,
					 "ring_buffer_per_cpu.nr_pages: %llu",
					 (unsigned long long)w.nr_pages)
			     : tdat_errorf(err, "out of memory");
	else
		ret = walk_ring(&w, obj, fn, ctx, err);
	free(w.page);
	free(obj);
	return ret;
}
