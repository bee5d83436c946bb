/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump_int.h - what the dump engine's files share: the walk's state and its reads. */
#ifndef CONVERT_DUMP_INT_H
#define CONVERT_DUMP_INT_H

#include <stdint.h>
#include <stdio.h>
#include "convert/dump/dump.h"
#include "libfmt/tracedat.h"

/* Where bytes come from: the file (mem NULL) or a decoded section. */
struct dsrc {
	const uint8_t *mem;
	uint64_t len;		/* mem's length */
	uint64_t pos;		/* file offset, or position in mem */
	uint64_t base;		/* mem: its section's file offset */
};

/* What --json reports, gathered during the walk. */
struct dump_facts {
	uint64_t header_page, header_event, kallsyms, printk, cmdlines;
	uint32_t ftrace_events, systems, cpus;
	int noptions, nsections, nbuffers;
	char clock[64];
};

struct dump {
	const struct dump_opts *o;
	const char *path;
	FILE *fp;
	uint64_t size;		/* of the file */
	unsigned parts;		/* what to print (0 with --json) */
	int big, version, long_size;
	uint32_t page_size;
	char codec[32], codec_version[64];
	struct tdat_file *hf;	/* header only: for decompression */
	int have_clock_opt;	/* v6: TRACECLOCK seen, a clock record follows */
	uint8_t *strings;	/* v7 strings table */
	uint64_t nstrings;
	struct dump_facts facts;
	struct tdat_error err;
	/* damage the walk went past as trace-cmd does, said at the end */
	struct tdat_error late;
};

/* src.c: reads that fail with err naming the file and offset (-1). */
int d_read(struct dump *d, struct dsrc *s, void *buf, uint64_t n,
	   const char *what);
int d_u16(struct dump *d, struct dsrc *s, uint16_t *v, const char *what);
int d_u32(struct dump *d, struct dsrc *s, uint32_t *v, const char *what);
int d_u64(struct dump *d, struct dsrc *s, uint64_t *v, const char *what);
/* A NUL-ended string of at most cap-1 bytes into buf. */
int d_cstr(struct dump *d, struct dsrc *s, char *buf, size_t cap,
	   const char *what);
/* n bytes printed when mask is asked for, else checked and skipped. */
int d_text(struct dump *d, struct dsrc *s, uint64_t n, unsigned mask,
	   const char *what);
int d_fail(struct dump *d, struct dsrc *s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint16_t d_get16(const struct dump *d, const uint8_t *p);
uint32_t d_get32(const struct dump *d, const uint8_t *p);
uint64_t d_get64(const struct dump *d, const uint8_t *p);
/* printf when one of mask's parts is asked for. */
void say(const struct dump *d, unsigned mask, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Decode a block-compressed section body at s (u32 csize, u32 usize,
 * data) into a malloc'd buffer. */
int d_decode_block(struct dump *d, struct dsrc *s, uint64_t stored,
		   uint8_t **out, uint32_t *csize, uint32_t *usize);

/* meta.c: the metadata parts, from s (the file for v6, a section for v7). */
int dump_headers(struct dump *d, struct dsrc *s);
int dump_ftrace(struct dump *d, struct dsrc *s);
int dump_systems(struct dump *d, struct dsrc *s);
int dump_kallsyms(struct dump *d, struct dsrc *s);
int dump_printk(struct dump *d, struct dsrc *s);
int dump_cmdlines(struct dump *d, struct dsrc *s);
int dump_modules(struct dump *d, struct dsrc *s);

/* options.c: 1 with *n when option id is a CPUCOUNT that holds a
 * count; one that holds none is said in a warning. */
int dump_cpucount(struct dump *d, uint16_t id, const uint8_t *data,
		  uint32_t size, uint64_t at, uint32_t *n);

/* guestopts.c: the payloads of TIME_SHIFT, GUEST and TSC2NSEC. */
void dump_time_shift(const struct dump *d, const uint8_t *p, uint32_t size);
void dump_guest(const struct dump *d, const uint8_t *p, uint32_t size);
void dump_tsc2nsec(const struct dump *d, const uint8_t *p, uint32_t size);

/* options.c: one option's lines; count is incremented. */
int dump_option(struct dump *d, uint16_t id, const uint8_t *data,
		uint32_t size, uint64_t at);
const char *dump_option_name(uint16_t id);

/* v6.c, v7.c: the walks after the initial header. */
int dump_v6(struct dump *d, struct dsrc *s);
int dump_v7(struct dump *d, struct dsrc *s);

/* json.c */
void dump_json(const struct dump *d, const char *error);

/* validate.c: every page and chunk through libfmt; 0 or -1 with err. */
int dump_validate(struct dump *d);

#endif
