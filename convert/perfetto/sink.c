/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.c - the trace file: packets gather in a chain (Trace.packet
 * fields, as a whole trace file holds them) and every few MiB the chain
 * goes to the file zlib-compressed inside one packet's
 * compressed_packets, which trace_processor expands and reads as if the
 * packets stood in the file (PERFETTO.md 1).  zlib is most of an
 * export's work, so a thread of its own compresses and writes one chain
 * while the next is filled (two chains: the memory stays bounded).  The
 * file is a libfmt whole file: named only when complete.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "convert/perfetto/perfetto_internal.h"
#include "libfmt/wholefile.h"

#define CHAIN_BYTES (4u << 20)	/* packets compressed together */
#define DEFAULT_LEVEL 1		/* zlib's fastest: see bench/perfetto.sh */

static int no_memory(struct tdat_error *err)
{
	return tdat_errorf(err, "out of memory");
}

/* s->full as one compressed packet in the file (on the thread). */
static int write_full(struct sink *s)
{
	size_t need = compressBound((uLong)s->full.len), body;
	uint8_t head[32], *p;
	uLongf zlen;

	if (need > s->zcap) {
		free(s->z);
		s->z = malloc(need);
		s->zcap = s->z ? need : 0;
		if (!s->z)
			return no_memory(&s->werr);
	}
	zlen = (uLongf)s->zcap;
	if (compress2(s->z, &zlen, s->full.data, (uLong)s->full.len,
		      s->level) != Z_OK)
		return tdat_errorf(&s->werr, "zlib cannot compress the packets");
	/* Trace.packet { compressed_packets: bytes } */
	body = (size_t)pb_varint_size(PKT_COMPRESSED << 3) +
	       (size_t)pb_varint_size(zlen) + zlen;
	p = pb_put_varint(head, 1 << 3 | PB_LEN);
	p = pb_put_varint(p, body);
	p = pb_put_varint(p, PKT_COMPRESSED << 3 | PB_LEN);
	p = pb_put_varint(p, zlen);
	if (tdat_wholefile_write(s->w, head, (size_t)(p - head), &s->werr) ||
	    tdat_wholefile_write(s->w, s->z, zlen, &s->werr))
		return -1;
	return 0;
}

static void *compressor(void *arg)
{
	struct sink *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->busy && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->busy)
			break;
		pthread_mutex_unlock(&s->lock);
		if (!s->failed && write_full(s))
			s->failed = 1;
		pb_reset(&s->full);
		pthread_mutex_lock(&s->lock);
		s->busy = 0;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Wait until the thread is done with the chain it holds. */
static int wait_idle(struct sink *s)
{
	int failed;

	if (!s->threaded)
		return s->failed ? -1 : 0;
	pthread_mutex_lock(&s->lock);
	while (s->busy)
		pthread_cond_wait(&s->cond, &s->lock);
	failed = s->failed;
	pthread_mutex_unlock(&s->lock);
	if (failed)
		s->err = s->werr;
	return failed ? -1 : 0;
}

/* The chain to the thread (or compressed here without one). */
static int hand_over(struct sink *s)
{
	struct pb t;

	if (!s->chain.len)
		return 0;
	if (wait_idle(s))
		return -1;
	t = s->full;
	s->full = s->chain;
	s->chain = t;
	pb_reset(&s->chain);
	if (!s->threaded) {
		s->failed = write_full(s) ? 1 : 0;
		pb_reset(&s->full);
		if (s->failed)
			s->err = s->werr;
		return s->failed ? -1 : 0;
	}
	pthread_mutex_lock(&s->lock);
	s->busy = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* The thread, with every signal blocked: the main thread takes them. */
static void start_thread(struct sink *s)
{
	sigset_t all, old;

	if (pthread_mutex_init(&s->lock, NULL))
		return;
	if (pthread_cond_init(&s->cond, NULL)) {
		pthread_mutex_destroy(&s->lock);
		return;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	s->threaded = !pthread_create(&s->thread, NULL, compressor, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->threaded) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
	}
}

static void stop_thread(struct sink *s)
{
	if (!s->threaded)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	s->threaded = 0;
}

int sink_open(struct sink *s, const char *path, int level)
{
	memset(s, 0, sizeof(*s));
	s->level = level > 0 ? level : DEFAULT_LEVEL;
	s->w = tdat_wholefile_open(path, &s->err);
	if (!s->w)
		return -1;
	start_thread(s);
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
		return no_memory(&s->err);
	return s->chain.len >= CHAIN_BYTES ? hand_over(s) : 0;
}

int sink_finish(struct sink *s)
{
	int r = hand_over(s);

	if (!r)
		r = wait_idle(s);
	stop_thread(s);
	if (!r) {
		r = tdat_wholefile_commit(s->w, &s->err);
		s->w = NULL;
	}
	sink_abort(s);
	return r;
}

void sink_abort(struct sink *s)
{
	stop_thread(s);
	tdat_wholefile_abort(s->w);
	s->w = NULL;
	pb_free(&s->chain);
	pb_free(&s->full);
	free(s->z);
	s->z = NULL;
	s->zcap = 0;
}
