/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* read.c - opening a trace.dat: initial header, then the v6 or v7 walk. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "libfmt/internal.h"
#include "libfmt/metabuild.h"

static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				   'i', 'n', 'g' };

/*
 * The version string: "6" or "7".  An Android build of trace-cmd wrote
 * an empty one, which trace-cmd reads as version 0, laid out as 6: so
 * do we, the fields after it one byte earlier, and the string is kept
 * for a v6 output (v6version.c).  *at: where the endian flag is.
 */
static int read_version(struct tdat_file *f, const uint8_t *h, unsigned *at,
			struct tdat_error *err)
{
	if (h[10] == 0) {
		f->version = 6;
		*at = 11;
		return v6version_keep(f, "") ?
		       tdat_fail(err, f->path, 10, "out of memory") : 0;
	}
	if (h[11] != 0 || (h[10] != '6' && h[10] != '7'))
		return tdat_fail(err, f->path, 10, "unsupported file version"
				 " \"%.2s\" (tdat reads 6 and 7)",
				 (const char *)h + 10);
	f->version = h[10] - '0';
	*at = 12;
	return 0;
}

static int read_initial_header(struct tdat_file *f, struct tdat_error *err)
{
	uint8_t h[18];
	unsigned at;

	if (f->file_size < sizeof(h))
		return tdat_fail(err, f->path, f->file_size, "file is too short"
				 " (%llu bytes) for a trace.dat header",
				 (unsigned long long)f->file_size);
	if (fio_read_at(f, 0, h, sizeof(h), "initial header", err))
		return -1;
	if (memcmp(h, magic, sizeof(magic)))
		return tdat_fail(err, f->path, 0, "not a trace.dat file (bad"
				 " magic)");
	if (read_version(f, h, &at, err))
		return -1;
	if (h[at] > 1)
		return tdat_fail(err, f->path, at, "bad endian flag %u", h[at]);
	f->big_endian = h[at];
	f->long_size = h[at + 1];
	if (f->long_size != 4 && f->long_size != 8)
		return tdat_fail(err, f->path, at + 1, "bad long size %u",
				 h[at + 1]);
	f->page_size = tdat_get32(f, h + at + 2);
	if (f->page_size < 64 || f->page_size > TDAT_MAX_PAGE)
		return tdat_fail(err, f->path, at + 2, "page size %u is not"
				 " usable", f->page_size);
	f->priv->header_end = at + 6;
	return 0;
}

/* ---- v6 ---- */

static int read_keyword(struct tdat_file *f, uint64_t off, char kw[10],
			struct tdat_error *err)
{
	if (fio_read_at(f, off, kw, 10, "section keyword", err))
		return -1;
	if (!memcmp(kw, "options", 7) || !memcmp(kw, "latency", 7) ||
	    !memcmp(kw, "flyrecord", 9))
		return 0;
	return tdat_fail(err, f->path, off, "unknown keyword where"
			 " \"options\", \"latency\" or \"flyrecord\" belongs");
}

/* The CPU table after v6's "flyrecord\0" at off: cpu_count entries of
 * (offset, size), into b (replacing what b had).  Shared with salvage. */
int read_v6_cpu_table(struct tdat_file *f, uint64_t off,
		      struct tdat_buffer *b, struct tdat_error *err)
{
	uint32_t n = f->cpu_count, i;
	struct tdat_blob t;

	if (fio_read_blob(f, off + 10, (uint64_t)n * 16, &t, "CPU table", err))
		return -1;
	free(b->cpus);
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus) {
		tdat_blob_free(&t);
		return tdat_fail(err, f->path, off, "out of memory");
	}
	for (i = 0; i < n; i++) {
		b->cpus[i].cpu = (int)i;
		b->cpus[i].offset = tdat_get64(f, t.data + i * 16);
		b->cpus[i].size = tdat_get64(f, t.data + i * 16 + 8);
	}
	b->ncpus = (int)n;
	b->section_offset = off;
	tdat_blob_free(&t);
	return 0;
}

/* "flyrecord\0", CPU table, clock record: the buffer block of v6. */
static int read_v6_flyrecord(struct tdat_file *f, struct tdat_buffer *b,
			     uint64_t off, struct tdat_error *err)
{
	char kw[10];

	if (fio_read_at(f, off, kw, 10, "flyrecord keyword", err))
		return -1;
	if (memcmp(kw, "flyrecord", 10))
		return tdat_fail(err, f->path, off, "buffer \"%s\": no"
				 " \"flyrecord\" keyword here", b->name);
	if (read_v6_cpu_table(f, off, b, err))
		return -1;
	return v6clock_read(f, off + 10 + (uint64_t)f->cpu_count * 16, b, err);
}

static int v6_points_at_flyrecord(const struct tdat_file *f,
				  const struct tdat_buffer *b)
{
	struct tdat_error ignored;
	char kw[10];

	return !fio_read_at(f, b->section_offset, kw, 10, "keyword",
			    &ignored) && !memcmp(kw, "flyrecord", 10);
}

/*
 * A BUFFER option that points at no "flyrecord" block: trace-cmd 3.4's
 * split writes each instance's twice, first with offset 0.  trace-cmd
 * warns and reads the other one; so do we, dropping buffer i.
 */
static int v6_skip_buffer(struct tdat_file *f, int i)
{
	struct tdat_buffer *b = &f->buffers[i];
	char what[300];

	snprintf(what, sizeof(what), "buffer \"%.200s\": its BUFFER option"
		 " points at no \"flyrecord\" block: skipped", b->name);
	if (file_note(f, b->section_offset, what))
		return -1;
	buffers_drop(f, i);
	return 0;
}

static int read_v6_data(struct tdat_file *f, uint64_t pos,
			struct tdat_error *err)
{
	struct tdat_buffer *top, *b;
	char kw[10];
	int ninst = f->nbuffers, i;

	if (read_keyword(f, pos, kw, err))
		return -1;
	/* The top buffer goes first: make room before the instances. */
	if (!buffers_add(f))
		return tdat_fail(err, f->path, pos, "out of memory");
	b = f->buffers;
	memmove(b + 1, b, (size_t)ninst * sizeof(*b));
	top = &f->buffers[0];
	memset(top, 0, sizeof(*top));
	top->page_size = f->page_size;
	if (!(top->name = strdup("")))
		return tdat_fail(err, f->path, pos, "out of memory");
	if (!memcmp(kw, "latency", 7)) {
		top->latency = 1;
		top->clock = strdup("");
		top->latency_offset = pos + 10;
		top->latency_size = f->file_size - (pos + 10);
		return ninst ? tdat_fail(err, f->path, pos, "a latency file"
					 " cannot have instances") : 0;
	}
	if (memcmp(kw, "flyrecord", 9))
		return tdat_fail(err, f->path, pos, "expected \"flyrecord\"");
	if (read_v6_flyrecord(f, top, pos, err))
		return -1;
	for (i = 1; i <= ninst; i++) {
		/* Real tables never overlap: BUFFER options that all point at
		 * one big table would multiply memory, not describe data. */
		if ((uint64_t)(i + 1) * (10 + (uint64_t)f->cpu_count * 16) >
		    f->file_size)
			return tdat_fail(err, f->path,
					 f->buffers[i].section_offset, "%d"
					 " instance CPU tables cannot fit in"
					 " the file", ninst);
		if (!v6_points_at_flyrecord(f, &f->buffers[i])) {
			if (v6_skip_buffer(f, i--))
				return tdat_fail(err, f->path, pos,
						 "out of memory");
			ninst--;
			continue;
		}
		if (read_v6_flyrecord(f, &f->buffers[i],
				      f->buffers[i].section_offset, err))
			return -1;
	}
	return 0;
}

/*
 * v6 up to its trace data: metadata parts, CPU count, options.  *pos
 * ends at the "latency" or "flyrecord" keyword.  strict: that keyword
 * must be there (salvage looks for the data itself).
 */
int read_v6_head(struct tdat_file *f, uint64_t *pos, int strict,
		 struct tdat_error *err)
{
	uint8_t n[4];
	char kw[10];

	*pos = f->priv->header_end;
	if (meta_read_v6_parts(f, pos, err) ||
	    fio_read_at(f, *pos, n, 4, "CPU count", err))
		return -1;
	f->cpu_count = tdat_get32(f, n);
	if (meta_parse_header_page(f, f->priv->header_end, err))
		return -1;
	if (f->cpu_count > TDAT_MAX_CPUS)
		return tdat_fail(err, f->path, *pos, "CPU count %u is not"
				 " plausible", f->cpu_count);
	*pos += 4;
	if (strict ? read_keyword(f, *pos, kw, err) :
	    fio_read_at(f, *pos, kw, 10, "options keyword", err))
		return -1;
	if (!memcmp(kw, "options", 7)) {
		*pos += 10;
		if (options_parse_v6(f, pos, err))
			return -1;
	}
	return 0;
}

static int read_v6(struct tdat_file *f, struct tdat_error *err)
{
	uint64_t pos;

	if (read_v6_head(f, &pos, 1, err))
		return -1;
	return read_v6_data(f, pos, err);
}

/* ---- v7 ---- */

static int read_v7_header(struct tdat_file *f, uint64_t *opt_off,
			  uint64_t *first_section, struct tdat_error *err)
{
	uint8_t b[80];
	struct cursor c;
	size_t n = sizeof(b);
	const char *name, *ver;

	if (f->file_size - 18 < n)
		n = (size_t)(f->file_size - 18);
	if (fio_read_at(f, 18, b, n, "compression header", err))
		return -1;
	cur_init(&c, b, n, f->big_endian, f->path, 18, err);
	if (cur_cstr(&c, &name, "compression name") ||
	    cur_cstr(&c, &ver, "compression version") ||
	    cur_u64(&c, opt_off, "options offset"))
		return -1;
	if (!(f->codec_name = strdup(name)) ||
	    !(f->codec_version = strdup(ver)))
		return tdat_fail(err, f->path, 18, "out of memory");
	if (tdat_codec_by_name(name, &f->codec))
		return tdat_fail(err, f->path, 18, "unsupported compression"
				 " \"%s\"", name);
	*first_section = cur_offset(&c);
	if (*opt_off == 0)
		return tdat_fail(err, f->path, cur_offset(&c) - 8, "no options"
				 " section (the writer did not finish)");
	return 0;
}

static int read_options_chain(struct tdat_file *f, uint64_t off,
			      struct option_sink *sink, struct tdat_error *err)
{
	uint64_t seen[1024], stored = 0;
	int nseen = 0, i;

	while (off) {
		struct section_header h;
		struct tdat_blob body;
		int r;

		for (i = 0; i < nseen; i++)
			if (seen[i] == off)
				return tdat_fail(err, f->path, off, "options"
						 " sections form a loop");
		if (nseen == (int)(sizeof(seen) / sizeof(seen[0])))
			return tdat_fail(err, f->path, off, "too many options"
					 " sections");
		seen[nseen++] = off;
		if (section_read_header(f, off, &h, err))
			return -1;
		if (h.id != TDAT_OPT_DONE)
			return tdat_fail(err, f->path, off, "expected an options"
					 " section, found section id %u", h.id);
		/* Sections that overlap would be read (and their options
		 * kept) again and again: real ones never sum past the file. */
		stored += SECTION_HEADER_SIZE + h.size;
		if (stored > f->file_size)
			return tdat_fail(err, f->path, off, "options sections"
					 " overlap (they add up to more than the"
					 " file)");
		if (section_read_body(f, &h, &body, err))
			return -1;
		r = options_parse_v7(f, body.data, body.len,
				     off + SECTION_HEADER_SIZE, sink, err);
		tdat_blob_free(&body);
		if (r)
			return -1;
		off = sink->next;
	}
	return 0;
}

int file_hold_meta(struct tdat_file *f, size_t n, uint64_t off,
		   struct tdat_error *err)
{
	if (budget_take(n))
		return tdat_budget_fail(err, f->path, off, "metadata", n);
	f->priv->meta_held += n;
	return 0;
}

/* A size field that runs past the part's end, worded for the section. */
static int size_error(const struct tdat_file *f, int id,
		      const struct tdat_blob *b, uint64_t off, int compressed,
		      size_t bad, const char *why, struct tdat_error *err)
{
	if (compressed)
		return tdat_fail(err, f->path, off, "section %d: %s: size"
				 " field at byte %zu of the decompressed body"
				 " runs past its end (%zu bytes)", id, why,
				 bad, b->len);
	return tdat_fail(err, f->path, off + SECTION_HEADER_SIZE + bad,
			 "section %d: %s: size field runs past the section's"
			 " end (%zu bytes)", id, why, b->len);
}

/* Size fields and keywords inside a part must agree with the section's
 * length, or a v6 copy of it would be unreadable. */
int meta_check_v7(const struct tdat_file *f, int i, const struct tdat_blob *b,
		  uint64_t off, int compressed, struct tdat_error *err)
{
	size_t bad;
	const char *why;
	int id = TDAT_META_FIRST + i;

	if (!meta_check_blob(f, i, b, &bad, &why))
		return 0;
	if (strcmp(why, META_KEYWORD_PAGE) && strcmp(why, META_KEYWORD_EVENT))
		return size_error(f, id, b, off, compressed, bad, why, err);
	if (compressed)
		return tdat_fail(err, f->path, off, "section %d: %s at byte %zu"
				 " of the decompressed body", id, why, bad);
	return tdat_fail(err, f->path, off + SECTION_HEADER_SIZE + bad,
			 "section %d: %s", id, why);
}

/*
 * One metadata section.  Asked to keep stored forms (flags), a compressed
 * one is kept as stored, and decoded now (from those bytes) or, lazily,
 * only located: its block header is checked, its body read when needed.
 */
static int read_v7_part(struct tdat_file *f, int i,
			const struct section_header *h, unsigned flags,
			struct tdat_error *err)
{
	struct tdat_stored *s = &f->priv->stored[i];
	uint64_t body = h->offset + SECTION_HEADER_SIZE;

	f->priv->meta_present[i] = 1;
	if (!(flags & (TDAT_OPEN_KEEP_STORED | TDAT_OPEN_LAZY_META)) ||
	    !(h->flags & SECTION_COMPRESSED) || f->codec == TDAT_CODEC_NONE) {
		if (section_read_body(f, h, &f->meta[i], err) ||
		    ((h->flags & SECTION_COMPRESSED) &&
		     file_hold_meta(f, f->meta[i].len, h->offset, err)))
			return -1;
		return meta_check_v7(f, i, &f->meta[i], h->offset,
				     h->flags & SECTION_COMPRESSED, err);
	}
	s->offset = h->offset;
	s->size = h->size;
	s->codec = f->codec;
	s->big_endian = f->big_endian;
	/* header_page says how pages are laid out: always wanted. */
	if ((flags & TDAT_OPEN_LAZY_META) && i != TDAT_META_HEADERS) {
		s->pending = 1;
		return block_check_at(f, body, h->size, err);
	}
	if (fio_read_blob(f, body, h->size, &s->bytes, "section body", err) ||
	    block_decode(f, s->bytes.data, s->bytes.len, body, &f->meta[i],
			 err) ||
	    file_hold_meta(f, f->meta[i].len, h->offset, err))
		return -1;
	s->content = f->meta[i].data;
	s->content_len = f->meta[i].len;
	return meta_check_v7(f, i, &f->meta[i], h->offset, 1, err);
}

/* A hostile file may need thousands: past this many, one says so. */
#define MAX_NOTES 16

/* line (a whole "FILE: ..." message) as the next note. */
static int note_line(struct tdat_file *f, const char *line)
{
	struct tdat_priv *p = f->priv;
	struct tdat_error e;
	char **v;

	if (p->nnotes > MAX_NOTES)
		return 0;
	if (p->nnotes == MAX_NOTES) {
		tdat_fail_nooff(&e, f->path, "more of the same left unsaid");
		line = e.msg;
	}
	v = realloc(p->notes, (size_t)(p->nnotes + 1) * sizeof(*v));
	if (!v)
		return -1;
	p->notes = v;
	v[p->nnotes] = strdup(line);
	return v[p->nnotes++] ? 0 : -1;
}

/*
 * The BTF and modules sections (trace-cmd 3.4) say nothing readers need
 * to read the events: one that cannot be read (err says why) is left
 * out, with a note.  0, or -1 when another part failed (or memory ran
 * out).
 */
static int leave_out(struct tdat_file *f, int i, struct tdat_error *err)
{
	char line[sizeof(err->msg) + 64];

	if ((i != TDAT_META_BTF && i != TDAT_META_MODULES) || err->memory)
		return -1;
	tdat_meta_drop(f, i);
	snprintf(line, sizeof(line), "%s: the %s section is left out",
		 err->msg, i == TDAT_META_BTF ? "BTF" : "modules");
	return note_line(f, line) ?
	       tdat_fail_nooff(err, f->path, "out of memory") : 0;
}

static int read_v7_meta(struct tdat_file *f, const struct option_sink *sink,
			unsigned flags, struct tdat_error *err)
{
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++) {
		struct section_header h;

		if (!sink->meta_offset[i])
			continue;
		if (section_read_header(f, sink->meta_offset[i], &h, err)) {
			if (leave_out(f, i, err))
				return -1;
			continue;
		}
		if (h.id != TDAT_META_FIRST + i) {
			tdat_fail(err, f->path, h.offset, "expected section"
				  " %d, found %u", TDAT_META_FIRST + i, h.id);
			if (leave_out(f, i, err))
				return -1;
			continue;
		}
		if (read_v7_part(f, i, &h, flags, err) && leave_out(f, i, err))
			return -1;
	}
	return meta_parse_header_page(f, sink->meta_offset[TDAT_META_HEADERS] ?
				      sink->meta_offset[TDAT_META_HEADERS] :
				      sink->first_options, err);
}

static int read_v7_buffers(struct tdat_file *f, struct tdat_error *err)
{
	int i, top = -1;

	for (i = 0; i < f->nbuffers; i++) {
		struct tdat_buffer *b = &f->buffers[i];
		struct section_header h;
		uint16_t want = b->latency ? TDAT_OPT_BUFFER_TEXT :
					     TDAT_OPT_BUFFER;

		if (section_read_header(f, b->section_offset, &h, err))
			return -1;
		if (h.id != want)
			return tdat_fail(err, f->path, h.offset, "buffer \"%s\":"
					 " expected section %u, found %u",
					 b->name, want, h.id);
		b->compressed = h.flags & SECTION_COMPRESSED;
		if (b->compressed && f->codec == TDAT_CODEC_NONE)
			return tdat_fail(err, f->path, h.offset, "buffer \"%s\""
					 " is compressed in a file without"
					 " compression", b->name);
		b->latency_offset = h.offset + SECTION_HEADER_SIZE;
		b->latency_size = h.size;
		if (!b->name[0] && top < 0)
			top = i;
	}
	if (top > 0) {		/* the top buffer first */
		struct tdat_buffer t = f->buffers[top];

		memmove(f->buffers + 1, f->buffers, (size_t)top * sizeof(t));
		f->buffers[0] = t;
	}
	return 0;
}

static int read_v7(struct tdat_file *f, unsigned flags,
		   struct tdat_error *err)
{
	struct option_sink sink;
	uint64_t opt_off = 0, first = 0;

	memset(&sink, 0, sizeof(sink));
	if (read_v7_header(f, &opt_off, &first, err))
		return -1;
	sink.first_options = opt_off;
	if (sections_scan(f, first, err) ||
	    read_options_chain(f, opt_off, &sink, err) ||
	    read_v7_meta(f, &sink, flags, err))
		return -1;
	return read_v7_buffers(f, err);
}

/* ---- public ---- */

/* A file and its private part in one allocation: pub comes first, so
 * free(f) in tdat_close frees both. */
struct file_and_priv {
	struct tdat_file pub;
	struct tdat_priv priv;
};

struct tdat_file *file_alloc(void)
{
	struct file_and_priv *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->pub.priv = &a->priv;
	a->priv.fd = -1;
	return &a->pub;
}

/* Open path and parse its initial header, then (all != 0) the rest. */
/* A guest's TIME_SHIFT, kept parsed; a malformed one moves nothing and
 * says so in a note. */
static int read_time_shift(struct tdat_file *f, struct tdat_error *err)
{
	const struct tdat_option *o = tdat_find_option(f, TDAT_OPT_TIME_SHIFT);

	if (!o)
		return 0;
	f->priv->guest = timeshift_parse(f, o);
	if (f->priv->guest)
		return 0;
	if (file_note(f, 0, "TIME_SHIFT option is malformed: guest times"
		      " are not moved to the host's clock"))
		return tdat_fail_nooff(err, f->path, "out of memory");
	return 0;
}

static struct tdat_file *open_file(const char *path, int all, unsigned flags,
				   struct tdat_error *err)
{
	struct tdat_file *f = file_alloc();
	struct stat st;

	if (!f || !(f->path = strdup(path))) {
		free(f);
		tdat_fail_nooff(err, path, "out of memory");
		return NULL;
	}
	f->priv->fd = tdat_open_regular(path, err);
	if (f->priv->fd < 0 || fstat(f->priv->fd, &st)) {
		if (f->priv->fd >= 0)
			tdat_fail_nooff(err, path, "cannot stat");
		goto fail;
	}
	f->file_size = (uint64_t)st.st_size;
	f->priv->allowance = f->file_size;
	budget_allow_input(f->file_size);
	if (read_initial_header(f, err) ||
	    (all && (f->version == 6 ? read_v6(f, err) :
		     read_v7(f, flags, err))) ||
	    (all && read_time_shift(f, err)))
		goto fail;
	return f;
fail:
	tdat_close(f);
	return NULL;
}

struct tdat_file *tdat_open(const char *path, struct tdat_error *err)
{
	return open_file(path, 1, 0, err);
}

struct tdat_file *tdat_open_flags(const char *path, unsigned flags,
				  struct tdat_error *err)
{
	return open_file(path, 1, flags, err);
}

struct tdat_file *tdat_open_header(const char *path, struct tdat_error *err)
{
	return open_file(path, 0, 0, err);
}

int file_note(struct tdat_file *f, uint64_t off, const char *what)
{
	struct tdat_error e;

	tdat_fail(&e, f->path, off, "%s", what);
	return note_line(f, e.msg);
}

const char *tdat_note(const struct tdat_file *f, int i)
{
	return i >= 0 && i < f->priv->nnotes ? f->priv->notes[i] : NULL;
}

void tdat_close(struct tdat_file *f)
{
	int i;

	if (!f)
		return;
	budget_forget_input(f->priv->allowance);
	budget_give(f->priv->meta_held);
	timeshift_free(f->priv->guest);
	for (i = 0; i < f->priv->nnotes; i++)
		free(f->priv->notes[i]);
	free(f->priv->notes);
	if (f->priv->fd >= 0)
		close(f->priv->fd);
	for (i = 0; i < TDAT_META_COUNT; i++) {
		tdat_blob_free(&f->meta[i]);
		tdat_blob_free(&f->priv->stored[i].bytes);
	}
	for (i = 0; i < f->noptions; i++)
		free(f->options[i].data);
	for (i = 0; i < f->nbuffers; i++) {
		free(f->buffers[i].name);
		free(f->buffers[i].clock);
		free(f->buffers[i].cpus);
	}
	for (i = 0; i < f->nextra; i++) {
		free(f->extra[i].description);
		tdat_blob_free(&f->extra[i].body);
	}
	free(f->options);
	free(f->buffers);
	free(f->extra);
	tdat_blob_free(&f->strings);
	free(f->codec_name);
	free(f->codec_version);
	free(f->path);
	free(f);
}

int tdat_meta_has(const struct tdat_file *f, enum tdat_meta m)
{
	return (int)m >= 0 && (int)m < TDAT_META_COUNT &&
	       f->priv->meta_present[m];
}

uint32_t tdat_cpus(const struct tdat_file *f)
{
	const struct tdat_buffer *top = tdat_top_buffer(f);
	uint32_t n = f->cpu_count;
	int i;

	if (f->version < 7 || !top)
		return n;
	for (i = 0; i < top->ncpus; i++)
		if ((uint32_t)top->cpus[i].cpu + 1 > n)
			n = (uint32_t)top->cpus[i].cpu + 1;
	return n;
}

uint64_t tdat_data_size(const struct tdat_file *f)
{
	uint64_t total = 0;
	int i, j;

	for (i = 0; i < f->nbuffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];

		if (b->latency)
			total += b->latency_size;
		for (j = 0; !b->latency && j < b->ncpus; j++)
			total += b->cpus[j].size;
	}
	return total;
}

const struct tdat_buffer *tdat_top_buffer(const struct tdat_file *f)
{
	if (f->nbuffers > 0 && !f->buffers[0].name[0])
		return &f->buffers[0];
	return NULL;
}

const struct tdat_option *tdat_find_option(const struct tdat_file *f,
					   uint16_t id)
{
	int i;

	for (i = f->noptions - 1; i >= 0; i--)
		if (f->options[i].id == id)
			return &f->options[i];
	return NULL;
}
