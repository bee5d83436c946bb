/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_copy.c - salvage's CPU streams to the writer: raw pages read in
 * batches, compressed chunks one at a time, every page through restore's
 * page filter.  A chunk that does not decompress is dropped whole; after
 * a chunk header that does not hold together the walk resyncs at the next
 * chunk that decompresses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/restore/salvage_internal.h"
#include "libfmt/salvage.h"

static int copy_raw(struct salvage *sv, struct page_filter *pf,
		    const struct stream *s, struct tdat_error *err)
{
	uint32_t ps = pf->page_size;
	uint64_t at = s->start;
	size_t n, i;

	if (tdat_bytes_reserve(&sv->ubuf, (size_t)READ_PAGES * ps))
		return sv_oom(sv, err);
	while (s->end - at >= ps) {
		n = (size_t)((s->end - at) / ps);
		if (n > READ_PAGES)
			n = READ_PAGES;
		if (tdat_salvage_read(sv->f, at, sv->ubuf.data, n * ps, err))
			return -1;
		for (i = 0; i < n; i++, at += ps)
			if (pf_page(pf, sv->ubuf.data + i * ps, at, 0, err))
				return -1;
	}
	if (at < s->end)
		pf_drop(pf, at, s->end - at, "a page cut by the end of the"
			" file");
	return 0;
}

/* One chunk at at (header checked by the caller): its pages, or dropped. */
static int copy_chunk(struct salvage *sv, struct page_filter *pf,
		      uint64_t at, uint32_t c, uint32_t u,
		      struct tdat_error *err)
{
	uint32_t ps = pf->page_size, i;

	if (tdat_bytes_reserve(&sv->cbuf, c) || tdat_bytes_reserve(&sv->ubuf, u))
		return sv_oom(sv, err);
	if (tdat_salvage_read(sv->f, at + 8, sv->cbuf.data, c, err))
		return -1;
	if (tdat_salvage_decompress(sv->f, sv->cbuf.data, c, sv->ubuf.data,
				    u)) {
		pf_drop(pf, at, 8 + (uint64_t)c, "a chunk that does not"
			" decompress");
		return 0;
	}
	for (i = 0; i < u / ps; i++)
		if (pf_page(pf, sv->ubuf.data + (size_t)i * ps, i, at, err))
			return -1;
	return 0;
}

/* Could a compressed chunk of f's codec begin at p? */
static int codec_start(const struct tdat_file *f, const uint8_t *p)
{
	if (f->codec == TDAT_CODEC_ZSTD)
		return p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
		       p[3] == 0xfd;
	return p[0] == 0x78 && ((0x78 << 8) | p[1]) % 31 == 0;
}

#define SYNC_WINDOW (64u << 10)

/*
 * After a chunk header that does not hold together: the next offset in
 * (from, limit) where a chunk whose payload decompresses begins, or 0.
 */
static uint64_t resync(struct salvage *sv, uint64_t from, uint64_t limit,
		       uint32_t ps)
{
	uint8_t win[SYNC_WINDOW + 12];
	struct tdat_error e;
	uint64_t at, q;
	size_t n, i;

	for (at = from + 1; at + 12 <= limit; at += SYNC_WINDOW) {
		n = limit - at < sizeof(win) ? (size_t)(limit - at) :
					       sizeof(win);
		if (tdat_salvage_read(sv->f, at, win, n, &e))
			return 0;
		for (i = 0; i + 12 <= n && i < SYNC_WINDOW; i++) {
			uint32_t c, u;

			if (!codec_start(sv->f, win + i + 8))
				continue;
			c = tdat_get32(sv->f, win + i);
			u = tdat_get32(sv->f, win + i + 4);
			q = at + i;
			if (sv_chunk_plausible(c, u, ps) && c <= limit - q - 8 &&
			    sv_chunk_decompresses(sv, q, c, u))
				return q;
		}
	}
	return 0;
}

static int copy_chunks(struct salvage *sv, struct page_filter *pf,
		       const struct stream *s, struct tdat_error *err)
{
	uint64_t at = s->start + 4, limit = s->end, q;
	uint32_t k, n, c, u;

	if (sv_get32(sv, s->start, &k) || s->start + 4 > limit) {
		pf_drop(pf, s->start, limit - s->start, "a chunk count cut by"
			" the end of the file");
		return 0;
	}
	for (n = 0; n < k; n++) {
		if (at + 8 > limit || sv_get32(sv, at, &c) || sv_get32(sv, at + 4, &u)) {
			if (at < limit && limit == sv->f->file_size)
				pf_drop(pf, at, limit - at, "a chunk header cut"
					" by the end of the file");
			break;
		}
		if (!sv_chunk_plausible(c, u, pf->page_size) ||
		    c > limit - at - 8) {
			q = resync(sv, at, limit, pf->page_size);
			if (!q && sv_chunk_plausible(c, u, pf->page_size) &&
			    limit == sv->f->file_size) {
				pf_drop(pf, at, limit - at, "a chunk cut by the"
					" end of the file");
				break;
			}
			pf_drop(pf, at, (q ? q : limit) - at, q ?
				"a chunk header that does not hold together;"
				" the stream goes on at the next chunk found" :
				"a chunk header that does not hold together,"
				" and no chunk after it");
			if (!q)
				break;
			at = q;
			continue;
		}
		if (copy_chunk(sv, pf, at, c, u, err))
			return -1;
		at += 8 + (uint64_t)c;
	}
	if (n < k)
		restore_say_at(sv->o, sv->path, at, "lost: buffer \"%s\" CPU"
			       " %d: %u of its %u chunks", pf->buffer, pf->cpu,
			       k - n, k);
	return 0;
}

int sv_copy_stream(struct salvage *sv, struct tdat_writer *w, int b,
		       const struct stream *s, struct tdat_error *err)
{
	struct page_filter pf;
	int r;

	if (tdat_writer_begin_cpu(w, b, s->cpu, err) ||
	    pf_init(&pf, sv->f, sv->ids, w, sv->o, sv->bufs[b].page_size,
		    sv->path, sv->bufs[b].name, s->cpu, err))
		return -1;
	r = sv->plans[b].compressed ? copy_chunks(sv, &pf, s, err) :
				      copy_raw(sv, &pf, s, err);
	if (!r && s->lost)
		restore_say_at(sv->o, sv->path, sv->f->file_size, "lost:"
			       " buffer \"%s\" CPU %d: %llu bytes recorded"
			       " past the end of the file", pf.buffer, s->cpu,
			       (unsigned long long)s->lost);
	if (!r)
		r = pf_flush(&pf, err);
	sv->pages += pf.kept;
	sv->events += pf.events;
	sv->dropped += pf.dropped_bytes + s->lost;
	pf_free(&pf);
	return r || tdat_writer_end_cpu(w, err) ? -1 : 0;
}

int sv_copy_latency(struct salvage *sv, struct tdat_writer *w, int b,
			struct tdat_error *err)
{
	struct tdat_blob text;
	struct tdat_error e;
	int r;

	if (tdat_read_latency(sv->f, sv->plans[b].from, &text, &e)) {
		restore_say(sv->o, "dropped: latency text: %s", e.msg);
		return tdat_writer_put_latency(w, b, "", 0, err);
	}
	r = tdat_writer_put_latency(w, b, text.data, text.len, err);
	free(text.data);
	return r;
}

