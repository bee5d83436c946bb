/* SPDX-License-Identifier: GPL-2.0-or-later */
/* units.h - one suite-registering function per tests/unit file. */
#ifndef UNITS_H
#define UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <CUnit/CUnit.h>

/* Path of a fixture: FIXTURES env or "fixtures", plus name. */
const char *fixture(const char *name);
/* A fresh temporary directory for this test run. */
const char *test_tmpdir(void);
/* A whole file in memory (the caller frees it), or NULL. */
uint8_t *slurp_file(const char *path, size_t *len);
/* test_failalloc.c: allocation number k (from 0) fails, -1 none;
 * disarm returns how many were made. */
void failalloc_arm(long k);
long failalloc_disarm(void);

void suite_bytes(void);
void suite_bytebuf(void);
void suite_codec(void);
void suite_read(void);
void suite_pages(void);
void suite_write(void);
void suite_options(void);

void suite_pagecut(void);
void suite_record_opts(void);
void suite_json(void);
void suite_report_opts(void);
void suite_salvage(void);
void suite_tsadjust(void);
void suite_chunkindex(void);
void suite_merge_meta(void);
void suite_recview(void);
void suite_timeshift(void);
void suite_metabuild(void);
void suite_commcache(void);
void suite_shard(void);
void suite_usablecpus(void);
void suite_pathlist(void);
void suite_joblog(void);
void suite_eventmemo(void);
void suite_funcgraph(void);
void suite_failalloc(void);
void suite_outputs(void);
void suite_outsync(void);
void suite_tsdiff(void);
void suite_tepfmt(void);
void suite_pqwrite(void);
void suite_pbwrite(void);
void suite_fastfmt(void);
void suite_pfencode(void);
void suite_pfbundle(void);
void suite_readahead(void);
void suite_lastboot(void);
void suite_layout(void);
void suite_pftaskstate(void);
/* only in builds with extract --vmcore (the Makefile's VMCORE) */
void suite_vmcore(void);
#endif
