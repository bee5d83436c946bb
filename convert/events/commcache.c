/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commcache.c - libtraceevent finds a pid's comm by a bsearch over every
 * saved cmdline, for each event: a tenth of report's CPU on a big
 * recording.  A slot per pid (a few thousand, mapped by pid) keeps what
 * it found.
 *
 * A comm once found stays what libtraceevent answers, at the same
 * address: the only comms added while report runs come from the
 * sched_switch plugin's tep_register_comm, which adds pids it has not
 * seen and never changes one it has.  A pid it has not seen may be
 * added later, so "<...>" is never kept.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/events/commcache.h"

#define COMM_SLOTS 4096

struct comm_cache {
	struct {
		int pid;
		const char *comm;	/* NULL: empty */
	} slot[COMM_SLOTS];
};

struct comm_cache *comm_cache_new(void)
{
	return calloc(1, sizeof(struct comm_cache));
}

const char *comm_cache_get(struct comm_cache *c, struct tep_handle *tep,
			   int pid)
{
	unsigned k = (unsigned)pid % COMM_SLOTS;
	const char *comm;

	if (c && c->slot[k].comm && c->slot[k].pid == pid)
		return c->slot[k].comm;
	comm = tep_data_comm_from_pid(tep, pid);
	if (c && strcmp(comm, "<...>")) {
		c->slot[k].pid = pid;
		c->slot[k].comm = comm;
	}
	return comm;
}

void comm_cache_free(struct comm_cache *c)
{
	free(c);
}
