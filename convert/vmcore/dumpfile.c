/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dumpfile.c - the dump, through libkdumpfile: the formats kdump and
 * QEMU write (ELF: /proc/vmcore copies, makedumpfile -E, QEMU's
 * dump-guest-memory; kdump-compressed: makedumpfile -c/-l/-p/-z and
 * QEMU's kdump-*), VMCOREINFO, and the translation of kernel virtual
 * addresses (libaddrxlat).  A flattened dump is rearranged first
 * (flattened.c).  The one file of the engine that knows dump formats.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>
#include "convert/vmcore/vmcore_internal.h"

struct dumpfile {
	kdump_ctx_t *ctx;
	int fd;			/* the dump, or its rearranged copy */
};

static int dump_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	struct dumpfile *d = ctx;
	size_t len = n;

	return kdump_read(d->ctx, KDUMP_KVADDR, addr, buf, &len) == KDUMP_OK &&
	       len == n ? 0 : -1;
}

static const char *dump_why(void *ctx)
{
	struct dumpfile *d = ctx;

	return kdump_get_err(d->ctx);
}

static int dump_info(void *ctx, const char *key, char *buf, size_t cap)
{
	struct dumpfile *d = ctx;
	char *val = NULL;
	int r = -1;

	if (kdump_vmcoreinfo_line(d->ctx, key, &val) == KDUMP_OK && val &&
	    strlen(val) < cap) {
		memcpy(buf, val, strlen(val) + 1);
		r = 0;
	}
	free(val);
	return r;
}

static int number(struct dumpfile *d, const char *key, kdump_num_t *v)
{
	return kdump_get_number_attr(d->ctx, key, v) == KDUMP_OK ? 0 : -1;
}

/* What kmem needs of the dump: byte order, word and page size, and a
 * VMCOREINFO whose kallsyms tables and address translation work. */
static int describe(struct dumpfile *d, struct kmem *mem,
		    struct tdat_error *err)
{
	kdump_num_t order, ptr, page;
	char *raw = NULL;

	if (kdump_vmcoreinfo_raw(d->ctx, &raw) != KDUMP_OK || !raw) {
		free(raw);
		return tdat_fail_nooff(err, mem->path, "no VMCOREINFO (a QEMU"
				       " dump of a guest without the vmcoreinfo"
				       " device and qemu_fw_cfg?)");
	}
	free(raw);
	if (number(d, KDUMP_ATTR_BYTE_ORDER, &order) ||
	    number(d, KDUMP_ATTR_PTR_SIZE, &ptr) ||
	    number(d, KDUMP_ATTR_PAGE_SIZE, &page) ||
	    (ptr != 4 && ptr != 8) || page < 4096 || page > (1u << 20))
		return tdat_fail_nooff(err, mem->path, "libkdumpfile: no"
				       " architecture (%s)",
				       kdump_get_err(d->ctx));
	mem->big = order == KDUMP_BIG_ENDIAN;
	mem->ptr_size = (int)ptr;
	mem->page_size = (uint32_t)page;
	mem->left = KMEM_BUDGET;
	mem->src.read = dump_read;
	mem->src.info = dump_info;
	mem->src.why = dump_why;
	mem->src.ctx = d;
	return 0;
}

/* The architecture: libkdumpfile 0.5.1 leaves it unset for QEMU's
 * kdump-compressed dumps, whose header names it anyway (the machine
 * field of the utsname that follows the 8-byte signature and the
 * 4-byte version). */
#define DISKDUMP_MACHINE (8 + 4 + 4 * 65)
static int set_arch(struct dumpfile *d, const char *path,
		    struct tdat_error *err)
{
	const char *arch = NULL;
	char machine[66] = { 0 };

	if (kdump_get_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, &arch) ==
	    KDUMP_OK && arch)
		return 0;
	if (pread(d->fd, machine, 65, DISKDUMP_MACHINE) != 65 || !machine[0])
		return tdat_fail_nooff(err, path, "no architecture in the"
				       " dump's header");
	if (kdump_set_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, machine) !=
	    KDUMP_OK)
		return tdat_fail(err, path, DISKDUMP_MACHINE, "architecture"
				 " \"%s\": libkdumpfile cannot read its"
				 " memory (%s)", machine,
				 kdump_get_err(d->ctx));
	return 0;
}

static int open_fd(const char *path, struct tdat_error *err)
{
	int fd = tdat_open_regular(path, err), copy;

	if (fd < 0 || !flat_is(fd))
		return fd;
	copy = flat_rearrange(fd, path, err);
	close(fd);
	return copy;
}

struct dumpfile *dumpfile_open(const char *path, struct kmem *mem,
			       struct tdat_error *err)
{
	struct dumpfile *d = calloc(1, sizeof(*d));
	kdump_status st;

	memset(mem, 0, sizeof(*mem));
	mem->path = path;
	if (!d) {
		tdat_errorf(err, "out of memory");
		return NULL;
	}
	d->fd = open_fd(path, err);
	if (d->fd < 0) {
		free(d);
		return NULL;
	}
	if (elf_check(d->fd, path, err))
		goto fail;
	d->ctx = kdump_new();
	if (!d->ctx) {
		tdat_errorf(err, "out of memory");
		goto fail;
	}
	/* read(2), never mmap(2): a file cut inside what libkdumpfile maps
	 * would be a SIGBUS, not an error */
	if (kdump_set_number_attr(d->ctx, KDUMP_ATTR_FILE_MMAP_POLICY,
				  KDUMP_MMAP_NEVER) != KDUMP_OK) {
		tdat_fail_nooff(err, path, "libkdumpfile: %s",
				kdump_get_err(d->ctx));
		goto fail;
	}
	st = kdump_open_fd(d->ctx, d->fd);
	if (st != KDUMP_OK) {
		tdat_fail_nooff(err, path, "not a dump libkdumpfile reads"
				" (%s)", kdump_get_err(d->ctx));
		goto fail;
	}
	/* kernel virtual addresses are Linux's, whatever the file says */
	if (set_arch(d, path, err))
		goto fail;
	if (kdump_set_string_attr(d->ctx, KDUMP_ATTR_OSTYPE, "linux") !=
	    KDUMP_OK) {
		tdat_fail_nooff(err, path, "libkdumpfile: %s",
				kdump_get_err(d->ctx));
		goto fail;
	}
	if (describe(d, mem, err))
		goto fail;
	return d;
fail:
	dumpfile_close(d);
	return NULL;
}

void dumpfile_close(struct dumpfile *d)
{
	if (!d)
		return;
	if (d->ctx)
		kdump_free(d->ctx);
	close(d->fd);
	free(d);
}
