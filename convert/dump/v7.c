/* SPDX-License-Identifier: GPL-2.0-or-later */
/* v7.c - the walk of a version 7 file: strings, section list, options chain, metadata sections. */
#include <stdlib.h>
#include <string.h>
#include "convert/dump/dump_int.h"

struct sect {
	uint16_t id, flags;
	int32_t string_id;
	uint64_t offset, size;
};

static const char *describe(const struct dump *d, int32_t sid)
{
	if (sid < 0 || (uint64_t)sid >= d->nstrings)
		return "Unknown";
	return (const char *)d->strings + sid;
}

static int section_header(struct dump *d, uint64_t off, struct sect *x)
{
	struct dsrc s = { .pos = off };
	uint32_t sid;

	x->offset = off;
	if (d_u16(d, &s, &x->id, "section id") ||
	    d_u16(d, &s, &x->flags, "section flags") ||
	    d_u32(d, &s, &sid, "section string id") ||
	    d_u64(d, &s, &x->size, "section size"))
		return -1;
	x->string_id = (int32_t)sid;
	return 0;
}

/* The body of x as a source: decoded if compressed, else the file. */
static int body(struct dump *d, const struct sect *x, struct dsrc *s,
		uint8_t **owned)
{
	uint32_t c, u;

	*owned = NULL;
	memset(s, 0, sizeof(*s));
	s->pos = x->offset + 16;
	if (!(x->flags & 1))
		return 0;
	if (d_decode_block(d, s, x->size, owned, &c, &u))
		return -1;
	s->mem = *owned;
	s->len = u;
	s->pos = 0;
	s->base = x->offset;
	return 0;
}

/* Append a strings section's body to the table. */
static int add_strings(struct dump *d, const struct sect *x)
{
	struct dsrc s;
	uint8_t *owned, *grown;
	uint64_t n;

	if (body(d, x, &s, &owned))
		return -1;
	n = s.mem ? s.len : x->size;
	grown = realloc(d->strings, d->nstrings + n + 1);
	if (!grown) {
		free(owned);
		return tdat_fail(&d->err, d->path, x->offset, "out of memory");
	}
	d->strings = grown;
	if (s.mem)
		memcpy(d->strings + d->nstrings, s.mem, n);
	else if (d_read(d, &s, d->strings + d->nstrings, n, "strings")) {
		free(owned);
		return -1;
	}
	d->nstrings += n;
	d->strings[d->nstrings] = 0;
	free(owned);
	return 0;
}

/* Every section from start to the end of the file, strings collected. */
static int scan(struct dump *d, uint64_t start, struct sect **out, int *n)
{
	struct sect x, *grown;
	uint64_t off = start;

	/* As trace-cmd: the list ends where not even an id is left; a
	 * body cut short is listed, and found out when it is read. */
	while (off < d->size && d->size - off >= 2) {
		if (section_header(d, off, &x))
			return -1;
		grown = realloc(*out, (*n + 1) * sizeof(x));
		if (!grown)
			return tdat_fail(&d->err, d->path, off, "out of memory");
		*out = grown;
		(*out)[(*n)++] = x;
		/* trace-cmd reads a compressed body's sizes with the header */
		if ((x.flags & 1) && d->size - off - 16 < 8) {
			struct dsrc b = { .pos = off + 16 };
			uint8_t sizes[8];

			return d_read(d, &b, sizes, 8, "block sizes");
		}
		if (x.size > d->size - off - 16) {
			tdat_fail(&d->late, d->path, off, "section %u of %llu"
				  " bytes runs past the end of the file (%llu)",
				  x.id, (unsigned long long)x.size,
				  (unsigned long long)d->size);
			return 0;
		}
		/* trace-cmd goes on without descriptions */
		if (x.id == TDAT_OPT_STRINGS && add_strings(d, &x)) {
			d->late = d->err;
			d->err.msg[0] = 0;
			free(d->strings);
			d->strings = NULL;
			d->nstrings = 0;
		}
		off += 16 + x.size;
	}
	if (off < d->size)
		tdat_fail(&d->late, d->path, off, "%llu bytes after the last"
			  " section, too few for a section header",
			  (unsigned long long)(d->size - off));
	return 0;
}

static void print_strings(const struct dump *d)
{
	uint64_t i;

	if (d->nstrings)
		say(d, DUMP_STRINGS, "\t[String @ offset]\n");
	for (i = 0; i < d->nstrings; i += strlen((char *)d->strings + i) + 1)
		say(d, DUMP_STRINGS, "\t\t\"%s\" @ %llu\n",
		    (char *)d->strings + i, (unsigned long long)i);
}

/* The section ids trace-cmd 3.4 knows. */
static int known_section(uint16_t id)
{
	return id == TDAT_OPT_DONE || id == TDAT_OPT_BUFFER ||
	       (id >= TDAT_OPT_STRINGS && id <= TDAT_OPT_BTF_FILE) ||
	       id == TDAT_OPT_MODULES_FILE;
}

static void print_list(struct dump *d, const struct sect *v, int n)
{
	uint32_t c, u;
	int i;

	for (i = 0; i < n; i++) {
		struct dsrc s = { .pos = v[i].offset + 16 };

		if (!known_section(v[i].id))
			say(d, DUMP_SECTIONS, "Unknown section id %u: %s",
			    v[i].id, describe(d, v[i].string_id));
		say(d, DUMP_SECTIONS, "\t[Section %2u @ %-16llu\t\"%s\","
		    " flags 0x%x, ", v[i].id,
		    (unsigned long long)v[i].offset,
		    describe(d, v[i].string_id), v[i].flags);
		if (!(v[i].flags & 1))
			say(d, DUMP_SECTIONS, "%llu bytes]\n",
			    (unsigned long long)v[i].size);
		else if (v[i].id == TDAT_OPT_BUFFER ||
			 v[i].id == TDAT_OPT_BUFFER_TEXT ||
			 d_u32(d, &s, &c, "") || d_u32(d, &s, &u, ""))
			say(d, DUMP_SECTIONS, "%llu compressed bytes]\n",
			    (unsigned long long)v[i].size);
		else
			say(d, DUMP_SECTIONS, "%u compressed, %u"
			    " uncompressed]\n", c, u);
	}
	d->err.msg[0] = 0;
}

static void section_line(const struct dump *d, unsigned mask,
			 const struct sect *x)
{
	say(d, mask, "\t[Section %u @ %llu: \"%s\", flags 0x%x, %llu bytes]\n",
	    x->id, (unsigned long long)x->offset,
	    describe(d, x->string_id), x->flags,
	    (unsigned long long)x->size);
}

/* tdat: the section a v7 BUFFER option points at, then the option. */
static int buffer_option(struct dump *d, const uint8_t *p, uint32_t size,
			 uint64_t at)
{
	struct sect x;
	const uint8_t *end = p + size, *q;
	const char *name, *clock;
	uint64_t total = 0;
	uint32_t i, n, psize;

	if (size < 8)
		return tdat_fail(&d->err, d->path, at, "BUFFER option of"
				 " %u bytes", size);
	if (section_header(d, d_get64(d, p), &x))
		return -1;
	section_line(d, DUMP_FLYRECORD, &x);
	dump_option(d, TDAT_OPT_BUFFER, p, size, at);
	name = (const char *)p + 8;
	q = p + 8 + strnlen(name, end - p - 8) + 1;
	clock = q < end ? (const char *)q : "";
	q += q < end ? strnlen(clock, end - q) + 1 : 0;
	if (end - q < 8)
		return tdat_fail(&d->err, d->path, at, "BUFFER option cut");
	psize = d_get32(d, q);
	n = d_get32(d, q + 4);
	for (q += 8, i = 0; i < n && end - q >= 20; i++, q += 20)
		total += d_get64(d, q + 12);
	say(d, DUMP_SUMMARY, "\t[buffer \"%s\", \"%s\" clock, %u page size,"
	    " %u cpus, %llu bytes flyrecord data]\n", name, clock, psize, n,
	    (unsigned long long)total);
	if (!*name) {
		snprintf(d->facts.clock, sizeof(d->facts.clock), "%s", clock);
		if (n > d->facts.cpus)
			d->facts.cpus = n;
	}
	d->facts.nbuffers++;
	return 0;
}

/* The metadata sections the options name, in the order they name them
 * (trace-cmd prints them last first). */
#define META_REFS 64
struct meta_refs {
	int n;
	uint16_t id[META_REFS];
	uint64_t off[META_REFS];
};

/* Those trace-cmd 3.4 prints: 16 to 21 and the modules (25). */
static void note_meta(struct dump *d, struct meta_refs *m, uint16_t id,
		      const uint8_t *data, uint32_t size)
{
	int known = (id >= TDAT_META_FIRST &&
		     id < TDAT_META_FIRST + TDAT_META_V6_COUNT) ||
		    id == TDAT_OPT_MODULES_FILE;

	if (!known || size < 8 || m->n == META_REFS)
		return;
	m->id[m->n] = id;
	m->off[m->n++] = d_get64(d, data);
}

/* One options section; *next is its DONE's, meta the sections named. */
static int options_section(struct dump *d, uint64_t off, uint64_t *next,
			   struct meta_refs *meta)
{
	struct sect x;
	struct dsrc s;
	uint8_t *owned, *data;
	uint16_t id;
	uint32_t size, n;
	uint64_t at, end;
	int r = 0;

	*next = 0;
	if (section_header(d, off, &x))
		return -1;
	if (x.id != 0)
		return tdat_fail(&d->err, d->path, off, "section %u where the"
				 " options should be", x.id);
	section_line(d, DUMP_OPTIONS, &x);
	if (body(d, &x, &s, &owned))
		return -1;
	end = s.mem ? s.len : s.pos + x.size;
	while (!r && s.pos < end) {
		at = s.mem ? x.offset : s.pos;
		if (d_u16(d, &s, &id, "option id") ||
		    d_u32(d, &s, &size, "option size"))
			break;
		data = malloc(size + 1);
		if (!data || d_read(d, &s, data, size, "option data")) {
			free(data);
			r = d->err.msg[0] ? -1 : tdat_fail(&d->err, d->path,
						at, "out of memory");
			break;
		}
		data[size] = 0;
		if (id == TDAT_OPT_BUFFER)
			r = buffer_option(d, data, size, at);
		else
			dump_option(d, id, data, size, at);
		note_meta(d, meta, id, data, size);
		if (dump_cpucount(d, id, data, size, s.mem ? at : at + 6,
				  &n) &&
		    n > d->facts.cpus)
			d->facts.cpus = n;
		if (id == TDAT_OPT_DONE) {
			*next = size >= 8 ? d_get64(d, data) : 0;
			free(data);
			break;
		}
		free(data);
	}
	free(owned);
	if (d->err.msg[0])
		return -1;
	if (*next)
		say(d, DUMP_OPTIONS, "\n\n");
	return 0;
}

typedef int (*part_fn)(struct dump *d, struct dsrc *s);

/* The metadata sections, the last named first as trace-cmd prints them. */
static int metadata(struct dump *d, const struct meta_refs *meta)
{
	static const part_fn fns[TDAT_META_COUNT] = { dump_headers,
		dump_ftrace, dump_systems, dump_kallsyms, dump_printk,
		dump_cmdlines, [TDAT_META_MODULES] = dump_modules };
	static const unsigned masks[TDAT_META_COUNT] = {
		DUMP_HEAD_PAGE | DUMP_HEAD_EVENT, DUMP_FTRACE,
		DUMP_SYSTEMS | DUMP_EVENTS, DUMP_KALLSYMS, DUMP_PRINTK,
		DUMP_CMDLINES };
	struct sect x;
	struct dsrc s;
	uint8_t *owned;
	int k, i, r;

	for (k = meta->n - 1; k >= 0; k--) {
		i = meta->id[k] - TDAT_META_FIRST;
		if (section_header(d, meta->off[k], &x))
			return -1;
		if (x.id != meta->id[k])
			return tdat_fail(&d->err, d->path, meta->off[k],
					 "section %u where section %u should"
					 " be", x.id, meta->id[k]);
		/* (3.4 has no part of its own for the modules: --all) */
		if (i != TDAT_META_MODULES || d->parts == DUMP_ALL)
			section_line(d, i == TDAT_META_MODULES ? DUMP_ALL :
					masks[i], &x);
		if (body(d, &x, &s, &owned))
			return -1;
		r = fns[i](d, &s);
		free(owned);
		if (r)
			return -1;
	}
	return 0;
}

static int walk(struct dump *d, uint64_t first, struct sect *v, int n)
{
	struct meta_refs meta = { 0 };
	uint64_t off = first, next;
	int hops = 0;

	print_strings(d);
	print_list(d, v, n);
	while (off) {
		if (++hops > n + 1)
			return tdat_fail(&d->err, d->path, off, "the options"
					 " sections make a loop");
		if (options_section(d, off, &next, &meta))
			return -1;
		off = next;
	}
	say(d, DUMP_SUMMARY | DUMP_OPTIONS, "\t[%d options]\n",
	    d->facts.noptions);
	if (metadata(d, &meta))
		return -1;
	say(d, DUMP_SUMMARY | DUMP_SECTIONS, "\t[%d sections]\n", n);
	return 0;
}

int dump_v7(struct dump *d, struct dsrc *s)
{
	struct sect *v = NULL;
	uint64_t first;
	int n = 0, r;

	if (d_cstr(d, s, d->codec, sizeof(d->codec), "compression name") ||
	    d_cstr(d, s, d->codec_version, sizeof(d->codec_version),
		   "compression version"))
		return -1;
	say(d, DUMP_SUMMARY, "\t\t%s\t[Compression algorithm]\n"
	    "\t\t%s\t[Compression version]\n", d->codec, d->codec_version);
	if (strcmp(d->codec, "none") &&
	    tdat_codec_by_name(d->codec, &d->hf->codec))
		return d_fail(d, s, "unknown compression \"%s\"", d->codec);
	if (d_u64(d, s, &first, "options offset"))
		return -1;
	r = scan(d, s->pos, &v, &n);
	d->facts.nsections = n;
	if (!r)
		r = walk(d, first, v, n);
	if (!r && d->late.msg[0]) {
		d->err = d->late;
		r = -1;
	}
	free(v);
	return r;
}
