/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkpieces - cut a trace.dat into pieces for the merge tests, with the
 * libfmt writer.  Every piece keeps the input's metadata, version and
 * codec; pages are copied whole unless said otherwise.
 *
 * usage: mkpieces -p N IN PREFIX    pieces of N pages per CPU (as split
 *                                   -p): PREFIX.0001, PREFIX.0002, ...
 *        mkpieces -t N IN PREFIX    N pieces by time: a page goes to the
 *                                   piece its first event falls in
 *        mkpieces -i N IN PREFIX    N pieces that take turns: page k of
 *                                   a CPU goes to piece k % N (readers
 *                                   sharing one ring buffer)
 *        mkpieces -s IN PREFIX      2 pieces: the first half of the
 *                                   events of every page in piece 1, the
 *                                   rest in piece 2, each a cut page
 *        mkpieces -b NAME IN OUT    only buffer NAME ("" = top) in OUT
 *        mkpieces -e SYS IN OUT     like -b, with only event system SYS
 *                                   in the formats (use after -b NAME)
 *        mkpieces -c ...            with -b: the first event format's
 *                                   print fmt gets another first letter
 *                                   (a format that conflicts)
 *        mkpieces -o K ...          with -p: each piece but the first
 *                                   also starts with the last K pages of
 *                                   the piece before (repeated pages)
 *        mkpieces -h ...            with -p: each piece but the first
 *                                   also starts with the second half of
 *                                   the events of the piece before's
 *                                   last page, cut into a page of its
 *                                   own (repeated events, new bytes)
 *        mkpieces -R FILL [-q Q] [-x] [-d K] [-w FROM:TO] IN OUT
 *                                   the same events in new pages, each
 *                                   filled to at most FILL% of its data
 *                                   area, so pages break at other events
 *                                   (missed-event marks are not kept);
 *                                   -q: every timestamp rounded down to a
 *                                   multiple of Q (a coarse clock: many
 *                                   events share one); -x: events that
 *                                   share a timestamp in reverse order;
 *                                   -d: every K-th event written twice
 *                                   (identical events at one timestamp);
 *                                   -w: of each CPU's events only those
 *                                   from FROM% to TO% of them (by count)
 * Prints the number of pieces written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"
#include "libfmt/pagecut.h"
#include "libfmt/metabuild.h"

struct plan {
	int pages;		/* -p */
	int pieces;		/* -t */
	int overlap;		/* -o */
	int half;		/* -h */
	int turns;		/* -i */
	int halves;		/* -s */
	const char *buffer;	/* -b */
	const char *system;	/* -e */
	int change;		/* -c */
	uint64_t t0, t1;	/* -t: first and last page times */
	int fill;		/* -R */
	uint64_t quantum;	/* -q */
	int reverse;		/* -x */
	int twice;		/* -d */
	int from, to;		/* -w */
};

static struct tdat_error err;

static int die(void)
{
	fprintf(stderr, "mkpieces: %s\n", err.msg);
	return 1;
}

/* The first event's time of a page, or its header time. */
static uint64_t page_time(struct tdat_file *f, const uint8_t *page,
			  uint32_t ps)
{
	struct tdat_page_iter it;
	struct tdat_event ev;

	if (!tdat_page_iter_init(&it, f, page, ps) &&
	    tdat_page_iter_next(&it, &ev) == 1)
		return ev.ts;
	return tdat_get64(f, page);
}

static int events_in(struct tdat_file *f, const uint8_t *page, uint32_t ps)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	int n = 0;

	if (tdat_page_iter_init(&it, f, page, ps))
		return 0;
	while (tdat_page_iter_next(&it, &ev) == 1)
		n++;
	return n;
}

/* Does page number k (with time t) of a CPU go to piece p? */
static int in_piece(const struct plan *pl, int p, uint64_t k, uint64_t t)
{
	uint64_t span, q;

	if (pl->turns)
		return k % (uint64_t)pl->turns == (uint64_t)p;
	if (pl->pages) {
		q = k / (uint64_t)pl->pages;
		return q == (uint64_t)p ||
		       (pl->overlap && p > 0 && q == (uint64_t)p - 1 &&
			k % pl->pages >= (uint64_t)(pl->pages - pl->overlap));
	}
	span = (pl->t1 - pl->t0) / (uint64_t)pl->pieces + 1;
	q = t < pl->t0 ? 0 : (t - pl->t0) / span;
	if (q >= (uint64_t)pl->pieces)
		q = (uint64_t)pl->pieces - 1;
	return q == (uint64_t)p;
}

/* One CPU's pages (reader buffer b) that belong to piece p, into
 * writer buffer wb. */
static int copy_cpu(struct tdat_file *f, int b, int i, struct tdat_writer *w,
		    int wb, const struct plan *pl, int p, uint8_t *cut)
{
	uint32_t ps = f->buffers[b].page_size;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint64_t k = 0, off;
	int got, n;

	if (tdat_writer_begin_cpu(w, wb, f->buffers[b].cpus[i].cpu, &err))
		return -1;
	r = tdat_cpu_open(f, b, i, &err);
	if (!r)
		return -1;
	while ((got = tdat_cpu_next_page(r, &page, &off, &err)) == 1) {
		/* -h: the second half of the last page before this piece */
		if (pl->half && p > 0 && k == (uint64_t)p * pl->pages - 1) {
			n = events_in(f, page, ps);
			if (n > 1 && (tdat_page_cut_index(f, page, ps,
					(uint32_t)n / 2, (uint32_t)n, cut,
					off, &err) < 0 ||
				      tdat_writer_put_pages(w, cut, ps, &err))) {
				got = -1;
				break;
			}
		}
		if (pl->halves) {
			n = events_in(f, page, ps);
			if (n && (tdat_page_cut_index(f, page, ps, p ?
					(uint32_t)n / 2 : 0, p ? (uint32_t)n :
					(uint32_t)n / 2, cut, off, &err) < 0 ||
				  tdat_writer_put_pages(w, cut, ps, &err))) {
				got = -1;
				break;
			}
		} else if (in_piece(pl, p, k, page_time(f, page, ps)) &&
		    tdat_writer_put_pages(w, page, ps, &err)) {
			got = -1;
			break;
		}
		k++;
	}
	tdat_cpu_close(r);
	if (got != 0)
		return -1;
	return tdat_writer_end_cpu(w, &err);
}

/* Piece p of f into out; with -b only that buffer (meta says so). */
static int write_piece(struct tdat_file *f, const struct tdat_file *meta,
		       const char *out, const struct plan *pl, int p)
{
	struct tdat_write_opts o = { .version = f->version, .codec = f->codec,
				      .threads = 1 };
	struct tdat_writer *w = tdat_writer_open(out, meta, &o, &err);
	uint8_t *cut = malloc(f->page_size * 4);
	int b, i;

	if (!w || !cut) {
		free(cut);
		tdat_writer_abort(w);
		return -1;
	}
	for (b = 0; b < f->nbuffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];

		if (pl->buffer && strcmp(buf->name, pl->buffer))
			continue;
		if (buf->latency)
			continue;
		for (i = 0; i < buf->ncpus; i++)
			if (buf->cpus[i].size &&
			    copy_cpu(f, b, i, w, pl->buffer ? 0 : b, pl, p, cut))
				goto fail;
	}
	free(cut);
	return tdat_writer_close(w, &err);
fail:
	free(cut);
	tdat_writer_abort(w);
	return -1;
}

/* The events part with only system sys (file byte order kept). */
static int keep_system(struct tdat_file *f, struct tdat_blob *part,
		       const char *sys)
{
	const uint8_t *d = f->meta[TDAT_META_EVENTS].data;
	size_t len = f->meta[TDAT_META_EVENTS].len, pos = 4, start, n;
	uint32_t ns = tdat_get32(f, d), i, j, ne;
	uint8_t *out = malloc(len);

	if (!out)
		return -1;
	part->data = out;
	part->len = 4;
	tdat_put32(f, out, 0);
	for (i = 0; i < ns; i++) {
		start = pos;
		n = strlen((const char *)d + pos) + 1;
		pos += n;
		ne = tdat_get32(f, d + pos);
		pos += 4;
		for (j = 0; j < ne; j++)
			pos += 8 + (size_t)tdat_get64(f, d + pos);
		if (strcmp((const char *)d + start, sys))
			continue;
		memcpy(out + part->len, d + start, pos - start);
		part->len += pos - start;
		tdat_put32(f, out, 1);
	}
	return 0;
}

/* Another first letter in the first "print fmt" of the events part. */
static int change_format(struct tdat_file *meta)
{
	struct tdat_blob *b = &meta->meta[TDAT_META_EVENTS];	/* a copy */
	const char key[] = "print fmt: \"";
	size_t i;

	for (i = 0; i + sizeof(key) < b->len; i++) {
		if (memcmp(b->data + i, key, sizeof(key) - 1))
			continue;
		i += sizeof(key) - 1;
		b->data[i] = b->data[i] == 'X' ? 'Y' : 'X';
		return 0;
	}
	fprintf(stderr, "mkpieces: no print fmt to change\n");
	return -1;
}

/* ---- -R: events packed into new pages ---- */

struct item {
	uint64_t ts;
	uint32_t len;		/* header word(s) + payload */
	const uint8_t *bytes;	/* in the reader's copy of the stream */
};

struct stream {
	struct item *it;
	size_t n, cap;
	uint8_t **pages;	/* copies of the input pages */
	size_t npages;
};

static int add_item(struct stream *st, uint64_t ts, const uint8_t *bytes,
		    uint32_t len)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 1024;
		struct item *it = realloc(st->it, cap * sizeof(*it));

		if (!it)
			return -1;
		st->it = it;
		st->cap = cap;
	}
	st->it[st->n].ts = ts;
	st->it[st->n].bytes = bytes;
	st->it[st->n++].len = len;
	return 0;
}

/* Every event of one CPU stream (pages copied: items point into them). */
static int read_stream(struct tdat_file *f, int b, int i, struct stream *st)
{
	uint32_t ps = f->buffers[b].page_size;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, &err);
	struct tdat_page_iter it;
	struct tdat_event ev;
	const uint8_t *page;
	int got;

	if (!r)
		return -1;
	while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) == 1) {
		uint8_t *copy = malloc(ps), **pages;

		pages = realloc(st->pages, (st->npages + 1) * sizeof(*pages));
		if (!copy || !pages) {
			free(copy);
			got = -1;
			break;
		}
		st->pages = pages;
		st->pages[st->npages++] = copy;
		memcpy(copy, page, ps);
		if (tdat_page_iter_init(&it, f, copy, ps))
			continue;
		while (tdat_page_iter_next(&it, &ev) == 1)
			if (add_item(st, ev.ts, copy + ev.offset,
				     (uint32_t)(ev.data - (copy + ev.offset)) +
				     (ev.size + 3) / 4 * 4)) {
				got = -1;
				break;
			}
	}
	tdat_cpu_close(r);
	return got;
}

/* -w, -q, -d, -x applied to a stream's events, in a new list. */
static int transform(const struct plan *pl, struct stream *in,
		     struct stream *out)
{
	size_t a = in->n * (size_t)pl->from / 100, z = in->n * (size_t)pl->to / 100;
	size_t k, g, e;

	for (k = a; k < z; k++) {
		struct item *it = &in->it[k];
		uint64_t ts = pl->quantum ? it->ts / pl->quantum * pl->quantum :
					    it->ts;

		if (add_item(out, ts, it->bytes, it->len) ||
		    (pl->twice && (k - a) % (size_t)pl->twice == 0 &&
		     add_item(out, ts, it->bytes, it->len)))
			return -1;
	}
	for (g = 0; pl->reverse && g < out->n; g = e) {
		for (e = g; e < out->n && out->it[e].ts == out->it[g].ts; e++)
			;
		for (k = 0; k < (e - g) / 2; k++) {
			struct item t = out->it[g + k];

			out->it[g + k] = out->it[e - 1 - k];
			out->it[e - 1 - k] = t;
		}
	}
	return 0;
}

static uint32_t header_word(const struct tdat_file *f, uint32_t type_len,
			    uint32_t delta)
{
	if (f->big_endian)
		return type_len << 27 | (delta & 0x07FFFFFF);
	return (delta & 0x07FFFFFF) << 5 | type_len;
}

static uint32_t type_len_of(const struct tdat_file *f, const uint8_t *p)
{
	uint32_t w = tdat_get32(f, p);

	return f->big_endian ? w >> 27 : w & 0x1F;
}

static int flush_page(struct tdat_file *f, struct tdat_writer *w,
		      uint8_t *page, uint32_t ps, uint32_t pos)
{
	uint32_t hdr = (uint32_t)f->page_header_size;

	if (pos == hdr)
		return 0;
	if (f->commit_size == 4)
		tdat_put32(f, page + 8, pos - hdr);
	else
		tdat_put64(f, page + 8, pos - hdr);
	memset(page + pos, 0, ps - pos);
	return tdat_writer_put_pages(w, page, ps, &err);
}

/* The items in pages filled to fill% of their data area at most. */
static int pack(struct tdat_file *f, struct tdat_writer *w, uint32_t ps,
		const struct stream *st, int fill, uint8_t *page)
{
	uint32_t hdr = (uint32_t)f->page_header_size, pos = hdr;
	uint32_t avail = (ps - hdr) * (uint32_t)fill / 100;
	uint64_t last = 0;
	size_t k;

	for (k = 0; k < st->n; k++) {
		const struct item *it = &st->it[k];
		uint64_t delta = it->ts - last;
		uint32_t need = it->len + (delta > 0x07FFFFFF ? 8 : 0);

		if (pos > hdr && (pos - hdr + need > avail || pos + need > ps)) {
			if (flush_page(f, w, page, ps, pos))
				return -1;
			pos = hdr;
		}
		if (pos == hdr) {
			tdat_put64(f, page, it->ts);
			delta = 0;
			need = it->len;
			if (pos + need > ps) {
				fprintf(stderr, "mkpieces: event too big\n");
				return -1;
			}
		}
		if (need > it->len) {	/* a time extend first */
			tdat_put32(f, page + pos, header_word(f, 30,
					(uint32_t)(delta & 0x07FFFFFF)));
			tdat_put32(f, page + pos + 4, (uint32_t)(delta >> 27));
			pos += 8;
			delta = 0;
		}
		memcpy(page + pos, it->bytes, it->len);
		tdat_put32(f, page + pos, header_word(f, type_len_of(f, it->bytes),
						      (uint32_t)delta));
		pos += it->len;
		last = it->ts;
	}
	return flush_page(f, w, page, ps, pos);
}

static void stream_free(struct stream *st, int pages)
{
	size_t k;

	for (k = 0; pages && k < st->npages; k++)
		free(st->pages[k]);
	free(st->pages);
	free(st->it);
	memset(st, 0, sizeof(*st));
}

static int repack(struct tdat_file *f, const char *out, const struct plan *pl)
{
	struct tdat_write_opts o = { .version = f->version, .codec = f->codec,
				      .threads = 1 };
	struct tdat_writer *w = tdat_writer_open(out, f, &o, &err);
	uint8_t *page = malloc(f->page_size * 4);
	struct stream in = { 0 }, st = { 0 };
	int b, i;

	if (!w || !page)
		goto fail;
	for (b = 0; b < f->nbuffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];

		for (i = 0; !buf->latency && i < buf->ncpus; i++) {
			if (!buf->cpus[i].size)
				continue;
			if (tdat_writer_begin_cpu(w, b, buf->cpus[i].cpu, &err) ||
			    read_stream(f, b, i, &in) || transform(pl, &in, &st) ||
			    pack(f, w, buf->page_size, &st, pl->fill, page) ||
			    tdat_writer_end_cpu(w, &err))
				goto fail;
			stream_free(&st, 0);
			stream_free(&in, 1);
		}
	}
	free(page);
	return tdat_writer_close(w, &err);
fail:
	stream_free(&st, 0);
	stream_free(&in, 1);
	free(page);
	tdat_writer_abort(w);
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: mkpieces [-p N [-o K | -h] | -t N | -i N | -s]"
		" IN PREFIX\n"
		"       mkpieces -b NAME [-e SYSTEM] IN OUT\n"
		"       mkpieces -R FILL [-q Q] [-x] [-d K] [-w FROM:TO] IN OUT\n");
	return 2;
}

/* Page times of the whole file, for -t. */
static int time_range(struct tdat_file *f, struct plan *pl)
{
	const uint8_t *page;
	int b, i, got = 0;

	pl->t0 = UINT64_MAX;
	pl->t1 = 0;
	for (b = 0; b < f->nbuffers; b++) {
		for (i = 0; !f->buffers[b].latency && i < f->buffers[b].ncpus;
		     i++) {
			struct tdat_cpu_reader *r;
			uint64_t t;

			if (!f->buffers[b].cpus[i].size)
				continue;
			r = tdat_cpu_open(f, b, i, &err);
			if (!r)
				return -1;
			while ((got = tdat_cpu_next_page(r, &page, NULL,
							 &err)) == 1) {
				t = page_time(f, page, f->buffers[b].page_size);
				if (!t)
					continue;	/* a zero page */
				if (t < pl->t0)
					pl->t0 = t;
				if (t > pl->t1)
					pl->t1 = t;
			}
			tdat_cpu_close(r);
			if (got < 0)
				return -1;
		}
	}
	if (pl->t0 > pl->t1)
		pl->t0 = pl->t1 = 0;
	return 0;
}

/* Pages per CPU of the longest stream: how many -p pieces there are. */
static uint64_t most_pages(struct tdat_file *f)
{
	uint64_t most = 0, n;
	int b, i;

	for (b = 0; b < f->nbuffers; b++)
		for (i = 0; !f->buffers[b].latency && i < f->buffers[b].ncpus;
		     i++) {
			struct tdat_cpu_reader *r;
			const uint8_t *page;

			if (!f->buffers[b].cpus[i].size)
				continue;
			r = tdat_cpu_open(f, b, i, &err);
			n = 0;
			while (r && tdat_cpu_next_page(r, &page, NULL,
						       &err) == 1)
				n++;
			tdat_cpu_close(r);
			if (n > most)
				most = n;
		}
	return most;
}

int main(int argc, char **argv)
{
	struct plan pl = { 0 };
	struct tdat_file *f, *meta;
	struct tdat_blob events = { 0 };
	char name[4096];
	int i = 1, p, n;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-p"))
			pl.pages = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-t"))
			pl.pieces = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-i"))
			pl.turns = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-s")) {
			pl.halves = 1;
			i--;
		} else if (!strcmp(argv[i], "-o"))
			pl.overlap = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-h")) {
			pl.half = 1;
			i--;
		} else if (!strcmp(argv[i], "-c")) {
			pl.change = 1;
			i--;
		} else if (!strcmp(argv[i], "-b"))
			pl.buffer = argv[i + 1];
		else if (!strcmp(argv[i], "-e"))
			pl.system = argv[i + 1];
		else if (!strcmp(argv[i], "-R"))
			pl.fill = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-q"))
			pl.quantum = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "-x")) {
			pl.reverse = 1;
			i--;
		} else if (!strcmp(argv[i], "-d"))
			pl.twice = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-w") &&
			 sscanf(argv[i + 1], "%d:%d", &pl.from, &pl.to) == 2 &&
			 pl.from >= 0 && pl.from < pl.to && pl.to <= 100)
			;
		else
			return usage();
	}
	if (pl.fill) {
		if (argc - i != 2 || pl.fill < 0 || pl.fill > 100 ||
		    pl.twice < 0)
			return usage();
		if (!pl.to)
			pl.to = 100;
		f = tdat_open(argv[i], &err);
		if (!f || repack(f, argv[i + 1], &pl))
			return die();
		tdat_close(f);
		printf("1\n");
		return 0;
	}
	if (pl.turns > 0 || pl.halves)
		pl.pages = INT32_MAX;
	if (argc - i != 2 || (pl.pages <= 0) + (pl.pieces <= 0) +
	    !pl.buffer != 2 || pl.overlap < 0 || pl.overlap >= pl.pages + !pl.pages)
		return usage();
	f = tdat_open(argv[i], &err);
	if (!f)
		return die();
	if (pl.buffer) {
		for (p = 0; p < f->nbuffers && strcmp(f->buffers[p].name,
						       pl.buffer); p++)
			;
		if (p == f->nbuffers) {
			fprintf(stderr, "mkpieces: no buffer \"%s\"\n",
				pl.buffer);
			return 1;
		}
		meta = tdat_meta_clone(f, 0, &err);
		if (!meta || tdat_meta_copy_buffer(meta, &f->buffers[p],
						   NULL) < 0)
			return die();
		if (pl.system) {
			if (keep_system(f, &events, pl.system))
				return 1;
			tdat_meta_set(meta, TDAT_META_EVENTS, &events);
		}
		if (pl.change && change_format(meta))
			return 1;
		pl.pages = INT32_MAX;	/* everything in one piece */
		if (write_piece(f, meta, argv[i + 1], &pl, 0))
			return die();
		tdat_close(meta);
		tdat_close(f);
		printf("1\n");
		return 0;
	}
	if (pl.pieces && time_range(f, &pl))
		return die();
	n = pl.turns ? pl.turns : pl.halves ? 2 : pl.pieces ? pl.pieces :
	    (int)((most_pages(f) + (uint64_t)pl.pages - 1) / pl.pages);
	for (p = 0; p < n; p++) {
		snprintf(name, sizeof(name), "%s.%04d", argv[i + 1], p + 1);
		if (write_piece(f, f, name, &pl, p))
			return die();
	}
	tdat_close(f);
	printf("%d\n", n);
	return 0;
}
