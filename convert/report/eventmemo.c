/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eventmemo.c - each event's format, as tep_find_event_by_record finds
 * it, without its field-by-field read of the type and its bsearch for
 * every event: the reader passes the type it read (event_view.type), and
 * the printer keeps what each handle's type gave, and the format's
 * layout (events.h) once asked for.  One memo per printer, so per
 * thread.
 */
#include <stdlib.h>
#include "convert/report/print.h"
#include "convert/events/events.h"

#define MEMO_SLOTS 1024		/* direct-mapped by type */

struct event_memo {
	struct memo_slot {
		const struct tep_handle *tep;	/* NULL: empty */
		int type;
		struct tep_event *ev;		/* NULL: no format */
		struct event_layout *layout;	/* ev's, NULL: not made */
	} slot[MEMO_SLOTS];
};

struct tep_event *event_memo_find(struct event_memo **mp,
				  const struct event_view *e)
{
	struct memo_slot *s;

	if (!e->has_type || e->type < 0)
		return tep_find_event_by_record(e->tep, e->rec);
	if (!*mp && !(*mp = calloc(1, sizeof(**mp))))
		return tep_find_event(e->tep, e->type);
	s = &(*mp)->slot[e->type % MEMO_SLOTS];
	if (s->tep != e->tep || s->type != e->type) {
		s->tep = e->tep;
		s->type = e->type;
		s->ev = tep_find_event(e->tep, e->type);
		event_layout_free(s->layout);
		s->layout = NULL;
	}
	return s->ev;
}

const struct event_layout *event_memo_layout(struct event_memo *m,
					     const struct event_view *e,
					     const struct tep_event *ev)
{
	struct memo_slot *s;

	if (!m || !e->has_type || e->type < 0)
		return NULL;
	s = &m->slot[e->type % MEMO_SLOTS];
	if (s->tep != e->tep || s->type != e->type || s->ev != ev)
		return NULL;
	if (!s->layout)
		s->layout = event_layout_new(ev);
	return s->layout;
}

void event_memo_free(struct event_memo *m)
{
	int k;

	for (k = 0; m && k < MEMO_SLOTS; k++)
		event_layout_free(m->slot[k].layout);
	free(m);
}
