/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_vmcore.c - the vmcore engine's own readers on fake kernel memory
 * (convert/vmcore/): kallsyms tables of each encoding (one- and
 * two-byte lengths; absolute addresses, offsets from a base, per-CPU
 * negatives, place-relative) decoded to their names and addresses, and
 * refused when they lie; bitfields of either byte order; makedumpfile's
 * flattened form rearranged, and refused when cut or absurd; a page
 * cache's xarray walked (pages, shadows, large folios), and refused
 * when damaged; a directory's files found by name in the super blocks'
 * inodes and dentries, and refused when two inodes share a name or the
 * inode list loops.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "convert/vmcore/vmcore_internal.h"

/* ---- fake memory: one block at BASE, VMCOREINFO lines in a table ---- */

#define BASE 0xffffffff81000000ull
#define MEMSZ 8192

struct fake {
	uint8_t mem[MEMSZ];
	const char *info[16][2];
};

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	struct fake *f = ctx;

	if (addr < BASE || addr - BASE > MEMSZ || n > MEMSZ - (addr - BASE))
		return -1;
	memcpy(buf, f->mem + (addr - BASE), n);
	return 0;
}

static int fake_info(void *ctx, const char *key, char *buf, size_t cap)
{
	struct fake *f = ctx;
	int i;

	for (i = 0; i < 16 && f->info[i][0]; i++)
		if (!strcmp(f->info[i][0], key)) {
			snprintf(buf, cap, "%s", f->info[i][1]);
			return 0;
		}
	return -1;
}

static void fake_mem(struct fake *f, struct kmem *m, int big)
{
	memset(m, 0, sizeof(*m));
	m->src.read = fake_read;
	m->src.info = fake_info;
	m->src.ctx = f;
	m->path = "fake.dump";
	m->big = big;
	m->ptr_size = 8;
	m->page_size = 4096;
	m->left = 1 << 20;
}

/* ---- kallsyms tables built here ---- */

/* Offsets of the tables in the fake memory. */
enum { NUM = 0, INDEX = 16, TABLE = 544, NAMES = 1600, OFFS = 3000,
       BASEV = 3100, ADDRS = 3200 };

static char hex[8][24];

static void info(struct fake *f, int i, const char *key, uint64_t v)
{
	snprintf(hex[i], sizeof(hex[i]), "%llx", (unsigned long long)v);
	f->info[i][0] = key;
	f->info[i][1] = hex[i];
}

/* Tokens: 0 "T_", 1 "stext", 2 "t", 3 "x", 4 "D", 5 "per_cpu"; names
 * "T_stext", "tx...x" (long: a 2-byte length), "Dper_cpu". */
static void tables(struct fake *f, int long_name)
{
	static const char *tok[] = { "T_", "stext", "t", "x", "D", "per_cpu" };
	uint32_t at = 0, i, pos = NAMES;

	memset(f, 0, sizeof(*f));
	f->mem[NUM] = 3;
	for (i = 0; i < 6; i++) {
		f->mem[INDEX + 2 * i] = (uint8_t)at;
		memcpy(f->mem + TABLE + at, tok[i], strlen(tok[i]) + 1);
		at += (uint32_t)strlen(tok[i]) + 1;
	}
	f->mem[pos++] = 2, f->mem[pos++] = 0, f->mem[pos++] = 1;
	if (long_name) {	/* 200 tokens: length 0x80 | (200 & 0x7f), 1 */
		f->mem[pos++] = 0x80 | (200 & 0x7f), f->mem[pos++] = 200 >> 7;
		f->mem[pos++] = 2;
		for (i = 1; i < 200; i++)
			f->mem[pos++] = 3;
	} else {
		f->mem[pos++] = 2, f->mem[pos++] = 2, f->mem[pos++] = 3;
	}
	f->mem[pos++] = 2, f->mem[pos++] = 4, f->mem[pos++] = 5;
	info(f, 0, "SYMBOL(kallsyms_num_syms)", BASE + NUM);
	info(f, 1, "SYMBOL(kallsyms_token_index)", BASE + INDEX);
	info(f, 2, "SYMBOL(kallsyms_token_table)", BASE + TABLE);
	info(f, 3, "SYMBOL(kallsyms_names)", BASE + NAMES);
	info(f, 4, "SYMBOL(_stext)", BASE + 0x100);
}

static void offsets(struct fake *f, const int32_t *v, int with_base)
{
	int i;

	for (i = 0; i < 3; i++)
		tdat_store32(0, f->mem + OFFS + 4 * i, (uint32_t)v[i]);
	info(f, 5, "SYMBOL(kallsyms_offsets)", BASE + OFFS);
	if (with_base) {
		tdat_store64(0, f->mem + BASEV, BASE);
		info(f, 6, "SYMBOL(kallsyms_relative_base)", BASE + BASEV);
	}
}

static void check_syms(struct fake *f, const uint64_t *want, int long_name)
{
	struct ksymtab s;
	struct kmem m;
	struct tdat_error err;
	uint64_t a;

	fake_mem(f, &m, 0);
	CU_ASSERT_EQUAL_FATAL(ksymtab_load(&m, &s, &err), 0);
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_STRING_EQUAL(s.names + s.v[0].name, "_stext");
	CU_ASSERT_EQUAL(s.v[0].type, 'T');
	CU_ASSERT_EQUAL(s.v[1].type, 't');
	CU_ASSERT_EQUAL(strlen(s.names + s.v[1].name), long_name ? 199 : 1);
	CU_ASSERT_STRING_EQUAL(s.names + s.v[2].name, "per_cpu");
	CU_ASSERT_EQUAL(s.v[0].addr, want[0]);
	CU_ASSERT_EQUAL(s.v[1].addr, want[1]);
	CU_ASSERT_EQUAL(s.v[2].addr, want[2]);
	CU_ASSERT_EQUAL(ksymtab_find(&s, "per_cpu", &a), 0);
	CU_ASSERT_EQUAL(a, want[2]);
	CU_ASSERT_EQUAL(ksymtab_end(&s, want[0]), want[1]);
	ksymtab_free(&s);
}

static void test_kallsyms_relative(void)
{
	struct fake f;
	const int32_t v[3] = { 0x100, 0x200, 0x300 };
	const uint64_t want[3] = { BASE + 0x100, BASE + 0x200, BASE + 0x300 };

	tables(&f, 0);
	offsets(&f, v, 1);
	check_syms(&f, want, 0);
	tables(&f, 1);		/* a name of 199 bytes: two-byte length */
	offsets(&f, v, 1);
	check_syms(&f, want, 1);
}

/* Absolute per-CPU symbols (x86_64 SMP kernels before 6.15): a
 * non-negative offset is the address itself (per-CPU symbols, near 0),
 * a negative one counts down from the base. */
static void test_kallsyms_percpu(void)
{
	struct fake f;
	const int32_t v[3] = { -1 - 0x100, -1 - 0x200, 0x40 };
	const uint64_t want[3] = { BASE + 0x100, BASE + 0x200, 0x40 };

	tables(&f, 0);
	offsets(&f, v, 1);
	check_syms(&f, want, 0);
}

/* Offsets from their own place (no relative base). */
static void test_kallsyms_place(void)
{
	struct fake f;
	const int32_t v[3] = { 0x100 - OFFS, 0x200 - OFFS - 4,
			       0x300 - OFFS - 8 };
	const uint64_t want[3] = { BASE + 0x100, BASE + 0x200, BASE + 0x300 };

	tables(&f, 0);
	offsets(&f, v, 0);
	check_syms(&f, want, 0);
}

static void test_kallsyms_absolute(void)
{
	struct fake f;
	const uint64_t want[3] = { BASE + 0x100, BASE + 0x180, BASE + 0x1000 };
	int i;

	tables(&f, 0);
	for (i = 0; i < 3; i++)
		tdat_store64(0, f.mem + ADDRS + 8 * i, want[i]);
	info(&f, 5, "SYMBOL(kallsyms_addresses)", BASE + ADDRS);
	check_syms(&f, want, 0);
}

/* Tables that lie: one line naming the dump, never a crash. */
static void test_kallsyms_refused(void)
{
	struct fake f;
	struct ksymtab s;
	struct kmem m;
	struct tdat_error err;
	const int32_t v[3] = { 0x10, 0x20, 0x30 };

	tables(&f, 0);
	offsets(&f, v, 1);	/* no reading puts _stext at base + 0x100 */
	fake_mem(&f, &m, 0);
	CU_ASSERT_EQUAL(ksymtab_load(&m, &s, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "fake.dump: kernel address"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "_stext"));
	tables(&f, 0);
	offsets(&f, v, 1);
	tdat_store32(0, f.mem + NUM, 0x7fffffff);	/* absurd count */
	CU_ASSERT_EQUAL(ksymtab_load(&m, &s, &err), -1);
	tables(&f, 0);
	offsets(&f, v, 1);
	f.mem[NAMES] = 0xff, f.mem[NAMES + 1] = 0xff;	/* runs off memory */
	CU_ASSERT_EQUAL(ksymtab_load(&m, &s, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "fake.dump"));
	memset(&f.info, 0, sizeof(f.info));	/* no VMCOREINFO lines */
	CU_ASSERT_EQUAL(ksymtab_load(&m, &s, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CONFIG_KALLSYMS"));
}

/* Bitfields as the BTF places them, in either byte order. */
static void test_bitfields(void)
{
	struct kmem m;
	struct fake f;
	uint8_t obj[16] = { 0 };
	struct kfield bits = { 4, 4, 3, 5 };	/* 5 bits from bit 3 of byte 4 */
	struct kfield word = { 8, 4, 0, 0 };

	fake_mem(&f, &m, 0);
	obj[4] = 0x1f << 3;
	tdat_store32(0, obj + 8, 0xdeadbeef);
	CU_ASSERT_EQUAL(kfield_get(&m, obj, &bits), 0x1f);
	CU_ASSERT_EQUAL(kfield_get(&m, obj, &word), 0xdeadbeef);
	obj[4] = 1 << 3;
	CU_ASSERT_EQUAL(kfield_get(&m, obj, &bits), 1);
	fake_mem(&f, &m, 1);	/* big-endian: bits counted from the top */
	memset(obj, 0, sizeof(obj));
	obj[4] = 0x1f << (8 - 3 - 5);
	tdat_store32(1, obj + 8, 0xdeadbeef);
	CU_ASSERT_EQUAL(kfield_get(&m, obj, &bits), 0x1f);
	CU_ASSERT_EQUAL(kfield_get(&m, obj, &word), 0xdeadbeef);
}

/* ---- makedumpfile's flattened form ---- */

static const char *flat_file(const char *name, const uint64_t (*rec)[2],
			     int n, int end)
{
	static char path[4096];
	uint8_t head[4096] = "makedumpfile", r[16], data[64];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	f = fopen(path, "wb");
	fwrite(head, 1, sizeof(head), f);
	for (i = 0; i < n; i++) {
		tdat_store64(1, r, rec[i][0]);
		tdat_store64(1, r + 8, rec[i][1]);
		fwrite(r, 1, 16, f);
		memset(data, 'a' + i, sizeof(data));
		if (rec[i][1] <= sizeof(data))
			fwrite(data, 1, (size_t)rec[i][1], f);
	}
	if (end) {
		memset(r, 0xff, 8);
		fwrite(r, 1, 16, f);
	}
	fclose(f);
	return path;
}

static void test_flattened(void)
{
	static const uint64_t rec[3][2] = { { 100, 10 }, { 0, 4 },
					    { 1 << 20, 2 } };
	static const uint64_t far[1][2] = { { 1ull << 60, 4 } };
	struct tdat_error err;
	uint8_t got[16];
	int fd, out;

	fd = open(flat_file("good", rec, 3, 1), O_RDONLY);
	CU_ASSERT_EQUAL(flat_is(fd), 1);
	out = flat_rearrange(fd, "good", &err);
	CU_ASSERT_FATAL(out >= 0);
	CU_ASSERT_EQUAL(lseek(out, 0, SEEK_END), (1 << 20) + 2);
	CU_ASSERT_EQUAL(pread(out, got, 4, 0), 4);
	CU_ASSERT_EQUAL(memcmp(got, "bbbb", 4), 0);
	CU_ASSERT_EQUAL(pread(out, got, 12, 98), 12);
	CU_ASSERT_EQUAL(memcmp(got, "\0\0aaaaaaaaaa", 12), 0);
	close(out);
	close(fd);
	fd = open(flat_file("cut", rec, 3, 0), O_RDONLY);	/* no end */
	CU_ASSERT_EQUAL(flat_rearrange(fd, "cut", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cut: offset 4160:"));
	close(fd);
	fd = open(flat_file("far", far, 1, 1), O_RDONLY);
	CU_ASSERT_EQUAL(flat_rearrange(fd, "far", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "far: offset 4096:"));
	close(fd);
	fd = open(fixture("v6-sched-irq.dat"), O_RDONLY);
	CU_ASSERT_EQUAL(flat_is(fd), 0);
	close(fd);
}

/* An ELF64 dump of one PT_LOAD of filesz bytes at 0, its program
 * header count in section header 0 (e_phnum PN_XNUM) as count. */
static int xnum_file(const char *name, uint32_t count, uint64_t filesz)
{
	uint8_t d[184] = "\177ELF\2\1\1";
	char path[4096];
	FILE *f;

	tdat_store64(0, d + 32, 64);		/* e_phoff */
	tdat_store64(0, d + 40, 120);		/* e_shoff */
	tdat_store16(0, d + 54, 56);		/* e_phentsize */
	tdat_store16(0, d + 56, 0xffff);	/* e_phnum: PN_XNUM */
	tdat_store32(0, d + 64, 1);		/* PT_LOAD */
	tdat_store64(0, d + 64 + 32, filesz);
	tdat_store32(0, d + 120 + 44, count);	/* sh_info */
	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	f = fopen(path, "wb");
	fwrite(d, 1, sizeof(d), f);
	fclose(f);
	return open(path, O_RDONLY);
}

static void test_elf_xnum(void)
{
	struct tdat_error err;
	int fd;

	fd = xnum_file("xnum", 1, 184);
	CU_ASSERT_EQUAL(elf_check(fd, "xnum", &err), 0);
	close(fd);
	fd = xnum_file("xnum-cut", 1, 185);
	CU_ASSERT_EQUAL(elf_check(fd, "xnum-cut", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "xnum-cut: offset 64: ELF"
				      " program header 0: its 185 bytes"));
	close(fd);
	fd = xnum_file("xnum-more", 3, 10);
	CU_ASSERT_EQUAL(elf_check(fd, "xnum-more", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "program header 2: past"));
	close(fd);
}

/* ---- the page cache's xarray (cachepages.c) ---- */

#define VMEMMAP (BASE + 4096)
#define DIRECT 0xffff888000000000ull
#define MAPPING 0xffff888012345000ull
#define NODE(at) ((BASE + (at)) | 2)	/* an xarray entry naming a node */
#define FOLIO(k) (VMEMMAP + (k) * 64)

struct got {
	uint64_t index[16], data[16];
	int n;
};

static int got_page(void *ctx, uint64_t index, uint64_t data,
		    struct tdat_error *err)
{
	struct got *g = ctx;

	(void)err;
	if (g->n < 16) {
		g->index[g->n] = index;
		g->data[g->n] = data;
	}
	g->n++;
	return 0;
}

/* A node at byte at of the fake memory: its shift and slots. */
static void xa_node_at(struct fake *f, uint32_t at, uint8_t shift)
{
	f->mem[at] = shift;
}

static void xa_slot(struct fake *f, uint32_t node, int i, uint64_t e)
{
	tdat_store64(0, f->mem + node + 16 + i * 8, e);
}

/* struct page k of the fake vmemmap, belonging to mapping. */
static void folio(struct fake *f, int k, uint64_t mapping)
{
	tdat_store64(0, f->mem + 4096 + k * 64 + 24, mapping);
}

static void cache_of(struct fake *f, struct kernel *k, struct kcache *c)
{
	memset(k, 0, sizeof(*k));
	fake_mem(f, &k->mem, 0);
	memset(c, 0, sizeof(*c));
	c->k = k;
	c->xa_shift = (struct kfield){ 0, 1, 0, 0 };
	c->xa_slots = (struct kfield){ 16, 512, 0, 0 };
	c->pg_mapping = (struct kfield){ 24, 8, 0, 0 };
	c->page_struct = 64;
	c->nslots = 64;
	c->vmemmap = VMEMMAP;
	c->direct = DIRECT;
}

/* Two levels: a page, a shadow, a hole, an order-2 folio (a canonical
 * slot and three siblings), a retry entry; a second leaf past i_size
 * but for its first two indexes. */
static void fake_xarray(struct fake *f)
{
	int k;

	memset(f, 0, sizeof(*f));
	xa_node_at(f, 0, 6);
	xa_slot(f, 0, 0, NODE(1024));
	xa_slot(f, 0, 1, NODE(2048));
	xa_node_at(f, 1024, 0);
	xa_slot(f, 1024, 0, FOLIO(3));
	xa_slot(f, 1024, 1, 0x1234 << 1 | 1);	/* a shadow: no page */
	xa_slot(f, 1024, 4, FOLIO(8));
	for (k = 5; k < 8; k++)
		xa_slot(f, 1024, k, 4 << 2 | 2);	/* siblings of slot 4 */
	xa_slot(f, 1024, 8, 0x402);		/* retry */
	xa_node_at(f, 2048, 0);
	for (k = 0; k < 64; k++)
		xa_slot(f, 2048, k, FOLIO(16 + k % 8));
	for (k = 0; k < 24; k++)
		folio(f, k, MAPPING);
}

static void test_cache_pages(void)
{
	static const uint64_t index[] = { 0, 4, 5, 6, 7, 64, 65 };
	static const uint64_t pfn[] = { 3, 8, 9, 10, 11, 16, 17 };
	struct kcache_file file = { 1, 66 * 4096 - 100, MAPPING, NODE(0) };
	struct tdat_error err;
	struct kernel k;
	struct kcache c;
	struct fake f;
	struct got g = { { 0 }, { 0 }, 0 };
	int i;

	fake_xarray(&f);
	cache_of(&f, &k, &c);
	CU_ASSERT_EQUAL_FATAL(kcache_pages(&c, &file, got_page, &g, &err), 0);
	CU_ASSERT_EQUAL_FATAL(g.n, 7);
	for (i = 0; i < 7; i++) {
		CU_ASSERT_EQUAL(g.index[i], index[i]);
		CU_ASSERT_EQUAL(g.data[i], DIRECT + pfn[i] * 4096);
	}
	/* a lone entry at the head: index 0 */
	memset(&g, 0, sizeof(g));
	file.xa_head = FOLIO(5);
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), 0);
	CU_ASSERT_EQUAL(g.n, 1);
	CU_ASSERT_EQUAL(g.data[0], DIRECT + 5 * 4096);
}

/* A damaged xarray or page is refused, naming the address. */
static void test_cache_refused(void)
{
	struct kcache_file file = { 1, 66 * 4096, MAPPING, NODE(0) };
	struct tdat_error err;
	struct kernel k;
	struct kcache c;
	struct fake f;
	struct got g = { { 0 }, { 0 }, 0 };

	fake_xarray(&f);
	cache_of(&f, &k, &c);
	folio(&f, 8, MAPPING + 4096);	/* another file's page */
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not the file's"));
	fake_xarray(&f);
	xa_slot(&f, 0, 0, NODE(0));	/* the root below itself */
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "xa_node: shift 6"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "fake.dump: kernel address"));
	fake_xarray(&f);
	xa_node_at(&f, 0, 70);
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), -1);
	fake_xarray(&f);
	xa_slot(&f, 1024, 0, BASE + 8);	/* no struct page */
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no struct page"));
	fake_xarray(&f);
	xa_slot(&f, 0, 1, NODE(0x10000));	/* past the fake memory */
	CU_ASSERT_EQUAL(kcache_pages(&c, &file, got_page, &g, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not in the dump"));
}

/* ---- a directory's files by name (pagecache.c, cachesrc.c) ---- */

/* Where the fake's super block, inodes, dentries and names are. */
enum { SB_HEAD = 0, SB = 0x40, INODES = 0x100, MAPS = 0x400,
       DIR_D = 0x500, OTHER_D = 0x540, ROOT_D = 0x580, DENTS = 0x600,
       NAMES_AT = 0x1000 };
#define INODE(i) (INODES + (i) * 0x80)
#define DENT(j) (DENTS + (j) * 0x40)
#define S_DIR 0040755
#define S_REG 0100644

static const char *const dnames[] = { "tdat.dat.rec", "cpu0", "cpu1",
				      "elsewhere", "/" };

static void put64(struct fake *f, uint32_t at, uint64_t v)
{
	tdat_store64(0, f->mem + at, v);
}

/* A dentry at at named dnames[name], its parent at parent. */
static void dentry(struct fake *f, uint32_t at, int name, uint32_t parent)
{
	put64(f, at + 16, BASE + NAMES_AT + name * 0x20);
	put64(f, at + 24, BASE + parent);
}

/* Inode i: its mode, i_size, its mapping's root entry, and its first
 * dentry (at, 0 for none). */
static void inode(struct fake *f, int i, uint16_t mode, uint64_t size,
		  uint32_t at)
{
	tdat_store16(0, f->mem + INODE(i) + 16, mode);
	put64(f, INODE(i) + 24, at ? BASE + at : 0);
	put64(f, INODE(i) + 32, size);
	put64(f, INODE(i) + 40, BASE + MAPS + i * 0x20);
	put64(f, MAPS + i * 0x20 + 8, 0x1000 + i);
}

/* s_inodes: the inodes of order[] in that order, back to its head. */
static void sb_list(struct fake *f, const int *order, int n)
{
	uint32_t at = SB + 32;
	int i;

	for (i = 0; i < n; i++) {
		put64(f, at, BASE + INODE(order[i]));
		at = INODE(order[i]);
	}
	put64(f, at, BASE + SB + 32);
}

/* super_blocks: one super block on a block device; inode 0 the
 * directory tdat.dat.rec, 1 its file cpu0, 2 a cpu1 elsewhere. */
static void fake_fs(struct fake *f)
{
	static const int order[] = { 0, 1, 2 };
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 5; i++)
		strcpy((char *)f->mem + NAMES_AT + i * 0x20, dnames[i]);
	put64(f, SB_HEAD, BASE + SB);
	put64(f, SB, BASE + SB_HEAD);
	put64(f, SB + 16, 0xffff888000777000ull);	/* s_bdev */
	dentry(f, ROOT_D, 4, ROOT_D);
	dentry(f, DIR_D, 0, ROOT_D);
	dentry(f, OTHER_D, 3, ROOT_D);
	dentry(f, DENT(0), 1, DIR_D);
	dentry(f, DENT(1), 2, OTHER_D);
	inode(f, 0, S_DIR, 4096, DIR_D);
	inode(f, 1, S_REG, 12345, DENT(0));
	inode(f, 2, S_REG, 99, DENT(1));
	sb_list(f, order, 3);
}

static struct ksymtab_sym sb_sym = { BASE + SB_HEAD, 0, 'D' };

static void dir_cache_of(struct fake *f, struct kernel *k, struct kcache *c)
{
	cache_of(f, k, c);
	k->syms = (struct ksymtab){ 1, &sb_sym, (char *)"super_blocks", 13 };
	c->s_list = (struct kfield){ 0, 8, 0, 0 };
	c->s_bdev = (struct kfield){ 16, 8, 0, 0 };
	c->s_type = (struct kfield){ 24, 8, 0, 0 };
	c->s_inodes = (struct kfield){ 32, 16, 0, 0 };
	c->fs_name = (struct kfield){ 0, 8, 0, 0 };
	c->i_sb_list = (struct kfield){ 0, 16, 0, 0 };
	c->i_mode = (struct kfield){ 16, 2, 0, 0 };
	c->i_dentry = (struct kfield){ 24, 8, 0, 0 };
	c->i_size = (struct kfield){ 32, 8, 0, 0 };
	c->i_mapping = (struct kfield){ 40, 8, 0, 0 };
	c->d_alias = (struct kfield){ 0, 16, 0, 0 };
	c->d_name = (struct kfield){ 16, 8, 0, 0 };
	c->d_parent = (struct kfield){ 24, 8, 0, 0 };
	c->xa_head = (struct kfield){ 8, 8, 0, 0 };
}

static void test_cache_dir(void)
{
	struct kcache_names t = { NULL, NULL, 0 };
	struct kcache_file kf = { 0, 0, 0, 0 };
	struct tdat_error err;
	struct kernel k;
	struct kcache c;
	struct fake f;

	memset(&err, 0, sizeof(err));	/* a wrong success leaves it unset */
	fake_fs(&f);
	dir_cache_of(&f, &k, &c);
	CU_ASSERT_EQUAL_FATAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0",
					    &kf, &err), 1);
	CU_ASSERT_EQUAL(kf.inode, BASE + INODE(1));
	CU_ASSERT_EQUAL(kf.size, 12345);
	CU_ASSERT_EQUAL(kf.mapping, BASE + MAPS + 0x20);
	CU_ASSERT_EQUAL(kf.xa_head, 0x1001);
	/* the directory's own inode is no file of it; cpu1 is elsewhere */
	CU_ASSERT_EQUAL(t.n, 1);
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu1", &kf,
				      &err), 0);
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu7", &kf,
				      &err), 0);
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "nodir", "cpu0", &kf, &err), 0);
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "elsewhere", "cpu1", &kf,
				      &err), 1);
	CU_ASSERT_EQUAL(kf.inode, BASE + INODE(2));
	CU_ASSERT_EQUAL(kf.size, 99);
	kcache_names_free(&t);
	/* one inode linked as cpu0 in two directories of that name: itself,
	 * twice, not two files */
	dentry(&f, DENT(2), 1, OTHER_D);
	dentry(&f, OTHER_D, 0, ROOT_D);
	put64(&f, DENT(0), BASE + DENT(2));	/* d_alias.next */
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0", &kf,
				      &err), 1);
	CU_ASSERT_EQUAL(kf.inode, BASE + INODE(1));
	kcache_names_free(&t);
}

/* Two inodes of the same DIR/NAME: which one is meant is not known. */
static void test_cache_dir_twice(void)
{
	static const int order[] = { 0, 1, 2, 3 };
	struct kcache_names t = { NULL, NULL, 0 };
	struct kcache_file kf = { 0, 0, 0, 0 };
	struct tdat_error err;
	struct kernel k;
	struct kcache c;
	struct fake f;
	char want[200];

	memset(&err, 0, sizeof(err));	/* a wrong success leaves it unset */
	fake_fs(&f);
	dir_cache_of(&f, &k, &c);
	dentry(&f, DENT(3), 1, DIR_D);
	inode(&f, 3, S_REG, 777, DENT(3));
	sb_list(&f, order, 4);
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0", &kf,
				      &err), -1);
	snprintf(want, sizeof(want), "fake.dump: kernel address 0x%llx: two"
		 " files named tdat.dat.rec/cpu0 in the crashed kernel's"
		 " memory (inodes 0x%llx and 0x%llx)",
		 (unsigned long long)(BASE + INODE(3)),
		 (unsigned long long)(BASE + INODE(1)),
		 (unsigned long long)(BASE + INODE(3)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
	/* the other files of the directory are still found */
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "elsewhere", "cpu1", &kf,
				      &err), 1);
	kcache_names_free(&t);
}

/* An s_inodes list that never returns to its head ends in an error. */
static void test_cache_dir_loop(void)
{
	static const int loop[] = { 0, 1, 2 };
	struct kcache_names t = { NULL, NULL, 0 };
	struct kcache_file kf = { 0, 0, 0, 0 };
	struct tdat_error err;
	struct kernel k;
	struct kcache c;
	struct fake f;

	memset(&err, 0, sizeof(err));	/* a wrong success leaves it unset */
	fake_fs(&f);
	dir_cache_of(&f, &k, &c);
	sb_list(&f, loop, 3);
	put64(&f, INODE(2), BASE + INODE(1));	/* 2 back to 1 */
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0", &kf,
				      &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "fake.dump: kernel address"));
	kcache_names_free(&t);
	/* a loop of inodes that are no files: the count ends it, not the
	 * budget */
	inode(&f, 1, S_DIR, 0, 0);
	inode(&f, 2, S_DIR, 0, 0);
	put64(&f, INODE(2), BASE + INODE(1));
	k.mem.left = 1ull << 30;
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0", &kf,
				      &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "super_block.s_inodes: more"
				      " than 16M inodes (a loop?)"));
	kcache_names_free(&t);
	put64(&f, INODE(2), 0);	/* a NULL link */
	CU_ASSERT_EQUAL(kcache_lookup(&c, &t, "tdat.dat.rec", "cpu0", &kf,
				      &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "s_inodes: a NULL link"));
	kcache_names_free(&t);
}

void suite_vmcore(void)
{
	CU_pSuite s = CU_add_suite("vmcore", NULL, NULL);

	CU_add_test(s, "kallsyms, offsets from a base", test_kallsyms_relative);
	CU_add_test(s, "kallsyms, per-CPU offsets", test_kallsyms_percpu);
	CU_add_test(s, "kallsyms, place-relative", test_kallsyms_place);
	CU_add_test(s, "kallsyms, absolute", test_kallsyms_absolute);
	CU_add_test(s, "kallsyms that lie", test_kallsyms_refused);
	CU_add_test(s, "bitfields", test_bitfields);
	CU_add_test(s, "flattened dumps", test_flattened);
	CU_add_test(s, "ELF program headers past 65535", test_elf_xnum);
	CU_add_test(s, "the page cache's xarray", test_cache_pages);
	CU_add_test(s, "a damaged page cache", test_cache_refused);
	CU_add_test(s, "a directory's files by name", test_cache_dir);
	CU_add_test(s, "two files of one name", test_cache_dir_twice);
	CU_add_test(s, "a loop of inodes", test_cache_dir_loop);
}
