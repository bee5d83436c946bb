/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkvariant - make SYNTHETIC trace.dat files from real ones, for formats
 * no machine here records: big-endian files and files from 32-bit
 * kernels.  The content is real (a fixture's metadata, options and
 * pages); only its encoding changes, and the file is written by libfmt's
 * writer (tdat_writer_*) in the input's version and codec.
 *
 * usage: mkvariant [--big-endian] [--long4] [--small] [--unknown]
 *                  [--section ID:TEXT]... [--zsection ID:TEXT]... IN OUT
 *
 * How the files are made, exactly:
 *
 * --big-endian  (input must be little endian)
 *   The endian byte is 1 and the writer writes every container integer
 *   (header, v6 CPU table and clock length, option ids and sizes, v7
 *   section headers, BUFFER options, chunk headers) big endian.  Before
 *   that this tool swaps, in the data it hands over:
 *   - the size fields inside the metadata parts, walking their v6 framing:
 *     header_page/header_event u64 sizes, ftrace and event format counts
 *     (u32) and sizes (u64), kallsyms and printk u32 sizes, cmdlines u64
 *     size.  The texts are unchanged;
 *   - the integer option payloads: CPUCOUNT (u32), TRACEID (u64),
 *     TSC2NSEC (u32, u32, u64).  TIME_SHIFT and GUEST are refused; text
 *     options and unknown ids are kept as they are;
 *   - in every page: the u64 timestamp, the commit word (and a stored
 *     missed-events count), every event header word with the mirrored bit
 *     layout (type_len in bits 27-31, time_delta in bits 0-26), every
 *     array[0] word (type 0, 29, 30, 31), and in each data event's
 *     payload the fields its event format declares (libtraceevent parses
 *     the formats of the file): 2, 4 and 8-byte scalars, the elements of
 *     static arrays of such types, __data_loc/__rel_loc words and the
 *     elements of dynamic arrays whose element size is 2, 4 or 8.  Char
 *     arrays, strings and flexible arrays (bprint's u32 buf[]) stay as
 *     they are.  Events without a format get only common_type (u16) and
 *     common_pid (s32) at offsets 0 and 4 swapped.
 *   Bytes after a page's commit area are kept.
 *
 * --long4  (input must have an 8-byte commit word)
 *   A 32-bit kernel's layout: the header_page text says `size:4` for
 *   commit and `offset:12; size:P-12` for data, the long-size byte is 4,
 *   and every page is repacked with a 12-byte header: timestamp, the
 *   commit word's low 32 bits (size and missed-event flags), then the
 *   data area moved 4 bytes forward (the same event bytes), and 4 zero
 *   bytes at the end.  A stored missed-events count becomes 4 bytes.
 *   The event formats are kept (so payload layouts are unchanged).
 *
 * --small
 *   Empty kallsyms and printk texts and at most 2 pages per CPU: small
 *   seeds for the fuzzer.
 *
 * --unknown
 *   Adds what no tool knows, to check it survives: an option with id 200
 *   (payload "unknown option payload\0") after the file's options, and in
 *   v7 files a section with id 40 (description "section from the future",
 *   body 16 bytes 0x00..0x0f, uncompressed).
 *
 * --section ID:TEXT, --zsection ID:TEXT  (v7 only; repeatable)
 *   Adds a section of id ID (description "test section ID") whose body is
 *   TEXT, after the input's own unknown sections (which are kept): as it
 *   is, or (--zsection) flagged compressed, as one block of the file's
 *   codec (u32 csize, u32 usize, data).  For merge's tests of sections
 *   it does not know.
 *
 * Options apply in the order long4, big-endian.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"
#include "libfmt/internal.h"

#define COMMIT_SIZE_MASK	0x07FFFFFFu
#define MISSED_EVENTS		(1ull << 31)
#define MISSED_STORED		(1ull << 30)
#define BATCH_PAGES		16

struct added {
	uint16_t id;
	int compress;
	const char *text;
};

struct variant {
	int big, long4, small, unknown;
	int nadded;
	struct added added[16];
	struct tdat_file *in;
	struct tdat_file *out;	/* what the writer is given */
	struct tep_handle *tep;	/* event formats, for payload fields */
	const char *why;	/* set when a page cannot be converted */
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mkvariant: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

/* ---- swapping little endian integers in place to big endian ---- */

static void to_big(uint8_t *p, int size)
{
	switch (size) {
	case 2:
		tdat_store16(1, p, tdat_load16(0, p));
		break;
	case 4:
		tdat_store32(1, p, tdat_load32(0, p));
		break;
	case 8:
		tdat_store64(1, p, tdat_load64(0, p));
		break;
	}
}

/* A mutable blob walked with bounds checks: where the next n bytes are. */
struct span {
	uint8_t *p;
	size_t len, pos;
};

static uint8_t *span_take(struct span *s, uint64_t n)
{
	uint8_t *at = s->p + s->pos;

	if (n > s->len - s->pos)
		die("%s: metadata part framing runs past its end", "input");
	s->pos += (size_t)n;
	return at;
}

/* Read a little-endian size field and leave it big endian. */
static uint64_t span_size(struct span *s, int width)
{
	uint8_t *p = span_take(s, (uint64_t)width);
	uint64_t v = width == 4 ? tdat_load32(0, p) : tdat_load64(0, p);

	to_big(p, width);
	return v;
}

static void span_cstr(struct span *s)
{
	uint8_t *nul = memchr(s->p + s->pos, 0, s->len - s->pos);

	if (!nul)
		die("%s: unterminated system name", "input");
	s->pos = (size_t)(nul - s->p) + 1;
}

static void swap_formats(struct span *s)
{
	uint64_t n = span_size(s, 4), i;

	for (i = 0; i < n; i++)
		span_take(s, span_size(s, 8));
}

/* The size fields of one metadata part (the v6 framing, FORMAT.md 3.1). */
static void swap_meta_part(int part, struct tdat_blob *b)
{
	struct span s = { b->data, b->len, 0 };
	uint64_t nsys, i;

	switch (part) {
	case TDAT_META_HEADERS:
		span_take(&s, 12);
		span_take(&s, span_size(&s, 8));
		span_take(&s, 13);
		span_take(&s, span_size(&s, 8));
		break;
	case TDAT_META_FTRACE:
		swap_formats(&s);
		break;
	case TDAT_META_EVENTS:
		nsys = span_size(&s, 4);
		for (i = 0; i < nsys; i++) {
			span_cstr(&s);
			swap_formats(&s);
		}
		break;
	case TDAT_META_KALLSYMS:
	case TDAT_META_PRINTK:
		span_take(&s, span_size(&s, 4));
		break;
	case TDAT_META_CMDLINES:
		span_take(&s, span_size(&s, 8));
		break;
	default:
		return;		/* BTF, modules: raw bytes */
	}
	if (s.pos != s.len)
		die("%s: metadata part has bytes after its framing", "input");
}

static void swap_option(struct tdat_option *o)
{
	char id[16];

	switch (o->id) {
	case TDAT_OPT_CPUCOUNT:
		if (o->size >= 4)
			to_big(o->data, 4);
		break;
	case TDAT_OPT_TRACEID:
		if (o->size >= 8)
			to_big(o->data, 8);
		break;
	case TDAT_OPT_TSC2NSEC:
		if (o->size >= 16) {
			to_big(o->data, 4);
			to_big(o->data + 4, 4);
			to_big(o->data + 8, 8);
		}
		break;
	case TDAT_OPT_TIME_SHIFT:
	case TDAT_OPT_GUEST:
		snprintf(id, sizeof(id), "%u", o->id);
		die("cannot byte-swap option %s", id);
	}
}

/* ---- event payloads ---- */

static int parse_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	struct variant *v = ctx;

	/* A format libtraceevent cannot parse only loses field swapping
	 * for that event (its common fields are still swapped). */
	tep_parse_event(v->tep, text, (unsigned long)len, system);
	return 0;
}

static void swap_elements(uint8_t *p, uint32_t len, uint32_t esize)
{
	uint32_t i;

	if (esize != 2 && esize != 4 && esize != 8)
		return;
	for (i = 0; i + esize <= len; i += esize)
		to_big(p + i, (int)esize);
}

static void swap_field(uint8_t *p, uint32_t len, struct tep_format_field *fl)
{
	uint32_t off = (uint32_t)fl->offset, size = (uint32_t)fl->size;
	uint32_t loc, doff, dlen;

	if (fl->offset < 0 || fl->size <= 0 || off > len || size > len - off)
		return;
	if (fl->flags & TEP_FIELD_IS_DYNAMIC) {
		if (size != 4) {
			to_big(p + off, (int)size);
			return;
		}
		loc = tdat_load32(0, p + off);
		to_big(p + off, 4);
		doff = loc & 0xffff;
		dlen = loc >> 16;
		if (fl->flags & TEP_FIELD_IS_RELATIVE)
			doff += off + size;
		if (fl->flags & TEP_FIELD_IS_STRING || doff > len ||
		    dlen > len - doff)
			return;
		swap_elements(p + doff, dlen, fl->elementsize);
		return;
	}
	if (fl->flags & TEP_FIELD_IS_ARRAY) {
		if (!(fl->flags & TEP_FIELD_IS_STRING))
			swap_elements(p + off, size, fl->elementsize);
		return;
	}
	to_big(p + off, (int)size);
}

static void swap_payload(struct variant *v, uint8_t *p, uint32_t len)
{
	struct tep_event *ev;
	struct tep_format_field *fl;

	if (len < 2)
		return;
	ev = tep_find_event(v->tep, tdat_load16(0, p));
	if (!ev) {
		to_big(p, 2);
		if (len >= 8)
			to_big(p + 4, 4);
		return;
	}
	for (fl = ev->format.common_fields; fl; fl = fl->next)
		swap_field(p, len, fl);
	for (fl = ev->format.fields; fl; fl = fl->next)
		swap_field(p, len, fl);
}

/* ---- pages ---- */

static int bad_page(struct variant *v, const char *why)
{
	v->why = why;
	return -1;
}

/* A little-endian page with a W-byte commit word becomes big endian. */
static int page_to_big(struct variant *v, uint8_t *pg, uint32_t psize, int w)
{
	uint32_t hdr = 8 + (uint32_t)w, pos, end;
	uint64_t commit = w == 8 ? tdat_load64(0, pg + 8) :
				   tdat_load32(0, pg + 8);

	to_big(pg, 8);
	to_big(pg + 8, w);
	if ((commit & COMMIT_SIZE_MASK) > psize - hdr)
		return bad_page(v, "commit larger than the page");
	end = hdr + (uint32_t)(commit & COMMIT_SIZE_MASK);
	if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) &&
	    end + (uint32_t)w <= psize)
		to_big(pg + end, w);
	for (pos = hdr; pos < end;) {
		uint8_t *p = pg + pos;
		uint32_t left = end - pos, word, type, delta, a0, len;

		if (left < 4)
			return bad_page(v, "item cut by the commit");
		word = tdat_load32(0, p);
		type = word & 0x1f;
		delta = word >> 5;
		tdat_store32(1, p, type << 27 | delta);
		if (type >= 1 && type <= 28) {
			len = 4 + 4 * type;
			if (len > left)
				return bad_page(v, "event cut by the commit");
			swap_payload(v, p + 4, 4 * type);
			pos += len;
			continue;
		}
		if (left < 8) {
			if (type == 29)
				break;
			return bad_page(v, "item cut by the commit");
		}
		a0 = tdat_load32(0, p + 4);
		to_big(p + 4, 4);
		if (type == 0) {
			if (a0 < 4 || (uint64_t)(a0 - 4 + 3) / 4 * 4 > left - 8)
				return bad_page(v, "long event cut");
			swap_payload(v, p + 8, a0 - 4);
			pos += 8 + (a0 - 4 + 3) / 4 * 4;
		} else if (type == 29) {
			if ((uint64_t)a0 + 4 > left)
				break;	/* padding to the page end */
			pos += 4 + a0;
		} else {
			pos += 8;
		}
	}
	return 0;
}

/* An 8-byte-commit page becomes a 12-byte-header page (32-bit kernel). */
static int page_to_long4(struct variant *v, uint8_t *pg, uint32_t psize)
{
	uint64_t commit = tdat_load64(0, pg + 8), missed = 0;
	uint32_t size = (uint32_t)(commit & COMMIT_SIZE_MASK);
	int stored = (commit & MISSED_EVENTS) && (commit & MISSED_STORED);

	if (commit >> 32)
		return bad_page(v, "commit word has high bits set");
	if (size > psize - 16)
		return bad_page(v, "commit larger than the page");
	if (stored && 16 + size + 8 <= psize)
		missed = tdat_load64(0, pg + 16 + size);
	tdat_store32(0, pg + 8, (uint32_t)commit);
	memmove(pg + 12, pg + 16, psize - 16);
	memset(pg + psize - 4, 0, 4);
	if (stored && 12 + size + 8 <= psize) {
		tdat_store32(0, pg + 12 + size, (uint32_t)missed);
		memset(pg + 12 + size + 4, 0, 4);
	}
	return 0;
}

static int convert_page(struct variant *v, uint8_t *pg, uint32_t psize)
{
	int w = v->in->commit_size;

	if (v->long4) {
		if (page_to_long4(v, pg, psize))
			return -1;
		w = 4;
	}
	if (v->big && page_to_big(v, pg, psize, w))
		return -1;
	return 0;
}

/* ---- metadata ---- */

/* header_page with commit size:4 and data offset:12 size:P-12. */
static void long4_header_page(struct variant *v, struct tdat_blob *b)
{
	struct cursor c;
	struct tdat_error err;
	const uint8_t *kw, *text, *rest;
	uint64_t n = 0;
	char out[4096], line[512];
	size_t olen = 0, i = 0, restlen;
	uint8_t *nb;

	cur_init(&c, b->data, b->len, 0, "header_page", 0, &err);
	if (cur_bytes(&c, 12, &kw, "keyword") || cur_u64(&c, &n, "size") ||
	    cur_bytes(&c, (size_t)n, &text, "text"))
		die("%s", err.msg);
	if (n > sizeof(out) - 64)
		die("%s: header_page text too long", "input");
	while (i < n) {
		const char *nl = memchr(text + i, '\n', (size_t)n - i);
		size_t ll = nl ? (size_t)((const uint8_t *)nl - text) - i + 1 :
				 (size_t)n - i;
		char *s;

		if (ll >= sizeof(line))
			die("%s: header_page line too long", "input");
		memcpy(line, text + i, ll);
		line[ll] = 0;
		i += ll;
		if (strstr(line, " commit;") && (s = strstr(line, "size:8;")))
			s[5] = '4';
		if (strstr(line, " data;"))
			snprintf(line, sizeof(line), "\tfield: char data;\t"
				 "offset:12;\tsize:%u;\tsigned:0;\n",
				 v->in->page_size - 12);
		if (olen + strlen(line) >= sizeof(out))
			die("%s: header_page too long", "input");
		memcpy(out + olen, line, strlen(line));
		olen += strlen(line);
	}
	rest = text + n;
	restlen = b->len - 20 - (size_t)n;
	nb = malloc(20 + olen + restlen);
	if (!nb)
		die("%s", "out of memory");
	memcpy(nb, b->data, 12);
	tdat_store64(0, nb + 12, olen);
	memcpy(nb + 20, out, olen);
	memcpy(nb + 20 + olen, rest, restlen);
	free(b->data);
	b->data = nb;
	b->len = 20 + olen + restlen;
}

/* An option and (v7) a section of ids nobody defines; see --unknown. */
static void add_unknown(struct tdat_file *o)
{
	static const char payload[] = "unknown option payload";
	struct tdat_option opt = {
		.id = 200, .size = sizeof(payload), .data = (uint8_t *)payload,
	};
	struct tdat_extra_section *x;
	uint8_t body[16];
	int i;

	if (tdat_add_option(o, &opt))
		die("%s", "out of memory");
	if (o->version < 7)
		return;
	for (i = 0; i < 16; i++)
		body[i] = (uint8_t)i;
	x = &o->extra[o->nextra++];
	memset(x, 0, sizeof(*x));
	x->id = 40;
	x->description = strdup("section from the future");
	if (!x->description || tdat_blob_dup(&x->body, body, sizeof(body)))
		die("%s", "out of memory");
}

/* A section given by --section or --zsection, appended to o's. */
static void add_section(struct tdat_file *o, const struct added *a)
{
	struct tdat_extra_section *x = &o->extra[o->nextra++];
	size_t n = strlen(a->text), cap;
	struct codec_ctx cc;
	size_t clen;
	char desc[32];

	memset(x, 0, sizeof(*x));
	x->id = a->id;
	snprintf(desc, sizeof(desc), "test section %u", a->id);
	x->description = strdup(desc);
	if (!a->compress) {
		if (tdat_blob_dup(&x->body, a->text, n))
			die("%s", "out of memory");
		return;
	}
	if (o->codec == TDAT_CODEC_NONE)
		die("%s", "--zsection needs a compressed file");
	cap = codec_bound(o->codec, n);
	x->body.data = malloc(8 + cap);
	if (!x->body.data || !x->description)
		die("%s", "out of memory");
	codec_ctx_init(&cc, o->codec, 0);
	if (codec_compress(&cc, a->text, n, x->body.data + 8, cap, &clen))
		die("%s", "compression failed");
	codec_ctx_free(&cc);
	tdat_store32(o->big_endian, x->body.data, (uint32_t)clen);
	tdat_store32(o->big_endian, x->body.data + 4, (uint32_t)n);
	x->body.len = 8 + clen;
	x->flags = 1;
}

/* A copy of in's metadata (tdat_meta_clone) to change. */
static void prepare(struct variant *v)
{
	struct tdat_extra_section *x;
	struct tdat_error err;
	struct tdat_file *o;
	int i;

	o = v->out = tdat_meta_clone(v->in, TDAT_CLONE_BUFFERS, &err);
	if (!o)
		die("%s", err.msg);
	if (v->small) {
		for (i = TDAT_META_KALLSYMS; i <= TDAT_META_PRINTK; i++) {
			if (o->meta[i].len >= 4)
				o->meta[i].len = 4;
			if (tdat_meta_has(o, i))
				memset(o->meta[i].data, 0, 4);
		}
	}
	if (v->long4) {
		long4_header_page(v, &o->meta[TDAT_META_HEADERS]);
		o->long_size = 4;
		o->commit_size = 4;
		o->page_header_size = 12;
	}
	for (i = 0; v->big && i < o->noptions; i++)
		swap_option(&o->options[i]);
	/* Room for the sections added below. */
	x = realloc(o->extra, ((size_t)o->nextra + 1 + (size_t)v->nadded) *
			      sizeof(*x));
	if (!x)
		die("%s", "out of memory");
	o->extra = x;
	if (v->unknown)
		add_unknown(o);
	if (v->nadded && o->version < 7)
		die("%s", "--section and --zsection need a v7 file");
	if (v->big) {
		o->big_endian = 1;
		for (i = 0; i < TDAT_META_COUNT; i++)
			if (tdat_meta_has(o, i))
				swap_meta_part(i, &o->meta[i]);
	}
	/* After the byte order is decided: block headers are in it. */
	for (i = 0; i < v->nadded; i++)
		add_section(o, &v->added[i]);
}

/* ---- trace data ---- */

static int copy_cpu(struct variant *v, struct tdat_writer *w, int b,
		    int idx, struct tdat_error *err)
{
	const struct tdat_buffer *buf = &v->in->buffers[b];
	uint32_t psize = buf->page_size;
	struct tdat_cpu_reader *r;
	const uint8_t *page;
	uint8_t *batch;
	size_t n = 0;
	int got = 0, pages = 0;

	if (tdat_writer_begin_cpu(w, b, buf->cpus[idx].cpu, err))
		return -1;
	if (!buf->cpus[idx].size)
		return tdat_writer_end_cpu(w, err);
	batch = malloc((size_t)psize * BATCH_PAGES);
	r = tdat_cpu_open(v->in, b, idx, err);
	if (!batch)
		die("%s", "out of memory");
	if (!r) {
		free(batch);
		return -1;
	}
	while ((!v->small || pages < 2) &&
	       (got = tdat_cpu_next_page(r, &page, NULL, err)) == 1) {
		memcpy(batch + n, page, psize);
		if (convert_page(v, batch + n, psize)) {
			got = tdat_fail_nooff(err, v->in->path, "buffer \"%s\""
					      " CPU %d page %d: %s", buf->name,
					      buf->cpus[idx].cpu, pages,
					      v->why);
			break;
		}
		pages++;
		n += psize;
		if (n == (size_t)psize * BATCH_PAGES) {
			if (tdat_writer_put_pages(w, batch, n, err)) {
				got = -1;
				break;
			}
			n = 0;
		}
	}
	if (got >= 0 && n && tdat_writer_put_pages(w, batch, n, err))
		got = -1;
	tdat_cpu_close(r);
	free(batch);
	if (got < 0)
		return -1;
	return tdat_writer_end_cpu(w, err);
}

static int copy_data(struct variant *v, struct tdat_writer *w,
		     struct tdat_error *err)
{
	int b, i;

	for (b = 0; b < v->in->nbuffers; b++) {
		const struct tdat_buffer *buf = &v->in->buffers[b];

		if (buf->latency) {
			struct tdat_blob text;
			int r;

			if (tdat_read_latency(v->in, b, &text, err))
				return -1;
			r = tdat_writer_put_latency(w, b, text.data, text.len,
						    err);
			free(text.data);
			if (r)
				return -1;
			continue;
		}
		for (i = 0; i < buf->ncpus; i++)
			if (copy_cpu(v, w, b, i, err))
				return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct variant v;
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	struct tdat_error err;
	int i;

	memset(&v, 0, sizeof(v));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--big-endian"))
			v.big = 1;
		else if (!strcmp(argv[i], "--long4"))
			v.long4 = 1;
		else if (!strcmp(argv[i], "--small"))
			v.small = 1;
		else if (!strcmp(argv[i], "--unknown"))
			v.unknown = 1;
		else if ((!strcmp(argv[i], "--section") ||
			  !strcmp(argv[i], "--zsection")) && i + 1 < argc &&
			 v.nadded < 16) {
			struct added *a = &v.added[v.nadded++];
			char *colon = strchr(argv[i + 1], ':');

			if (!colon)
				die("%s: want ID:TEXT", argv[i + 1]);
			a->compress = argv[i][2] == 'z';
			a->id = (uint16_t)atoi(argv[++i]);
			a->text = colon + 1;
		} else
			die("unknown option %s", argv[i]);
	}
	if (argc - i != 2)
		die("%s", "usage: mkvariant [--big-endian] [--long4] [--small]"
		    " [--unknown] [--section ID:TEXT]... [--zsection ID:TEXT]..."
		    " IN OUT");
	v.in = tdat_open(argv[i], &err);
	if (!v.in)
		die("%s", err.msg);
	if (v.big && v.in->big_endian)
		die("%s: already big endian", argv[i]);
	if (v.long4 && (v.in->commit_size != 8 ||
			v.in->page_header_size != 16))
		die("%s: has no 8-byte commit word", argv[i]);
	v.tep = tep_alloc();
	if (!v.tep)
		die("%s", "out of memory");
	tep_set_long_size(v.tep, 8);
	if (tdat_each_format(v.in, parse_format, &v, &err))
		die("%s", err.msg);
	prepare(&v);

	memset(&wo, 0, sizeof(wo));
	wo.version = v.in->version;
	wo.codec = v.in->codec;
	wo.threads = 1;
	w = tdat_writer_open(argv[i + 1], v.out, &wo, &err);
	if (!w)
		die("%s", err.msg);
	if (copy_data(&v, w, &err)) {
		tdat_writer_abort(w);
		die("%s", err.msg);
	}
	if (tdat_writer_close(w, &err))
		die("%s", err.msg);
	tep_free(v.tep);
	tdat_close(v.out);
	tdat_close(v.in);
	return 0;
}
