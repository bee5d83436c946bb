/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v6clock.c - v6's clock record: a u64 length, then text, after each CPU
 * table.  trace-cmd 3 writes "[local]"; trace-cmd 2.x wrote the whole
 * trace_clock list there, "[local] global counter ... x86-tsc\n".  The
 * clock is the bracketed word wherever it stands.
 *
 * A record that is not exactly "[clock]" is kept verbatim in a section of
 * tdat's own (TDAT_SECTION_V6_CLOCKS) among the file's unknown sections,
 * which every engine carries from input to output, so that a v6 output
 * gets the same bytes back (v6 -> v7 -> v6 included).  So is the record
 * of a top buffer without data (v7 leaves such a buffer out, and with it
 * its clock) when the TRACECLOCK option does not name that clock:
 * trace-cmd 2.9.1's agent files say "[tsc2nsec]" there.  trace-cmd
 * reaches sections through options only, so it never sees it.  Its
 * body: for each buffer with such a record, the buffer's name and a
 * NUL, a u32 length, the record's text (file byte order).
 *
 * Without a TRACECLOCK option there may be no record at all (2014-era
 * files): see record_fits.  The v6 writer then writes none either.
 */
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

/* No trace_clock list comes near this. */
#define V6_CLOCK_MAX 4096

/* The word between the first '[' and the next ']', or -1. */
static int bracketed(const char *text, size_t len, char *buf, size_t cap)
{
	const char *a = memchr(text, '[', len), *b;

	if (!a)
		return -1;
	b = memchr(a, ']', len - (size_t)(a - text));
	if (!b || (size_t)(b - a - 1) >= cap)
		return -1;
	memcpy(buf, a + 1, (size_t)(b - a - 1));
	buf[b - a - 1] = 0;
	return 0;
}

/* Where b's first CPU data starts (the file's end when none has any). */
static uint64_t first_data(const struct tdat_file *f,
			  const struct tdat_buffer *b)
{
	uint64_t at = f->file_size;
	int i;

	for (i = 0; i < b->ncpus; i++)
		if (b->cpus[i].size && b->cpus[i].offset < at)
			at = b->cpus[i].offset;
	return at;
}

/*
 * Without a TRACECLOCK option trace-cmd reads no clock record, and some
 * files have none: 2014-era ones whose CPU table ends where the first
 * CPU's data starts.  Others (trace-cmd 3.4's split pieces) still have
 * one.  So a record is taken only when one fits before the data.
 */
static int record_fits(const struct tdat_file *f, const struct tdat_buffer *b,
		       uint64_t off)
{
	uint64_t end = first_data(f, b);
	uint8_t lb[8];
	struct tdat_error ignored;

	if (off > end || end - off < 8 ||
	    fio_read_at(f, off, lb, 8, "clock record", &ignored))
		return 0;
	return tdat_get64(f, lb) <= end - off - 8 &&
	       tdat_get64(f, lb) <= V6_CLOCK_MAX;
}

/*
 * What no output would give back is kept (see the top): a record that is
 * not exactly "[clock]", and a data-less top buffer's one unless the
 * TRACECLOCK option names its clock (v7 leaves such a buffer out).
 */
static int keep_record(const struct tdat_file *f, const struct tdat_buffer *b,
		       const char *clock, const char *text, uint64_t len)
{
	char word[64];
	int exact = clock[0] && len == strlen(clock) + 2 && text[0] == '[';

	if (!len)
		return 0;
	if (!exact || b->name[0] || first_data(f, b) < f->file_size)
		return !exact;
	return !tdat_opt_clock(f, word, sizeof(word)) || strcmp(word, clock);
}

int v6clock_read(struct tdat_file *f, uint64_t off, struct tdat_buffer *b,
		 struct tdat_error *err)
{
	char text[V6_CLOCK_MAX], clock[64] = "";
	uint8_t lb[8];
	uint64_t len = 0;

	if (tdat_find_option(f, TDAT_OPT_TRACECLOCK) ||
	    record_fits(f, b, off)) {
		if (fio_read_at(f, off, lb, 8, "clock record", err))
			return -1;
		len = tdat_get64(f, lb);
	}
	if (len > V6_CLOCK_MAX)
		return tdat_fail(err, f->path, off, "malformed clock record"
				 " (length %llu)", (unsigned long long)len);
	if (len && fio_read_at(f, off + 8, text, (size_t)len, "clock", err))
		return -1;
	bracketed(text, (size_t)len, clock, sizeof(clock));
	free(b->clock);
	b->clock = strdup(clock);
	if (!b->clock)
		return tdat_fail(err, f->path, off, "out of memory");
	if (keep_record(f, b, clock, text, len) &&
	    own_section_append(f, TDAT_SECTION_V6_CLOCKS,
			       "tdat: v6 clock records", b->name, text,
			       (uint32_t)len))
		return tdat_fail(err, f->path, off, "out of memory");
	/* the top record may decide how times are shown (v6shown.c) */
	if (!b->name[0] && v6shown_keep(f, text, len))
		return tdat_fail(err, f->path, off, "out of memory");
	return 0;
}

/* A buffer's name and the clock its record must name ("": any). */
struct record_of {
	const char *name, *clock;
};

/* The record for buffer name, if it names clock (any record of that
 * buffer when clock is "": a v7 file leaves out a top buffer whose CPUs
 * had no data, and with it the clock, which only the record still
 * says). */
static int is_record_of(void *ctx, const char *name, const uint8_t *text,
			uint32_t len)
{
	const struct record_of *r = ctx;
	char word[64];

	if (bracketed((const char *)text, len, word, sizeof(word)))
		word[0] = 0;	/* it names no clock, as the reader saw */
	return !strcmp(name, r->name) && (!r->clock[0] ||
					  !strcmp(word, r->clock));
}

int v6clock_record(const struct tdat_file *m, const char *name,
		   const char *clock, struct tdat_blob *out,
		   struct tdat_error *err)
{
	struct record_of r = { name, clock ? clock : "" };

	return own_section_find(m, TDAT_SECTION_V6_CLOCKS, is_record_of, &r,
				out, err);
}
