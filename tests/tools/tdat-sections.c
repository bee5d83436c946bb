/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tdat-sections - list the sections of a v7 trace.dat as they are stored:
 * one line each, in file order,
 *     id ID flags F offset OFF size SIZE hash FNV1A64-OF-THE-STORED-BODY
 * (the body still compressed when flagged so).  For tests that want to
 * know whether a writer copied a section's bytes or compressed it again.
 *
 * usage: tdat-sections FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "libfmt/tracedat.h"
#include "libfmt/internal.h"

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

int main(int argc, char **argv)
{
	struct tdat_error err;
	struct tdat_file *f;
	struct section_header h;
	struct tdat_blob body;
	uint8_t b[80];
	size_t n;
	uint64_t pos;
	struct cursor c;
	const char *s;

	if (argc != 2) {
		fprintf(stderr, "usage: tdat-sections FILE\n");
		return 2;
	}
	f = tdat_open_header(argv[1], &err);
	if (!f || f->version != 7) {
		fprintf(stderr, "tdat-sections: %s\n", f ? "not a v7 file" :
			err.msg);
		return 1;
	}
	/* After the header: codec name, codec version, options offset. */
	n = f->file_size - 18 < sizeof(b) ? (size_t)(f->file_size - 18) :
					    sizeof(b);
	if (fio_read_at(f, 18, b, n, "compression header", &err))
		goto fail;
	cur_init(&c, b, n, f->big_endian, f->path, 18, &err);
	if (cur_cstr(&c, &s, "name") || cur_cstr(&c, &s, "version") ||
	    cur_skip(&c, 8, "options offset"))
		goto fail;
	for (pos = cur_offset(&c); pos + SECTION_HEADER_SIZE <= f->file_size;
	     pos += SECTION_HEADER_SIZE + h.size) {
		if (section_read_header(f, pos, &h, &err) ||
		    fio_read_blob(f, pos + SECTION_HEADER_SIZE, h.size, &body,
				  "section body", &err))
			goto fail;
		printf("id %u flags %u offset %" PRIu64 " size %" PRIu64
		       " hash %016" PRIx64 "\n", h.id, h.flags, pos, h.size,
		       fnv(body.data, body.len));
		free(body.data);
	}
	tdat_close(f);
	return 0;
fail:
	fprintf(stderr, "tdat-sections: %s\n", err.msg);
	tdat_close(f);
	return 1;
}
