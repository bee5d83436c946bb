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
 * to libkdumpfile's own kdump_read (dlsym RTLD_NEXT).  Built by
 * vmcore-min itself:
 *
 *     cc -shared -fPIC -o kdumplog.so kdumplog.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>

typedef kdump_status (*read_fn)(kdump_ctx_t *, kdump_addrspace_t,
				kdump_addr_t, void *, size_t *);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static read_fn real;
static int logfd = -1;

static void setup(void)
{
	const char *path = getenv("KDUMPLOG");

	real = (read_fn)dlsym(RTLD_NEXT, "kdump_read");
	logfd = 2;
	if (path && path[0]) {
		logfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			     0644);
		if (logfd < 0) {
			perror(path);
			abort();
		}
	}
	if (!real) {
		fprintf(stderr, "kdumplog: no kdump_read after this library\n");
		abort();
	}
}

kdump_status kdump_read(kdump_ctx_t *ctx, kdump_addrspace_t as,
			kdump_addr_t addr, void *buffer, size_t *plength)
{
	size_t want = *plength;
	kdump_status st;
	char line[128];
	int n;

	pthread_mutex_lock(&lock);
	if (!real)
		setup();
	pthread_mutex_unlock(&lock);
	st = real(ctx, as, addr, buffer, plength);
	n = snprintf(line, sizeof(line), "%d %llx %zu %zu %d\n", (int)as,
		     (unsigned long long)addr, want,
		     st == KDUMP_OK ? want : *plength, (int)st);
	pthread_mutex_lock(&lock);
	if (write(logfd, line, (size_t)n) != n)
		abort();
	pthread_mutex_unlock(&lock);
	return st;
}
