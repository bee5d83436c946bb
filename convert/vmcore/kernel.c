/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.c - the crashed kernel as every job sees it: its dump opened,
 * its kallsyms tables decoded, its own BTF loaded (extract --vmcore's
 * ring buffers and restore --vmcore's page cache both start here).
 */
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

int kernel_open(struct kernel *k, const char *path, struct dumpfile **dump,
		struct tdat_error *err)
{
	uint64_t start, stop;

	memset(k, 0, sizeof(*k));
	*dump = dumpfile_open(path, &k->mem, err);
	if (!*dump || ksymtab_load(&k->mem, &k->syms, err) ||
	    ksymtab_need(&k->syms, &k->mem, "__start_BTF", &start, err) ||
	    ksymtab_need(&k->syms, &k->mem, "__stop_BTF", &stop, err))
		return -1;
	k->btf = kbtf_load(&k->mem, start, stop, err);
	return k->btf ? 0 : -1;
}

void kernel_close(struct kernel *k, struct dumpfile *dump)
{
	kbtf_free(k->btf);
	ksymtab_free(&k->syms);
	dumpfile_close(dump);
	k->btf = NULL;
}
