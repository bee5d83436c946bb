/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.c - join trace.dat files into one: the driver.
 *
 * Two passes.  First every input is opened in turn: its metadata is
 * checked against and joined into the output's (merge_meta.c), and the
 * first and last timestamps of each of its CPU streams noted; nothing is
 * written until every input passed.  Then the output is written buffer
 * by buffer, CPU by CPU, each CPU stream merged from the inputs that have
 * it (merge_cpu.c).
 *
 * Inputs stay open between the passes while descriptors allow: at most
 * max_open, the least recently used idle one closed to make room and
 * opened again when needed, so thousands of pieces merge.  Their
 * metadata texts (kallsyms alone is megabytes) are freed once joined:
 * page readers need only the header fields and the buffer table.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "convert/copy/copy.h"
#include "convert/merge/merge_internal.h"
#include "libfmt/chunkindex.h"
#include "libfmt/metabuild.h"

/* ---- notes and inputs ---- */

void merge_warn(struct merge_ctx *m, const char *fmt, ...)
{
	struct tdat_error e;	/* one printable line, as errors are */
	va_list ap;

	if (!m->o->warn)
		return;
	va_start(ap, fmt);
	tdat_verrorf(&e, fmt, ap);
	va_end(ap);
	m->o->warn(m->o->warn_ctx, e.msg);
}

/* Drop the big metadata texts of an open file: readers do not need them. */
static void input_slim(struct tdat_file *f)
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

void merge_input_trim(struct merge_ctx *m)
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

struct tdat_file *merge_input_get(struct merge_ctx *m, int i,
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
	merge_input_trim(m);
	in->busy = busy;
	return f;
}

static void input_close_all(struct merge_ctx *m)
{
	int i;

	for (i = 0; m->in && i < m->nin; i++) {
		tdat_close(m->in[i].f);
		m->in[i].f = NULL;
	}
	m->nopen = 0;
}

/* The last event timestamp of a stream, read from its end: s->last and
 * s->last_known (0 when it cannot be known cheaply). */
static int last_ts(struct tdat_file *f, struct merge_stream *s,
		   struct tdat_error *err)
{
	int r = tdat_cpu_last_ts(f, s->buf, s->idx, &s->last, err);

	s->last_known = r > 0;
	return r < 0 ? -1 : 0;
}

#define DEFAULT_MAX_OPEN 64

/* Inputs kept open: 64, or half the descriptors the process may have. */
static int default_max_open(void)
{
	struct rlimit rl;
	long n = DEFAULT_MAX_OPEN;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (long)(rl.rlim_cur / 2) < n)
		n = (long)(rl.rlim_cur / 2);
	return n < 2 ? 2 : (int)n;
}

/* ---- pass 1: metadata and where each stream starts ---- */

static int add_stream(struct merge_ctx *m, const struct merge_stream *s)
{
	struct merge_stream *v;

	v = realloc(m->streams, (size_t)(m->nstreams + 1) * sizeof(*v));
	if (!v)
		return -1;
	m->streams = v;
	v[m->nstreams] = *s;
	v[m->nstreams].bufname = strdup(s->bufname);
	if (!v[m->nstreams].bufname)
		return -1;
	m->nstreams++;
	return 0;
}

/* Note f's CPU streams with data, and its latency texts (idx -1). */
static int note_streams(struct merge_ctx *m, int i, struct tdat_file *f,
			struct tdat_error *err)
{
	struct merge_stream s;
	int b, k;

	for (b = 0; b < f->nbuffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];

		memset(&s, 0, sizeof(s));
		s.input = i;
		s.buf = b;
		s.bufname = buf->name;
		if (buf->latency) {
			s.idx = -1;
			s.size = buf->latency_size;
			if (add_stream(m, &s))
				goto nomem;
			continue;
		}
		for (k = 0; k < buf->ncpus; k++) {
			if (!buf->cpus[k].size)
				continue;
			s.idx = k;
			s.cpu = buf->cpus[k].cpu;
			s.size = buf->cpus[k].size;
			if (tdat_cpu_first_ts(f, b, k, &s.key, err) ||
			    last_ts(f, &s, err))
				return -1;
			if (add_stream(m, &s))
				goto nomem;
		}
	}
	return 0;
nomem:
	return tdat_fail_nooff(err, f->path, "out of memory");
}

/* Unknown sections the output takes from input i (from index from on):
 * a v6 output has no place for them. */
static void warn_extras(struct merge_ctx *m, int i, int from)
{
	int k;

	if (m->out_version != 6)
		return;
	for (k = from; k < m->meta->nextra; k++) {
		const struct tdat_extra_section *x = &m->meta->extra[k];

		if (!tdat_extra_v6_kept(x))
			merge_warn(m, "%s: section %u (\"%s\") dropped: a v6"
				   " file cannot hold it", m->in[i].path,
				   x->id, x->description ? x->description : "");
	}
}

/*
 * Inputs are opened lazily: their compressed metadata sections stay as
 * stored.  The first input's become the output's, checked to decode but
 * not decoded (the output copies them while they stay unchanged); a later
 * input's section stored as the output's is known equal undecoded.
 */
static int read_input(struct merge_ctx *m, int i, const char *path,
		      struct tdat_error *err)
{
	struct merge_input *in = &m->in[i];
	struct tdat_file *f;
	int nextra = m->meta ? m->meta->nextra : 0, k;

	f = tdat_open_flags(path, TDAT_OPEN_LAZY_META, err);
	if (!f)
		return -1;
	for (k = 0; tdat_note(f, k); k++)
		merge_warn(m, "%s", tdat_note(f, k));
	in->path = strdup(path);
	in->file_size = f->file_size;
	in->nbuffers = f->nbuffers;
	if (!in->path) {
		tdat_close(f);
		return tdat_fail_nooff(err, path, "out of memory");
	}
	if (i == 0) {
		m->meta = meta_from_first(f, err);
		m->out_version = m->o->version ? m->o->version : f->version;
	}
	/* A v6 writer takes the metadata decoded. */
	for (k = 0; i == 0 && m->meta && k < TDAT_META_COUNT; k++)
		if (m->out_version == 6 ? tdat_meta_load(m->meta, k, err) :
		    tdat_meta_check(m->meta, k, err))
			goto fail;
	if ((i == 0 && !m->meta) ||
	    (i > 0 && meta_join_input(m, f, err)) ||
	    note_streams(m, i, f, err))
		goto fail;
	warn_extras(m, i, nextra);
	/* Keep it open for pass 2 while descriptors allow. */
	for (k = 0; k < TDAT_META_COUNT; k++)
		tdat_meta_drop_stored(f, k);
	input_slim(f);
	in->f = f;
	m->nopen++;
	in->last_use = ++m->tick;
	merge_input_trim(m);
	return 0;
fail:
	tdat_close(f);
	return -1;
}

/* ---- pass 2: the output ---- */

static int cmp_stream(const void *pa, const void *pb)
{
	const struct merge_stream *a = pa, *b = pb;

	if (a->out_buf != b->out_buf)
		return a->out_buf < b->out_buf ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->input < b->input ? -1 : a->input > b->input;
}

static void order_streams(struct merge_ctx *m)
{
	int i;

	for (i = 0; i < m->nstreams; i++) {
		m->streams[i].out_buf = meta_buffer(m->meta,
						    m->streams[i].bufname);
		m->total += m->streams[i].size;
	}
	if (m->nstreams)	/* inputs may all lack CPU data */
		qsort(m->streams, (size_t)m->nstreams, sizeof(*m->streams),
		      cmp_stream);
}

static int put_latency(struct merge_ctx *m, struct tdat_writer *w,
		       const struct merge_stream *s, struct tdat_error *err)
{
	struct tdat_file *f = merge_input_get(m, s->input, err);
	struct tdat_blob text;
	int r;

	if (!f || tdat_read_latency(f, s->buf, &text, err))
		return -1;
	r = tdat_writer_put_latency(w, s->out_buf, text.data, text.len, err);
	free(text.data);
	return r;
}

static int write_streams(struct merge_ctx *m, struct tdat_writer *w,
			 struct tdat_error *err)
{
	int i = 0, j;

	while (i < m->nstreams) {
		struct merge_stream *s = &m->streams[i];

		if (!tdat_writer_keeps_buffer(w, s->out_buf)) {
			i++;
			continue;
		}
		if (s->idx < 0) {
			if (put_latency(m, w, s, err))
				return -1;
			i++;
			continue;
		}
		for (j = i; j < m->nstreams && m->streams[j].out_buf ==
		     s->out_buf && m->streams[j].cpu == s->cpu; j++)
			;
		if (merge_cpu(m, w, s, j - i, err))
			return -1;
		i = j;
	}
	return 0;
}

static void write_opts(const struct merge_ctx *m, struct tdat_write_opts *wo)
{
	const struct merge_opts *o = m->o;
	const struct tdat_file *first = m->meta;

	memset(wo, 0, sizeof(*wo));
	wo->version = m->out_version;
	if (o->codec_given)
		wo->codec = o->codec;
	else if (wo->version == 7)
		wo->codec = first->version == 7 ? first->codec :
			    TDAT_CODEC_ZSTD;
	else
		wo->codec = TDAT_CODEC_NONE;
	wo->level = o->level;
	wo->chunk_size = o->chunk_size;
	wo->threads = o->threads;
}

static int write_output(struct merge_ctx *m, const char *out,
			struct tdat_error *err)
{
	struct tdat_write_opts wo;
	struct tdat_writer *w;

	write_opts(m, &wo);
	if (wo.version == 6)	/* as convert says it */
		copy_warn_v6_losses(m->meta, 0, m->o->warn, m->o->warn_ctx);
	order_streams(m);
	w = tdat_writer_open(out, m->meta, &wo, err);
	if (!w)
		return -1;
	if (write_streams(m, w, err)) {
		tdat_writer_abort(w);
		return -1;
	}
	return tdat_writer_close(w, err);
}

static void ctx_free(struct merge_ctx *m)
{
	int i;

	input_close_all(m);
	for (i = 0; m->in && i < m->nin; i++)
		free(m->in[i].path);
	for (i = 0; i < m->nstreams; i++)
		free(m->streams[i].bufname);
	free(m->streams);
	free(m->in);
	if (m->meta)
		meta_free(m->meta);
}

int merge_files(const char *const *in, int nin, const char *out,
		const struct merge_opts *o, struct merge_stats *stats,
		struct tdat_error *err)
{
	struct merge_stats local;
	struct merge_ctx m;
	int i, r = -1;

	memset(&m, 0, sizeof(m));
	memset(&local, 0, sizeof(local));
	m.o = o;
	m.st = stats ? stats : &local;
	memset(m.st, 0, sizeof(*m.st));
	m.max_open = o->max_open > 0 ? o->max_open : default_max_open();
	if (nin < 1)
		return tdat_fail_nooff(err, out, "no input to merge");
	m.in = calloc((size_t)nin, sizeof(*m.in));
	if (!m.in)
		return tdat_fail_nooff(err, out, "out of memory");
	m.nin = nin;
	for (i = 0; i < nin; i++)
		if (read_input(&m, i, in[i], err))
			goto out;
	r = write_output(&m, out, err);
out:
	ctx_free(&m);
	return r;
}

