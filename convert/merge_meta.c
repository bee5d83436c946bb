/*
 * merge_meta.c - can two inputs share one file, and what the output's
 * metadata is.
 *
 * Must be equal (else the merge is refused): byte order, long size, page
 * size, header_page/header_event, the format of every event both inputs
 * know (and no event ID may name two events), the kernel (UNAME) and
 * whatever shifts timestamps (DATE, OFFSET, TSC2NSEC, TIME_SHIFT), and per
 * buffer of one name: page size, clock, kind (CPU data or latency text).
 * Joined: event formats (the union), kallsyms and printk formats (the
 * union of their lines), saved cmdlines (the union by pid, first comm
 * wins), buffers (by name) and their CPUs, the CPU count (the largest),
 * and options that several recordings each have (CPUSTAT...: each
 * input's run of them, unless the same run is there already), unknown
 * sections (see join_extras).  Kept from the first input that has them:
 * TRACECLOCK, VERSION, TRACEID, BTF and modules sections (the larger when
 * they differ).
 *
 * Inputs after the first may come opened lazily (TDAT_OPEN_LAZY_META):
 * a metadata section whose stored bytes are those of the output's so far
 * is known equal without being decompressed; only the others are
 * decoded and joined.  Whatever changes a section's content goes through
 * tdat_meta_set, which drops the stored form the writer would copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "merge_internal.h"

/* ---- copies ---- */

static int blob_copy(struct tdat_blob *to, const struct tdat_blob *from)
{
	to->data = NULL;
	to->len = from->len;
	if (!from->len)
		return 0;
	to->data = malloc(from->len);
	if (!to->data)
		return -1;
	memcpy(to->data, from->data, from->len);
	return 0;
}

static int blob_equal(const struct tdat_blob *a, const struct tdat_blob *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data,
						       a->len));
}

static int add_option(struct tdat_file *m, const struct tdat_option *o)
{
	struct tdat_option *n;

	n = realloc(m->options, (size_t)(m->noptions + 1) * sizeof(*n));
	if (!n)
		return -1;
	m->options = n;
	n = &m->options[m->noptions];
	n->id = o->id;
	n->size = o->size;
	n->data = NULL;
	if (o->size) {
		n->data = malloc(o->size);
		if (!n->data)
			return -1;
		memcpy(n->data, o->data, o->size);
	}
	m->noptions++;
	return 0;
}

static int add_cpu(struct tdat_buffer *b, int cpu)
{
	struct tdat_cpu *c;
	int i;

	for (i = 0; i < b->ncpus; i++)
		if (b->cpus[i].cpu == cpu)
			return 0;
	c = realloc(b->cpus, (size_t)(b->ncpus + 1) * sizeof(*c));
	if (!c)
		return -1;
	b->cpus = c;
	memset(&c[b->ncpus], 0, sizeof(*c));
	c[b->ncpus++].cpu = cpu;
	return 0;
}

static int add_buffer(struct tdat_file *m, const struct tdat_buffer *from)
{
	struct tdat_buffer *b;
	int i;

	b = realloc(m->buffers, (size_t)(m->nbuffers + 1) * sizeof(*b));
	if (!b)
		return -1;
	m->buffers = b;
	b = &m->buffers[m->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->name = strdup(from->name);
	b->clock = strdup(from->clock ? from->clock : "");
	if (!b->name || !b->clock)
		return -1;
	b->page_size = from->page_size;
	b->latency = from->latency;
	for (i = 0; !from->latency && i < from->ncpus; i++)
		if (add_cpu(b, from->cpus[i].cpu))
			return -1;
	return 0;
}

static void raise_cpu_count(struct tdat_file *m, const struct tdat_file *f)
{
	uint32_t n = tdat_cpus(f);
	int i, j;

	if (n > m->cpu_count)
		m->cpu_count = n;
	for (i = 0; i < m->nbuffers; i++)
		for (j = 0; j < m->buffers[i].ncpus; j++)
			if ((uint32_t)m->buffers[i].cpus[j].cpu >= m->cpu_count)
				m->cpu_count = (uint32_t)m->buffers[i].cpus[j].cpu
					       + 1;
	if (f->has_cpucount)
		m->has_cpucount = 1;
}

void meta_free(struct tdat_file *m)
{
	tdat_close(m);	/* fd is -1: it frees what it owns */
}

struct tdat_file *meta_from_first(const struct tdat_file *f,
				  struct tdat_error *err)
{
	struct tdat_file *m = calloc(1, sizeof(*m));
	int i;

	if (!m)
		goto nomem;
	m->fd = -1;
	m->path = strdup(f->path);
	m->codec_name = strdup(f->codec_name ? f->codec_name : "none");
	m->codec_version = strdup(f->codec_version ? f->codec_version : "");
	if (!m->path || !m->codec_name || !m->codec_version)
		goto nomem;
	m->version = f->version;
	m->big_endian = f->big_endian;
	m->long_size = f->long_size;
	m->page_size = f->page_size;
	m->codec = f->codec;
	m->commit_size = f->commit_size;
	m->page_header_size = f->page_header_size;
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (tdat_meta_copy(m, f, i, err))
			goto fail;
	for (i = 0; i < f->noptions; i++)
		if (add_option(m, &f->options[i]))
			goto nomem;
	for (i = 0; i < f->nbuffers; i++)
		if (add_buffer(m, &f->buffers[i]))
			goto nomem;
	m->extra = calloc(f->nextra ? (size_t)f->nextra : 1, sizeof(*m->extra));
	if (!m->extra)
		goto nomem;
	for (i = 0; i < f->nextra; i++) {
		struct tdat_extra_section *x = &m->extra[m->nextra++];

		x->id = f->extra[i].id;
		x->flags = f->extra[i].flags;
		if (f->extra[i].description &&
		    !(x->description = strdup(f->extra[i].description)))
			goto nomem;
		if (blob_copy(&x->body, &f->extra[i].body))
			goto nomem;
		x->offset = f->extra[i].offset;
	}
	raise_cpu_count(m, f);
	return m;
nomem:
	merge_fail(err, "%s: out of memory", f->path);
fail:
	meta_free(m);
	return NULL;
}

int meta_buffer(const struct tdat_file *m, const char *name)
{
	int i;

	for (i = 0; i < m->nbuffers; i++)
		if (!strcmp(m->buffers[i].name, name))
			return i;
	return -1;
}

/* ---- conflicts ---- */

struct who {
	const char *file, *first;
	struct tdat_error *err;
	unsigned known;		/* parts known equal by their stored bytes */
	struct merge_ctx *mc;	/* for warnings; may be NULL */
};

/* Is part the same in m and f: known so, or compared? */
static int same_part(const struct tdat_file *m, const struct tdat_file *f,
		     int part, const struct who *w)
{
	return (w->known & (1u << part)) ||
	       blob_equal(&m->meta[part], &f->meta[part]);
}

static int conflict(const struct who *w, const char *what)
{
	return merge_fail(w->err, "%s: cannot be merged with %s: %s", w->file,
			  w->first, what);
}

static int check_header(const struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	char msg[200];

	if (m->big_endian != f->big_endian)
		return conflict(w, "different byte order");
	if (m->long_size != f->long_size)
		return conflict(w, "different long size");
	if (m->page_size != f->page_size) {
		snprintf(msg, sizeof(msg), "different page sizes (%u and %u)",
			 f->page_size, m->page_size);
		return conflict(w, msg);
	}
	if (m->commit_size != f->commit_size ||
	    m->page_header_size != f->page_header_size ||
	    !blob_equal(&m->meta[TDAT_META_HEADERS], &f->meta[TDAT_META_HEADERS]))
		return conflict(w, "different header_page or header_event");
	return 0;
}

/* ---- event formats ---- */

struct fmt {
	const char *sys;
	size_t syslen;
	const char *name;
	size_t namelen;
	long id;		/* -1 when the text has no ID line */
	const uint8_t *rec;	/* u64 size + text, as stored */
	size_t reclen;
	int part;		/* TDAT_META_FTRACE or TDAT_META_EVENTS */
	int sysno;		/* EVENTS: index of its system */
};

struct fmts {
	int n, cap;
	struct fmt *v;
};

/* The value of a "KEY: value" line of a format text. */
static const char *format_field(const char *t, size_t len, const char *key,
				size_t *vlen)
{
	size_t kl = strlen(key), i = 0;

	while (i + kl <= len) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - t) : len;

		if (end - i >= kl && !memcmp(t + i, key, kl)) {
			*vlen = end - i - kl;
			return t + i + kl;
		}
		i = end + 1;
	}
	*vlen = 0;
	return NULL;
}

static int fmts_add(struct fmts *l, const struct fmt *x)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct fmt *v = realloc(l->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *x;
	return 0;
}

/* One "u64 size, text" record at *pos of a part; 1 when malformed. */
static int parse_record(const struct tdat_file *f, const uint8_t *p,
			size_t len, size_t *pos, struct fmt *x)
{
	const char *t, *v;
	uint64_t n;
	size_t vl;
	char num[24];

	if (len - *pos < 8)
		return 1;
	n = tdat_get64(f, p + *pos);
	if (n > len - *pos - 8)
		return 1;
	x->rec = p + *pos;
	x->reclen = 8 + (size_t)n;
	t = (const char *)p + *pos + 8;
	*pos += x->reclen;
	x->name = format_field(t, (size_t)n, "name: ", &x->namelen);
	if (!x->name) {
		x->name = "";
		x->namelen = 0;
	}
	x->id = -1;
	v = format_field(t, (size_t)n, "ID: ", &vl);
	if (v && vl && vl < sizeof(num)) {
		memcpy(num, v, vl);
		num[vl] = 0;
		x->id = strtol(num, NULL, 10);
	}
	return 0;
}

/* Every format of f, ftrace part then events part. 1: malformed. */
static int parse_formats(const struct tdat_file *f, struct fmts *l)
{
	const struct tdat_blob *b = &f->meta[TDAT_META_FTRACE];
	struct fmt x;
	size_t pos = 4;
	uint32_t n, ns, i, j;

	if (f->meta_present[TDAT_META_FTRACE] && b->len >= 4) {
		n = tdat_get32(f, b->data);
		for (i = 0; i < n; i++) {
			memset(&x, 0, sizeof(x));
			x.sys = "ftrace";
			x.syslen = 6;
			x.part = TDAT_META_FTRACE;
			if (parse_record(f, b->data, b->len, &pos, &x) ||
			    fmts_add(l, &x))
				return 1;
		}
	}
	b = &f->meta[TDAT_META_EVENTS];
	if (!f->meta_present[TDAT_META_EVENTS] || b->len < 4)
		return 0;
	ns = tdat_get32(f, b->data);
	pos = 4;
	for (i = 0; i < ns; i++) {
		const uint8_t *nul = memchr(b->data + pos, 0, b->len - pos);
		const char *sys = (const char *)b->data + pos;

		if (!nul || b->len - (size_t)(nul - b->data) < 5)
			return 1;
		pos = (size_t)(nul - b->data) + 1;
		n = tdat_get32(f, b->data + pos);
		pos += 4;
		for (j = 0; j < n; j++) {
			memset(&x, 0, sizeof(x));
			x.sys = sys;
			x.syslen = strlen(sys);
			x.part = TDAT_META_EVENTS;
			x.sysno = (int)i;
			if (parse_record(f, b->data, b->len, &pos, &x) ||
			    fmts_add(l, &x))
				return 1;
		}
	}
	return 0;
}

static int same_event(const struct fmt *a, const struct fmt *b)
{
	return a->syslen == b->syslen && !memcmp(a->sys, b->sys, a->syslen) &&
	       a->namelen == b->namelen &&
	       !memcmp(a->name, b->name, a->namelen);
}

/* Append bytes to a growing blob. */
static int blob_add(struct tdat_blob *b, size_t *cap, const void *p,
		    size_t n)
{
	if (b->len + n > *cap) {
		size_t c = (b->len + n) * 2;
		uint8_t *d = realloc(b->data, c);

		if (!d)
			return -1;
		b->data = d;
		*cap = c;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* The ftrace part again, with the new formats of f appended. */
static int rebuild_ftrace(struct tdat_file *m, const struct fmts *old,
			  const struct fmts *add)
{
	struct tdat_blob b = { 0 };
	size_t cap = 0;
	uint8_t c[4];
	uint32_t n = 0;
	int i, k;

	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++)
			n += l->v[i].part == TDAT_META_FTRACE;
	}
	tdat_put32(m, c, n);
	if (blob_add(&b, &cap, c, 4))
		goto nomem;
	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++)
			if (l->v[i].part == TDAT_META_FTRACE &&
			    blob_add(&b, &cap, l->v[i].rec, l->v[i].reclen))
				goto nomem;
	}
	tdat_meta_set(m, TDAT_META_FTRACE, &b);
	return 0;
nomem:
	free(b.data);
	return -1;
}

/* Does system (s, n) come before index i of l?  Its first index or -1. */
static int first_of_system(const struct fmts *l, int upto, const char *s,
			   size_t n)
{
	int i;

	for (i = 0; i < upto; i++)
		if (l->v[i].part == TDAT_META_EVENTS && l->v[i].syslen == n &&
		    !memcmp(l->v[i].sys, s, n))
			return i;
	return -1;
}

/* Write the events of system (s, n) found in l into b; count them. */
static int put_system(struct tdat_blob *b, size_t *cap, const struct fmts *l,
		      const char *s, size_t n, uint32_t *count)
{
	int i;

	for (i = 0; i < l->n; i++) {
		const struct fmt *x = &l->v[i];

		if (x->part != TDAT_META_EVENTS || x->syslen != n ||
		    memcmp(x->sys, s, n))
			continue;
		if (blob_add(b, cap, x->rec, x->reclen))
			return -1;
		(*count)++;
	}
	return 0;
}

/* The events part again: old systems (with new events after theirs),
 * then systems only f has. */
static int rebuild_events(struct tdat_file *m, const struct fmts *old,
			  const struct fmts *add)
{
	struct tdat_blob b = { 0 };
	size_t cap = 0, at;
	uint32_t nsys = 0, cnt;
	uint8_t c[4] = { 0 };
	int k, i;

	if (blob_add(&b, &cap, c, 4))
		goto nomem;
	for (k = 0; k < 2; k++) {
		const struct fmts *l = k ? add : old;

		for (i = 0; i < l->n; i++) {
			const struct fmt *x = &l->v[i];

			if (x->part != TDAT_META_EVENTS ||
			    first_of_system(l, i, x->sys, x->syslen) >= 0 ||
			    (k && first_of_system(old, old->n, x->sys,
						  x->syslen) >= 0))
				continue;
			cnt = 0;
			if (blob_add(&b, &cap, x->sys, x->syslen) ||
			    blob_add(&b, &cap, "", 1))
				goto nomem;
			at = b.len;
			if (blob_add(&b, &cap, c, 4) ||
			    put_system(&b, &cap, old, x->sys, x->syslen, &cnt) ||
			    put_system(&b, &cap, add, x->sys, x->syslen, &cnt))
				goto nomem;
			tdat_put32(m, b.data + at, cnt);
			nsys++;
		}
	}
	tdat_put32(m, b.data, nsys);
	tdat_meta_set(m, TDAT_META_EVENTS, &b);
	return 0;
nomem:
	free(b.data);
	return -1;
}

static int join_formats(struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	struct fmts old = { 0 }, new = { 0 }, add = { 0 };
	char msg[300];
	int i, j, r = -1, ftrace = 0, events = 0;

	if (same_part(m, f, TDAT_META_FTRACE, w) &&
	    same_part(m, f, TDAT_META_EVENTS, w))
		return 0;
	if (parse_formats(m, &old) || parse_formats(f, &new)) {
		conflict(w, "event formats that cannot be parsed");
		goto out;
	}
	for (i = 0; i < new.n; i++) {
		const struct fmt *x = &new.v[i];

		for (j = 0; j < old.n && !same_event(&old.v[j], x); j++)
			;
		if (j < old.n) {
			if (old.v[j].reclen == x->reclen &&
			    !memcmp(old.v[j].rec, x->rec, x->reclen))
				continue;
			snprintf(msg, sizeof(msg), "different formats of event"
				 " %.*s:%.*s", (int)x->syslen, x->sys,
				 (int)x->namelen, x->name);
			conflict(w, msg);
			goto out;
		}
		for (j = 0; x->id >= 0 && j < old.n; j++) {
			if (old.v[j].id != x->id)
				continue;
			snprintf(msg, sizeof(msg), "event ID %ld is %.*s:%.*s"
				 " in one and %.*s:%.*s in the other", x->id,
				 (int)x->syslen, x->sys, (int)x->namelen,
				 x->name, (int)old.v[j].syslen, old.v[j].sys,
				 (int)old.v[j].namelen, old.v[j].name);
			conflict(w, msg);
			goto out;
		}
		if (fmts_add(&add, x))
			goto nomem;
		ftrace |= x->part == TDAT_META_FTRACE;
		events |= x->part == TDAT_META_EVENTS;
	}
	r = 0;
	if (ftrace && rebuild_ftrace(m, &old, &add))
		goto nomem;
	/* old points into m's events part: rebuild it last. */
	if (events && rebuild_events(m, &old, &add))
		goto nomem;
	goto out;
nomem:
	r = merge_fail(w->err, "%s: out of memory", w->file);
out:
	free(old.v);
	free(new.v);
	free(add.v);
	return r;
}

/* ---- kallsyms, printk formats, saved cmdlines ---- */

/* A set of lines (or of keys: the text up to the first space). */
struct lineset {
	size_t cap, n;
	struct line { const char *p; size_t len; } *v;
};

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (uint8_t)*p++) * 0x100000001b3ull;
	return h;
}

static size_t line_key(const char *p, size_t len, int by_pid)
{
	const char *sp;

	if (!by_pid)
		return len;
	sp = memchr(p, ' ', len);
	return sp ? (size_t)(sp - p) : len;
}

/* 1 if present, 0 if added, -1 when out of memory. */
static int lineset_put(struct lineset *s, const char *p, size_t len)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct lineset g = { s->cap ? 2 * s->cap : 1024, 0, NULL };

		g.v = calloc(g.cap, sizeof(*g.v));
		if (!g.v)
			return -1;
		for (i = 0; i < s->cap; i++)
			if (s->v[i].p)
				lineset_put(&g, s->v[i].p, s->v[i].len);
		free(s->v);
		*s = g;
	}
	i = hash_bytes(p, len) & (s->cap - 1);
	for (; s->v[i].p; i = (i + 1) & (s->cap - 1))
		if (s->v[i].len == len && !memcmp(s->v[i].p, p, len))
			return 1;
	s->v[i].p = p;
	s->v[i].len = len;
	s->n++;
	return 0;
}

/* Call fn for each line of t (without its newline). */
static int each_line(const char *t, size_t len, int (*fn)(void *, const char *,
							  size_t), void *ctx)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - t) : len;

		if (end > i && fn(ctx, t + i, end - i) < 0)
			return -1;
		i = end + 1;
	}
	return 0;
}

struct text_join {
	struct lineset set;
	int by_pid;
	struct tdat_blob out;
	size_t cap;
	int added;
};

static int note_line(void *ctx, const char *p, size_t len)
{
	struct text_join *j = ctx;

	return lineset_put(&j->set, p, line_key(p, len, j->by_pid));
}

static int add_line(void *ctx, const char *p, size_t len)
{
	struct text_join *j = ctx;
	int r = lineset_put(&j->set, p, line_key(p, len, j->by_pid));

	if (r)
		return r < 0 ? -1 : 0;
	j->added = 1;
	return blob_add(&j->out, &j->cap, p, len) ||
	       blob_add(&j->out, &j->cap, "\n", 1) ? -1 : 0;
}

/* Part part of m becomes its text plus the lines only f has. */
static int join_text(struct tdat_file *m, const struct tdat_file *f,
		     enum tdat_meta part, const struct who *w)
{
	struct text_join j;
	const char *a, *b;
	size_t alen, blen, hdr = part == TDAT_META_CMDLINES ? 8 : 4;
	int r = -1;

	if (!f->meta_present[part] || same_part(m, f, part, w))
		return 0;
	if (tdat_meta_text(m, part, &a, &alen, w->err) ||
	    tdat_meta_text(f, part, &b, &blen, w->err))
		return -1;
	memset(&j, 0, sizeof(j));
	j.by_pid = part == TDAT_META_CMDLINES;
	if (blob_add(&j.out, &j.cap, "\0\0\0\0\0\0\0\0", hdr) ||
	    blob_add(&j.out, &j.cap, a, alen))
		goto nomem;
	if (alen && a[alen - 1] != '\n' && blob_add(&j.out, &j.cap, "\n", 1))
		goto nomem;
	if (each_line(a, alen, note_line, &j) ||
	    each_line(b, blen, add_line, &j))
		goto nomem;
	r = 0;
	if (!j.added && m->meta_present[part])
		goto out;
	if (hdr == 8)
		tdat_put64(m, j.out.data, j.out.len - 8);
	else if (j.out.len - 4 > UINT32_MAX)
		goto nomem;
	else
		tdat_put32(m, j.out.data, (uint32_t)(j.out.len - 4));
	tdat_meta_set(m, part, &j.out);
	goto out;
nomem:
	r = merge_fail(w->err, "%s: out of memory", w->file);
out:
	free(j.set.v);
	free(j.out.data);
	return r;
}

/* BTF and modules: raw files of the boot; the larger one wins. */
static int join_raw(struct tdat_file *m, const struct tdat_file *f,
		    enum tdat_meta part, const struct who *w)
{
	if (!f->meta_present[part] || (w->known & (1u << part)) ||
	    (m->meta_present[part] && m->meta[part].len >= f->meta[part].len))
		return 0;
	/* f's stored form comes along: it is f's content's. */
	return tdat_meta_copy(m, f, part, w->err);
}

/* ---- options ---- */

static int is_single(uint16_t id)
{
	switch (id) {
	case TDAT_OPT_DATE:
	case TDAT_OPT_TRACECLOCK:
	case TDAT_OPT_UNAME:
	case TDAT_OPT_OFFSET:
	case TDAT_OPT_CPUCOUNT:
	case TDAT_OPT_VERSION:
	case TDAT_OPT_TRACEID:
	case TDAT_OPT_TIME_SHIFT:
	case TDAT_OPT_TSC2NSEC:
		return 1;
	}
	return 0;
}

/* Options that change what timestamps mean, or name the kernel. */
static const char *must_match(uint16_t id)
{
	switch (id) {
	case TDAT_OPT_DATE: return "different DATE offsets";
	case TDAT_OPT_OFFSET: return "different timestamp OFFSET options";
	case TDAT_OPT_TSC2NSEC: return "different TSC2NSEC conversions";
	case TDAT_OPT_TIME_SHIFT: return "different TIME_SHIFT options";
	case TDAT_OPT_UNAME: return "different kernels (UNAME)";
	}
	return NULL;
}

static int option_equal(const struct tdat_option *a,
			const struct tdat_option *b)
{
	return a->size == b->size && (!a->size || !memcmp(a->data, b->data,
							  a->size));
}

/* Indices of the options of id in f, in order; their count. */
static int option_run(const struct tdat_file *f, uint16_t id, int *ix)
{
	int i, n = 0;

	for (i = 0; i < f->noptions; i++)
		if (f->options[i].id == id)
			ix[n++] = i;
	return n;
}

/* Is f's run of options of this id already a run of m's?  -1: no memory. */
static int run_present(const struct tdat_file *m, const struct tdat_file *f,
		       uint16_t id)
{
	int *fi = malloc(((size_t)f->noptions + 1) * sizeof(int));
	int *mi = malloc(((size_t)m->noptions + 1) * sizeof(int));
	int nf, nm, i, k, r = 0;

	if (!fi || !mi) {
		r = -1;
		goto out;
	}
	nf = option_run(f, id, fi);
	nm = option_run(m, id, mi);
	for (i = 0; !r && i + nf <= nm; i++) {
		for (k = 0; k < nf; k++)
			if (!option_equal(&m->options[mi[i + k]],
					  &f->options[fi[k]]))
				break;
		r = k == nf;
	}
out:
	free(fi);
	free(mi);
	return r;
}

static int join_options(struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	const struct tdat_option *a, *b;
	int i, j;

	for (i = 0; i < f->noptions; i++) {
		uint16_t id = f->options[i].id;
		const char *what = must_match(id);

		if (!what)
			continue;
		b = tdat_find_option(f, id);
		a = tdat_find_option(m, id);
		/* A missing UNAME is fine; a missing offset is not. */
		if ((a && !option_equal(a, b)) ||
		    (!a && id != TDAT_OPT_UNAME))
			return conflict(w, what);
	}
	for (i = 0; i < m->noptions; i++) {
		uint16_t id = m->options[i].id;
		const char *what = must_match(id);

		if (what && id != TDAT_OPT_UNAME && !tdat_find_option(f, id))
			return conflict(w, what);
	}
	for (i = 0; i < f->noptions; i++) {
		uint16_t id = f->options[i].id;

		if (is_single(id)) {
			if (!tdat_find_option(m, id) &&
			    add_option(m, &f->options[i]))
				goto nomem;
			continue;
		}
		for (j = 0; j < i && f->options[j].id != id; j++)
			;
		if (j < i)
			continue;	/* this id's run is handled */
		j = run_present(m, f, id);
		if (j < 0)
			goto nomem;
		if (j)
			continue;
		for (j = i; j < f->noptions; j++)
			if (f->options[j].id == id &&
			    add_option(m, &f->options[j]))
				goto nomem;
	}
	return 0;
nomem:
	return merge_fail(w->err, "%s: out of memory", w->file);
}

/* A CPUCOUNT among the user options says the largest count. */
static void fix_cpucount_option(struct tdat_file *m)
{
	int i;

	for (i = 0; i < m->noptions; i++)
		if (m->options[i].id == TDAT_OPT_CPUCOUNT &&
		    m->options[i].size >= 4)
			tdat_put32(m, m->options[i].data, m->cpu_count);
}

/* ---- buffers ---- */

static const char *label(const char *name)
{
	return name[0] ? name : "(top)";
}

static int join_buffers(struct tdat_file *m, const struct tdat_file *f,
			const struct who *w)
{
	char msg[400];
	int i, j, k;

	for (i = 0; i < f->nbuffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];
		struct tdat_buffer *o;

		k = meta_buffer(m, b->name);
		if (k < 0) {
			if (add_buffer(m, b))
				goto nomem;
			continue;
		}
		o = &m->buffers[k];
		if (o->latency || b->latency) {
			snprintf(msg, sizeof(msg), "both have buffer %s, and"
				 " latency text cannot be joined",
				 label(b->name));
			return conflict(w, msg);
		}
		if (o->page_size != b->page_size) {
			snprintf(msg, sizeof(msg), "buffer %s has different page"
				 " sizes (%u and %u)", label(b->name),
				 b->page_size, o->page_size);
			return conflict(w, msg);
		}
		if (b->clock && b->clock[0] && o->clock[0] &&
		    strcmp(b->clock, o->clock)) {
			snprintf(msg, sizeof(msg), "buffer %s has different"
				 " clocks (%s and %s)", label(b->name),
				 b->clock, o->clock);
			return conflict(w, msg);
		}
		if (b->clock && b->clock[0] && !o->clock[0]) {
			free(o->clock);
			if (!(o->clock = strdup(b->clock)))
				goto nomem;
		}
		for (j = 0; j < b->ncpus; j++)
			if (add_cpu(o, b->cpus[j].cpu))
				goto nomem;
	}
	return 0;
nomem:
	return merge_fail(w->err, "%s: out of memory", w->file);
}

/* The top buffer goes first, as readers expect. */
static void top_first(struct tdat_file *m)
{
	int k = meta_buffer(m, "");
	struct tdat_buffer t;

	if (k <= 0)
		return;
	t = m->buffers[k];
	memmove(&m->buffers[1], &m->buffers[0], (size_t)k * sizeof(t));
	m->buffers[0] = t;
}

/* ---- unknown sections ---- */

#define EXTRA_COMPRESSED 1	/* v7 section flag bit 0 */

/* x's body as m keeps it: in m's codec, or decompressed (flag cleared)
 * when f's codec is another. */
static int extra_body(const struct tdat_file *m, const struct tdat_file *f,
		      const struct tdat_extra_section *x, uint16_t *flags,
		      struct tdat_blob *body, const struct who *w)
{
	*flags = x->flags;
	if (!(x->flags & EXTRA_COMPRESSED) || f->codec == m->codec) {
		if (blob_copy(body, &x->body))
			return merge_fail(w->err, "%s: out of memory", w->file);
		return 0;
	}
	*flags &= (uint16_t)~EXTRA_COMPRESSED;
	return tdat_extra_decode(f, x, body, w->err);
}

/* Same id and flags, and the same bytes, or the same content once
 * decompressed (one content can be compressed in many ways).  -1: error. */
static int same_extra(const struct tdat_file *m,
		      const struct tdat_extra_section *a, uint16_t id,
		      uint16_t flags, const struct tdat_blob *body,
		      const struct who *w)
{
	struct tdat_blob da, db;
	struct tdat_extra_section b = *a;
	int r;

	if (a->id != id || a->flags != flags)
		return 0;
	if (blob_equal(&a->body, body))
		return 1;
	if (!(flags & EXTRA_COMPRESSED))
		return 0;
	b.body = *body;
	if (tdat_extra_decode(m, a, &da, w->err))
		return -1;
	if (tdat_extra_decode(m, &b, &db, w->err)) {
		free(da.data);
		return -1;
	}
	r = blob_equal(&da, &db);
	free(da.data);
	free(db.data);
	return r;
}

static int add_extra(struct tdat_file *m, const struct tdat_extra_section *x,
		     uint16_t flags, struct tdat_blob *body)
{
	struct tdat_extra_section *v;

	v = realloc(m->extra, (size_t)(m->nextra + 1) * sizeof(*v));
	if (!v)
		return -1;
	m->extra = v;
	v = &m->extra[m->nextra];
	memset(v, 0, sizeof(*v));
	if (x->description && !(v->description = strdup(x->description)))
		return -1;
	v->id = x->id;
	v->flags = flags;
	v->offset = x->offset;
	v->body = *body;
	body->data = NULL;
	m->nextra++;
	return 0;
}

/*
 * Unknown sections are opaque to merge.  Identical ones (id, flags,
 * content) are kept once; any other is added, also beside a different
 * section of the same id: merge cannot tell which of the two is right,
 * and refusing would stop merges every reader can read.  Keeping both
 * loses nothing (a reader that does not know the id skips both, as it
 * skipped one); the user is told, as a reader that knows the id may
 * expect one.
 */
static int join_extras(struct tdat_file *m, const struct tdat_file *f,
		       const struct who *w)
{
	struct tdat_blob body;
	uint16_t flags;
	int i, k, r, twin;

	for (i = 0; i < f->nextra; i++) {
		const struct tdat_extra_section *x = &f->extra[i];

		if (extra_body(m, f, x, &flags, &body, w))
			return -1;
		twin = -1;
		for (k = 0, r = 0; k < m->nextra && r == 0; k++) {
			r = same_extra(m, &m->extra[k], x->id, flags, &body,
				       w);
			if (m->extra[k].id == x->id)
				twin = k;
		}
		if (r) {
			free(body.data);
			if (r < 0)
				return -1;
			continue;
		}
		/* (A v6 output drops them all, and says so.) */
		if (twin >= 0 && w->mc && (w->mc->o->version ?
					   w->mc->o->version : m->version) != 6)
			merge_warn(w->mc, "%s: section %u differs from the one"
				   " %s has: both kept (a reader that knows"
				   " section %u may expect one)", w->file,
				   x->id, w->first, x->id);
		if (add_extra(m, x, flags, &body)) {
			free(body.data);
			return merge_fail(w->err, "%s: out of memory", w->file);
		}
	}
	return 0;
}

/* ---- all of it ---- */

static int join_all(struct tdat_file *m, const struct tdat_file *f,
		    const struct who *w)
{
	if (check_header(m, f, w) || join_formats(m, f, w) ||
	    join_options(m, f, w) || join_buffers(m, f, w) ||
	    join_text(m, f, TDAT_META_KALLSYMS, w) ||
	    join_text(m, f, TDAT_META_PRINTK, w) ||
	    join_text(m, f, TDAT_META_CMDLINES, w) ||
	    join_raw(m, f, TDAT_META_BTF, w) ||
	    join_raw(m, f, TDAT_META_MODULES, w) ||
	    join_extras(m, f, w))
		return -1;
	top_first(m);
	raise_cpu_count(m, f);
	fix_cpucount_option(m);
	return 0;
}

int meta_join(struct tdat_file *m, const struct tdat_file *f,
	      const char *first, struct tdat_error *err)
{
	struct who w = { f->path, first, err, 0, NULL };
	int i;

	for (i = 0; i < TDAT_META_COUNT; i++)
		if (tdat_meta_pending(f, i) || tdat_meta_pending(m, i))
			return merge_fail(err, "%s: metadata section %d is not"
					  " decoded (opened lazily: use"
					  " meta_join_input)", f->path,
					  TDAT_META_FIRST + i);
	return join_all(m, f, &w);
}

#define FORMAT_PARTS ((1u << TDAT_META_FTRACE) | (1u << TDAT_META_EVENTS))

/* Decode part i of m and f unless it is known equal. */
static int settle(struct tdat_file *m, struct tdat_file *f, int i,
		  unsigned known, struct tdat_error *err)
{
	if (known & (1u << i))
		return 0;
	return tdat_meta_load(f, i, err) || tdat_meta_load(m, i, err) ? -1 : 0;
}

int meta_join_input(struct merge_ctx *mc, struct tdat_file *f,
		    struct tdat_error *err)
{
	struct tdat_file *m = mc->meta;
	struct who w = { f->path, mc->in[0].path, err, 0, mc };
	int i, r;

	for (i = 0; i < TDAT_META_COUNT; i++) {
		r = tdat_meta_same_stored(m, f, i, err);
		if (r < 0)
			return -1;
		if (r)
			w.known |= 1u << i;
	}
	for (i = 0; i < TDAT_META_COUNT; i++)
		if (settle(m, f, i, w.known, err))
			return -1;
	/* The formats are parsed together: if one part differs, the other
	 * is needed too, even when it is known equal. */
	if ((w.known & FORMAT_PARTS) && (!same_part(m, f, TDAT_META_FTRACE, &w) ||
					 !same_part(m, f, TDAT_META_EVENTS, &w))) {
		w.known &= ~FORMAT_PARTS;
		if (settle(m, f, TDAT_META_FTRACE, 0, err) ||
		    settle(m, f, TDAT_META_EVENTS, 0, err))
			return -1;
	}
	return join_all(m, f, &w);
}
