/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inputs.h - the stream's input files: opened, given a tep handle, and
 * each event's record, task and comm read from them.
 */
#ifndef EVENTS_INPUTS_H
#define EVENTS_INPUTS_H

#include <stddef.h>
#include "convert/events/events.h"
#include "convert/events/stream.h"
#include "convert/events/recview.h"
#include "convert/events/commcache.h"

struct input {
	const char *path;
	struct tdat_file *f;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct tepfmt_trial trial;	/* for every handle of f (tepfmt.h) */
	struct recview_ids *ids;	/* what libtraceevent reads of each id */
	int syms_later;		/* its handle has no kallsyms yet
				 * (events_opts.lazy_kallsyms) */
	int all_cpus;		/* under --cpu, its other CPUs read too,
				 * hidden (stream_start) */
	struct comm_cache *comms;	/* its pids' comms in tep */
	int pid_off, pid_size;	/* common_pid in every event; size 0 not
				 * looked up yet, -1 tep's way */
};

/* Called as each input is opened, before the next: what a consumer adds
 * to it.  0, or -1 with a one-line message in err and the exit status
 * in *status. */
typedef int (*input_opened_fn)(void *ctx, struct input *in, int k,
			       char *err, size_t cap, int *status);

/*
 * Open every input of eo, in order, its notes to stderr, then opened
 * (when not NULL) on it.  0, or -1 with a one-line message in err;
 * *status is then the exit status (1 an unreadable file, or what opened
 * said).  inputs_free() is needed either way.
 */
int inputs_open(struct input **out, const struct events_opts *eo,
		input_opened_fn opened, void *ctx, char *err, size_t cap,
		int *status);
void inputs_free(struct input *in, int n);
/* "tdat APPLET: err" on stderr for an input that would not open; damage
 * at an offset points at restore. */
void inputs_open_failed(const struct events_opts *eo, const char *err);

/* How input k's timestamps are shown (struct ts_adjust in stream.h):
 * DATE, OFFSET, --ts-offset, --ts2secs, TSC2NSEC. */
void input_adjust(const struct events_opts *eo, int k,
		  const struct tdat_file *f, struct ts_adjust *a);

/* rec for c's event (of input i); the bytes libtraceevent may read, 0
 * without memory for a padded copy (recview.h).  *type (when type is
 * not NULL) is the event's type. */
uint32_t input_record(struct input *i, struct stream_cpu *c,
		      struct tep_record *rec, int *type);
/* rec's pid as tep_data_pid reads it, without its field-by-field read
 * (where the record is too short for it, libtraceevent's own way: give
 * it a padded record then, input_record).  inside: whether a record of
 * size bytes holds it where it is read in place. */
int input_pid(struct input *i, const struct tep_record *rec);
int input_pid_inside(struct input *i, uint32_t size);

/* kvmguest.c: guests' functions for a host's kvm events (the kvm
 * plugin's tep_plugin_kvm_get_func).  link: the first input's guests
 * among the later ones (inputs_open does it); alias: a worker's handle of
 * a host answers as its main one; clear: the table gone (inputs_free).
 * 0 or -1 (out of memory). */
int kvm_guests_link(struct input *in, int n);
int kvm_guests_alias(const struct tep_handle *worker,
		     const struct tep_handle *main);
void kvm_guests_clear(void);

#endif
