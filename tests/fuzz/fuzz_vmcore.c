/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_vmcore.c - libFuzzer target for the vmcore engine's readers of
 * kernel structures (`make fuzz`): convert/vmcore/kallsyms.c, arrays.c,
 * ringbuf.c, formats.c, texts.c, cachepages.c, over kernel memory the
 * input makes up.
 *
 * Input: a mode byte, then the memory M, mapped at BASE (every other
 * address fails to read, as a page a dump does not hold); with mode bit
 * 1 set, every address is read from M at (address - BASE) modulo its
 * size instead, so that any value the fuzzer puts in M is a pointer the
 * walks follow (reads that cross M's end still fail).
 *   mode even: the kallsyms tables; VMCOREINFO names them at fixed
 *     places of M: num_syms at 0, token_index at 16, token_table at 544,
 *     names at 1600, offsets at 3000, relative_base at 3100, _stext at
 *     BASE + 0x100.
 *   mode odd: the structures, with the types of this machine's own
 *     kernel (/sys/kernel/btf/vmlinux, or TDAT_FUZZ_BTF; without one the
 *     mode does nothing) and symbols at the places the first 64 bytes of
 *     M give (u32 offsets, in the order of SYMBOLS below): trace arrays,
 *     each buffer's ring on up to 4 CPUs, every format, the texts; and,
 *     with or without those types, a page cache's xarray whose root
 *     entry, i_size and mapping are M's u64s at 64, 72 and 80 (struct
 *     pages of 64 bytes from BASE, xa_node's shift at 0, slots at 16).
 * Reads are bounded to 4 MiB an input, so that looping lists end by the
 * budget as a corrupt dump's do.  Besides sanitizer reports, the target
 * traps when a page comes out with its commit beyond it, or a cached
 * page past i_size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

#define CHECK(c)	do { if (!(c)) __builtin_trap(); } while (0)
#define BASE 0xffffffff81000000ull

static const char *const SYMBOLS[] = {
	"ftrace_trace_arrays", "global_trace", "nr_cpu_ids", "ftrace_events",
	"ftrace_common_fields", "savedcmd", "trace_clocks", "init_uts_ns",
	"modules", "trace_bprintk_fmt_list", "__start___tracepoint_str",
	"__stop___tracepoint_str", "__start_rodata", "__start_BTF",
	"syscall_get_enter_fields", "_stext",
};
#define NSYMS (sizeof(SYMBOLS) / sizeof(SYMBOLS[0]))

static struct kbtf *host_btf;

struct mem {
	const uint8_t *p;
	size_t n;
	int wrap;
};

static int mem_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	const struct mem *m = ctx;
	uint64_t off = addr - BASE;

	if (m->wrap && m->n)
		off %= m->n;
	if (addr < BASE && !m->wrap)
		return -1;
	if (off > m->n || n > m->n - off)
		return -1;
	memcpy(buf, m->p + off, n);
	return 0;
}

static int mem_info(void *ctx, const char *key, char *buf, size_t cap)
{
	static const struct { const char *key; uint64_t at; } lines[] = {
		{ "SYMBOL(kallsyms_num_syms)", BASE },
		{ "SYMBOL(kallsyms_token_index)", BASE + 16 },
		{ "SYMBOL(kallsyms_token_table)", BASE + 544 },
		{ "SYMBOL(kallsyms_names)", BASE + 1600 },
		{ "SYMBOL(kallsyms_offsets)", BASE + 3000 },
		{ "SYMBOL(kallsyms_relative_base)", BASE + 3100 },
		{ "SYMBOL(_stext)", BASE + 0x100 },
	};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strcmp(key, lines[i].key)) {
			snprintf(buf, cap, "%llx", (unsigned long long)lines[i].at);
			return 0;
		}
	return -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("TDAT_FUZZ_BTF");
	uint8_t *raw = malloc(64u << 20);
	FILE *f = fopen(path ? path : "/sys/kernel/btf/vmlinux", "rb");
	size_t n;

	(void)argc;
	(void)argv;
	if (f && raw) {
		n = fread(raw, 1, 64u << 20, f);
		host_btf = kbtf_new(raw, (uint32_t)n);
	}
	if (f)
		fclose(f);
	free(raw);
	return 0;
}

/* The symbols of mode odd: SYMBOLS[i] at BASE + the i-th u32 of M. */
static int fake_symbols(const struct mem *m, struct ksymtab *s)
{
	struct tdat_bytes names = { 0 };
	size_t i;

	if (m->n < 4 * NSYMS)
		return -1;
	s->n = NSYMS;
	s->v = calloc(NSYMS, sizeof(*s->v));
	for (i = 0; s->v && i < NSYMS; i++) {
		s->v[i].addr = BASE + tdat_load32(0, m->p + 4 * i);
		s->v[i].type = 'D';
		s->v[i].name = (uint32_t)names.len;
		tdat_bytes_add(&names, SYMBOLS[i], strlen(SYMBOLS[i]) + 1);
	}
	s->names = (char *)names.data;
	return s->v && s->names ? 0 : -1;
}

static int page_seen(void *ctx, const uint8_t *page, uint32_t skip,
		     struct tdat_error *err)
{
	const struct kring *r = ctx;
	uint64_t commit = tdat_load_n(0, page + r->commit_off,
				      (int)r->commit_size);

	CHECK(commit <= r->page_size - r->data_off && skip < commit);
	return 0;
}

static int format_seen(void *ctx, const char *system, const char *name,
		       const char *text, size_t len, struct tdat_error *err)
{
	CHECK(len > 0 && text[len - 1] == '\n');
	return 0;
}

static void texts(struct kernel *k, const struct kring *r, int clock)
{
	struct tdat_bytes out = { 0 };
	struct tdat_error err;
	char buf[320];

	ktext_header_page(k, r, &out, &err);
	ktext_printk(k, &out, &err);
	ktext_cmdlines(k, &out, &err);
	ktext_clock(k, clock, &out, &err);
	ktext_module_syms(k, &out, &err);
	ktext_uname(k, buf, sizeof(buf), &err);
	tdat_bytes_free(&out);
}

static void structures(struct kernel *k)
{
	struct karrays a;
	struct kring r;
	struct tdat_error err;
	struct kring_stats st;
	int i, cpu;

	if (karrays_load(k, &a, &err))
		return;
	for (i = 0; i < a.n && i < 4; i++) {
		if (kring_layout(k, a.v[i].buffer, &r, &err))
			continue;
		for (cpu = 0; cpu < a.ncpus && cpu < 4; cpu++)
			kring_pages(k, a.v[i].buffer, cpu, &r, page_seen, &r,
				    &st, &err);
		if (!i)
			texts(k, &r, a.v[0].clock_id);
	}
	kformats_each(k, format_seen, NULL, &err);
	karrays_free(&a);
}

static int page_cached(void *ctx, uint64_t index, uint64_t data,
		       struct tdat_error *err)
{
	const uint64_t *npages = ctx;

	CHECK(index < *npages);
	return 0;
}

/* The page cache's xarray walk, the layout fixed (cachepages.c needs no
 * BTF once struct kcache is filled). */
static void page_cache(struct kernel *k, const struct mem *m)
{
	struct kcache_file f = { 1, 0, 0, 0 };
	struct tdat_error err;
	struct kcache c;
	uint64_t npages;

	if (m->n < 88)
		return;
	memset(&c, 0, sizeof(c));
	c.k = k;
	c.xa_shift = (struct kfield){ 0, 1, 0, 0 };
	c.xa_slots = (struct kfield){ 16, 512, 0, 0 };
	c.pg_mapping = (struct kfield){ 24, 8, 0, 0 };
	c.page_struct = 64;
	c.nslots = 64;
	c.vmemmap = BASE;
	c.direct = 0xffff888000000000ull;
	f.xa_head = tdat_load64(0, m->p + 64);
	f.size = tdat_load64(0, m->p + 72) & ((1ull << 32) - 1);
	f.mapping = tdat_load64(0, m->p + 80);
	npages = (f.size + 4095) / 4096;
	kcache_pages(&c, &f, page_cached, &npages, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem m = { data + 1, size ? size - 1 : 0, 0 };
	struct kernel k;
	struct tdat_error err;

	if (!size)
		return 0;
	m.wrap = (data[0] & 2) != 0;
	memset(&k, 0, sizeof(k));
	k.mem.src.read = mem_read;
	k.mem.src.info = mem_info;
	k.mem.src.ctx = &m;
	k.mem.path = "fuzz";
	k.mem.ptr_size = 8;
	k.mem.page_size = 4096;
	k.mem.left = 4u << 20;
	if (!(data[0] & 1)) {
		if (!ksymtab_load(&k.mem, &k.syms, &err))
			CHECK(k.syms.n > 0);
	} else {
		page_cache(&k, &m);
		if (host_btf && !fake_symbols(&m, &k.syms)) {
			k.btf = host_btf;
			structures(&k);
		}
	}
	ksymtab_free(&k.syms);
	return 0;
}
