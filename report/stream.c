/* stream.c - every CPU of every buffer merged into one timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

uint64_t ts_apply(const struct ts_adjust *a, uint64_t ts)
{
	if (a->mult) {
		/* (ts * mult) >> shift without 64-bit overflow */
		unsigned __int128 t = (unsigned __int128)ts * a->mult;

		ts = (uint64_t)(t >> a->shift);
	}
	return ts + (uint64_t)a->offset;
}

static void warn(struct stream *s, const char *msg)
{
	s->skipped++;
	if (s->warn)
		s->warn(s->warn_ctx, msg);
}

/* Load the next page that has a valid header; 0 at the end of the CPU. */
static int next_page(struct stream *s, struct stream_cpu *c)
{
	struct tdat_error err;
	const uint8_t *page;
	char msg[600];
	int got;

	for (;;) {
		got = tdat_cpu_next_page(c->r, &page, &c->page_offset, &err);
		if (got < 0) {
			/* Said once; the reader goes on past a bad chunk
			 * and ends the stream when nothing else is left. */
			warn(s, err.msg);
			continue;
		}
		if (got == 0)
			return 0;
		if (!tdat_page_iter_init(&c->it, c->f, page, c->page_size)) {
			c->missed = c->it.missed;
			return 1;
		}
		snprintf(msg, sizeof(msg), "%s: offset %llu: buffer \"%s\" CPU"
			 " %d: page commit size exceeds the page; page"
			 " skipped", c->f->path,
			 (unsigned long long)c->page_offset,
			 c->f->buffers[c->buf].name, c->cpu);
		warn(s, msg);
	}
}

/* Fill c->ev with the CPU's next event, crossing pages as needed. */
static void load_event(struct stream *s, struct stream_cpu *c)
{
	char msg[600];
	int got;

	for (;;) {
		if (!c->in_page) {
			if (!next_page(s, c)) {
				c->has_event = 0;
				return;
			}
			c->in_page = 1;
		}
		got = tdat_page_iter_next(&c->it, &c->ev);
		if (got > 0) {
			c->has_event = 1;
			c->ts = ts_apply(&s->adjust[c->input], c->ev.ts);
			return;
		}
		if (got < 0) {
			snprintf(msg, sizeof(msg), "%s: offset %llu: buffer"
				 " \"%s\" CPU %d: corrupt event at page"
				 " offset %u; rest of page skipped",
				 c->f->path, (unsigned long long)c->page_offset,
				 c->f->buffers[c->buf].name, c->cpu,
				 c->it.pos);
			warn(s, msg);
		}
		c->in_page = 0;
		c->missed = 0;
	}
}

int stream_add_buffer(struct stream *s, struct tdat_file *f, int input,
		      int buf, struct tdat_error *err)
{
	const struct tdat_buffer *b = &f->buffers[buf];
	struct stream_cpu *n;
	int i;

	if (b->latency || b->ncpus == 0)
		return 0;
	n = realloc(s->cpus, (size_t)(s->ncpus + b->ncpus) * sizeof(*n));
	if (!n) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory",
			 f->path);
		return -1;
	}
	s->cpus = n;
	for (i = 0; i < b->ncpus; i++) {
		struct stream_cpu *c = &s->cpus[s->ncpus];

		memset(c, 0, sizeof(*c));
		c->f = f;
		c->input = input;
		c->buf = buf;
		c->idx = i;
		c->cpu = b->cpus[i].cpu;
		c->page_size = b->page_size;
		if (b->cpus[i].size == 0)
			continue;
		c->r = tdat_cpu_open(f, buf, i, err);
		if (!c->r) {
			warn(s, err->msg);
			continue;
		}
		s->ncpus++;
		load_event(s, c);
	}
	return 0;
}

struct stream_cpu *stream_peek(struct stream *s)
{
	struct stream_cpu *best = NULL;
	int i;

	/* Ties go to the first CPU in scan order, as trace-cmd does. */
	for (i = 0; i < s->ncpus; i++) {
		struct stream_cpu *c = &s->cpus[i];

		if (c->has_event && (!best || c->ts < best->ts))
			best = c;
	}
	return best;
}

void stream_advance(struct stream *s, struct stream_cpu *c)
{
	c->missed = 0;
	load_event(s, c);
}

void stream_free(struct stream *s)
{
	int i;

	for (i = 0; i < s->ncpus; i++)
		tdat_cpu_close(s->cpus[i].r);
	free(s->cpus);
	s->cpus = NULL;
	s->ncpus = 0;
}
