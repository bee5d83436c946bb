/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record_args.h - the pieces record's parser (cmds/record.c) builds
 * struct record_opts from (cmds/record_args.c): numbers and names
 * checked, lists grown.  Each returns 0, or -1 when the value is not
 * valid or memory ran out (the caller says which).
 */
#ifndef CMDS_RECORD_ARGS_H
#define CMDS_RECORD_ARGS_H

#include "convert/record/record.h"

/* A positive decimal number of KiB, at most 64 GiB. */
int rarg_kb(const char *s, long *v);
/* A decimal number in [min, max]. */
int rarg_long(const char *s, long min, long max, long *v);
/* Seconds with at most three decimals ("1", "0.25") in [0, max_ms]
 * milliseconds: *ms. */
int rarg_seconds(const char *s, long max_ms, long *ms);
/* A number as strtoll reads it with base 0 (trace-cmd's --ts-offset). */
int rarg_offset(const char *s);
int rarg_cpumask(const char *s);
/* Instance names become directory names under instances/. */
int rarg_name(const char *s);
/* A word for a control file: not empty, no white space or slash. */
int rarg_word(const char *s);
/* SYSTEM, SYSTEM:EVENT, EVENT or all, as -e takes it. */
int rarg_event_spec(const char *s);
/* none, zlib, zstd or any (zstd). */
int rarg_compression(const char *s, enum tdat_codec *c);

/* Append a copy of s. */
int rarg_words_add(struct rec_words *w, const char *s);
void rarg_words_free(struct rec_words *w);
/* A new buffer (name "" is the top one), its settings at their
 * defaults; NULL when out of memory. */
struct rec_buf_opts *rarg_add_buffer(struct record_opts *o, const char *name);
/* A checked -e spec as a new event of b. */
int rarg_add_event(struct rec_buf_opts *b, const char *spec, int neg);
/* -P's comma-separated PIDs onto b; -1 when one is not a PID. */
int rarg_add_pids(struct rec_buf_opts *b, const char *list);
void rarg_buffer_free(struct rec_buf_opts *b);

#endif
