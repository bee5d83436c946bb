/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * assemble.c - a trace.dat from a header-only file plus raw per-CPU page
 * files: trace-cmd's "restore -i HEAD -o OUT CPUFILE...", and the OUT.rec/
 * directory of a recording (convert/record/record.h) when it ends or was killed.
 *
 * The writer's metadata is the header file's, with a buffer table made
 * here; the page files stream through restore's page filter, so a page
 * cut by a crash or never filled by the kernel is dropped and told.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "convert/restore/restore_internal.h"
#include "libfmt/salvage.h"
#include "libfmt/metabuild.h"

#define READ_PAGES 64
#define MANIFEST_MAX (1u << 20)

/* ---- one raw file into the current CPU stream ---- */

static int read_full(int fd, uint8_t *p, size_t n, size_t *got)
{
	ssize_t r;

	*got = 0;
	while (*got < n) {
		r = read(fd, p + *got, n - *got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		*got += (size_t)r;
	}
	return 0;
}

/* One whole page at off of a raw file: dropped when out of order. */
static int put_page(struct page_filter *pf, const uint8_t *page,
		    uint64_t off, const uint8_t *drop, uint64_t pages,
		    struct tdat_error *err)
{
	uint64_t k = off / pf->page_size;

	if (drop && k < pages && drop[k]) {
		pf_reject(pf, off, "out of time order with the pages around"
			  " it: not this recording's (a block the file"
			  " system left from elsewhere?)");
		return 0;
	}
	return pf_page(pf, page, off, 0, err);
}

/* The file's pages, its first size bytes, through the filter. */
static int put_raw_pages(struct page_filter *pf, int fd, uint64_t size,
			 const uint8_t *drop, struct tdat_error *err)
{
	size_t ps = pf->page_size, cap = READ_PAGES * ps, want, got, i;
	uint64_t off = 0, pages = size / ps;
	uint8_t *buf = malloc(cap);
	int r = 0;

	if (!buf)
		return tdat_fail_nooff(err, pf->file, "out of memory");
	for (;;) {
		want = size - off < cap ? (size_t)(size - off) : cap;
		if (read_full(fd, buf, want, &got)) {
			tdat_fail(err, pf->file, off, "read error: %s",
				  strerror(errno));
			r = -1;
			break;
		}
		for (i = 0; !r && i + ps <= got; i += ps, off += ps)
			r = put_page(pf, buf + i, off, drop, pages, err);
		if (r || got < want || size - off < ps)
			break;
	}
	if (!r && got % ps)
		pf_drop(pf, off, got % ps, "an incomplete last page (the file"
			" ends inside it)");
	free(buf);
	return r;
}

/* path as the source gives it (NULL: the file, all of it): an open
 * descriptor and the bytes of it to take; -1 with err. */
static int open_raw(const struct raw_source *src, struct page_filter *pf,
		    const char *path, uint64_t *size, struct tdat_error *err)
{
	char note[512] = "";
	struct stat st;
	int fd;

	if (src && src->open) {
		fd = src->open(src->ctx, path, size, note, sizeof(note), err);
		if (fd >= 0 && note[0])
			restore_say(pf->o, "%s: %s", path, note);
		return fd;
	}
	fd = tdat_open_regular(path, err);
	if (fd >= 0 && fstat(fd, &st)) {
		close(fd);
		return tdat_fail_nooff(err, path, "cannot stat");
	}
	*size = fd >= 0 ? (uint64_t)st.st_size : 0;
	return fd;
}

static int put_raw_file(struct page_filter *pf, const char *path,
			const struct raw_source *src, struct tdat_error *err)
{
	uint8_t *drop = NULL;
	uint64_t size;
	int fd, r;

	fd = open_raw(src, pf, path, &size, err);
	if (fd < 0)
		return -1;
	r = order_plan(pf, fd, size, &drop, err) ||
	    put_raw_pages(pf, fd, size, drop, err) ? -1 : 0;
	free(drop);
	close(fd);
	return r;
}

/* ---- the metadata: the head's, with our buffer table ---- */

struct asm_meta {
	struct tdat_file *m;	/* the writer's: the head's, our buffers */
	int nbufs;
	struct tdat_buffer *bufs;
	char ***files;		/* per buffer: per CPU index, a path */
	char **latency;		/* per buffer: a latency text file, or NULL */
	uint32_t cpus;		/* CPU count the manifest gives, at least */
	int missing_ok;		/* a raw file that is not there is empty */
	/* what the files held: pages kept, and the first file with bytes
	 * dropped that were not empty pages (and how many in all) */
	uint64_t kept, junk;
	const char *junk_file;
	const struct raw_source *src;	/* where raw files are read */
};

static void asm_free(struct asm_meta *a)
{
	int i, j;

	for (i = 0; a->bufs && i < a->nbufs; i++) {
		for (j = 0; a->files && a->files[i] && j < a->bufs[i].ncpus;
		     j++)
			free(a->files[i][j]);
		if (a->files)
			free(a->files[i]);
		free(a->bufs[i].name);
		free(a->bufs[i].clock);
		free(a->bufs[i].cpus);
		if (a->latency)
			free(a->latency[i]);
	}
	free(a->files);
	free(a->latency);
	free(a->bufs);
	tdat_close(a->m);
}

static struct tdat_buffer *asm_add_buffer(struct asm_meta *a, const char *name,
					  const char *clock, uint32_t ps)
{
	struct tdat_buffer *b;
	char ***files, **lat;

	b = realloc(a->bufs, (size_t)(a->nbufs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	a->bufs = b;
	files = realloc(a->files, (size_t)(a->nbufs + 1) * sizeof(*files));
	if (!files)
		return NULL;
	a->files = files;
	a->files[a->nbufs] = NULL;
	lat = realloc(a->latency, (size_t)(a->nbufs + 1) * sizeof(*lat));
	if (!lat)
		return NULL;
	a->latency = lat;
	a->latency[a->nbufs] = NULL;
	b = &a->bufs[a->nbufs++];
	memset(b, 0, sizeof(*b));
	b->page_size = ps;
	b->name = strdup(name);
	b->clock = strdup(clock);
	return b->name && b->clock ? b : NULL;
}

static int asm_add_cpu(struct asm_meta *a, int buf, int cpu, const char *path)
{
	struct tdat_buffer *b = &a->bufs[buf];
	struct tdat_cpu *c;
	char **f;

	c = realloc(b->cpus, (size_t)(b->ncpus + 1) * sizeof(*c));
	if (!c)
		return -1;
	b->cpus = c;
	f = realloc(a->files[buf], (size_t)(b->ncpus + 1) * sizeof(*f));
	if (!f)
		return -1;
	a->files[buf] = f;
	f[b->ncpus] = strdup(path);
	if (!f[b->ncpus])
		return -1;
	memset(&c[b->ncpus], 0, sizeof(*c));
	c[b->ncpus++].cpu = cpu;
	return 0;
}

/*
 * The writer's view: the head's metadata and options, our buffers.  The
 * parts of an uncompressed head are moved, not copied (kallsyms alone is
 * megabytes, and the recorder's CPU counts): stored as they are, they
 * are written the same from their content.  A compressed head's parts
 * are copied with their stored form, to be written as stored.
 */
static int asm_finish(struct asm_meta *a, struct tdat_file *head,
		      struct tdat_error *err)
{
	uint32_t n = a->cpus > head->cpu_count ? a->cpus : head->cpu_count;
	unsigned what = head->codec == TDAT_CODEC_NONE ? TDAT_CLONE_NO_PARTS
						       : 0;
	int i, j;

	a->m = tdat_meta_clone(head, what, err);
	if (!a->m)
		return -1;
	for (i = 0; what && i < TDAT_META_COUNT; i++)
		if (tdat_meta_take(a->m, head, i, err))
			return -1;
	for (i = 0; i < a->nbufs; i++)
		if (tdat_meta_copy_buffer(a->m, &a->bufs[i], NULL) < 0)
			return tdat_errorf(err, "%.400s: out of memory",
					   head->path);
	for (i = 0; i < a->nbufs; i++)
		for (j = 0; j < a->bufs[i].ncpus; j++)
			if ((uint32_t)a->bufs[i].cpus[j].cpu + 1 > n)
				n = (uint32_t)a->bufs[i].cpus[j].cpu + 1;
	a->m->cpu_count = n;
	return 0;
}

/* ---- writing ---- */

static void write_opts(const struct tdat_file *head,
		       const struct convert_opts *o, struct tdat_write_opts *wo)
{
	memset(wo, 0, sizeof(*wo));
	if (o && o->version) {
		wo->version = o->version;
		wo->codec = o->version == 7 ? o->codec : TDAT_CODEC_NONE;
		wo->level = o->level;
		wo->chunk_size = o->chunk_size;
		wo->threads = o->threads;
	} else {
		wo->version = head->version;
		wo->codec = head->codec;
		if (o)
			wo->threads = o->threads;
	}
}

/* Indices of a buffer's CPUs sorted by id: streams go in CPU order. */
static void sort_cpus(struct tdat_buffer *b, char **files)
{
	int i, j;

	for (i = 1; i < b->ncpus; i++)
		for (j = i; j > 0 && b->cpus[j - 1].cpu > b->cpus[j].cpu;
		     j--) {
			struct tdat_cpu t = b->cpus[j];
			char *f = files[j];

			b->cpus[j] = b->cpus[j - 1];
			files[j] = files[j - 1];
			b->cpus[j - 1] = t;
			files[j - 1] = f;
		}
}

static int put_stream(struct asm_meta *a, struct tdat_writer *w,
		      const struct tdat_event_ids *ids, int buf, int idx,
		      const struct convert_opts *o, struct tdat_error *err)
{
	const struct tdat_buffer *b = &a->bufs[buf];
	const char *path = a->files[buf][idx];
	struct page_filter pf;
	int r;

	if (tdat_writer_begin_cpu(w, buf, b->cpus[idx].cpu, err) ||
	    pf_init(&pf, a->m, ids, w, o, b->page_size, path, b->name,
		    b->cpus[idx].cpu, err))
		return -1;
	if (a->missing_ok && !(a->src && a->src->sees_missing) &&
	    access(path, F_OK)) {
		restore_say(o, "%s: missing: buffer \"%s\" CPU %d has no"
			    " data", path, b->name, b->cpus[idx].cpu);
		r = 0;
	} else {
		r = put_raw_file(&pf, path, a->src, err);
	}
	if (!r)
		r = pf_flush(&pf, err);
	pf_free(&pf);
	a->kept += pf.kept;
	if (pf.dropped_bytes > pf.empty * pf.page_size) {
		a->junk += pf.dropped_bytes - pf.empty * pf.page_size;
		if (!a->junk_file)
			a->junk_file = path;
	}
	return r || tdat_writer_end_cpu(w, err) ? -1 : 0;
}

/* Files that hold bytes but not one page the kernel wrote are not raw
 * CPU files: no trace is made of them. */
static int nothing_kept(const struct asm_meta *a, struct tdat_error *err)
{
	if (a->kept || !a->junk)
		return 0;
	return tdat_fail(err, a->junk_file, 0, "nothing to restore: no page"
			 " of the CPU files is a ring-buffer page (%llu bytes"
			 " dropped)", (unsigned long long)a->junk);
}

/* A latency tracer's text (a killed recording may not have it yet). */
static int put_latency(struct asm_meta *a, struct tdat_writer *w, int buf,
		       const struct convert_opts *o, struct tdat_error *err)
{
	const char *path = a->latency[buf];
	uint8_t *text = NULL;
	struct stat st;
	size_t got = 0;
	int fd, r;

	if (access(path, F_OK)) {
		restore_say(o, "%s: missing: the latency tracer's text was not"
			    " saved", path);
		return tdat_writer_put_latency(w, buf, "", 0, err);
	}
	fd = tdat_open_regular(path, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !(text = malloc((size_t)st.st_size + 1)) ||
	    read_full(fd, text, (size_t)st.st_size, &got)) {
		close(fd);
		free(text);
		return tdat_fail_nooff(err, path, "cannot read");
	}
	close(fd);
	r = tdat_writer_put_latency(w, buf, text, got, err);
	free(text);
	return r;
}

/* head's parts go to the output's metadata (asm_finish). */
static int asm_write(struct asm_meta *a, struct tdat_file *head,
		     const char *out, const struct convert_opts *o,
		     struct tdat_error *err)
{
	struct tdat_event_ids *ids = malloc(sizeof(*ids));
	struct tdat_write_opts wo;
	struct tdat_writer *w;
	uint64_t done = 0, total = 0;
	int i, j;

	if (!ids) {
		tdat_fail_nooff(err, out, "out of memory");
		return -1;
	}
	if (tdat_event_ids_load(head, ids, err)) {
		free(ids);
		return -1;
	}
	for (i = 0; i < a->nbufs; i++)
		sort_cpus(&a->bufs[i], a->files[i]);
	write_opts(head, o, &wo);
	w = asm_finish(a, head, err) ? NULL :
	    tdat_writer_open(out, a->m, &wo, err);
	if (!w) {
		free(ids);
		return -1;
	}
	for (i = 0; i < a->nbufs; i++)
		total += (uint64_t)a->bufs[i].ncpus;
	for (i = 0; i < a->nbufs; i++) {
		if (a->bufs[i].latency && put_latency(a, w, i, o, err)) {
			tdat_writer_abort(w);
			free(ids);
			return -1;
		}
		for (j = 0; j < a->bufs[i].ncpus; j++) {
			if (put_stream(a, w, ids, i, j, o, err)) {
				tdat_writer_abort(w);
				free(ids);
				return -1;
			}
			if (o->progress)	/* CPU files done */
				o->progress(o->progress_ctx, ++done, total);
		}
	}
	free(ids);
	if (nothing_kept(a, err)) {
		tdat_writer_abort(w);
		return -1;
	}
	return tdat_writer_close(w, err);
}

/* The clock the head's TRACECLOCK selects, or trace-cmd's default. */
static void head_clock(const struct tdat_file *head, char *buf, size_t cap)
{
	if (!tdat_opt_clock(head, buf, cap) || !buf[0])
		snprintf(buf, cap, "local");
}

int assemble_cpu_files(const char *head, char *const *cpufiles, int n,
		       const char *out, const struct convert_opts *o,
		       struct tdat_error *err)
{
	struct asm_meta a;
	struct tdat_file *h;
	char clock[64];
	int i, r = -1;

	memset(&a, 0, sizeof(a));
	h = tdat_open(head, err);
	if (!h)
		return -1;
	head_clock(h, clock, sizeof(clock));
	if (!asm_add_buffer(&a, "", clock, h->page_size))
		goto nomem;
	for (i = 0; i < n; i++)
		if (asm_add_cpu(&a, 0, i, cpufiles[i]))
			goto nomem;
	r = asm_write(&a, h, out, o, err);
	goto done;
nomem:
	tdat_fail_nooff(err, out, "out of memory");
done:
	asm_free(&a);
	tdat_close(h);
	return r;
}

/* ---- OUT.rec/manifest ---- */

struct manifest {
	const char *path;	/* for errors */
	const char *dir;
	uint32_t page_size;
	int line;
};

static int mf_fail(struct manifest *mf, struct tdat_error *err,
		   const char *what)
{
	return tdat_fail_nooff(err, mf->path, "line %d: %s", mf->line, what);
}

static int find_buffer(const struct asm_meta *a, const char *name)
{
	int i;

	for (i = 0; i < a->nbufs; i++)
		if (!strcmp(a->bufs[i].name, name))
			return i;
	return -1;
}

static const char *buffer_name(const char *word)
{
	return strcmp(word, "-") ? word : "";
}

/* An unsigned decimal that fits in max. */
static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

/* A FILE of the manifest: inside the directory. */
static int mf_file(struct manifest *mf, const char *file, char *path,
		   size_t cap, struct tdat_error *err)
{
	if (file[0] == '/' || !strcmp(file, "..") || !strncmp(file, "../", 3) ||
	    strstr(file, "/../"))
		return mf_fail(mf, err, "a FILE must stay inside the"
			       " directory");
	if ((size_t)snprintf(path, cap, "%s/%s", mf->dir, file) >= cap)
		return mf_fail(mf, err, "file name too long");
	return 0;
}

/* "buffer NAME clock CLOCK cpus N [page_size P] [latency FILE]" */
static int mf_buffer(struct manifest *mf, struct asm_meta *a, char **w,
		     int n, struct tdat_error *err)
{
	unsigned long cpus, ps = mf->page_size;
	const char *clock = NULL, *latency = NULL;
	struct tdat_buffer *b;
	char path[4096];
	int i, have_cpus = 0;

	if (n < 2 || n % 2)
		return mf_fail(mf, err, "expected \"buffer NAME clock CLOCK"
			       " cpus N\"");
	for (i = 2; i + 1 < n; i += 2) {
		if (!strcmp(w[i], "clock"))
			clock = w[i + 1];
		else if (!strcmp(w[i], "cpus") &&
			 !parse_uint(w[i + 1], 65536, &cpus))
			have_cpus = 1;
		else if (!strcmp(w[i], "page_size") &&
			 !parse_uint(w[i + 1], 1u << 24, &ps) && ps >= 64)
			;
		else if (!strcmp(w[i], "latency"))
			latency = w[i + 1];
		else
			return mf_fail(mf, err, "bad buffer attribute");
	}
	if (!clock || !have_cpus)
		return mf_fail(mf, err, "a buffer needs a clock and cpus");
	if (find_buffer(a, buffer_name(w[1])) >= 0)
		return mf_fail(mf, err, "buffer listed twice");
	if (!ps)
		return mf_fail(mf, err, "no page_size before the buffers");
	if (latency && mf_file(mf, latency, path, sizeof(path), err))
		return -1;
	b = asm_add_buffer(a, buffer_name(w[1]), clock, (uint32_t)ps);
	if (!b || (latency && !(a->latency[a->nbufs - 1] = strdup(path))))
		return mf_fail(mf, err, "out of memory");
	b->latency = latency != NULL;
	if (cpus > a->cpus)
		a->cpus = (uint32_t)cpus;
	return 0;
}

/* "cpu NAME CPU FILE", FILE relative to the directory. */
static int mf_cpu(struct manifest *mf, struct asm_meta *a, char **w, int n,
		  struct tdat_error *err)
{
	unsigned long cpu;
	char path[4096];
	int b, i;

	if (n != 4 || parse_uint(w[2], 65535, &cpu))
		return mf_fail(mf, err, "expected \"cpu NAME CPU FILE\"");
	b = find_buffer(a, buffer_name(w[1]));
	if (b < 0)
		return mf_fail(mf, err, "CPU of a buffer not listed before");
	if (a->bufs[b].latency)
		return mf_fail(mf, err, "CPU of a latency buffer");
	for (i = 0; i < a->bufs[b].ncpus; i++)
		if (a->bufs[b].cpus[i].cpu == (int)cpu)
			return mf_fail(mf, err, "CPU listed twice");
	if (mf_file(mf, w[3], path, sizeof(path), err))
		return -1;
	if (asm_add_cpu(a, b, (int)cpu, path))
		return mf_fail(mf, err, "out of memory");
	return 0;
}

static int mf_line(struct manifest *mf, struct asm_meta *a, char *s,
		   struct tdat_error *err)
{
	char *w[10], *save = NULL, *t;
	unsigned long v;
	int n = 0;

	for (t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == 10)
			return mf_fail(mf, err, "too many words");
		w[n++] = t;
	}
	if (!n)
		return 0;
	if (mf->line == 1)
		return n == 2 && !strcmp(w[0], "tdat-recording") &&
		       !strcmp(w[1], "1") ? 0 :
		       mf_fail(mf, err, "not a tdat-recording 1 manifest");
	if (!strcmp(w[0], "page_size")) {
		if (n != 2 || parse_uint(w[1], 1u << 24, &v) || v < 64)
			return mf_fail(mf, err, "bad page_size");
		mf->page_size = (uint32_t)v;
		return 0;
	}
	if (!strcmp(w[0], "buffer"))
		return mf_buffer(mf, a, w, n, err);
	if (!strcmp(w[0], "cpu"))
		return mf_cpu(mf, a, w, n, err);
	return mf_fail(mf, err, "unknown line");
}

static int read_text(const char *path, char **text, struct tdat_error *err)
{
	size_t got;
	struct stat st;
	int fd = tdat_open_regular(path, err);

	*text = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size > MANIFEST_MAX) {
		close(fd);
		return tdat_fail_nooff(err, path, "not a file of at most 1 MiB");
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text || read_full(fd, (uint8_t *)*text, (size_t)st.st_size,
				&got)) {
		tdat_fail_nooff(err, path, "cannot read");
		close(fd);
		free(*text);
		return -1;
	}
	close(fd);
	(*text)[got] = 0;
	if (strlen(*text) != got) {
		free(*text);
		return tdat_fail_nooff(err, path, "not a manifest (it holds NUL"
				       " bytes)");
	}
	return 0;
}

static int read_manifest(const char *dir, struct asm_meta *a,
			 struct tdat_error *err)
{
	char path[4096], *text, *line, *save = NULL;
	struct manifest mf = { path, dir, 0, 0 };
	int r = 0;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (read_text(path, &text, err))
		return -1;
	for (line = strtok_r(text, "\n", &save); !r && line;
	     line = strtok_r(NULL, "\n", &save)) {
		mf.line++;
		r = mf_line(&mf, a, line, err);
	}
	free(text);
	if (!r && mf.line == 0)
		r = mf_fail(&mf, err, "empty manifest");
	if (!r && !a->nbufs)
		r = mf_fail(&mf, err, "no buffer listed");
	return r;
}

/* The top buffer goes first, as the writer and readers expect. */
static void top_first(struct asm_meta *a)
{
	int t = find_buffer(a, "");
	struct tdat_buffer b;
	char **f, *l;

	if (t <= 0)
		return;
	b = a->bufs[t];
	f = a->files[t];
	l = a->latency[t];
	memmove(a->bufs + 1, a->bufs, (size_t)t * sizeof(b));
	memmove(a->files + 1, a->files, (size_t)t * sizeof(f));
	memmove(a->latency + 1, a->latency, (size_t)t * sizeof(l));
	a->bufs[0] = b;
	a->files[0] = f;
	a->latency[0] = l;
}

/*
 * OUT.rec/output, "VERSION CODEC": the file the recording was asked for
 * (head.dat is always v7 none).  Taken when the caller names no version.
 */
static int read_output(const char *dir, const struct convert_opts *o,
		       struct convert_opts *mine, struct tdat_error *err)
{
	char path[4200], *text, codec[16];
	int version, r = 0;

	snprintf(path, sizeof(path), "%s/output", dir);
	if ((o && o->version) || access(path, F_OK))
		return 0;
	if (read_text(path, &text, err))
		return -1;
	if (sscanf(text, "%d %15s", &version, codec) != 2 ||
	    (version != 6 && version != 7) ||
	    tdat_codec_by_name(codec, &mine->codec) ||
	    (version == 6 && mine->codec != TDAT_CODEC_NONE)) {
		r = tdat_fail_nooff(err, path, "not \"6 none\" or \"7"
				    " CODEC\"");
	}
	mine->version = version;
	free(text);
	return r;
}

/* head NULL: OUT.rec/head.dat, opened once the manifest is read. */
static int assemble(const char *recdir, struct tdat_file *head,
		    const struct raw_source *src, const char *out,
		    const struct convert_opts *o, struct tdat_error *err)
{
	struct convert_opts mine;
	struct asm_meta a;
	char path[4096];
	int r = -1;

	if (o)
		mine = *o;
	else
		memset(&mine, 0, sizeof(mine));
	memset(&a, 0, sizeof(a));
	a.src = src;
	if (read_output(recdir, o, &mine, err) ||
	    read_manifest(recdir, &a, err))
		goto done;
	top_first(&a);
	a.missing_ok = 1;
	snprintf(path, sizeof(path), "%s/head.dat", recdir);
	if (!head)
		head = tdat_open(path, err);
	if (head)
		r = asm_write(&a, head, out, &mine, err);
done:
	asm_free(&a);
	tdat_close(head);
	return r;
}

int assemble_recording_head(const char *recdir, struct tdat_file *head,
			    const char *out, const struct convert_opts *o,
			    struct tdat_error *err)
{
	return assemble(recdir, head, NULL, out, o, err);
}

int assemble_recording_from(const char *recdir, const struct raw_source *src,
			    const char *out, const struct convert_opts *o,
			    struct tdat_error *err)
{
	return assemble(recdir, NULL, src, out, o, err);
}

int assemble_recording(const char *recdir, const char *out,
		       const struct convert_opts *o, struct tdat_error *err)
{
	return assemble(recdir, NULL, NULL, out, o, err);
}
