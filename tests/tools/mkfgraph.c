/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfgraph - make SYNTHETIC trace.dat files holding function_graph
 * events (ftrace:funcgraph_entry / funcgraph_exit) and irq_handler_entry
 * events laid out by a script, so that report's formatting of them can
 * be compared with trace-cmd's on cases real recordings may lack.
 *
 * usage: mkfgraph IN SCRIPT OUT
 *
 * IN is a real trace.dat whose formats include ftrace's funcgraph_entry
 * and funcgraph_exit and irq:irq_handler_entry (kinmax.dat for a 32-bit
 * kernel, v6-sched-irq.dat for a 64-bit one).  OUT gets IN's metadata
 * (header, formats, kallsyms, printk, cmdlines, options) unchanged except
 * the CPU count (IN's, or more if the script uses more CPUs).  Only the
 * top buffer (and an instance, see below) is written, in IN's version
 * (v7: IN's codec), by libfmt's writer; its pages are made here from
 * SCRIPT.
 *
 * SCRIPT is a text file, one event a line ('#' starts a comment):
 *   CPU TS PID entry FUNC DEPTH
 *   CPU TS PID exit  FUNC DEPTH CALLTIME RETTIME [OVERRUN]
 *   CPU TS PID irq   IRQ NAME
 *   CPU page
 * A CPU written iN (i0, i1...) is CPU N of an instance named "inst1"
 * (then written after the top buffer, with as many CPUs).
 * TS, CALLTIME and RETTIME are raw clock values in decimal (nanoseconds
 * for the usual clocks); FUNC is a kallsyms name of IN, a name plus an
 * offset (name+0x10), or a hex address (0xc1000000).  Each CPU's lines
 * must come in time order; CPUs may be interleaved.  "page" starts a new
 * page on that CPU (events on both sides of a page boundary).
 *
 * How the pages are made: for each CPU, events are packed into pages of
 * IN's page size: the page header holds the page's first event time and
 * the commit word (bytes of events); every event is a data item whose
 * header word holds type_len = payload/4 (or 0 with array[0] for a
 * payload over 112 bytes) and the delta from the previous event, with a
 * time-extend item (type 30) before it when the delta needs more than 27
 * bits (FORMAT.md 7).  Payloads follow the file's own event formats
 * (offsets and sizes parsed by libtraceevent): common_type, flags 0,
 * preempt count 0, common_pid, then the fields; irq_handler_entry's
 * name is a __data_loc string after the fixed fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"

#define MAX_CPUS 16
#define DELTA_BITS 27

struct out_cpu {
	uint8_t *pages;		/* whole pages, filled so far */
	size_t npages;
	uint32_t used;		/* bytes of events in the last page */
	uint64_t last_ts;
	int started;
	int full;		/* the next event starts a page */
};

struct maker {
	struct tdat_file *f;
	struct tep_handle *tep;
	struct tep_event *entry, *exit, *irq;
	const char *ksyms;
	size_t ksyms_len;
	struct out_cpu cpu[2 * MAX_CPUS];	/* top buffer's, instance's */
	int ncpus;		/* highest CPU used + 1 */
	int inst;		/* the instance is used */
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mkfgraph: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int parse_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	tep_parse_event(ctx, text, (unsigned long)len, system);
	return 0;
}

static struct tep_event *need_event(struct maker *m, const char *sys,
				    const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(m->tep, sys, name);

	if (!ev)
		die("the input has no format for %s", name);
	return ev;
}

static void load_formats(struct maker *m)
{
	struct tdat_error err;

	m->tep = tep_alloc();
	if (!m->tep)
		die("%s", "out of memory");
	tep_set_file_bigendian(m->tep, m->f->big_endian ? TEP_BIG_ENDIAN :
							 TEP_LITTLE_ENDIAN);
	tep_set_long_size(m->tep, m->f->commit_size);
	if (tdat_each_format(m->f, parse_format, m->tep, &err) < 0 ||
	    tdat_meta_text(m->f, TDAT_META_KALLSYMS, &m->ksyms, &m->ksyms_len,
			   &err))
		die("%s", err.msg);
	m->entry = need_event(m, "ftrace", "funcgraph_entry");
	m->exit = need_event(m, "ftrace", "funcgraph_exit");
	m->irq = need_event(m, "irq", "irq_handler_entry");
}

/* The address of a kallsyms name in the input, or die. */
static uint64_t sym_addr(const struct maker *m, const char *name, size_t nl)
{
	const char *p = m->ksyms, *end = m->ksyms + m->ksyms_len, *eol, *s;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		s = memchr(p, ' ', (size_t)(eol - p));
		if (!s || s + 3 >= eol)
			continue;
		s += 3;		/* past " T " */
		if ((size_t)(eol - s) >= nl && !memcmp(s, name, nl) &&
		    (s + nl == eol || s[nl] == '\t' || s[nl] == ' '))
			return strtoull(p, NULL, 16);
	}
	die("no kallsyms entry %s", name);
	return 0;
}

/* FUNC: name, name+0xOFF, or 0xADDR. */
static uint64_t func_addr(const struct maker *m, const char *func)
{
	const char *plus = strchr(func, '+');

	if (!strncmp(func, "0x", 2))
		return strtoull(func, NULL, 16);
	if (plus)
		return sym_addr(m, func, (size_t)(plus - func)) +
		       strtoull(plus + 1, NULL, 16);
	return sym_addr(m, func, strlen(func));
}

static void put_field(const struct maker *m, uint8_t *p, size_t cap,
		      struct tep_event *ev, const char *name, uint64_t v)
{
	struct tep_format_field *fl = tep_find_field(ev, name);

	if (!fl || (size_t)fl->offset + (size_t)fl->size > cap)
		die("no room for field %s", name);
	switch (fl->size) {
	case 2: tdat_put16(m->f, p + fl->offset, (uint16_t)v); break;
	case 4: tdat_put32(m->f, p + fl->offset, (uint32_t)v); break;
	case 8: tdat_put64(m->f, p + fl->offset, v); break;
	default: die("odd size of field %s", name);
	}
}

/* Bytes of ev's fixed fields (the end of the last one). */
static uint32_t fixed_size(struct tep_event *ev)
{
	struct tep_format_field **all = tep_event_fields(ev);
	uint32_t end = 0;
	int i;

	for (i = 0; all && all[i]; i++)
		if ((uint32_t)(all[i]->offset + all[i]->size) > end)
			end = (uint32_t)(all[i]->offset + all[i]->size);
	free(all);
	return end;
}

static void put_common(const struct maker *m, uint8_t *p,
		       const struct tep_event *ev, int pid)
{
	tdat_put16(m->f, p, (uint16_t)ev->id);
	tdat_put32(m->f, p + 4, (uint32_t)pid);
}

/* One script line's payload into p (cap bytes); its size, a multiple
 * of 4. */
static uint32_t make_payload(const struct maker *m, char **w, int nw,
			     int pid, uint8_t *p, size_t cap)
{
	struct tep_event *ev;
	uint32_t size;

	memset(p, 0, cap);
	if (!strcmp(w[3], "entry") && nw == 6) {
		ev = m->entry;
		put_field(m, p, cap, ev, "func", func_addr(m, w[4]));
		put_field(m, p, cap, ev, "depth", strtoull(w[5], NULL, 0));
		size = fixed_size(ev);
	} else if (!strcmp(w[3], "exit") && (nw == 8 || nw == 9)) {
		ev = m->exit;
		put_field(m, p, cap, ev, "func", func_addr(m, w[4]));
		put_field(m, p, cap, ev, "depth", strtoull(w[5], NULL, 0));
		put_field(m, p, cap, ev, "calltime", strtoull(w[6], NULL, 10));
		put_field(m, p, cap, ev, "rettime", strtoull(w[7], NULL, 10));
		put_field(m, p, cap, ev, "overrun",
			  nw == 9 ? strtoull(w[8], NULL, 0) : 0);
		size = fixed_size(ev);
	} else if (!strcmp(w[3], "irq") && nw == 6) {
		size_t nl = strlen(w[5]) + 1;

		ev = m->irq;
		size = fixed_size(ev);
		if (size + nl > cap)
			die("irq name too long: %s", w[5]);
		put_field(m, p, cap, ev, "irq", strtoull(w[4], NULL, 0));
		put_field(m, p, cap, ev, "name",
			  (uint64_t)(nl << 16 | size));
		memcpy(p + size, w[5], nl);
		size += (uint32_t)nl;
	} else {
		die("bad script line for %s", w[3]);
		return 0;
	}
	put_common(m, p, ev, pid);
	return (size + 3) & ~3u;
}

static uint8_t *new_page(struct maker *m, struct out_cpu *c, uint64_t ts)
{
	uint32_t ps = m->f->page_size;
	uint8_t *pages = realloc(c->pages, (c->npages + 1) * ps);

	if (!pages)
		die("%s", "out of memory");
	c->pages = pages;
	memset(pages + c->npages * ps, 0, ps);
	tdat_put64(m->f, pages + c->npages * ps, ts);
	c->npages++;
	c->used = 0;
	c->last_ts = ts;
	return pages + (c->npages - 1) * ps;
}

/* The commit word: bytes of events in the page. */
static void put_commit(const struct maker *m, uint8_t *page, uint32_t used)
{
	if (m->f->commit_size == 8)
		tdat_put64(m->f, page + 8, used);
	else
		tdat_put32(m->f, page + 8, used);
}

static void put_word(const struct maker *m, uint8_t *p, uint32_t type_len,
		     uint32_t delta)
{
	uint32_t word = m->f->big_endian ? type_len << DELTA_BITS | delta :
					   delta << 5 | type_len;

	tdat_put32(m->f, p, word);
}

/* Append one event to CPU cpu's pages. */
static void add_event(struct maker *m, int cpu, uint64_t ts,
		      const uint8_t *payload, uint32_t size)
{
	struct out_cpu *c = &m->cpu[cpu];
	uint32_t ps = m->f->page_size, hdr = (uint32_t)m->f->page_header_size;
	uint32_t need = size + (size > 112 ? 8 : 4) + 8;
	uint64_t delta;
	uint8_t *page, *p;

	if (c->started && ts < c->last_ts)
		die("%s", "a CPU's events must come in time order");
	page = c->started ? c->pages + (c->npages - 1) * ps : NULL;
	if (!c->started || c->full || hdr + c->used + need > ps)
		page = new_page(m, c, ts);
	c->full = 0;
	c->started = 1;
	delta = ts - c->last_ts;
	p = page + hdr + c->used;
	if (delta >> DELTA_BITS) {	/* a time extend first */
		put_word(m, p, 30, (uint32_t)(delta & ((1u << DELTA_BITS) - 1)));
		tdat_put32(m->f, p + 4, (uint32_t)(delta >> DELTA_BITS));
		p += 8;
		delta = 0;
	}
	if (size > 112) {
		put_word(m, p, 0, (uint32_t)delta);
		tdat_put32(m->f, p + 4, size + 4);
		p += 8;
	} else {
		put_word(m, p, size / 4, (uint32_t)delta);
		p += 4;
	}
	memcpy(p, payload, size);
	p += size;
	c->used = (uint32_t)(p - (page + hdr));
	c->last_ts = ts;
	put_commit(m, page, c->used);
}

/* Split line into words (in place); their count. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *tok, *save = NULL, *hash = strchr(line, '#');

	if (hash)
		*hash = 0;
	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	return n;
}

static void run_script(struct maker *m, const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512], *w[12];
	uint8_t payload[256];
	uint32_t size;
	int nw, cpu, page;

	if (!fp)
		die("cannot open %s", path);
	while (fgets(line, sizeof(line), fp)) {
		nw = split_words(line, w, 12);
		if (!nw)
			continue;
		page = nw == 2 && !strcmp(w[1], "page");
		if (nw < 4 && !page)
			die("short script line: %s", w[0]);
		cpu = atoi(w[0] + (w[0][0] == 'i'));
		if (cpu < 0 || cpu >= MAX_CPUS)
			die("bad CPU %s", w[0]);
		if (cpu + 1 > m->ncpus)
			m->ncpus = cpu + 1;
		if (w[0][0] == 'i') {
			m->inst = 1;
			cpu += MAX_CPUS;
		}
		if (page) {
			m->cpu[cpu].full = 1;
			continue;
		}
		size = make_payload(m, w, nw, atoi(w[2]), payload,
				    sizeof(payload));
		add_event(m, cpu, strtoull(w[1], NULL, 10), payload, size);
	}
	fclose(fp);
}

static void put_cpu(struct maker *m, struct tdat_writer *w, int buf, int i)
{
	struct out_cpu *c = &m->cpu[buf * MAX_CPUS + i];
	struct tdat_error err;

	if (tdat_writer_begin_cpu(w, buf, i, &err) ||
	    (c->npages && tdat_writer_put_pages(w, c->pages,
			c->npages * m->f->page_size, &err)) ||
	    tdat_writer_end_cpu(w, &err))
		die("%s", err.msg);
}

static void write_out(struct maker *m, const char *path)
{
	struct tdat_file out = *m->f;
	struct tdat_buffer bufs[2];
	struct tdat_cpu cpus[MAX_CPUS];
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	struct tdat_error err;
	int i, n = m->ncpus > (int)tdat_cpus(m->f) ? m->ncpus :
		   (int)tdat_cpus(m->f);

	memset(cpus, 0, sizeof(cpus));
	for (i = 0; i < n; i++)
		cpus[i].cpu = i;
	bufs[0] = m->f->buffers[0];
	bufs[0].ncpus = n;
	bufs[0].cpus = cpus;
	bufs[1] = bufs[0];
	bufs[1].name = "inst1";
	out.buffers = bufs;
	out.nbuffers = 1 + m->inst;
	out.cpu_count = (uint32_t)n;
	memset(&wo, 0, sizeof(wo));
	wo.version = m->f->version;
	wo.codec = m->f->version == 7 ? m->f->codec : TDAT_CODEC_NONE;
	wo.threads = 1;
	w = tdat_writer_open(path, &out, &wo, &err);
	if (!w)
		die("%s", err.msg);
	for (i = 0; i < n * out.nbuffers; i++)
		put_cpu(m, w, i / n, i % n);
	if (tdat_writer_close(w, &err))
		die("%s", err.msg);
}

int main(int argc, char **argv)
{
	struct maker m;
	struct tdat_error err;
	int i = 1;

	memset(&m, 0, sizeof(m));
	if (argc != 4)
		die("%s", "usage: mkfgraph IN SCRIPT OUT");
	m.f = tdat_open(argv[i], &err);
	if (!m.f)
		die("%s", err.msg);
	if (!m.f->nbuffers || m.f->buffers[0].name[0] ||
	    m.f->buffers[0].latency)
		die("%s: no top buffer of pages", argv[i]);
	load_formats(&m);
	run_script(&m, argv[i + 1]);
	write_out(&m, argv[i + 2]);
	tep_free(m.tep);
	tdat_close(m.f);
	for (i = 0; i < 2 * MAX_CPUS; i++)
		free(m.cpu[i].pages);
	return 0;
}
