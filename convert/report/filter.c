/* SPDX-License-Identifier: GPL-2.0-or-later */
/* filter.c - --cpu, -F/-v, -I and -S: which events report shows. */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "convert/report/filter.h"

static int cpu_number(const char **p, int *v)
{
	long n = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		n = n * 10 + (**p - '0');
		if (n > 1 << 24)
			return -1;
		(*p)++;
	}
	*v = (int)n;
	return 0;
}

static int is_sep(char c)
{
	return c == ',' || c == ':' || c == ' ';
}

int cpu_set_parse(struct cpu_set *set, const char *list, char *err,
		  size_t cap)
{
	const char *p = list;
	int lo, hi;

	memset(set, 0, sizeof(*set));
	set->ranges = calloc(strlen(list) / 2 + 1, sizeof(*set->ranges));
	if (!set->ranges) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	do {
		if (cpu_number(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &hi))
				goto bad;
			if (hi < lo) {
				snprintf(err, cap, "--cpu '%s': a range must go"
					 " from the lower to the higher CPU",
					 list);
				return -1;
			}
		}
		set->ranges[set->n].lo = lo;
		set->ranges[set->n++].hi = hi;
		if (*p && !is_sep(*p))
			goto bad;
	} while (*p && *++p);	/* one separator, maybe at the end */
	return 0;
bad:
	if (*p)
		snprintf(err, cap, "--cpu '%s': invalid character '%c'",
			 list, *p);
	else
		snprintf(err, cap, "--cpu '%s': a CPU number is missing at"
			 " the end", list);
	return -1;
}

int cpu_set_has(const void *ctx, int cpu)
{
	const struct cpu_set *set = ctx;
	int i;

	for (i = 0; i < set->n; i++)
		if (cpu >= set->ranges[i].lo && cpu <= set->ranges[i].hi)
			return 1;
	return 0;
}

void cpu_set_free(struct cpu_set *set)
{
	free(set->ranges);
	memset(set, 0, sizeof(*set));
}

/*
 * Does -F number i belong to input number input?  trace-cmd gives the
 * first input the filters before the second -i, each later input those
 * after its -i; with one input, those after -i count only when one came
 * before it.
 */
static int filter_applies(const struct report_opts *ro, int i, int input)
{
	int after = ro->filters[i].after, j;

	if (input > 0)
		return after == input + 1;
	if (after == 0)
		return 1;
	if (after > 1)
		return 0;
	if (ro->ev.ninputs > 1)
		return 1;
	for (j = 0; j < ro->nfilters; j++)
		if (ro->filters[j].after == 0)
			return 1;
	return 0;
}

/*
 * libtraceevent 1.7 crashes on some malformed filters (an operator at
 * the end, an unterminated string, "&& &&").  Each filter is parsed in
 * a child first; 0 if that child did not come back normally.
 */
static int parses_safely(struct tep_handle *tep, const char *text)
{
	struct tep_event_filter *f;
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1;	/* cannot tell: try it for real */
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 2);
		f = tep_filter_alloc(tep);
		_exit(f && tep_filter_add_filter_str(f, text) < 0 ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) <= 1;
}

/*
 * libtraceevent explains a syntax error in three lines: the text, a
 * caret under the bad spot, the reason.  Make it one.
 */
static void filter_error(char *err, size_t cap, const char *text,
			 const char *msg)
{
	const char *l2 = strchr(msg, '\n'), *l3 = l2 ? strchr(l2 + 1, '\n') :
							 NULL;
	const char *caret = l2 ? memchr(l2 + 1, '^', (size_t)
					(l3 ? l3 - l2 - 1 : 0)) : NULL;

	if (l3 && caret)
		snprintf(err, cap, "-F '%s': %s at column %d of '%.*s'", text,
			 l3 + 1, (int)(caret - l2), (int)(l2 - msg), msg);
	else
		snprintf(err, cap, "-F '%s': %s", text, msg);
}

int event_filter_init(struct event_filter *ef, const struct report_opts *ro,
		      int input, struct tep_handle *tep, char *err,
		      size_t cap)
{
	struct tep_event_filter *f;
	char msg[256];
	int i, r;

	memset(ef, 0, sizeof(*ef));
	ef->no_hardirq = ro->no_hardirq;
	ef->no_softirq = ro->no_softirq;
	if (!ro->nfilters)
		return 0;
	ef->f = calloc((size_t)ro->nfilters, sizeof(*ef->f));
	ef->negate = calloc((size_t)ro->nfilters, 1);
	if (!ef->f || !ef->negate) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	for (i = 0; i < ro->nfilters; i++) {
		if (!filter_applies(ro, i, input))
			continue;
		f = tep_filter_alloc(tep);
		if (!f) {
			snprintf(err, cap, "out of memory");
			return -1;
		}
		ef->f[ef->n] = f;
		ef->negate[ef->n++] = (uint8_t)ro->filters[i].negate;
		ef->npos += !ro->filters[i].negate;
		if (!parses_safely(tep, ro->filters[i].text)) {
			snprintf(err, cap, "-F '%s': libtraceevent cannot"
				 " parse this filter", ro->filters[i].text);
			return -1;
		}
		r = tep_filter_add_filter_str(f, ro->filters[i].text);
		if (r < 0) {
			tep_filter_strerror(f, r, msg, sizeof(msg));
			filter_error(err, cap, ro->filters[i].text, msg);
			return -1;
		}
	}
	return 0;
}

int event_filter_keep(const struct event_filter *ef, struct tep_handle *tep,
		      struct tep_record *rec)
{
	int i, pos = 0;

	if (ef->no_hardirq || ef->no_softirq) {
		int flags = tep_data_flags(tep, rec);

		if (ef->no_hardirq && (flags & TRACE_FLAG_HARDIRQ))
			return 0;
		if (ef->no_softirq && (flags & TRACE_FLAG_SOFTIRQ))
			return 0;
	}
	for (i = 0; i < ef->n; i++) {
		if (tep_filter_match(ef->f[i], rec) != TEP_ERRNO__FILTER_MATCH)
			continue;
		if (ef->negate[i])
			return 0;
		pos = 1;
	}
	return pos || !ef->npos;
}

void event_filter_dump(const struct event_filter *ef, struct outbuf *o)
{
	struct tep_event_filter *f;
	char *s;
	int i, j;

	for (i = 0; i < ef->n; i++) {
		f = ef->f[i];
		/* trace-cmd lists them from the highest event id down. */
		for (j = f->filters - 1; j >= 0; j--) {
			s = tep_filter_make_string(f,
					f->event_filters[j].event_id);
			outbuf_printf(o, " '%s: %s'\n",
				      f->event_filters[j].event->name,
				      s ? s : "");
			free(s);
		}
	}
}

void event_filter_free(struct event_filter *ef)
{
	int i;

	for (i = 0; i < ef->n; i++)
		tep_filter_free(ef->f[i]);
	free(ef->f);
	free(ef->negate);
	memset(ef, 0, sizeof(*ef));
}
