/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfcheck.c - an ELF dump's program headers against its size.
 * libkdumpfile 0.5.1 reads a PT_LOAD that runs past the end of a cut
 * file as zeros, so a cut dump would give empty pages, not an error:
 * whether every segment lies inside the file is checked here first.
 */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/vmcore/vmcore_internal.h"

#define PT_LOAD 1
#define PT_NOTE 4
#define PN_XNUM 0xffff		/* the count is section header 0's sh_info */
#define PHNUM_MAX (1u << 24)	/* far more than any machine's ranges */

struct elf_shape {
	int big, wide;		/* byte order; 1 for ELF64 */
	uint64_t phoff, shoff;
	uint32_t phentsize, phnum;
};

static int shape(const uint8_t *h, struct elf_shape *e)
{
	e->wide = h[4] == 2;
	e->big = h[5] == 2;
	if (e->wide) {
		e->phoff = tdat_load64(e->big, h + 32);
		e->shoff = tdat_load64(e->big, h + 40);
		e->phentsize = tdat_load16(e->big, h + 54);
		e->phnum = tdat_load16(e->big, h + 56);
	} else {
		e->phoff = tdat_load32(e->big, h + 28);
		e->shoff = tdat_load32(e->big, h + 32);
		e->phentsize = tdat_load16(e->big, h + 42);
		e->phnum = tdat_load16(e->big, h + 44);
	}
	return e->phentsize >= (e->wide ? 56u : 32u) ? 0 : -1;
}

/* More program headers than e_phnum holds (a dump of a machine with
 * many memory ranges): their count is section header 0's sh_info. */
static int extended_count(int fd, struct elf_shape *e, const char *path,
			  struct tdat_error *err)
{
	uint8_t sh[4];
	uint64_t at = e->shoff + (e->wide ? 44 : 28);

	if (!e->shoff || at < e->shoff ||
	    pread(fd, sh, sizeof(sh), (off_t)at) != (ssize_t)sizeof(sh))
		return tdat_fail(err, path, at, "ELF section header 0 (the"
				 " program header count): past the end of the"
				 " file (cut?)");
	e->phnum = tdat_load32(e->big, sh);
	return 0;
}

/* One program header: its type, and where its bytes lie in the file. */
static void segment(const struct elf_shape *e, const uint8_t *p,
		    uint32_t *type, uint64_t *off, uint64_t *filesz)
{
	*type = tdat_load32(e->big, p);
	*off = e->wide ? tdat_load64(e->big, p + 8) : tdat_load32(e->big, p + 4);
	*filesz = e->wide ? tdat_load64(e->big, p + 32)
			  : tdat_load32(e->big, p + 16);
}

int elf_check(int fd, const char *path, struct tdat_error *err)
{
	uint8_t h[64], p[64];
	struct elf_shape e;
	struct stat st;
	uint64_t size, off, filesz, at;
	uint32_t i, type;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h, "\177ELF", 4) || fstat(fd, &st))
		return 0;	/* not ELF: libkdumpfile says what it is */
	size = (uint64_t)st.st_size;
	if (shape(h, &e))
		return tdat_fail(err, path, 0, "ELF header: program headers"
				 " of %u bytes", e.phentsize);
	if (e.phnum == PN_XNUM && extended_count(fd, &e, path, err))
		return -1;
	if (e.phnum > PHNUM_MAX)
		return tdat_fail(err, path, 0, "ELF header: %u program"
				 " headers", e.phnum);
	for (i = 0; i < e.phnum; i++) {
		at = e.phoff + (uint64_t)i * e.phentsize;
		if (at < e.phoff || pread(fd, p, e.wide ? 56 : 32, (off_t)at) !=
		    (e.wide ? 56 : 32))
			return tdat_fail(err, path, at, "ELF program header %u:"
					 " past the end of the file (cut?)", i);
		segment(&e, p, &type, &off, &filesz);
		if ((type == PT_LOAD || type == PT_NOTE) &&
		    (off > size || filesz > size - off))
			return tdat_fail(err, path, at, "ELF program header %u:"
					 " its %llu bytes at %llu run past the"
					 " end of the file (%llu bytes: cut?)",
					 i, (unsigned long long)filesz,
					 (unsigned long long)off,
					 (unsigned long long)size);
	}
	return 0;
}
