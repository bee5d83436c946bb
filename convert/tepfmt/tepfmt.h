/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tepfmt.h - event format texts handed to libtraceevent without letting
 * a damaged one crash it (report and check-events parse the formats a
 * trace.dat holds).
 *
 * libtraceevent 1.7 (and trace-cmd with it) dereferences NULL when the
 * first field named after __print_flags( or __print_symbolic( in a
 * print fmt is not a field of the event ("REC->vec" with no field vec),
 * and the mark it sets for that field outlives a parse that fails before
 * reaching one, so that the next format's first field reference is
 * taken for it.  It also divides as the print fmt says, by a literal 0
 * while parsing, by a field holding 0 while printing (SIGFPE).
 * tepfmt_parse() refuses the first kind and formats that divide by
 * anything but a number other than 0 or a sizeof (all kernels' do), and
 * clears the mark after the second kind.  A refused format still gives
 * its event, made from its fields alone: libtraceevent flags it failed
 * and prints its records as trace-cmd prints those of a print fmt it
 * cannot parse, "[FAILED TO PARSE]" and the fields by name.
 *
 * __print_array, __print_hex and __print_hex_str read as many elements
 * as the record says (counts.c): each count is bounded by what the
 * record holds, once tepfmt_bound_counts() has seen the record.
 */
#ifndef TEPFMT_H
#define TEPFMT_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>
#include "libfmt/tracedat.h"

/*
 * tep_parse_format(tep, event, text, len, system) (tep made ready by
 * tepfmt_prepare), unless parsing the
 * format would crash libtraceevent: then only its fields are parsed
 * (tepfmt_parse_fields), *why (if why is given) says what is wrong and
 * TEP_ERRNO__READ_PRINT_FAILED or __READ_FORMAT_FAILED is returned.  So
 * too (the event flagged failed) when a helper's count cannot be bounded
 * (counts.c).  event may be NULL (tep_parse_event); *why is NULL when
 * the format was handed over whole.
 */
enum tep_errno tepfmt_parse(struct tep_handle *tep, struct tep_event **event,
			    const char *text, size_t len, const char *system,
			    const char **why);

/*
 * wideptr.c: does tep's file have pointers wider than the host's (a
 * 64-bit file on armhf or i686)?  libtraceevent then cuts a plain %p to
 * the host's 32 bits; tepfmt_parse gives such a format's plain %p of a
 * field to a helper that prints it whole, as x86_64 does.
 */
int tepfmt_cuts_pointers(struct tep_handle *tep);
/* The format text with each plain %p of REC->field made %s of
 * __tdat_ptr(REC->field): malloc'd (its length in *n), or NULL when
 * there is none (or no memory). */
char *tepfmt_widen(const char *text, size_t len, size_t *n);
/* The printk formats (bprint's) with each plain %p made 0x%llx, for a
 * handle that cuts pointers: malloc'd and NUL-terminated, or NULL
 * without memory. */
char *tepfmt_widen_printk(const char *text, size_t len);
/* Set up tep for tepfmt_parse, once its long size is set: the helper
 * registered when tepfmt_cuts_pointers.  0 or -1. */
int tepfmt_prepare(struct tep_handle *tep);
/* Register the helper (once a handle: libtraceevent frees the one it
 * replaces, which events parsed before point to).  0 or -1. */
int tepfmt_register_wide(struct tep_handle *tep);

/*
 * The format's event from its fields alone: its text up to the print
 * fmt, without dynamic fields not 4 bytes wide (libtraceevent would read
 * a wider descriptor's length whole).  libtraceevent keeps the event
 * flagged TEP_EVENT_FL_FAILED.  For a format the trial found it dies on.
 */
enum tep_errno tepfmt_parse_fields(struct tep_handle *tep,
				   struct tep_event **event, const char *text,
				   size_t len, const char *system);

/*
 * counts.c: each count of ev's __print_array, __print_hex and
 * __print_hex_str made "C > LIMIT ? LIMIT : C".  0, or -1 with *why when
 * one cannot be (an array argument that is not a field, a count of node
 * types not known here, no memory): ev is then flagged failed.
 */
int tepfmt_bound_helpers(struct tep_event *ev, const char **why);
/*
 * Set the LIMITs of rec's event (found in tep) to the elements that lie
 * inside the record (size bytes at rec->data), before libtraceevent
 * prints it with tep: every handle that prints records calls it first.
 */
void tepfmt_bound_counts(struct tep_handle *tep, struct tep_record *rec,
			 uint32_t size);
/* The arrays ev's __print_array calls print from the record at data
 * (size bytes), those with a constant element size of 2, 4 or 8: up to
 * cap spans inside the record, in out; how many.  libtraceevent reads
 * their elements in the host's byte order (report's hostptr.c turns
 * them on a big-endian host). */
struct tepfmt_span {
	uint32_t start, bytes, elem;
};
int tepfmt_int_arrays(struct tep_event *ev, const uint8_t *data,
		      uint32_t size, struct tepfmt_span *out, int cap);
/* Does ev print with such counts (tepfmt_bound_counts has work)? */
int tepfmt_has_counts(struct tep_event *ev);

/*
 * libtraceevent 1.7 has more ways to crash (or hang) on a damaged text
 * than can be told from the text: a file's header_page and formats are
 * first parsed in a child process, into its copy of tep as it stands
 * (plugins loaded, nothing parsed yet).  A step that kills the child
 * (or takes over 10 s) is marked bad, and a new child goes on with the
 * fields alone of that format (tepfmt_parse_fields), then after it.
 * Steps: 0 the header_page, 1 + i the i-th format of tdat_each_format().
 * The caller then takes the same steps into tep itself, skipping the bad
 * ones.  One trial serves every handle made the same way from the file.
 */
struct tepfmt_trial {
	int n;			/* steps */
	uint8_t *bad;		/* per step: 1 its text killed the child, 2
				 * its fields alone too; NULL: no trial
				 * (nothing known) */
};
/* 0, or -1 when out of memory (t is then empty: nothing is skipped). */
int tepfmt_trial(struct tep_handle *tep, const struct tdat_file *f,
		 struct tepfmt_trial *t);
/* 1 unless step was found bad. */
int tepfmt_trial_ok(const struct tepfmt_trial *t, int step);
/* 1 unless the fields alone of format step (tepfmt_parse_fields) were
 * found bad too; the header_page (step 0) has no fields alone. */
int tepfmt_trial_fields_ok(const struct tepfmt_trial *t, int step);
void tepfmt_trial_free(struct tepfmt_trial *t);

#endif
