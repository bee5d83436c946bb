/*
 * salvage.c - restore -o OUT DAMAGED: a truncated or partly corrupt
 * trace.dat becomes a valid one holding every genuine page it still has.
 *
 * The file is opened tolerantly (tdat_open_salvage).  Buffers whose
 * description survived are read from their recorded CPU streams, clamped
 * to the end of the file; a v7 buffer section whose BUFFER option is lost
 * (a file cut before its trailing options) is searched: CPU streams start
 * on page boundaries, compressed ones with a chunk count and plausible
 * chunk headers, raw ones as pages whose time stamps restart when the
 * next CPU begins.  Every page goes through restore's page filter, every
 * chunk must decompress.  What was dropped and what had to be inferred
 * is said, one line each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "salvage.h"

#define READ_PAGES 64
#define MAX_CHUNK (256u << 20)

/* A CPU stream to copy: [start, end) of the file. */
struct stream {
	int cpu;
	uint64_t start, end;
	uint64_t lost;		/* bytes recorded past the end of the file */
};

/* One output buffer and where its data comes from. */
struct plan {
	int compressed;
	int latency;		/* from f->buffers[from] */
	int from;		/* index in f->buffers, -1 if inferred */
	int nstreams;
	struct stream *streams;
};

struct salvage {
	const char *path;
	struct tdat_file *f;
	struct tdat_salvage s;
	const struct convert_opts *o;
	struct tdat_event_ids *ids;

	struct tdat_file m;	/* the writer's metadata: f's, our buffers */
	int nbufs;
	struct tdat_buffer *bufs;
	struct plan *plans;

	uint64_t pages, events, dropped;
	uint8_t *cbuf, *ubuf;	/* chunk in, pages out */
	size_t ccap, ucap;
};

static int oom(struct salvage *sv, struct tdat_error *err)
{
	snprintf(err->msg, sizeof(err->msg), "%.400s: out of memory",
		 sv->path);
	return -1;
}

static uint64_t align_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static int grow(uint8_t **p, size_t *cap, size_t need)
{
	uint8_t *n;

	if (need <= *cap)
		return 0;
	n = realloc(*p, need);
	if (!n)
		return -1;
	*p = n;
	*cap = need;
	return 0;
}

static int get32(struct salvage *sv, uint64_t off, uint32_t *v)
{
	uint8_t b[4];
	struct tdat_error e;

	if (off + 4 > sv->f->file_size ||
	    tdat_salvage_read(sv->f, off, b, 4, &e))
		return -1;
	*v = tdat_get32(sv->f, b);
	return 0;
}

/* ---- the buffer table ---- */

static struct tdat_buffer *add_buffer(struct salvage *sv, const char *name,
				      const char *clock, uint32_t ps)
{
	struct tdat_buffer *b;
	struct plan *p;

	b = realloc(sv->bufs, (size_t)(sv->nbufs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	sv->bufs = b;
	p = realloc(sv->plans, (size_t)(sv->nbufs + 1) * sizeof(*p));
	if (!p)
		return NULL;
	sv->plans = p;
	memset(&p[sv->nbufs], 0, sizeof(*p));
	p[sv->nbufs].from = -1;
	b = &sv->bufs[sv->nbufs++];
	memset(b, 0, sizeof(*b));
	b->page_size = ps;
	b->name = strdup(name);
	b->clock = strdup(clock ? clock : "");
	return b->name && b->clock ? b : NULL;
}

static int add_stream(struct plan *p, int cpu, uint64_t start, uint64_t end,
		      uint64_t lost)
{
	struct stream *s;

	s = realloc(p->streams, (size_t)(p->nstreams + 1) * sizeof(*s));
	if (!s)
		return -1;
	p->streams = s;
	s = &s[p->nstreams++];
	s->cpu = cpu;
	s->start = start;
	s->end = end;
	s->lost = lost;
	return 0;
}

static void free_plans(struct salvage *sv)
{
	int i;

	for (i = 0; i < sv->nbufs; i++) {
		free(sv->bufs[i].name);
		free(sv->bufs[i].clock);
		free(sv->bufs[i].cpus);
		free(sv->plans[i].streams);
	}
	free(sv->bufs);
	free(sv->plans);
}

/* A buffer whose description survived: its streams, clamped to the file. */
static int plan_described(struct salvage *sv, int i, struct tdat_error *err)
{
	const struct tdat_buffer *fb = &sv->f->buffers[i];
	uint64_t size = sv->f->file_size;
	struct tdat_buffer *b;
	struct plan *p;
	int j;

	b = add_buffer(sv, fb->name, fb->clock, fb->page_size);
	if (!b)
		return oom(sv, err);
	p = &sv->plans[sv->nbufs - 1];
	p->from = i;
	p->compressed = fb->compressed;
	p->latency = fb->latency;
	b->latency = fb->latency;
	if (fb->latency)
		return 0;
	for (j = 0; j < fb->ncpus; j++) {
		const struct tdat_cpu *c = &fb->cpus[j];
		uint64_t end = c->offset + c->size;

		if (!c->size)
			continue;
		if (end < c->offset)
			end = UINT64_MAX;
		if (c->offset >= size) {
			restore_say(sv->o, "%s: offset %llu: lost: buffer"
				    " \"%s\" CPU %d: all its %llu bytes are"
				    " past the end of the file", sv->path,
				    (unsigned long long)c->offset, fb->name,
				    c->cpu, (unsigned long long)c->size);
			sv->dropped += c->size;
			continue;
		}
		/* Compressed: the chunk count bounds the walk, not the
		 * size (trace-cmd 3.1 records it 4 bytes short). */
		if (add_stream(p, c->cpu, c->offset,
			       end > size || p->compressed ? size : end,
			       end > size ? end - size : 0))
			return oom(sv, err);
	}
	return 0;
}

/* ---- searching a buffer section whose description is lost ---- */

/* Sizes a chunk header can hold (compression never grows data much). */
static int chunk_plausible(uint32_t c, uint32_t u, uint32_t ps)
{
	return c > 0 && u > 0 && u % ps == 0 && u <= MAX_CHUNK &&
	       c <= u + u / 8 + 1024;
}

/* The chunk at at (header c, u) decompresses to u bytes. */
static int chunk_decompresses(struct salvage *sv, uint64_t at, uint32_t c,
			      uint32_t u)
{
	struct tdat_error e;

	return !grow(&sv->cbuf, &sv->ccap, c) &&
	       !grow(&sv->ubuf, &sv->ucap, u) &&
	       !tdat_salvage_read(sv->f, at + 8, sv->cbuf, c, &e) &&
	       !tdat_salvage_decompress(sv->f, sv->cbuf, c, sv->ubuf, u);
}

/* Does a chunk stream begin at at: a count, then a first chunk that
 * decompresses (or is cut by the end of the file)? */
static int stream_starts(struct salvage *sv, uint64_t at, uint64_t end,
			 uint32_t ps)
{
	uint32_t k, c, u;

	if (at + 12 > end || get32(sv, at, &k) || !k || k > (1u << 24) ||
	    get32(sv, at + 4, &c) || get32(sv, at + 8, &u) ||
	    !chunk_plausible(c, u, ps))
		return 0;
	if (c > end - at - 12)
		return end == sv->f->file_size;
	return chunk_decompresses(sv, at + 4, c, u);
}

/* The next page boundary in [at, end) where a chunk stream begins, or end. */
static uint64_t next_stream(struct salvage *sv, uint64_t at, uint64_t end,
			    uint32_t ps)
{
	for (at = align_up(at, ps); at < end; at += ps)
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

	if (at > align_up(body, ps))
		restore_say(sv->o, "%s: offset %llu: dropped: %llu bytes where"
			    " no chunk stream begins", sv->path,
			    (unsigned long long)align_up(body, ps),
			    (unsigned long long)(at - align_up(body, ps)));
	while (at < end) {
		if (get32(sv, at, &k))
			break;
		for (q = at + 4, n = 0; n < k && q + 8 <= end; n++) {
			if (get32(sv, q, &c) || get32(sv, q + 4, &u) ||
			    !chunk_plausible(c, u, ps))
				break;
			q += 8 + (uint64_t)c;
		}
		if (q > end)
			q = end;
		if (n < k && q < end)	/* broken: the stream may go on */
			q = next_stream(sv, q + 1, end, ps);
		if (add_stream(p, cpu++, at, q, 0))
			return oom(sv, err);
		at = next_stream(sv, q, end, ps);
		if (at > align_up(q, ps))
			restore_say(sv->o, "%s: offset %llu: dropped: %llu bytes"
				    " where no chunk stream begins", sv->path,
				    (unsigned long long)align_up(q, ps),
				    (unsigned long long)(at - align_up(q, ps)));
	}
	return 0;
}

/* Raw pages: a new CPU begins where page time stamps go back. */
static int find_page_streams(struct salvage *sv, struct plan *p,
			     uint64_t body, uint64_t end, uint32_t ps,
			     struct tdat_error *err)
{
	uint64_t at = align_up(body, ps), start = at, prev = 0;
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
			if (add_stream(p, cpu++, start, at, 0))
				return oom(sv, err);
			start = at;
		}
		prev = ts;
	}
	if (start < end && add_stream(p, cpu, start, end, 0))
		return oom(sv, err);
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

static int plan_lost(struct salvage *sv, int nth, struct tdat_error *err)
{
	const struct tdat_salvage_section *l = &sv->s.lost[nth];
	const char *why_name, *why_clock = "from the TRACECLOCK option";
	uint32_t ps = sv->f->page_size;
	struct tdat_buffer *b;
	struct plan *p;
	char clock[64], *name;
	int r;

	if (l->id != TDAT_OPT_BUFFER) {
		restore_say(sv->o, "%s: offset %llu: lost: a latency text"
			    " section whose description is gone (%llu bytes)",
			    sv->path, (unsigned long long)l->offset,
			    (unsigned long long)(l->end - l->body));
		return 0;
	}
	if (!tdat_opt_clock(sv->f, clock, sizeof(clock)) || !clock[0]) {
		snprintf(clock, sizeof(clock), "local");
		why_clock = "trace-cmd's default";
	}
	name = infer_name(sv, l, nth, &why_name);
	if (!name)
		return oom(sv, err);
	b = add_buffer(sv, name, clock, ps);
	free(name);
	if (!b)
		return oom(sv, err);
	p = &sv->plans[sv->nbufs - 1];
	p->compressed = l->flags & 1;
	r = p->compressed ? find_chunk_streams(sv, p, l->body, l->end, ps, err)
			  : find_page_streams(sv, p, l->body, l->end, ps, err);
	if (r)
		return -1;
	restore_say(sv->o, "%s: offset %llu: inferred: buffer \"%s\" (its"
		    " BUFFER option is lost): name %s, clock \"%s\" %s, page"
		    " size %u from the file header, %d %s stream%s found on"
		    " page boundaries, numbered CPU 0 on (the file has %u"
		    " CPUs)", sv->path, (unsigned long long)l->offset, b->name,
		    why_name, clock, why_clock, ps, p->nstreams,
		    p->compressed ? "chunk" : "page",
		    p->nstreams == 1 ? "" : "s", tdat_cpus(sv->f));
	return 0;
}

/* Output buffers: the described ones, then the searched ones; top first. */
/* A described compressed stream ends where the file's next one begins:
 * a resync must not wander into another CPU's chunks. */
static void bound_streams(struct salvage *sv)
{
	int i, j, b, c;

	for (i = 0; i < sv->nbufs; i++) {
		struct plan *p = &sv->plans[i];

		if (p->from < 0 || !p->compressed)
			continue;
		for (j = 0; j < p->nstreams; j++) {
			struct stream *s = &p->streams[j];

			for (b = 0; b < sv->f->nbuffers; b++) {
				const struct tdat_buffer *fb =
					&sv->f->buffers[b];

				for (c = 0; c < fb->ncpus; c++)
					if (fb->cpus[c].size &&
					    fb->cpus[c].offset > s->start &&
					    fb->cpus[c].offset < s->end)
						s->end = fb->cpus[c].offset;
			}
		}
	}
}

static int make_plans(struct salvage *sv, struct tdat_error *err)
{
	uint32_t n;
	int i, j;

	for (i = 0; i < sv->f->nbuffers; i++)
		if (plan_described(sv, i, err))
			return -1;
	bound_streams(sv);
	for (i = 0; i < sv->s.nlost; i++)
		if (plan_lost(sv, i, err))
			return -1;
	for (i = 1; i < sv->nbufs; i++) {
		if (sv->bufs[i].name[0])
			continue;
		for (j = i; j > 0; j--) {
			struct tdat_buffer tb = sv->bufs[j];
			struct plan tp = sv->plans[j];

			sv->bufs[j] = sv->bufs[j - 1];
			sv->plans[j] = sv->plans[j - 1];
			sv->bufs[j - 1] = tb;
			sv->plans[j - 1] = tp;
		}
		break;
	}
	/* CPU ids for the writer's count, and the count itself. */
	n = sv->f->cpu_count;
	for (i = 0; i < sv->nbufs; i++) {
		struct plan *p = &sv->plans[i];

		sv->bufs[i].cpus = calloc(p->nstreams ? p->nstreams : 1,
					  sizeof(struct tdat_cpu));
		if (!sv->bufs[i].cpus)
			return oom(sv, err);
		sv->bufs[i].ncpus = p->nstreams;
		for (j = 0; j < p->nstreams; j++) {
			sv->bufs[i].cpus[j].cpu = p->streams[j].cpu;
			if ((uint32_t)p->streams[j].cpu + 1 > n)
				n = (uint32_t)p->streams[j].cpu + 1;
		}
	}
	sv->m = *sv->f;
	sv->m.nbuffers = sv->nbufs;
	sv->m.buffers = sv->bufs;
	sv->m.cpu_count = n;
	return 0;
}

/* ---- copying ---- */

static int copy_raw(struct salvage *sv, struct page_filter *pf,
		    const struct stream *s, struct tdat_error *err)
{
	uint32_t ps = pf->page_size;
	uint64_t at = s->start;
	size_t n, i;

	if (grow(&sv->ubuf, &sv->ucap, (size_t)READ_PAGES * ps))
		return oom(sv, err);
	while (s->end - at >= ps) {
		n = (size_t)((s->end - at) / ps);
		if (n > READ_PAGES)
			n = READ_PAGES;
		if (tdat_salvage_read(sv->f, at, sv->ubuf, n * ps, err))
			return -1;
		for (i = 0; i < n; i++, at += ps)
			if (pf_page(pf, sv->ubuf + i * ps, at, 0, err))
				return -1;
	}
	if (at < s->end)
		pf_drop(pf, at, s->end - at, "a page cut by the end of the"
			" file");
	return 0;
}

/* One chunk at at (header checked by the caller): its pages, or dropped. */
static int copy_chunk(struct salvage *sv, struct page_filter *pf,
		      uint64_t at, uint32_t c, uint32_t u,
		      struct tdat_error *err)
{
	uint32_t ps = pf->page_size, i;

	if (grow(&sv->cbuf, &sv->ccap, c) || grow(&sv->ubuf, &sv->ucap, u))
		return oom(sv, err);
	if (tdat_salvage_read(sv->f, at + 8, sv->cbuf, c, err))
		return -1;
	if (tdat_salvage_decompress(sv->f, sv->cbuf, c, sv->ubuf, u)) {
		pf_drop(pf, at, 8 + (uint64_t)c, "a chunk that does not"
			" decompress");
		return 0;
	}
	for (i = 0; i < u / ps; i++)
		if (pf_page(pf, sv->ubuf + (size_t)i * ps, i, at, err))
			return -1;
	return 0;
}

/* Could a compressed chunk of f's codec begin at p? */
static int codec_start(const struct tdat_file *f, const uint8_t *p)
{
	if (f->codec == TDAT_CODEC_ZSTD)
		return p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
		       p[3] == 0xfd;
	return p[0] == 0x78 && ((0x78 << 8) | p[1]) % 31 == 0;
}

#define SYNC_WINDOW (64u << 10)

/*
 * After a chunk header that does not hold together: the next offset in
 * (from, limit) where a chunk whose payload decompresses begins, or 0.
 */
static uint64_t resync(struct salvage *sv, uint64_t from, uint64_t limit,
		       uint32_t ps)
{
	uint8_t win[SYNC_WINDOW + 12];
	struct tdat_error e;
	uint64_t at, q;
	size_t n, i;

	for (at = from + 1; at + 12 <= limit; at += SYNC_WINDOW) {
		n = limit - at < sizeof(win) ? (size_t)(limit - at) :
					       sizeof(win);
		if (tdat_salvage_read(sv->f, at, win, n, &e))
			return 0;
		for (i = 0; i + 12 <= n && i < SYNC_WINDOW; i++) {
			uint32_t c, u;

			if (!codec_start(sv->f, win + i + 8))
				continue;
			c = tdat_get32(sv->f, win + i);
			u = tdat_get32(sv->f, win + i + 4);
			q = at + i;
			if (chunk_plausible(c, u, ps) && c <= limit - q - 8 &&
			    chunk_decompresses(sv, q, c, u))
				return q;
		}
	}
	return 0;
}

static int copy_chunks(struct salvage *sv, struct page_filter *pf,
		       const struct stream *s, struct tdat_error *err)
{
	uint64_t at = s->start + 4, limit = s->end, q;
	uint32_t k, n, c, u;

	if (get32(sv, s->start, &k) || s->start + 4 > limit) {
		pf_drop(pf, s->start, limit - s->start, "a chunk count cut by"
			" the end of the file");
		return 0;
	}
	for (n = 0; n < k; n++) {
		if (at + 8 > limit || get32(sv, at, &c) || get32(sv, at + 4, &u)) {
			if (at < limit && limit == sv->f->file_size)
				pf_drop(pf, at, limit - at, "a chunk header cut"
					" by the end of the file");
			break;
		}
		if (!chunk_plausible(c, u, pf->page_size) ||
		    c > limit - at - 8) {
			q = resync(sv, at, limit, pf->page_size);
			if (!q && chunk_plausible(c, u, pf->page_size) &&
			    limit == sv->f->file_size) {
				pf_drop(pf, at, limit - at, "a chunk cut by the"
					" end of the file");
				break;
			}
			pf_drop(pf, at, (q ? q : limit) - at, q ?
				"a chunk header that does not hold together;"
				" the stream goes on at the next chunk found" :
				"a chunk header that does not hold together,"
				" and no chunk after it");
			if (!q)
				break;
			at = q;
			continue;
		}
		if (copy_chunk(sv, pf, at, c, u, err))
			return -1;
		at += 8 + (uint64_t)c;
	}
	if (n < k)
		restore_say(sv->o, "%s: offset %llu: lost: buffer \"%s\" CPU"
			    " %d: %u of its %u chunks", sv->path,
			    (unsigned long long)at, pf->buffer, pf->cpu, k - n,
			    k);
	return 0;
}

static int copy_stream(struct salvage *sv, struct tdat_writer *w, int b,
		       const struct stream *s, struct tdat_error *err)
{
	struct page_filter pf;
	int r;

	if (tdat_writer_begin_cpu(w, b, s->cpu, err) ||
	    pf_init(&pf, sv->f, sv->ids, w, sv->o, sv->bufs[b].page_size,
		    sv->path, sv->bufs[b].name, s->cpu, err))
		return -1;
	r = sv->plans[b].compressed ? copy_chunks(sv, &pf, s, err) :
				      copy_raw(sv, &pf, s, err);
	if (!r && s->lost)
		restore_say(sv->o, "%s: offset %llu: lost: buffer \"%s\" CPU"
			    " %d: %llu bytes recorded past the end of the"
			    " file", sv->path,
			    (unsigned long long)sv->f->file_size,
			    pf.buffer, s->cpu, (unsigned long long)s->lost);
	if (!r)
		r = pf_flush(&pf, err);
	sv->pages += pf.kept;
	sv->events += pf.events;
	sv->dropped += pf.dropped_bytes + s->lost;
	pf_free(&pf);
	return r || tdat_writer_end_cpu(w, err) ? -1 : 0;
}

static int copy_latency(struct salvage *sv, struct tdat_writer *w, int b,
			struct tdat_error *err)
{
	struct tdat_blob text;
	struct tdat_error e;
	int r;

	if (tdat_read_latency(sv->f, sv->plans[b].from, &text, &e)) {
		restore_say(sv->o, "dropped: latency text: %s", e.msg);
		return tdat_writer_put_latency(w, b, "", 0, err);
	}
	r = tdat_writer_put_latency(w, b, text.data, text.len, err);
	free(text.data);
	return r;
}

static int write_out(struct salvage *sv, const char *out,
		     struct tdat_error *err)
{
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	int b, i, r = 0;

	memset(&wo, 0, sizeof(wo));
	wo.version = sv->o && sv->o->version ? sv->o->version : sv->f->version;
	wo.codec = sv->o && sv->o->version ? sv->o->codec : sv->f->codec;
	if (wo.version == 6)
		wo.codec = TDAT_CODEC_NONE;
	wo.threads = sv->o ? sv->o->threads : 0;
	w = tdat_writer_open(out, &sv->m, &wo, err);
	if (!w)
		return -1;
	for (b = 0; !r && b < sv->nbufs; b++) {
		if (sv->plans[b].latency) {
			r = copy_latency(sv, w, b, err);
			continue;
		}
		for (i = 0; !r && i < sv->plans[b].nstreams; i++)
			r = copy_stream(sv, w, b, &sv->plans[b].streams[i], err);
	}
	if (!r && !sv->pages && !(sv->nbufs && sv->plans[0].latency))
		r = snprintf(err->msg, sizeof(err->msg), "%.400s: nothing to"
			     " salvage: no complete page of trace data survives"
			     " (%llu bytes dropped)", sv->path,
			     (unsigned long long)sv->dropped) ? -1 : -1;
	if (r) {
		tdat_writer_abort(w);
		return -1;
	}
	return tdat_writer_close(w, err);
}

int salvage_file(const char *in, const char *out,
		 const struct convert_opts *o, struct tdat_error *err)
{
	struct salvage sv;
	int i, r = -1;

	memset(&sv, 0, sizeof(sv));
	sv.path = in;
	sv.o = o;
	sv.f = tdat_open_salvage(in, &sv.s, err);
	if (!sv.f)
		return -1;
	for (i = 0; i < sv.s.nnotes; i++)
		restore_say(o, "%s: offset %llu: %s", in,
			    (unsigned long long)sv.s.notes[i].offset,
			    sv.s.notes[i].text);
	sv.ids = malloc(sizeof(*sv.ids));
	if (!sv.ids) {
		oom(&sv, err);
		goto done;
	}
	if (tdat_event_ids_load(sv.f, sv.ids, err) ||
	    make_plans(&sv, err) || write_out(&sv, out, err))
		goto done;
	restore_say(o, "%s: kept %llu pages (%llu events) in %d buffer%s;"
		    " dropped %llu bytes", out, (unsigned long long)sv.pages,
		    (unsigned long long)sv.events, sv.nbufs,
		    sv.nbufs == 1 ? "" : "s", (unsigned long long)sv.dropped);
	r = 0;
done:
	free_plans(&sv);
	free(sv.ids);
	free(sv.cbuf);
	free(sv.ubuf);
	tdat_salvage_free(&sv.s);
	tdat_close(sv.f);
	return r;
}
