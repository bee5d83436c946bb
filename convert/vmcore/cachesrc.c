/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cachesrc.c - restore --vmcore: a recording's raw files as the crashed
 * kernel's page cache held them.  What record's readers had written
 * but the disk had not got is only there: each file becomes an unnamed
 * temporary one, page by page the cached page where the cache had one,
 * else the disk's bytes, as long as the cached inode says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/restore/restore.h"
#include "convert/vmcore/vmcore.h"
#include "convert/vmcore/vmcore_internal.h"

/* A recording's file larger than this in the cache is a damaged inode. */
#define FILE_MAX (1ull << 40)

/* A file of the directory walked; other: a second inode of that name. */
struct kcache_named {
	char *name;
	struct kcache_file f;
	uint64_t other;
};

struct vmcore_cache {
	struct kernel k;
	struct dumpfile *dump;
	struct kcache c;
	char *tmpdir;
	struct kcache_names names;	/* the directory last walked */
};

/* One file being filled. */
struct fill {
	struct vmcore_cache *vc;
	const char *path;
	int tmp, disk;		/* disk: -1 when the disk has no file */
	uint64_t size;
	uint8_t *have;		/* a bit per page: from the cache */
	size_t have_len;	/* its bytes: as far as the cache goes */
	uint64_t end;		/* the end of the last cached page */
	uint8_t *page, *ondisk;
	uint64_t cached, notdisk;
	uint64_t filtered;	/* cached pages the dump's filter left out */
};

static int open_kernel(struct vmcore_cache *vc, const char *dump,
		       struct tdat_error *err)
{
	return kernel_open(&vc->k, dump, &vc->dump, err) ||
	       kcache_init(&vc->k, &vc->c, err) ? -1 : 0;
}

/* An unnamed file in the output's directory (where there is room for
 * the output), else a named one removed at once. */
static int scratch(const struct vmcore_cache *vc, struct tdat_error *err)
{
	char name[PATH_MAX];
	int fd = open(vc->tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	snprintf(name, sizeof(name), "%s/.tdat-cache-XXXXXX", vc->tmpdir);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return tdat_fail_nooff(err, vc->tmpdir, "cannot make a"
				       " temporary file: %s", strerror(errno));
	unlink(name);
	return fd;
}

static int put(struct fill *f, const void *buf, size_t n, uint64_t off)
{
	return pwrite(f->tmp, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* n bytes of the disk's file at off into buf: how many it has there. */
static size_t disk_read(const struct fill *f, uint8_t *buf, size_t n,
			uint64_t off)
{
	size_t got = 0;
	ssize_t r;

	while (f->disk >= 0 && got < n) {
		r = pread(f->disk, buf + got, n - got, (off_t)(off + got));
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Page index's bit in f->have, the bitmap grown to it (indexes come in
 * order; its size follows what the cache holds, not what i_size says). */
static int mark(struct fill *f, uint64_t index, struct tdat_error *err)
{
	size_t need = (size_t)(index / 8) + 1, len = f->have_len;
	uint8_t *v;

	if (need > len) {
		while (len < need)
			len = len ? len * 2 : 64;
		v = realloc(f->have, len);
		if (!v)
			return tdat_errorf(err, "out of memory");
		memset(v + f->have_len, 0, len - f->have_len);
		f->have = v;
		f->have_len = len;
	}
	f->have[index / 8] |= (uint8_t)(1u << index % 8);
	return 0;
}

static int cached(const struct fill *f, uint64_t index)
{
	return index / 8 < f->have_len &&
	       (f->have[index / 8] & (1u << index % 8));
}

/* A page of the cache (kcache_page_fn): into the file, compared with
 * the disk's. */
static int cached_page(void *ctx, uint64_t index, uint64_t data,
		       struct tdat_error *err)
{
	struct fill *f = ctx;
	struct kmem *m = &f->vc->k.mem;
	uint64_t off = index * m->page_size;
	size_t n = f->size - off < m->page_size ? (size_t)(f->size - off)
						 : m->page_size;

	if (kmem_read(m, data, f->page, n, "a page of the page cache", err)) {
		/* makedumpfile's dump levels with 2 or 4 (kdump-tools' 31
		 * among them) drop the page cache: the disk's bytes, then */
		if (!kmem_excluded(m))
			return -1;
		f->filtered++;
		return 0;
	}
	if (put(f, f->page, n, off))
		return tdat_fail_nooff(err, f->path, "cannot write the"
				       " temporary file: %s", strerror(errno));
	if (disk_read(f, f->ondisk, n, off) < n ||
	    memcmp(f->page, f->ondisk, n))
		f->notdisk++;
	f->cached++;
	if (off + n > f->end)
		f->end = off + n;
	return mark(f, index, err);
}

/* The pages the cache had not: the disk's bytes (zeros past its end). */
static int disk_pages(struct fill *f, uint64_t npages, struct tdat_error *err)
{
	uint32_t ps = f->vc->k.mem.page_size;
	uint64_t i;
	size_t n, got;

	for (i = 0; i < npages; i++) {
		if (cached(f, i))
			continue;
		n = f->size - i * ps < ps ? (size_t)(f->size - i * ps) : ps;
		got = disk_read(f, f->page, n, i * ps);
		if (got && put(f, f->page, got, i * ps))
			return tdat_fail_nooff(err, f->path, "cannot write the"
					       " temporary file: %s",
					       strerror(errno));
	}
	return 0;
}

void kcache_names_free(struct kcache_names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->files[i].name);
	free(t->files);
	free(t->dir);
	t->files = NULL;
	t->n = 0;
	t->dir = NULL;
}

/* kcache_file_fn: a file of the directory, kept once per name. */
static int add_file(void *ctx, const char *name, const struct kcache_file *f,
		    struct tdat_error *err)
{
	struct kcache_names *t = ctx;
	struct kcache_named *v;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->files[i].name, name)) {
			if (t->files[i].f.inode != f->inode)
				t->files[i].other = f->inode;
			return 0;
		}
	v = realloc(t->files, (t->n + 1) * sizeof(*v));
	if (!v)
		return tdat_errorf(err, "out of memory");
	t->files = v;
	v += t->n;
	v->name = strdup(name);
	v->f = *f;
	v->other = 0;
	if (!v->name)
		return tdat_errorf(err, "out of memory");
	t->n++;
	return 0;
}

int kcache_lookup(struct kcache *c, struct kcache_names *t, const char *dir,
		  const char *name, struct kcache_file *kf,
		  struct tdat_error *err)
{
	size_t i;

	if (!t->dir || strcmp(t->dir, dir)) {
		kcache_names_free(t);
		t->dir = strdup(dir);
		if (!t->dir)
			return tdat_errorf(err, "out of memory");
		if (kcache_dir(c, dir, add_file, t, err)) {
			kcache_names_free(t);
			return -1;
		}
	}
	for (i = 0; i < t->n; i++) {
		const struct kcache_named *f = &t->files[i];

		if (strcmp(f->name, name))
			continue;
		if (f->other)
			return kmem_fail(&c->k->mem, f->other, err, "two files"
					 " named %s/%s in the crashed kernel's"
					 " memory (inodes 0x%llx and 0x%llx):"
					 " which one is meant is not known",
					 dir, name,
					 (unsigned long long)f->f.inode,
					 (unsigned long long)f->other);
		*kf = f->f;
		return 1;
	}
	return 0;
}

/*
 * f->tmp filled from the cached file kf: 0, or -1 with err.  It ends
 * where i_size says, but no later than the last byte the cache or the
 * disk holds: a damaged i_size (or a file truncated to grow) is no
 * reason to make and read a terabyte of holes.
 */
static int fill(struct fill *f, const struct kcache_file *kf,
		struct tdat_error *err)
{
	uint32_t ps = f->vc->k.mem.page_size;
	struct stat st;
	uint64_t have;

	f->page = malloc(ps);
	f->ondisk = malloc(ps);
	if (!f->page || !f->ondisk)
		return tdat_errorf(err, "out of memory");
	if (kcache_pages(&f->vc->c, kf, cached_page, f, err))
		return -1;
	have = f->end;
	if (f->disk >= 0 && !fstat(f->disk, &st) &&
	    (uint64_t)st.st_size > have)
		have = (uint64_t)st.st_size;
	if (have < f->size)
		f->size = have;
	if (ftruncate(f->tmp, (off_t)f->size))
		return tdat_fail_nooff(err, f->path, "cannot size the temporary"
				       " file: %s", strerror(errno));
	return disk_pages(f, f->size / ps + (f->size % ps != 0), err);
}

/* The last two components of path: the directory's as given (a link's
 * name) into dir, resolved (what it links to; "." and ".." named) into
 * real, the file's into name.  0, or -1 with err. */
static int names(const char *path, char *dir, char *real, char *name,
		 size_t cap, struct tdat_error *err)
{
	char a[PATH_MAX], b[PATH_MAX], r[PATH_MAX];

	snprintf(a, sizeof(a), "%s", path);
	snprintf(name, cap, "%s", basename(a));
	snprintf(a, sizeof(a), "%s", path);
	snprintf(dir, cap, "%s", basename(dirname(a)));
	snprintf(b, sizeof(b), "%s", path);
	if (!realpath(dirname(b), r))
		return tdat_fail_nooff(err, path, "cannot resolve its"
				       " directory: %s", strerror(errno));
	snprintf(real, cap, "%s", basename(r));
	if (!strcmp(dir, ".") || !strcmp(dir, "..") || !strcmp(dir, "/"))
		snprintf(dir, cap, "%s", real);
	return 0;
}

/* The disk's file alone: the dump has none of that name (neither has
 * the disk: an empty file, the CPU without data). */
static int disk_only(const struct vmcore_cache *vc, const char *path,
		     uint64_t *size, char *note, size_t cap,
		     struct tdat_error *err)
{
	struct stat st;
	int fd;

	if (access(path, F_OK) && errno == ENOENT) {
		*size = 0;
		snprintf(note, cap, "neither on the disk nor in %s's page"
			 " cache", vc->k.mem.path);
		return scratch(vc, err);
	}
	fd = tdat_open_regular(path, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return tdat_fail_nooff(err, path, "cannot stat");
	}
	*size = (uint64_t)st.st_size;
	snprintf(note, cap, "not in %s's page cache: the disk's %llu bytes",
		 vc->k.mem.path, (unsigned long long)*size);
	return fd;
}

static int cache_open(void *ctx, const char *path, uint64_t *size,
		      char *note, size_t cap, struct tdat_error *err)
{
	struct vmcore_cache *vc = ctx;
	struct fill f = { vc, path, -1, -1, 0, NULL, 0, 0, NULL, NULL, 0, 0,
			  0 };
	struct kcache_file kf;
	char dir[NAME_MAX + 1], real[NAME_MAX + 1], name[NAME_MAX + 1];
	uint64_t ps = vc->k.mem.page_size, all;
	int r;

	if (names(path, dir, real, name, sizeof(name), err))
		return -1;
	r = kcache_lookup(&vc->c, &vc->names, dir, name, &kf, err);
	if (!r && strcmp(dir, real))
		r = kcache_lookup(&vc->c, &vc->names, real, name, &kf, err);
	if (r <= 0)
		return r < 0 ? -1 : disk_only(vc, path, size, note, cap, err);
	if (kf.size > FILE_MAX)
		return kmem_fail(&vc->k.mem, kf.inode, err, "%s/%s: i_size"
				 " %llu", dir, name,
				 (unsigned long long)kf.size);
	f.size = kf.size;
	/* the disk's file if it has one (a FIFO or device is not) */
	f.disk = access(path, F_OK) ? -1 : tdat_open_regular(path, err);
	if (f.disk < 0 && !access(path, F_OK))
		return -1;
	f.tmp = scratch(vc, err);
	r = f.tmp < 0 || fill(&f, &kf, err) ? -1 : 0;
	all = f.size / ps + (f.size % ps != 0);
	snprintf(note, cap, "%llu of %llu pages from the crashed kernel's"
		 " page cache (%llu not on disk)", (unsigned long long)f.cached,
		 (unsigned long long)all, (unsigned long long)f.notdisk);
	if (f.filtered)
		snprintf(note + strlen(note), cap - strlen(note), "; %llu more"
			 " it held the dump's filter left out (makedumpfile -d"
			 " without 2 and 4 keeps them)",
			 (unsigned long long)f.filtered);
	free(f.have);
	free(f.page);
	free(f.ondisk);
	if (f.disk >= 0)
		close(f.disk);
	if (!r && lseek(f.tmp, 0, SEEK_SET))
		r = tdat_fail_nooff(err, path, "cannot rewind");
	if (r && f.tmp >= 0)
		close(f.tmp);
	*size = f.size;
	return r ? -1 : f.tmp;
}

struct vmcore_cache *vmcore_cache_open(const char *dump, const char *tmpdir,
				       struct raw_source *src,
				       struct tdat_error *err)
{
	struct vmcore_cache *vc = calloc(1, sizeof(*vc));

	if (!vc || !(vc->tmpdir = strdup(tmpdir))) {
		free(vc);
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	if (open_kernel(vc, dump, err)) {
		vmcore_cache_close(vc);
		return NULL;
	}
	src->open = cache_open;
	src->ctx = vc;
	src->sees_missing = 1;
	return vc;
}

void vmcore_cache_close(struct vmcore_cache *vc)
{
	if (!vc)
		return;
	kcache_names_free(&vc->names);
	kernel_close(&vc->k, vc->dump);
	free(vc->tmpdir);
	free(vc);
}
