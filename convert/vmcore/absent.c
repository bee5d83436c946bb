/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * absent.c - vmcore_run and vmcore_cache_open in a build without
 * libkdumpfile and libbpf (a static one: Debian ships no
 * libkdumpfile.a; the Makefile's VMCORE).
 */
#include <stdio.h>
#include "convert/vmcore/vmcore.h"

int vmcore_run(const struct vmcore_opts *o)
{
	fprintf(stderr, "tdat extract: %s: this tdat was built without"
		" libkdumpfile and libbpf, which --vmcore needs\n", o->dump);
	return 1;
}

struct vmcore_cache *vmcore_cache_open(const char *dump, const char *tmpdir,
				       struct raw_source *src,
				       struct tdat_error *err)
{
	(void)tmpdir;
	(void)src;
	tdat_fail_nooff(err, dump, "this tdat was built without libkdumpfile"
			" and libbpf, which --vmcore needs");
	return NULL;
}

void vmcore_cache_close(struct vmcore_cache *vc)
{
	(void)vc;
}
