/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * write_emit.c - the writer's bytes out: fields appended in the file's
 * byte order, fields patched once known, growing byte lists, and the
 * failure that marks the writer broken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/writer.h"

int writer_fail(struct tdat_writer *w, struct tdat_error *err,
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

int writer_oom(struct tdat_writer *w, struct tdat_error *err)
{
	return writer_fail(w, err, "out of memory");
}

uint8_t *writer_scratch(struct tdat_writer *w, size_t n)
{
	return tdat_bytes_reserve_held(&w->scratch, n) ? NULL : w->scratch.data;
}

/* ---- appending ---- */

int emit(struct tdat_writer *w, const void *p, size_t n,
	 struct tdat_error *err)
{
	if (out_write(&w->out, p, n, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

int emit16(struct tdat_writer *w, uint16_t v, struct tdat_error *err)
{
	uint8_t b[2];

	tdat_store16(w->big, b, v);
	return emit(w, b, 2, err);
}

int emit32(struct tdat_writer *w, uint32_t v, struct tdat_error *err)
{
	uint8_t b[4];

	tdat_store32(w->big, b, v);
	return emit(w, b, 4, err);
}

int emit64(struct tdat_writer *w, uint64_t v, struct tdat_error *err)
{
	uint8_t b[8];

	tdat_store64(w->big, b, v);
	return emit(w, b, 8, err);
}

int emit_zeros(struct tdat_writer *w, uint64_t n, struct tdat_error *err)
{
	static const uint8_t zero[4096];

	while (n) {
		size_t k = n < sizeof(zero) ? (size_t)n : sizeof(zero);

		if (emit(w, zero, k, err))
			return -1;
		n -= k;
	}
	return 0;
}

int emit_align(struct tdat_writer *w, uint32_t to, struct tdat_error *err)
{
	if (out_align(&w->out, to, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

int emit_initial_header(struct tdat_writer *w, const char *version,
			struct tdat_error *err)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					   'c', 'i', 'n', 'g' };
	uint8_t h[6];

	h[0] = (uint8_t)w->big;
	h[1] = (uint8_t)w->meta->long_size;
	tdat_store32(w->big, h + 2, w->page_size);
	return emit(w, magic, sizeof(magic), err) ||
	       emit(w, version, strlen(version) + 1, err) ||
	       emit(w, h, sizeof(h), err) ? -1 : 0;
}

/* ---- patching ---- */

int patch_bytes(struct tdat_writer *w, uint64_t off, const void *p, size_t n,
		struct tdat_error *err)
{
	if (out_pwrite(&w->out, off, p, n, err)) {
		w->broken = 1;
		return -1;
	}
	return 0;
}

int patch32(struct tdat_writer *w, uint64_t off, uint32_t v,
	    struct tdat_error *err)
{
	uint8_t b[4];

	tdat_store32(w->big, b, v);
	return patch_bytes(w, off, b, 4, err);
}

int patch64(struct tdat_writer *w, uint64_t off, uint64_t v,
	    struct tdat_error *err)
{
	uint8_t b[8];

	tdat_store64(w->big, b, v);
	return patch_bytes(w, off, b, 8, err);
}

/* ---- option lists ---- */

int bytes_add_option(struct tdat_writer *w, struct tdat_bytes *list, uint16_t id,
		     uint32_t size, const void *data)
{
	uint8_t h[6];

	tdat_store16(w->big, h, id);
	tdat_store32(w->big, h + 2, size);
	return tdat_bytes_add(list, h, sizeof(h)) || tdat_bytes_add(list, data, size);
}
