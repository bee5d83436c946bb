/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * header_only.c - restore -c: a trace.dat with the running system's
 * metadata and no trace data, every event system's formats in it.
 */
#include <limits.h>
#include "convert/tracefs/sysmeta.h"
#include "convert/tracefs/tracefs.h"

int sysmeta_header_only(const char *out, int version, enum tdat_codec codec,
			const char *tracing_dir, const char *kallsyms,
			int scratch, struct tdat_error *err)
{
	struct tdat_write_opts wo = {
		.version = version, .codec = codec,
		/* a scratch header is read through its descriptor */
		.provisional = scratch ? TDAT_UNNAMED_UNTIL_KEPT : 0 };
	char dir[PATH_MAX];
	struct tdat_writer *w;
	struct tdat_file *m;

	if (!tracing_dir) {
		if (tfs_find(dir, sizeof(dir), err))
			return -1;
		tracing_dir = dir;
	}
	m = sysmeta_collect(tracing_dir, NULL, kallsyms, err);
	if (!m)
		return -1;
	w = tdat_writer_open(out, m, &wo, err);
	if (!w) {
		tdat_close(m);
		return -1;
	}
	if (tdat_writer_close(w, err)) {
		tdat_close(m);
		return -1;
	}
	tdat_close(m);
	return 0;
}
