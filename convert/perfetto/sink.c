/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.c - the trace file: packets gather in a chain (Trace.packet
 * fields, as a whole trace file holds them) and every few MiB the chain
 * goes to the file zlib-compressed inside one packet's
 * compressed_packets, which trace_processor expands and reads as if the
 * packets stood in the file (PERFETTO.md 1).
 *
 * Compression is most of an export's work.  libdeflate writes the same
 * zlib format as zlib in about half the time (whole buffers only, which
 * is what a chain is), and SINK_WORKERS threads compress
 * the chains while the next is filled, each its own chain; they write
 * in the order the chains were handed over, so the file is the same
 * however the threads run.  Memory: a chain and a zlib buffer each.
 * Without threads the chain is compressed where it fills.  The file is
 * a libfmt whole file: named only when complete.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include "convert/perfetto/perfetto_internal.h"
#include "libfmt/wholefile.h"

/* Packets compressed together.  Three chains are held at once (one
 * being filled, two compressing), each grown to twice this: 1 MiB keeps
 * them to about 6 MiB and compresses as well as 4 (zlib's window is
 * 32 KiB). */
#define CHAIN_BYTES (1u << 20)
#define DEFAULT_LEVEL 1		/* the fastest: see bench/perfetto.sh */

static int no_memory(struct tdat_error *err)
{
	return tdat_errorf(err, "out of memory");
}

/* Job j's chain compressed into its buffer.  0 or -1 (err said). */
static int squeeze(struct sink *s, struct sink_job *j, struct tdat_error *err)
{
	size_t need;

	if (!j->dc)
		j->dc = libdeflate_alloc_compressor(s->level);
	if (!j->dc)
		return no_memory(err);
	need = libdeflate_zlib_compress_bound(j->dc, j->full.len);
	if (need > j->zcap) {
		free(j->z);
		j->z = malloc(need);
		j->zcap = j->z ? need : 0;
		if (!j->z)
			return no_memory(err);
	}
	j->zlen = libdeflate_zlib_compress(j->dc, j->full.data, j->full.len,
					   j->z, j->zcap);
	if (!j->zlen)
		return tdat_errorf(err, "cannot compress the packets");
	return 0;
}

/* Trace.packet { compressed_packets: job j's bytes } into the file. */
static int put_packet(struct sink *s, struct sink_job *j,
		      struct tdat_error *err)
{
	size_t body = (size_t)pb_varint_size(PKT_COMPRESSED << 3) +
		      (size_t)pb_varint_size(j->zlen) + j->zlen;
	uint8_t head[32], *p;

	p = pb_put_varint(head, 1 << 3 | PB_LEN);
	p = pb_put_varint(p, body);
	p = pb_put_varint(p, PKT_COMPRESSED << 3 | PB_LEN);
	p = pb_put_varint(p, j->zlen);
	if (tdat_wholefile_write(s->w, head, (size_t)(p - head), err) ||
	    tdat_wholefile_write(s->w, j->z, j->zlen, err))
		return -1;
	return 0;
}

/* A worker: compress its job, wait for the job's turn, write it. */
static void *compressor(void *arg)
{
	struct sink_job *j = arg;
	struct sink *s = j->sink;
	struct tdat_error err;
	int bad;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!j->busy && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!j->busy)
			break;
		bad = s->failed;
		pthread_mutex_unlock(&s->lock);
		bad = bad || squeeze(s, j, &err);
		pthread_mutex_lock(&s->lock);
		while (s->written != j->seq)
			pthread_cond_wait(&s->cond, &s->lock);
		bad = bad || s->failed || put_packet(s, j, &err);
		if (bad && !s->failed) {
			s->failed = 1;
			s->werr = err;
		}
		pb_reset(&j->full);
		s->written++;
		j->busy = 0;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Until every job handed over is written; -1 if one failed. */
static int wait_all(struct sink *s)
{
	int failed;

	pthread_mutex_lock(&s->lock);
	while (s->written != s->seq)
		pthread_cond_wait(&s->cond, &s->lock);
	failed = s->failed;
	pthread_mutex_unlock(&s->lock);
	if (failed)
		s->err = s->werr;
	return failed ? -1 : 0;
}

/* The chain to an idle worker (or compressed here without one). */
static int hand_over(struct sink *s)
{
	struct sink_job *j;
	struct pb t;
	int i, failed;

	if (!s->chain.len)
		return 0;
	if (!s->nworkers) {
		j = &s->jobs[0];
		t = j->full;
		j->full = s->chain;
		s->chain = t;
		pb_reset(&s->chain);
		failed = squeeze(s, j, &s->err) || put_packet(s, j, &s->err);
		pb_reset(&j->full);
		return failed ? -1 : 0;
	}
	pthread_mutex_lock(&s->lock);
	for (;;) {
		for (i = 0; i < s->nworkers && s->jobs[i].busy; i++)
			;
		if (i < s->nworkers || s->failed)
			break;
		pthread_cond_wait(&s->cond, &s->lock);
	}
	failed = s->failed;
	if (!failed) {
		j = &s->jobs[i];
		t = j->full;
		j->full = s->chain;
		s->chain = t;
		pb_reset(&s->chain);
		j->seq = s->seq++;
		j->busy = 1;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	if (failed)
		s->err = s->werr;
	return failed ? -1 : 0;
}

/* The workers, with every signal blocked: the main thread takes them. */
static void start_workers(struct sink *s)
{
	sigset_t all, old;
	int i;

	if (pthread_mutex_init(&s->lock, NULL))
		return;
	if (pthread_cond_init(&s->cond, NULL)) {
		pthread_mutex_destroy(&s->lock);
		return;
	}
	s->sync = 1;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < SINK_WORKERS; i++) {
		s->jobs[i].sink = s;
		if (pthread_create(&s->jobs[i].thread, NULL, compressor,
				   &s->jobs[i]))
			break;
		s->nworkers++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void stop_workers(struct sink *s)
{
	int i;

	if (!s->sync)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < s->nworkers; i++)
		pthread_join(s->jobs[i].thread, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	s->nworkers = 0;
	s->sync = 0;
}

int sink_open(struct sink *s, const char *path, int level)
{
	memset(s, 0, sizeof(*s));
	s->level = level > 0 ? level : DEFAULT_LEVEL;
	s->w = tdat_wholefile_open(path, &s->err);
	if (!s->w)
		return -1;
	start_workers(s);
	return 0;
}

/* The fields every packet of that machine ends with: its sequence
 * (interned symbols live on one) and, but for machine 0, its id. */
static size_t tail_size(uint32_t machine)
{
	size_t n = 1 + (size_t)pb_varint_size(machine + 1ull);

	if (machine)
		n += (size_t)pb_varint_size((uint64_t)PKT_MACHINE_ID << 3) +
		     (size_t)pb_varint_size(machine);
	return n;
}

static void put_tail(struct pb *b, uint32_t machine)
{
	pb_uint(b, PKT_SEQUENCE_ID, machine + 1ull);
	if (machine)
		pb_uint(b, PKT_MACHINE_ID, machine);
}

uint8_t *sink_packet_room(struct sink *s, uint32_t field, size_t n,
			  uint32_t machine)
{
	size_t body = (size_t)pb_varint_size((uint64_t)field << 3) +
		      (size_t)pb_varint_size(n) + n + tail_size(machine);
	uint8_t *p;

	pb_tag(&s->chain, 1, PB_LEN);
	pb_varint(&s->chain, body);
	pb_tag(&s->chain, field, PB_LEN);
	pb_varint(&s->chain, n);
	if (pb_reserve(&s->chain, n))
		return NULL;
	p = s->chain.data + s->chain.len;
	s->chain.len += n;
	return p;
}

int sink_packet_end(struct sink *s, uint32_t machine)
{
	put_tail(&s->chain, machine);
	if (pb_failed(&s->chain))
		return no_memory(&s->err);
	return s->chain.len >= CHAIN_BYTES ? hand_over(s) : 0;
}

int sink_packet(struct sink *s, uint32_t field, const void *p, size_t n,
		uint32_t machine)
{
	uint8_t *room = sink_packet_room(s, field, n, machine);

	if (!room)
		return no_memory(&s->err);
	if (n)
		memcpy(room, p, n);
	return sink_packet_end(s, machine);
}

int sink_sequence_start(struct sink *s, uint32_t machine)
{
	pb_tag(&s->chain, 1, PB_LEN);
	pb_varint(&s->chain, 2 + tail_size(machine));
	pb_uint(&s->chain, PKT_SEQUENCE_FLAGS, SEQ_STATE_CLEARED);
	put_tail(&s->chain, machine);
	return pb_failed(&s->chain) ? no_memory(&s->err) : 0;
}

int sink_finish(struct sink *s)
{
	int r = hand_over(s);

	if (!r && s->nworkers)
		r = wait_all(s);
	stop_workers(s);
	if (!r) {
		r = tdat_wholefile_commit(s->w, &s->err);
		s->w = NULL;
	}
	sink_abort(s);
	return r;
}

void sink_abort(struct sink *s)
{
	int i;

	stop_workers(s);
	tdat_wholefile_abort(s->w);
	s->w = NULL;
	pb_free(&s->chain);
	for (i = 0; i < SINK_WORKERS; i++) {
		pb_free(&s->jobs[i].full);
		free(s->jobs[i].z);
		s->jobs[i].z = NULL;
		libdeflate_free_compressor(s->jobs[i].dc);
		s->jobs[i].dc = NULL;
		s->jobs[i].zcap = 0;
	}
}
