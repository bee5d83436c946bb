/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * claim.c - --add: an input's trace name in a dataset that other tasks
 * add to at the same time.
 *
 * The name is the file's stem, or for a second input of that stem its
 * alternative (the stem and a hash of the path; run.c).  Which input a
 * name belongs to is said by the first bytes of traces/NAME.json (a
 * whole input) or traces/NAME.claim (one being added): {"path":"..."
 * with the path as given.  A claim is made by link(), which never
 * replaces a file, so of two tasks that want one name at once exactly
 * one gets it; a task run again after a kill finds its own claim.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/parquet/parquet_internal.h"

enum owner { OWNER_NONE, OWNER_US, OWNER_OTHER, OWNER_ERROR };

/* dir/traces/[.]NAME.SUFFIX into buf: 0, or -1 (ENAMETOOLONG: never
 * cut short, which could name another file). */
static int traces_path(char *buf, size_t cap, const char *dir,
		       const char *dot, const char *name, const char *suffix)
{
	if ((size_t)snprintf(buf, cap, "%s/traces/%s%s%s", dir, dot, name,
			     suffix) < cap)
		return 0;
	errno = ENAMETOOLONG;
	return -1;
}

/* {"path":PATH as meta.json writes it. */
static int path_key(struct tdat_bytes *key, const char *path)
{
	return text_add(key, "{\"path\":") ||
	       text_json(key, path, strlen(path));
}

/* Whose file dir/traces/NAME.SUFFIX is, by its first bytes. */
static enum owner owner_of(const char *dir, const char *name,
			   const char *suffix, const struct tdat_bytes *key)
{
	char path[4096], *head;
	ssize_t n = 0, got;
	int fd, ours;

	if (traces_path(path, sizeof(path), dir, "", name, suffix))
		return OWNER_ERROR;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? OWNER_NONE : OWNER_ERROR;
	head = malloc(key->len + 1);
	while (head && n < (ssize_t)key->len + 1 &&
	       (got = read(fd, head + n, key->len + 1 - (size_t)n)) > 0)
		n += got;
	close(fd);
	if (!head)
		return OWNER_ERROR;
	/* the key, then the next key or the object's end */
	ours = n == (ssize_t)key->len + 1 &&
	       !memcmp(head, key->data, key->len) &&
	       (head[key->len] == ',' || head[key->len] == '}');
	free(head);
	return ours ? OWNER_US : OWNER_OTHER;
}

/* traces/NAME.claim made, holding key: 0, or -1 (errno; EEXIST: there
 * is one).  Written under a temporary name first, so a claim is whole. */
static int make_claim(const char *dir, const char *name,
		      const struct tdat_bytes *key)
{
	char tmp[4096], claim[4096];
	int fd, r = -1, e;

	if (traces_path(tmp, sizeof(tmp), dir, ".", name, ".claim-XXXXXX") ||
	    traces_path(claim, sizeof(claim), dir, "", name, ".claim"))
		return -1;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	if (write(fd, key->data, key->len) == (ssize_t)key->len &&
	    write(fd, "}\n", 2) == 2 && !fsync(fd))
		r = link(tmp, claim);
	e = errno;
	close(fd);
	unlink(tmp);
	errno = e;
	return r;
}

/* One name tried: enum claim, OWNER_OTHER's value 3 (taken), or -1. */
static int try_name(const char *dir, const char *name,
		    const struct tdat_bytes *key)
{
	enum owner w;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		w = owner_of(dir, name, ".json", key);
		if (w != OWNER_NONE)
			break;
		if (!make_claim(dir, name, key))
			return CLAIM_NEW;
		if (errno != EEXIST)
			return -1;
		w = owner_of(dir, name, ".claim", key);
		if (w == OWNER_US)
			return CLAIM_OURS;
		if (w != OWNER_NONE)	/* else its input just got whole */
			break;
	}
	return w == OWNER_US ? CLAIM_DONE : w == OWNER_OTHER ? 3 : -1;
}

int claim_name(const char *dataset, const char *path, char *name,
	       size_t cap, char *why, size_t wcap)
{
	struct tdat_bytes key = { 0 };
	char alt[256];
	int r = -1;

	trace_stem(name, cap, path);
	trace_alt(alt, sizeof(alt), path);
	if (!path_key(&key, path)) {
		r = try_name(dataset, name, &key);
		if (r == 3) {
			snprintf(name, cap, "%s", alt);
			r = try_name(dataset, name, &key);
		}
	}
	if (r == 3)
		snprintf(why, wcap, "%s: its trace names are taken by other"
			 " inputs in %s", path, dataset);
	else if (r < 0)
		snprintf(why, wcap, "%s/traces/%s: %s", dataset, name,
			 key.data ? strerror(errno) : "out of memory");
	tdat_bytes_free(&key);
	return r == 3 ? -1 : r;
}

void claim_drop(const char *dataset, const char *name)
{
	char claim[4096];

	if (!traces_path(claim, sizeof(claim), dataset, "", name, ".claim"))
		unlink(claim);
}
