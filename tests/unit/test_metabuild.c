/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_metabuild.c - metadata made in memory: libfmt/metabuild.h. */
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "libfmt/tracedat.h"
#include "libfmt/stored.h"
#include "libfmt/metabuild.h"
#include "tests/unit/units.h"

static int same_blob(const struct tdat_blob *a, const struct tdat_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data,
						       a->len));
}

/* Every part of b decodes to a's, whether stored, pending or plain. */
static void same_parts(const struct tdat_file *a, const struct tdat_file *b)
{
	struct tdat_error err;
	struct tdat_blob x, y;
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++) {
		CU_ASSERT_EQUAL(tdat_meta_has(a, i), tdat_meta_has(b, i));
		CU_ASSERT_FATAL(!tdat_meta_decode(a, i, &x, &err));
		CU_ASSERT_FATAL(!tdat_meta_decode(b, i, &y, &err));
		CU_ASSERT(same_blob(&x, &y));
		free(x.data);
		free(y.data);
	}
}

/* A clone of a lazily opened file outlives it: stored forms come along. */
static void test_clone_lazy(void)
{
	struct tdat_error err;
	struct tdat_file *e = tdat_open(fixture("v7-zstd-sched-irq.dat"), &err);
	struct tdat_file *l = tdat_open_flags(fixture("v7-zstd-sched-irq.dat"),
					      TDAT_OPEN_LAZY_META, &err);
	struct tdat_file *c;

	CU_ASSERT_FATAL(e && l);
	c = tdat_meta_clone(l, 0, &err);
	CU_ASSERT_FATAL(c != NULL);
	CU_ASSERT_EQUAL(c->nbuffers, 0);
	CU_ASSERT_EQUAL(c->file_size, 0);
	CU_ASSERT_EQUAL(c->page_size, l->page_size);
	CU_ASSERT_EQUAL(c->codec, l->codec);
	CU_ASSERT_EQUAL(c->noptions, l->noptions);
	CU_ASSERT_STRING_EQUAL(c->path, l->path);
	CU_ASSERT(tdat_meta_pending(c, TDAT_META_KALLSYMS));
	CU_ASSERT_PTR_NOT_NULL(tdat_meta_stored(c, TDAT_META_KALLSYMS));
	CU_ASSERT_EQUAL(tdat_meta_same_stored(c, l, TDAT_META_KALLSYMS, &err),
			1);
	tdat_close(l);
	same_parts(e, c);
	tdat_close(c);
	tdat_close(e);
}

/* With TDAT_CLONE_BUFFERS the buffer table is copied whole. */
static void test_clone_buffers(void)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(
		fixture("v7-zstd-2inst-irq-top-sched-inst1.dat"), &err);
	struct tdat_file *c;
	int i;

	CU_ASSERT_FATAL(f != NULL);
	c = tdat_meta_clone(f, TDAT_CLONE_BUFFERS, &err);
	CU_ASSERT_FATAL(c != NULL);
	CU_ASSERT_EQUAL_FATAL(c->nbuffers, f->nbuffers);
	for (i = 0; i < f->nbuffers; i++) {
		const struct tdat_buffer *a = &f->buffers[i], *b = &c->buffers[i];

		CU_ASSERT_STRING_EQUAL(a->name, b->name);
		CU_ASSERT_STRING_EQUAL(a->clock, b->clock);
		CU_ASSERT_EQUAL(a->page_size, b->page_size);
		CU_ASSERT_EQUAL(a->compressed, b->compressed);
		CU_ASSERT_EQUAL_FATAL(a->ncpus, b->ncpus);
		CU_ASSERT(a->cpus != b->cpus);
		CU_ASSERT(!memcmp(a->cpus, b->cpus,
				  (size_t)a->ncpus * sizeof(*a->cpus)));
	}
	CU_ASSERT_EQUAL(tdat_cpus(c), tdat_cpus(f));
	same_parts(f, c);
	tdat_close(f);
	tdat_close(c);
}

/* Buffers and CPUs added one by one; parts set and dropped. */
static void test_build(void)
{
	struct tdat_error err;
	struct tdat_file *m = tdat_meta_new(7, 1, 8, 4096, &err);
	struct tdat_blob b = { NULL, 0 };
	int k;

	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL(m->version, 7);
	CU_ASSERT_EQUAL(m->big_endian, 1);
	CU_ASSERT_EQUAL(m->long_size, 8);
	CU_ASSERT_EQUAL(m->page_size, 4096);
	CU_ASSERT_FALSE(tdat_meta_has(m, TDAT_META_HEADERS));
	CU_ASSERT_EQUAL(tdat_meta_add_buffer(m, "", NULL, 4096), 0);
	k = tdat_meta_add_buffer(m, "inst", "mono", 8192);
	CU_ASSERT_EQUAL_FATAL(k, 1);
	CU_ASSERT_STRING_EQUAL(m->buffers[0].clock, "");
	CU_ASSERT_EQUAL(tdat_meta_add_cpu(m, k, 3), 0);
	CU_ASSERT_EQUAL(tdat_meta_add_cpu(m, k, 1), 0);
	CU_ASSERT_EQUAL(tdat_meta_add_cpu(m, k, 3), 0);
	CU_ASSERT_EQUAL_FATAL(m->buffers[k].ncpus, 2);
	CU_ASSERT_EQUAL(m->buffers[k].cpus[0].cpu, 3);
	CU_ASSERT_EQUAL(m->buffers[k].cpus[1].cpu, 1);
	CU_ASSERT_EQUAL(tdat_meta_copy_buffer(m, &m->buffers[k], "again"), 2);
	CU_ASSERT_STRING_EQUAL(m->buffers[2].name, "again");
	CU_ASSERT_EQUAL(m->buffers[2].ncpus, 2);
	CU_ASSERT_EQUAL(m->buffers[2].page_size, 8192);

	b.data = malloc(4);
	CU_ASSERT_FATAL(b.data != NULL);
	memcpy(b.data, "abcd", 4);
	b.len = 4;
	tdat_meta_set(m, TDAT_META_BTF, &b);
	CU_ASSERT_PTR_NULL(b.data);
	CU_ASSERT(tdat_meta_has(m, TDAT_META_BTF));
	CU_ASSERT_EQUAL(m->meta[TDAT_META_BTF].len, 4);
	tdat_meta_drop(m, TDAT_META_BTF);
	CU_ASSERT_FALSE(tdat_meta_has(m, TDAT_META_BTF));
	CU_ASSERT_PTR_NULL(m->meta[TDAT_META_BTF].data);
	tdat_close(m);
}

/* Parts taken over from a file: the same content, the same memory for
 * a loaded part (no copy), decoded first for a pending one; the file
 * no longer has them, and nothing is freed twice. */
static void test_take(void)
{
	const char *fx[] = { "v6-sched-irq.dat", "v7-zstd-sched-irq.dat" };
	struct tdat_error err;
	int k, i;

	for (k = 0; k < 2; k++) {
		struct tdat_file *e = tdat_open(fixture(fx[k]), &err);
		struct tdat_file *l = tdat_open_flags(fixture(fx[k]),
						      TDAT_OPEN_LAZY_META, &err);
		struct tdat_file *f = tdat_open(fixture(fx[k]), &err);
		struct tdat_file *c, *d;
		const uint8_t *ks = f ? f->meta[TDAT_META_KALLSYMS].data : NULL;

		CU_ASSERT_FATAL(e && l && f);
		c = tdat_meta_clone(f, TDAT_CLONE_NO_PARTS, &err);
		d = tdat_meta_clone(l, TDAT_CLONE_NO_PARTS, &err);
		CU_ASSERT_FATAL(c && d);
		for (i = 0; i < TDAT_META_COUNT; i++) {
			CU_ASSERT_FALSE(tdat_meta_has(c, i));
			CU_ASSERT_EQUAL(tdat_meta_take(c, f, i, &err), 0);
			CU_ASSERT_EQUAL(tdat_meta_take(d, l, i, &err), 0);
			CU_ASSERT_FALSE(tdat_meta_has(f, i));
			CU_ASSERT_FALSE(tdat_meta_has(l, i));
			CU_ASSERT_PTR_NULL(f->meta[i].data);
			CU_ASSERT_FALSE(tdat_meta_pending(d, i));
			CU_ASSERT_PTR_NULL(tdat_meta_stored(c, i));
		}
		CU_ASSERT(ks && c->meta[TDAT_META_KALLSYMS].data == ks);
		same_parts(e, c);
		same_parts(e, d);
		tdat_close(f);
		tdat_close(l);
		tdat_close(c);
		tdat_close(d);
		tdat_close(e);
	}
}

void suite_metabuild(void)
{
	CU_pSuite s = CU_add_suite("metabuild", NULL, NULL);

	CU_add_test(s, "clone of a lazily opened file", test_clone_lazy);
	CU_add_test(s, "clone with buffers", test_clone_buffers);
	CU_add_test(s, "buffers, CPUs and parts added", test_build);
	CU_add_test(s, "parts taken over, not copied", test_take);
}
