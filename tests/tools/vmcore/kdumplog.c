/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdumplog.c - an LD_PRELOAD shim that logs every kdump_read a program
 * makes through libkdumpfile: which addresses of a dump extract --vmcore
 * reads (tests/tools/vmcore/vmcore-min keeps those pages).  One line a
 * call, appended to the file KDUMPLOG names (stderr without it):
 *
 *     ADDRSPACE ADDR LENGTH GOT STATUS
 *
 * ADDRSPACE is kdump_addrspace_t's number (KDUMP_KVADDR, ...), ADDR hex,
 * LENGTH the bytes asked for and GOT those read (decimal), STATUS
 * kdump_status (0: KDUMP_OK).  Nothing else changes: the call goes on
 * to libkdumpfile's own kdump_read (dlsym RTLD_NEXT).
 *
 * libkdumpfile also reads the dump for itself (libaddrxlat's set-up
 * walks page tables of its own choosing), through its file cache, which
 * maps the file.  With KDUMPLOG_DUMP naming the dump, mapping that file
 * fails (ENODEV: the cache falls back to pread) and every pread of it is
 * logged too:
 *
 *     F OFFSET LENGTH
 *
 * (decimal).  Built by vmcore-min itself:
 *
 *     cc -shared -fPIC -o kdumplog.so kdumplog.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>

typedef kdump_status (*read_fn)(kdump_ctx_t *, kdump_addrspace_t,
				kdump_addr_t, void *, size_t *);

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static read_fn real;
static mmap_fn real_mmap;
static pread_fn real_pread;
static int logfd = -1;
static struct stat dump;	/* KDUMPLOG_DUMP's, st_ino 0 without it */

static void setup(void)
{
	const char *path = getenv("KDUMPLOG");

	const char *d = getenv("KDUMPLOG_DUMP");

	real = (read_fn)dlsym(RTLD_NEXT, "kdump_read");
	real_mmap = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
	real_pread = (pread_fn)dlsym(RTLD_NEXT, "pread");
	if (d && d[0] && stat(d, &dump)) {
		perror(d);
		abort();
	}
	logfd = 2;
	if (path && path[0]) {
		logfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			     0644);
		if (logfd < 0) {
			perror(path);
			abort();
		}
	}
	if (!real || !real_mmap || !real_pread) {
		fprintf(stderr, "kdumplog: no kdump_read, mmap or pread after"
			" this library\n");
		abort();
	}
}

static void ready(void)
{
	pthread_mutex_lock(&lock);
	if (!real)
		setup();
	pthread_mutex_unlock(&lock);
}

static void put(const char *line, int n)
{
	pthread_mutex_lock(&lock);
	if (write(logfd, line, (size_t)n) != n)
		abort();
	pthread_mutex_unlock(&lock);
}

/* fd is KDUMPLOG_DUMP's file */
static int is_dump(int fd)
{
	struct stat st;

	return fd >= 0 && dump.st_ino && !fstat(fd, &st) &&
	       st.st_dev == dump.st_dev && st.st_ino == dump.st_ino;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	ready();
	if (is_dump(fd)) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	return real_mmap(addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	char line[64];

	ready();
	if (is_dump(fd))
		put(line, snprintf(line, sizeof(line), "F %lld %zu\n",
				   (long long)off, n));
	return real_pread(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

kdump_status kdump_read(kdump_ctx_t *ctx, kdump_addrspace_t as,
			kdump_addr_t addr, void *buffer, size_t *plength)
{
	size_t want = *plength;
	kdump_status st;
	char line[128];
	int n;

	ready();
	st = real(ctx, as, addr, buffer, plength);
	n = snprintf(line, sizeof(line), "%d %llx %zu %zu %d\n", (int)as,
		     (unsigned long long)addr, want,
		     st == KDUMP_OK ? want : *plength, (int)st);
	put(line, n);
	return st;
}
