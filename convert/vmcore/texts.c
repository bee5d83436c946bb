/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * texts.c - the small tracefs texts a trace.dat keeps, rebuilt from the
 * crashed kernel's memory as tracefs would have printed them:
 * events/header_page and header_event, printk_formats, saved_cmdlines,
 * trace_clock; and uname.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "convert/vmcore/vmcore_internal.h"

#define FMT_MAX 4096
#define PRINTK_MAX 65536
#define COMM_LEN 16
#define CLOCKS_MAX 32

static int add(struct tdat_bytes *out, const char *s, size_t n,
	       struct tdat_error *err)
{
	return tdat_bytes_add(out, s, n) ? tdat_errorf(err, "out of memory")
					 : 0;
}

static int addf(struct tdat_bytes *out, struct tdat_error *err,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int addf(struct tdat_bytes *out, struct tdat_error *err,
		const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return add(out, line, n < (int)sizeof(line) ? (size_t)n
						    : sizeof(line) - 1, err);
}

/* How header_page names the overwrite flag: "int overwrite", signed
 * (up to Linux 6.x), or "char overwrite", signed as char is (7.x).  Only
 * the kernel's own format string tells, so it is looked for in its
 * read-only data (before its BTF: a few MiB, read once). */
#define RODATA_MAX (64u << 20)
#define RODATA_STEP (1u << 20)
static int overwrite_is_char(struct kernel *k, struct tdat_error *err)
{
	static const char want[] = "\tfield: char overwrite;\t";
	uint64_t at, end;
	size_t n, keep = sizeof(want) - 1;
	uint8_t *buf;
	int found = 0;

	if (ksymtab_find(&k->syms, "__start_rodata", &at) ||
	    ksymtab_find(&k->syms, "__start_BTF", &end) || end <= at ||
	    end - at > RODATA_MAX)
		return 0;
	buf = malloc(RODATA_STEP + keep);
	if (!buf)
		return tdat_errorf(err, "out of memory");
	for (; at < end && !found; at += RODATA_STEP) {
		n = end - at < RODATA_STEP + keep ? (size_t)(end - at)
						   : RODATA_STEP + keep;
		if (kmem_read(&k->mem, at, buf, n, "the kernel's rodata", err)) {
			free(buf);
			return -1;
		}
		found = memmem(buf, n, want, keep) != NULL;
	}
	free(buf);
	return found;
}

int ktext_header_page(struct kernel *k, const struct kring *r,
		      struct tdat_bytes *out, struct tdat_error *err)
{
	int csign = kbtf_char_signed(k->btf);
	int is_char = overwrite_is_char(k, err);

	return is_char < 0 ||
	       addf(out, err, "\tfield: u64 timestamp;\toffset:0;\tsize:8;"
		    "\tsigned:0;\n") ||
	       addf(out, err, "\tfield: local_t commit;\toffset:%u;\tsize:%u;"
		    "\tsigned:1;\n", r->commit_off, r->commit_size) ||
	       addf(out, err, "\tfield: %s overwrite;\toffset:%u;\tsize:1;"
		    "\tsigned:%d;\n", is_char ? "char" : "int", r->commit_off,
		    is_char ? csign : 1) ||
	       addf(out, err, "\tfield: char data;\toffset:%u;\tsize:%u;"
		    "\tsigned:%d;\n", r->data_off, r->page_size - r->data_off,
		    csign) ? -1 : 0;
}

int ktext_header_event(struct tdat_bytes *out, struct tdat_error *err)
{
	static const char text[] =
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n";

	return add(out, text, sizeof(text) - 1, err);
}

/* One printk_formats line: the string's address and its text with
 * newlines, tabs and quotes escaped. */
static int printk_line(struct kmem *m, uint64_t at, struct tdat_bytes *out,
		       struct tdat_error *err)
{
	char s[FMT_MAX];
	size_t i;
	int r;

	if (kmem_string(m, at, s, sizeof(s), "a printk format", err) ||
	    addf(out, err, "0x%llx : \"", (unsigned long long)at))
		return -1;
	for (i = 0, r = 0; s[i] && !r; i++) {
		switch (s[i]) {
		case '\n': r = add(out, "\\n", 2, err); break;
		case '\t': r = add(out, "\\t", 2, err); break;
		case '"': r = add(out, "\\\"", 2, err); break;
		default: r = add(out, &s[i], 1, err);
		}
	}
	return r || add(out, "\"\n", 2, err) ? -1 : 0;
}

/* The pointers from symbol start to symbol stop, each a format. */
static int printk_section(struct kernel *k, const char *start,
			  const char *stop, struct tdat_bytes *out,
			  struct tdat_error *err)
{
	uint64_t a, b, p;

	if (ksymtab_find(&k->syms, start, &a) || ksymtab_find(&k->syms, stop, &b))
		return 0;	/* a kernel without the section */
	if (b < a || (b - a) / (uint64_t)k->mem.ptr_size > PRINTK_MAX)
		return kmem_fail(&k->mem, a, err, "%s..%s: %llu bytes", start,
				 stop, (unsigned long long)(b - a));
	for (; a < b; a += (uint64_t)k->mem.ptr_size)
		if (kmem_ptr(&k->mem, a, &p, start, err) ||
		    (p && printk_line(&k->mem, p, out, err)))
			return -1;
	return 0;
}

/* Modules' formats: struct trace_bprintk_fmt on trace_bprintk_fmt_list. */
static int printk_modules(struct kernel *k, struct tdat_bytes *out,
			  struct tdat_error *err)
{
	struct kfield list, fmt;
	uint64_t head, node, p;
	int i;

	if (ksymtab_find(&k->syms, "trace_bprintk_fmt_list", &head))
		return 0;
	if (kbtf_field(k->btf, &k->mem, "trace_bprintk_fmt", "list", &list,
		       err) ||
	    kbtf_field(k->btf, &k->mem, "trace_bprintk_fmt", "fmt", &fmt, err) ||
	    kmem_ptr(&k->mem, head, &node, "trace_bprintk_fmt_list", err))
		return -1;
	for (i = 0; node != head; i++) {
		if (i == PRINTK_MAX)
			return kmem_fail(&k->mem, head, err, "trace_bprintk_fmt"
					 "_list: a loop?");
		if (kmem_ptr(&k->mem, node - list.off + fmt.off, &p,
			     "trace_bprintk_fmt.fmt", err) ||
		    (p && printk_line(&k->mem, p, out, err)) ||
		    kmem_ptr(&k->mem, node, &node, "trace_bprintk_fmt.list",
			     err))
			return -1;
	}
	return 0;
}

int ktext_printk(struct kernel *k, struct tdat_bytes *out,
		 struct tdat_error *err)
{
	return printk_section(k, "__start___trace_bprintk_fmt",
			      "__stop___trace_bprintk_fmt", out, err) ||
	       printk_section(k, "__start___tracepoint_str",
			      "__stop___tracepoint_str", out, err) ||
	       printk_modules(k, out, err) ? -1 : 0;
}

struct cmd_layout {
	struct kfield to_pid, to_cmdline, num, idx, names;
	uint32_t map_len;	/* PID_MAX_DEFAULT */
	uint64_t names_at;	/* the comm array */
};

static int cmd_layout(struct kernel *k, uint64_t buf, struct cmd_layout *l,
		      struct tdat_error *err)
{
	const char *s = "saved_cmdlines_buffer";

	if (kbtf_field(k->btf, &k->mem, s, "map_pid_to_cmdline", &l->to_cmdline,
		       err) ||
	    kbtf_field(k->btf, &k->mem, s, "map_cmdline_to_pid", &l->to_pid,
		       err) ||
	    kbtf_field(k->btf, &k->mem, s, "cmdline_num", &l->num, err) ||
	    kbtf_field(k->btf, &k->mem, s, "saved_cmdlines", &l->names, err))
		return -1;
	l->map_len = l->to_cmdline.size / 4 - 1;
	if (l->map_len < 2 || l->map_len & (l->map_len - 1))
		return kmem_failn(&k->mem, err, "saved_cmdlines_buffer: a pid"
				  " map of %u entries", l->to_cmdline.size / 4);
	/* Linux 6.8+ keeps the names inline (a flexible array), older ones
	 * behind a pointer */
	l->names_at = buf + l->names.off;
	if (l->names.size)
		return kmem_ptr(&k->mem, l->names_at, &l->names_at,
				"saved_cmdlines", err);
	return 0;
}

/* The comm of pid as __trace_find_cmdline finds it. */
static int find_comm(struct kernel *k, uint64_t buf,
		     const struct cmd_layout *l, uint64_t to_pid, uint32_t pid,
		     char *comm, struct tdat_error *err)
{
	uint32_t map, back;

	if (!pid) {
		strcpy(comm, "<idle>");
		return 0;
	}
	strcpy(comm, "<...>");
	if (kmem_u32(&k->mem, buf + l->to_cmdline.off +
		     4ull * (pid & (l->map_len - 1)), &map,
		     "map_pid_to_cmdline", err))
		return -1;
	if (map == UINT32_MAX)
		return 0;
	if (kmem_u32(&k->mem, to_pid + 4ull * map, &back, "map_cmdline_to_pid",
		     err))
		return -1;
	if (back != pid)
		return 0;
	if (kmem_read(&k->mem, l->names_at + (uint64_t)map * COMM_LEN, comm,
		      COMM_LEN, "saved_cmdlines", err))
		return -1;
	comm[COMM_LEN - 1] = 0;
	return 0;
}

int ktext_cmdlines(struct kernel *k, struct tdat_bytes *out,
		   struct tdat_error *err)
{
	struct cmd_layout l;
	uint64_t sym, buf, to_pid;
	uint32_t num, i, pid;
	char comm[COMM_LEN];
	uint8_t *obj;

	if (ksymtab_need(&k->syms, &k->mem, "savedcmd", &sym, err) ||
	    kmem_ptr(&k->mem, sym, &buf, "savedcmd", err))
		return -1;
	if (!buf)
		return 0;
	if (cmd_layout(k, buf, &l, err))
		return -1;
	obj = kmem_obj(&k->mem, buf + l.num.off, 4, "cmdline_num", err);
	if (!obj)
		return -1;
	num = (uint32_t)kmem_load(&k->mem, obj, 4);
	free(obj);
	if (num > (1u << 22) ||
	    kmem_ptr(&k->mem, buf + l.to_pid.off, &to_pid, "map_cmdline_to_pid",
		     err))
		return num > (1u << 22) ? kmem_fail(&k->mem, buf, err,
				"saved_cmdlines_buffer: %u entries", num) : -1;
	for (i = 0; i < num; i++) {
		if (kmem_u32(&k->mem, to_pid + 4ull * i, &pid,
			     "map_cmdline_to_pid", err))
			return -1;
		if (pid == UINT32_MAX)
			continue;
		if (find_comm(k, buf, &l, to_pid, pid, comm, err) ||
		    addf(out, err, "%d %s\n", (int)pid, comm))
			return -1;
	}
	return 0;
}

/* trace_clocks[]: { u64 (*func)(void); const char *name; int in_ns; },
 * a struct without a name, so not in BTF: three words each.  Its length
 * is the symbol's extent. */
int ktext_clock(struct kernel *k, int clock_id, struct tdat_bytes *out,
		struct tdat_error *err)
{
	uint64_t at, end, name, elem = 3ull * (uint64_t)k->mem.ptr_size;
	char s[64];
	int i, n;

	if (ksymtab_need(&k->syms, &k->mem, "trace_clocks", &at, err))
		return -1;
	end = ksymtab_end(&k->syms, at);
	n = end > at ? (int)((end - at) / elem) : 0;
	if (n > CLOCKS_MAX)
		n = CLOCKS_MAX;
	for (i = 0; i < n; i++) {
		if (kmem_ptr(&k->mem, at + i * elem + (uint64_t)k->mem.ptr_size,
			     &name, "trace_clocks[].name", err))
			return -1;
		if (!name || kmem_string(&k->mem, name, s, sizeof(s),
					 "trace_clocks[].name", NULL) || !s[0])
			break;
		if (addf(out, err, "%s%s%s%s", i ? " " : "",
			 i == clock_id ? "[" : "", s, i == clock_id ? "]" : ""))
			return -1;
	}
	if (!i)
		return kmem_fail(&k->mem, at, err, "trace_clocks: no clock");
	return add(out, "\n", 1, err);
}

int ktext_clock_name(struct kernel *k, int clock_id, char *buf, size_t cap,
		     struct tdat_error *err)
{
	struct tdat_bytes text = { 0 };
	const char *open, *close;

	if (ktext_clock(k, clock_id, &text, err) ||
	    tdat_bytes_add(&text, "", 1)) {
		tdat_bytes_free(&text);
		return -1;
	}
	open = strchr((char *)text.data, '[');
	close = open ? strchr(open, ']') : NULL;
	snprintf(buf, cap, "%.*s", close ? (int)(close - open - 1) : 0,
		 close ? open + 1 : "");
	tdat_bytes_free(&text);
	return close ? 0 : kmem_failn(&k->mem, err, "trace_clocks: no clock"
				      " number %d", clock_id);
}

int ktext_uname(struct kernel *k, char *buf, size_t cap,
		struct tdat_error *err)
{
	struct kfield f[4];
	const char *part[4] = { "name.sysname", "name.nodename",
				"name.release", "name.machine" };
	char s[4][72];
	uint64_t at;
	int i;

	if (ksymtab_need(&k->syms, &k->mem, "init_uts_ns", &at, err))
		return -1;
	for (i = 0; i < 4; i++) {
		size_t n;

		if (kbtf_field(k->btf, &k->mem, "uts_namespace", part[i], &f[i],
			       err))
			return -1;
		n = f[i].size < sizeof(s[i]) ? f[i].size : sizeof(s[i]);
		if (!n || kmem_read(&k->mem, at + f[i].off, s[i], n,
				    "init_uts_ns", err))
			return n ? -1 : kmem_failn(&k->mem, err, "uts_namespace"
						   ": an empty %s", part[i]);
		s[i][n - 1] = 0;
	}
	snprintf(buf, cap, "%s %s %s %s", s[0], s[1], s[2], s[3]);
	return 0;
}

/* ---- modules' symbols ---- */

#define MODULES_MAX 8192
#define MOD_SYMS_MAX (1u << 20)

struct mod_layout {
	struct kfield list, name, kallsyms;
	struct kfield symtab, num, strtab, typetab;	/* mod_kallsyms */
	struct kfield st_name, st_value;		/* Elf_Sym */
	uint32_t sym_size;
};

static int mod_layout(struct kernel *k, struct mod_layout *l,
		      struct tdat_error *err)
{
	const struct kbtf *b = k->btf;
	struct kmem *m = &k->mem;
	const char *sym = m->ptr_size == 8 ? "elf64_sym" : "elf32_sym";

	return kbtf_field(b, m, "module", "list", &l->list, err) ||
	       kbtf_field(b, m, "module", "name", &l->name, err) ||
	       kbtf_field(b, m, "module", "kallsyms", &l->kallsyms, err) ||
	       kbtf_field(b, m, "mod_kallsyms", "symtab", &l->symtab, err) ||
	       kbtf_field(b, m, "mod_kallsyms", "num_symtab", &l->num, err) ||
	       kbtf_field(b, m, "mod_kallsyms", "strtab", &l->strtab, err) ||
	       kbtf_field(b, m, "mod_kallsyms", "typetab", &l->typetab, err) ||
	       kbtf_size(b, m, sym, &l->sym_size, err) ||
	       kbtf_field(b, m, sym, "st_name", &l->st_name, err) ||
	       kbtf_field(b, m, sym, "st_value", &l->st_value, err) ? -1 : 0;
}

/* One symbol of a module as /proc/kallsyms prints it.  The case of its
 * type says whether the module exports it; that is not looked up here:
 * lower case, as for most. */
static int mod_sym(struct kernel *k, const struct mod_layout *l,
		   const uint8_t *ks, uint32_t i, const char *mod,
		   struct tdat_bytes *out, struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint8_t sym[64], type;
	char name[512];
	uint64_t symtab = kfield_get(m, ks, &l->symtab);

	if (l->sym_size > sizeof(sym) ||
	    kmem_read(m, symtab + (uint64_t)i * l->sym_size, sym, l->sym_size,
		      "a module's symtab", err) ||
	    kmem_read(m, kfield_get(m, ks, &l->typetab) + i, &type, 1,
		      "a module's typetab", err) ||
	    kmem_string(m, kfield_get(m, ks, &l->strtab) +
			kfield_get(m, sym, &l->st_name), name, sizeof(name),
			"a module's strtab", err))
		return l->sym_size > sizeof(sym) ?
		       kmem_failn(m, err, "Elf_Sym of %u bytes", l->sym_size) : -1;
	if (!name[0])
		return 0;
	if (type >= 'A' && type <= 'Z')
		type = (uint8_t)(type - 'A' + 'a');
	return addf(out, err, "%0*llx %c %s\t[%s]\n", m->ptr_size * 2,
		    (unsigned long long)kfield_get(m, sym, &l->st_value), type,
		    name, mod);
}

static int one_module(struct kernel *k, const struct mod_layout *l,
		      uint64_t mod, struct tdat_bytes *out,
		      struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint64_t kallsyms;
	char name[64];
	uint8_t *ks;
	uint32_t n, i, size;
	int r = 0;

	if (l->name.size > sizeof(name) ||
	    kmem_read(m, mod + l->name.off, name, l->name.size, "module.name",
		      err) ||
	    kmem_ptr(m, mod + l->kallsyms.off, &kallsyms, "module.kallsyms",
		     err))
		return l->name.size > sizeof(name) ?
		       kmem_failn(m, err, "module.name of %u bytes",
				  l->name.size) : -1;
	name[l->name.size - 1] = 0;
	if (!kallsyms)
		return 0;
	if (kbtf_size(k->btf, m, "mod_kallsyms", &size, err) ||
	    !(ks = kmem_obj(m, kallsyms, size, "mod_kallsyms", err)))
		return -1;
	n = (uint32_t)kfield_get(m, ks, &l->num);
	if (n > MOD_SYMS_MAX)
		r = kmem_fail(m, kallsyms, err, "mod_kallsyms.num_symtab: %u", n);
	for (i = 0; !r && i < n; i++)
		r = mod_sym(k, l, ks, i, name, out, err);
	free(ks);
	return r;
}

int ktext_module_syms(struct kernel *k, struct tdat_bytes *out,
		      struct tdat_error *err)
{
	struct mod_layout l;
	uint64_t head, node;
	int i;

	if (ksymtab_find(&k->syms, "modules", &head))
		return 0;	/* a kernel without modules */
	if (mod_layout(k, &l, err) ||
	    kmem_ptr(&k->mem, head, &node, "modules", err))
		return -1;
	for (i = 0; node != head; i++) {
		if (i == MODULES_MAX)
			return kmem_fail(&k->mem, head, err, "modules: more"
					 " than %d (a loop?)", MODULES_MAX);
		if (one_module(k, &l, node - l.list.off, out, err) ||
		    kmem_ptr(&k->mem, node, &node, "module.list", err))
			return -1;
	}
	return 0;
}
