/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inputs.c - opening report's input files and labelling their lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/report/inputs.h"

void input_adjust(const struct report_opts *ro, const struct report_input *in,
		  const struct tdat_file *f, struct ts_adjust *a)
{
	struct tdat_ts_adjust t;
	uint64_t hz = in->ts2secs_hz ? in->ts2secs_hz :
					ro->inputs[0].ts2secs_hz;

	memset(a, 0, sizeof(*a));
	if (ro->raw_ts)
		return;
	/* the file's own adjustments, as every applet sees them */
	tdat_ts_adjust_init(f, ro->nodate ? TDAT_TS_NODATE : 0, &t);
	a->offset = t.offset;
	a->guest = t.guest;
	/* trace-cmd 3.1.6 drops the first input's --ts-offset. */
	if (in != &ro->inputs[0])
		a->offset += in->ts_offset;
	if (hz) {
		a->ts2secs = 1e9 / (double)hz;
	} else {
		a->mult = t.mult;
		a->shift = t.shift;
	}
}

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
	return !named || (!ro->raw_ts && (tdat_clock_is_time(clock) ||
			  tdat_find_option(f, TDAT_OPT_TSC2NSEC)));
}

void input_cpus_label(const struct report_opts *ro, int k, char *buf,
		      size_t cap)
{
	size_t width = 0;
	int i;

	buf[0] = 0;
	if (ro->ninputs < 2)
		return;
	for (i = 0; i < ro->ninputs; i++)
		if (strlen(base_name(ro->inputs[i].path)) > width)
			width = strlen(base_name(ro->inputs[i].path));
	snprintf(buf, cap, "%*s: ", (int)width, base_name(ro->inputs[k].path));
}

static char *label(size_t width, const char *name)
{
	char *s = malloc(width + 3);

	if (s)
		snprintf(s, width + 3, "%*s: ", (int)width, name);
	return s;
}

/*
 * One input: instance lines start "NAME: ", the name right-aligned to
 * the longest; top lines as many spaces.  Several inputs: the cpus=
 * lines start with the file's base name right-aligned to the longest
 * file name, event lines with the file or instance name right-aligned
 * to the longest of all.
 */
static int make_labels(struct input *in, int n)
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
	for (i = 0; i < n; i++) {
		const struct tdat_file *f = in[i].f;

		in[i].cpus_label = n > 1 ? label(fw, base_name(in[i].path)) :
					   strdup("");
		in[i].labels = calloc((size_t)f->nbuffers + 1, sizeof(char *));
		if (!in[i].cpus_label || !in[i].labels)
			return -1;
		for (b = 0; w && b < f->nbuffers; b++) {
			const char *name = f->buffers[b].name;

			if (!name[0])
				name = n > 1 ? base_name(in[i].path) : "";
			in[i].labels[b] = label(w, name);
			if (!in[i].labels[b])
				return -1;
			if (!name[0])	/* one input: spaces, no colon */
				in[i].labels[b][w] = ' ';
		}
	}
	return 0;
}

static int open_one(struct input *in, const struct report_opts *ro, int k,
		    char *err, size_t cap, int *status)
{
	struct tdat_error e;
	int i;

	in->path = ro->inputs[k].path;
	*status = 1;
	in->f = tdat_open(in->path, &e);
	if (in->f)
		in->tep = (ro->lazy_kallsyms ? tep_from_file_nosyms :
			   tep_from_file)(in->f, !ro->no_plugins, &in->plugins,
					&in->trial, &e);
	in->syms_later = ro->lazy_kallsyms;
	if (!in->f || !in->tep) {
		snprintf(err, cap, "%s", e.msg);
		return -1;
	}
	for (i = 0; tdat_note(in->f, i); i++)
		fprintf(stderr, "tdat %s: %s\n",
			ro->applet ? ro->applet : "report", tdat_note(in->f, i));
	in->ids = recview_ids_new();
	in->comms = comm_cache_new();
	if (!in->ids || !in->comms) {
		snprintf(err, cap, "%s: out of memory", in->path);
		return -1;
	}
	in->time_is_ns = input_time_is_ns(ro, in->f, &in->has_clock);
	/* trace-cmd's own text for them goes with the plugins. */
	in->fg_on = !ro->no_plugins && !ro->raw && !ro->json &&
		    fgraph_init(&in->fg, in->tep, in->f->big_endian);
	in->fg.same_cpu = ro->layout34;
	*status = 2;
	if (event_filter_init(&in->filter, ro, k, in->tep, err, cap))
		return -1;
	in->filtering = in->filter.n || ro->no_hardirq || ro->no_softirq;
	return 0;
}

int inputs_open(struct input **out, const struct report_opts *ro,
		char *err, size_t cap, int *status)
{
	struct input *in = calloc((size_t)ro->ninputs, sizeof(*in));
	int k;

	*out = in;
	if (!in) {
		snprintf(err, cap, "out of memory");
		*status = 1;
		return -1;
	}
	for (k = 0; k < ro->ninputs; k++)
		if (open_one(&in[k], ro, k, err, cap, status))
			return -1;
	if (make_labels(in, ro->ninputs) || kvm_guests_link(in, ro->ninputs)) {
		snprintf(err, cap, "out of memory");
		*status = 1;
		return -1;
	}
	return 0;
}

void inputs_free(struct input *in, int n)
{
	int i, b;

	kvm_guests_clear();
	for (i = 0; in && i < n; i++) {
		if (in[i].labels)
			for (b = 0; b < in[i].f->nbuffers; b++)
				free(in[i].labels[b]);
		free(in[i].labels);
		free(in[i].cpus_label);
		event_filter_free(&in[i].filter);
		tdat_bytes_free(&in[i].filter_copy);
		recview_ids_free(in[i].ids);
		comm_cache_free(in[i].comms);
		if (in[i].plugins)
			tep_unload_plugins(in[i].plugins, in[i].tep);
		if (in[i].tep)
			tep_free(in[i].tep);
		tepfmt_trial_free(&in[i].trial);
		tdat_close(in[i].f);
	}
	free(in);
}
