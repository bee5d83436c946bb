/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* options.c - option lists of both versions, and the buffers they describe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

int options_add(struct tdat_file *f, uint16_t id, uint32_t size,
		const void *data)
{
	struct tdat_option *o;

	o = realloc(f->options, (size_t)(f->noptions + 1) * sizeof(*o));
	if (!o)
		return -1;
	f->options = o;
	o = &f->options[f->noptions];
	o->id = id;
	o->size = size;
	o->data = NULL;
	if (size) {
		o->data = malloc(size);
		if (!o->data)
			return -1;
		memcpy(o->data, data, size);
	}
	f->noptions++;
	return 0;
}

int tdat_add_option(struct tdat_file *f, const struct tdat_option *o)
{
	return options_add(f, o->id, o->size, o->data);
}

struct tdat_buffer *buffers_add(struct tdat_file *f)
{
	struct tdat_buffer *b;

	b = realloc(f->buffers, (size_t)(f->nbuffers + 1) * sizeof(*b));
	if (!b)
		return NULL;
	f->buffers = b;
	b = &f->buffers[f->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->page_size = f->page_size;
	return b;
}

void buffers_drop(struct tdat_file *f, int i)
{
	struct tdat_buffer *b = &f->buffers[i];

	free(b->name);
	free(b->clock);
	free(b->cpus);
	memmove(b, b + 1, (size_t)(f->nbuffers - i - 1) * sizeof(*b));
	f->nbuffers--;
}

static int oom(struct tdat_file *f, uint64_t off, struct tdat_error *err)
{
	return tdat_fail(err, f->path, off, "out of memory");
}

/* ---- v6: u16 id, u32 size, data ... u16 0 ---- */

static int v6_buffer_option(struct tdat_file *f, const uint8_t *d,
			    uint32_t size, uint64_t off,
			    struct tdat_error *err)
{
	struct cursor c;
	uint64_t at;
	const char *name;
	struct tdat_buffer *b;

	cur_init(&c, d, size, f->big_endian, f->path, off, err);
	if (cur_u64(&c, &at, "BUFFER option offset") ||
	    cur_cstr(&c, &name, "BUFFER option name"))
		return -1;
	if (v6places_note(f, name))
		return oom(f, off, err);
	b = buffers_add(f);
	if (!b || !(b->name = strdup(name)) || !(b->clock = strdup("")))
		return oom(f, off, err);
	b->section_offset = at;
	return 0;
}

/*
 * A CPUCOUNT option (id) sets the CPU count, as in trace-cmd, when it
 * holds one.  One that holds none is only said (a note) and kept as
 * bytes: gpuvis's patched trace-cmd stored a pid/tgid table under this
 * id, and the count is in v6's header, in v7's BUFFER options.  -1 out
 * of memory.
 */
static int cpucount_option(struct tdat_file *f, uint16_t id,
			   const uint8_t *d, uint32_t size, uint64_t off)
{
	char what[200];
	uint32_t n;

	if (id != TDAT_OPT_CPUCOUNT || size < 4)
		return 0;
	if (tdat_cpucount_payload(f->big_endian, d, size, &n)) {
		f->cpu_count = n;
		return 0;
	}
	if (f->version < 7)
		snprintf(what, sizeof(what), "option CPUCOUNT (8) of %u bytes"
			 " holds no CPU count (it says %u): ignored, the"
			 " header's %u CPUs are read", size, n, f->cpu_count);
	else
		snprintf(what, sizeof(what), "option CPUCOUNT (8) of %u bytes"
			 " holds no CPU count (it says %u): ignored", size, n);
	return file_note(f, off, what);
}

int options_parse_v6(struct tdat_file *f, uint64_t *pos,
		     struct tdat_error *err)
{
	uint8_t h[6];
	struct tdat_blob data;
	uint16_t id;
	uint32_t size;
	int r;

	for (;;) {
		if (fio_read_at(f, *pos, h, 2, "option id", err))
			return -1;
		id = tdat_get16(f, h);
		if (id == TDAT_OPT_DONE) {
			*pos += 2;
			v6places_finish(f);
			return 0;
		}
		if (fio_read_at(f, *pos, h, 6, "option header", err) ||
		    fio_read_blob(f, *pos + 6, tdat_get32(f, h + 2), &data,
				  "option data", err))
			return -1;
		size = (uint32_t)data.len;
		if (id == TDAT_OPT_BUFFER)
			r = v6_buffer_option(f, data.data, size, *pos + 6, err);
		else
			r = cpucount_option(f, id, data.data, size, *pos + 6) ||
			    lastboot_check(f, id, data.data, size, *pos + 6) ||
			    options_add(f, id, size, data.data) ?
			    oom(f, *pos, err) : 0;
		tdat_blob_free(&data);
		if (r)
			return -1;
		*pos += 6 + size;
	}
}

/* ---- v7: u16 id, u32 size, data ... DONE(u64 next) ---- */

static int is_offset_option(uint16_t id)
{
	return (id >= TDAT_OPT_HEADER_INFO && id <= TDAT_OPT_CMDLINES) ||
	       id == TDAT_OPT_BTF_FILE || id == TDAT_OPT_MODULES_FILE;
}

static int v7_buffer_cpus(struct tdat_file *f, struct cursor *c,
			  struct tdat_buffer *b)
{
	uint32_t n, i, j;

	if (cur_u32(c, &n, "BUFFER cpu count"))
		return -1;
	if (n > cur_left(c) / 20)
		return tdat_fail(c->err, f->path, cur_offset(c),
				 "BUFFER option: %u CPUs do not fit in %zu"
				 " bytes", n, cur_left(c));
	b->cpus = calloc(n ? n : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return oom(f, cur_offset(c), c->err);
	for (i = 0; i < n; i++) {
		struct tdat_cpu *cpu = &b->cpus[i];
		uint32_t id;

		if (cur_u32(c, &id, "BUFFER cpu id") ||
		    cur_u64(c, &cpu->offset, "BUFFER cpu offset") ||
		    cur_u64(c, &cpu->size, "BUFFER cpu size"))
			return -1;
		if (id > 65535)
			return tdat_fail(c->err, f->path, cur_offset(c) - 20,
					 "BUFFER option: CPU id %u is too"
					 " large", id);
		for (j = 0; j < i; j++)
			if (b->cpus[j].cpu == (int)id)
				return tdat_fail(c->err, f->path,
						 cur_offset(c) - 20,
						 "BUFFER option: CPU %u listed"
						 " twice", id);
		cpu->cpu = (int)id;
		b->ncpus++;
	}
	return 0;
}

/* A buffer added by an option that turned out bad goes again: a
 * tolerant open that skips the option must not keep half of it. */
static int drop_last_buffer(struct tdat_file *f)
{
	struct tdat_buffer *b = &f->buffers[--f->nbuffers];

	free(b->name);
	free(b->clock);
	free(b->cpus);
	memset(b, 0, sizeof(*b));
	return -1;
}

static int v7_buffer_option(struct tdat_file *f, const uint8_t *d,
			    uint32_t size, uint64_t off, int latency,
			    struct tdat_error *err)
{
	struct cursor c;
	const char *name, *clock;
	struct tdat_buffer *b;
	uint64_t at;

	cur_init(&c, d, size, f->big_endian, f->path, off, err);
	if (cur_u64(&c, &at, "BUFFER section offset") ||
	    cur_cstr(&c, &name, "BUFFER name") ||
	    cur_cstr(&c, &clock, "BUFFER clock"))
		return -1;
	b = buffers_add(f);
	if (!b)
		return oom(f, off, err);
	if (!(b->name = strdup(name)) || !(b->clock = strdup(clock))) {
		drop_last_buffer(f);
		return oom(f, off, err);
	}
	b->section_offset = at;
	b->latency = latency;
	if (latency)
		return 0;
	if (cur_u32(&c, &b->page_size, "BUFFER page size"))
		return drop_last_buffer(f);
	if (b->page_size < 64 || b->page_size > TDAT_MAX_PAGE) {
		tdat_fail(err, f->path, off, "BUFFER option: page size %u is"
			  " not usable", b->page_size);
		return drop_last_buffer(f);
	}
	return v7_buffer_cpus(f, &c, b) ? drop_last_buffer(f) : 0;
}

/* Does this list hold section-offset options (our structural section)? */
static int list_is_structural(struct tdat_file *f, const uint8_t *body,
			      size_t len)
{
	size_t pos = 0;

	while (len - pos >= 6) {
		uint16_t id = tdat_get16(f, body + pos);
		uint32_t size = tdat_get32(f, body + pos + 2);

		if (is_offset_option(id))
			return 1;
		if (id == TDAT_OPT_DONE || size > len - pos - 6)
			break;
		pos += 6 + size;
	}
	return 0;
}

static int v7_option(struct tdat_file *f, uint16_t id, const uint8_t *d,
		     uint32_t size, uint64_t off, int structural,
		     struct option_sink *sink, struct tdat_error *err)
{
	if (is_offset_option(id)) {
		if (size < 8)
			return tdat_fail(err, f->path, off, "option %u: offset"
					 " needs 8 bytes, has %u", id, size);
		sink->meta_offset[id - TDAT_META_FIRST] = tdat_get64(f, d);
		return 0;
	}
	if (id == TDAT_OPT_BUFFER || id == TDAT_OPT_BUFFER_TEXT)
		return v7_buffer_option(f, d, size, off,
					id == TDAT_OPT_BUFFER_TEXT, err);
	if (id == TDAT_OPT_CPUCOUNT && size >= 4 && structural) {
		uint32_t n;

		/* Ours: writers size CPU tables by it. */
		if (!tdat_cpucount_payload(f->big_endian, d, size, &n))
			return tdat_fail(err, f->path, off, "CPUCOUNT %u is not"
					 " plausible", n);
		f->cpu_count = n;
		f->has_cpucount = 1;
		return 0;
	}
	return cpucount_option(f, id, d, size, off) ||
	       lastboot_check(f, id, d, size, off) ||
	       options_add(f, id, size, d) ? oom(f, off, err) : 0;
}

int options_parse_v7(struct tdat_file *f, const uint8_t *body, size_t len,
		     uint64_t base, struct option_sink *sink,
		     struct tdat_error *err)
{
	struct cursor c;
	int structural = list_is_structural(f, body, len);

	cur_init(&c, body, len, f->big_endian, f->path, base, err);
	sink->next = 0;
	while (cur_left(&c) > 0) {
		uint16_t id;
		uint32_t size;
		const uint8_t *d;
		uint64_t off;

		if (cur_u16(&c, &id, "option id") ||
		    cur_u32(&c, &size, "option size"))
			return -1;
		off = cur_offset(&c);
		if (cur_bytes(&c, size, &d, "option data"))
			return -1;
		if (id == TDAT_OPT_DONE) {
			if (size < 8)
				return tdat_fail(err, f->path, off, "DONE option"
						 " needs 8 bytes, has %u", size);
			sink->next = tdat_get64(f, d);
			return 0;
		}
		if (v7_option(f, id, d, size, off, structural, sink, err))
			return -1;
	}
	return tdat_fail(err, f->path, cur_offset(&c),
			 "options section ends without a DONE option");
}
