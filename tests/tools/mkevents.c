/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkevents - make SYNTHETIC trace.dat files from event formats and
 * records written out in a script, for formats no kernel exports and
 * records no kernel writes (a print fmt libtraceevent cannot parse, a
 * count that runs past its record), so that report can be compared with
 * trace-cmd on them.
 *
 * usage: mkevents [--big-endian] [--long4] SCRIPT OUT
 *
 * OUT is a v6 file (tdat convert makes v7 of it), 4096-byte pages, the
 * `local` clock, no options, kallsyms or printk formats.  --big-endian
 * writes every integer (container, pages, fields) big endian; --long4 is
 * a 32-bit kernel's layout: 4-byte longs and commit word, 12-byte page
 * headers.
 *
 * SCRIPT is a text file, one item a line (a line starting with '#' is
 * a comment):
 *   format SYSTEM        the lines up to one reading "end" are an event
 *                        format text (tabs kept), of system SYSTEM
 *   cmdline PID COMM     a saved cmdline
 *   CPU TS PID EVENT [FIELD=VALUE]... [@OFF=HEX]... [size=N]
 *                        a record of EVENT (a format's name, or #ID for
 *                        an id without fields) on CPU at raw time TS
 * A record starts with its common fields (common_type the event's id,
 * common_pid PID, the others 0), then its fields as given (0 else):
 *   N, -N, 0xN           a number, as wide as the field;
 *   N,N,...              a static array's elements (the field's element
 *                        size), or a dynamic array's data;
 *   s:TEXT               text and its NUL (cut to a static field's size);
 *   x:HEX                bytes.
 * Dynamic (__data_loc, __rel_loc) fields get their data after the
 * static fields, in the order given, and their descriptor set
 * (length << 16 | offset; __rel_loc counts from the descriptor's end);
 * loc:OFF:LEN sets the descriptor alone, as given (a second FIELD=
 * after the first one forges it).
 * @OFF=HEX then writes bytes at payload offset OFF, and size=N makes the
 * payload N bytes (cut, or zeros added).  Payloads are padded with zeros
 * to a multiple of 4, as the ring buffer does.
 *
 * The fields are learnt by libtraceevent from each format with its
 * print fmt left out (so that a format it would crash on can be used).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"
#include "libfmt/metabuild.h"
#include "libfmt/bytes.h"

#define PAGE 4096
#define MAX_CPUS 8
#define MAX_PAYLOAD 4000
#define DELTA_BITS 27

struct out_cpu {
	uint8_t *pages;
	size_t npages;
	uint32_t used;
	uint64_t last_ts;
	int started;
};

struct maker {
	struct tdat_file *f;
	struct tep_handle *tep;		/* fields of the formats */
	struct tdat_bytes events;	/* the events part, being made */
	struct tdat_bytes cmdlines;
	uint32_t nsys;
	struct out_cpu cpu[MAX_CPUS];
	int ncpus;
	int line;
};

static void die(const struct maker *m, const char *fmt, const char *arg)
{
	fprintf(stderr, "mkevents: ");
	if (m && m->line)
		fprintf(stderr, "line %d: ", m->line);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void add(struct maker *m, struct tdat_bytes *b, const void *d,
		size_t n)
{
	if (tdat_bytes_add(b, d, n))
		die(m, "%s", "out of memory");
}

static void add_num(struct maker *m, struct tdat_bytes *b, uint64_t v,
		    int width)
{
	uint8_t w[8];

	if (width == 4)
		tdat_put32(m->f, w, (uint32_t)v);
	else
		tdat_put64(m->f, w, v);
	add(m, b, w, (size_t)width);
}

/* ---- metadata ---- */

static void set_headers(struct maker *m)
{
	static const char event_text[] =
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n";
	struct tdat_bytes b = { 0 };
	struct tdat_blob blob;
	char page_text[512];
	int cs = m->f->commit_size, n;

	n = snprintf(page_text, sizeof(page_text),
		     "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		     "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		     "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		     "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n",
		     cs, 8 + cs, PAGE - 8 - cs);
	add(m, &b, "header_page", 12);
	add_num(m, &b, (uint64_t)n, 8);
	add(m, &b, page_text, (size_t)n);
	add(m, &b, "header_event", 13);
	add_num(m, &b, sizeof(event_text) - 1, 8);
	add(m, &b, event_text, sizeof(event_text) - 1);
	blob.data = b.data;
	blob.len = b.len;
	tdat_meta_set(m->f, TDAT_META_HEADERS, &blob);
	free(blob.data);
}

/* Part p: a count (width bytes, none for 0), then body. */
static void set_part(struct maker *m, enum tdat_meta p, uint64_t count,
		     int width, struct tdat_bytes *body)
{
	struct tdat_bytes b = { 0 };
	struct tdat_blob blob;

	if (width)
		add_num(m, &b, count, width);
	add(m, &b, body->data, body->len);
	blob.data = b.data;
	blob.len = b.len;
	tdat_meta_set(m->f, p, &blob);
	free(blob.data);
	tdat_bytes_free(body);
}

/* Its fields into m->tep: the text up to its print fmt line. */
static void learn_fields(struct maker *m, const char *text, size_t len,
			 const char *system)
{
	const char *pf = strstr(text, "print fmt:");
	struct tdat_bytes t = { 0 };

	add(m, &t, text, pf ? (size_t)(pf - text) : len);
	add(m, &t, "print fmt: \"\"\n", 15);
	if (tep_parse_event(m->tep, (const char *)t.data, t.len - 1, system))
		fprintf(stderr, "mkevents: line %d: libtraceevent does not"
			" take this format's fields\n", m->line);
	tdat_bytes_free(&t);
}

/* format SYSTEM ... end */
static void read_format(struct maker *m, FILE *fp, const char *system)
{
	struct tdat_bytes t = { 0 };
	char line[4096];
	uint64_t len;

	while (fgets(line, sizeof(line), fp)) {
		if (!strcmp(line, "end\n") || !strcmp(line, "end"))
			break;
		add(m, &t, line, strlen(line));
	}
	len = t.len;
	add(m, &t, "", 1);
	add(m, &m->events, system, strlen(system) + 1);
	add_num(m, &m->events, 1, 4);
	add_num(m, &m->events, len, 8);
	add(m, &m->events, t.data, (size_t)len);
	m->nsys++;
	learn_fields(m, (const char *)t.data, (size_t)len, system);
	tdat_bytes_free(&t);
}

/* ---- records ---- */

static void put_int(const struct maker *m, uint8_t *p, int size, uint64_t v)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: tdat_put16(m->f, p, (uint16_t)v); break;
	case 4: tdat_put32(m->f, p, (uint32_t)v); break;
	case 8: tdat_put64(m->f, p, v); break;
	default: die(m, "no integer of %s bytes", size == 3 ? "3" : "that");
	}
}

static int hex_digit(const struct maker *m, char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	die(m, "bad hex digit in %s", "x:");
	return 0;
}

/* VALUE's bytes for a field of element size es into out; their count. */
static size_t value_bytes(const struct maker *m, const char *v, int es,
			  uint8_t *out, size_t cap)
{
	size_t n = 0;
	char *end;

	if (!strncmp(v, "s:", 2)) {
		n = strlen(v + 2) + 1;
		if (n > cap)
			die(m, "text too long: %s", v);
		memcpy(out, v + 2, n);
		return n;
	}
	if (!strncmp(v, "x:", 2)) {
		for (v += 2; v[0] && v[1]; v += 2) {
			if (n >= cap)
				die(m, "%s", "too many bytes");
			out[n++] = (uint8_t)(hex_digit(m, v[0]) << 4 |
					     hex_digit(m, v[1]));
		}
		return n;
	}
	if (es != 1 && es != 2 && es != 4 && es != 8)
		es = 8;
	for (;;) {
		if (n + (size_t)es > cap)
			die(m, "%s", "too many elements");
		put_int(m, out + n, es, strtoull(v, &end, 0));
		n += (size_t)es;
		if (end == v || (*end && *end != ','))
			die(m, "bad number in %s", v);
		if (!*end)
			return n;
		v = end + 1;
	}
}

struct payload {
	uint8_t b[MAX_PAYLOAD];
	uint32_t size;		/* bytes used so far */
	int forced;		/* size=N given */
};

/* FIELD=VALUE into p. */
static void put_field(const struct maker *m, struct tep_event *ev,
		      struct payload *p, const char *name, const char *v)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);
	uint8_t buf[MAX_PAYLOAD];
	size_t n;
	uint32_t off, desc;
	char *end;

	if (!f)
		die(m, "the event has no field %s", name);
	if (f->offset < 0 || f->offset + f->size > MAX_PAYLOAD)
		die(m, "field %s is out of reach", name);
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		n = value_bytes(m, v, (f->flags & TEP_FIELD_IS_ARRAY) ?
				(int)f->elementsize : f->size, buf, sizeof(buf));
		if (n > (size_t)f->size)
			n = (size_t)f->size;
		memcpy(p->b + f->offset, buf, n);
		return;
	}
	if (!strncmp(v, "loc:", 4)) {	/* the descriptor as given */
		off = (uint32_t)strtoul(v + 4, &end, 0);
		desc = (uint32_t)strtoul(*end == ':' ? end + 1 : end, NULL, 0);
		put_int(m, p->b + f->offset, f->size, desc << 16 | (off & 0xffff));
		return;
	}
	n = value_bytes(m, v, (int)f->elementsize, buf, sizeof(buf));
	if (p->size + n > MAX_PAYLOAD)
		die(m, "%s", "record too long");
	off = p->size;
	memcpy(p->b + off, buf, n);
	p->size += (uint32_t)n;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off -= (uint32_t)(f->offset + f->size);
	desc = (uint32_t)n << 16 | (off & 0xffff);
	put_int(m, p->b + f->offset, f->size, desc);
}

/* Bytes of ev's static fields (the end of the last one). */
static uint32_t static_size(struct tep_event *ev)
{
	struct tep_format_field **all = tep_event_fields(ev);
	struct tep_format_field *f;
	uint32_t end = 0;
	int i;

	for (f = ev->format.common_fields; f; f = f->next)
		if ((uint32_t)(f->offset + f->size) > end)
			end = (uint32_t)(f->offset + f->size);
	for (i = 0; all && all[i]; i++)
		if ((uint32_t)(all[i]->offset + all[i]->size) > end)
			end = (uint32_t)(all[i]->offset + all[i]->size);
	free(all);
	return end;
}

static void put_common(const struct maker *m, struct tep_event *ev,
		       struct payload *p, int id, int pid)
{
	struct tep_format_field *f;

	if (!ev) {
		tdat_put16(m->f, p->b, (uint16_t)id);
		tdat_put32(m->f, p->b + 4, (uint32_t)pid);
		return;
	}
	f = tep_find_common_field(ev, "common_type");
	if (f)
		put_int(m, p->b + f->offset, f->size, (uint64_t)id);
	f = tep_find_common_field(ev, "common_pid");
	if (f)
		put_int(m, p->b + f->offset, f->size, (uint64_t)pid);
}

/* @OFF=HEX */
static void poke(const struct maker *m, struct payload *p, const char *w)
{
	char *eq;
	unsigned long off = strtoul(w + 1, &eq, 0);
	size_t n;

	if (*eq != '=' || off >= MAX_PAYLOAD)
		die(m, "bad %s", w);
	n = value_bytes(m, eq + 1, 1, p->b + off, MAX_PAYLOAD - off);
	if (off + n > p->size && !p->forced)
		p->size = (uint32_t)(off + n);
}

static struct tep_event *find_event(const struct maker *m, const char *name,
				    int *id)
{
	struct tep_event **all = tep_list_events(m->tep, TEP_EVENT_SORT_ID);
	int i;

	if (name[0] == '#') {
		*id = atoi(name + 1);
		return NULL;
	}
	for (i = 0; all && all[i]; i++)
		if (!strcmp(all[i]->name, name)) {
			*id = all[i]->id;
			return all[i];
		}
	die(m, "no format named %s", name);
	return NULL;
}

static void make_payload(const struct maker *m, char **w, int nw,
			 struct payload *p)
{
	struct tep_event *ev;
	char *eq;
	int id, k;

	memset(p, 0, sizeof(*p));
	ev = find_event(m, w[3], &id);
	p->size = ev ? static_size(ev) : 8;
	put_common(m, ev, p, id, atoi(w[2]));
	for (k = 4; k < nw; k++) {
		eq = strchr(w[k], '=');
		if (!eq)
			die(m, "no '=' in %s", w[k]);
		*eq = 0;
		if (!strcmp(w[k], "size")) {
			p->size = (uint32_t)strtoul(eq + 1, NULL, 0);
			p->forced = 1;
			if (p->size > MAX_PAYLOAD)
				die(m, "size %s too large", eq + 1);
		} else if (w[k][0] == '@') {
			*eq = '=';
			poke(m, p, w[k]);
		} else if (ev) {
			put_field(m, ev, p, w[k], eq + 1);
		} else {
			die(m, "%s", "an event given by id has no fields");
		}
	}
	p->size = (p->size + 3) & ~3u;
}

static uint8_t *new_page(struct maker *m, struct out_cpu *c, uint64_t ts)
{
	uint8_t *pages = realloc(c->pages, (c->npages + 1) * PAGE);

	if (!pages)
		die(m, "%s", "out of memory");
	c->pages = pages;
	memset(pages + c->npages * PAGE, 0, PAGE);
	tdat_put64(m->f, pages + c->npages * PAGE, ts);
	c->npages++;
	c->used = 0;
	c->last_ts = ts;
	return pages + (c->npages - 1) * PAGE;
}

static void put_word(const struct maker *m, uint8_t *p, uint32_t type_len,
		     uint32_t delta)
{
	uint32_t word = m->f->big_endian ? type_len << DELTA_BITS | delta :
					   delta << 5 | type_len;

	tdat_put32(m->f, p, word);
}

static void add_event(struct maker *m, int cpu, uint64_t ts,
		      const struct payload *pl)
{
	struct out_cpu *c = &m->cpu[cpu];
	uint32_t hdr = (uint32_t)m->f->page_header_size, size = pl->size;
	uint32_t need = size + (size > 112 ? 8 : 4) + 8;
	uint64_t delta;
	uint8_t *page, *p;

	if (c->started && ts < c->last_ts)
		die(m, "%s", "a CPU's records must come in time order");
	page = c->started ? c->pages + (c->npages - 1) * PAGE : NULL;
	if (!c->started || hdr + c->used + need > PAGE)
		page = new_page(m, c, ts);
	c->started = 1;
	delta = ts - c->last_ts;
	p = page + hdr + c->used;
	if (delta >> DELTA_BITS) {
		put_word(m, p, 30, (uint32_t)(delta & ((1u << DELTA_BITS) - 1)));
		tdat_put32(m->f, p + 4, (uint32_t)(delta >> DELTA_BITS));
		p += 8;
		delta = 0;
	}
	if (size > 112 || !size) {
		put_word(m, p, 0, (uint32_t)delta);
		tdat_put32(m->f, p + 4, size + 4);
		p += 8;
	} else {
		put_word(m, p, size / 4, (uint32_t)delta);
		p += 4;
	}
	memcpy(p, pl->b, size);
	p += size;
	c->used = (uint32_t)(p - (page + hdr));
	c->last_ts = ts;
	if (m->f->commit_size == 8)
		tdat_put64(m->f, page + 8, c->used);
	else
		tdat_put32(m->f, page + 8, c->used);
}

static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	line += strspn(line, " \t");
	if (*line == '#')
		return 0;
	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	return n;
}

static void run_script(struct maker *m, const char *path)
{
	FILE *fp = fopen(path, "r");
	static struct payload pl;
	char line[8192], *w[64];
	int nw, cpu;

	if (!fp)
		die(m, "cannot open %s", path);
	while (fgets(line, sizeof(line), fp)) {
		m->line++;
		nw = split_words(line, w, 64);
		if (!nw)
			continue;
		if (!strcmp(w[0], "format") && nw == 2) {
			read_format(m, fp, w[1]);
			continue;
		}
		if (!strcmp(w[0], "cmdline") && nw == 3) {
			add(m, &m->cmdlines, w[1], strlen(w[1]));
			add(m, &m->cmdlines, " ", 1);
			add(m, &m->cmdlines, w[2], strlen(w[2]));
			add(m, &m->cmdlines, "\n", 1);
			continue;
		}
		if (nw < 4)
			die(m, "short line: %s", w[0]);
		cpu = atoi(w[0]);
		if (cpu < 0 || cpu >= MAX_CPUS)
			die(m, "bad CPU %s", w[0]);
		if (cpu + 1 > m->ncpus)
			m->ncpus = cpu + 1;
		make_payload(m, w, nw, &pl);
		add_event(m, cpu, strtoull(w[1], NULL, 0), &pl);
	}
	fclose(fp);
}

static void write_out(struct maker *m, const char *path)
{
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	struct tdat_error err;
	struct tdat_bytes empty = { 0 };
	int i;

	set_part(m, TDAT_META_FTRACE, 0, 4, &empty);
	set_part(m, TDAT_META_EVENTS, m->nsys, 4, &m->events);
	set_part(m, TDAT_META_KALLSYMS, 0, 4, &empty);
	set_part(m, TDAT_META_PRINTK, 0, 4, &empty);
	set_part(m, TDAT_META_CMDLINES, m->cmdlines.len, 8, &m->cmdlines);
	if (!m->ncpus)
		m->ncpus = 1;
	m->f->cpu_count = (uint32_t)m->ncpus;
	if (tdat_meta_add_buffer(m->f, "", "local", PAGE) < 0)
		die(m, "%s", "out of memory");
	for (i = 0; i < m->ncpus; i++)
		if (tdat_meta_add_cpu(m->f, 0, i))
			die(m, "%s", "out of memory");
	memset(&wo, 0, sizeof(wo));
	wo.version = 6;
	wo.threads = 1;
	w = tdat_writer_open(path, m->f, &wo, &err);
	if (!w)
		die(NULL, "%s", err.msg);
	for (i = 0; i < m->ncpus; i++) {
		struct out_cpu *c = &m->cpu[i];

		if (tdat_writer_begin_cpu(w, 0, i, &err) ||
		    (c->npages && tdat_writer_put_pages(w, c->pages,
				c->npages * PAGE, &err)) ||
		    tdat_writer_end_cpu(w, &err))
			die(NULL, "%s", err.msg);
		free(c->pages);
	}
	if (tdat_writer_close(w, &err))
		die(NULL, "%s", err.msg);
}

int main(int argc, char **argv)
{
	struct maker m;
	struct tdat_error err;
	int i = 1, big = 0, long4 = 0;

	memset(&m, 0, sizeof(m));
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--big-endian"))
			big = 1;
		else if (!strcmp(argv[i], "--long4"))
			long4 = 1;
		else
			die(NULL, "unknown option %s", argv[i]);
	}
	if (argc - i != 2)
		die(NULL, "%s", "usage: mkevents [--big-endian] [--long4]"
			" SCRIPT OUT");
	m.f = tdat_meta_new(6, big, long4 ? 4 : 8, PAGE, &err);
	m.tep = tep_alloc();
	if (!m.f || !m.tep)
		die(NULL, "%s", "out of memory");
	m.f->commit_size = long4 ? 4 : 8;
	m.f->page_header_size = 8 + m.f->commit_size;
	tep_set_file_bigendian(m.tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(m.tep, m.f->commit_size);
	set_headers(&m);
	run_script(&m, argv[i]);
	m.line = 0;
	write_out(&m, argv[i + 1]);
	tep_free(m.tep);
	tdat_close(m.f);
	return 0;
}
