/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge_inputs.c - the inputs while their trace data is read.
 *
 * Metadata texts (kallsyms alone is megabytes) are freed as soon as a
 * file is open: page readers need only the header fields and the buffer
 * table.  At most max_open inputs stay open; the least recently used
 * idle one is closed to make room, and opened again if it is needed
 * again, so descriptors stay bounded with thousands of pieces.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/merge/merge_internal.h"
#include "libfmt/stored.h"
#include "libfmt/chunkindex.h"
#include "libfmt/metabuild.h"

void input_slim(struct tdat_file *f)
{
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++)
		tdat_meta_drop(f, i);
	for (i = 0; i < f->nextra; i++) {
		free(f->extra[i].body.data);
		f->extra[i].body.data = NULL;
		f->extra[i].body.len = 0;
	}
}

void input_trim(struct merge_ctx *m)
{
	while (m->nopen > m->max_open) {
		struct merge_input *old = NULL;
		int i;

		for (i = 0; i < m->nin; i++) {
			struct merge_input *in = &m->in[i];

			if (in->f && !in->busy &&
			    (!old || in->last_use < old->last_use))
				old = in;
		}
		if (!old)
			return;	/* all busy: the overlap decides */
		tdat_close(old->f);
		old->f = NULL;
		m->nopen--;
	}
}

struct tdat_file *input_get(struct merge_ctx *m, int i,
			    struct tdat_error *err)
{
	struct merge_input *in = &m->in[i];
	struct tdat_file *f;
	int busy;

	in->last_use = ++m->tick;
	if (in->f)
		return in->f;
	/* reopened for its trace data only: the metadata is not decoded */
	f = tdat_open_flags(in->path, TDAT_OPEN_LAZY_META, err);
	if (!f)
		return NULL;
	if (f->file_size != in->file_size || f->nbuffers != in->nbuffers) {
		tdat_close(f);
		tdat_fail_nooff(err, in->path, "the file changed while it was"
				" being merged");
		return NULL;
	}
	input_slim(f);
	in->f = f;
	m->nopen++;
	/* when every other open input is busy, the one just opened is the
	 * least recently used idle one: it must not be the one closed */
	busy = in->busy;
	in->busy = 1;
	input_trim(m);
	in->busy = busy;
	return f;
}

void input_close_all(struct merge_ctx *m)
{
	int i;

	for (i = 0; m->in && i < m->nin; i++) {
		tdat_close(m->in[i].f);
		m->in[i].f = NULL;
	}
	m->nopen = 0;
}

int merge_last_ts(struct tdat_file *f, struct merge_stream *s,
		  struct tdat_error *err)
{
	int r = tdat_cpu_last_ts(f, s->buf, s->idx, &s->last, err);

	s->last_known = r > 0;
	return r < 0 ? -1 : 0;
}
