/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sections.c - v7 sections: headers, bodies, the strings table, extras. */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

int section_read_header(struct tdat_file *f, uint64_t off,
			struct section_header *h, struct tdat_error *err)
{
	uint8_t b[SECTION_HEADER_SIZE];

	if (fio_read_at(f, off, b, sizeof(b), "section header", err))
		return -1;
	h->id = tdat_get16(f, b);
	h->flags = tdat_get16(f, b + 2);
	h->string_id = (int32_t)tdat_get32(f, b + 4);
	h->size = tdat_get64(f, b + 8);
	h->offset = off;
	if (h->size > f->file_size - off - SECTION_HEADER_SIZE)
		return tdat_fail(err, f->path, off, "section %u: size %llu runs"
				 " past the end of the file (%llu bytes)",
				 h->id, (unsigned long long)h->size,
				 (unsigned long long)f->file_size);
	return 0;
}

/* A compressed block: u32 c, u32 u, c bytes.  Its sizes (header h, the
 * block at off in a body of size bytes), checked so that allocations
 * stay in proportion to the file. */
static int block_sizes(const struct tdat_file *f, const uint8_t *h,
		       uint64_t off, uint64_t size, uint32_t *c, uint32_t *u,
		       struct tdat_error *err)
{
	*c = tdat_get32(f, h);
	*u = tdat_get32(f, h + 4);
	if (*c > size - 8)
		return tdat_fail(err, f->path, off, "compressed block claims"
				 " %u bytes, section holds %llu", *c,
				 (unsigned long long)(size - 8));
	if (*u > TDAT_MAX_BLOB || *u > (uint64_t)*c * 4096 + (16u << 20))
		return tdat_fail(err, f->path, off, "compressed block claims"
				 " an implausible %u bytes uncompressed", *u);
	return 0;
}

static int block_no_header(const struct tdat_file *f, uint64_t off,
			   uint64_t size, struct tdat_error *err)
{
	return tdat_fail(err, f->path, off, "compressed block of %llu bytes"
			 " has no header", (unsigned long long)size);
}

/* in (c bytes, the data of the block at off) decompressed to u bytes. */
static int block_inflate(const struct tdat_file *f, const uint8_t *in,
			 uint32_t c, uint32_t u, uint64_t off,
			 struct tdat_blob *out, struct tdat_error *err)
{
	struct codec_ctx x;
	int r;

	out->data = budget_fits(u) ? malloc(u ? u : 1) : NULL;
	out->len = u;
	if (!out->data) {
		out->len = 0;
		return tdat_budget_fail(err, f->path, off, "compressed block",
					u);
	}
	codec_ctx_init(&x, f->codec, 0);
	r = codec_decompress(&x, in, c, out->data, u);
	codec_ctx_free(&x);
	if (r) {
		tdat_blob_free(out);
		return tdat_fail(err, f->path, off + 8, "%s data does not"
				 " decompress to %u bytes",
				 tdat_codec_name(f->codec), u);
	}
	if (u == 0)
		tdat_blob_free(out);
	return 0;
}

static int read_block(struct tdat_file *f, uint64_t off, uint64_t size,
		      struct tdat_blob *out, struct tdat_error *err)
{
	uint8_t h[8];
	uint32_t c, u;
	struct tdat_blob in;
	int r;

	if (size < 8)
		return block_no_header(f, off, size, err);
	if (fio_read_at(f, off, h, 8, "compressed block header", err) ||
	    block_sizes(f, h, off, size, &c, &u, err) ||
	    fio_read_blob(f, off + 8, c, &in, "compressed block", err))
		return -1;
	r = block_inflate(f, in.data, c, u, off, out, err);
	tdat_blob_free(&in);
	return r;
}

int block_check_at(const struct tdat_file *f, uint64_t off, uint64_t size,
		   struct tdat_error *err)
{
	uint8_t h[8];
	uint32_t c, u;

	if (size < 8)
		return block_no_header(f, off, size, err);
	if (fio_read_at(f, off, h, 8, "compressed block header", err))
		return -1;
	return block_sizes(f, h, off, size, &c, &u, err);
}

int block_decode(const struct tdat_file *f, const uint8_t *p, uint64_t size,
		 uint64_t off, struct tdat_blob *out, struct tdat_error *err)
{
	uint32_t c, u;

	out->data = NULL;
	out->len = 0;
	if (size < 8)
		return block_no_header(f, off, size, err);
	if (block_sizes(f, p, off, size, &c, &u, err))
		return -1;
	return block_inflate(f, p + 8, c, u, off, out, err);
}

int section_read_body(struct tdat_file *f, const struct section_header *h,
		      struct tdat_blob *out, struct tdat_error *err)
{
	uint64_t body = h->offset + SECTION_HEADER_SIZE;

	if (!(h->flags & SECTION_COMPRESSED))
		return fio_read_blob(f, body, h->size, out, "section body",
				     err);
	if (f->codec == TDAT_CODEC_NONE)
		return tdat_fail(err, f->path, h->offset, "section %u is"
				 " flagged compressed in a file without"
				 " compression", h->id);
	return read_block(f, body, h->size, out, err);
}

int block_verify(const struct tdat_file *f, const uint8_t *p, uint64_t size,
		 uint64_t off, void *head, size_t headlen, uint32_t *u,
		 struct tdat_error *err)
{
	uint32_t c;

	if (size < 8)
		return block_no_header(f, off, size, err);
	if (block_sizes(f, p, off, size, &c, u, err))
		return -1;
	if (codec_check(f->codec, p + 8, c, *u, head, headlen))
		return tdat_fail(err, f->path, off + 8, "%s data does not"
				 " decompress to %u bytes",
				 tdat_codec_name(f->codec), *u);
	return 0;
}

static int is_known_section(uint16_t id)
{
	return id == TDAT_OPT_DONE || id == TDAT_OPT_BUFFER ||
	       id == TDAT_OPT_STRINGS ||
	       (id >= TDAT_OPT_HEADER_INFO && id <= TDAT_OPT_BTF_FILE) ||
	       id == TDAT_OPT_MODULES_FILE;
}

static int append_strings(struct tdat_file *f, const struct tdat_blob *b)
{
	uint8_t *p = realloc(f->strings.data, f->strings.len + b->len + 1);

	if (!p)
		return -1;
	if (b->len)	/* an empty section has no data at all */
		memcpy(p + f->strings.len, b->data, b->len);
	f->strings.data = p;
	f->strings.len += b->len;
	p[f->strings.len] = 0;	/* a guard NUL for lookups */
	return 0;
}

static int add_extra(struct tdat_file *f, const struct section_header *h,
		     struct tdat_error *err)
{
	struct tdat_extra_section *x;

	x = realloc(f->extra, (size_t)(f->nextra + 1) * sizeof(*x));
	if (!x)
		return tdat_fail(err, f->path, h->offset, "out of memory");
	f->extra = x;
	x = &f->extra[f->nextra];
	memset(x, 0, sizeof(*x));
	x->id = h->id;
	x->flags = h->flags;
	x->offset = h->offset;
	/* Remember the string id until the whole table is known. */
	x->description = (char *)(intptr_t)h->string_id;
	if (fio_read_blob(f, h->offset + SECTION_HEADER_SIZE, h->size,
			  &x->body, "unknown section", err))
		return -1;
	f->nextra++;
	return 0;
}

static int scan_one(struct tdat_file *f, const struct section_header *h,
		    struct tdat_error *err)
{
	struct tdat_blob b;
	int r;

	if (h->id == TDAT_OPT_STRINGS) {
		if (section_read_body(f, h, &b, err))
			return -1;
		r = append_strings(f, &b);
		tdat_blob_free(&b);
		return r ? tdat_fail(err, f->path, h->offset, "out of memory")
			 : 0;
	}
	if (!is_known_section(h->id))
		return add_extra(f, h, err);
	return 0;
}

int sections_scan(struct tdat_file *f, uint64_t first, struct tdat_error *err)
{
	uint64_t pos = first;
	struct section_header h;
	struct tdat_error ignored;
	int i;

	/* A section that runs past the end stops the scan quietly: the
	 * sections reached through options report truncation properly. */
	while (pos + SECTION_HEADER_SIZE <= f->file_size &&
	       !section_read_header(f, pos, &h, &ignored)) {
		if (scan_one(f, &h, err)) {
			/* The descriptions still hold string ids: not for
			 * tdat_close to free. */
			for (i = 0; i < f->nextra; i++)
				f->extra[i].description = NULL;
			return -1;
		}
		pos += SECTION_HEADER_SIZE + h.size;
	}
	for (i = 0; i < f->nextra; i++) {
		const char *s = strings_lookup(f, (int32_t)(intptr_t)
					       f->extra[i].description);

		f->extra[i].description = s ? strdup(s) : NULL;
	}
	return 0;
}

const char *strings_lookup(const struct tdat_file *f, int32_t id)
{
	if (id < 0 || (size_t)id >= f->strings.len)
		return NULL;
	return (const char *)f->strings.data + id;
}
