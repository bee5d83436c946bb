/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * absent.c - vmcore_run in a build without libkdumpfile and libbpf (a
 * static one: Debian ships no libkdumpfile.a; the Makefile's VMCORE).
 */
#include <stdio.h>
#include "convert/vmcore/vmcore.h"

int vmcore_run(const struct vmcore_opts *o)
{
	fprintf(stderr, "tdat extract: %s: this tdat was built without"
		" libkdumpfile and libbpf, which --vmcore needs\n", o->dump);
	return 1;
}
