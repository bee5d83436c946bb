/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_search.c - a v7 buffer section whose BUFFER option is lost (a
 * file cut before its trailing options): its CPU streams are found on
 * page boundaries, compressed ones by a chunk count and chunks that
 * decompress, raw ones by page time stamps that restart where the next
 * CPU begins; its name and clock are inferred from what survives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/restore/salvage_internal.h"
#include "libfmt/salvage.h"

/* Does a chunk stream begin at at: a count, then a first chunk that
 * decompresses (or is cut by the end of the file)? */
static int stream_starts(struct salvage *sv, uint64_t at, uint64_t end,
			 uint32_t ps)
{
	uint32_t k, c, u;

	if (at + 12 > end || sv_get32(sv, at, &k) || !k || k > (1u << 24) ||
	    sv_get32(sv, at + 4, &c) || sv_get32(sv, at + 8, &u) ||
	    !sv_chunk_plausible(c, u, ps))
		return 0;
	if (c > end - at - 12)
		return end == sv->f->file_size;
	return sv_chunk_decompresses(sv, at + 4, c, u);
}

/* The next page boundary in [at, end) where a chunk stream begins, or end. */
static uint64_t next_stream(struct salvage *sv, uint64_t at, uint64_t end,
			    uint32_t ps)
{
	for (at = sv_align_up(at, ps); at < end; at += ps)
		if (stream_starts(sv, at, end, ps))
			return at;
	return end;
}

/*
 * Compressed streams: on page boundaries, a chunk count and chunks.  A
 * stream whose walk breaks on a damaged header runs to where the next
 * stream begins (the copy resyncs inside it); a stream cut by the end of
 * the file runs to it.
 */
static int find_chunk_streams(struct salvage *sv, struct plan *p,
			      uint64_t body, uint64_t end, uint32_t ps,
			      struct tdat_error *err)
{
	uint64_t at = next_stream(sv, body, end, ps), q;
	uint32_t k, n, c, u;
	int cpu = 0;

	if (at > sv_align_up(body, ps))
		restore_say_at(sv->o, sv->path, sv_align_up(body, ps),
			       "dropped: %llu bytes where no chunk stream"
			       " begins", (unsigned long long)
			       (at - sv_align_up(body, ps)));
	while (at < end) {
		if (sv_get32(sv, at, &k))
			break;
		for (q = at + 4, n = 0; n < k && q + 8 <= end; n++) {
			if (sv_get32(sv, q, &c) || sv_get32(sv, q + 4, &u) ||
			    !sv_chunk_plausible(c, u, ps))
				break;
			q += 8 + (uint64_t)c;
		}
		if (q > end)
			q = end;
		if (n < k && q < end)	/* broken: the stream may go on */
			q = next_stream(sv, q + 1, end, ps);
		if (sv_add_stream(p, cpu++, at, q, 0))
			return sv_oom(sv, err);
		at = next_stream(sv, q, end, ps);
		if (at > sv_align_up(q, ps))
			restore_say_at(sv->o, sv->path, sv_align_up(q, ps),
				       "dropped: %llu bytes where no chunk"
				       " stream begins", (unsigned long long)
				       (at - sv_align_up(q, ps)));
	}
	return 0;
}

/* Raw pages: a new CPU begins where page time stamps go back. */
static int find_page_streams(struct salvage *sv, struct plan *p,
			     uint64_t body, uint64_t end, uint32_t ps,
			     struct tdat_error *err)
{
	uint64_t at = sv_align_up(body, ps), start = at, prev = 0;
	uint8_t h[16];
	struct tdat_error e;
	int cpu = 0;

	for (; at + 16 <= end; at += ps) {
		uint64_t ts, commit;

		if (tdat_salvage_read(sv->f, at, h, 16, &e))
			break;
		ts = tdat_get64(sv->f, h);
		commit = sv->f->commit_size == 4 ? tdat_get32(sv->f, h + 8) :
						   tdat_get64(sv->f, h + 8);
		if (!(commit & 0x07FFFFFF))
			continue;	/* empty: says nothing */
		if (ts < prev) {
			if (sv_add_stream(p, cpu++, start, at, 0))
				return sv_oom(sv, err);
			start = at;
		}
		prev = ts;
	}
	if (start < end && sv_add_stream(p, cpu, start, end, 0))
		return sv_oom(sv, err);
	return 0;
}

/* The name of the n-th "\nBuffer: NAME\n" CPUSTAT block, or NULL. */
static char *cpustat_instance(const struct tdat_file *f, int n)
{
	int i;

	for (i = 0; i < f->noptions; i++) {
		const struct tdat_option *o = &f->options[i];
		const char *s = (const char *)o->data, *e;

		if (o->id != TDAT_OPT_CPUSTAT || o->size < 10 ||
		    memcmp(s, "\nBuffer: ", 9))
			continue;
		e = memchr(s + 9, '\n', o->size - 9);
		if (e && n-- == 0)
			return strndup(s + 9, (size_t)(e - s - 9));
	}
	return NULL;
}

static int name_taken(const struct salvage *sv, const char *name)
{
	int i;

	for (i = 0; i < sv->nbufs; i++)
		if (!strcmp(sv->bufs[i].name, name))
			return 1;
	return 0;
}

/* The lost section's name: its description, else its place. */
static char *infer_name(struct salvage *sv, const struct tdat_salvage_section
			*l, int nth, const char **why)
{
	static const char fly[] = "buffer flyrecord ";
	char *n;
	int k;

	if (l->description && !strncmp(l->description, fly, sizeof(fly) - 1)) {
		*why = "from its description in the strings table";
		return strdup(l->description + sizeof(fly) - 1);
	}
	if (nth == 0 && !name_taken(sv, "")) {
		*why = "the first buffer section is the top buffer's";
		return strdup("");
	}
	for (k = 0; (n = cpustat_instance(sv->f, k)); k++) {
		if (!name_taken(sv, n)) {
			*why = "the next instance named by the CPUSTAT options";
			return n;
		}
		free(n);
	}
	*why = "no name survives";
	n = malloc(32);
	if (n)
		snprintf(n, 32, "lost%d", nth);
	return n;
}

int sv_plan_lost(struct salvage *sv, int nth, struct tdat_error *err)
{
	const struct tdat_salvage_section *l = &sv->s.lost[nth];
	const char *why_name, *why_clock = "from the TRACECLOCK option";
	uint32_t ps = sv->f->page_size;
	struct tdat_buffer *b;
	struct plan *p;
	char clock[64], *name;
	int r;

	if (l->id != TDAT_OPT_BUFFER) {
		restore_say_at(sv->o, sv->path, l->offset, "lost: a latency"
			       " text section whose description is gone (%llu"
			       " bytes)",
			       (unsigned long long)(l->end - l->body));
		return 0;
	}
	if (!tdat_opt_clock(sv->f, clock, sizeof(clock)) || !clock[0]) {
		snprintf(clock, sizeof(clock), "local");
		why_clock = "trace-cmd's default";
	}
	name = infer_name(sv, l, nth, &why_name);
	if (!name)
		return sv_oom(sv, err);
	b = sv_add_buffer(sv, name, clock, ps);
	free(name);
	if (!b)
		return sv_oom(sv, err);
	p = &sv->plans[sv->nbufs - 1];
	p->compressed = l->flags & 1;
	r = p->compressed ? find_chunk_streams(sv, p, l->body, l->end, ps, err)
			  : find_page_streams(sv, p, l->body, l->end, ps, err);
	if (r)
		return -1;
	restore_say_at(sv->o, sv->path, l->offset, "inferred: buffer \"%s\""
		       " (its BUFFER option is lost): name %s, clock \"%s\" %s,"
		       " page size %u from the file header, %d %s stream%s"
		       " found on page boundaries, numbered CPU 0 on (the file"
		       " has %u CPUs)", b->name, why_name, clock, why_clock,
		       ps, p->nstreams, p->compressed ? "chunk" : "page",
		       p->nstreams == 1 ? "" : "s", tdat_cpus(sv->f));
	return 0;
}

/* Output buffers: the described ones, then the searched ones; top first. */
