/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_read.c - libFuzzer target for the reader (`make fuzz`).
 *
 * The input becomes an in-memory file (memfd), is opened with tdat_open,
 * and every buffer is walked the way applets walk it: each CPU's pages
 * and every event in them, latency text read whole; a compressed
 * stream is read again with its chunks decompressed ahead on threads,
 * which must give the same pages, errors and positions (else the
 * target traps).  Any crash, leak, sanitizer report or runaway
 * allocation is a reader bug; errors returned as values are the
 * expected outcome for most inputs.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "libfmt/tracedat.h"

static void walk_cpu(struct tdat_file *f, int b, int idx)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, idx, &err);
	const uint8_t *page;
	uint64_t off;
	unsigned pages = 0;

	if (!r)
		return;
	while (pages++ < 4096 &&
	       tdat_cpu_next_page(r, &page, &off, &err) == 1) {
		struct tdat_page_iter it;
		struct tdat_event ev;
		volatile uint8_t sink = 0;

		if (tdat_page_iter_init(&it, f, page,
					f->buffers[b].page_size))
			continue;
		while (tdat_page_iter_next(&it, &ev) == 1)
			if (ev.size)	/* touch the payload's ends */
				sink ^= ev.data[0] ^ ev.data[ev.size - 1];
		(void)sink;
	}
	tdat_cpu_close(r);
}

/* The same stream again as stored chunks (the copy path of convert). */
static void walk_chunks(struct tdat_file *f, int b, int idx)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, idx, &err);
	const uint8_t *d;
	uint32_t c, u;

	if (!r)
		return;
	while (tdat_cpu_next_chunk(r, &d, &c, &u, &err) == 1)
		;
	tdat_cpu_close(r);
}

/* Every call's result over the stream (pages, offsets, errors, the
 * position), folded into one number; read ahead on threads or not. */
static uint64_t digest_stream(struct tdat_file *f, int b, int idx, int ahead)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, idx, &err);
	uint64_t h = 1469598103934665603ull, off, done, total;
	const uint8_t *p;
	size_t len, i;
	int got, calls = 0;

	if (!r)
		return 0;
	if (ahead)
		tdat_cpu_read_ahead(r);
	do {
		memset(&err, 0, sizeof(err));
		got = tdat_cpu_next_pages(r, &p, &len, &off, &err);
		tdat_cpu_position(r, &done, &total);
		h = (h ^ (uint64_t)(got + 2)) * 1099511628211ull;
		h = (h ^ done ^ total << 1) * 1099511628211ull;
		for (i = 0; got == 1 && i < len; i += 64)
			h = (h ^ p[i] ^ off << 8 ^ len << 40) * 1099511628211ull;
		/* A budget refusal names the bytes held, which the threads
		 * keep lower (they free their ring before the retry). */
		for (i = 0; got < 0 && err.msg[i] &&
			    !(err.memory && err.msg[i] == '('); i++)
			h = (h ^ (uint8_t)err.msg[i]) * 1099511628211ull;
	} while ((got == 1 || got == -1) && ++calls < 4096);
	tdat_cpu_close(r);
	return h;
}

static int touch_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	volatile char sink = system[0];

	if (len)
		sink ^= text[0] ^ text[len - 1];
	(void)sink;
	(void)ctx;
	return 0;
}

/* The metadata accessors parse size fields inside the parts. */
static void walk_meta(struct tdat_file *f)
{
	struct tdat_error err;
	const char *t, *e;
	size_t n, m;
	int i;

	(void)tdat_each_format(f, touch_format, NULL, &err);
	(void)tdat_header_texts(f, &t, &n, &e, &m, &err);
	for (i = TDAT_META_KALLSYMS; i <= TDAT_META_CMDLINES; i++)
		(void)tdat_meta_text(f, (enum tdat_meta)i, &t, &n, &err);
}

static void walk(struct tdat_file *f)
{
	int b, i;

	walk_meta(f);
	(void)tdat_cpus(f);
	(void)tdat_top_buffer(f);
	(void)tdat_find_option(f, TDAT_OPT_TRACECLOCK);
	for (b = 0; b < f->nbuffers; b++) {
		if (f->buffers[b].latency) {
			struct tdat_blob text;
			struct tdat_error err;

			if (!tdat_read_latency(f, b, &text, &err))
				free(text.data);
			continue;
		}
		for (i = 0; i < f->buffers[b].ncpus; i++) {
			walk_cpu(f, b, i);
			if (!f->buffers[b].compressed)
				continue;
			walk_chunks(f, b, i);
			/* read ahead, the stream must read the same */
			if (digest_stream(f, b, i, 0) != digest_stream(f, b, i, 1))
				__builtin_trap();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct tdat_error err;
	struct tdat_file *f;
	char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz.dat", 0);
		if (fd < 0)
			return 0;
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	f = tdat_open(path, &err);
	if (!f) {
		/* One line naming the file, never empty. */
		if (!err.msg[0] || strchr(err.msg, '\n') ||
		    strncmp(err.msg, path, strlen(path)))
			__builtin_trap();
		return 0;
	}
	walk(f);
	tdat_close(f);
	return 0;
}
