/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmem.c - reading the crashed kernel's memory: every read bounded (a
 * size the caller chose, and one budget for the whole job, so that no
 * pointer or count in a corrupt dump makes the walk endless), values in
 * the kernel's byte order and word size.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

/* "DUMP: WHERE WHAT": -1. */
static int failv(const struct kmem *m, const char *where,
		 struct tdat_error *err, const char *fmt, va_list ap)
{
	char what[400];

	vsnprintf(what, sizeof(what), fmt, ap);
	return tdat_errorf(err, "%s: %s%s", m->path, where, what);
}

int kmem_fail(const struct kmem *m, uint64_t addr, struct tdat_error *err,
	      const char *fmt, ...)
{
	char where[48];
	va_list ap;
	int r;

	snprintf(where, sizeof(where), "kernel address 0x%llx: ",
		 (unsigned long long)addr);
	va_start(ap, fmt);
	r = failv(m, where, err, fmt, ap);
	va_end(ap);
	return r;
}

int kmem_failn(const struct kmem *m, struct tdat_error *err,
	       const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = failv(m, "", err, fmt, ap);
	va_end(ap);
	return r;
}

int kmem_excluded(const struct kmem *m)
{
	const char *why = m->src.why ? m->src.why(m->src.ctx) : NULL;

	return why && strstr(why, "Excluded");	/* libkdumpfile's words */
}

int kmem_read(struct kmem *m, uint64_t addr, void *buf, size_t n,
	      const char *what, struct tdat_error *err)
{
	const char *why;

	if (n > m->left)
		return kmem_fail(m, addr, err, "%s: more than the %llu GiB"
				 " a dump's ring buffers may take", what,
				 KMEM_BUDGET >> 30);
	m->left -= n;
	if (addr + n >= addr && !m->src.read(m->src.ctx, addr, buf, n))
		return 0;
	why = m->src.why ? m->src.why(m->src.ctx) : NULL;
	if (kmem_excluded(m))
		return kmem_fail(m, addr, err, "%s: a page the dump's filter"
				 " left out (a makedumpfile older than the"
				 " kernel, as Debian 12's 1.7.2 for Linux"
				 " 6.10+, takes slab pages for user pages at"
				 " -d 31: dump with -d 23, or with a"
				 " makedumpfile that knows the kernel)", what);
	return kmem_fail(m, addr, err, "%s: not in the dump%s%s%s", what,
			 why ? " (" : "", why ? why : "", why ? ")" : "");
}

uint8_t *kmem_obj(struct kmem *m, uint64_t addr, uint32_t size,
		  const char *what, struct tdat_error *err)
{
	uint8_t *p = calloc(1, (size_t)size + 8);

	if (!p) {
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	if (kmem_read(m, addr, p, size, what, err)) {
		free(p);
		return NULL;
	}
	return p;
}

uint64_t kmem_load(const struct kmem *m, const void *p, int n)
{
	return tdat_load_n(m->big, p, n);
}

int kmem_ptr(struct kmem *m, uint64_t addr, uint64_t *v, const char *what,
	     struct tdat_error *err)
{
	uint8_t b[8];

	if (kmem_read(m, addr, b, (size_t)m->ptr_size, what, err))
		return -1;
	*v = kmem_load(m, b, m->ptr_size);
	return 0;
}

int kmem_u32(struct kmem *m, uint64_t addr, uint32_t *v, const char *what,
	     struct tdat_error *err)
{
	uint8_t b[4];

	if (kmem_read(m, addr, b, 4, what, err))
		return -1;
	*v = (uint32_t)kmem_load(m, b, 4);
	return 0;
}

/* Up to cap bytes, in pieces that end at page boundaries: a short
 * string at the end of mapped memory is read without the page after. */
int kmem_string(struct kmem *m, uint64_t addr, char *buf, size_t cap,
		const char *what, struct tdat_error *err)
{
	size_t got = 0, n;
	uint64_t page = m->page_size ? m->page_size : 4096;

	while (got < cap) {
		n = (size_t)(page - (addr + got) % page);
		if (n > cap - got)
			n = cap - got;
		if (kmem_read(m, addr + got, buf + got, n, what, err))
			return -1;
		if (memchr(buf + got, 0, n))
			return 0;
		got += n;
	}
	buf[cap - 1] = 0;
	return kmem_fail(m, addr, err, "%s: a string longer than %zu bytes",
			 what, cap - 1);
}

char *kmem_strdup(struct kmem *m, uint64_t addr, size_t max,
		  const char *what, struct tdat_error *err)
{
	char *buf = malloc(max), *s;

	if (!buf) {
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	if (kmem_string(m, addr, buf, max, what, err)) {
		free(buf);
		return NULL;
	}
	s = strdup(buf);
	free(buf);
	if (!s)
		tdat_errorf(err, "out of memory");
	return s;
}

int kmem_info(const struct kmem *m, const char *key, char *buf, size_t cap)
{
	return m->src.info(m->src.ctx, key, buf, cap);
}

int kmem_info_hex(const struct kmem *m, const char *key, uint64_t *v)
{
	char buf[64], *end;

	if (kmem_info(m, key, buf, sizeof(buf)) || !buf[0])
		return -1;
	*v = strtoull(buf, &end, 16);
	return *end ? -1 : 0;
}
