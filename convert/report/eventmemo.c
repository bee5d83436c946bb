/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eventmemo.c - each event's format, as tep_find_event_by_record finds
 * it, without its field-by-field read of the type and its bsearch for
 * every event: the reader passes the type it read (event_view.type), and
 * the printer keeps what each handle's type gave.  One memo per printer,
 * so per thread.
 */
#include <stdlib.h>
#include "convert/report/print.h"

#define MEMO_SLOTS 1024		/* direct-mapped by type */

struct event_memo {
	struct memo_slot {
		const struct tep_handle *tep;	/* NULL: empty */
		int type;
		struct tep_event *ev;		/* NULL: no format */
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
	}
	return s->ev;
}

void event_memo_free(struct event_memo *m)
{
	free(m);
}
