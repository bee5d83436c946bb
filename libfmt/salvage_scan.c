/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * salvage_scan.c - open a damaged trace.dat as far as it goes, for
 * restore.  tdat_open refuses a file whose structure is broken anywhere;
 * this reads the same structure but stops quietly where the damage
 * begins: v6 instances whose blocks are gone are left out, v7 sections
 * are found by walking their headers (not the options chain, whose end
 * may be lost), and a buffer section whose BUFFER option is lost is
 * handed back as a byte range for the caller to search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

static void note(struct tdat_salvage *s, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct tdat_salvage *s, uint64_t off, const char *fmt, ...)
{
	struct tdat_salvage_note *n;
	va_list ap;

	if (s->nnotes == TDAT_SALVAGE_NOTES)
		return;
	n = &s->notes[s->nnotes++];
	n->offset = off;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}

/* ---- v6 ---- */

/* "flyrecord\0", CPU table, clock record; -1 if the table is cut. */
static int v6_block(struct tdat_file *f, struct tdat_buffer *b, uint64_t off,
		    struct tdat_error *err)
{
	uint32_t n = f->cpu_count;
	uint8_t lb[8];
	char kw[10], text[64];
	uint64_t len;

	if (fio_read_at(f, off, kw, 10, "flyrecord keyword", err))
		return -1;
	if (memcmp(kw, "flyrecord", 10))
		return tdat_fail(err, f->path, off, "no \"flyrecord\" keyword");
	if (read_v6_cpu_table(f, off, b, err))
		return -1;
	/* The clock record is optional to us: the options say it too. */
	off += 10 + (uint64_t)n * 16;
	if (!fio_read_at(f, off, lb, 8, "clock", err) &&
	    (len = tdat_get64(f, lb)) >= 2 && len < sizeof(text) &&
	    !fio_read_at(f, off + 8, text, (size_t)len, "clock", err) &&
	    text[0] == '[' && text[len - 1] == ']') {
		free(b->clock);
		b->clock = strndup(text + 1, (size_t)len - 2);
	}
	return 0;
}

static int v6_data(struct tdat_file *f, uint64_t pos, struct tdat_salvage *s,
		   struct tdat_error *err)
{
	struct tdat_error e2;
	struct tdat_buffer *b;
	char kw[10];
	int ninst = f->nbuffers, i;

	if (fio_read_at(f, pos, kw, 10, "data keyword", err))
		return -1;
	if (!buffers_add(f))
		return tdat_fail(err, f->path, pos, "out of memory");
	b = f->buffers;
	memmove(b + 1, b, (size_t)ninst * sizeof(*b));
	memset(b, 0, sizeof(*b));
	b->page_size = f->page_size;
	b->name = strdup("");
	b->clock = strdup("");
	if (!b->name || !b->clock)
		return tdat_fail(err, f->path, pos, "out of memory");
	if (!memcmp(kw, "latency", 7)) {
		b->latency = 1;
		b->latency_offset = pos + 10;
		b->latency_size = f->file_size - (pos + 10);
		return 0;
	}
	if (v6_block(f, b, pos, err))
		return -1;
	for (i = 1; i < f->nbuffers; i++) {
		b = &f->buffers[i];
		if (!v6_block(f, b, b->section_offset, &e2))
			continue;
		note(s, b->section_offset, "lost: instance \"%s\": its CPU"
		     " table is gone (%s)", b->name, e2.msg);
		buffers_drop(f, i);
		i--;
	}
	return 0;
}

static int scan_v6(struct tdat_file *f, struct tdat_salvage *s,
		   struct tdat_error *err)
{
	uint64_t pos;

	if (read_v6_head(f, &pos, 0, err))
		return -1;
	return v6_data(f, pos, s, err);
}

/* ---- v7: walk the section headers ---- */

static int v7_header(struct tdat_file *f, uint64_t *first,
		     struct tdat_error *err)
{
	uint8_t b[80];
	struct cursor c;
	size_t n = sizeof(b);
	const char *name, *ver;
	uint64_t opt;

	if (f->file_size - 18 < n)
		n = (size_t)(f->file_size - 18);
	if (fio_read_at(f, 18, b, n, "compression header", err))
		return -1;
	cur_init(&c, b, n, f->big_endian, f->path, 18, err);
	if (cur_cstr(&c, &name, "compression name") ||
	    cur_cstr(&c, &ver, "compression version") ||
	    cur_u64(&c, &opt, "options offset"))
		return -1;
	if (!(f->codec_name = strdup(name)) ||
	    !(f->codec_version = strdup(ver)))
		return tdat_fail(err, f->path, 18, "out of memory");
	if (tdat_codec_by_name(name, &f->codec))
		return tdat_fail(err, f->path, 18, "unsupported compression"
				 " \"%s\"", name);
	*first = cur_offset(&c);
	return 0;
}

/* What a section header can hold; past the damage, bytes rarely pass. */
static int plausible_id(uint16_t id, uint16_t flags)
{
	return id <= TDAT_OPT_MODULES_FILE && flags <= 1;
}

static int add_lost(struct tdat_salvage *s, const struct section_header *h,
		    uint64_t end)
{
	struct tdat_salvage_section *l;

	l = realloc(s->lost, (size_t)(s->nlost + 1) * sizeof(*l));
	if (!l)
		return -1;
	s->lost = l;
	l = &s->lost[s->nlost++];
	memset(l, 0, sizeof(*l));
	l->offset = h->offset;
	l->id = h->id;
	l->flags = h->flags;
	l->string_id = h->string_id;
	l->body = h->offset + SECTION_HEADER_SIZE;
	l->end = end;
	return 0;
}

/* One whole section the walk found. */
static int v7_section(struct tdat_file *f, const struct section_header *h,
		      struct option_sink *sink, struct tdat_salvage *s,
		      struct tdat_error *err)
{
	struct tdat_blob body;
	int r, i = h->id - TDAT_META_FIRST;

	if (h->id == TDAT_OPT_BUFFER || h->id == TDAT_OPT_BUFFER_TEXT)
		return add_lost(s, h, h->offset + SECTION_HEADER_SIZE +
				h->size) ? tdat_fail(err, f->path, h->offset,
						     "out of memory") : 0;
	if (h->id != TDAT_OPT_DONE && (i < 0 || i >= TDAT_META_COUNT))
		return 0;	/* strings and unknown ids: the scan did them */
	if (section_read_body(f, h, &body, err))
		return -1;
	if (h->id == TDAT_OPT_DONE) {
		r = options_parse_v7(f, body.data, body.len,
				     h->offset + SECTION_HEADER_SIZE, sink, err);
		tdat_blob_free(&body);
		return r;
	}
	/* As tdat_open checks it: a writer would copy it unreadable. */
	if (meta_check_v7(f, i, &body, h->offset, h->flags & 1, err)) {
		tdat_blob_free(&body);
		return -1;
	}
	tdat_blob_free(&f->meta[i]);
	f->meta[i] = body;
	f->priv->meta_present[i] = 1;
	return 0;
}

static int scan_v7(struct tdat_file *f, struct tdat_salvage *s,
		   struct tdat_error *err)
{
	struct option_sink sink;
	struct section_header h;
	struct tdat_error e2;
	uint64_t pos, first = 0, headers = 0;
	uint8_t b[SECTION_HEADER_SIZE];
	int nbuf;

	memset(&sink, 0, sizeof(sink));
	if (v7_header(f, &first, err) || sections_scan(f, first, err))
		return -1;
	for (pos = first; pos + SECTION_HEADER_SIZE <= f->file_size;) {
		if (fio_read_at(f, pos, b, sizeof(b), "section header", err))
			return -1;
		h.id = tdat_get16(f, b);
		h.flags = tdat_get16(f, b + 2);
		h.string_id = (int32_t)tdat_get32(f, b + 4);
		h.size = tdat_get64(f, b + 8);
		h.offset = pos;
		if (!plausible_id(h.id, h.flags)) {
			note(s, pos, "stopped: no section header here (id %u,"
			     " flags %u): the rest of the file is not"
			     " searched", h.id, h.flags);
			break;
		}
		if (h.size > f->file_size - pos - SECTION_HEADER_SIZE) {
			/* Cut by the end of the file. */
			if (h.id == TDAT_OPT_BUFFER && add_lost(s, &h,
								f->file_size))
				return tdat_fail(err, f->path, pos, "out of"
						 " memory");
			note(s, pos, "cut: section %u claims %llu bytes, %llu"
			     " are left", h.id, (unsigned long long)h.size,
			     (unsigned long long)(f->file_size - pos -
						  SECTION_HEADER_SIZE));
			break;
		}
		nbuf = f->nbuffers;
		if (v7_section(f, &h, &sink, s, &e2)) {
			/* buffers it described in part are not described */
			while (f->nbuffers > nbuf)
				buffers_drop(f, f->nbuffers - 1);
			note(s, pos, "skipped: section %u: %s", h.id, e2.msg);
		} else if (h.id == TDAT_META_FIRST)
			headers = pos;
		pos += SECTION_HEADER_SIZE + h.size;
	}
	if (!f->priv->meta_present[TDAT_META_HEADERS])
		return tdat_fail(err, f->path, first, "no header_page section"
				 " before the damage: pages cannot be read");
	return meta_parse_header_page(f, headers, err);
}

/* Buffers described by options: their sections are no longer lost. */
static void match_described(struct tdat_file *f, struct tdat_salvage *s)
{
	int i, j;

	for (i = 0; i < f->nbuffers; i++) {
		struct tdat_buffer *b = &f->buffers[i];

		/* Until its section is seen: as trace-cmd writes them. */
		b->compressed = f->codec != TDAT_CODEC_NONE;
		for (j = 0; j < s->nlost; j++) {
			if (s->lost[j].offset != b->section_offset)
				continue;
			b->compressed = s->lost[j].flags & 1;
			b->latency_offset = s->lost[j].body;
			b->latency_size = s->lost[j].end - s->lost[j].body;
			memmove(&s->lost[j], &s->lost[j + 1],
				(size_t)(s->nlost - j - 1) * sizeof(s->lost[0]));
			s->nlost--;
			break;
		}
	}
}

struct tdat_file *tdat_open_salvage(const char *path, struct tdat_salvage *s,
				    struct tdat_error *err)
{
	struct tdat_file *f;
	int i;

	memset(s, 0, sizeof(*s));
	f = tdat_open_header(path, err);
	if (!f)
		return NULL;
	if (f->version == 6 ? scan_v6(f, s, err) : scan_v7(f, s, err)) {
		tdat_close(f);
		tdat_salvage_free(s);
		return NULL;
	}
	if (f->version == 7) {
		match_described(f, s);
		for (i = 0; i < s->nlost; i++)
			s->lost[i].description =
				strings_lookup(f, s->lost[i].string_id);
		/* The top buffer first, as tdat_open does. */
		for (i = 1; i < f->nbuffers; i++) {
			struct tdat_buffer t = f->buffers[i];

			if (t.name[0])
				continue;
			memmove(f->buffers + 1, f->buffers,
				(size_t)i * sizeof(t));
			f->buffers[0] = t;
			break;
		}
	}
	return f;
}

void tdat_salvage_free(struct tdat_salvage *s)
{
	free(s->lost);
	s->lost = NULL;
	s->nlost = 0;
}

/* ---- raw access for the caller's search ---- */

int tdat_salvage_read(const struct tdat_file *f, uint64_t off, void *buf,
		      size_t n, struct tdat_error *err)
{
	return fio_read_at(f, off, buf, n, "data", err);
}

int tdat_salvage_decompress(const struct tdat_file *f, const void *in,
			    size_t n, void *out, size_t usize)
{
	struct codec_ctx x;
	int r;

	codec_ctx_init(&x, f->codec, 0);
	r = codec_decompress(&x, in, n, out, usize);
	codec_ctx_free(&x);
	return r;
}
