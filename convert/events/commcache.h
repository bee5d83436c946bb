/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commcache.h - the comm of a pid as tep_data_comm_from_pid finds it,
 * remembered once found (commcache.c).
 */
#ifndef EVENTS_COMMCACHE_H
#define EVENTS_COMMCACHE_H

#include <event-parse.h>

struct comm_cache;

/* An empty cache, or NULL when out of memory (comm_cache_get then asks
 * libtraceevent every time). */
struct comm_cache *comm_cache_new(void);
/* pid's comm in tep (one handle per cache): "<...>" when it has none. */
const char *comm_cache_get(struct comm_cache *c, struct tep_handle *tep,
			   int pid);
void comm_cache_free(struct comm_cache *c);

#endif
