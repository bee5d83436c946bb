/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rounds.c - OUT.rec/synced: how long every reader's file was at the
 * last round the syncer put on disk, so that the recording of a machine
 * that died (a panic, a power cut) is cut at one moment for all CPUs.
 *
 * After a power cut each file holds what its last fdatasync covered and
 * maybe more: the files are synced one after another, so one CPU's file
 * can end half a second before another's, and the events in between
 * look lost on one CPU only (a hole).  The sizes of a round are taken
 * at one moment (readers_round), synced with the files, then written
 * here; restore cuts each file there when the recording was of another
 * boot.  In the same boot the page cache holds every byte written: no
 * cut.
 *
 * The file has two slots of SLOT bytes (a multiple of 4096), written in
 * turn, so that a write the power cut tore leaves the other whole:
 *
 *   tdat-synced 1 round R boot BOOT_ID
 *   FILE SIZE                (one line per reader's file, FILE relative
 *   ...                       to OUT.rec/)
 *   crc XXXXXXXX             (zlib's crc32 of the lines above)
 *
 * and zero bytes to the slot's end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "convert/record/record_internal.h"

/* ---- writing (the syncer) ---- */

struct rounds {
	int fd;
	int n;
	const char **names;	/* relative to OUT.rec/, not owned */
	size_t slot;
	char *text;		/* one slot */
	char boot[64];
};

struct rounds *rounds_open(const char *dir, const struct reader_spec *specs,
			   int n, struct tdat_error *err)
{
	struct rounds *r = calloc(1, sizeof(*r));
	size_t need = 128, skip = strlen(dir) + 1;
	char path[PATH_MAX];
	int i;

	if (!r || !(r->names = calloc(n ? (size_t)n : 1, sizeof(char *)))) {
		free(r);
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	r->n = n;
	for (i = 0; i < n; i++) {
		r->names[i] = specs[i].path + skip;
		need += strlen(r->names[i]) + 24;
	}
	r->slot = (need + REC_SLOT_ALIGN - 1) / REC_SLOT_ALIGN * REC_SLOT_ALIGN;
	if (rec_boot_id(r->boot, sizeof(r->boot)))
		snprintf(r->boot, sizeof(r->boot), "unknown");
	snprintf(path, sizeof(path), "%s/synced", dir);
	r->text = calloc(1, r->slot);
	/* OUT.rec/ is ours and new: a name found there was planted */
	r->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		     O_CLOEXEC, 0644);
	if (!r->text || r->fd < 0) {
		tdat_errorf(err, "%s: cannot create: %s", path,
			    r->text ? strerror(errno) : "out of memory");
		rounds_close(r);
		return NULL;
	}
	return r;
}

/* The slot's text for round with sizes; its length. */
static size_t slot_text(struct rounds *r, uint64_t round,
			const uint64_t *sizes)
{
	size_t len;
	int i;

	memset(r->text, 0, r->slot);
	len = (size_t)snprintf(r->text, r->slot,
			       "tdat-synced 1 round %llu boot %s\n",
			       (unsigned long long)round, r->boot);
	for (i = 0; i < r->n; i++)
		len += (size_t)snprintf(r->text + len, r->slot - len,
					"%s %llu\n", r->names[i],
					(unsigned long long)sizes[i]);
	len += (size_t)snprintf(r->text + len, r->slot - len, "crc %08lx\n",
				crc32(0, (const Bytef *)r->text, (uInt)len));
	return len;
}

int rounds_put(struct rounds *r, uint64_t round, const uint64_t *sizes,
	       struct tdat_error *err)
{
	off_t at = (off_t)(round % 2 * r->slot);
	ssize_t w;

	slot_text(r, round, sizes);
	w = pwrite(r->fd, r->text, r->slot, at);
	/* a file system that cannot sync on demand: the syncer says so */
	if (w == (ssize_t)r->slot &&
	    (!fdatasync(r->fd) || errno == EINVAL || errno == EROFS))
		return 0;
	return tdat_errorf(err, "synced: cannot write round %llu: %s",
			   (unsigned long long)round,
			   w < 0 || w == (ssize_t)r->slot ? strerror(errno) :
			   "short write");
}

void rounds_close(struct rounds *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r->names);
	free(r->text);
	free(r);
}
