/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * readahead.c - decompress a CPU stream's chunks on threads of their own
 * while the caller works on the pages already handed out.
 *
 * Decompression is most of the work of reading a zstd stream; a caller
 * that writes the pages out (convert to v6) otherwise leaves the other
 * cores idle.  Each thread in turn claims the next chunk of the walk
 * (cpu_claim_chunk, under the walk's lock, so chunks are claimed in
 * order) into a slot of a small ring, then decompresses it outside the
 * lock.  A slot keeps the step's result and error; tdat_cpu_next_page
 * takes the slots in the walk's order, so the caller sees the same pages
 * and the same errors at the same points as without the threads.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/cpureader.h"

#define AHEAD_THREADS 2
/* Chunks held at most.  The caller and the threads wake each other only
 * when half the ring is ready (or free): a handoff for every chunk of
 * 40 KiB would cost about as much as decompressing it. */
#define AHEAD_SLOTS 16
#define AHEAD_WAKE (AHEAD_SLOTS / 2)

struct ahead_slot {
	int got;		/* as cpu_fill_compressed's result */
	int ready;		/* decoded (or failed): the caller may take it */
	struct tdat_error err;	/* why, when got < 0 */
	struct tdat_bytes cbuf;	/* the chunk as stored */
	struct tdat_bytes win;	/* its pages */
	struct cpu_chunk c;
	size_t wlen;
	uint64_t win_offset;	/* stream offset of its pages */
	uint64_t at;		/* the walk's file offset after it */
	int last;		/* no chunk after it */
};

struct read_ahead;

struct ahead_worker {
	struct read_ahead *a;
	pthread_t thread;
	struct codec_ctx codec;
};

struct read_ahead {
	struct tdat_cpu_reader *r;
	struct ahead_worker worker[AHEAD_THREADS];
	int nthreads;

	pthread_mutex_t walk;	/* the reader's chunk walk, and next_off */
	uint64_t next_off;	/* stream offset of the next chunk's pages */

	pthread_mutex_t lock;	/* everything below */
	pthread_cond_t ready;	/* the caller waits for a slot */
	pthread_cond_t room;	/* a thread waits for a free slot */
	int caller_waits, thread_waits;
	int draining;		/* a thread waits for the caller to take all */
	struct ahead_slot slot[AHEAD_SLOTS];
	uint64_t claimed;	/* slots given a chunk step */
	uint64_t made;		/* slots ready, in order */
	uint64_t done;		/* slots the caller has finished with */
	int over;		/* the walk ended (at its end or an error) */
	int stop;		/* the reader is closing */

	/* the caller's side */
	struct ahead_slot *cur;	/* the window being handed out */
	size_t wpos;
	uint64_t at;		/* for tdat_cpu_position */
	int ended;		/* no more pages (end or a fatal error) */
};

static void wait_room(struct read_ahead *a)
{
	a->thread_waits++;
	pthread_cond_wait(&a->room, &a->lock);
	a->thread_waits--;
}

/* Claim the walk's next chunk into slot s.  Called with walk held. */
static void claim(struct read_ahead *a, struct ahead_slot *s)
{
	struct tdat_cpu_reader *r = a->r;

	s->got = cpu_claim_chunk(r, &s->cbuf, &s->win, &s->c, &s->err);
	s->wlen = s->got == 1 ? s->c.usize : 0;
	s->win_offset = a->next_off;
	a->next_off += s->wlen;
	s->at = r->chunk_off;
	s->last = r->chunk >= r->nchunks;
}

/*
 * Slot k's buffers over the memory budget while the caller holds others:
 * wait until it holds none, free them all and claim again, so that the
 * budget refuses only what one chunk (reading without threads) would
 * exceed.  (Its line then names fewer bytes held than reading without
 * threads would: those buffers are freed.)  A refused claim leaves the
 * walk where it was.  Called with walk held, so no other thread claims
 * meanwhile.
 */
static void claim_alone(struct read_ahead *a, uint64_t k)
{
	int i;

	pthread_mutex_lock(&a->lock);
	a->draining = 1;
	if (a->caller_waits && a->made > a->done)
		pthread_cond_signal(&a->ready);
	while (!a->stop && a->done != k)
		wait_room(a);
	a->draining = 0;
	for (i = 0; !a->stop && i < AHEAD_SLOTS; i++) {
		tdat_bytes_free(&a->slot[i].cbuf);
		tdat_bytes_free(&a->slot[i].win);
	}
	pthread_mutex_unlock(&a->lock);
	if (!a->stop)
		claim(a, &a->slot[k % AHEAD_SLOTS]);
}

/* The next step claimed: its index, or -1 when there is none to claim. */
static int64_t next_step(struct read_ahead *a)
{
	struct ahead_slot *s;
	uint64_t k;

	pthread_mutex_lock(&a->walk);
	pthread_mutex_lock(&a->lock);
	while (!a->stop && !a->over && a->claimed - a->done >= AHEAD_SLOTS)
		wait_room(a);
	if (a->stop || a->over) {
		pthread_mutex_unlock(&a->lock);
		pthread_mutex_unlock(&a->walk);
		return -1;
	}
	k = a->claimed++;
	s = &a->slot[k % AHEAD_SLOTS];
	s->ready = 0;
	pthread_mutex_unlock(&a->lock);
	claim(a, s);
	if (s->got == -1 && s->err.memory)
		claim_alone(a, k);
	pthread_mutex_lock(&a->lock);
	if (s->got <= 0)
		a->over = 1;
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_unlock(&a->walk);
	return (int64_t)k;
}

/* Slot k is decoded: the ready run handed on to the caller. */
static void publish(struct read_ahead *a, uint64_t k)
{
	pthread_mutex_lock(&a->lock);
	a->slot[k % AHEAD_SLOTS].ready = 1;
	while (a->made < a->claimed && a->slot[a->made % AHEAD_SLOTS].ready)
		a->made++;
	if (a->caller_waits && a->made > a->done &&
	    (a->made - a->done >= AHEAD_WAKE || a->draining ||
	     (a->over && a->made == a->claimed)))
		pthread_cond_signal(&a->ready);
	if (a->over)	/* threads waiting for room have nothing to do */
		pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->lock);
}

static void *ahead_thread(void *arg)
{
	struct ahead_worker *w = arg;
	struct read_ahead *a = w->a;
	struct ahead_slot *s;
	int64_t k;

	while ((k = next_step(a)) >= 0) {
		s = &a->slot[k % AHEAD_SLOTS];
		if (s->got == 1 &&
		    cpu_decode_chunk(a->r, &w->codec, &s->c, s->cbuf.data,
				     s->win.data, &s->err)) {
			s->got = -2;	/* skipped: the walk goes on */
			s->wlen = 0;
		}
		publish(a, k);
	}
	return NULL;
}

static void free_ahead(struct read_ahead *a)
{
	int i;

	for (i = 0; i < AHEAD_SLOTS; i++) {
		tdat_bytes_free(&a->slot[i].cbuf);
		tdat_bytes_free(&a->slot[i].win);
	}
	for (i = 0; i < AHEAD_THREADS; i++)
		codec_ctx_free(&a->worker[i].codec);
	pthread_cond_destroy(&a->room);
	pthread_cond_destroy(&a->ready);
	pthread_mutex_destroy(&a->lock);
	pthread_mutex_destroy(&a->walk);
	free(a);
}

static struct read_ahead *new_ahead(struct tdat_cpu_reader *r)
{
	struct read_ahead *a = calloc(1, sizeof(*a));
	int i;

	if (!a)
		return NULL;
	/* Made as the mutexes and conds they are: fails only on glibc's
	 * word, which it never gives for these attributes. */
	if (pthread_mutex_init(&a->walk, NULL) ||
	    pthread_mutex_init(&a->lock, NULL) ||
	    pthread_cond_init(&a->ready, NULL) ||
	    pthread_cond_init(&a->room, NULL)) {
		free(a);
		return NULL;
	}
	a->r = r;
	a->at = r->chunk_off;
	a->next_off = r->win_offset;
	for (i = 0; i < AHEAD_THREADS; i++) {
		a->worker[i].a = a;
		codec_ctx_init(&a->worker[i].codec, r->f->codec, 0);
	}
	return a;
}

int tdat_cpu_read_ahead(struct tdat_cpu_reader *r)
{
	struct read_ahead *a;
	sigset_t all, old;
	int i;

	if (r->ahead || !r->compressed || r->dead || r->chunk || r->wlen ||
	    r->nchunks < 2)
		return 0;
	a = new_ahead(r);
	if (!a)
		return 0;
	r->ahead = a;
	/* The caller's signal handlers run on the caller's thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < AHEAD_THREADS; i++) {
		if (pthread_create(&a->worker[i].thread, NULL, ahead_thread,
				   &a->worker[i]))
			break;
		a->nthreads++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (a->nthreads)
		return 1;
	r->ahead = NULL;
	free_ahead(a);
	return 0;
}

/* The caller is done with its window: the next slot, waited for. */
static struct ahead_slot *take(struct read_ahead *a)
{
	struct ahead_slot *s;

	pthread_mutex_lock(&a->lock);
	if (a->cur) {
		a->cur = NULL;
		a->done++;
		if (a->thread_waits &&
		    (a->claimed - a->done <= AHEAD_SLOTS - AHEAD_WAKE ||
		     a->draining))
			pthread_cond_signal(&a->room);
	}
	while (a->made == a->done) {
		a->caller_waits = 1;
		pthread_cond_wait(&a->ready, &a->lock);
		a->caller_waits = 0;
	}
	s = &a->slot[a->done % AHEAD_SLOTS];
	pthread_mutex_unlock(&a->lock);
	return s;
}

/* As tdat_cpu_next_page does with the steps it runs itself. */
int ahead_next_page(struct tdat_cpu_reader *r, const uint8_t **page,
		    uint64_t *offset, struct tdat_error *err)
{
	struct read_ahead *a = r->ahead;
	struct ahead_slot *s;

	while (!a->cur || a->wpos >= a->cur->wlen) {
		if (a->ended)
			return 0;
		s = take(a);
		a->at = s->at;
		if (s->got == 0 || s->got == -1)
			a->ended = 1;
		if (s->got < 0 && err)
			*err = s->err;
		if (s->got <= 0 && s->got != -2)
			return s->got;
		a->cur = s;	/* a skipped chunk (-2) has no pages */
		a->wpos = 0;
		if (s->got == -2)
			return -1;	/* go on after it if you like */
	}
	*page = a->cur->win.data + a->wpos;
	if (offset)
		*offset = a->cur->win_offset + a->wpos;
	a->wpos += r->page_size;
	return 1;
}

size_t ahead_take_rest(struct tdat_cpu_reader *r)
{
	struct read_ahead *a = r->ahead;
	size_t rest = a->cur->wlen - a->wpos;

	a->wpos = a->cur->wlen;
	return rest;
}

void ahead_position(const struct tdat_cpu_reader *r, uint64_t *at,
		    int *ended)
{
	const struct read_ahead *a = r->ahead;

	*at = a->at;
	*ended = a->ended || (a->cur && a->cur->last);
}

void ahead_stop(struct tdat_cpu_reader *r)
{
	struct read_ahead *a = r->ahead;
	int i;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->lock);
	for (i = 0; i < a->nthreads; i++)
		pthread_join(a->worker[i].thread, NULL);
	r->ahead = NULL;
	free_ahead(a);
}
