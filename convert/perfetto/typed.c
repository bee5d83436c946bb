/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typed.c - the trace.dat events Perfetto has a message of its own for,
 * with their field numbers and types (PERFETTO.md section 6, each
 * checked there against trace_processor).  The format's field names are
 * the message's.  "analysed" events feed trace_processor's tables
 * (sched, thread_state, slices, counters) and are always sent typed;
 * the others only when every field of the recording's format has a
 * place in the message, else self-describing, which keeps them all.
 */
#include <string.h>
#include "convert/perfetto/perfetto_internal.h"

#define S PT_STR
#define I32 PT_I32
#define I64 PT_I64
#define U32 PT_U32
#define U64 PT_U64

static const struct typed_event typed[] = {
	{ "ftrace", "print", 3, 1, { { "ip", 1, U64 }, { "buf", 2, S } } },
	{ "sched", "sched_switch", 4, 1,
	  { { "prev_comm", 1, S }, { "prev_pid", 2, I32 },
	    { "prev_prio", 3, I32 }, { "prev_state", 4, I64 },
	    { "next_comm", 5, S }, { "next_pid", 6, I32 },
	    { "next_prio", 7, I32 } } },
	{ "sched", "sched_waking", 20, 1,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 },
	    { "success", 4, I32 }, { "target_cpu", 5, I32 } } },
	{ "sched", "sched_wakeup", 17, 0,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 },
	    { "success", 4, I32 }, { "target_cpu", 5, I32 } } },
	{ "sched", "sched_wakeup_new", 114, 0,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 },
	    { "success", 4, I32 }, { "target_cpu", 5, I32 } } },
	{ "sched", "sched_process_fork", 239, 0,
	  { { "parent_comm", 1, S }, { "parent_pid", 2, I32 },
	    { "child_comm", 3, S }, { "child_pid", 4, I32 } } },
	{ "sched", "sched_process_exec", 237, 0,
	  { { "filename", 1, S }, { "pid", 2, I32 }, { "old_pid", 3, I32 } } },
	{ "sched", "sched_process_exit", 238, 0,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "tgid", 3, I32 },
	    { "prio", 4, I32 } } },
	{ "sched", "sched_process_free", 240, 1,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 } } },
	{ "sched", "sched_process_wait", 242, 0,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 } } },
	{ "task", "task_newtask", 235, 1,
	  { { "pid", 1, I32 }, { "comm", 2, S }, { "clone_flags", 3, U64 },
	    { "oom_score_adj", 4, I32 } } },
	{ "task", "task_rename", 236, 1,
	  { { "pid", 1, I32 }, { "oldcomm", 2, S }, { "newcomm", 3, S },
	    { "oom_score_adj", 4, I32 } } },
	{ "power", "cpu_frequency", 11, 1,
	  { { "state", 1, U32 }, { "cpu_id", 2, U32 } } },
	{ "power", "cpu_idle", 13, 1,
	  { { "state", 1, U32 }, { "cpu_id", 2, U32 } } },
	{ "irq", "irq_handler_entry", 36, 1,
	  { { "irq", 1, I32 }, { "name", 2, S }, { "handler", 3, U32 } } },
	{ "irq", "irq_handler_exit", 37, 1,
	  { { "irq", 1, I32 }, { "ret", 2, I32 } } },
	{ "irq", "softirq_entry", 24, 1, { { "vec", 1, U32 } } },
	{ "irq", "softirq_exit", 25, 1, { { "vec", 1, U32 } } },
	{ "irq", "softirq_raise", 26, 0, { { "vec", 1, U32 } } },
	{ "workqueue", "workqueue_execute_start", 58, 1,
	  { { "work", 1, U64 }, { "function", 2, U64 } } },
	{ "workqueue", "workqueue_execute_end", 57, 1,
	  { { "work", 1, U64 }, { "function", 2, U64 } } },
	{ "raw_syscalls", "sys_enter", 329, 1,
	  { { "id", 1, I64 }, { "args", 2, PT_U64_REP } } },
	{ "raw_syscalls", "sys_exit", 330, 1,
	  { { "id", 1, I64 }, { "ret", 2, I64 } } },
	{ "signal", "signal_generate", 325, 1,
	  { { "code", 1, I32 }, { "comm", 2, S }, { "group", 3, I32 },
	    { "pid", 4, I32 }, { "result", 5, I32 }, { "sig", 6, I32 } } },
	{ "signal", "signal_deliver", 324, 1,
	  { { "code", 1, I32 }, { "sa_flags", 2, U64 }, { "sig", 3, I32 } } },
	{ "sched", "sched_migrate_task", 491, 0,
	  { { "comm", 1, S }, { "pid", 2, I32 }, { "prio", 3, I32 },
	    { "orig_cpu", 4, I32 }, { "dest_cpu", 5, I32 },
	    { "running", 6, I32 }, { "load", 7, U32 } } },
	{ "workqueue", "workqueue_queue_work", 59, 0,
	  { { "work", 1, U64 }, { "function", 2, U64 }, { "req_cpu", 4, I32 },
	    { "cpu", 5, I32 }, { "workqueue", 6, S } } },
	{ "workqueue", "workqueue_activate_work", 56, 0,
	  { { "work", 1, U64 }, { "function", 2, U64 } } },
	{ "block", "block_rq_issue", 45, 0,
	  { { "dev", 1, U64 }, { "sector", 2, U64 }, { "nr_sector", 3, U32 },
	    { "bytes", 4, U32 }, { "rwbs", 5, S }, { "comm", 6, S },
	    { "cmd", 7, S } } },
	{ "block", "block_rq_insert", 126, 0,
	  { { "dev", 1, U64 }, { "sector", 2, U64 }, { "nr_sector", 3, U32 },
	    { "bytes", 4, U32 }, { "rwbs", 5, S }, { "comm", 6, S },
	    { "cmd", 7, S } } },
	{ "block", "block_rq_complete", 125, 0,
	  { { "dev", 1, U64 }, { "sector", 2, U64 }, { "nr_sector", 3, U32 },
	    { "errors", 4, I32 }, { "rwbs", 5, S }, { "cmd", 6, S },
	    { "error", 7, I32 } } },
	{ "kmem", "mm_page_alloc", 307, 0,
	  { { "gfp_flags", 1, U32 }, { "migratetype", 2, I32 },
	    { "order", 3, U32 }, { "page", 4, U64 }, { "pfn", 5, U64 } } },
	{ "kmem", "mm_page_free", 310, 0,
	  { { "order", 1, U32 }, { "page", 2, U64 }, { "pfn", 3, U64 } } },
	{ "kmem", "kmalloc", 299, 0,
	  { { "bytes_alloc", 1, U64 }, { "bytes_req", 2, U64 },
	    { "call_site", 3, U64 }, { "gfp_flags", 4, U32 },
	    { "ptr", 5, U64 } } },
	{ "kmem", "kmem_cache_alloc", 301, 0,
	  { { "bytes_alloc", 1, U64 }, { "bytes_req", 2, U64 },
	    { "call_site", 3, U64 }, { "gfp_flags", 4, U32 },
	    { "ptr", 5, U64 } } },
	{ "kmem", "kfree", 298, 0,
	  { { "call_site", 1, U64 }, { "ptr", 2, U64 } } },
	{ "kmem", "kmem_cache_free", 303, 0,
	  { { "call_site", 1, U64 }, { "ptr", 2, U64 } } },
	{ "kmem", "rss_stat", 313, 0,
	  { { "member", 1, I32 }, { "size", 2, I64 }, { "curr", 3, U32 },
	    { "mm_id", 4, U32 } } },
};

const struct typed_event *typed_find(const char *system, const char *name)
{
	size_t i;

	if (!system || !name)
		return NULL;
	for (i = 0; i < sizeof(typed) / sizeof(typed[0]); i++)
		if (!strcmp(typed[i].name, name) &&
		    !strcmp(typed[i].system, system))
			return &typed[i];
	return NULL;
}
