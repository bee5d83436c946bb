/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs.c - find (or mount) the live tracefs, read and write its files,
 * create and remove instances. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "convert/tracefs/tracefs.h"
#include "libfmt/bytes.h"

#define TFS_DEFAULT "/sys/kernel/tracing"

/* A directory of the tracefs type, not just the empty mount point. */
static int is_tracefs(const char *path)
{
	struct statfs s;

	return statfs(path, &s) == 0 && s.f_type == TRACEFS_MAGIC;
}

static int use_dir(char *dir, size_t cap, const char *path,
		   struct tdat_error *err)
{
	if (strlen(path) >= cap)
		return tdat_errorf(err, "%s: path too long", path);
	strcpy(dir, path);
	return 0;
}

/* The first tracefs entry of /proc/mounts (getmntent undoes its
 * escapes): 0 found, 1 none, -1 error. */
static int from_proc_mounts(char *dir, size_t cap, struct tdat_error *err)
{
	FILE *m = setmntent("/proc/mounts", "r");
	struct mntent *e;
	int r = 1;

	if (!m)
		return 1;
	while ((e = getmntent(m)) != NULL) {
		if (!strcmp(e->mnt_type, "tracefs") &&
		    is_tracefs(e->mnt_dir)) {
			r = use_dir(dir, cap, e->mnt_dir, err);
			break;
		}
	}
	endmntent(m);
	return r;
}

int tfs_find(char *dir, size_t cap, struct tdat_error *err)
{
	int r, e;

	if (is_tracefs(TFS_DEFAULT))
		return use_dir(dir, cap, TFS_DEFAULT, err);
	if (is_tracefs("/sys/kernel/debug/tracing"))
		return use_dir(dir, cap, "/sys/kernel/debug/tracing", err);
	r = from_proc_mounts(dir, cap, err);
	if (r <= 0)
		return r;
	if (mount("nodev", TFS_DEFAULT, "tracefs", 0, NULL)) {
		e = errno;
		return tdat_errorf(err, "tracefs is not mounted and mounting it at "
			    TFS_DEFAULT " failed: %s%s", strerror(e),
			    e == EPERM ? " (it needs root)" : "");
	}
	return use_dir(dir, cap, TFS_DEFAULT, err);
}

static int join(char *path, const char *dir, const char *name,
		struct tdat_error *err)
{
	int n = snprintf(path, PATH_MAX, "%s/%s", dir, name);

	if (n < 0 || n >= PATH_MAX)
		return tdat_errorf(err, "%s/%s: path too long", dir, name);
	return 0;
}

/* Read fd to its end into out, growing the buffer as data comes. */
/* The file after room bytes left for the caller. */
static int read_all(int fd, const char *path, size_t room,
		    struct tdat_blob *out, struct tdat_error *err)
{
	struct tdat_bytes b = { 0 };
	ssize_t n;

	if (tdat_bytes_reserve(&b, 4096))
		return tdat_fail_nooff(err, path, "out of memory");
	b.len = room;
	for (;;) {
		if (b.len + 1 == b.cap) {	/* one byte kept for the NUL */
			if (b.cap >= TFS_READ_MAX) {
				tdat_bytes_free(&b);
				return tdat_fail_nooff(err, path, "larger than"
						       " %u MiB",
						       TFS_READ_MAX >> 20);
			}
			if (tdat_bytes_reserve(&b, b.cap * 2)) {
				tdat_bytes_free(&b);
				return tdat_fail_nooff(err, path,
						       "out of memory");
			}
		}
		n = read(fd, b.data + b.len, b.cap - 1 - b.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tdat_bytes_free(&b);
			return tdat_fail_nooff(err, path, "cannot read: %s",
					       strerror(errno));
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
	}
	b.data[b.len] = 0;
	out->data = b.data;
	out->len = b.len;
	return 0;
}

int tfs_read(const char *dir, const char *name, struct tdat_blob *out,
	     struct tdat_error *err)
{
	return tfs_read_after(dir, name, 0, out, err);
}

int tfs_read_after(const char *dir, const char *name, size_t room,
		   struct tdat_blob *out, struct tdat_error *err)
{
	char path[PATH_MAX];
	int fd, r;

	out->data = NULL;
	out->len = 0;
	if (join(path, dir, name, err))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tdat_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	r = read_all(fd, path, room, out, err);
	close(fd);
	return r;
}

static int is_subdir(DIR *d, const struct dirent *e)
{
	struct stat st;

	if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
		return 0;
	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	return fstatat(dirfd(d), e->d_name, &st, 0) == 0 &&
	       S_ISDIR(st.st_mode);
}

static int add_name(struct tfs_names *names, int *cap, const char *name)
{
	char **bigger;

	if (names->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		bigger = realloc(names->v, (size_t)*cap * sizeof(*bigger));
		if (!bigger)
			return -1;
		names->v = bigger;
	}
	names->v[names->n] = strdup(name);
	if (!names->v[names->n])
		return -1;
	names->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tfs_subdirs(const char *dir, const char *name, struct tfs_names *out,
		struct tdat_error *err)
{
	char path[PATH_MAX];
	struct dirent *e;
	int cap = 0, saved;
	DIR *d;

	out->v = NULL;
	out->n = 0;
	if (join(path, dir, name, err))
		return -1;
	d = opendir(path);
	if (!d)
		return tdat_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	for (;;) {
		errno = 0;
		e = readdir(d);
		if (!e)
			break;
		if (is_subdir(d, e) && add_name(out, &cap, e->d_name)) {
			errno = ENOMEM;
			break;
		}
	}
	saved = errno;
	closedir(d);
	if (saved) {
		tfs_names_free(out);
		return tdat_errorf(err, "%s: cannot list: %s", path, strerror(saved));
	}
	if (out->n)
		qsort(out->v, (size_t)out->n, sizeof(*out->v), by_name);
	return 0;
}

void tfs_names_free(struct tfs_names *names)
{
	int i;

	for (i = 0; i < names->n; i++)
		free(names->v[i]);
	free(names->v);
	names->v = NULL;
	names->n = 0;
}

static int write_flags(const char *dir, const char *name, const char *text,
		       int flags, struct tdat_error *err)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t n;
	int fd, e;

	if (join(path, dir, name, err))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return tdat_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return tdat_errorf(err, "%s: cannot write \"%.*s\": %s", path,
			    (int)strcspn(text, "\n"), text, strerror(e));
	if ((size_t)n != len)
		return tdat_errorf(err, "%s: short write (%zd of %zu bytes)", path,
			    n, len);
	return 0;
}

int tfs_write(const char *dir, const char *name, const char *text,
	      struct tdat_error *err)
{
	return write_flags(dir, name, text, 0, err);
}

int tfs_write_trunc(const char *dir, const char *name, const char *text,
		    struct tdat_error *err)
{
	return write_flags(dir, name, text, O_TRUNC, err);
}

int tfs_buffer_dir(const char *top, const char *name, char *dir, size_t cap,
		   struct tdat_error *err)
{
	int n = name[0] ? snprintf(dir, cap, "%s/instances/%s", top, name)
			: snprintf(dir, cap, "%s", top);

	if (n < 0 || (size_t)n >= cap)
		return tdat_errorf(err, "%s/instances/%s: path too long", top,
				   name);
	return 0;
}

int tfs_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct tdat_error err;

	return !join(path, dir, name, &err) && access(path, F_OK) == 0;
}

int tfs_is_dir(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct tdat_error err;
	struct stat st;

	return !join(path, dir, name, &err) && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

int tfs_instance_create(const char *dir, const char *name,
			struct tdat_error *err)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/instances/%s", dir, name);

	if (n < 0 || n >= (int)sizeof(path))
		return tdat_errorf(err, "%s/instances/%s: path too long", dir, name);
	if (mkdir(path, 0755))
		return tdat_errorf(err, "%s: cannot create the instance: %s", path,
			    strerror(errno));
	return 0;
}

int tfs_instance_remove(const char *dir, const char *name,
			struct tdat_error *err)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/instances/%s", dir, name);

	if (n < 0 || n >= (int)sizeof(path))
		return tdat_errorf(err, "%s/instances/%s: path too long", dir, name);
	if (rmdir(path))
		return tdat_errorf(err, "%s: cannot remove the instance: %s", path,
			    strerror(errno));
	return 0;
}
