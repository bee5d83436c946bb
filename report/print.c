/* print.c - one event line, formatted as trace-cmd report prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "print.h"

/* Clocks trace-cmd shows as seconds.microseconds (FORMAT.md 9.1). */
int clock_is_time(const char *clock)
{
	static const char *const names[] = { "local", "global", "uptime",
					     "perf", "tai", "tsc2nsec" };
	size_t i;

	if (!strncmp(clock, "mono", 4))
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(clock, names[i]))
			return 1;
	return 0;
}

static void put_time(struct outbuf *o, const struct print_opts *p,
		     uint64_t ts)
{
	if (!p->time_is_ns) {
		outbuf_printf(o, "%12llu:", (unsigned long long)ts);
	} else if (p->full_ns) {
		outbuf_printf(o, " %5llu.%09llu:",
			      (unsigned long long)(ts / 1000000000ull),
			      (unsigned long long)(ts % 1000000000ull));
	} else {
		uint64_t us = (ts + 500) / 1000;

		outbuf_printf(o, " %5llu.%06llu:",
			      (unsigned long long)(us / 1000000ull),
			      (unsigned long long)(us % 1000000ull));
	}
}

static void put_info(struct outbuf *o, struct tep_handle *tep,
		     struct tep_record *rec, struct trace_seq *seq,
		     const char *what)
{
	trace_seq_reset(seq);
	tep_print_event(tep, seq, rec, "%s", what);
	trace_seq_terminate(seq);
	/* One trailing newline is dropped; the line gets its own. */
	if (seq->len && seq->buffer[seq->len - 1] == '\n')
		seq->len--;
	outbuf_put(o, seq->buffer, seq->len);
}

void print_event(struct outbuf *o, const struct print_opts *p,
		 struct tep_handle *tep, struct trace_seq *seq,
		 struct tep_record *rec, uint64_t ts, const char *label)
{
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	int pid = tep_data_pid(tep, rec);
	const char *comm = tep_data_comm_from_pid(tep, pid);
	size_t nlen;

	if (label)
		outbuf_puts(o, label);
	outbuf_printf(o, "%16s-%-5d [%03d]", comm, pid, rec->cpu);
	put_time(o, p, ts);
	if (!ev) {
		outbuf_puts(o, " [UNKNOWN EVENT]\n");
		return;
	}
	outbuf_putc(o, ' ');
	outbuf_puts(o, ev->name);
	outbuf_puts(o, ": ");
	nlen = strlen(ev->name);
	if (nlen < 20)
		outbuf_pad(o, 20 - nlen);
	put_info(o, tep, rec, seq, p->raw ? TEP_PRINT_INFO_RAW :
					    TEP_PRINT_INFO);
	outbuf_putc(o, '\n');
}
