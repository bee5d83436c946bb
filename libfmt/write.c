/*
 * write.c - writing trace.dat v6 and v7.
 *
 * The metadata (header, texts, options, extra sections) goes out in
 * tdat_writer_open; trace data then arrives buffer by buffer, CPU by CPU,
 * and the tables that describe it (v6 CPU tables, v7 BUFFER options,
 * section sizes, chunk counts) are patched in once it is known.  The
 * layouts are trace-cmd's (FORMAT.md 3, 4.10, 9.3), so that a v6 file
 * rewritten as v6 comes out byte for byte the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/* One CPU stream as written. */
struct wcpu {
	int cpu;
	int begun;
	uint64_t offset;
	uint64_t size;
};

/* Output state of one buffer of meta. */
struct wbuf {
	const struct tdat_buffer *b;
	int keep;		/* the output version can hold it */
	int started;		/* v6 block / v7 section header written */
	int finished;
	uint32_t page_size;
	uint32_t chunk_size;
	uint64_t start;		/* v6 "flyrecord" / v7 section header */
	uint64_t table;		/* v6: the CPU table */
	uint64_t v6_patch;	/* v6: offset field of its BUFFER option */
	int ncpus;
	struct wcpu *cpus;	/* v6: one per CPU id; v7: those with data */
};

/* A growing byte buffer, for option lists and the strings table. */
struct bytes {
	uint8_t *p;
	size_t len, cap;
};

struct tdat_writer {
	struct outfile out;
	const struct tdat_file *meta;
	int version;
	int big;
	enum tdat_codec codec;	/* NONE for v6 */
	int level;
	int threads;
	uint32_t cpu_count;
	uint32_t page_size;
	struct codec_ctx cc;	/* blocks, and checking copied chunks */
	struct chunkpool *pool;
	size_t chunk_max;

	int nbufs;
	struct wbuf *bufs;
	int cur;		/* the buffer being written */

	/* the CPU stream being written */
	int in_cpu;
	struct wcpu *cpu;
	struct wcpu v7cpu;
	uint64_t stream;	/* its file offset; 0 until data came */
	uint32_t nchunks;
	uint8_t *fill;		/* chunk being filled (pool buffer) */
	size_t filled;

	uint64_t done_patch;	/* v7: where the next options offset goes */
	struct bytes strings;
	uint8_t *scratch;
	size_t scratch_cap;
	int broken;
};

/* Every failure leaves the writer good only for tdat_writer_abort. */
static int failf(struct tdat_writer *w, struct tdat_error *err,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int failf(struct tdat_writer *w, struct tdat_error *err,
		 const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->broken = 1;
	return tdat_fail(err, w->out.path, w->out.pos, "%s", msg);
}

static int oom(struct tdat_writer *w, struct tdat_error *err)
{
	return failf(w, err, "out of memory");
}

/* ---- small output helpers ---- */

static int bytes_add(struct bytes *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		uint8_t *q;

		while (cap < b->len + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q)
			return -1;
		b->p = q;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

static int put(struct tdat_writer *w, const void *p, size_t n,
	       struct tdat_error *err)
{
	if (out_write(&w->out, p, n, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

static int put16(struct tdat_writer *w, uint16_t v, struct tdat_error *err)
{
	uint8_t b[2];

	tdat_store16(w->big, b, v);
	return put(w, b, 2, err);
}

static int put32(struct tdat_writer *w, uint32_t v, struct tdat_error *err)
{
	uint8_t b[4];

	tdat_store32(w->big, b, v);
	return put(w, b, 4, err);
}

static int put64(struct tdat_writer *w, uint64_t v, struct tdat_error *err)
{
	uint8_t b[8];

	tdat_store64(w->big, b, v);
	return put(w, b, 8, err);
}

static int patch32(struct tdat_writer *w, uint64_t off, uint32_t v,
		   struct tdat_error *err)
{
	uint8_t b[4];

	tdat_store32(w->big, b, v);
	if (out_pwrite(&w->out, off, b, 4, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

static int patch64(struct tdat_writer *w, uint64_t off, uint64_t v,
		   struct tdat_error *err)
{
	uint8_t b[8];

	tdat_store64(w->big, b, v);
	if (out_pwrite(&w->out, off, b, 8, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

static int align(struct tdat_writer *w, uint32_t to, struct tdat_error *err)
{
	if (out_align(&w->out, to, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

static int put_zeros(struct tdat_writer *w, uint64_t n,
		     struct tdat_error *err)
{
	static const uint8_t zero[4096];

	while (n) {
		size_t k = n < sizeof(zero) ? (size_t)n : sizeof(zero);

		if (put(w, zero, k, err))
			return -1;
		n -= k;
	}
	return 0;
}

static uint8_t *scratch(struct tdat_writer *w, size_t n)
{
	if (n > w->scratch_cap) {
		uint8_t *p = realloc(w->scratch, n);

		if (!p)
			return NULL;
		w->scratch = p;
		w->scratch_cap = n;
	}
	return w->scratch;
}

/* ---- both versions ---- */

static int put_initial_header(struct tdat_writer *w, struct tdat_error *err)
{
	uint8_t h[18] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	h[10] = (uint8_t)('0' + w->version);
	h[11] = 0;
	h[12] = (uint8_t)w->big;
	h[13] = (uint8_t)w->meta->long_size;
	tdat_store32(w->big, h + 14, w->page_size);
	return put(w, h, sizeof(h), err);
}

/* Append a user or generated option (u16 id, u32 size, data) to a list. */
static int option_add(struct tdat_writer *w, struct bytes *list, uint16_t id,
		      uint32_t size, const void *data)
{
	uint8_t h[6];

	tdat_store16(w->big, h, id);
	tdat_store32(w->big, h + 2, size);
	return bytes_add(list, h, sizeof(h)) || bytes_add(list, data, size);
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

/* ---- v6 ---- */

/* What v6 holds when a part is missing from meta: the empty form. */
static int v6_empty_part(struct tdat_writer *w, int i, struct tdat_error *err)
{
	switch (i) {
	case TDAT_META_HEADERS:
		return put(w, "header_page", 12, err) || put64(w, 0, err) ||
		       put(w, "header_event", 13, err) || put64(w, 0, err);
	case TDAT_META_CMDLINES:
		return put64(w, 0, err);
	default:
		return put32(w, 0, err);
	}
}

static int v6_top_is_latency(const struct tdat_writer *w)
{
	const struct tdat_buffer *top = tdat_top_buffer(w->meta);

	return top && top->latency;
}

/* A v6 BUFFER option: u64 offset (patched when the block is written), name. */
static int v6_buffer_option(struct tdat_writer *w, struct bytes *list,
			    const char *name)
{
	size_t n = strlen(name) + 1;
	uint8_t *d = calloc(1, 8 + n);
	int r;

	if (!d)
		return -1;
	memcpy(d + 8, name, n);
	r = option_add(w, list, TDAT_OPT_BUFFER, (uint32_t)(8 + n), d);
	free(d);
	return r;
}

/* "options  \0", the user's options, one BUFFER per instance, u16 0. */
static int v6_options(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	struct bytes list = { 0 };
	uint64_t base = w->out.pos + 10;	/* where the list starts */
	int latency = v6_top_is_latency(w), i, r;

	for (i = 0; i < m->noptions; i++) {
		const struct tdat_option *o = &m->options[i];

		/* The reader would eat the latency text as a clock record. */
		if (latency && o->id == TDAT_OPT_TRACECLOCK)
			continue;
		if (option_add(w, &list, o->id, o->size, o->data))
			goto nomem;
	}
	for (i = 0; i < w->nbufs; i++) {
		struct wbuf *wb = &w->bufs[i];

		if (!wb->keep || !wb->b->name[0])
			continue;
		wb->v6_patch = base + list.len + 6;
		if (v6_buffer_option(w, &list, wb->b->name))
			goto nomem;
	}
	r = put(w, "options  ", 10, err) || put(w, list.p, list.len, err) ||
	    put16(w, 0, err);
	free(list.p);
	return r ? -1 : 0;
nomem:
	free(list.p);
	return oom(w, err);
}

/* u64 length, then "[clock]" without a NUL; just a zero length if unknown. */
static int v6_clock_record(struct tdat_writer *w, const char *clock,
			   struct tdat_error *err)
{
	size_t n = clock ? strlen(clock) : 0;

	if (!n)
		return put64(w, 0, err);
	return put64(w, n + 2, err) || put(w, "[", 1, err) ||
	       put(w, clock, n, err) || put(w, "]", 1, err);
}

/* "flyrecord\0", a CPU table to patch, the clock record, padding. */
static int v6_start_block(struct tdat_writer *w, struct wbuf *wb,
			  const char *clock, struct tdat_error *err)
{
	wb->start = w->out.pos;
	if (wb->v6_patch && patch64(w, wb->v6_patch, wb->start, err))
		return -1;
	if (put(w, "flyrecord", 10, err))
		return -1;
	wb->table = w->out.pos;
	if (put_zeros(w, (uint64_t)w->cpu_count * 16, err) ||
	    v6_clock_record(w, clock, err) || align(w, w->page_size, err))
		return -1;
	wb->started = 1;
	return 0;
}

/* Fill the CPU table: a CPU without data points where its data would be. */
static int v6_finish_block(struct tdat_writer *w, struct wbuf *wb,
			   struct tdat_error *err)
{
	uint64_t next = w->out.pos;
	uint8_t *t;
	int i, r;

	if (!wb->started &&
	    v6_start_block(w, wb, wb->b ? wb->b->clock : "", err))
		return -1;
	t = calloc(w->cpu_count ? w->cpu_count : 1, 16);
	if (!t)
		return oom(w, err);
	for (i = wb->ncpus - 1; i >= 0; i--) {
		struct wcpu *c = &wb->cpus[i];

		if (c->begun)
			next = c->offset;
		else
			c->offset = next;
		tdat_store64(w->big, t + 16 * i, c->offset);
		tdat_store64(w->big, t + 16 * i + 8, c->size);
	}
	r = out_pwrite(&w->out, wb->table, t, (size_t)w->cpu_count * 16, err);
	free(t);
	if (r)
		w->broken = 1;
	return r;
}

/* One table slot per CPU id below the CPU count. */
static int v6_alloc_cpus(struct tdat_writer *w, struct wbuf *wb)
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

static int v6_start(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	struct wbuf top;
	char clock[64];
	int i, r;

	if (put_initial_header(w, err))
		return -1;
	for (i = 0; i < TDAT_META_V6_COUNT; i++) {
		if (!m->meta_present[i] ? v6_empty_part(w, i, err) :
		    put(w, m->meta[i].data, m->meta[i].len, err))
			return -1;
	}
	if (put32(w, w->cpu_count, err) || v6_options(w, err))
		return -1;
	if (v6_top_is_latency(w))
		return put(w, "latency  ", 10, err);
	if (tdat_top_buffer(m))
		return 0;
	/* v6 always has a top flyrecord: write an empty one now. */
	memset(&top, 0, sizeof(top));
	if (v6_alloc_cpus(w, &top))
		return oom(w, err);
	traceclock_name(m, clock, sizeof(clock));
	r = v6_start_block(w, &top, clock, err) ||
	    v6_finish_block(w, &top, err);
	free(top.cpus);
	return r ? -1 : 0;
}

/* ---- v7 ---- */

static int32_t add_string(struct tdat_writer *w, const char *s)
{
	size_t at = w->strings.len;

	if (at > INT32_MAX || bytes_add(&w->strings, s, strlen(s) + 1))
		return -1;
	return (int32_t)at;
}

static int section_begin(struct tdat_writer *w, uint16_t id, uint16_t flags,
			 const char *desc, uint64_t *hdr,
			 struct tdat_error *err)
{
	int32_t sid = desc ? add_string(w, desc) : -1;

	*hdr = w->out.pos;
	return put16(w, id, err) || put16(w, flags, err) ||
	       put32(w, (uint32_t)sid, err) || put64(w, 0, err);
}

static int section_end(struct tdat_writer *w, uint64_t hdr,
		       struct tdat_error *err)
{
	return patch64(w, hdr + 8, w->out.pos - hdr - 16, err);
}

/* A section body as one compression block: u32 c, u32 u, data. */
static int put_block(struct tdat_writer *w, const void *data, size_t len,
		     struct tdat_error *err)
{
	size_t cap = codec_bound(w->codec, len), clen;
	uint8_t *buf;

	if (len > UINT32_MAX || cap > UINT32_MAX - 8)
		return failf(w, err, "a section of %zu bytes is too large for"
			     " one compression block", len);
	buf = scratch(w, 8 + cap);
	if (!buf)
		return oom(w, err);
	if (codec_compress(&w->cc, data, len, buf + 8, cap, &clen))
		return failf(w, err, "%s compression failed",
			     tdat_codec_name(w->codec));
	tdat_store32(w->big, buf, (uint32_t)clen);
	tdat_store32(w->big, buf + 4, (uint32_t)len);
	return put(w, buf, 8 + clen, err);
}

/* A metadata-like section, one block when the file is compressed. */
static int put_block_section(struct tdat_writer *w, uint16_t id,
			     const char *desc, const void *data, size_t len,
			     uint64_t *hdr, struct tdat_error *err)
{
	int z = w->codec != TDAT_CODEC_NONE;

	if (section_begin(w, id, (uint16_t)z, desc, hdr, err))
		return -1;
	if (z ? put_block(w, data, len, err) : put(w, data, len, err))
		return -1;
	return section_end(w, *hdr, err);
}

/* An options section: list + DONE, linked from the previous one. */
static int put_options_section(struct tdat_writer *w, struct bytes *list,
			       struct tdat_error *err)
{
	uint8_t zero[8] = { 0 };
	uint64_t hdr;

	if (option_add(w, list, TDAT_OPT_DONE, 8, zero))
		return oom(w, err);
	if (section_begin(w, TDAT_OPT_DONE, 0, "options", &hdr, err) ||
	    put(w, list->p, list->len, err) || section_end(w, hdr, err) ||
	    patch64(w, w->done_patch, hdr, err))
		return -1;
	w->done_patch = w->out.pos - 8;
	return 0;
}

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

/* An unknown section: verbatim, unless its compression has to change. */
static int put_extra(struct tdat_writer *w,
		     const struct tdat_extra_section *x,
		     struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	struct codec_ctx in;
	uint16_t flags = x->flags;
	uint64_t hdr;
	uint32_t c, u;
	uint8_t *buf;
	int r;

	if (!(flags & 1) || m->codec == w->codec)
		return section_begin(w, x->id, flags, x->description, &hdr,
				     err) ||
		       put(w, x->body.data, x->body.len, err) ||
		       section_end(w, hdr, err) ? -1 : 0;
	if (x->body.len < 8)
		return failf(w, err, "section %u: compressed block has no"
			     " header", x->id);
	c = tdat_load32(w->big, x->body.data);
	u = tdat_load32(w->big, x->body.data + 4);
	if (c > x->body.len - 8 || u > TDAT_MAX_BLOB)
		return failf(w, err, "section %u: implausible compressed block"
			     " sizes", x->id);
	buf = malloc(u ? u : 1);
	if (!buf)
		return oom(w, err);
	codec_ctx_init(&in, m->codec, 0);
	r = codec_decompress(&in, x->body.data + 8, c, buf, u);
	codec_ctx_free(&in);
	if (r) {
		free(buf);
		return failf(w, err, "section %u: compressed data is corrupt",
			     x->id);
	}
	if (w->codec == TDAT_CODEC_NONE)
		flags &= (uint16_t)~1;
	r = section_begin(w, x->id, flags, x->description, &hdr, err) ||
	    (flags & 1 ? put_block(w, buf, u, err) : put(w, buf, u, err)) ||
	    section_end(w, hdr, err);
	free(buf);
	return r ? -1 : 0;
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
	struct bytes list = { 0 };
	uint8_t b[8];
	int i, r;

	for (i = 0; i < m->noptions; i++)
		if (option_add(w, &list, m->options[i].id, m->options[i].size,
			       m->options[i].data))
			goto nomem;
	if (m->noptions && put_options_section(w, &list, err)) {
		free(list.p);
		return -1;
	}
	list.len = 0;
	for (i = 0; i < TDAT_META_COUNT; i++) {
		if (!off[i])
			continue;
		tdat_store64(w->big, b, off[i]);
		if (option_add(w, &list, (uint16_t)(TDAT_META_FIRST + i), 8, b))
			goto nomem;
	}
	tdat_store32(w->big, b, w->cpu_count);
	if (option_add(w, &list, TDAT_OPT_CPUCOUNT, 4, b))
		goto nomem;
	r = put_options_section(w, &list, err);
	free(list.p);
	return r;
nomem:
	free(list.p);
	return oom(w, err);
}

/* Header, metadata sections, unknown sections, then the options. */
static int v7_start(struct tdat_writer *w, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	const char *name = tdat_codec_name(w->codec);
	const char *ver = tdat_codec_lib_version(w->codec);
	uint64_t off[TDAT_META_COUNT] = { 0 };
	int i;

	if (put_initial_header(w, err) || put(w, name, strlen(name) + 1, err) ||
	    put(w, ver, strlen(ver) + 1, err))
		return -1;
	w->done_patch = w->out.pos;	/* the first-options field */
	if (put64(w, 0, err))
		return -1;
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (m->meta_present[i] && meta_desc[i] &&
		    put_block_section(w, (uint16_t)(TDAT_META_FIRST + i),
				      meta_desc[i], m->meta[i].data,
				      m->meta[i].len, &off[i], err))
			return -1;
	for (i = 0; i < m->nextra; i++)
		if (put_extra(w, &m->extra[i], err))
			return -1;
	/* A high level sizes the context for kallsyms (tens of MiB at 19):
	 * no need to keep that while the workers compress the data. */
	codec_ctx_free(&w->cc);
	return v7_options(w, off, err);
}

static int v7_start_section(struct tdat_writer *w, struct wbuf *wb,
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

/* u64 section offset, name, clock: how BUFFER and BUFFER_TEXT begin. */
static int buffer_option_head(struct tdat_writer *w, struct bytes *opt,
			      const struct wbuf *wb)
{
	const char *clock = wb->b->clock ? wb->b->clock : "";
	uint8_t v[8];

	tdat_store64(w->big, v, wb->start);
	return bytes_add(opt, v, 8) ||
	       bytes_add(opt, wb->b->name, strlen(wb->b->name) + 1) ||
	       bytes_add(opt, clock, strlen(clock) + 1);
}

/* An options section holding just this buffer's option. */
static int put_buffer_option(struct tdat_writer *w, uint16_t id,
			     const struct bytes *payload,
			     struct tdat_error *err)
{
	struct bytes list = { 0 };
	int r;

	if (payload->len > UINT32_MAX ||
	    option_add(w, &list, id, (uint32_t)payload->len, payload->p)) {
		free(list.p);
		return oom(w, err);
	}
	r = put_options_section(w, &list, err);
	free(list.p);
	return r;
}

/* Patch the section size, then BUFFER: page size, CPUs with data. */
static int v7_finish_flyrecord(struct tdat_writer *w, struct wbuf *wb,
			       struct tdat_error *err)
{
	struct bytes opt = { 0 };
	uint8_t v[20];
	int i, r;

	if (!wb->started) {
		/* Like trace-cmd, leave out a top buffer without data. */
		if (!wb->b->name[0])
			return 0;
		if (v7_start_section(w, wb, err))
			return -1;
	}
	if (section_end(w, wb->start, err))
		return -1;
	tdat_store32(w->big, v, wb->page_size);
	tdat_store32(w->big, v + 4, (uint32_t)wb->ncpus);
	r = buffer_option_head(w, &opt, wb) || bytes_add(&opt, v, 8);
	for (i = 0; !r && i < wb->ncpus; i++) {
		tdat_store32(w->big, v, (uint32_t)wb->cpus[i].cpu);
		tdat_store64(w->big, v + 4, wb->cpus[i].offset);
		tdat_store64(w->big, v + 12, wb->cpus[i].size);
		r = bytes_add(&opt, v, 20);
	}
	r = r ? oom(w, err) : put_buffer_option(w, TDAT_OPT_BUFFER, &opt, err);
	free(opt.p);
	return r;
}

/* ---- compressed chunks ---- */

static int chunk_sink(void *ctx, uint8_t *out, uint32_t csize,
		      uint32_t usize, struct tdat_error *err)
{
	struct tdat_writer *w = ctx;

	if (!out)
		return failf(w, err, "%s compression of a %u-byte chunk failed",
			     tdat_codec_name(w->codec), usize);
	if (w->nchunks == UINT32_MAX)
		return failf(w, err, "too many chunks in one stream");
	tdat_store32(w->big, out, csize);
	tdat_store32(w->big, out + 4, usize);
	w->nchunks++;
	return put(w, out, 8 + (size_t)csize, err);
}

static int pool_ready(struct tdat_writer *w, struct tdat_error *err)
{
	if (!w->pool)
		w->pool = chunkpool_new(w->codec, w->level, w->threads,
					w->chunk_max, chunk_sink, w);
	return w->pool ? 0 : oom(w, err);
}

/* Queue the chunk being filled, if any. */
static int submit_fill(struct tdat_writer *w, struct tdat_error *err)
{
	size_t n = w->filled;

	if (!n)
		return 0;
	w->fill = NULL;
	w->filled = 0;
	if (chunkpool_submit(w->pool, n, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

static int flush_chunks(struct tdat_writer *w, struct tdat_error *err)
{
	if (submit_fill(w, err))
		return -1;
	if (w->pool && chunkpool_drain(w->pool, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

/* Fill chunks of chunk_size bytes; full ones go to the pool. */
static int put_chunked(struct tdat_writer *w, const uint8_t *p, size_t len,
		       size_t chunk_size, struct tdat_error *err)
{
	while (len) {
		size_t k;

		if (!w->fill && !(w->fill = chunkpool_buffer(w->pool, err))) {
			w->broken = 1;
			return -1;
		}
		k = chunk_size - w->filled;
		if (k > len)
			k = len;
		memcpy(w->fill + w->filled, p, k);
		w->filled += k;
		p += k;
		len -= k;
		if (w->filled == chunk_size && submit_fill(w, err))
			return -1;
	}
	return 0;
}

/* ---- buffers in order ---- */

static int v7_latency(struct tdat_writer *w, struct wbuf *wb,
		      const uint8_t *text, size_t len,
		      struct tdat_error *err)
{
	int z = w->codec != TDAT_CODEC_NONE;
	struct bytes opt = { 0 };
	uint64_t count_at;
	int r;

	if (section_begin(w, TDAT_OPT_BUFFER_TEXT, (uint16_t)z,
			  "buffer latency", &wb->start, err))
		return -1;
	if (!z) {
		if (put(w, text, len, err))
			return -1;
	} else {
		count_at = w->out.pos;
		w->nchunks = 0;
		if (pool_ready(w, err) || put32(w, 0, err) ||
		    put_chunked(w, text, len, 10 * (size_t)w->page_size, err) ||
		    flush_chunks(w, err) ||
		    patch32(w, count_at, w->nchunks, err))
			return -1;
	}
	if (section_end(w, wb->start, err))
		return -1;
	r = buffer_option_head(w, &opt, wb) ? oom(w, err) :
	    put_buffer_option(w, TDAT_OPT_BUFFER_TEXT, &opt, err);
	free(opt.p);
	return r;
}

static int finish_buffer(struct tdat_writer *w, struct wbuf *wb,
			 struct tdat_error *err)
{
	if (wb->finished)
		return 0;
	wb->finished = 1;
	if (!wb->keep)
		return 0;
	if (wb->b->latency)	/* v6: the text (if any) is out already */
		return w->version == 6 ? 0 : v7_latency(w, wb, NULL, 0, err);
	if (w->version == 6)
		return v6_finish_block(w, wb, err);
	return v7_finish_flyrecord(w, wb, err);
}

/* Buffers come in meta's order: finish the ones skipped on the way. */
static int goto_buffer(struct tdat_writer *w, int buf, struct tdat_error *err)
{
	if (w->broken)
		return failf(w, err, "the writer failed earlier");
	if (w->in_cpu)
		return failf(w, err, "CPU %d of buffer \"%s\" was not ended",
			     w->cpu->cpu, w->bufs[w->cur].b->name);
	if (buf < 0 || buf >= w->nbufs)
		return failf(w, err, "there is no buffer %d", buf);
	if (buf < w->cur || w->bufs[buf].finished)
		return failf(w, err, "buffer \"%s\" was already written"
			     " (buffers go in order)", w->bufs[buf].b->name);
	for (; w->cur < buf; w->cur++)
		if (finish_buffer(w, &w->bufs[w->cur], err))
			return -1;
	return 0;
}

/* ---- CPU streams ---- */

/* The first data of a CPU: align, and for chunks a count to patch. */
static int stream_start(struct tdat_writer *w, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (w->stream)
		return 0;
	if (w->version == 7 && !wb->started && v7_start_section(w, wb, err))
		return -1;
	if (align(w, w->version == 6 ? w->page_size : wb->page_size, err))
		return -1;
	w->stream = w->out.pos;
	w->cpu->offset = w->stream;
	w->nchunks = 0;
	if (w->codec != TDAT_CODEC_NONE)
		return pool_ready(w, err) || put32(w, 0, err) ? -1 : 0;
	return 0;
}

int tdat_writer_begin_cpu(struct tdat_writer *w, int buf, int cpu,
			  struct tdat_error *err)
{
	struct wbuf *wb;
	int i;

	if (goto_buffer(w, buf, err))
		return -1;
	wb = &w->bufs[buf];
	if (wb->b->latency)
		return failf(w, err, "buffer \"%s\" holds latency text, not"
			     " CPU data", wb->b->name);
	if (cpu < 0 || cpu > 65535)
		return failf(w, err, "CPU id %d is out of range", cpu);
	w->cpu = &w->v7cpu;
	memset(&w->v7cpu, 0, sizeof(w->v7cpu));
	w->v7cpu.cpu = cpu;
	if (!wb->keep)
		;	/* accepted and dropped: the output cannot hold it */
	else if (w->version == 6) {
		if ((uint32_t)cpu >= w->cpu_count)
			return failf(w, err, "v6 cannot hold CPU id %d (the CPU"
				     " count is %u)", cpu, w->cpu_count);
		if (!wb->started && v6_start_block(w, wb, wb->b->clock, err))
			return -1;
		w->cpu = &wb->cpus[cpu];
		if (w->cpu->begun)
			return failf(w, err, "buffer \"%s\": CPU %d written"
				     " twice", wb->b->name, cpu);
		w->cpu->begun = 1;
		w->cpu->offset = w->out.pos;
	} else {
		for (i = 0; i < wb->ncpus; i++)
			if (wb->cpus[i].cpu == cpu)
				return failf(w, err, "buffer \"%s\": CPU %d"
					     " written twice", wb->b->name,
					     cpu);
	}
	w->in_cpu = 1;
	w->stream = 0;
	w->nchunks = 0;
	w->fill = NULL;
	w->filled = 0;
	return 0;
}

static int check_stream(struct tdat_writer *w, struct tdat_error *err)
{
	if (w->broken)
		return failf(w, err, "the writer failed earlier");
	if (!w->in_cpu)
		return failf(w, err, "trace data given outside a CPU stream");
	return 0;
}

int tdat_writer_put_pages(struct tdat_writer *w, const void *data,
			  size_t len, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];

	if (check_stream(w, err))
		return -1;
	if (len % wb->page_size)
		return failf(w, err, "buffer \"%s\" CPU %d: %zu bytes are not"
			     " whole pages of %u bytes", wb->b->name,
			     w->cpu->cpu, len, wb->page_size);
	if (!len || !wb->keep)
		return 0;
	if (stream_start(w, err))
		return -1;
	if (w->codec == TDAT_CODEC_NONE)
		return put(w, data, len, err);
	return put_chunked(w, data, len, wb->chunk_size, err);
}

/* A chunk to copy must hold sane pages: never pass on corrupt input.
 * -2 (not -1) says the chunk is bad, so a caller can name where it is. */
static int check_chunk(struct tdat_writer *w, const void *data,
		       uint32_t csize, uint32_t usize, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];
	struct tdat_page_iter it;
	const char *why = NULL;
	uint8_t *buf = scratch(w, usize);
	uint32_t at;

	if (!buf)
		return oom(w, err);
	if (codec_decompress(&w->cc, data, csize, buf, usize))
		why = "does not decompress to the size it claims";
	for (at = 0; !why && at < usize; at += wb->page_size)
		if (tdat_page_iter_init(&it, w->meta, buf + at, wb->page_size))
			why = "holds a page whose commit is larger than the"
			      " page";
	if (!why)
		return 0;
	w->broken = 1;
	tdat_fail_nooff(err, w->meta->path ? w->meta->path : w->out.path,
			"buffer \"%s\" CPU %d: %s chunk %u (%u bytes) %s",
			wb->b->name, w->cpu->cpu, tdat_codec_name(w->codec),
			w->nchunks, usize, why);
	return -2;
}

int tdat_writer_put_chunk(struct tdat_writer *w, const void *data,
			  uint32_t csize, uint32_t usize,
			  struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];
	uint8_t h[8];
	int r;

	if (check_stream(w, err))
		return -1;
	if (w->codec == TDAT_CODEC_NONE)
		return failf(w, err, "a compressed chunk cannot go into an"
			     " uncompressed file");
	if (!wb->keep)
		return 0;
	if (!usize || usize % wb->page_size || usize > TDAT_MAX_CHUNK ||
	    csize > codec_bound(w->codec, usize))
		return failf(w, err, "buffer \"%s\" CPU %d: chunk to copy has"
			     " implausible sizes (%u compressed, %u)",
			     wb->b->name, w->cpu->cpu, csize, usize);
	if (stream_start(w, err) || flush_chunks(w, err))
		return -1;
	r = check_chunk(w, data, csize, usize, err);
	if (r)
		return r;
	tdat_store32(w->big, h, csize);
	tdat_store32(w->big, h + 4, usize);
	if (w->nchunks == UINT32_MAX)
		return failf(w, err, "too many chunks in one stream");
	w->nchunks++;
	return put(w, h, 8, err) || put(w, data, csize, err) ? -1 : 0;
}

int tdat_writer_end_cpu(struct tdat_writer *w, struct tdat_error *err)
{
	struct wbuf *wb = &w->bufs[w->cur];
	struct wcpu *c;

	if (check_stream(w, err))
		return -1;
	w->in_cpu = 0;
	if (!wb->keep || !w->stream)
		return 0;	/* no data: v6 keeps a size 0 entry */
	if (w->codec != TDAT_CODEC_NONE &&
	    (flush_chunks(w, err) || patch32(w, w->stream, w->nchunks, err)))
		return -1;
	w->cpu->size = w->out.pos - w->stream;
	if (w->version == 6)
		return 0;
	c = realloc(wb->cpus, (size_t)(wb->ncpus + 1) * sizeof(*c));
	if (!c)
		return oom(w, err);
	wb->cpus = c;
	wb->cpus[wb->ncpus++] = w->v7cpu;
	return 0;
}

int tdat_writer_put_latency(struct tdat_writer *w, int buf, const void *text,
			    size_t len, struct tdat_error *err)
{
	struct wbuf *wb;

	if (goto_buffer(w, buf, err))
		return -1;
	wb = &w->bufs[buf];
	if (!wb->b->latency)
		return failf(w, err, "buffer \"%s\" is not a latency buffer",
			     wb->b->name);
	wb->finished = 1;
	if (!wb->keep)
		return 0;
	if (w->version == 6)	/* right after "latency  \0", to EOF */
		return put(w, text, len, err);
	return v7_latency(w, wb, text, len, err);
}

/* ---- open and close ---- */

static int setup_buffers(struct tdat_writer *w, const struct tdat_write_opts *o,
			 const char *path, struct tdat_error *err)
{
	const struct tdat_file *m = w->meta;
	int top_latency = v6_top_is_latency(w), i;

	w->nbufs = m->nbuffers;
	w->bufs = calloc(w->nbufs ? (size_t)w->nbufs : 1, sizeof(*w->bufs));
	if (!w->bufs)
		return tdat_fail_nooff(err, path, "out of memory");
	w->chunk_max = 10 * (size_t)w->page_size;	/* latency text */
	for (i = 0; i < w->nbufs; i++) {
		struct wbuf *wb = &w->bufs[i];
		const struct tdat_buffer *b = &m->buffers[i];

		wb->b = b;
		wb->page_size = b->page_size ? b->page_size : w->page_size;
		if (wb->page_size > TDAT_MAX_PAGE)
			return tdat_fail_nooff(err, path, "buffer \"%s\": page"
					       " size %u is too large", b->name,
					       wb->page_size);
		wb->chunk_size = o->chunk_size ? o->chunk_size :
						 10 * wb->page_size;
		if (!b->latency && wb->chunk_size % wb->page_size)
			return tdat_fail_nooff(err, path, "chunk size %u is not"
					       " a multiple of buffer \"%s\"'s"
					       " page size %u", wb->chunk_size,
					       b->name, wb->page_size);
		if (wb->chunk_size > w->chunk_max)
			w->chunk_max = wb->chunk_size;
		if (w->version == 7)
			wb->keep = 1;
		else if (!b->name[0])
			wb->keep = i == 0;
		else
			wb->keep = !b->latency && !top_latency;
		if (w->version == 6 && wb->keep && !b->latency &&
		    v6_alloc_cpus(w, wb))
			return tdat_fail_nooff(err, path, "out of memory");
	}
	return 0;
}

static void writer_free(struct tdat_writer *w)
{
	int i;

	chunkpool_free(w->pool);
	codec_ctx_free(&w->cc);
	for (i = 0; w->bufs && i < w->nbufs; i++)
		free(w->bufs[i].cpus);
	free(w->bufs);
	free(w->strings.p);
	free(w->scratch);
	free(w);
}

static int check_opts(const struct tdat_file *m, const struct tdat_write_opts *o,
		      const char *path, struct tdat_error *err)
{
	if (o->version != 6 && o->version != 7)
		return tdat_fail_nooff(err, path, "cannot write file version %d"
				       " (only 6 and 7)", o->version);
	if (o->version == 7 && (o->codec < TDAT_CODEC_NONE ||
				o->codec > TDAT_CODEC_ZSTD))
		return tdat_fail_nooff(err, path, "unknown compression %d",
				       (int)o->codec);
	if (m->page_size < 64 || m->page_size > TDAT_MAX_PAGE)
		return tdat_fail_nooff(err, path, "page size %u is not usable",
				       m->page_size);
	if (m->long_size != 4 && m->long_size != 8)
		return tdat_fail_nooff(err, path, "long size %d is not 4 or 8",
				       m->long_size);
	if (o->chunk_size > TDAT_MAX_CHUNK)
		return tdat_fail_nooff(err, path, "chunk size %u is larger than"
				       " %u", o->chunk_size, TDAT_MAX_CHUNK);
	return 0;
}

struct tdat_writer *tdat_writer_open(const char *path,
				     const struct tdat_file *meta,
				     const struct tdat_write_opts *o,
				     struct tdat_error *err)
{
	struct tdat_writer *w;
	long ncpu;

	if (check_opts(meta, o, path, err))
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w) {
		tdat_fail_nooff(err, path, "out of memory");
		return NULL;
	}
	w->out.fd = -1;
	w->meta = meta;
	w->version = o->version;
	w->big = meta->big_endian ? 1 : 0;
	w->page_size = meta->page_size;
	w->codec = o->version == 7 ? o->codec : TDAT_CODEC_NONE;
	w->level = o->level;
	w->threads = o->threads;
	if (w->threads <= 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		w->threads = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
	}
	w->cpu_count = tdat_cpus(meta);
	codec_ctx_init(&w->cc, w->codec, w->level);
	if (setup_buffers(w, o, path, err) || out_open(&w->out, path, err)) {
		writer_free(w);
		return NULL;
	}
	if (o->version == 6 ? v6_start(w, err) : v7_start(w, err)) {
		tdat_writer_abort(w);
		return NULL;
	}
	return w;
}

int tdat_writer_close(struct tdat_writer *w, struct tdat_error *err)
{
	uint64_t hdr;
	int z = w->codec != TDAT_CODEC_NONE;

	if (w->broken) {
		failf(w, err, "the writer failed earlier");
		goto fail;
	}
	if (w->in_cpu && tdat_writer_end_cpu(w, err))
		goto fail;
	for (; w->cur < w->nbufs; w->cur++)
		if (finish_buffer(w, &w->bufs[w->cur], err))
			goto fail;
	/* The strings table names itself, so "strings" is added first. */
	if (w->version == 7 &&
	    (section_begin(w, TDAT_OPT_STRINGS, (uint16_t)z, "strings", &hdr,
			   err) ||
	     (z ? put_block(w, w->strings.p, w->strings.len, err) :
		  put(w, w->strings.p, w->strings.len, err)) ||
	     section_end(w, hdr, err)))
		goto fail;
	if (out_commit(&w->out, err)) {
		writer_free(w);	/* out_commit removed the temporary file */
		return -1;
	}
	writer_free(w);
	return 0;
fail:
	tdat_writer_abort(w);
	return -1;
}

void tdat_writer_abort(struct tdat_writer *w)
{
	if (!w)
		return;
	out_abort(&w->out);
	writer_free(w);
}

uint32_t tdat_writer_chunk_size(const struct tdat_writer *w, int buf)
{
	if (buf < 0 || buf >= w->nbufs)
		return 0;
	return w->bufs[buf].chunk_size;
}

int tdat_writer_keeps_buffer(const struct tdat_writer *w, int buf)
{
	if (buf < 0 || buf >= w->nbufs)
		return 0;
	return w->bufs[buf].keep;
}
