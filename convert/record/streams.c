/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * streams.c - the per-CPU streams of OUT.rec/ (record.h): which files
 * the readers fill, and the manifest that tells restore what they are.
 * Shared by record and extract, each with its list of buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/record/record_internal.h"
#include "convert/tracefs/tracefs.h"

/* One stream: buffer b's CPU cpu into recdir/NAME.cpuN (cpuN for the
 * top: the dot keeps an instance's apart from the top's). */
static int plan_one(struct rec_streams *s, const char *top,
		    const char *recdir, int b, int cpu, uint32_t page_size,
		    struct tdat_error *err)
{
	struct reader_spec *sp = &s->specs[s->n];
	const char *name = s->names[b];
	char rel[64];

	if (tfs_buffer_dir(top, name, sp->dir, sizeof(sp->dir), err))
		return -1;
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d", cpu);
	if (!tfs_exists(sp->dir, rel))
		return 0;
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/%s", cpu,
		 s->raw_name ? s->raw_name : "trace_pipe_raw");
	if (!tfs_exists(sp->dir, rel))
		return tdat_errorf(err, "%s/%s: not there (%s)", sp->dir, rel,
				   s->raw_name ? "this kernel keeps no snapshot"
				   " buffers" : "no raw pipe");
	if (sysmeta_page_size(sp->dir, &sp->page_size, err))
		return -1;
	if (sp->page_size != page_size)
		return tdat_errorf(err, "buffer \"%s\" has %u-byte sub-buffers,"
				   " not %u like the others", name,
				   sp->page_size, page_size);
	sp->cpu = cpu;
	sp->raw_name = s->raw_name;
	if (snprintf(sp->path, sizeof(sp->path), "%s/%s%scpu%d", recdir, name,
		     name[0] ? "." : "", cpu) >= (int)sizeof(sp->path))
		return tdat_errorf(err, "%s: path too long", recdir);
	s->spec_buf[s->n++] = b;
	return 0;
}

int rec_streams_plan(struct rec_streams *s, const char *top,
		     const char *recdir, int ncpus, uint32_t page_size,
		     struct tdat_error *err)
{
	int b, cpu;

	s->specs = calloc((size_t)s->nnames * (size_t)ncpus + 1,
			  sizeof(*s->specs));
	s->spec_buf = calloc((size_t)s->nnames * (size_t)ncpus + 1,
			     sizeof(*s->spec_buf));
	if (!s->specs || !s->spec_buf)
		return tdat_errorf(err, "out of memory");
	s->n = 0;
	for (b = 0; b < s->nnames; b++)
		for (cpu = 0; cpu < ncpus; cpu++)
			if (plan_one(s, top, recdir, b, cpu, page_size, err))
				return -1;
	return 0;
}

int rec_streams_manifest(const struct rec_streams *s, const char *top,
			 const char *recdir, int ncpus, uint32_t page_size,
			 int latency, int version, enum tdat_codec codec,
			 struct tdat_error *err)
{
	size_t cap = 256 + (size_t)(s->nnames + s->n) * (PATH_MAX + 64);
	char *text = malloc(cap), clock[64], dir[PATH_MAX];
	size_t len;
	int i, r;

	if (!text)
		return tdat_errorf(err, "out of memory");
	len = (size_t)snprintf(text, cap, "tdat-recording 1\n"
			       "page_size %u\n", page_size);
	for (i = 0; i < s->nnames; i++) {
		if (tfs_buffer_dir(top, s->names[i], dir, sizeof(dir), err) ||
		    sysmeta_clock(dir, clock, sizeof(clock), err)) {
			free(text);
			return -1;
		}
		len += (size_t)snprintf(text + len, cap - len,
					"buffer %s clock %s cpus %d%s\n",
					s->names[i][0] ? s->names[i] : "-",
					clock, ncpus, latency ?
					" latency " REC_LATENCY_FILE : "");
	}
	for (i = 0; i < s->n; i++) {
		const char *file = strrchr(s->specs[i].path, '/') + 1;
		const char *name = s->names[s->spec_buf[i]];

		len += (size_t)snprintf(text + len, cap - len, "cpu %s %d %s\n",
					name[0] ? name : "-",
					s->specs[i].cpu, file);
	}
	r = recdir_write_text(recdir, "manifest", text, err);
	/* what restore should make of it (record.h) */
	snprintf(text, cap, "%d %s\n", version, tdat_codec_name(codec));
	if (!r)
		r = recdir_write_text(recdir, "output", text, err);
	free(text);
	return r;
}

void rec_streams_free(struct rec_streams *s)
{
	free(s->names);
	free(s->specs);
	free(s->spec_buf);
	memset(s, 0, sizeof(*s));
}
