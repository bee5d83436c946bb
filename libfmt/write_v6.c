/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write_v6.c - the v6 layout (FORMAT.md 3): the metadata parts in a row,
 * the options list, then a "flyrecord" block per buffer whose CPU table
 * is filled in once the CPUs' data is out.  trace-cmd's own layout, so
 * that a v6 file rewritten as v6 comes out byte for byte the same.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/writer.h"

/* What v6 holds when a part is missing from meta: the empty form. */
static int v6_empty_part(struct tdat_writer *w, int i, struct tdat_error *err)
{
	switch (i) {
	case TDAT_META_HEADERS:
		return emit(w, "header_page", 12, err) || emit64(w, 0, err) ||
		       emit(w, "header_event", 13, err) || emit64(w, 0, err);
	case TDAT_META_CMDLINES:
		return emit64(w, 0, err);
	default:
		return emit32(w, 0, err);
	}
}

static int v6_top_is_latency(const struct tdat_writer *w)
{
	const struct tdat_buffer *top = tdat_top_buffer(w->meta);

	return top && top->latency;
}

int v6_keeps_buffer(const struct tdat_writer *w, int i)
{
	const struct tdat_buffer *b = &w->meta->buffers[i];

	if (!b->name[0])
		return i == 0;
	return !b->latency && !v6_top_is_latency(w);
}

/* The clock name in brackets in a TRACECLOCK option, or "". */
static void traceclock_name(const struct tdat_file *m, char *out, size_t cap)
{
	const struct tdat_option *o = tdat_find_option(m, TDAT_OPT_TRACECLOCK);
	const char *p, *q;

	out[0] = 0;
	if (!o || !o->size)
		return;
	p = memchr(o->data, '[', o->size);
	if (!p)
		return;
	q = memchr(p, ']', o->size - (size_t)(p - (const char *)o->data));
	if (!q || (size_t)(q - p - 1) >= cap)
		return;
	memcpy(out, p + 1, (size_t)(q - p - 1));
	out[q - p - 1] = 0;
}

/* A v6 BUFFER option: u64 offset (patched when the block is written), name. */
static int v6_buffer_option(struct tdat_writer *w, struct tdat_bytes *list,
			    const char *name)
{
	size_t n = strlen(name) + 1;
	uint8_t *d = calloc(1, 8 + n);
	int r;

	if (!d)
		return -1;
	memcpy(d + 8, name, n);
	r = bytes_add_option(w, list, TDAT_OPT_BUFFER, (uint32_t)(8 + n), d);
	free(d);
	return r;
}

/* Each instance's place among the other options, as its input had it
 * (v6places.c), or -1: after all of them. */
static int v6_buffer_places(struct tdat_writer *w, struct tdat_error *err)
{
	int k, r;

	for (k = 0; k < w->nbufs; k++) {
		struct wbuf *wb = &w->bufs[k];
		uint32_t place;

		r = v6places_find(w->meta, wb->b->name, &place, err);
		if (r < 0)
			return -1;
		wb->v6_place = r ? (int64_t)place : -1;
	}
	return 0;
}

/* The BUFFER options of the kept instances placed before option i, or
 * at i < 0 all those not written yet. */
static int v6_buffer_options(struct tdat_writer *w, struct tdat_bytes *list,
			     uint64_t base, int i, struct tdat_error *err)
{
	int k;

	for (k = 0; k < w->nbufs; k++) {
		struct wbuf *wb = &w->bufs[k];

		if (!wb->keep || !wb->b->name[0] || wb->v6_patch ||
		    (i >= 0 && wb->v6_place != i))
			continue;
		wb->v6_patch = base + list->len + 6;
		if (v6_buffer_option(w, list, wb->b->name))
			return writer_oom(w, err);
	}
	return 0;
}

/* "options  \0", the user's options with one BUFFER per instance among
 * them or after them, u16 0. */
static int v6_options(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	const struct tdat_option *clock = tdat_find_option(m,
							   TDAT_OPT_TRACECLOCK);
	struct tdat_bytes list = { 0 };
	struct tdat_blob kept;
	uint64_t base = w->out.pos + 10;	/* where the list starts */
	int latency = v6_top_is_latency(w), i;
	/* the TRACECLOCK option a v6 input had (v6shown.c) */
	int own = v6shown_option(m, "v6", &kept, err);
	int r;

	if (own < 0) {
		w->broken = 1;
		return -1;
	}
	r = v6_buffer_places(w, err);

	for (i = 0; i < m->noptions && !r; i++) {
		const struct tdat_option *o = &m->options[i];
		int swap = own > 0 && o == clock;

		r = v6_buffer_options(w, &list, base, i, err);
		/* The reader would eat the latency text as a clock record. */
		if (r || (latency && o->id == TDAT_OPT_TRACECLOCK))
			continue;
		if (bytes_add_option(w, &list, o->id,
				     swap ? (uint32_t)kept.len : o->size,
				     swap ? kept.data : o->data))
			r = writer_oom(w, err);
	}
	r = r || v6_buffer_options(w, &list, base, -1, err) ||
	    emit(w, "options  ", 10, err) || emit(w, list.data, list.len, err) ||
	    emit16(w, 0, err);
	tdat_blob_free(&kept);
	tdat_bytes_free(&list);
	return r ? -1 : 0;
}

/* u64 length, then "[clock]" without a NUL, or the record the input had
 * when it was another text naming that clock (v6clock.c); just a zero
 * length if the clock is unknown, and no record at all if there is no
 * TRACECLOCK option either (trace-cmd reads none then, and 2014-era
 * files have none: their data may start right after the CPU table). */
static int v6_clock_record(struct tdat_writer *w, const char *name,
			   const char *clock, struct tdat_error *err)
{
	size_t n = clock ? strlen(clock) : 0;
	struct tdat_blob kept;
	int r;

	r = v6clock_record(w->meta, name, clock, &kept, err);
	if (r < 0)
		return -1;
	if (r > 0) {
		r = emit64(w, kept.len, err) ||
		    emit(w, kept.data, kept.len, err);
		tdat_blob_free(&kept);
		return r ? -1 : 0;
	}
	if (!n)
		return tdat_find_option(w->meta, TDAT_OPT_TRACECLOCK) ?
		       emit64(w, 0, err) : 0;
	/* a v7 input's TRACECLOCK alone decides how times are shown */
	if (!name[0] && v6shown_bare_record(w->meta, clock))
		return emit64(w, n, err) || emit(w, clock, n, err);
	return emit64(w, n + 2, err) || emit(w, "[", 1, err) ||
	       emit(w, clock, n, err) || emit(w, "]", 1, err);
}

/* "flyrecord\0", a CPU table to patch, the clock record, padding. */
static int v6_start_block(struct tdat_writer *w, struct wbuf *wb,
			  const char *clock, struct tdat_error *err)
{
	wb->start = w->out.pos;
	if (wb->v6_patch && patch64(w, wb->v6_patch, wb->start, err))
		return -1;
	if (emit(w, "flyrecord", 10, err))
		return -1;
	wb->table = w->out.pos;
	if (emit_zeros(w, (uint64_t)w->cpu_count * 16, err) ||
	    v6_clock_record(w, wb->b ? wb->b->name : "", clock, err))
		return -1;
	w->v6_record_end = w->out.pos;
	if (emit_align(w, w->page_size, err))
		return -1;
	w->v6_data_start = w->out.pos;
	wb->started = 1;
	return 0;
}

/*
 * trace-cmd 2.x ended a file whose last block got no data right after
 * its clock record (the CPU table still points at the page boundary
 * where data would start): no padding up to nothing, so such files come
 * back byte for byte.
 */
int v6_trim_tail(struct tdat_writer *w, struct tdat_error *err)
{
	if (w->v6_record_end && w->out.pos == w->v6_data_start &&
	    out_truncate(&w->out, w->v6_record_end, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

/* Fill the CPU table: a CPU without data points where its data would be. */
int v6_finish_block(struct tdat_writer *w, struct wbuf *wb,
		    struct tdat_error *err)
{
	uint64_t next;
	uint8_t *t;
	int i, r;

	if (!wb->started &&
	    v6_start_block(w, wb, wb->b ? wb->b->clock : "", err))
		return -1;
	next = w->out.pos;	/* after the block's own start and padding */
	t = calloc(w->cpu_count ? w->cpu_count : 1, 16);
	if (!t)
		return writer_oom(w, err);
	for (i = wb->ncpus - 1; i >= 0; i--) {
		struct wcpu *c = &wb->cpus[i];

		if (c->begun)
			next = c->offset;
		else
			c->offset = next;
		tdat_store64(w->big, t + 16 * i, c->offset);
		tdat_store64(w->big, t + 16 * i + 8, c->size);
	}
	r = patch_bytes(w, wb->table, t, (size_t)w->cpu_count * 16, err);
	free(t);
	return r;
}

int v6_alloc_cpus(struct tdat_writer *w, struct wbuf *wb)
{
	uint32_t i;

	wb->cpus = calloc(w->cpu_count ? w->cpu_count : 1, sizeof(*wb->cpus));
	if (!wb->cpus)
		return -1;
	for (i = 0; i < w->cpu_count; i++)
		wb->cpus[i].cpu = (int)i;
	wb->ncpus = (int)w->cpu_count;
	return 0;
}

int v6_begin_cpu(struct tdat_writer *w, struct wbuf *wb, int cpu,
		 struct tdat_error *err)
{
	if ((uint32_t)cpu >= w->cpu_count)
		return writer_fail(w, err, "v6 cannot hold CPU id %d (the CPU"
				   " count is %u)", cpu, w->cpu_count);
	if (!wb->started && v6_start_block(w, wb, wb->b->clock, err))
		return -1;
	w->cpu = &wb->cpus[cpu];
	if (w->cpu->begun)
		return writer_fail(w, err, "buffer \"%s\": CPU %d written"
				   " twice", wb->b->name, cpu);
	w->cpu->begun = 1;
	w->cpu->offset = w->out.pos;
	return 0;
}

/* Metadata part i as it is, decoded first if the file left it pending
 * (TDAT_OPEN_LAZY_META): v6 stores it uncompressed. */
static int v6_part(struct tdat_writer *w, int i, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	struct tdat_blob b;
	int r;

	if (!tdat_meta_pending(m, i))
		return emit(w, m->meta[i].data, m->meta[i].len, err);
	if (tdat_meta_decode(m, i, &b, err)) {
		w->broken = 1;
		return -1;
	}
	r = emit(w, b.data, b.len, err);
	free(b.data);
	return r;
}

int v6_start(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	struct wbuf top;
	char clock[64], version[16];
	int i, r;

	/* "6", or the string the input had instead (v6version.c). */
	r = v6version_find(m, version, sizeof(version), err);
	if (r < 0 || emit_initial_header(w, r ? version : "6", err))
		return -1;
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		if (!m->priv->meta_present[i] ? v6_empty_part(w, i, err) :
		    v6_part(w, i, err))
			return -1;
	}
	if (emit32(w, w->cpu_count, err) || v6_options(w, err))
		return -1;
	if (v6_top_is_latency(w))
		return emit(w, "latency  ", 10, err);
	if (tdat_top_buffer(m))
		return 0;
	/* v6 always has a top flyrecord: write an empty one now. */
	memset(&top, 0, sizeof(top));
	if (v6_alloc_cpus(w, &top))
		return writer_oom(w, err);
	traceclock_name(m, clock, sizeof(clock));
	r = v6_start_block(w, &top, clock, err) ||
	    v6_finish_block(w, &top, err);
	free(top.cpus);
	return r ? -1 : 0;
}
