/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps.c - how each event type is written, decided once per input and
 * event id: Perfetto's typed message (typed.c) where there is one, else
 * a self-describing message whose descriptor names the event and every
 * field of its format, numbered 1.. in format order and typed as
 * report --json shows them (the stream's event_layout): text as string, signed
 * numbers as sint64, unsigned ones and addresses as uint64, arrays and
 * bytes as the text --json prints for them.  trace_processor refuses
 * field numbers past 31, so an event with more fields goes as the older
 * GenericFtraceEvent, which names each field in every event.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

#define MAX_IDS 65536		/* common_type is 16 bits */
#define PAGE 256		/* ids a page of maps_get's table holds */
#define PAGES (MAX_IDS / PAGE)
#define SELF_FIRST 65536	/* FtraceEvent's self-describing ids */
#define SELF_LAST 131072
#define SELF_FIELDS 31		/* the most a descriptor may number */

/* FieldDescriptorProto types */
enum { FD_UINT64 = 4, FD_STRING = 9, FD_SINT64 = 18 };

static int fits(const struct field_kind *k, enum pf_type t)
{
	switch (t) {
	case PT_STR:
		return k->read == FIELD_TEXT;
	case PT_U64_REP:
		return k->read == FIELD_LIST ||
		       k->read == FIELD_INT;
	default:
		return k->read == FIELD_INT;
	}
}

/* The pids trace_processor names threads by (PERFETTO.md 9). */
static int names_thread(const struct typed_event *t, const char *field)
{
	if (t->id == 4)		/* sched_switch */
		return !strcmp(field, "prev_pid") || !strcmp(field, "next_pid");
	return (t->id == 20 || t->id == 235 || t->id == 236) &&
	       !strcmp(field, "pid");	/* sched_waking, task_* */
}

/* The addresses trace_processor shows as kernel functions: a work
 * item's (workqueue_*, ids 56 to 59; execute_start names its slice). */
static int names_function(const struct typed_event *t, const char *field)
{
	return t->id >= 56 && t->id <= 59 && !strcmp(field, "function");
}

static const struct typed_field *typed_field(const struct typed_event *t,
					     const char *name)
{
	int i;

	for (i = 0; i < 8 && t->f[i].name; i++)
		if (!strcmp(t->f[i].name, name))
			return &t->f[i];
	return NULL;
}

/* The fields of l's event that t's message holds.  1 when a field has
 * no place and t is not analysed (write it self-describing instead), 0,
 * -1. */
static int make_typed(struct pf_map *m, const struct event_layout *l,
		      const struct typed_event *t)
{
	const struct field_place *p;
	const struct typed_field *tf;
	int i;

	m->fields = calloc((size_t)l->nfields + 1, sizeof(*m->fields));
	if (!m->fields)
		return -1;
	for (i = 0; i < l->nfields; i++) {
		p = &l->fields[i];
		tf = typed_field(t, p->f->name);
		if (!tf || !fits(&p->k, (enum pf_type)tf->type)) {
			if (!t->analysed)
				return 1;
			continue;	/* no place for it: left out */
		}
		m->fields[m->n].place = *p;
		m->fields[m->n].num = tf->num;
		m->fields[m->n].names = names_thread(t, p->f->name);
		m->fields[m->n].symbol = names_function(t, p->f->name);
		m->fields[m->n].state = t->id == 4 &&	/* sched_switch */
					!strcmp(p->f->name, "prev_state");
		m->fields[m->n++].type = (enum pf_type)tf->type;
	}
	m->form = FORM_TYPED;
	m->id = t->id;
	m->print = !strcmp(t->name, "print");
	return 0;
}

static enum pf_type self_type(const struct field_kind *k)
{
	switch (k->read) {
	case FIELD_TEXT:
		return PT_STR;
	case FIELD_INT:	/* zigzag: -1 takes a byte, not ten */
		return k->is_signed ? PT_S64 : PT_U64;
	default:
		return PT_JSON;
	}
}

/* The GenericEventDescriptor of a self-describing map: its id, a
 * DescriptorProto (name, and each field's name, number, label
 * optional, type), and the event's system as group. */
static int describe(struct pf_map *m, const struct tep_event *ev)
{
	struct pb d = { 0 };
	struct pb_mark fm;
	int i;

	pb_string(&d, 1, ev->name);
	for (i = 0; i < m->n; i++) {
		fm = pb_open(&d, 2, 1);
		pb_string(&d, 1, m->fields[i].place.f->name);
		pb_uint(&d, 3, m->fields[i].num);
		pb_uint(&d, 4, 1);
		pb_uint(&d, 5, m->fields[i].type == PT_STR ? FD_STRING :
			       m->fields[i].type == PT_S64 ? FD_SINT64 :
			       m->fields[i].type == PT_U64 ? FD_UINT64 :
							     FD_STRING);
		pb_close(&d, fm);
	}
	pb_uint(&m->desc, 1, m->id);
	pb_bytes(&m->desc, 2, d.data, d.len);
	pb_string(&m->desc, 3, ev->system ? ev->system : "");
	i = pb_failed(&d) || pb_failed(&m->desc) ? -1 : 0;
	pb_free(&d);
	return i;
}

/* Every field of l's event, self-describing (or legacy past 31
 * fields). */
static int make_self(struct pf_maps *ms, struct pf_map *m,
		     const struct event_layout *l)
{
	int n = l->nfields;

	m->fields = calloc((size_t)n + 1, sizeof(*m->fields));
	if (!m->fields)
		return -1;
	for (; m->n < n; m->n++) {
		m->fields[m->n].place = l->fields[m->n];
		m->fields[m->n].num = (uint32_t)m->n + 1;
		m->fields[m->n].type = self_type(&l->fields[m->n].k);
	}
	if (n > SELF_FIELDS || ms->next_self > SELF_LAST) {
		m->form = FORM_LEGACY;
		m->id = 327;
		return 0;
	}
	m->form = FORM_SELF;
	m->id = ms->next_self++;
	return describe(m, l->ev);
}

static void map_free(struct pf_map *m)
{
	if (!m)
		return;
	map_free(m->plain);
	free(m->fields);
	pb_free(&m->desc);
	free(m);
}

static struct pf_map *map_new(struct pf_maps *ms, const struct event_layout *l)
{
	const struct tep_event *ev = l->ev;
	const struct typed_event *t = typed_find(ev->system, ev->name);
	struct pf_map *m = calloc(1, sizeof(*m));
	int r = 1;

	if (!m)
		return NULL;
	m->name = ev->name;
	if (t)
		r = make_typed(m, l, t);
	if (r == 1) {
		free(m->fields);
		memset(m, 0, sizeof(*m));
		m->name = ev->name;
		r = make_self(ms, m, l);
	} else if (!r && m->print) {	/* plain text: not atrace */
		m->plain = calloc(1, sizeof(*m->plain));
		r = m->plain ? make_self(ms, m->plain, l) : -1;
		if (m->plain)
			m->plain->name = ev->name;
	}
	if (r) {
		map_free(m);
		return NULL;
	}
	encode_prepare(m);
	if (m->plain)
		encode_prepare(m->plain);
	return m;
}

struct pf_map *maps_get(struct pf_maps *ms, int k,
			const struct event_layout *l)
{
	const struct tep_event *ev = l->ev;
	struct pf_map ***dir = ms->by_id[k], **page;

	if (ev->id < 0 || ev->id >= MAX_IDS)
		return NULL;
	if (!ms->next_self)
		ms->next_self = SELF_FIRST;
	if (!dir && !(dir = ms->by_id[k] = calloc(PAGES, sizeof(*dir))))
		return NULL;
	page = dir[ev->id / PAGE];
	if (!page && !(page = dir[ev->id / PAGE] = calloc(PAGE, sizeof(*page))))
		return NULL;
	if (!page[ev->id % PAGE])
		page[ev->id % PAGE] = map_new(ms, l);
	return page[ev->id % PAGE];
}

void maps_free(struct pf_maps *ms)
{
	int k, d, i;

	for (k = 0; k < EVENTS_MAX_INPUTS; k++) {
		for (d = 0; ms->by_id[k] && d < PAGES; d++) {
			for (i = 0; ms->by_id[k][d] && i < PAGE; i++)
				map_free(ms->by_id[k][d][i]);
			free(ms->by_id[k][d]);
		}
		free(ms->by_id[k]);
		ms->by_id[k] = NULL;
	}
}
