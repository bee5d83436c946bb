/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmcore_internal.h - what the vmcore engine's files share (private to
 * convert/vmcore/; the interface is vmcore.h).
 *
 *   dumpfile.c   the dump through libkdumpfile: kernel memory, VMCOREINFO
 *   flattened.c  makedumpfile's flattened form, rearranged into a
 *                temporary file libkdumpfile can read
 *   elfcheck.c   an ELF dump's segments inside the file (not cut)
 *   kmem.c       typed, bounded reads of the crashed kernel's memory
 *   kallsyms.c   its symbol table, decoded from the kallsyms tables
 *   kbtf.c       its types, from its own BTF (libbpf)
 *   arrays.c     the trace arrays (top buffer, instances) and CPUs
 *   ringbuf.c    one CPU's ring-buffer pages, oldest first
 *   formats.c    the event formats, as tracefs prints them
 *   texts.c      header_page, header_event, printk formats, saved
 *                cmdlines, clocks, module symbols
 *   meta.c       the trace.dat's metadata made of all that
 *   kernel.c     the dump, its symbols and types opened together
 *   run.c        vmcore_run
 *   pagecache.c  the regular files of a directory, found by its name
 *                in the kernel's super blocks, inodes and dentries
 *   cachepages.c the pages the page cache held of it (x86_64)
 *   cachesrc.c   restore's raw_source: a recording's files as the
 *                crashed kernel's page cache held them
 *
 * Only dumpfile.c knows the dump's file format: the rest reads kernel
 * memory through struct kmem, which the fuzz target fakes.  Errors are
 * values as in libfmt: -1 and a struct tdat_error naming the dump, the
 * kernel address and what is wrong.
 */
#ifndef CONVERT_VMCORE_INTERNAL_H
#define CONVERT_VMCORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "libfmt/bytes.h"
#include "libfmt/tracedat.h"

/* ---- kmem.c ---- */

/* Where kernel memory comes from: a dump (dumpfile.c) or a fake. */
struct kmem_source {
	/* n bytes at kernel virtual address addr: 0, or -1 when the dump
	 * does not hold them */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t n);
	/* VMCOREINFO's value of key ("OSRELEASE", "SYMBOL(_stext)"),
	 * NUL-terminated: 0, or -1 when there is none */
	int (*info)(void *ctx, const char *key, char *buf, size_t cap);
	/* why the last read failed (libkdumpfile's words), or NULL */
	const char *(*why)(void *ctx);
	void *ctx;
};

struct kmem {
	struct kmem_source src;
	const char *path;	/* the dump, for messages */
	int big;		/* the crashed kernel's byte order */
	int ptr_size;		/* 4 or 8 */
	uint32_t page_size;	/* PAGESIZE */
	uint64_t left;		/* bytes all reads together may still take */
};

/* The most any job reads of a dump: the ring buffers are bounded by it
 * too, whatever their page counts claim. */
#define KMEM_BUDGET (8ull << 30)

/* "DUMP: kernel address ADDR: WHAT": -1. */
int kmem_fail(const struct kmem *m, uint64_t addr, struct tdat_error *err,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "DUMP: WHAT": -1. */
int kmem_failn(const struct kmem *m, struct tdat_error *err,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int kmem_read(struct kmem *m, uint64_t addr, void *buf, size_t n,
	      const char *what, struct tdat_error *err);
/* 1 when the last read failed because the dump's filter (makedumpfile's
 * dump level) left the page out. */
int kmem_excluded(const struct kmem *m);
/* A struct of size bytes at addr, in a buffer of size + 8 (zeroed tail:
 * bitfield loads may read 8 bytes); free() it.  NULL with err. */
uint8_t *kmem_obj(struct kmem *m, uint64_t addr, uint32_t size,
		  const char *what, struct tdat_error *err);
int kmem_ptr(struct kmem *m, uint64_t addr, uint64_t *v, const char *what,
	     struct tdat_error *err);
int kmem_u32(struct kmem *m, uint64_t addr, uint32_t *v, const char *what,
	     struct tdat_error *err);
/* A C string at addr into buf (cap bytes with its NUL); one longer is an
 * error. */
int kmem_string(struct kmem *m, uint64_t addr, char *buf, size_t cap,
		const char *what, struct tdat_error *err);
/* The same, malloc'd (free it); at most max bytes. */
char *kmem_strdup(struct kmem *m, uint64_t addr, size_t max,
		  const char *what, struct tdat_error *err);
/* A kernel pointer or integer of n bytes in the kernel's byte order. */
uint64_t kmem_load(const struct kmem *m, const void *p, int n);
/* VMCOREINFO: key's text; a hex (SYMBOL) value.  0, or -1 when absent
 * or not a number (err not touched). */
int kmem_info(const struct kmem *m, const char *key, char *buf, size_t cap);
int kmem_info_hex(const struct kmem *m, const char *key, uint64_t *v);

/* ---- kallsyms.c ---- */

struct ksymtab_sym {
	uint64_t addr;
	uint32_t name;		/* offset into ksymtab.names */
	char type;
};

/* The core kernel's symbols, in the table's (address) order. */
struct ksymtab {
	uint32_t n;
	struct ksymtab_sym *v;
	char *names;
	size_t names_len;
};

/* Decode the kallsyms tables VMCOREINFO points at (Linux 6.0+). */
int ksymtab_load(struct kmem *m, struct ksymtab *s, struct tdat_error *err);
void ksymtab_free(struct ksymtab *s);
/* name's address: 0, or -1 with err naming the symbol (and the config
 * that would have kept it). */
int ksymtab_need(const struct ksymtab *s, const struct kmem *m,
	       const char *name, uint64_t *addr, struct tdat_error *err);
/* The same, 0 or -1 without err. */
int ksymtab_find(const struct ksymtab *s, const char *name, uint64_t *addr);
/* How far the symbol at addr extends: the next higher address, or 0. */
uint64_t ksymtab_end(const struct ksymtab *s, uint64_t addr);
/* /proc/kallsyms's text of the core symbols, appended to out. */
int ksymtab_text(const struct ksymtab *s, int ptr_size, struct tdat_bytes *out);

/* ---- kbtf.c ---- */

struct kbtf;

/* A member, found through anonymous structs and unions: byte offset and
 * size; a bitfield has bits > 0, its first bit at bit within off's
 * bytes. */
struct kfield {
	uint32_t off;
	uint32_t size;
	uint32_t bit;
	uint32_t bits;
};

/* BTF from raw bytes (copied); NULL when libbpf cannot read them. */
struct kbtf *kbtf_new(const void *raw, uint32_t size);
/* The BTF between the addresses start and stop of kernel memory. */
struct kbtf *kbtf_load(struct kmem *m, uint64_t start, uint64_t stop,
		       struct tdat_error *err);
void kbtf_free(struct kbtf *b);
/* sizeof(struct type). */
int kbtf_size(const struct kbtf *b, const struct kmem *m, const char *type,
	      uint32_t *size, struct tdat_error *err);
/* struct type's member path ("array_buffer.buffer"); -1 with err when
 * it has none. */
int kbtf_field(const struct kbtf *b, const struct kmem *m, const char *type,
	       const char *path, struct kfield *f, struct tdat_error *err);
/* 1 when struct type has member path, else 0. */
int kbtf_has(const struct kbtf *b, const char *type, const char *path);
/* An enumerator's value: 0, or -1 with err. */
int kbtf_enum(const struct kbtf *b, const struct kmem *m, const char *name,
	      int64_t *v, struct tdat_error *err);
/* 1 when the kernel's char is signed (its BTF says how it was built:
 * x86 kernels before 6.2), else 0. */
int kbtf_char_signed(const struct kbtf *b);
/* The value of f in the struct read into obj (kmem_obj). */
uint64_t kfield_get(const struct kmem *m, const uint8_t *obj,
		    const struct kfield *f);

/* ---- the crashed kernel as the engine sees it ---- */

struct kernel {
	struct kmem mem;
	struct ksymtab syms;
	struct kbtf *btf;
};

/* ---- kernel.c ---- */

struct dumpfile;

/* Open the dump at path into k (memory, symbols, BTF); *dump is what
 * kernel_close closes, also after a failure.  0, or -1 with err. */
int kernel_open(struct kernel *k, const char *path, struct dumpfile **dump,
		struct tdat_error *err);
void kernel_close(struct kernel *k, struct dumpfile *dump);

/* ---- arrays.c ---- */

/* One trace array: the top buffer (name "") or an instance. */
struct karray {
	char *name;
	uint64_t addr;		/* struct trace_array */
	uint64_t buffer;	/* its struct trace_buffer */
	int clock_id;
};

struct karrays {
	int n;
	struct karray *v;
	int ncpus;		/* nr_cpu_ids */
};

/* Every trace array, the top buffer first. */
int karrays_load(struct kernel *k, struct karrays *a, struct tdat_error *err);
void karrays_free(struct karrays *a);

/* ---- ringbuf.c ---- */

/* The ring buffer of a trace_buffer: its sub-buffer size (header and
 * data), and its header_page layout. */
struct kring {
	uint32_t page_size;	/* PAGE_SIZE << subbuf_order */
	uint32_t data_off;	/* offsetof(buffer_data_page, data) */
	uint32_t commit_off;
	uint32_t commit_size;
};

int kring_layout(struct kernel *k, uint64_t buffer, struct kring *r,
		 struct tdat_error *err);
/* CPU cpu's pages of buffer, oldest first, each given to fn (a whole
 * sub-buffer, commit as the kernel left it; skip: the bytes of its
 * data a reader took already).  Empty pages are left out, and counted
 * in st->hollow when they lie inside the ring (before the commit page:
 * a cut dump's zeros, never the kernel's own); st->none is 1 when the
 * CPU has no ring buffer.  fn returns 0 or -1 (with err). */
typedef int (*kring_page_fn)(void *ctx, const uint8_t *page, uint32_t skip,
			     struct tdat_error *err);
struct kring_stats {
	int none;
	uint64_t hollow;
};
int kring_pages(struct kernel *k, uint64_t buffer, int cpu,
		const struct kring *r, kring_page_fn fn, void *ctx,
		struct kring_stats *st, struct tdat_error *err);

/* ---- formats.c ---- */

/* Every event's format text, as its tracefs format file would read:
 * fn(ctx, system, name, text, len) for each, in the kernel's list
 * order. */
typedef int (*kformat_fn)(void *ctx, const char *system, const char *name,
			  const char *text, size_t len, struct tdat_error *err);
int kformats_each(struct kernel *k, kformat_fn fn, void *ctx,
		  struct tdat_error *err);

/* ---- texts.c ---- */

/* The texts of events/header_page (for ring r) and events/header_event,
 * printk_formats, saved_cmdlines, an array's trace_clock, and the
 * modules' lines of /proc/kallsyms; appended to out. */
int ktext_header_page(struct kernel *k, const struct kring *r,
		      struct tdat_bytes *out, struct tdat_error *err);
int ktext_header_event(struct tdat_bytes *out, struct tdat_error *err);
int ktext_printk(struct kernel *k, struct tdat_bytes *out,
		 struct tdat_error *err);
int ktext_cmdlines(struct kernel *k, struct tdat_bytes *out,
		   struct tdat_error *err);
int ktext_clock(struct kernel *k, int clock_id, struct tdat_bytes *out,
		struct tdat_error *err);
int ktext_module_syms(struct kernel *k, struct tdat_bytes *out,
		      struct tdat_error *err);
/* The name of clock clock_id (what trace_clock shows in brackets). */
int ktext_clock_name(struct kernel *k, int clock_id, char *buf, size_t cap,
		     struct tdat_error *err);
/* uname -a's first fields: "SYSNAME NODENAME RELEASE MACHINE". */
int ktext_uname(struct kernel *k, char *buf, size_t cap,
		struct tdat_error *err);

/* ---- meta.c ---- */

/* The trace.dat's metadata: headers, formats, kallsyms, printk formats,
 * cmdlines, options (clock of arrays->v[first], uname, version), one
 * buffer per chosen array with every CPU.  NULL with err. */
struct tdat_file *kmeta_build(struct kernel *k, const struct karrays *a,
			      const int *chosen, int nchosen,
			      const struct kring *ring,
			      struct tdat_error *err);

/* ---- pagecache.c, cachepages.c ---- */

/* The crashed kernel's page cache: the members it is reached by, and
 * where struct pages (vmemmap) and the direct map of memory are. */
struct kcache {
	struct kernel *k;
	struct kfield s_list, s_bdev, s_type, s_inodes, fs_name;
	struct kfield i_sb_list, i_mode, i_dentry, i_size, i_mapping;
	struct kfield d_alias, d_name, d_parent;
	struct kfield xa_head, xa_shift, xa_slots, pg_mapping;
	uint32_t page_struct;	/* sizeof(struct page) */
	uint32_t nslots;	/* slots of an xa_node */
	uint64_t vmemmap, direct;
};

/* A regular file found there. */
struct kcache_file {
	uint64_t inode;
	uint64_t size;		/* i_size */
	uint64_t mapping;	/* its struct address_space */
	uint64_t xa_head;	/* the root entry of its pages */
};

/* The field f of the struct at base (at most 8 bytes, no bitfield). */
int kmem_field(struct kmem *m, uint64_t base, const struct kfield *f,
	       uint64_t *v, const char *what, struct tdat_error *err);
int kcache_init(struct kernel *k, struct kcache *c, struct tdat_error *err);
/* Every regular file in a directory named dir: fn(ctx, its name, f),
 * once per link (one in two directories of that name: twice). */
typedef int (*kcache_file_fn)(void *ctx, const char *name,
			      const struct kcache_file *f,
			      struct tdat_error *err);
int kcache_dir(struct kcache *c, const char *dir, kcache_file_fn fn,
	       void *ctx, struct tdat_error *err);
/* Each page the cache held of f below its i_size, in index order:
 * fn(ctx, index, the kernel address of its bytes). */
typedef int (*kcache_page_fn)(void *ctx, uint64_t index, uint64_t data,
			      struct tdat_error *err);
int kcache_pages(struct kcache *c, const struct kcache_file *f,
		 kcache_page_fn fn, void *ctx, struct tdat_error *err);

/* ---- cachesrc.c ---- */

/* The files of the directory last walked by kcache_lookup, one per
 * name (a second inode of that name noted, to refuse it). */
struct kcache_named;
struct kcache_names {
	char *dir;		/* the directory's name walked, or NULL */
	struct kcache_named *files;
	size_t n;
};

/* dir/name in the crashed kernel's memory (one kcache_dir walk per
 * directory name, kept in t): 1 into kf, 0 none, -1 with err (also
 * when two inodes have that path). */
int kcache_lookup(struct kcache *c, struct kcache_names *t, const char *dir,
		  const char *name, struct kcache_file *kf,
		  struct tdat_error *err);
void kcache_names_free(struct kcache_names *t);

/* ---- dumpfile.c (struct dumpfile: above) ---- */

/* Open path (ELF, kdump-compressed, or flattened) and fill k->mem. */
struct dumpfile *dumpfile_open(const char *path, struct kmem *mem,
			       struct tdat_error *err);
void dumpfile_close(struct dumpfile *d);

/* ---- elfcheck.c ---- */

/* An ELF dump's PT_LOAD and PT_NOTE segments all inside the file (0;
 * anything not ELF passes); -1 with err naming the header. */
int elf_check(int fd, const char *path, struct tdat_error *err);

/* ---- flattened.c ---- */

/* 1 when fd's file begins as makedumpfile's flattened form. */
int flat_is(int fd);
/* Its records rearranged into an unnamed temporary file (sparse, as
 * makedumpfile -R writes): the new descriptor, or -1 with err. */
int flat_rearrange(int fd, const char *path, struct tdat_error *err);

#endif
