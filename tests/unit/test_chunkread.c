/* test_chunkread.c - stored chunks read by position (tdat_chunk_first,
 * tdat_chunk_read_at), against the streaming reader on real files. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "tracedat.h"
#include "units.h"

/* Every CPU stream read chunk by chunk by position, decoded with one
 * decoder, equals what tdat_cpu_next_page gives. */
static void same_as_reader(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	struct tdat_chunk_decoder *d;
	uint8_t *data = NULL, *out = NULL;
	size_t cap = 0;
	int b, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	d = tdat_chunk_decoder_new(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	for (b = 0; b < f->nbuffers; b++) {
		if (f->buffers[b].latency)
			continue;
		for (i = 0; i < f->buffers[b].ncpus; i++) {
			struct tdat_cpu_reader *r = tdat_cpu_open(f, b, i, &err);
			uint32_t n, k, cs, us, ps = f->buffers[b].page_size;
			const uint8_t *page;
			uint64_t off, pages = 0;

			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			CU_ASSERT_EQUAL_FATAL(tdat_chunk_first(f, b, i, &n, &off,
							       &err), 0);
			CU_ASSERT_EQUAL(n == 0, f->buffers[b].cpus[i].size == 0);
			for (k = 0; k < n; k++) {
				uint32_t j;

				CU_ASSERT_EQUAL_FATAL(tdat_chunk_read_at(f, b, i,
						off, &data, &cap, &cs, &us,
						&err), 0);
				CU_ASSERT_EQUAL_FATAL(us % ps, 0);
				out = realloc(out, us ? us : 1);
				CU_ASSERT_PTR_NOT_NULL_FATAL(out);
				CU_ASSERT_EQUAL_FATAL(tdat_chunk_decode(d, data,
						cs, out, us, off, &err), 0);
				for (j = 0; j < us / ps; j++, pages++) {
					CU_ASSERT_EQUAL_FATAL(tdat_cpu_next_page(r,
							&page, NULL, &err), 1);
					CU_ASSERT(!memcmp(page, out + (size_t)j * ps,
							  ps));
				}
				off += 8 + (uint64_t)cs;
			}
			/* nothing left for the reader either */
			CU_ASSERT_EQUAL(tdat_cpu_next_page(r, &page, NULL, &err),
					0);
			CU_ASSERT(pages > 0 || !f->buffers[b].cpus[i].size);
			/* past the last chunk: outside the stream or not a
			 * chunk; never a read beyond it */
			if (n)
				CU_ASSERT_NOT_EQUAL(tdat_chunk_read_at(f, b, i,
					f->file_size, &data, &cap, &cs, &us,
					&err), 0);
			tdat_cpu_close(r);
		}
	}
	free(data);
	free(out);
	tdat_chunk_decoder_free(d);
	tdat_close(f);
}

static void test_zstd(void)
{
	same_as_reader("v7-zstd-sched-irq.dat");
	same_as_reader("v7-zstd-2inst-irq-top-sched-inst1-tc34.dat");
}

static void test_zlib(void)
{
	same_as_reader("v7-zlib-sched-irq-tc34.dat");
}

/* Offsets outside the stream and uncompressed streams are refused with
 * the file named. */
static void test_refusals(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v7-zstd-sched-irq.dat"), &err);
	uint8_t *data = NULL;
	size_t cap = 0;
	uint32_t n, cs, us;
	uint64_t first;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(tdat_chunk_first(f, 0, 0, &n, &first, &err), 0);
	CU_ASSERT(n > 0);
	/* the count word itself, and before the stream */
	CU_ASSERT_EQUAL(tdat_chunk_read_at(f, 0, 0, first - 4, &data, &cap,
					   &cs, &us, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "v7-zstd-sched-irq.dat"));
	CU_ASSERT_EQUAL(tdat_chunk_read_at(f, 0, 0, 0, &data, &cap, &cs, &us,
					   &err), -1);
	/* CPU 1's first chunk is not in CPU 0's stream */
	if (f->buffers[0].ncpus > 1 && f->buffers[0].cpus[1].size)
		CU_ASSERT_EQUAL(tdat_chunk_read_at(f, 0, 0,
				f->buffers[0].cpus[1].offset + 4, &data, &cap,
				&cs, &us, &err), -1);
	CU_ASSERT_EQUAL(tdat_chunk_read_at(f, 0, 0, first, &data, &cap, &cs,
					   &us, &err), 0);
	free(data);
	tdat_close(f);

	f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(tdat_chunk_first(f, 0, 0, &n, &first, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not compressed"));
	tdat_close(f);
}

void suite_chunkread(void)
{
	CU_pSuite s = CU_add_suite("chunkread", NULL, NULL);

	CU_add_test(s, "zstd chunks by position = the reader", test_zstd);
	CU_add_test(s, "zlib chunks by position = the reader", test_zlib);
	CU_add_test(s, "offsets outside the stream", test_refusals);
}
