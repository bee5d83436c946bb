/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * chunkpool.c - compress chunks on worker threads, hand them out in order.
 *
 * The writer fills chunks one after the other; a few consecutive chunks
 * make a job (a slot), so that a worker wakes once per MiB or so and
 * not once per chunk (with 256 KiB jobs, waking workers and waiting for
 * them took ~8% of convert's CPU on a 2-CPU VM: reschedule IPIs).
 * Workers compress whole slots with their own codec state; the sink
 * gets the chunks strictly in submission order.  A ring of a few slots
 * per worker bounds memory: when every slot is busy, taking a new one
 * waits for the oldest and sinks it first.  With one thread everything
 * happens inline on the caller's thread.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

#define SLOTS_PER_THREAD 3
#define SLOT_BYTES (1024u << 10)	/* input per job, roughly */
#define MAX_PER_SLOT 32
#define POOL_MEMORY (32u << 20)	/* slots beyond this would idle anyway */

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE };

struct slot {
	enum slot_state state;
	int n;				/* chunks in the slot */
	uint8_t *in;			/* per_slot x chunk_max */
	uint8_t *out;			/* per_slot x out_cap */
	uint32_t inlen[MAX_PER_SLOT];
	size_t outlen[MAX_PER_SLOT];	/* SIZE_MAX: compression failed */
};

struct chunkpool {
	enum tdat_codec codec;
	size_t chunk_max;
	size_t out_cap;		/* 8-byte chunk header + bound */
	int per_slot;
	chunk_sink_fn sink;
	void *sink_ctx;

	int nthreads;		/* 0: inline */
	pthread_t *threads;
	int nctx;
	struct codec_ctx *ctx;	/* one per worker; [0] for inline */

	pthread_mutex_t lock;
	pthread_cond_t work;	/* a slot was queued, or stop */
	pthread_cond_t done;	/* a slot finished */
	int idle;		/* workers waiting for work */
	int waiting;		/* the owner waits for a slot */
	int stop;

	unsigned nslots;
	struct slot *slots;
	uint64_t head;		/* slots queued so far; slots[head] fills */
	int filling;		/* chunks in slots[head] so far */
	uint64_t next_work;	/* next slot a worker takes */
	uint64_t tail;		/* next slot to sink */
};

static void compress_slot(struct chunkpool *p, struct slot *s,
			  struct codec_ctx *x)
{
	const uint8_t *in = s->in;
	uint8_t *out = s->out;
	int i;

	for (i = 0; i < s->n; i++) {
		size_t len;

		if (codec_compress(x, in, s->inlen[i], out + 8,
				   p->out_cap - 8, &len) || len > UINT32_MAX)
			len = SIZE_MAX;
		s->outlen[i] = len;
		in += p->chunk_max;
		out += p->out_cap;
	}
}

struct worker_arg {
	struct chunkpool *p;
	struct codec_ctx *x;
};

static void *worker(void *arg)
{
	struct worker_arg a = *(struct worker_arg *)arg;
	struct chunkpool *p = a.p;
	struct slot *s;

	free(arg);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->next_work == p->head) {
			p->idle++;
			pthread_cond_wait(&p->work, &p->lock);
			p->idle--;
		}
		if (p->next_work == p->head)
			break;	/* stopping, and nothing left to do */
		s = &p->slots[p->next_work++ % p->nslots];
		s->state = SLOT_BUSY;
		pthread_mutex_unlock(&p->lock);
		compress_slot(p, s, a.x);
		pthread_mutex_lock(&p->lock);
		s->state = SLOT_DONE;
		if (p->waiting)
			pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Workers start with every signal blocked (they inherit the mask): the
 * application's handlers run on its own threads (outputs.h). */
static int start_workers(struct chunkpool *p)
{
	sigset_t old;
	int i;

	p->threads = calloc((size_t)p->nthreads, sizeof(*p->threads));
	if (!p->threads)
		return -1;
	outreg_block(&old);
	for (i = 0; i < p->nthreads; i++) {
		struct worker_arg *a = malloc(sizeof(*a));

		if (!a)
			break;
		a->p = p;
		a->x = &p->ctx[i];
		if (pthread_create(&p->threads[i], NULL, worker, a)) {
			free(a);
			break;
		}
	}
	outreg_unblock(&old);
	p->nthreads = i;	/* fewer workers are still fine */
	return i ? 0 : -1;
}

/* Slot geometry: a few hundred KiB a job, a bounded number of jobs. */
static void size_slots(struct chunkpool *p)
{
	size_t per_slot_bytes;

	p->per_slot = (int)(SLOT_BYTES / p->chunk_max);
	if (p->per_slot < 1)
		p->per_slot = 1;
	if (p->per_slot > MAX_PER_SLOT)
		p->per_slot = MAX_PER_SLOT;
	per_slot_bytes = (size_t)p->per_slot * (p->chunk_max + p->out_cap);
	p->nslots = 1;
	if (p->nthreads) {
		p->nslots = (unsigned)p->nthreads * SLOTS_PER_THREAD;
		if (p->nslots > POOL_MEMORY / per_slot_bytes)
			p->nslots = (unsigned)(POOL_MEMORY / per_slot_bytes);
		if (p->nslots < 2)
			p->nslots = 2;
	}
}

static void free_slots(struct chunkpool *p)
{
	unsigned i;

	for (i = 0; p->slots && i < p->nslots; i++) {
		free(p->slots[i].in);
		free(p->slots[i].out);
	}
	free(p->slots);
	free(p->ctx);
}

/*
 * Threads multiply buffers (two chunks in flight each) and codec contexts
 * (~20 MiB each at the capped high zstd levels).  Use only as many as fit
 * in POOL_MEMORY: archive settings (big chunks, high levels) then run on
 * fewer threads, or inline, but within the memory target.
 */
static int threads_in_budget(int threads, int level, size_t chunk_max,
			     size_t out_cap)
{
	size_t ctx = level >= 10 ? (size_t)20 << 20 : (size_t)2 << 20;
	size_t per_thread = 2 * (chunk_max + out_cap) + ctx;

	while (threads > 1 && (size_t)threads * per_thread > POOL_MEMORY)
		threads--;
	return threads;
}

struct chunkpool *chunkpool_new(enum tdat_codec codec, int level,
				int threads, size_t chunk_max,
				chunk_sink_fn sink, void *sink_ctx)
{
	struct chunkpool *p = calloc(1, sizeof(*p));
	unsigned i;

	if (!p)
		return NULL;
	p->codec = codec;
	p->chunk_max = chunk_max ? chunk_max : 1;
	p->out_cap = 8 + codec_bound(codec, p->chunk_max);
	p->sink = sink;
	p->sink_ctx = sink_ctx;
	threads = threads_in_budget(threads, level, p->chunk_max, p->out_cap);
	p->nthreads = threads > 1 ? threads : 0;
	p->nctx = threads > 1 ? threads : 1;
	size_slots(p);
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	p->ctx = calloc((size_t)p->nctx, sizeof(*p->ctx));
	if (!p->slots || !p->ctx)
		goto fail;
	for (i = 0; i < (unsigned)p->nctx; i++)
		codec_ctx_init(&p->ctx[i], codec, level);
	for (i = 0; i < p->nslots; i++) {
		p->slots[i].in = malloc((size_t)p->per_slot * p->chunk_max);
		p->slots[i].out = malloc((size_t)p->per_slot * p->out_cap);
		if (!p->slots[i].in || !p->slots[i].out)
			goto fail;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	if (p->nthreads && start_workers(p))
		p->nthreads = 0;	/* no threads: compress inline */
	return p;
fail:
	free_slots(p);
	free(p);
	return NULL;
}

/* Wait for the oldest queued slot and sink its chunks in order. */
static int sink_oldest(struct chunkpool *p, struct tdat_error *err)
{
	struct slot *s = &p->slots[p->tail % p->nslots];
	uint8_t *out = s->out;
	int i, r = 0;

	if (p->nthreads) {
		pthread_mutex_lock(&p->lock);
		while (s->state != SLOT_DONE) {
			p->waiting++;
			pthread_cond_wait(&p->done, &p->lock);
			p->waiting--;
		}
		pthread_mutex_unlock(&p->lock);
	}
	for (i = 0; !r && i < s->n; i++, out += p->out_cap) {
		if (s->outlen[i] == SIZE_MAX)
			r = p->sink(p->sink_ctx, NULL, 0, s->inlen[i], err);
		else
			r = p->sink(p->sink_ctx, out, (uint32_t)s->outlen[i],
				    s->inlen[i], err);
	}
	/* A DONE slot is no worker's business any more: no lock needed. */
	s->n = 0;
	s->state = SLOT_FREE;
	p->tail++;
	return r;
}

/* Hand the filling slot to the workers (or compress it here). */
static int queue_slot(struct chunkpool *p, struct tdat_error *err)
{
	struct slot *s = &p->slots[p->head % p->nslots];

	s->n = p->filling;
	p->filling = 0;
	if (!p->nthreads) {
		compress_slot(p, s, &p->ctx[0]);
		s->state = SLOT_DONE;
		p->head++;
		return sink_oldest(p, err);
	}
	pthread_mutex_lock(&p->lock);
	s->state = SLOT_QUEUED;
	p->head++;
	if (p->idle)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

uint8_t *chunkpool_buffer(struct chunkpool *p, struct tdat_error *err)
{
	struct slot *s = &p->slots[p->head % p->nslots];

	/* Before filling starts, slots[head] may still hold the oldest
	 * results: they go out first. */
	if (!p->filling && p->head - p->tail == p->nslots &&
	    sink_oldest(p, err))
		return NULL;
	return s->in + (size_t)p->filling * p->chunk_max;
}

int chunkpool_submit(struct chunkpool *p, size_t len, struct tdat_error *err)
{
	struct slot *s = &p->slots[p->head % p->nslots];

	s->inlen[p->filling++] = (uint32_t)len;
	if (p->filling < p->per_slot)
		return 0;
	return queue_slot(p, err);
}

int chunkpool_drain(struct chunkpool *p, struct tdat_error *err)
{
	if (p->filling && queue_slot(p, err))
		return -1;
	while (p->tail != p->head)
		if (sink_oldest(p, err))
			return -1;
	return 0;
}

void chunkpool_free(struct chunkpool *p)
{
	int t;

	if (!p)
		return;
	if (p->nthreads) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->lock);
		for (t = 0; t < p->nthreads; t++)
			pthread_join(p->threads[t], NULL);
	}
	free(p->threads);
	for (t = 0; t < p->nctx; t++)
		codec_ctx_free(&p->ctx[t]);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free_slots(p);
	free(p);
}
