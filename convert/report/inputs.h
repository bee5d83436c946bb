/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inputs.h - report's input files: opened, given a tep handle, their
 * filters, and the labels trace-cmd puts before their lines.
 */
#ifndef INPUTS_H
#define INPUTS_H

#include "convert/report/report.h"
#include "convert/report/report_internal.h"
#include "convert/report/filter.h"
#include "convert/report/recview.h"
#include "convert/report/funcgraph.h"
#include "convert/report/commcache.h"

struct input {
	const char *path;
	struct tdat_file *f;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct tepfmt_trial trial;	/* for every handle of f (tepfmt.h) */
	struct recview_ids *ids;	/* what libtraceevent reads of each id */
	struct event_filter filter;
	struct tdat_bytes filter_copy;	/* a record as -F reads it on a
					 * big-endian host (hostptr.c) */
	int filtering;		/* filter has anything to check */
	int time_is_ns;		/* show sec.usec, not raw clock counts */
	int has_clock;		/* the input has a TRACECLOCK option */
	char *cpus_label;	/* before "cpus=N" ("" with one input) */
	char **labels;		/* per buffer: line prefix, or NULL */
	struct fgraph fg;	/* its function_graph events */
	int fg_on;		/* printed as trace-cmd does (not -N, -R,
				 * --json) */
	int syms_later;		/* its handle has no kallsyms yet
				 * (report_opts.lazy_kallsyms) */
	struct comm_cache *comms;	/* its pids' comms in tep */
	int pid_off, pid_size;	/* common_pid in every event; size 0 not
				 * looked up yet, -1 tep's way (pipeline.c) */
};

/* kvmguest.c: guests' functions for a host's kvm events (the kvm
 * plugin's tep_plugin_kvm_get_func).  link: the first input's guests
 * among the later ones (inputs_open does it); alias: a worker's handle of
 * a host answers as its main one; clear: the table gone (inputs_free).
 * 0 or -1 (out of memory). */
int kvm_guests_link(struct input *in, int n);
int kvm_guests_alias(const struct tep_handle *worker,
		     const struct tep_handle *main);
void kvm_guests_clear(void);

/*
 * Open every input of ro, in order.  0, or -1 with a one-line message
 * in err; *status is then the exit status (1 unreadable file, 2 bad
 * filter).  inputs_free() is needed either way.
 */
int inputs_open(struct input **out, const struct report_opts *ro,
		char *err, size_t cap, int *status);
void inputs_free(struct input *in, int n);

/* How input in's timestamps are shown (struct ts_adjust in
 * report_internal.h): DATE, OFFSET, --ts-offset, --ts2secs, TSC2NSEC. */
void input_adjust(const struct report_opts *ro, const struct report_input *in,
		  const struct tdat_file *f, struct ts_adjust *a);

/* Whether f's timestamps show as sec.usec (else raw clock counts). */
int input_time_is_ns(const struct report_opts *ro, const struct tdat_file *f,
		     int *has_clock);
/* The label before input k's cpus= line: its base name right-aligned to
 * the longest input's, "" with one input. */
void input_cpus_label(const struct report_opts *ro, int k, char *buf,
		      size_t cap);

#endif
