/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rounds_cut.c - a dead machine's recording cut at the last round its
 * disk completed (OUT.rec/synced, written by rounds.c, has the format):
 * the raw_source restore reads the files through.
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
#include "convert/restore/restore.h"

/* Two slots for 100 000 files or so: more is not ours. */
#define SYNCED_MAX (1u << 23)

struct rounds_cut {
	char *dir;
	unsigned long long round;
	char *text;		/* the chosen slot's lines, NUL-separated */
	size_t len;
};

/* The round of the slot at p (len bytes) when it is whole, else 0. */
static unsigned long long slot_round(const char *p, size_t len, char *boot,
				     size_t *text_len)
{
	const char *end = memchr(p, '\0', len), *crc;
	unsigned long long round;
	unsigned long want;

	if (!end || !(crc = memmem(p, (size_t)(end - p), "\ncrc ", 5)))
		return 0;
	crc++;
	if (sscanf(crc, "crc %8lx\n", &want) != 1 ||
	    crc32(0, (const Bytef *)p, (uInt)(crc - p)) != want ||
	    sscanf(p, "tdat-synced 1 round %llu boot %63s\n", &round,
		   boot) != 2)
		return 0;
	*text_len = (size_t)(crc - p);
	return round;
}

/* The newest whole slot of text (n bytes): 0 and cut set, or 1 when
 * there is none. */
static int newest_slot(struct rounds_cut *c, const char *text, size_t n,
		       char *boot)
{
	char b[64];
	size_t at, len, best_len = 0;
	const char *best = NULL;
	unsigned long long r;

	for (at = 0; at < n; at += REC_SLOT_ALIGN) {
		r = slot_round(text + at, n - at, b, &len);
		if (r && r > c->round) {
			c->round = r;
			best = text + at;
			best_len = len;
			memcpy(boot, b, sizeof(b));
		}
	}
	if (!best || !(c->text = malloc(best_len + 1)))
		return 1;
	memcpy(c->text, best, best_len);
	c->text[best_len] = '\0';
	c->len = best_len;
	return 0;
}

/* OUT.rec/synced's text (at most SYNCED_MAX bytes, NUL-terminated): its
 * length, or -1 when there is none to go by (nothing synced, or
 * --flush-interval 0; not a regular file: planted, not ours). */
static ssize_t read_synced(const char *dir, char **text)
{
	char path[PATH_MAX];
	struct tdat_error e;
	struct stat st;
	ssize_t n = -1, r;
	int fd;

	*text = NULL;
	snprintf(path, sizeof(path), "%s/synced", dir);
	if (access(path, F_OK))
		return -1;
	fd = tdat_open_regular(path, &e);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && st.st_size <= SYNCED_MAX &&
	    (*text = calloc(1, (size_t)st.st_size + 1))) {
		for (n = 0; n < st.st_size; n += r) {
			r = read(fd, *text + n, (size_t)(st.st_size - n));
			if (r <= 0)
				break;
		}
	}
	close(fd);
	return n;
}

/* The size the round gave name, or -1 when it names no such file. */
static long long round_size(const struct rounds_cut *c, const char *name)
{
	const char *line = strchr(c->text, '\n'), *sp;
	size_t nl = strlen(name);

	while (line && *++line) {
		sp = strchr(line, ' ');
		if (sp && (size_t)(sp - line) == nl && !memcmp(line, name, nl))
			return strtoll(sp + 1, NULL, 10);
		line = strchr(line, '\n');
	}
	return -1;
}

static int cut_open(void *ctx, const char *path, uint64_t *size, char *note,
		    size_t cap, struct tdat_error *err)
{
	struct rounds_cut *c = ctx;
	size_t dl = strlen(c->dir);
	long long want = -1;
	struct stat st;
	int fd = tdat_open_regular(path, err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return tdat_fail_nooff(err, path, "cannot stat");
	}
	*size = (uint64_t)st.st_size;
	if (!strncmp(path, c->dir, dl) && path[dl] == '/')
		want = round_size(c, path + dl + 1);
	if (want >= 0 && (uint64_t)want < *size) {
		snprintf(note, cap, "cut at the last round the disk completed"
			 " (round %llu): %llu bytes after it dropped (written"
			 " as the machine died: kept on some CPUs only)",
			 c->round, (unsigned long long)(*size - (uint64_t)want));
		*size = (uint64_t)want;
	}
	return fd;
}

void record_cut_free(struct raw_source *src)
{
	struct rounds_cut *c = src ? src->ctx : NULL;

	if (c) {
		free(c->dir);
		free(c->text);
		free(c);
	}
	if (src)
		src->ctx = NULL;
}

int record_cut_source(const char *recdir, struct raw_source *src)
{
	struct rounds_cut *c = calloc(1, sizeof(*c));
	char boot[64], now[64], *text = NULL;
	ssize_t n;
	int r = 0;

	src->open = NULL;
	src->ctx = NULL;
	src->sees_missing = 0;
	n = c ? read_synced(recdir, &text) : -1;
	if (n > 0 && !newest_slot(c, text, (size_t)n, boot) &&
	    !rec_boot_id(now, sizeof(now)) && strcmp(boot, now) &&
	    (c->dir = strdup(recdir))) {
		src->open = cut_open;
		src->ctx = c;
		r = 1;
	}
	free(text);
	if (!r && c) {
		free(c->text);
		free(c);
	}
	return r;
}
