/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_salvage.c - restore's strict page check (tdat_page_check), the
 * event-id table behind it, and the tolerant open of damaged files
 * (tdat_open_salvage) on the truncated fixtures.
 *
 * Every page of every fixture is a page the kernel wrote: all must pass.
 * Damaged pages are made here from a real one, one defect each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "libfmt/tracedat.h"
#include "libfmt/salvage.h"

static struct tdat_file *open_fixture(const char *name)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);

	if (!f)
		fprintf(stderr, "\n  %s\n", err.msg);
	return f;
}

/* Check every page of every stream of a fixture: counts by verdict. */
static void check_all(const char *name, unsigned *ok, unsigned *empty,
		      unsigned *bad, unsigned long *events)
{
	static struct tdat_event_ids ids;
	struct tdat_file *f = open_fixture(name);
	struct tdat_page_check pc;
	struct tdat_error err;
	int b, i;

	*ok = *empty = *bad = 0;
	*events = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(tdat_event_ids_load(f, &ids, &err), 0);
	CU_ASSERT(ids.count > 10);
	for (b = 0; b < f->nbuffers; b++) {
		for (i = 0; i < f->buffers[b].ncpus; i++) {
			struct tdat_cpu_reader *r;
			const uint8_t *page;

			if (!f->buffers[b].cpus[i].size)
				continue;
			r = tdat_cpu_open(f, b, i, &err);
			CU_ASSERT_PTR_NOT_NULL_FATAL(r);
			while (tdat_cpu_next_page(r, &page, NULL, &err) == 1) {
				int v = tdat_page_check(f, page,
					f->buffers[b].page_size, &ids, &pc);

				*ok += v == TDAT_PAGE_OK;
				*empty += v == TDAT_PAGE_EMPTY;
				*bad += v == TDAT_PAGE_BAD;
				*events += (unsigned long)pc.nevents;
			}
			tdat_cpu_close(r);
		}
	}
	tdat_close(f);
}

/* Events per fixture: the lines of trace-cmd's report minus "cpus=". */
static void test_fixture_pages_pass(void)
{
	static const struct {
		const char *name;
		unsigned long events;
	} want[] = {
		{ "v6-sched-irq.dat", 464 },
		{ "v7-zstd-markers-raw_syscalls.dat", 29509 },
		{ "v7-zstd-2inst-irq-top-sched-inst1.dat", 870 },
		{ "crashed/restored.dat", 3804 },
	};
	unsigned ok, empty, bad, i;
	unsigned long events;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		check_all(want[i].name, &ok, &empty, &bad, &events);
		CU_ASSERT(ok > 0);
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT_EQUAL(events, want[i].events);
		if (bad || events != want[i].events)
			fprintf(stderr, "\n  %s: %u bad, %lu events\n",
				want[i].name, bad, events);
	}
}

/* ---- one real page, damaged in one way at a time ---- */

static struct tdat_file *pf;
static struct tdat_event_ids pids;
static uint8_t page0[4096];
static uint32_t commit0;

static int page_setup(void)
{
	struct tdat_error err;
	struct tdat_cpu_reader *r;
	const uint8_t *page;

	pf = tdat_open(fixture("v6-sched-irq.dat"), &err);
	if (!pf || tdat_event_ids_load(pf, &pids, &err))
		return 1;
	r = tdat_cpu_open(pf, 0, 0, &err);
	if (!r || tdat_cpu_next_page(r, &page, NULL, &err) != 1) {
		tdat_cpu_close(r);
		return 1;
	}
	memcpy(page0, page, sizeof(page0));
	commit0 = (uint32_t)tdat_get64(pf, page0 + 8);
	tdat_cpu_close(r);
	return commit0 > 16 ? 0 : 1;
}

static int page_teardown(void)
{
	tdat_close(pf);
	return 0;
}

static int check(const uint8_t *p, const char **why)
{
	struct tdat_page_check pc;
	int v = tdat_page_check(pf, p, 4096, &pids, &pc);

	*why = pc.why;
	return v;
}

static void with_commit(uint8_t *p, uint64_t commit)
{
	memcpy(p, page0, 4096);
	tdat_put64(pf, p + 8, commit);
}

static void test_good_page(void)
{
	struct tdat_page_check pc;

	CU_ASSERT_EQUAL(tdat_page_check(pf, page0, 4096, &pids, &pc),
			TDAT_PAGE_OK);
	CU_ASSERT(pc.nevents > 10);
	CU_ASSERT_EQUAL(pc.page_ts, tdat_get64(pf, page0));
	CU_ASSERT(pc.last_ts >= pc.page_ts);
	/* Without ids every event id passes. */
	CU_ASSERT_EQUAL(tdat_page_check(pf, page0, 4096, NULL, &pc),
			TDAT_PAGE_OK);
}

static void test_empty_pages(void)
{
	uint8_t p[4096];
	const char *why;

	memset(p, 0, sizeof(p));
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_EMPTY);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "commit 0"));
	with_commit(p, 0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_EMPTY);
}

static void test_bad_commits(void)
{
	uint8_t p[4096];
	const char *why;

	with_commit(p, 4096 - 16 + 4);		/* past the page */
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "larger than the page"));
	with_commit(p, commit0 | (1u << 28));	/* a reserved bit */
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	with_commit(p, commit0 | (1ull << 40));	/* high bits, no flag */
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	with_commit(p, commit0 - 4);		/* cuts the last event */
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	with_commit(p, commit0 + 64);		/* zeros past the events */
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
}

/* After lost events the kernel's signed long sign-extends bit 31. */
static void test_missed_events_commit(void)
{
	uint8_t p[4096];
	const char *why;

	with_commit(p, 0xFFFFFFFF80000000ull | commit0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_OK);
	with_commit(p, 0x80000000ull | commit0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_OK);
	/* MISSED_STORED: the count needs room after the data. */
	with_commit(p, 0xC0000000ull | commit0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_OK);
}

static void test_bad_events(void)
{
	uint8_t p[4096];
	uint32_t w;
	const char *why;

	/* The first event's id: one no format declares. */
	memcpy(p, page0, sizeof(p));
	w = tdat_get32(pf, p + 16);
	CU_ASSERT((w & 31) >= 1 && (w & 31) <= 28);
	CU_ASSERT_FALSE(tdat_event_id_known(&pids, 65535));
	tdat_put16(pf, p + 20, 65535);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "id"));
	/* Its length: 28 words do not end where the next item begins. */
	memcpy(p, page0, sizeof(p));
	tdat_put32(pf, p + 16, (w & ~31u) | 28);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	/* An explicit length past the commit (type 0). */
	memcpy(p, page0, sizeof(p));
	tdat_put32(pf, p + 16, w & ~31u);
	tdat_put32(pf, p + 20, 0xfff0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	/* An absolute stamp before the page's own. */
	memcpy(p, page0, sizeof(p));
	tdat_put32(pf, p + 16, 31);
	tdat_put32(pf, p + 20, 0);
	CU_ASSERT_EQUAL(check(p, &why), TDAT_PAGE_BAD);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "absolute"));
}

/* ---- the tolerant open on the truncated fixtures ---- */

static void test_open_salvage_v7_cut(void)
{
	const char *name = "truncated/v7-zstd-markers-raw_syscalls."
			   "cut-at-1059000.dat";
	struct tdat_salvage s;
	struct tdat_error err;
	struct tdat_file *f;

	CU_ASSERT_PTR_NULL(tdat_open(fixture(name), &err));
	f = tdat_open_salvage(fixture(name), &s, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->nbuffers, 0);	/* its BUFFER option is gone */
	CU_ASSERT_EQUAL(s.nlost, 1);
	if (s.nlost == 1) {
		CU_ASSERT_EQUAL(s.lost[0].offset, 1017846);
		CU_ASSERT_EQUAL(s.lost[0].end, 1059000);
		CU_ASSERT_EQUAL(s.lost[0].flags & 1, 1);
	}
	CU_ASSERT(s.nnotes >= 1);
	CU_ASSERT(tdat_meta_has(f, TDAT_META_EVENTS));
	CU_ASSERT_EQUAL(f->page_header_size, 16);
	tdat_salvage_free(&s);
	tdat_close(f);
}

static void test_open_salvage_v6_cut(void)
{
	struct tdat_salvage s;
	struct tdat_error err;
	struct tdat_file *f;

	f = tdat_open_salvage(fixture("truncated/v6-sched-irq.cut-at-"
				      "5470064.dat"), &s, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->nbuffers, 1);
	CU_ASSERT_EQUAL(s.nlost, 0);
	CU_ASSERT_EQUAL(f->buffers[0].ncpus, 2);
	/* CPU 1 is described, though it runs past the end. */
	CU_ASSERT(f->buffers[0].cpus[1].offset + f->buffers[0].cpus[1].size >
		  f->file_size);
	tdat_salvage_free(&s);
	tdat_close(f);
}

/*
 * A CPUCOUNT option of 0xFFFFFFFE: the options section holding it is
 * skipped, and the count must not stay behind in f (restore wrote it
 * into its output, which then did not open; found by fuzz_salvage).
 */
static void test_open_salvage_bad_cpucount(void)
{
	static const uint8_t opt[6] = { 8, 0, 4, 0, 0, 0 };
	char path[4096];
	struct tdat_salvage s;
	struct tdat_error err;
	struct tdat_file *f;
	uint8_t *d, *p = NULL;
	size_t len, i;
	FILE *fp;

	d = slurp_file(fixture("v7-zstd-sched-irq.dat"), &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	for (i = 1019157; !p && i + 10 <= len && i < 1019157 + 558; i++)
		if (!memcmp(d + i, opt, sizeof(opt)))
			p = d + i + 6;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(p, "\xfe\xff\xff\xff", 4);
	snprintf(path, sizeof(path), "%s/cpucount.dat", test_tmpdir());
	fp = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_EQUAL(fwrite(d, 1, len, fp), len);
	fclose(fp);
	CU_ASSERT_PTR_NULL(tdat_open(path, &err));
	f = tdat_open_salvage(path, &s, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(f->cpu_count <= 65536);
	tdat_salvage_free(&s);
	tdat_close(f);
	free(d);
}

/*
 * An uncompressed printk section whose size field runs past its end:
 * the tolerant open skips it as tdat_open refuses it (restore wrote it
 * into a file that then did not open; found by fuzz_salvage).
 */
static void test_open_salvage_bad_part(void)
{
	const uint64_t body = 5447534 + 16;	/* section 20 of the fixture */
	char path[4096];
	struct tdat_salvage s;
	struct tdat_error err;
	struct tdat_file *f;
	uint8_t *d;
	size_t len;
	FILE *fp;
	int i, noted = 0;

	d = slurp_file(fixture("v7-none-sched-irq.dat"), &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_FATAL(len > body + 4 && d[body - 16] == 20);
	memcpy(d + body, "\xf0\xff\xff\xff", 4);
	snprintf(path, sizeof(path), "%s/badprintk.dat", test_tmpdir());
	fp = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_EQUAL(fwrite(d, 1, len, fp), len);
	fclose(fp);
	free(d);
	CU_ASSERT_PTR_NULL(tdat_open(path, &err));
	f = tdat_open_salvage(path, &s, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(!tdat_meta_has(f, TDAT_META_PRINTK));
	CU_ASSERT(tdat_meta_has(f, TDAT_META_CMDLINES));
	for (i = 0; i < s.nnotes; i++)
		noted |= strstr(s.notes[i].text, "section 20") != NULL;
	CU_ASSERT(noted);
	tdat_salvage_free(&s);
	tdat_close(f);
}

/*
 * A BUFFER option of page size 2: the options section holding it is
 * skipped, and no half-made buffer may stay behind (restore wrote it
 * into a file that then did not open; found by fuzz_salvage).
 */
static void test_open_salvage_bad_buffer(void)
{
	const uint64_t page_size_at = 5476389;	/* the fixture's BUFFER */
	char path[4096];
	struct tdat_salvage s;
	struct tdat_error err;
	struct tdat_file *f;
	uint8_t *d;
	size_t len;
	FILE *fp;
	int i;

	d = slurp_file(fixture("v7-none-sched-irq.dat"), &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_FATAL(len > page_size_at + 4 &&
			!memcmp(d + page_size_at - 6, "local", 6));
	memcpy(d + page_size_at, "\x02\0\0\0", 4);
	snprintf(path, sizeof(path), "%s/badbuffer.dat", test_tmpdir());
	fp = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_EQUAL(fwrite(d, 1, len, fp), len);
	fclose(fp);
	free(d);
	CU_ASSERT_PTR_NULL(tdat_open(path, &err));
	f = tdat_open_salvage(path, &s, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < f->nbuffers; i++)
		CU_ASSERT(f->buffers[i].page_size >= 64);
	CU_ASSERT_EQUAL(s.nlost, 1);	/* its section is found again */
	tdat_salvage_free(&s);
	tdat_close(f);
}

void suite_salvage(void)
{
	CU_pSuite s = CU_add_suite("salvage", NULL, NULL);
	CU_pSuite p = CU_add_suite("salvage pages", page_setup,
				   page_teardown);

	CU_add_test(s, "every fixture page passes", test_fixture_pages_pass);
	CU_add_test(s, "tolerant open: v7 cut before its options",
		    test_open_salvage_v7_cut);
	CU_add_test(s, "tolerant open: v6 cut in CPU data",
		    test_open_salvage_v6_cut);
	CU_add_test(s, "tolerant open: an implausible CPUCOUNT",
		    test_open_salvage_bad_cpucount);
	CU_add_test(s, "tolerant open: a part whose framing is broken",
		    test_open_salvage_bad_part);
	CU_add_test(s, "tolerant open: a BUFFER option that is refused",
		    test_open_salvage_bad_buffer);
	CU_add_test(p, "a real page", test_good_page);
	CU_add_test(p, "empty pages", test_empty_pages);
	CU_add_test(p, "bad commit words", test_bad_commits);
	CU_add_test(p, "missed-events commit words", test_missed_events_commit);
	CU_add_test(p, "bad events", test_bad_events);
}
