/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * info.c - report's "show and exit" modes: -e, -f, -P, -E, --events,
 * --stat, --uname, --version, --cpus, --first-event, --last-event, each
 * printed as Debian's trace-cmd report 3.1.6 prints it.
 *
 * When several are given, one wins, in trace-cmd's order: -e, --events,
 * -f, -P, -E, then --cpus/--first-event/--last-event (which combine),
 * --version, --uname, --stat.  -e, --events, -f, -P and -E look at the
 * first input only; the others at every input in turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/report/report.h"
#include "convert/report/info.h"
#include "convert/report/inview.h"

struct info_input {
	const char *path;
	struct tdat_file *f;
	char label[280];	/* "NAME: " before cpus= with several inputs */
};

static int fail(const char *msg)
{
	fprintf(stderr, "tdat report: %s\n", msg);
	return 1;
}

static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat report: %s\n", msg);
}

/* -e needs the initial header only, so it works on damaged files too. */
static int show_endian(const char *path)
{
	struct tdat_error err;
	struct tdat_file *f = tdat_open_header(path, &err);

	if (!f)
		return fail(err.msg);
	printf("file is %s endian and host is %s endian\n",
	       f->big_endian ? "big" : "little",
	       tdat_host_big_endian() ? "big" : "little");
	tdat_close(f);
	return 0;
}

/* --events: each system's stored format texts, as the file holds them. */
struct formats_walk {
	uint32_t skip;		/* ftrace formats still to pass over */
	const char *system;	/* the system whose header was printed */
};

static int print_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	struct formats_walk *w = ctx;

	if (w->skip) {
		w->skip--;
		return 0;
	}
	if (!w->system || strcmp(w->system, system))
		printf("\nsystem: %s\n", system);
	w->system = system;
	fwrite(text, 1, len, stdout);
	putchar('\n');
	return 0;
}

static int show_formats(const struct tdat_file *f)
{
	const struct tdat_blob *ft = &f->meta[TDAT_META_FTRACE];
	struct formats_walk w = { 0, NULL };
	struct tdat_error err;

	/* The walk hands the ftrace formats first; trace-cmd leaves them
	 * out.  (3.1.6 prints nothing at all for v7 files: we print what
	 * their v6 conversion would show.) */
	if (tdat_meta_has(f, TDAT_META_FTRACE) && ft->len >= 4)
		w.skip = tdat_get32(f, ft->data);
	if (tdat_each_format(f, print_format, &w, &err) < 0)
		return fail(err.msg);
	return 0;
}

/* -f, -P and -E: through libtraceevent, which sorts as trace-cmd shows. */
static int show_from_tep(const struct tdat_file *f, unsigned show)
{
	struct tep_plugin_list *plugins;
	struct tepfmt_trial trial = { 0, NULL };
	struct tep_event **events;
	struct tdat_error err;
	struct tep_handle *tep;
	int i;

	tep = tep_from_file(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	if (!tep)
		return fail(err.msg);
	if (show & SHOW_FUNCS) {
		tep_print_funcs(tep);
	} else if (show & SHOW_PRINTK) {
		tep_print_printk(tep);
	} else {
		events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
		for (i = 0; events && events[i]; i++)
			printf("%s:%s\n", events[i]->system, events[i]->name);
	}
	tep_free(tep);
	return 0;
}

/* A timestamp as on an event line, without the line's padding. */
static void format_ts(char *buf, size_t cap, const struct report_opts *ro,
		      int in_ns, uint64_t ts)
{
	uint64_t us = (ts + 500) / 1000;

	if (!in_ns)
		snprintf(buf, cap, "%12llu", (unsigned long long)ts);
	else if (ro->full_ns)
		snprintf(buf, cap, "%5llu.%09llu",
			 (unsigned long long)(ts / 1000000000ull),
			 (unsigned long long)(ts % 1000000000ull));
	else
		snprintf(buf, cap, "%5llu.%06llu",
			 (unsigned long long)(us / 1000000ull),
			 (unsigned long long)(us % 1000000ull));
}

static int by_cpu(const void *a, const void *b)
{
	const struct stream_cpu *x = *(struct stream_cpu *const *)a;
	const struct stream_cpu *y = *(struct stream_cpu *const *)b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* One line per CPU of the top buffer that holds at least one event. */
static void print_cpu(const struct report_opts *ro, struct stream *s,
		      struct stream_cpu *c, int in_ns)
{
	char ts[48];

	printf("  %d", c->cpu);
	if (ro->show & SHOW_FIRST) {
		format_ts(ts, sizeof(ts), ro, in_ns, c->ts);
		printf("\tFirst event:%s", ts);
	}
	if (ro->show & SHOW_LAST) {
		uint64_t last = c->ts;

		for (; c->has_event; stream_advance(s, c))
			last = c->ts;
		format_ts(ts, sizeof(ts), ro, in_ns, last);
		printf("\tLast event:%s", ts);
	}
	putchar('\n');
}

/* --cpus, --first-event, --last-event. */
static int show_cpus(const struct report_opts *ro, int input,
		     struct info_input *in)
{
	const struct tdat_buffer *top = tdat_top_buffer(in->f);
	struct stream_cpu **order = NULL;
	struct tdat_error err;
	struct stream s;
	int i, n = 0, ret = 0, in_ns = input_time_is_ns(ro, in->f, NULL);

	memset(&s, 0, sizeof(s));
	s.warn = warn_stderr;
	input_adjust(&ro->ev, input, in->f, &s.adjust[0]);
	printf("List of CPUs in %s with data:\n", in->path);
	if (top && stream_add_buffer(&s, in->f, 0, 0, &err))
		ret = fail(err.msg);
	if (s.ncpus && !(order = calloc((size_t)s.ncpus, sizeof(*order))))
		ret = fail("out of memory");
	for (i = 0; order && i < s.ncpus; i++)
		if (s.cpus[i].has_event)
			order[n++] = &s.cpus[i];
	if (n)
		qsort(order, (size_t)n, sizeof(*order), by_cpu);
	for (i = 0; i < n; i++)
		print_cpu(ro, &s, order[i], in_ns);
	stream_tell(&s);
	if (s.skipped)
		ret = 1;
	free(order);
	stream_free(&s);
	return ret;
}

/* Bytes a compressed CPU stream holds once decompressed. */
static int unpacked_size(struct tdat_file *f, int idx, uint64_t *size)
{
	struct tdat_cpu_reader *r;
	struct tdat_error err;
	const uint8_t *data;
	uint32_t csize, usize;
	int got;

	*size = 0;
	r = tdat_cpu_open(f, 0, idx, &err);
	if (!r)
		return fail(err.msg);
	while ((got = tdat_cpu_next_chunk(r, &data, &csize, &usize,
					  &err)) > 0)
		*size += usize;
	tdat_cpu_close(r);
	return got < 0 ? fail(err.msg) : 0;
}

/*
 * Where each CPU of the top buffer was recorded, for CPU ids 0 up to the
 * highest listed; unlisted ids show 0 and 0.  trace-cmd shows compressed
 * streams where it unpacks them: one after another from one page in.
 */
static int show_cpu_data(struct tdat_file *f)
{
	const struct tdat_buffer *top = tdat_top_buffer(f);
	uint64_t next, off, size;
	int i, cpu, ncpu = 0, ret = 0;

	if (!top || top->latency)
		return 0;
	for (i = 0; i < top->ncpus; i++)
		if (top->cpus[i].cpu + 1 > ncpu)
			ncpu = top->cpus[i].cpu + 1;
	next = top->page_size;
	for (cpu = 0; cpu < ncpu; cpu++) {
		off = size = 0;
		for (i = 0; i < top->ncpus && top->cpus[i].cpu != cpu; i++)
			;
		if (i < top->ncpus && !top->compressed) {
			off = top->cpus[i].offset;
			size = top->cpus[i].size;
		} else if (i < top->ncpus) {
			if (top->cpus[i].size && unpacked_size(f, i, &size))
				ret = 1;
			off = next;
			next += size;
		}
		printf("CPU%d data recorded at offset=0x%llx\n"
		       "    %llu bytes in size\n", cpu, (unsigned long long)off,
		       (unsigned long long)size);
	}
	return ret;
}

/* --stat: the CPUSTAT texts record saved, in file order. */
static int show_stat(struct tdat_file *f)
{
	int i, any = 0;

	printf("\nKernel buffer statistics:\n"
	       "  Note: \"entries\" are the entries left in the kernel ring"
	       " buffer and are not\n"
	       "        recorded in the trace data. They should all be"
	       " zero.\n\n");
	for (i = 0; i < f->noptions; i++) {
		const struct tdat_option *o = &f->options[i];

		if (o->id != TDAT_OPT_CPUSTAT)
			continue;
		fwrite(o->data, 1, strnlen((const char *)o->data, o->size),
		       stdout);
		putchar('\n');
		any = 1;
	}
	fputs(any ? "\n" : " No stats in this file\n", stdout);
	return show_cpu_data(f);
}

static void show_text_option(const struct tdat_file *f, uint16_t id,
			     const char *what)
{
	const char *s;

	if (tdat_opt_string(f, id, &s))
		printf("%s\n", s);
	else
		printf(" %s was not recorded in this file\n", what);
}

/* --version, --uname (uname, then the version) and --stat. */
static int show_meta(unsigned show, struct info_input *in)
{
	printf("%scpus=%u\n", in->label, tdat_cpus(in->f));
	if (!(show & SHOW_VERSION) && (show & SHOW_UNAME))
		show_text_option(in->f, TDAT_OPT_UNAME, "uname");
	if (show & (SHOW_VERSION | SHOW_UNAME)) {
		show_text_option(in->f, TDAT_OPT_VERSION, "version");
		return 0;
	}
	return show_stat(in->f);
}

static int show_each(const struct report_opts *ro, struct info_input *in,
		     int n)
{
	const unsigned cpus = SHOW_CPUS | SHOW_FIRST | SHOW_LAST;
	int i, ret = 0;

	if (ro->show & (SHOW_FORMATS | SHOW_FUNCS | SHOW_PRINTK |
			SHOW_EVENT_LIST))
		return ro->show & SHOW_FORMATS ? show_formats(in[0].f) :
		       show_from_tep(in[0].f, ro->show);
	for (i = 0; i < n; i++)
		input_cpus_label(ro, i, in[i].label, sizeof(in[i].label));
	for (i = 0; i < n; i++) {
		if (ro->json)
			ret |= report_info_json_one(ro, i, in[i].f);
		else if (ro->show & cpus)
			ret |= show_cpus(ro, i, &in[i]);
		else
			ret |= show_meta(ro->show, &in[i]);
	}
	return ret;
}

int report_info(const struct report_opts *ro)
{
	struct info_input in[EVENTS_MAX_INPUTS];
	struct tdat_error err;
	int i, ret = 0;

	if (ro->show & SHOW_ENDIAN)
		return show_endian(ro->ev.inputs[0].path);
	memset(in, 0, sizeof(in));
	/* Every input opens before anything is printed. */
	for (i = 0; i < ro->ev.ninputs && !ret; i++) {
		in[i].path = ro->ev.inputs[i].path;
		in[i].f = tdat_open(in[i].path, &err);
		if (!in[i].f)
			ret = fail(err.msg);
	}
	if (!ret)
		ret = show_each(ro, in, ro->ev.ninputs);
	for (i = 0; i < ro->ev.ninputs; i++)
		tdat_close(in[i].f);
	if (fflush(stdout) || ferror(stdout))
		ret = fail("write error on output");
	return ret;
}
