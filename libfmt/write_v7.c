/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write_v7.c - the v7 layout (FORMAT.md 4, 9.3): everything is a section
 * (u16 id, u16 flags, s32 description, u64 size, body).  Metadata first,
 * then options sections chained by their DONE option, then per buffer a
 * data section followed by an options section with its BUFFER (or
 * BUFFER_TEXT) option, and the strings table, holding the descriptions,
 * last.  trace-cmd's layout and descriptions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/writer.h"

/* ---- sections ---- */

/* Offset of s in the strings table, -1 if it cannot be added. */
static int32_t add_string(struct tdat_writer *w, const char *s)
{
	size_t at = w->strings.len;

	if (at > INT32_MAX || tdat_bytes_add(&w->strings, s, strlen(s) + 1))
		return -1;
	return (int32_t)at;
}

/* A section header whose size section_end patches in. */
static int section_begin(struct tdat_writer *w, uint16_t id, uint16_t flags,
			 const char *desc, uint64_t *hdr,
			 struct tdat_error *err)
{
	int32_t sid = desc ? add_string(w, desc) : -1;

	*hdr = w->out.pos;
	return emit16(w, id, err) || emit16(w, flags, err) ||
	       emit32(w, (uint32_t)sid, err) || emit64(w, 0, err);
}

static int section_end(struct tdat_writer *w, uint64_t hdr,
		       struct tdat_error *err)
{
	return patch64(w, hdr + 8, w->out.pos - hdr - SECTION_HEADER_SIZE,
		       err);
}

/* A section body as one compression block: u32 c, u32 u, data. */
static int put_block(struct tdat_writer *w, const void *data, size_t len,
		     struct tdat_error *err)
{
	size_t cap = codec_bound(w->codec, len), clen;
	uint8_t *buf;

	if (len > UINT32_MAX || cap > UINT32_MAX - 8)
		return writer_fail(w, err, "a section of %zu bytes is too large"
				   " for one compression block", len);
	buf = writer_scratch(w, 8 + cap);
	if (!buf)
		return writer_oom(w, err);
	if (codec_compress(&w->cc, data, len, buf + 8, cap, &clen))
		return writer_fail(w, err, "%s compression failed",
				   tdat_codec_name(w->codec));
	tdat_store32(w->big, buf, (uint32_t)clen);
	tdat_store32(w->big, buf + 4, (uint32_t)len);
	return emit(w, buf, 8 + clen, err);
}

/* A body as it is, or as one block when flags say compressed. */
static int put_body(struct tdat_writer *w, uint16_t flags, const void *data,
		    size_t len, struct tdat_error *err)
{
	if (flags & SECTION_COMPRESSED)
		return put_block(w, data, len, err);
	return emit(w, data, len, err);
}

/* A metadata-like section, one block when the file is compressed. */
static int put_block_section(struct tdat_writer *w, uint16_t id,
			     const char *desc, const void *data, size_t len,
			     uint64_t *hdr, struct tdat_error *err)
{
	uint16_t flags = w->codec != TDAT_CODEC_NONE;

	if (section_begin(w, id, flags, desc, hdr, err) ||
	    put_body(w, flags, data, len, err))
		return -1;
	return section_end(w, *hdr, err);
}

int v7_put_strings(struct tdat_writer *w, struct tdat_error *err)
{
	uint16_t flags = w->codec != TDAT_CODEC_NONE;
	uint64_t hdr;

	/* Not put_block_section: the table names itself, so "strings" has
	 * to be added before the table is read. */
	if (section_begin(w, TDAT_OPT_STRINGS, flags, "strings", &hdr, err) ||
	    put_body(w, flags, w->strings.data, w->strings.len, err))
		return -1;
	return section_end(w, hdr, err);
}

/* ---- unknown sections ---- */

/* The body of a compressed section x, decompressed (len bytes), or NULL. */
static uint8_t *unpack_extra(struct tdat_writer *w,
			     const struct tdat_extra_section *x, uint32_t *len,
			     struct tdat_error *err)
{
	struct codec_ctx in;
	uint32_t c, u;
	uint8_t *buf;
	int r;

	if (x->body.len < 8) {
		writer_fail(w, err, "section %u: compressed block has no"
			    " header", x->id);
		return NULL;
	}
	c = tdat_load32(w->big, x->body.data);
	u = tdat_load32(w->big, x->body.data + 4);
	if (c > x->body.len - 8 || u > TDAT_MAX_BLOB) {
		writer_fail(w, err, "section %u: implausible compressed block"
			    " sizes", x->id);
		return NULL;
	}
	buf = budget_fits(u) ? malloc(u ? u : 1) : NULL;
	if (!buf) {
		tdat_budget_fail(err, w->meta->path, x->offset, "section", u);
		return NULL;
	}
	codec_ctx_init(&in, w->meta->codec, 0);
	r = codec_decompress(&in, x->body.data + 8, c, buf, u);
	codec_ctx_free(&in);
	if (r) {
		free(buf);
		writer_fail(w, err, "section %u: compressed data is corrupt",
			    x->id);
		return NULL;
	}
	*len = u;
	return buf;
}

/* An unknown section: verbatim, unless its compression has to change. */
static int put_extra(struct tdat_writer *w,
		     const struct tdat_extra_section *x,
		     struct tdat_error *err)
{
	uint16_t flags = x->flags;
	uint64_t hdr;
	uint8_t *buf;
	uint32_t len;
	int r;

	if (!(flags & SECTION_COMPRESSED) || w->meta->codec == w->codec)
		return section_begin(w, x->id, flags, x->description, &hdr,
				     err) ||
		       emit(w, x->body.data, x->body.len, err) ||
		       section_end(w, hdr, err) ? -1 : 0;
	buf = unpack_extra(w, x, &len, err);
	if (!buf)
		return -1;
	if (w->codec == TDAT_CODEC_NONE)
		flags &= (uint16_t)~SECTION_COMPRESSED;
	r = section_begin(w, x->id, flags, x->description, &hdr, err) ||
	    put_body(w, flags, buf, len, err) || section_end(w, hdr, err);
	free(buf);
	return r ? -1 : 0;
}

/* ---- options sections ---- */

/* An options section: list + DONE, linked from the previous one. */
static int put_options_section(struct tdat_writer *w, struct tdat_bytes *list,
			       struct tdat_error *err)
{
	uint8_t zero[8] = { 0 };
	uint64_t hdr;

	if (bytes_add_option(w, list, TDAT_OPT_DONE, 8, zero))
		return writer_oom(w, err);
	if (section_begin(w, TDAT_OPT_DONE, 0, "options", &hdr, err) ||
	    emit(w, list->data, list->len, err) || section_end(w, hdr, err) ||
	    patch64(w, w->done_patch, hdr, err))
		return -1;
	w->done_patch = w->out.pos - 8;
	return 0;
}

/*
 * Options section #1: the user's options; #2: the section offsets and our
 * CPUCOUNT.  Keeping that CPUCOUNT beside the offset options is how a
 * reader tells it from a user's CPUCOUNT.
 */
static int v7_options(struct tdat_writer *w, const uint64_t *off,
		      struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	const struct tdat_option *clock = tdat_find_option(m,
							   TDAT_OPT_TRACECLOCK);
	struct tdat_bytes list = { 0 };
	struct tdat_blob shown;
	uint8_t b[8];
	int i, r;

	/* the TRACECLOCK a v6 input needs to show times alike (v6shown.c) */
	r = v6shown_option(m, "v7", &shown, err);
	if (r < 0) {
		w->broken = 1;
		return -1;
	}
	for (i = 0; i < m->noptions; i++) {
		const struct tdat_option *o = &m->options[i];
		int own = r && o == clock;

		if (bytes_add_option(w, &list, o->id,
				     own ? (uint32_t)shown.len : o->size,
				     own ? shown.data : o->data))
			goto nomem;
	}
	tdat_blob_free(&shown);
	if (m->noptions && put_options_section(w, &list, err)) {
		tdat_bytes_free(&list);
		return -1;
	}
	list.len = 0;
	for (i = 0; i < TDAT_META_COUNT; i++) {
		if (!off[i])
			continue;
		tdat_store64(w->big, b, off[i]);
		if (bytes_add_option(w, &list, (uint16_t)(TDAT_META_FIRST + i),
				     8, b))
			goto nomem;
	}
	tdat_store32(w->big, b, w->cpu_count);
	if (bytes_add_option(w, &list, TDAT_OPT_CPUCOUNT, 4, b))
		goto nomem;
	r = put_options_section(w, &list, err);
	tdat_bytes_free(&list);
	return r;
nomem:
	tdat_blob_free(&shown);
	tdat_bytes_free(&list);
	return writer_oom(w, err);
}

/* An options section holding just this buffer's option. */
static int put_buffer_option(struct tdat_writer *w, uint16_t id,
			     const struct tdat_bytes *payload,
			     struct tdat_error *err)
{
	struct tdat_bytes list = { 0 };
	int r;

	if (payload->len > UINT32_MAX ||
	    bytes_add_option(w, &list, id, (uint32_t)payload->len,
			     payload->data)) {
		tdat_bytes_free(&list);
		return writer_oom(w, err);
	}
	r = put_options_section(w, &list, err);
	tdat_bytes_free(&list);
	return r;
}

/* u64 section offset, name, clock: how BUFFER and BUFFER_TEXT begin. */
static int buffer_option_head(struct tdat_writer *w, struct tdat_bytes *opt,
			      const struct wbuf *wb)
{
	const char *clock = wb->b->clock ? wb->b->clock : "";
	uint8_t v[8];

	tdat_store64(w->big, v, wb->start);
	return tdat_bytes_add(opt, v, 8) ||
	       tdat_bytes_add(opt, wb->b->name, strlen(wb->b->name) + 1) ||
	       tdat_bytes_add(opt, clock, strlen(clock) + 1);
}

/* ---- the file ---- */

static const char *const meta_desc[TDAT_META_COUNT] = {
	[TDAT_META_HEADERS] = "headers",
	[TDAT_META_FTRACE] = "ftrace events",
	[TDAT_META_EVENTS] = "events format",
	[TDAT_META_KALLSYMS] = "kallsyms",
	[TDAT_META_PRINTK] = "printk",
	[TDAT_META_CMDLINES] = "command lines",
	[TDAT_META_BTF] = "BTF",
	[TDAT_META_MODULES] = "modules",
};

/* A section as the input stored it: its bytes copied a window at a time. */
static int put_stored(struct tdat_writer *w, int i, uint64_t *hdr,
		      struct tdat_error *err)
{
	const struct tdat_stored *s = &w->meta->priv->stored[i];
	uint64_t pos;
	uint8_t *buf;

	if (section_begin(w, (uint16_t)(TDAT_META_FIRST + i),
			  SECTION_COMPRESSED, meta_desc[i], hdr, err))
		return -1;
	if (s->bytes.len) {
		if (emit(w, s->bytes.data, s->bytes.len, err))
			return -1;
		return section_end(w, *hdr, err);
	}
	if (!(buf = writer_scratch(w, 1u << 16)))
		return writer_oom(w, err);
	for (pos = 0; pos < s->size; pos += 1u << 16) {
		size_t n = s->size - pos < (1u << 16) ?
			   (size_t)(s->size - pos) : (1u << 16);

		if (stored_read(w->meta, i, pos, buf, n, err)) {
			w->broken = 1;
			return -1;
		}
		if (emit(w, buf, n, err))
			return -1;
	}
	return section_end(w, *hdr, err);
}

/*
 * A metadata section.  Its stored bytes when they still stand for its
 * content and decode with the output's codec (no level asked for, so no
 * recompression is wanted): they decode to the same content, and
 * kallsyms is megabytes to compress again.
 */
static int put_meta(struct tdat_writer *w, int i, uint64_t *hdr,
		    struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	const struct tdat_stored *s = tdat_meta_stored(m, i);
	uint16_t id = (uint16_t)(TDAT_META_FIRST + i);
	struct tdat_blob b;
	int r;

	if (s && s->codec == w->codec && s->big_endian == w->big &&
	    !w->level)
		return put_stored(w, i, hdr, err);
	if (!tdat_meta_pending(m, i))
		return put_block_section(w, id, meta_desc[i], m->meta[i].data,
					 m->meta[i].len, hdr, err);
	if (tdat_meta_decode(m, i, &b, err)) {
		w->broken = 1;
		return -1;
	}
	r = put_block_section(w, id, meta_desc[i], b.data, b.len, hdr, err);
	free(b.data);
	return r;
}

int v7_start(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	const char *name = tdat_codec_name(w->codec);
	const char *ver = tdat_codec_lib_version(w->codec);
	uint64_t off[TDAT_META_COUNT] = { 0 };
	int i;

	if (emit_initial_header(w, "7", err) ||
	    emit(w, name, strlen(name) + 1, err) ||
	    emit(w, ver, strlen(ver) + 1, err))
		return -1;
	w->done_patch = w->out.pos;	/* the first-options field */
	if (emit64(w, 0, err))
		return -1;
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (m->priv->meta_present[i] && meta_desc[i] &&
		    put_meta(w, i, &off[i], err))
			return -1;
	for (i = 0; i < m->nextra; i++)
		if (put_extra(w, &m->extra[i], err))
			return -1;
	/* A high level sizes the context for kallsyms (tens of MiB at 19):
	 * no need to keep that while the workers compress the data. */
	codec_ctx_free(&w->cc);
	return v7_options(w, off, err);
}

/* ---- buffers ---- */

int v7_start_flyrecord(struct tdat_writer *w, struct wbuf *wb,
		       struct tdat_error *err)
{
	char desc[300];

	/* trace-cmd's descriptions: the top one ends in a space. */
	snprintf(desc, sizeof(desc), "buffer flyrecord %s", wb->b->name);
	if (section_begin(w, TDAT_OPT_BUFFER, w->codec != TDAT_CODEC_NONE,
			  desc, &wb->start, err))
		return -1;
	wb->started = 1;
	return 0;
}

/* Patch the section size, then BUFFER: page size, CPUs with data. */
int v7_finish_flyrecord(struct tdat_writer *w, struct wbuf *wb,
			struct tdat_error *err)
{
	struct tdat_bytes opt = { 0 };
	uint8_t v[20];
	int i, r;

	if (!wb->started) {
		/* Like trace-cmd, leave out a top buffer whose CPUs had no
		 * data (v6 lists every CPU); keep one described with no CPUs
		 * at all (a v7 BUFFER option with 0 CPUs): its clock and
		 * page size are all it says. */
		if (!wb->b->name[0] && wb->b->ncpus)
			return 0;
		if (v7_start_flyrecord(w, wb, err))
			return -1;
	}
	if (section_end(w, wb->start, err))
		return -1;
	tdat_store32(w->big, v, wb->page_size);
	tdat_store32(w->big, v + 4, (uint32_t)wb->ncpus);
	r = buffer_option_head(w, &opt, wb) || tdat_bytes_add(&opt, v, 8);
	for (i = 0; !r && i < wb->ncpus; i++) {
		tdat_store32(w->big, v, (uint32_t)wb->cpus[i].cpu);
		tdat_store64(w->big, v + 4, wb->cpus[i].offset);
		tdat_store64(w->big, v + 12, wb->cpus[i].size);
		r = tdat_bytes_add(&opt, v, 20);
	}
	r = r ? writer_oom(w, err) :
		put_buffer_option(w, TDAT_OPT_BUFFER, &opt, err);
	tdat_bytes_free(&opt);
	return r;
}

/* The text as it is, or in chunks of 10 pages when compressed. */
int v7_latency(struct tdat_writer *w, struct wbuf *wb, const uint8_t *text,
	       size_t len, struct tdat_error *err)
{
	uint16_t flags = w->codec != TDAT_CODEC_NONE;
	struct tdat_bytes opt = { 0 };
	uint64_t count_at;
	int r;

	if (section_begin(w, TDAT_OPT_BUFFER_TEXT, flags, "buffer latency",
			  &wb->start, err))
		return -1;
	if (!flags) {
		if (emit(w, text, len, err))
			return -1;
	} else {
		count_at = w->out.pos;
		if (chunks_begin(w, err) ||
		    chunks_add(w, text, len, 10 * (size_t)w->page_size, err) ||
		    chunks_end(w, count_at, err))
			return -1;
	}
	if (section_end(w, wb->start, err))
		return -1;
	r = buffer_option_head(w, &opt, wb) ? writer_oom(w, err) :
	    put_buffer_option(w, TDAT_OPT_BUFFER_TEXT, &opt, err);
	tdat_bytes_free(&opt);
	return r;
}
