/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inview.c - report's view of each input: filters, labels, funcgraph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/inview.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int input_time_is_ns(const struct report_opts *ro, const struct tdat_file *f,
		     int *has_clock)
{
	char clock[64];
	int named = tdat_shown_clock(f, clock, sizeof(clock));

	/* Any TRACECLOCK option, even an empty one, makes trace-cmd round
	 * --ts-diff's differences to microseconds. */
	if (has_clock)
		*has_clock = tdat_find_option(f, TDAT_OPT_TRACECLOCK) != NULL;
	/* Where no clock decides, trace-cmd assumes nanoseconds, even with
	 * --raw-ts. */
	return !named || (!ro->ev.raw_ts && (tdat_clock_is_time(clock) ||
			  tdat_find_option(f, TDAT_OPT_TSC2NSEC)));
}

void input_cpus_label(const struct report_opts *ro, int k, char *buf,
		      size_t cap)
{
	size_t width = 0;
	int i;

	buf[0] = 0;
	if (ro->ev.ninputs < 2)
		return;
	for (i = 0; i < ro->ev.ninputs; i++)
		if (strlen(base_name(ro->ev.inputs[i].path)) > width)
			width = strlen(base_name(ro->ev.inputs[i].path));
	snprintf(buf, cap, "%*s: ", (int)width,
		 base_name(ro->ev.inputs[k].path));
}

static char *label(size_t width, const char *name)
{
	char *s = malloc(width + 3);

	if (s)
		snprintf(s, width + 3, "%*s: ", (int)width, name);
	return s;
}

/* One view's labels, the widths worked out (make_labels). */
static int view_labels(struct input_view *v, const struct input *in, int n,
		       size_t fw, size_t w)
{
	const struct tdat_file *f = in->f;
	int b;

	v->cpus_label = n > 1 ? label(fw, base_name(in->path)) : strdup("");
	v->labels = calloc((size_t)f->nbuffers + 1, sizeof(char *));
	if (!v->cpus_label || !v->labels)
		return -1;
	v->nlabels = f->nbuffers;
	for (b = 0; w && b < f->nbuffers; b++) {
		const char *name = f->buffers[b].name;

		if (!name[0])
			name = n > 1 ? base_name(in->path) : "";
		v->labels[b] = label(w, name);
		if (!v->labels[b])
			return -1;
		if (!name[0])	/* one input: spaces, no colon */
			v->labels[b][w] = ' ';
	}
	return 0;
}

/*
 * One input: instance lines start "NAME: ", the name right-aligned to
 * the longest; top lines as many spaces.  Several inputs: the cpus=
 * lines start with the file's base name right-aligned to the longest
 * file name, event lines with the file or instance name right-aligned
 * to the longest of all.
 */
static int make_labels(struct input_view *v, const struct input *in, int n)
{
	size_t fw = 0, w = 0, len;
	int i, b;

	for (i = 0; i < n; i++) {
		len = strlen(base_name(in[i].path));
		fw = n > 1 && len > fw ? len : fw;
		for (b = 0; b < in[i].f->nbuffers; b++)
			if (strlen(in[i].f->buffers[b].name) > w)
				w = strlen(in[i].f->buffers[b].name);
	}
	if (fw > w)
		w = fw;
	for (i = 0; i < n; i++)
		if (view_labels(&v[i], &in[i], n, fw, w))
			return -1;
	return 0;
}

struct opening {
	const struct report_opts *ro;
	struct input_view *views;
};

/* inputs_open's hook: input k's view, before the next input opens. */
static int view_open(void *ctx, struct input *in, int k, char *err,
		     size_t cap, int *status)
{
	const struct opening *op = ctx;
	const struct report_opts *ro = op->ro;
	struct input_view *v = &op->views[k];

	v->time_is_ns = input_time_is_ns(ro, in->f, &v->has_clock);
	/* trace-cmd's own text for them goes with the plugins. */
	v->fg_on = !ro->ev.no_plugins && !ro->raw && !ro->json &&
		   fgraph_init(&v->fg, in->tep, in->f->big_endian);
	v->fg.same_cpu = ro->layout34;
	/* with function_graph events, trace-cmd decides a leaf by the
	 * next event of any CPU (funcgraph.c): under --cpu all are read */
	in->all_cpus = v->fg_on;
	*status = 2;
	if (event_filter_init(&v->filter, ro, k, in->tep, err, cap))
		return -1;
	v->filtering = v->filter.n || ro->no_hardirq || ro->no_softirq;
	return 0;
}

int views_open(struct input **in, struct input_view **views,
	       const struct report_opts *ro, char *err, size_t cap,
	       int *status)
{
	struct opening op = { ro, NULL };

	*in = NULL;
	*views = op.views = calloc((size_t)ro->ev.ninputs, sizeof(**views));
	if (!op.views) {
		snprintf(err, cap, "out of memory");
		*status = 1;
		return -1;
	}
	if (inputs_open(in, &ro->ev, view_open, &op, err, cap, status))
		return -1;
	if (make_labels(op.views, *in, ro->ev.ninputs)) {
		snprintf(err, cap, "out of memory");
		*status = 1;
		return -1;
	}
	return 0;
}

void views_close(struct input *in, struct input_view *views, int n)
{
	int i, b;

	for (i = 0; views && i < n; i++) {
		for (b = 0; views[i].labels && b < views[i].nlabels; b++)
			free(views[i].labels[b]);
		free(views[i].labels);
		free(views[i].cpus_label);
		event_filter_free(&views[i].filter);
		tdat_bytes_free(&views[i].filter_copy);
	}
	free(views);
	inputs_free(in, n);
}
