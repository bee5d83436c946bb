/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_table.c - what the salvage's files share, below them all: the
 * table of output buffers and CPU streams being planned, small reads of
 * the damaged file and the chunk checks.  It calls nothing of theirs.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/restore/salvage_internal.h"

int sv_oom(struct salvage *sv, struct tdat_error *err)
{
	tdat_fail_nooff(err, sv->path, "out of memory");
	return -1;
}

uint64_t sv_align_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

int sv_get32(struct salvage *sv, uint64_t off, uint32_t *v)
{
	uint8_t b[4];
	struct tdat_error e;

	if (off + 4 > sv->f->file_size ||
	    tdat_salvage_read(sv->f, off, b, 4, &e))
		return -1;
	*v = tdat_get32(sv->f, b);
	return 0;
}

struct tdat_buffer *sv_add_buffer(struct salvage *sv, const char *name,
				  const char *clock, uint32_t ps)
{
	struct tdat_buffer *b;
	struct plan *p;

	b = realloc(sv->bufs, (size_t)(sv->nbufs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	sv->bufs = b;
	p = realloc(sv->plans, (size_t)(sv->nbufs + 1) * sizeof(*p));
	if (!p)
		return NULL;
	sv->plans = p;
	memset(&p[sv->nbufs], 0, sizeof(*p));
	p[sv->nbufs].from = -1;
	b = &sv->bufs[sv->nbufs++];
	memset(b, 0, sizeof(*b));
	b->page_size = ps;
	b->name = strdup(name);
	b->clock = strdup(clock ? clock : "");
	return b->name && b->clock ? b : NULL;
}

int sv_add_stream(struct plan *p, int cpu, uint64_t start, uint64_t end,
		  uint64_t lost)
{
	struct stream *s;

	s = realloc(p->streams, (size_t)(p->nstreams + 1) * sizeof(*s));
	if (!s)
		return -1;
	p->streams = s;
	s = &s[p->nstreams++];
	s->cpu = cpu;
	s->start = start;
	s->end = end;
	s->lost = lost;
	return 0;
}

/* ---- chunks ---- */

/* Sizes a chunk header can hold (compression never grows data much). */
int sv_chunk_plausible(uint32_t c, uint32_t u, uint32_t ps)
{
	return c > 0 && u > 0 && u % ps == 0 && u <= MAX_CHUNK &&
	       c <= u + u / 8 + 1024;
}

/* The chunk at at (header c, u) decompresses to u bytes. */
int sv_chunk_decompresses(struct salvage *sv, uint64_t at, uint32_t c,
			  uint32_t u)
{
	struct tdat_error e;

	return !tdat_bytes_reserve(&sv->cbuf, c) &&
	       !tdat_bytes_reserve(&sv->ubuf, u) &&
	       !tdat_salvage_read(sv->f, at + 8, sv->cbuf.data, c, &e) &&
	       !tdat_salvage_decompress(sv->f, sv->cbuf.data, c,
					sv->ubuf.data, u);
}
