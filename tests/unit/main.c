/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c - CUnit runner for libfmt's unit tests. */
#define _XOPEN_SOURCE 700	/* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "tests/unit/units.h"

const char *fixture(const char *name)
{
	static char buf[4][4096];
	static int next;
	const char *dir = getenv("FIXTURES");
	char *out = buf[next++ % 4];

	snprintf(out, sizeof(buf[0]), "%s/%s", dir ? dir : "fixtures", name);
	return out;
}

static char tmpdir[256];

const char *test_tmpdir(void)
{
	char *dir = tmpdir;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(tmpdir), "%s/tdat-unit-XXXXXX",
			 t ? t : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	return remove(path);
}

/* The tests' files go with them: a run leaves nothing in TMPDIR. */
static void remove_tmpdir(void)
{
	if (tmpdir[0] && nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		perror(tmpdir);
}

int main(void)
{
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	suite_bytes();
	suite_bytebuf();
	suite_codec();
	suite_read();
	suite_pages();
	suite_write();
	suite_options();
	suite_pagecut();
	suite_record_opts();
	suite_json();
	suite_report_opts();
	suite_salvage();
	suite_tsadjust();
	suite_chunkindex();
	suite_merge_meta();
	suite_recview();
	suite_timeshift();
	suite_metabuild();
	suite_commcache();
	suite_eventmemo();
	suite_funcgraph();
	suite_failalloc();
	suite_outputs();
	suite_outsync();
	suite_tsdiff();
	suite_tepfmt();
	suite_pqwrite();
	suite_pbwrite();
	suite_fastfmt();
	suite_pfencode();
	suite_pfbundle();
	suite_readahead();
	suite_lastboot();
	suite_layout();
	suite_pftaskstate();
	suite_shard();
	suite_usablecpus();
	suite_pathlist();
	suite_joblog();
#ifdef TDAT_HAVE_VMCORE
	suite_vmcore();
#endif
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	remove_tmpdir();
	return failed ? 1 : 0;
}

uint8_t *slurp_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *d;
	long n;

	*len = 0;
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	d = malloc((size_t)n);
	if (d && fread(d, 1, (size_t)n, fp) != (size_t)n) {
		free(d);
		d = NULL;
	}
	fclose(fp);
	*len = (size_t)n;
	return d;
}
