/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.c - the trace file: packets gather in a chain (Trace.packet
 * fields, as a whole trace file holds them) and every few MiB the chain
 * goes to the file zlib-compressed inside one packet's
 * compressed_packets, which trace_processor expands and reads as if the
 * packets stood in the file (PERFETTO.md 1).  The file is a libfmt
 * whole file: named only when complete.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "convert/perfetto/perfetto_internal.h"
#include "libfmt/wholefile.h"

#define CHAIN_BYTES (4u << 20)	/* packets compressed together */
#define DEFAULT_LEVEL 1		/* zlib's fastest: see bench/perfetto.sh */

int sink_open(struct sink *s, const char *path, int level)
{
	memset(s, 0, sizeof(*s));
	s->level = level > 0 ? level : DEFAULT_LEVEL;
	s->w = tdat_wholefile_open(path, &s->err);
	return s->w ? 0 : -1;
}

static int no_memory(struct sink *s)
{
	return tdat_errorf(&s->err, "out of memory");
}

/* The chain as one compressed packet in the file. */
static int compress_chain(struct sink *s)
{
	uLongf zlen;
	uint8_t head[16], *p;
	size_t need = compressBound((uLong)s->chain.len);
	size_t body;

	if (!s->chain.len)
		return 0;
	if (need > s->zcap) {
		free(s->z);
		s->z = malloc(need);
		s->zcap = s->z ? need : 0;
		if (!s->z)
			return no_memory(s);
	}
	zlen = (uLongf)s->zcap;
	if (compress2(s->z, &zlen, s->chain.data, (uLong)s->chain.len,
		      s->level) != Z_OK)
		return tdat_errorf(&s->err, "zlib cannot compress the packets");
	/* Trace.packet { compressed_packets: bytes } */
	body = (size_t)pb_varint_size(PKT_COMPRESSED << 3) +
	       (size_t)pb_varint_size(zlen) + zlen;
	p = head;
	p = pb_put_varint(p, 1 << 3 | PB_LEN);
	p = pb_put_varint(p, body);
	p = pb_put_varint(p, PKT_COMPRESSED << 3 | PB_LEN);
	p = pb_put_varint(p, zlen);
	if (tdat_wholefile_write(s->w, head, (size_t)(p - head), &s->err) ||
	    tdat_wholefile_write(s->w, s->z, zlen, &s->err))
		return -1;
	pb_reset(&s->chain);
	return 0;
}

int sink_packet(struct sink *s, uint32_t field, const void *p, size_t n)
{
	size_t body = (size_t)pb_varint_size((uint64_t)field << 3) +
		      (size_t)pb_varint_size(n) + n;

	pb_tag(&s->chain, 1, PB_LEN);
	pb_varint(&s->chain, body);
	pb_bytes(&s->chain, field, p, n);
	if (pb_failed(&s->chain))
		return no_memory(s);
	return s->chain.len >= CHAIN_BYTES ? compress_chain(s) : 0;
}

int sink_finish(struct sink *s)
{
	int r = compress_chain(s);

	if (!r) {
		r = tdat_wholefile_commit(s->w, &s->err);
		s->w = NULL;
	}
	sink_abort(s);
	return r;
}

void sink_abort(struct sink *s)
{
	tdat_wholefile_abort(s->w);
	s->w = NULL;
	pb_free(&s->chain);
	free(s->z);
	s->z = NULL;
	s->zcap = 0;
}
