/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * archive.h - convert --archive: the smallest trace.dat that trace-cmd
 * 3.1.6 and 3.4 read unchanged (the preset, chosen from the figures in
 * bench/README.md), and --in-place: every trace.dat of a tree archived where
 * it lies, each checked against its original before it replaces it.
 */
#ifndef ARCHIVE_H
#define ARCHIVE_H

#include <stdint.h>
#include "convert/fleet/fleet.h"

/* The preset: v7, zstd at this level, chunks of this many bytes.  Level
 * 19 makes 40% smaller files than trace-cmd's default on busy
 * recordings; 20-22 make them no smaller, chunks past 1 MiB only 2-3%
 * smaller while trace-cmd 3.4's report slows down with the square of the
 * chunk size (it decompresses a whole chunk again for every page). */
#define ARCHIVE_LEVEL 19
#define ARCHIVE_CHUNK (1u << 20)

struct archive_opts {
	char **paths;		/* files and directories (recursed) */
	int npaths;
	int level;		/* zstd level (ARCHIVE_LEVEL unless given) */
	uint32_t chunk_size;	/* (ARCHIVE_CHUNK unless given) */
	int jobs;		/* files at once, 0 = online CPUs */
	int threads;		/* compression threads a file, 0 = online
				 * CPUs */
	const struct shard *shard;	/* only the files of this part; NULL:
					 * all */
	struct joblog *log;	/* a line per file; NULL: none */
	/* Bytes of the files done so far, after each file; may be NULL. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/*
 * Archive every trace.dat under o->paths in place.  Each archive is
 * written beside its original under a name of its own (one.c), read
 * back completely and compared with the original (every metadata part,
 * option and page), and only then put under the original's name (mode,
 * owner and times kept) by one rename; files
 * already archived are skipped; anything that is not a trace.dat, a
 * symlink, a file with other hard links, one the process cannot
 * replace and a damaged trace.dat are left as they are and named on
 * stderr.  Interrupted at any point and run again, it finishes: no file
 * is ever lost or left half written.  With o->shard only the files of
 * its part are touched (leftovers of a killed run too), so that tasks
 * of other parts can work in the same tree at once; o->log gets a line
 * per file.  Ends with one summary line.
 * Returns 0, or 1 when any file failed or a path is not there.
 */
int archive_run(const struct archive_opts *o);

#endif
