/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - dump_run: the initial header, then the walk of its version, then -v and --json. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "convert/dump/dump_int.h"

static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				   'i', 'n', 'g' };

static int initial_format(struct dump *d, struct dsrc *s)
{
	uint8_t m[10], b[2];
	char ver[16];

	say(d, DUMP_SUMMARY, "\n Tracing meta data in file %s:\n"
	    "\t[Initial format]\n", d->path);
	if (d_read(d, s, m, sizeof(m), "magic"))
		return -1;
	if (memcmp(m, magic, sizeof(m))) {
		s->pos = 0;
		return d_fail(d, s, "not a trace.dat file (no magic)");
	}
	if (d_cstr(d, s, ver, sizeof(ver), "version string"))
		return -1;
	/* An empty one (an Android build of trace-cmd) reads as 0, and
	 * trace-cmd lays it out as 6. */
	d->version = ver[0] ? atoi(ver) : 6;
	say(d, DUMP_SUMMARY, "\t\t%s\t[Version]\n", ver);
	if (d_read(d, s, b, 2, "endian and long size"))
		return -1;
	d->big = b[0] != 0;
	d->long_size = b[1];
	say(d, DUMP_SUMMARY, "\t\t%d\t[%s endian]\n", b[0],
	    d->big ? "Big" : "Little");
	say(d, DUMP_SUMMARY, "\t\t%d\t[Bytes in a long]\n", b[1]);
	if (d_u32(d, s, &d->page_size, "page size"))
		return -1;
	say(d, DUMP_SUMMARY, "\t\t%u\t[Page size, bytes]\n", d->page_size);
	if (d->version != 6 && d->version != 7) {
		s->pos = 10;
		return d_fail(d, s, "version %s: only 6 and 7 exist", ver);
	}
	return 0;
}

static int walk(struct dump *d)
{
	struct dsrc s = { 0 };
	struct stat st;

	d->fp = fopen(d->path, "rb");
	if (!d->fp || fstat(fileno(d->fp), &st) || !S_ISREG(st.st_mode))
		return tdat_fail_nooff(&d->err, d->path, "%s",
				       d->fp ? "not a regular file"
					     : strerror(errno));
	d->size = (uint64_t)st.st_size;
	if (initial_format(d, &s))
		return -1;
	if (d->version == 6)
		return dump_v6(d, &s);
	d->hf = tdat_open_header(d->path, &d->err);
	if (!d->hf)
		return -1;
	return dump_v7(d, &s);
}

int dump_run(const struct dump_opts *o, struct tdat_error *err)
{
	struct dump *d = calloc(1, sizeof(*d));
	int r;

	if (!d)
		return tdat_fail_nooff(err, o->path, "out of memory");
	d->o = o;
	d->path = o->path;
	d->parts = o->json ? 0 : o->parts ? o->parts
		 : o->validate ? 0 : DUMP_SUMMARY;
	r = walk(d);
	if (!r && o->validate)
		r = dump_validate(d);
	if (!r && o->validate && !o->json)
		printf("File %s is a valid trace-cmd file\n", d->path);
	fflush(stdout);
	if (o->json)
		dump_json(d, r ? d->err.msg : NULL);
	if (r)
		*err = d->err;
	if (d->fp)
		fclose(d->fp);
	tdat_close(d->hf);
	free(d->strings);
	free(d);
	return r ? 1 : 0;
}
