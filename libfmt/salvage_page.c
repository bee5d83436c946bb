/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * salvage_page.c - is this ring-buffer page genuine?  For restore, which
 * reads raw files left by a crash and damaged trace.dat files, and must
 * keep only pages the kernel wrote: the strict page iterator (events.c)
 * is lenient where kbuffer is, this check is not.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

#define COMMIT_SIZE_MASK	0x07FFFFFFull
#define COMMIT_RESERVED		0x38000000ull	/* bits 27..29 */
#define MISSED_EVENTS		(1ull << 31)
#define MISSED_STORED		(1ull << 30)

/* ---- the event ids a file's formats declare ---- */

static int add_id(void *ctx, const char *system, const char *text,
		  size_t len)
{
	struct tdat_event_ids *ids = ctx;
	const char *p = text, *end = text + len;
	unsigned long v = 0;
	int digits = 0;

	/* "name: X\nID: N\n": find the line that starts with "ID:". */
	while (p < end) {
		if (end - p > 3 && !memcmp(p, "ID:", 3))
			break;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return 0;
		p++;
	}
	if (p >= end)
		return 0;
	for (p += 3; p < end && *p == ' '; p++)
		;
	for (; p < end && *p >= '0' && *p <= '9' && v <= 65535; p++, digits++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (digits && v <= 65535) {
		ids->known[v >> 3] |= (uint8_t)(1u << (v & 7));
		ids->count++;
	}
	return 0;
}

int tdat_event_ids_load(const struct tdat_file *f, struct tdat_event_ids *ids,
			struct tdat_error *err)
{
	memset(ids, 0, sizeof(*ids));
	return tdat_each_format(f, add_id, ids, err) ? -1 : 0;
}

int tdat_event_id_known(const struct tdat_event_ids *ids, uint16_t id)
{
	if (!ids || !ids->count)
		return 1;	/* nothing to check against */
	return (ids->known[id >> 3] >> (id & 7)) & 1;
}

/* ---- one page ---- */

static void header_word(const struct tdat_file *f, const uint8_t *p,
			uint32_t *type_len, uint32_t *delta)
{
	uint32_t w = tdat_get32(f, p);

	if (f->big_endian) {
		*type_len = w >> 27;
		*delta = w & 0x07FFFFFFu;
	} else {
		*type_len = w & 0x1F;
		*delta = w >> 5;
	}
}

static int bad(struct tdat_page_check *pc, const char *why)
{
	pc->why = why;
	return TDAT_PAGE_BAD;
}

/* One data event's payload: its common_type must be a known event. */
static int check_payload(const struct tdat_file *f, const uint8_t *p,
			 uint32_t size, const struct tdat_event_ids *ids,
			 struct tdat_page_check *pc)
{
	if (size < 4)
		return bad(pc, "an event too short for its common fields");
	if (!tdat_event_id_known(ids, tdat_get16(f, p)))
		return bad(pc, "an event of an id no format declares");
	pc->nevents++;
	return 0;
}

/* Walk the items exactly to the commit; every length must fit. */
static int walk(const struct tdat_file *f, const uint8_t *page, uint32_t pos,
		uint32_t end, const struct tdat_event_ids *ids,
		struct tdat_page_check *pc)
{
	uint64_t ts = pc->page_ts;

	while (pos < end) {
		uint32_t left = end - pos, type_len, delta, a0, len;
		const uint8_t *p = page + pos;

		if (left < 4)
			return bad(pc, "an event header cut by the commit");
		header_word(f, p, &type_len, &delta);
		if (type_len >= 1 && type_len <= 28) {
			len = 4 + type_len * 4;
			if (len > left)
				return bad(pc, "an event runs past the commit");
			if (check_payload(f, p + 4, type_len * 4, ids, pc))
				return TDAT_PAGE_BAD;
			ts += delta;
			pos += len;
			continue;
		}
		if (left < 8)
			return bad(pc, "an event header cut by the commit");
		a0 = tdat_get32(f, p + 4);
		switch (type_len) {
		case 0:
			if (a0 < 4 || a0 - 4 > left - 8 ||
			    (uint64_t)(a0 - 4 + 3) / 4 * 4 > left - 8)
				return bad(pc, "an event length runs past the"
					   " commit");
			if (check_payload(f, p + 8, a0 - 4, ids, pc))
				return TDAT_PAGE_BAD;
			ts += delta;
			len = 8 + (a0 - 4 + 3) / 4 * 4;
			break;
		case 29:	/* padding */
			if ((uint64_t)a0 + 4 > left)
				return bad(pc, "padding runs past the commit");
			len = 4 + a0;
			break;
		case 30:	/* time extend */
			ts += ((uint64_t)a0 << 27) + delta;
			len = 8;
			break;
		default:	/* 31: absolute time stamp */
			ts = (((uint64_t)a0 << 27) + delta) |
			     (ts & 0xF800000000000000ull);
			if (ts < pc->page_ts)
				return bad(pc, "an absolute time stamp before"
					   " the page's");
			len = 8;
			break;
		}
		pos += len;
	}
	pc->last_ts = ts;
	return 0;
}

int tdat_page_check(const struct tdat_file *f, const uint8_t *page,
		    uint32_t page_size, const struct tdat_event_ids *ids,
		    struct tdat_page_check *pc)
{
	uint32_t hdr = (uint32_t)f->page_header_size;
	uint32_t w = (uint32_t)f->commit_size;
	uint64_t commit, size;

	memset(pc, 0, sizeof(*pc));
	if (page_size <= hdr)
		return bad(pc, "the page is smaller than its header");
	pc->page_ts = tdat_get64(f, page);
	commit = w == 4 ? tdat_get32(f, page + 8) : tdat_get64(f, page + 8);
	size = commit & COMMIT_SIZE_MASK;
	/* The kernel sets the missed-events flags through a signed long:
	 * after lost events bits 32..63 copy bit 31. */
	if ((commit & COMMIT_RESERVED) ||
	    ((commit >> 32) && !((commit & MISSED_EVENTS) &&
				 (commit >> 32) == 0xFFFFFFFFull)))
		return bad(pc, "reserved bits of the commit word are set");
	if (size > page_size - hdr)
		return bad(pc, "the commit is larger than the page");
	if ((commit & MISSED_STORED) && hdr + size + w > page_size)
		return bad(pc, "no room for the stored missed-event count");
	if (size == 0) {
		pc->why = "the kernel never filled it (commit 0)";
		return TDAT_PAGE_EMPTY;
	}
	if (walk(f, page, hdr, hdr + (uint32_t)size, ids, pc))
		return TDAT_PAGE_BAD;
	if (!pc->nevents) {
		pc->why = "it holds no event";
		return TDAT_PAGE_EMPTY;
	}
	return TDAT_PAGE_OK;
}
