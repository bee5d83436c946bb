/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inputs.c - opening the stream's input files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/events/inputs.h"
#include "convert/repair_hint.h"

static const char *applet(const struct events_opts *eo)
{
	return eo->applet ? eo->applet : "report";
}

void input_adjust(const struct events_opts *eo, int k,
		  const struct tdat_file *f, struct ts_adjust *a)
{
	const struct events_input *in = &eo->inputs[k];
	struct tdat_ts_adjust t;
	uint64_t hz = in->ts2secs_hz ? in->ts2secs_hz :
					eo->inputs[0].ts2secs_hz;

	memset(a, 0, sizeof(*a));
	if (eo->raw_ts)
		return;
	/* the file's own adjustments, as every applet sees them */
	tdat_ts_adjust_init(f, eo->nodate ? TDAT_TS_NODATE : 0, &t);
	a->offset = t.offset;
	a->guest = t.guest;
	/* trace-cmd 3.1.6 drops the first input's --ts-offset. */
	if (k)
		a->offset += in->ts_offset;
	if (hz) {
		a->ts2secs = 1e9 / (double)hz;
	} else {
		a->mult = t.mult;
		a->shift = t.shift;
	}
}

static int open_one(struct input *in, const struct events_opts *eo, int k,
		    char *err, size_t cap)
{
	struct tdat_error e;
	int i;

	in->path = eo->inputs[k].path;
	in->f = tdat_open(in->path, &e);
	if (in->f)
		in->tep = (eo->lazy_kallsyms ? tep_from_file_nosyms :
			   tep_from_file)(in->f, !eo->no_plugins, &in->plugins,
					&in->trial, &e);
	in->syms_later = eo->lazy_kallsyms;
	if (!in->f || !in->tep) {
		snprintf(err, cap, "%s", e.msg);
		return -1;
	}
	for (i = 0; tdat_note(in->f, i); i++)
		fprintf(stderr, "tdat %s: %s\n", applet(eo),
			tdat_note(in->f, i));
	in->ids = recview_ids_new();
	in->comms = comm_cache_new();
	if (!in->ids || !in->comms) {
		snprintf(err, cap, "%s: out of memory", in->path);
		return -1;
	}
	return 0;
}

int inputs_open(struct input **out, const struct events_opts *eo,
		input_opened_fn opened, void *ctx, char *err, size_t cap,
		int *status)
{
	struct input *in = calloc((size_t)eo->ninputs, sizeof(*in));
	int k;

	*out = in;
	*status = 1;
	if (!in) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	for (k = 0; k < eo->ninputs; k++) {
		if (open_one(&in[k], eo, k, err, cap))
			return -1;
		if (opened && opened(ctx, &in[k], k, err, cap, status))
			return -1;
	}
	if (kvm_guests_link(in, eo->ninputs)) {
		snprintf(err, cap, "out of memory");
		*status = 1;
		return -1;
	}
	return 0;
}

void inputs_free(struct input *in, int n)
{
	int i;

	kvm_guests_clear();
	for (i = 0; in && i < n; i++) {
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

void inputs_open_failed(const struct events_opts *eo, const char *err)
{
	const char *path;
	size_t len;
	int k;

	fprintf(stderr, "tdat %s: %s", applet(eo), err);
	for (k = 0; k < eo->ninputs; k++) {
		path = eo->inputs[k].path;
		len = strlen(path);
		if (!strncmp(err, path, len) &&
		    !strncmp(err + len, ": offset ", 9) &&
		    !strstr(err, "memory budget")) {
			fprintf(stderr, repair_hint_fmt, path);
			break;
		}
	}
	fputc('\n', stderr);
}

uint32_t input_record(struct input *i, struct stream_cpu *c,
		      struct tep_record *rec, int *type)
{
	const uint8_t *page_end = c->it.page + c->it.page_size;

	rec->ts = c->ts;
	rec->offset = c->page_offset + c->ev.offset;
	rec->missed_events = c->missed;
	rec->size = (int)c->ev.size;
	rec->record_size = (int)c->ev.size;
	rec->cpu = c->cpu;
	return recview_fill(i->ids, i->tep, rec, c->ev.data, c->ev.size,
			    page_end, &c->pad, type);
}

/* Where tep_data_pid reads common_pid. */
static void learn_pid(struct input *i)
{
	i->pid_size = -1;
	recview_common_place(i->tep, NULL, "common_pid", &i->pid_off,
			     &i->pid_size);
}

int input_pid_inside(struct input *i, uint32_t size)
{
	if (!i->pid_size)
		learn_pid(i);
	return i->pid_size > 0 && (uint32_t)(i->pid_off + i->pid_size) <= size;
}

int input_pid(struct input *i, const struct tep_record *rec)
{
	const uint8_t *p;
	int big = i->f->big_endian;

	if (!input_pid_inside(i, (uint32_t)rec->size))
		return tep_data_pid(i->tep, (struct tep_record *)rec);
	p = (const uint8_t *)rec->data + i->pid_off;
	if (i->pid_size == 4)
		return (int)tdat_load32(big, p);
	return tdat_load16(big, p);
}
