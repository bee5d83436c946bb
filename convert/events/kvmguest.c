/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kvmguest.c - a host's kvm events name addresses in its guests.
 *
 * libtraceevent's kvm plugin prints kvm_entry's and kvm_exit's rip, then
 * asks the program which function it lies in, through
 * tep_plugin_kvm_get_func(), a weak symbol a program may define
 * (multicall/exports.list makes ours visible to the plugin).  The
 * question carries nothing but the event and its record, so the answers
 * sit in one table for the process, the one piece of global state here:
 * for each host handle, the host tasks that run a guest's vCPUs, and
 * that guest's handle.  As in trace-cmd, a guest is an input after its
 * host whose TRACEID one of the host's GUEST options names, and the
 * record's task picks the guest.  The table is made before any thread
 * starts and only read while they run.
 */
#include <stdlib.h>
#include "convert/events/stream.h"
#include "convert/events/inputs.h"

struct vcpu_task {
	const struct tep_handle *host;
	int32_t task;
	struct tep_handle *guest;
};

static struct vcpu_task *tasks;
static size_t ntasks, cap;

static int add(const struct tep_handle *host, int32_t task,
	       struct tep_handle *guest)
{
	struct vcpu_task *t;

	if (ntasks == cap) {
		t = realloc(tasks, (cap ? 2 * cap : 16) * sizeof(*t));
		if (!t)
			return -1;
		tasks = t;
		cap = cap ? 2 * cap : 16;
	}
	tasks[ntasks].host = host;
	tasks[ntasks].task = task;
	tasks[ntasks++].guest = guest;
	return 0;
}

/* The host's GUEST options that name the guest's trace id. */
static int link_pair(struct input *host, struct input *guest, uint64_t id)
{
	struct tdat_guest g;
	uint32_t k;
	int pos = 0;

	while (tdat_guest_next(host->f, &pos, &g)) {
		if (g.trace_id != id)
			continue;
		for (k = 0; k < g.nvcpus; k++)
			if (add(host->tep, tdat_guest_task(&g, k), guest->tep))
				return -1;
	}
	return 0;
}

/* The first input is the host (as in trace-cmd, which names nothing
 * when a guest comes first); the later ones may be its guests. */
int kvm_guests_link(struct input *in, int n)
{
	uint64_t id;
	int j;

	for (j = 1; j < n; j++)
		if (tdat_opt_u64(in[j].f, TDAT_OPT_TRACEID, &id) &&
		    link_pair(&in[0], &in[j], id))
			return -1;
	return 0;
}

int kvm_guests_alias(const struct tep_handle *worker,
		     const struct tep_handle *main)
{
	size_t i, n = ntasks;

	for (i = 0; i < n; i++)
		if (tasks[i].host == main &&
		    add(worker, tasks[i].task, tasks[i].guest))
			return -1;
	return 0;
}

void kvm_guests_clear(void)
{
	free(tasks);
	tasks = NULL;
	ntasks = cap = 0;
}

/* The plugin's question: the guest function holding *val (which then
 * becomes its first address), or NULL to print the address alone. */
const char *tep_plugin_kvm_get_func(struct tep_event *event,
				    struct tep_record *record,
				    unsigned long long *val);
void tep_plugin_kvm_put_func(const char *func);

const char *tep_plugin_kvm_get_func(struct tep_event *event,
				    struct tep_record *record,
				    unsigned long long *val)
{
	const char *name;
	size_t i;
	int pid;

	if (!ntasks)
		return NULL;
	pid = tep_data_pid(event->tep, record);
	for (i = 0; i < ntasks; i++)
		if (tasks[i].host == event->tep && tasks[i].task == pid)
			break;
	if (i == ntasks)
		return NULL;
	name = tep_find_function(tasks[i].guest, *val);
	if (name)
		*val = tep_find_function_address(tasks[i].guest, *val);
	return name;
}

/* Names belong to the guest's handle: nothing to give back. */
void tep_plugin_kvm_put_func(const char *func)
{
	(void)func;
}
