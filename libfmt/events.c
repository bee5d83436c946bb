/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* events.c - walking the events of one ring-buffer page (FORMAT.md 7). */
#include "libfmt/internal.h"

#define COMMIT_SIZE_MASK	0x07FFFFFFu
#define MISSED_EVENTS		(1ull << 31)
#define MISSED_STORED		(1ull << 30)

enum {
	TYPE_DATA_MAX = 28,
	TYPE_PADDING = 29,
	TYPE_TIME_EXTEND = 30,
	TYPE_TIME_STAMP = 31,
};

int tdat_page_iter_init(struct tdat_page_iter *it, const struct tdat_file *f,
			const uint8_t *page, uint32_t page_size)
{
	uint32_t hdr = (uint32_t)f->page_header_size;
	uint64_t commit;

	it->f = f;
	it->page = page;
	it->page_size = page_size;
	it->ts = tdat_get64(f, page);
	commit = f->commit_size == 4 ? tdat_get32(f, page + 8) :
				       tdat_get64(f, page + 8);
	it->pos = hdr;
	it->end = hdr + (uint32_t)(commit & COMMIT_SIZE_MASK);
	it->missed = 0;
	if ((commit & COMMIT_SIZE_MASK) > page_size - hdr) {
		it->end = hdr;
		return -1;
	}
	if (commit & MISSED_EVENTS) {
		it->missed = -1;
		if ((commit & MISSED_STORED) &&
		    it->end + (uint32_t)f->commit_size <= page_size)
			it->missed = (int64_t)(f->commit_size == 4 ?
				tdat_get32(f, page + it->end) :
				tdat_get64(f, page + it->end));
	}
	return 0;
}

/* Decode the 32-bit event header word in the file's byte order. */
static void event_header(const struct tdat_file *f, const uint8_t *p,
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

int tdat_page_iter_next(struct tdat_page_iter *it, struct tdat_event *ev)
{
	const struct tdat_file *f = it->f;

	while (it->pos < it->end) {
		const uint8_t *p = it->page + it->pos;
		uint32_t left = it->end - it->pos, type_len, delta, len, a0;

		if (left < 4)
			return -1;
		event_header(f, p, &type_len, &delta);
		if (type_len >= 1 && type_len <= TYPE_DATA_MAX) {
			len = 4 + type_len * 4;
			if (len > left)
				return -1;
			it->ts += delta;
			ev->ts = it->ts;
			ev->data = p + 4;
			ev->size = type_len * 4;
			ev->offset = it->pos;
			it->pos += len;
			return 1;
		}
		if (left < 8)
			return type_len == TYPE_PADDING ? 0 : -1;
		a0 = tdat_get32(f, p + 4);
		switch (type_len) {
		case 0:		/* data with explicit length */
			if (a0 < 4 || ((uint64_t)a0 - 4 + 3) / 4 * 4 > left - 8)
				return -1;
			it->ts += delta;
			ev->ts = it->ts;
			ev->data = p + 8;
			ev->size = a0 - 4;
			ev->offset = it->pos;
			it->pos += 8 + (a0 - 4 + 3) / 4 * 4;
			return 1;
		case TYPE_PADDING:
			if ((uint64_t)a0 + 4 > left)
				return delta == 0 ? 0 : -1;
			it->pos += 4 + a0;
			break;
		case TYPE_TIME_EXTEND:
			it->ts += ((uint64_t)a0 << 27) + delta;
			it->pos += 8;
			break;
		default:	/* TYPE_TIME_STAMP */
			it->ts = (((uint64_t)a0 << 27) + delta) |
				 (it->ts & 0xF800000000000000ull);
			it->pos += 8;
			break;
		}
	}
	return 0;
}
