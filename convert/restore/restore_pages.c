/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_pages.c - the page filter of restore: every page is checked;
 * genuine ones go to the writer in batches, the others are dropped and
 * told, one line per run of neighbours dropped for the same reason.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/restore/restore_internal.h"
#include "libfmt/salvage.h"

#define BATCH_PAGES 64

void restore_say(const struct convert_opts *o, const char *fmt, ...)
{
	struct tdat_error e;	/* one printable line, as errors are */
	va_list ap;

	if (!o || !o->warn)
		return;
	va_start(ap, fmt);
	tdat_verrorf(&e, fmt, ap);
	va_end(ap);
	o->warn(o->warn_ctx, e.msg);
}

void restore_say_at(const struct convert_opts *o, const char *file,
		    uint64_t off, const char *fmt, ...)
{
	struct tdat_error e;
	va_list ap;

	if (!o || !o->warn)
		return;
	va_start(ap, fmt);
	tdat_vfail(&e, file, off, fmt, ap);
	va_end(ap);
	o->warn(o->warn_ctx, e.msg);
}

int pf_init(struct page_filter *pf, const struct tdat_file *f,
	    const struct tdat_event_ids *ids, struct tdat_writer *w,
	    const struct convert_opts *o, uint32_t page_size,
	    const char *file, const char *buffer, int cpu,
	    struct tdat_error *err)
{
	memset(pf, 0, sizeof(*pf));
	pf->f = f;
	pf->ids = ids;
	pf->w = w;
	pf->o = o;
	pf->page_size = page_size;
	pf->file = file;
	pf->buffer = buffer;
	pf->cpu = cpu;
	pf->cap = (size_t)BATCH_PAGES * page_size;
	pf->batch = malloc(pf->cap);
	if (!pf->batch) {
		tdat_fail_nooff(err, file, "out of memory");
		return -1;
	}
	return 0;
}

void pf_free(struct page_filter *pf)
{
	free(pf->batch);
	pf->batch = NULL;
}

/* One line for the pending run of dropped pages. */
static void tell_run(struct page_filter *pf)
{
	unsigned long long n = pf->run_pages, bytes = n * pf->page_size;
	const char *what = pf->run_kind == TDAT_PAGE_EMPTY ? "empty" : "bad";
	const char *s = n > 1 ? "s" : "";

	if (!n)
		return;
	pf->run_pages = 0;
	if (pf->run_chunk)
		restore_say_at(pf->o, pf->file, pf->run_chunk, "dropped:"
			       " buffer \"%s\" CPU %d: %llu %s page%s (%llu"
			       " bytes) of the chunk here, from its page %llu:"
			       " %s", pf->buffer, pf->cpu, n, what, s, bytes,
			       (unsigned long long)pf->run_off, pf->run_why);
	else
		restore_say_at(pf->o, pf->file, pf->run_off, "dropped: buffer"
			       " \"%s\" CPU %d: %llu %s page%s (%llu bytes):"
			       " %s", pf->buffer, pf->cpu, n, what, s, bytes,
			       pf->run_why);
}

static int put_batch(struct page_filter *pf, struct tdat_error *err)
{
	size_t n = pf->n;

	pf->n = 0;
	return n ? tdat_writer_put_pages(pf->w, pf->batch, n, err) : 0;
}

/* A page dropped: counted, and told with its neighbours dropped for the
 * same reason as one line. */
static void drop_page(struct page_filter *pf, int v, const char *why,
		      uint64_t off, uint64_t chunk_off)
{
	if (v == TDAT_PAGE_EMPTY)
		pf->empty++;
	else
		pf->bad++;
	pf->dropped_bytes += pf->page_size;
	if (pf->run_pages && (pf->run_kind != v || pf->run_why != why ||
			      pf->run_chunk != chunk_off ||
			      (chunk_off ? pf->run_off + pf->run_pages != off :
			       pf->run_off + pf->run_pages * pf->page_size !=
			       off)))
		tell_run(pf);
	if (!pf->run_pages) {
		pf->run_kind = v;
		pf->run_why = why;
		pf->run_off = off;
		pf->run_chunk = chunk_off;
	}
	pf->run_pages++;
}

int pf_page(struct page_filter *pf, const uint8_t *page, uint64_t off,
	    uint64_t chunk_off, struct tdat_error *err)
{
	struct tdat_page_check pc;
	int v = tdat_page_check(pf->f, page, pf->page_size, pf->ids, &pc);

	if (v == TDAT_PAGE_OK) {
		tell_run(pf);
		pf->kept++;
		pf->events += (uint64_t)pc.nevents;
		memcpy(pf->batch + pf->n, page, pf->page_size);
		pf->n += pf->page_size;
		return pf->n == pf->cap ? put_batch(pf, err) : 0;
	}
	drop_page(pf, v, pc.why, off, chunk_off);
	return 0;
}

void pf_reject(struct page_filter *pf, uint64_t off, const char *why)
{
	drop_page(pf, TDAT_PAGE_BAD, why, off, 0);
}

void pf_drop(struct page_filter *pf, uint64_t off, uint64_t bytes,
	     const char *why)
{
	tell_run(pf);
	pf->dropped_bytes += bytes;
	restore_say_at(pf->o, pf->file, off, "dropped: buffer \"%s\" CPU %d:"
		       " %llu bytes: %s", pf->buffer, pf->cpu,
		       (unsigned long long)bytes, why);
}

int pf_flush(struct page_filter *pf, struct tdat_error *err)
{
	tell_run(pf);
	return put_batch(pf, err);
}
