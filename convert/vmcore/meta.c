/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta.c - the trace.dat's metadata, made of what the crashed kernel's
 * memory holds, framed as trace-cmd frames what it reads from tracefs
 * (FORMAT.md 9.6): the systems' formats in the order sysmeta.c writes a
 * live tracefs's (names sorted, newest first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"
#include "libfmt/metabuild.h"
#include "libfmt/version.h"

/* One format text, kept in a shared byte list. */
struct fmt_entry {
	char *system;
	char *name;
	size_t at, len;
};

struct fmt_list {
	struct fmt_entry *v;
	size_t n, cap;
	struct tdat_bytes texts;
};

static int collect(void *ctx, const char *system, const char *name,
		   const char *text, size_t len, struct tdat_error *err)
{
	struct fmt_list *l = ctx;
	struct fmt_entry *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;

		e = realloc(l->v, cap * sizeof(*e));
		if (!e)
			return tdat_errorf(err, "out of memory");
		l->v = e;
		l->cap = cap;
	}
	e = &l->v[l->n];
	e->system = strdup(system);
	e->name = strdup(name);
	e->at = l->texts.len;
	e->len = len;
	if (!e->system || !e->name || tdat_bytes_add(&l->texts, text, len)) {
		free(e->system);
		free(e->name);
		return tdat_errorf(err, "out of memory");
	}
	l->n++;
	return 0;
}

static int by_system_name(const void *a, const void *b)
{
	const struct fmt_entry *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

static void fmt_list_free(struct fmt_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].system);
		free(l->v[i].name);
	}
	free(l->v);
	tdat_bytes_free(&l->texts);
}

/* ---- parts, integers in the file's byte order ---- */

static int put32(const struct tdat_file *m, struct tdat_bytes *b, uint32_t v)
{
	uint8_t x[4];

	tdat_put32(m, x, v);
	return tdat_bytes_add(b, x, 4);
}

static int put64(const struct tdat_file *m, struct tdat_bytes *b, uint64_t v)
{
	uint8_t x[8];

	tdat_put64(m, x, v);
	return tdat_bytes_add(b, x, 8);
}

static void set_part(struct tdat_file *m, enum tdat_meta which,
		     struct tdat_bytes *b)
{
	struct tdat_blob blob = { b->data, b->len };

	tdat_meta_set(m, which, &blob);
	memset(b, 0, sizeof(*b));
}

/* Entries [from, to) of one system, newest name first. */
static int system_part(struct tdat_file *m, const struct fmt_list *l,
		       size_t from, size_t to, struct tdat_bytes *b)
{
	size_t i;
	int r = put32(m, b, (uint32_t)(to - from));

	for (i = to; !r && i-- > from;)
		r = put64(m, b, l->v[i].len) ||
		    tdat_bytes_add(b, l->texts.data + l->v[i].at, l->v[i].len);
	return r;
}

/* The FTRACE part (system ftrace) and the EVENTS part (the others,
 * newest system first). */
static int format_parts(struct tdat_file *m, struct fmt_list *l,
			struct tdat_error *err)
{
	struct tdat_bytes ft = { 0 }, ev = { 0 };
	size_t i, j, nsys = 0;
	int r = 0, have_ftrace = 0;

	qsort(l->v, l->n, sizeof(*l->v), by_system_name);
	r = put32(m, &ev, 0);
	for (j = l->n; !r && j > 0; j = i) {
		for (i = j - 1; i > 0 && !strcmp(l->v[i - 1].system,
						 l->v[j - 1].system); i--)
			;
		if (!strcmp(l->v[i].system, "ftrace")) {
			r = system_part(m, l, i, j, &ft);
			have_ftrace = 1;
			continue;
		}
		r = tdat_bytes_add(&ev, l->v[i].system,
				   strlen(l->v[i].system) + 1) ||
		    system_part(m, l, i, j, &ev);
		nsys++;
	}
	if (!r && !have_ftrace)
		r = put32(m, &ft, 0);
	if (r) {
		tdat_bytes_free(&ft);
		tdat_bytes_free(&ev);
		return tdat_errorf(err, "out of memory");
	}
	tdat_put32(m, ev.data, (uint32_t)nsys);
	set_part(m, TDAT_META_FTRACE, &ft);
	set_part(m, TDAT_META_EVENTS, &ev);
	return 0;
}

/* "header_page\0", u64 size, text, "header_event\0", u64 size, text. */
static int headers_part(struct kernel *k, struct tdat_file *m,
			const struct kring *ring, struct tdat_error *err)
{
	struct tdat_bytes page = { 0 }, event = { 0 }, b = { 0 };
	int r = ktext_header_page(k, ring, &page, err) ||
		ktext_header_event(&event, err);

	if (!r && (tdat_bytes_add(&b, "header_page", 12) ||
		   put64(m, &b, page.len) ||
		   tdat_bytes_add(&b, page.data, page.len) ||
		   tdat_bytes_add(&b, "header_event", 13) ||
		   put64(m, &b, event.len) ||
		   tdat_bytes_add(&b, event.data, event.len)))
		r = tdat_errorf(err, "out of memory");
	tdat_bytes_free(&page);
	tdat_bytes_free(&event);
	if (r) {
		tdat_bytes_free(&b);
		return -1;
	}
	set_part(m, TDAT_META_HEADERS, &b);
	return 0;
}

/* A text part: its size (wide: u64, else u32), then the text that fill
 * appends. */
static int text_part(struct kernel *k, struct tdat_file *m,
		     enum tdat_meta which, int wide,
		     int (*fill)(struct kernel *, struct tdat_bytes *,
				 struct tdat_error *),
		     struct tdat_error *err)
{
	struct tdat_bytes b = { 0 };
	size_t room = wide ? 8 : 4;

	if (tdat_bytes_add(&b, "\0\0\0\0\0\0\0\0", room)) {
		return tdat_errorf(err, "out of memory");
	}
	if (fill(k, &b, err)) {
		tdat_bytes_free(&b);
		return -1;
	}
	if (!wide && b.len - room > UINT32_MAX) {
		tdat_bytes_free(&b);
		return tdat_errorf(err, "a text too large for the file");
	}
	if (wide)
		tdat_put64(m, b.data, b.len - room);
	else
		tdat_put32(m, b.data, (uint32_t)(b.len - room));
	set_part(m, which, &b);
	return 0;
}

static int kallsyms_fill(struct kernel *k, struct tdat_bytes *b,
			 struct tdat_error *err)
{
	if (ksymtab_text(&k->syms, k->mem.ptr_size, b))
		return tdat_errorf(err, "out of memory");
	return ktext_module_syms(k, b, err);
}

static int formats(struct kernel *k, struct tdat_file *m,
		   struct tdat_error *err)
{
	struct fmt_list l = { 0 };
	int r = kformats_each(k, collect, &l, err) ||
		format_parts(m, &l, err);

	fmt_list_free(&l);
	return r ? -1 : 0;
}

static int add_text_option(struct tdat_file *m, uint16_t id, const char *text,
			   struct tdat_error *err)
{
	struct tdat_option o = { id, (uint32_t)strlen(text) + 1,
				 (uint8_t *)text };

	return tdat_add_option(m, &o) ? tdat_errorf(err, "out of memory") : 0;
}

/* TRACECLOCK (the first buffer's trace_clock text), UNAME, VERSION. */
static int options(struct kernel *k, struct tdat_file *m, int clock_id,
		   struct tdat_error *err)
{
	struct tdat_bytes clock = { 0 };
	char uname[320];
	int r;

	r = ktext_clock(k, clock_id, &clock, err) ||
	    (tdat_bytes_add(&clock, "", 1) &&
	     tdat_errorf(err, "out of memory")) ||
	    add_text_option(m, TDAT_OPT_TRACECLOCK, (char *)clock.data, err) ||
	    ktext_uname(k, uname, sizeof(uname), err) ||
	    add_text_option(m, TDAT_OPT_UNAME, uname, err) ||
	    add_text_option(m, TDAT_OPT_VERSION, "tdat-" TDAT_VERSION
			    " extract --vmcore", err);
	tdat_bytes_free(&clock);
	return r ? -1 : 0;
}

/* One buffer per chosen array, every CPU in each (v6 needs them all). */
static int buffers(struct kernel *k, struct tdat_file *m,
		   const struct karrays *a, const int *chosen, int nchosen,
		   const struct kring *rings, struct tdat_error *err)
{
	char clock[64];
	int i, b, cpu;

	for (i = 0; i < nchosen; i++) {
		if (ktext_clock_name(k, a->v[chosen[i]].clock_id, clock,
				     sizeof(clock), err))
			return -1;
		b = tdat_meta_add_buffer(m, a->v[chosen[i]].name, clock,
					 rings[i].page_size);
		if (b < 0)
			return tdat_errorf(err, "out of memory");
		for (cpu = 0; cpu < a->ncpus; cpu++)
			if (tdat_meta_add_cpu(m, b, cpu))
				return tdat_errorf(err, "out of memory");
	}
	return 0;
}

struct tdat_file *kmeta_build(struct kernel *k, const struct karrays *a,
			      const int *chosen, int nchosen,
			      const struct kring *rings, struct tdat_error *err)
{
	struct tdat_file *m = tdat_meta_new(7, k->mem.big, k->mem.ptr_size,
					    rings[0].page_size, err);

	if (!m)
		return NULL;
	m->commit_size = (int)rings[0].commit_size;
	m->page_header_size = (int)rings[0].data_off;
	m->cpu_count = (uint32_t)a->ncpus;
	if (headers_part(k, m, &rings[0], err) || formats(k, m, err) ||
	    text_part(k, m, TDAT_META_KALLSYMS, 0, kallsyms_fill, err) ||
	    text_part(k, m, TDAT_META_PRINTK, 0, ktext_printk, err) ||
	    text_part(k, m, TDAT_META_CMDLINES, 1, ktext_cmdlines, err) ||
	    options(k, m, a->v[chosen[0]].clock_id, err) ||
	    buffers(k, m, a, chosen, nchosen, rings, err)) {
		tdat_close(m);
		return NULL;
	}
	return m;
}
