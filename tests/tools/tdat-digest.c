/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tdat-digest - print what a trace.dat holds, independent of its layout:
 * header fields, a hash of every metadata part, every user option, every
 * buffer and a hash of each CPU's uncompressed page stream.  Two files
 * that hold the same content print the same lines (but for the first,
 * which names version and codec), whatever their version, codec, chunk
 * size or offsets.  The lossless tests compare these digests.
 *
 * usage: tdat-digest FILE
 *        tdat-digest --chunks FILE   (hash of each stored compressed chunk,
 *                                     to see whether chunks were copied)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

static int digest_cpu(struct tdat_file *f, int b, int i)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint64_t h = FNV_INIT, pages = 0;
	int got;

	if (f->buffers[b].cpus[i].size == 0)
		return 0;
	r = tdat_cpu_open(f, b, i, &err);
	if (!r) {
		fprintf(stderr, "tdat-digest: %s\n", err.msg);
		return -1;
	}
	while ((got = tdat_cpu_next_page(r, &page, NULL, &err)) > 0) {
		h = fnv(h, page, f->buffers[b].page_size);
		pages++;
	}
	tdat_cpu_close(r);
	if (got < 0) {
		fprintf(stderr, "tdat-digest: %s\n", err.msg);
		return -1;
	}
	if (pages)
		printf("  cpu %d pages %" PRIu64 " hash %016" PRIx64 "\n",
		       f->buffers[b].cpus[i].cpu, pages, h);
	return 0;
}

/* The stored (compressed) chunks of every CPU, one line each. */
static int digest_chunks(struct tdat_file *f)
{
	struct tdat_error err;
	const uint8_t *data;
	uint32_t csize, usize;
	int b, i, got;

	for (b = 0; b < f->nbuffers; b++) {
		if (!f->buffers[b].compressed || f->buffers[b].latency)
			continue;
		for (i = 0; i < f->buffers[b].ncpus; i++) {
			struct tdat_cpu_reader *r;

			if (!f->buffers[b].cpus[i].size)
				continue;
			r = tdat_cpu_open(f, b, i, &err);
			if (!r)
				goto fail;
			while ((got = tdat_cpu_next_chunk(r, &data, &csize,
							  &usize, &err)) > 0)
				printf("buffer \"%s\" cpu %d chunk %u/%u %016"
				       PRIx64 "\n", f->buffers[b].name,
				       f->buffers[b].cpus[i].cpu, csize, usize,
				       fnv(FNV_INIT, data, csize));
			tdat_cpu_close(r);
			if (got < 0)
				goto fail;
		}
	}
	return 0;
fail:
	fprintf(stderr, "tdat-digest: %s\n", err.msg);
	return -1;
}

static int digest_buffer(struct tdat_file *f, int b)
{
	const struct tdat_buffer *buf = &f->buffers[b];
	struct tdat_error err;
	struct tdat_blob text;
	int i;

	printf("buffer \"%s\" clock \"%s\" page %u latency %d\n", buf->name,
	       buf->clock, buf->page_size, buf->latency);
	if (buf->latency) {
		if (tdat_read_latency(f, b, &text, &err)) {
			fprintf(stderr, "tdat-digest: %s\n", err.msg);
			return -1;
		}
		printf("  text %zu hash %016" PRIx64 "\n", text.len,
		       fnv(FNV_INIT, text.data, text.len));
		free(text.data);
		return 0;
	}
	for (i = 0; i < buf->ncpus; i++)
		if (digest_cpu(f, b, i))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct tdat_error err;
	struct tdat_file *f;
	int i, ret = 0;

	int chunks = argc == 3 && !strcmp(argv[1], "--chunks");

	if (argc != 2 && !chunks) {
		fprintf(stderr, "usage: tdat-digest [--chunks] FILE\n");
		return 2;
	}
	f = tdat_open(argv[argc - 1], &err);
	if (!f) {
		fprintf(stderr, "tdat-digest: %s\n", err.msg);
		return 1;
	}
	if (chunks) {
		ret = digest_chunks(f);
		tdat_close(f);
		return ret ? 1 : 0;
	}
	printf("version %d codec %s\n", f->version,
	       f->codec_name ? f->codec_name : "none");
	printf("endian %s long %d page %u cpus %u\n",
	       f->big_endian ? "big" : "little", f->long_size, f->page_size,
	       tdat_cpus(f));
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (tdat_meta_has(f, i))
			printf("meta %d size %zu hash %016" PRIx64 "\n",
			       i + TDAT_META_FIRST, f->meta[i].len,
			       fnv(FNV_INIT, f->meta[i].data, f->meta[i].len));
	for (i = 0; i < f->noptions; i++)
		printf("option %u size %u hash %016" PRIx64 "\n",
		       f->options[i].id, f->options[i].size,
		       fnv(FNV_INIT, f->options[i].data, f->options[i].size));
	for (i = 0; i < f->nextra; i++)
		printf("section %u flags %u \"%s\" size %zu hash %016" PRIx64
		       "\n", f->extra[i].id, f->extra[i].flags,
		       f->extra[i].description ? f->extra[i].description : "",
		       f->extra[i].body.len,
		       fnv(FNV_INIT, f->extra[i].body.data,
			   f->extra[i].body.len));
	for (i = 0; i < f->nbuffers && !ret; i++)
		ret = digest_buffer(f, i);
	tdat_close(f);
	return ret ? 1 : 0;
}
