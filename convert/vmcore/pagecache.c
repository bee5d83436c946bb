/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagecache.c - the regular files of the crashed kernel in directories
 * of a given name: every super block of a file system on a block device
 * (or tmpfs), every inode of it, each inode's dentries and their
 * parents' names.  One walk finds every file of a recording's
 * directory; the pages are read by cachepages.c.
 */
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

/* More than this is a list gone wrong (or a machine we do not walk). */
#define SUPERS_MAX 4096
#define INODES_MAX (16u << 20)
#define ALIASES_MAX 256
#define S_IFMT_ 0170000
#define S_IFREG_ 0100000

int kmem_field(struct kmem *m, uint64_t base, const struct kfield *f,
	       uint64_t *v, const char *what, struct tdat_error *err)
{
	uint8_t b[8];

	if (!f->size || f->size > 8 || f->bits)
		return kmem_fail(m, base, err, "%s: a field of %u bytes", what,
				 f->size);
	if (kmem_read(m, base + f->off, b, f->size, what, err))
		return -1;
	*v = kmem_load(m, b, (int)f->size);
	return 0;
}

static int layout(struct kernel *k, struct kcache *c, struct tdat_error *err)
{
	const struct kbtf *b = k->btf;
	struct kmem *m = &k->mem;
	/* the alias list moved into a union (d_u) in 3.19 */
	const char *alias = kbtf_has(b, "dentry", "d_u.d_alias") ?
			    "d_u.d_alias" : "d_alias";

	return kbtf_field(b, m, "super_block", "s_list", &c->s_list, err) ||
	       kbtf_field(b, m, "super_block", "s_bdev", &c->s_bdev, err) ||
	       kbtf_field(b, m, "super_block", "s_type", &c->s_type, err) ||
	       kbtf_field(b, m, "super_block", "s_inodes", &c->s_inodes, err) ||
	       kbtf_field(b, m, "file_system_type", "name", &c->fs_name, err) ||
	       kbtf_field(b, m, "inode", "i_sb_list", &c->i_sb_list, err) ||
	       kbtf_field(b, m, "inode", "i_mode", &c->i_mode, err) ||
	       kbtf_field(b, m, "inode", "i_dentry", &c->i_dentry, err) ||
	       kbtf_field(b, m, "inode", "i_size", &c->i_size, err) ||
	       kbtf_field(b, m, "inode", "i_mapping", &c->i_mapping, err) ||
	       kbtf_field(b, m, "dentry", alias, &c->d_alias, err) ||
	       kbtf_field(b, m, "dentry", "d_name.name", &c->d_name, err) ||
	       kbtf_field(b, m, "dentry", "d_parent", &c->d_parent, err) ||
	       kbtf_field(b, m, "address_space", "i_pages.xa_head",
			  &c->xa_head, err) ||
	       kbtf_field(b, m, "xa_node", "shift", &c->xa_shift, err) ||
	       kbtf_field(b, m, "xa_node", "slots", &c->xa_slots, err) ||
	       kbtf_field(b, m, "page", "mapping", &c->pg_mapping, err) ||
	       kbtf_size(b, m, "page", &c->page_struct, err) ? -1 : 0;
}

/* Where struct pages and the direct map of physical memory are:
 * x86_64's variables (moved by KASLR), else its fixed defaults. */
static int x86_64_maps(struct kernel *k, struct kcache *c,
		       struct tdat_error *err)
{
	char uts[300];
	uint64_t at;
	const char *mach;

	if (ktext_uname(k, uts, sizeof(uts), err))
		return -1;
	mach = strrchr(uts, ' ');
	if (!mach || strcmp(mach + 1, "x86_64"))
		return kmem_failn(&k->mem, err, "the page cache of a %s kernel:"
				  " only x86_64's address arithmetic is known"
				  " (its struct pages and direct map)",
				  mach ? mach + 1 : uts);
	c->vmemmap = 0xffffea0000000000ull;
	c->direct = 0xffff888000000000ull;
	if (!ksymtab_find(&k->syms, "vmemmap_base", &at) &&
	    kmem_ptr(&k->mem, at, &c->vmemmap, "vmemmap_base", err))
		return -1;
	if (!ksymtab_find(&k->syms, "page_offset_base", &at) &&
	    kmem_ptr(&k->mem, at, &c->direct, "page_offset_base", err))
		return -1;
	return 0;
}

int kcache_init(struct kernel *k, struct kcache *c, struct tdat_error *err)
{
	memset(c, 0, sizeof(*c));
	c->k = k;
	if (layout(k, c, err) || x86_64_maps(k, c, err))
		return -1;
	if (c->xa_shift.size != 1 || !c->page_struct ||
	    c->xa_slots.size % (uint32_t)k->mem.ptr_size ||
	    c->xa_slots.size / (uint32_t)k->mem.ptr_size < 2)
		return kmem_failn(&k->mem, err, "struct xa_node or page: an"
				  " unexpected layout (shift %u bytes, slots"
				  " %u bytes, page %u bytes)", c->xa_shift.size,
				  c->xa_slots.size, c->page_struct);
	c->nslots = c->xa_slots.size / (uint32_t)k->mem.ptr_size;
	return 0;
}

/* The name of dentry d into buf: 0, or -1 with err. */
static int dname(struct kcache *c, uint64_t d, char *buf, size_t cap,
		 struct tdat_error *err)
{
	uint64_t name;

	return kmem_ptr(&c->k->mem, d + c->d_name.off, &name, "dentry.d_name",
			err) ||
	       kmem_string(&c->k->mem, name, buf, cap, "dentry.d_name.name",
			   err) ? -1 : 0;
}

/* What an inode's page cache is reached by, into f. */
static int file_of(struct kcache *c, uint64_t inode, struct kcache_file *f,
		   struct tdat_error *err)
{
	struct kmem *m = &c->k->mem;

	f->inode = inode;
	if (kmem_field(m, inode, &c->i_size, &f->size, "inode.i_size", err) ||
	    kmem_ptr(m, inode + c->i_mapping.off, &f->mapping,
		     "inode.i_mapping", err))
		return -1;
	if (!f->mapping)
		return kmem_fail(m, inode, err, "inode.i_mapping: NULL");
	return kmem_ptr(m, f->mapping + c->xa_head.off, &f->xa_head,
			"address_space.i_pages", err);
}

struct dirwalk {
	const char *dir;
	kcache_file_fn fn;
	void *ctx;
};

/* Each of inode's dentries whose parent is named w->dir: fn. */
static int aliases(struct kcache *c, uint64_t inode, const struct dirwalk *w,
		   struct tdat_error *err)
{
	struct kmem *m = &c->k->mem;
	struct kcache_file f = { 0, 0, 0, 0 };
	uint64_t node, parent;
	char s[256];
	int i;

	if (kmem_ptr(m, inode + c->i_dentry.off, &node, "inode.i_dentry", err))
		return -1;
	for (i = 0; node; i++) {
		uint64_t d = node - c->d_alias.off;

		if (i == ALIASES_MAX)
			return kmem_fail(m, inode, err, "inode.i_dentry: more"
					 " than %d dentries (a loop?)",
					 ALIASES_MAX);
		if (kmem_ptr(m, d + c->d_parent.off, &parent,
			     "dentry.d_parent", err) ||
		    dname(c, parent, s, sizeof(s), err))
			return -1;
		if (parent != d && !strcmp(s, w->dir)) {
			if ((!f.inode && file_of(c, inode, &f, err)) ||
			    dname(c, d, s, sizeof(s), err) ||
			    w->fn(w->ctx, s, &f, err))
				return -1;
		}
		if (kmem_ptr(m, node, &node, "dentry.d_alias", err))
			return -1;
	}
	return 0;
}

/* Every regular file of the super block sb, in a directory w->dir. */
static int sb_inodes(struct kcache *c, uint64_t sb, const struct dirwalk *w,
		     struct tdat_error *err)
{
	struct kmem *m = &c->k->mem;
	uint64_t head = sb + c->s_inodes.off, node, mode;
	uint32_t i;

	if (kmem_ptr(m, head, &node, "super_block.s_inodes", err))
		return -1;
	for (i = 0; node != head; i++) {
		uint64_t inode = node - c->i_sb_list.off;

		if (i == INODES_MAX || !node)
			return kmem_fail(m, head, err, "super_block.s_inodes:"
					 " %s", node ? "more than 16M inodes (a"
					 " loop?)" : "a NULL link");
		if (kmem_field(m, inode, &c->i_mode, &mode, "inode.i_mode",
			       err))
			return -1;
		if ((mode & S_IFMT_) == S_IFREG_ && aliases(c, inode, w, err))
			return -1;
		if (kmem_ptr(m, node, &node, "inode.i_sb_list", err))
			return -1;
	}
	return 0;
}

/* 1 for a file system whose files may be the ones wanted: on a block
 * device, or tmpfs. */
static int wanted(struct kcache *c, uint64_t sb, struct tdat_error *err)
{
	struct kmem *m = &c->k->mem;
	uint64_t bdev, type, name;
	char s[64];

	if (kmem_ptr(m, sb + c->s_bdev.off, &bdev, "super_block.s_bdev", err))
		return -1;
	if (bdev)
		return 1;
	if (kmem_ptr(m, sb + c->s_type.off, &type, "super_block.s_type", err))
		return -1;
	if (!type)
		return 0;
	if (kmem_ptr(m, type + c->fs_name.off, &name, "file_system_type.name",
		     err))
		return -1;
	if (!name)
		return 0;
	if (kmem_string(m, name, s, sizeof(s), "file_system_type.name", err))
		return -1;
	return !strcmp(s, "tmpfs");
}

int kcache_dir(struct kcache *c, const char *dir, kcache_file_fn fn,
	       void *ctx, struct tdat_error *err)
{
	struct kmem *m = &c->k->mem;
	struct dirwalk w = { dir, fn, ctx };
	uint64_t head, node;
	int i, r;

	if (ksymtab_need(&c->k->syms, m, "super_blocks", &head, err) ||
	    kmem_ptr(m, head, &node, "super_blocks", err))
		return -1;
	for (i = 0; node != head; i++) {
		uint64_t sb = node - c->s_list.off;

		if (i == SUPERS_MAX || !node)
			return kmem_fail(m, head, err, "super_blocks: %s",
					 node ? "more than 4096 (a loop?)"
					      : "a NULL link");
		r = wanted(c, sb, err);
		if (r < 0 || (r && sb_inodes(c, sb, &w, err)))
			return -1;
		if (kmem_ptr(m, node, &node, "super_block.s_list", err))
			return -1;
	}
	return 0;
}
