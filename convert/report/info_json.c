/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * info_json.c - report --json with --stat, --cpus, --first-event,
 * --last-event, --uname or --version: what those print as text, as one
 * JSON object per input on one line (schema in tdat-report(1)):
 *
 *   {"file":"trace.dat","cpus":2,"uname":"...","version":"...",
 *    "cpus_with_data":[{"cpu":0,"first_event":534057240572,
 *                       "last_event":534058288497}, ...],
 *    "stat":[{"buffer":"","cpu":0,"entries":0,"overrun":0, ...}, ...]}
 *
 * Timestamps are the event timestamps --json prints (nanoseconds, or
 * the clock's units), after -i's --ts-offset and the guest's shift.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/print.h"
#include "convert/report/json.h"
#include "convert/report/info.h"
#include "convert/report/inview.h"

static void warn_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "tdat report: %s\n", msg);
}

static void put_key(struct outbuf *o, const char *key)
{
	outbuf_printf(o, ",\"%s\":", key);
}

static void put_text_option(struct outbuf *o, const struct tdat_file *f,
			    uint16_t id, const char *key)
{
	const char *s;

	put_key(o, key);
	if (tdat_opt_string(f, id, &s))
		json_put_string(o, s, strlen(s));
	else
		outbuf_puts(o, "null");
}

/* One CPU of the top buffer that holds events: its first and last. */
static void put_cpu(struct outbuf *o, const struct report_opts *ro,
		    struct stream *s, struct stream_cpu *c)
{
	uint64_t last = c->ts;

	outbuf_printf(o, "{\"cpu\":%d", c->cpu);
	if (ro->show & SHOW_FIRST) {
		outbuf_puts(o, ",\"first_event\":");
		json_put_u64(o, c->ts);
	}
	if (ro->show & SHOW_LAST) {
		for (; c->has_event; stream_advance(s, c))
			last = c->ts;
		outbuf_puts(o, ",\"last_event\":");
		json_put_u64(o, last);
	}
	outbuf_putc(o, '}');
}

static int by_cpu(const void *a, const void *b)
{
	const struct stream_cpu *x = *(struct stream_cpu *const *)a;
	const struct stream_cpu *y = *(struct stream_cpu *const *)b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* "cpus_with_data": the CPUs of the top buffer with an event, by id. */
static int put_cpus(struct outbuf *o, const struct report_opts *ro,
		    int input, struct tdat_file *f)
{
	struct stream_cpu **order = NULL;
	struct tdat_error err;
	struct stream s;
	int i, n = 0, ret = 0;

	memset(&s, 0, sizeof(s));
	s.warn = warn_stderr;
	input_adjust(&ro->ev, input, f, &s.adjust[0]);
	if (tdat_top_buffer(f) && stream_add_buffer(&s, f, 0, 0, &err)) {
		warn_stderr(NULL, err.msg);
		ret = 1;
	}
	if (s.ncpus)
		order = calloc((size_t)s.ncpus, sizeof(*order));
	for (i = 0; order && i < s.ncpus; i++)
		if (s.cpus[i].has_event)
			order[n++] = &s.cpus[i];
	if (n)
		qsort(order, (size_t)n, sizeof(*order), by_cpu);
	put_key(o, "cpus_with_data");
	outbuf_putc(o, '[');
	for (i = 0; i < n; i++) {
		if (i)
			outbuf_putc(o, ',');
		put_cpu(o, ro, &s, order[i]);
	}
	outbuf_putc(o, ']');
	stream_tell(&s);
	if (s.skipped || (s.ncpus && !order))
		ret = 1;
	free(order);
	stream_free(&s);
	return ret;
}

/* A value of a CPUSTAT line: a number when it is one, else a string. */
static void put_value(struct outbuf *o, const char *v, size_t n)
{
	size_t i = 0, dots = 0;

	while (i < n && (isdigit((unsigned char)v[i]) ||
			 (v[i] == '.' && i && ++dots == 1)))
		i++;
	if (n && i == n && v[n - 1] != '.')
		outbuf_put(o, v, n);
	else
		json_put_string(o, v, n);
}

/* "key: value" as ,"key":value, the key in lower case with '_'. */
static void put_stat_line(struct outbuf *o, const char *line, size_t n)
{
	const char *colon = memchr(line, ':', n);
	size_t k, vstart;

	if (!colon)
		return;
	outbuf_puts(o, ",\"");
	for (k = 0; line + k < colon; k++)
		outbuf_putc(o, line[k] == ' ' ? '_' :
			       (char)tolower((unsigned char)line[k]));
	outbuf_puts(o, "\":");
	for (vstart = (size_t)(colon - line) + 1;
	     vstart < n && line[vstart] == ' '; vstart++)
		;
	put_value(o, line + vstart, n - vstart);
}

/* One CPUSTAT text ("CPU: 0\nentries: 0\n..."): an object of its lines;
 * a "\nBuffer: NAME\n\n" one names the buffer of those after it. */
static void put_stat(struct outbuf *o, const char *t, size_t n,
		     const char **buffer, size_t *blen, int *first)
{
	const char *end = t + n, *nl;

	if (n > 9 && !strncmp(t, "\nBuffer: ", 9)) {
		*buffer = t + 9;
		*blen = strcspn(*buffer, "\n");
		return;
	}
	outbuf_puts(o, *first ? "{\"buffer\":" : ",{\"buffer\":");
	*first = 0;
	json_put_string(o, *buffer, *blen);
	for (; t < end; t = nl + 1) {
		nl = memchr(t, '\n', (size_t)(end - t));
		if (!nl)
			nl = end;
		if (!strncmp(t, "CPU: ", 5)) {
			outbuf_puts(o, ",\"cpu\":");
			put_value(o, t + 5, (size_t)(nl - t - 5));
		} else {
			put_stat_line(o, t, (size_t)(nl - t));
		}
	}
	outbuf_putc(o, '}');
}

static void put_stats(struct outbuf *o, const struct tdat_file *f)
{
	const char *buffer = "";
	size_t blen = 0;
	int i, first = 1;

	put_key(o, "stat");
	outbuf_putc(o, '[');
	for (i = 0; i < f->noptions; i++) {
		const struct tdat_option *op = &f->options[i];

		if (op->id == TDAT_OPT_CPUSTAT)
			put_stat(o, (const char *)op->data,
				 strnlen((const char *)op->data, op->size),
				 &buffer, &blen, &first);
	}
	outbuf_putc(o, ']');
}

int report_info_json_one(const struct report_opts *ro, int input,
			 struct tdat_file *f)
{
	const unsigned cpus = SHOW_CPUS | SHOW_FIRST | SHOW_LAST;
	struct outbuf o;
	int ret = 0;

	outbuf_init(&o, stdout);
	outbuf_puts(&o, "{\"file\":");
	json_put_string(&o, ro->ev.inputs[input].path,
			strlen(ro->ev.inputs[input].path));
	outbuf_printf(&o, ",\"cpus\":%u", tdat_cpus(f));
	if (ro->show & SHOW_UNAME)
		put_text_option(&o, f, TDAT_OPT_UNAME, "uname");
	if (ro->show & (SHOW_UNAME | SHOW_VERSION))
		put_text_option(&o, f, TDAT_OPT_VERSION, "version");
	if (ro->show & cpus)
		ret = put_cpus(&o, ro, input, f);
	if (ro->show & SHOW_STAT)
		put_stats(&o, f);
	outbuf_puts(&o, "}\n");
	if (outbuf_flush(&o))
		ret = 1;
	outbuf_free(&o);
	return ret;
}
