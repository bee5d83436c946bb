/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysmeta.c - the running system's metadata, as a struct tdat_file that
 * tdat_writer_open takes: what trace-cmd stores (FORMAT.md 9.6).  Texts
 * are kept as the kernel gives them; the framing (size fields, counts,
 * system names) is the v6 part layout that libfmt keeps in meta[].
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "convert/tracefs/sysmeta.h"
#include "convert/tracefs/tracefs.h"
#include "libfmt/metabuild.h"
#include "libfmt/bytes.h"
#include "libfmt/version.h"

/* ---- a growing part, integers in the file's byte order ---- */

struct part {
	const struct tdat_file *m;
	struct tdat_bytes out;
	int oom;	/* an append failed: the part is dropped at keep() */
};

static void put(struct part *b, const void *data, size_t n)
{
	if (!b->oom && tdat_bytes_add(&b->out, data, n))
		b->oom = 1;
}

static void put32(struct part *b, uint32_t v)
{
	uint8_t x[4];

	tdat_put32(b->m, x, v);
	put(b, x, 4);
}

static void put64(struct part *b, uint64_t v)
{
	uint8_t x[8];

	tdat_put64(b->m, x, v);
	put(b, x, 8);
}

/* Hand the part to m->meta[which]. */
static int keep(struct tdat_file *m, enum tdat_meta which, struct part *b,
		struct tdat_error *err)
{
	struct tdat_blob blob;

	if (b->oom) {
		tdat_bytes_free(&b->out);
		return tdat_errorf(err, "out of memory");
	}
	blob.data = b->out.data;
	blob.len = b->out.len;
	tdat_meta_set(m, which, &blob);
	return 0;
}

/* ---- the parts ---- */

static int headers(struct tdat_file *m, const char *tdir,
		   struct tdat_error *err)
{
	struct tdat_blob page, event;
	struct part b = { .m = m };

	if (tfs_read(tdir, "events/header_page", &page, err))
		return -1;
	if (tfs_read(tdir, "events/header_event", &event, err)) {
		free(page.data);
		return -1;
	}
	put(&b, "header_page", 12);
	put64(&b, page.len);
	put(&b, page.data, page.len);
	put(&b, "header_event", 13);
	put64(&b, event.len);
	put(&b, event.data, event.len);
	free(page.data);
	free(event.data);
	return keep(m, TDAT_META_HEADERS, &b, err);
}

/* Every events/SYS/EV/format of one system, newest name first as
 * trace-cmd writes them; *count gets how many. */
static int system_formats(struct part *b, const char *tdir, const char *sys,
			  uint32_t *count, struct tdat_error *err)
{
	struct tfs_names evs;
	struct tdat_blob text;
	char rel[PATH_MAX];
	int i;

	*count = 0;
	snprintf(rel, sizeof(rel), "events/%s", sys);
	if (tfs_subdirs(tdir, rel, &evs, err))
		return -1;
	for (i = evs.n - 1; i >= 0; i--) {
		snprintf(rel, sizeof(rel), "events/%s/%s/format", sys,
			 evs.v[i]);
		if (!tfs_exists(tdir, rel))
			continue;
		if (tfs_read(tdir, rel, &text, err)) {
			tfs_names_free(&evs);
			return -1;
		}
		put64(b, text.len);
		put(b, text.data, text.len);
		free(text.data);
		(*count)++;
	}
	tfs_names_free(&evs);
	return 0;
}

static int ftrace_formats(struct tdat_file *m, const char *tdir,
			  struct tdat_error *err)
{
	struct part b = { .m = m };
	uint32_t n;

	put32(&b, 0);
	if (system_formats(&b, tdir, "ftrace", &n, err)) {
		tdat_bytes_free(&b.out);
		return -1;
	}
	if (!b.oom)
		tdat_put32(m, b.out.data, n);
	return keep(m, TDAT_META_FTRACE, &b, err);
}

static int event_formats(struct tdat_file *m, const char *tdir,
			 const struct tfs_names *systems,
			 struct tdat_error *err)
{
	struct tfs_names all = { 0 };
	const struct tfs_names *sys = systems;
	struct part b = { .m = m };
	uint32_t nsys = 0, n;
	size_t count_at;
	int i;

	if (!sys) {
		if (tfs_subdirs(tdir, "events", &all, err))
			return -1;
		sys = &all;
	}
	put32(&b, 0);
	for (i = sys->n - 1; i >= 0; i--) {
		if (!strcmp(sys->v[i], "ftrace"))
			continue;
		put(&b, sys->v[i], strlen(sys->v[i]) + 1);
		count_at = b.out.len;
		put32(&b, 0);
		if (system_formats(&b, tdir, sys->v[i], &n, err)) {
			tdat_bytes_free(&b.out);
			tfs_names_free(&all);
			return -1;
		}
		if (!n) {	/* a directory without events */
			b.out.len = count_at - strlen(sys->v[i]) - 1;
			continue;
		}
		if (!b.oom)
			tdat_put32(m, b.out.data + count_at, n);
		nsys++;
	}
	tfs_names_free(&all);
	if (!b.oom)
		tdat_put32(m, b.out.data, nsys);
	return keep(m, TDAT_META_EVENTS, &b, err);
}

/* A text part: u32 (or u64 for cmdlines) size, then the text, read
 * behind the size (kallsyms is megabytes: no copy). */
static int text_part(struct tdat_file *m, enum tdat_meta which,
		     const char *dir, const char *name, int wide,
		     struct tdat_error *err)
{
	size_t room = wide ? 8 : 4;
	struct tdat_blob part;

	if (tfs_read_after(dir, name, room, &part, err))
		return -1;
	if (!wide && part.len - room > UINT32_MAX) {
		free(part.data);
		return tdat_errorf(err, "%s/%s: too large for the file", dir, name);
	}
	if (wide)
		tdat_put64(m, part.data, part.len - room);
	else
		tdat_put32(m, part.data, (uint32_t)(part.len - room));
	tdat_meta_set(m, which, &part);
	return 0;
}

int sysmeta_refresh_cmdlines(struct tdat_file *m, const char *tdir,
			     struct tdat_error *err)
{
	return text_part(m, TDAT_META_CMDLINES, tdir, "saved_cmdlines", 1,
			 err);
}

/* ---- sizes and counts ---- */

/* header_page's data field (offset, size) and commit field size. */
static int header_page_layout(const char *dir, unsigned long *off,
			      unsigned long *len, unsigned long *commit,
			      struct tdat_error *err)
{
	struct tdat_blob page;
	const char *f, *c;

	if (tfs_read(dir, "events/header_page", &page, err))
		return -1;
	f = strstr((char *)page.data, " data;");
	c = strstr((char *)page.data, " commit;");
	*commit = sizeof(long);
	if (c)
		sscanf(c, " commit;%*[ \t]offset:%*u;%*[ \t]size:%lu;", commit);
	if (!f || sscanf(f, " data;%*[ \t]offset:%lu;%*[ \t]size:%lu;", off,
			 len) != 2 || *off + *len < 64 || *off + *len > (1u << 24) ||
	    *off >= 64 || (*commit != 4 && *commit != 8)) {
		free(page.data);
		return tdat_errorf(err, "%s/events/header_page: no usable data field",
			    dir);
	}
	free(page.data);
	return 0;
}

int sysmeta_page_size(const char *dir, uint32_t *size, struct tdat_error *err)
{
	unsigned long off, len, commit;

	if (header_page_layout(dir, &off, &len, &commit, err))
		return -1;
	*size = (uint32_t)(off + len);
	return 0;
}

/* What page walkers need (libfmt learns it from header_page when it
 * reads a file): the commit word's width and where data starts. */
static int page_layout(struct tdat_file *m, const char *dir,
		       struct tdat_error *err)
{
	unsigned long off, len, commit;

	if (header_page_layout(dir, &off, &len, &commit, err))
		return -1;
	m->page_size = (uint32_t)(off + len);
	m->commit_size = (int)commit;
	m->page_header_size = (int)off;
	return 0;
}

int sysmeta_cpu_count(const char *tdir, struct tdat_error *err)
{
	struct tfs_names cpus;
	int i, n = 0, id;

	if (tfs_subdirs(tdir, "per_cpu", &cpus, err))
		return -1;
	for (i = 0; i < cpus.n; i++)
		if (sscanf(cpus.v[i], "cpu%d", &id) == 1 && id >= 0 &&
		    id < 65536 && id + 1 > n)
			n = id + 1;
	tfs_names_free(&cpus);
	if (!n)
		return tdat_errorf(err, "%s/per_cpu: no CPUs", tdir);
	return n;
}

int sysmeta_clock(const char *dir, char *buf, size_t cap,
		  struct tdat_error *err)
{
	struct tdat_blob t;
	char *open, *close;

	if (tfs_read(dir, "trace_clock", &t, err))
		return -1;
	open = strchr((char *)t.data, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || (size_t)(close - open) > cap) {
		free(t.data);
		return tdat_errorf(err, "%s/trace_clock: no selected clock", dir);
	}
	snprintf(buf, cap, "%.*s", (int)(close - open - 1), open + 1);
	free(t.data);
	return 0;
}

struct tdat_file *sysmeta_collect(const char *tdir,
				  const struct tfs_names *systems,
				  const char *kallsyms, struct tdat_error *err)
{
	struct tdat_file *m = tdat_meta_new(7, tdat_host_big_endian(),
					    (int)sizeof(long), 0, err);
	char kdir[PATH_MAX];
	const char *kname = "kallsyms", *slash;
	int ncpus;

	if (!m)
		return NULL;
	snprintf(kdir, sizeof(kdir), "/proc");
	if (kallsyms) {
		slash = strrchr(kallsyms, '/');
		snprintf(kdir, sizeof(kdir), "%.*s",
			 slash ? (int)(slash - kallsyms) : 1,
			 slash ? kallsyms : ".");
		if (slash && slash == kallsyms)
			snprintf(kdir, sizeof(kdir), "/");
		kname = slash ? slash + 1 : kallsyms;
	}
	ncpus = sysmeta_cpu_count(tdir, err);
	if (ncpus < 0 || page_layout(m, tdir, err) ||
	    headers(m, tdir, err) || ftrace_formats(m, tdir, err) ||
	    event_formats(m, tdir, systems, err) ||
	    text_part(m, TDAT_META_KALLSYMS, kdir, kname, 0, err) ||
	    text_part(m, TDAT_META_PRINTK, tdir, "printk_formats", 0, err) ||
	    sysmeta_refresh_cmdlines(m, tdir, err)) {
		tdat_close(m);
		return NULL;
	}
	m->cpu_count = (uint32_t)ncpus;
	return m;
}

/* ---- options ---- */

static int add_option(struct tdat_file *m, uint16_t id, const void *data,
		      size_t size, struct tdat_error *err)
{
	struct tdat_option *o;

	if (size > UINT32_MAX)
		return tdat_errorf(err, "option %u: too large", id);
	o = realloc(m->options, (size_t)(m->noptions + 1) * sizeof(*o));
	if (!o)
		return tdat_errorf(err, "out of memory");
	m->options = o;
	o = &m->options[m->noptions];
	o->id = id;
	o->size = (uint32_t)size;
	o->data = malloc(size ? size : 1);
	if (!o->data)
		return tdat_errorf(err, "out of memory");
	memcpy(o->data, data, size);
	m->noptions++;
	return 0;
}

/* A NUL-terminated text option (the NUL counted, as trace-cmd does). */
static int add_text(struct tdat_file *m, uint16_t id, const char *text,
		    struct tdat_error *err)
{
	return add_option(m, id, text, strlen(text) + 1, err);
}

int sysmeta_add_options(struct tdat_file *m, const char *dir,
			struct tdat_error *err)
{
	struct tdat_blob clock;
	struct utsname u;
	char text[4 * sizeof(u.release) + 8];
	uint8_t id[8];
	uint64_t v = 0;
	int r;

	if (tfs_read(dir, "trace_clock", &clock, err))
		return -1;
	r = add_text(m, TDAT_OPT_TRACECLOCK, (char *)clock.data, err);
	free(clock.data);
	if (r)
		return -1;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(text, sizeof(text), "%s %s %s %s", u.sysname, u.nodename,
		 u.release, u.machine);
	if (add_text(m, TDAT_OPT_UNAME, text, err) ||
	    add_text(m, TDAT_OPT_VERSION, "tdat-" TDAT_VERSION
		     " record", err))
		return -1;
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
		v = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&v;
	tdat_put64(m, id, v);
	return add_option(m, TDAT_OPT_TRACEID, id, 8, err);
}

int sysmeta_add_cpustats(struct tdat_file *m, const char *dir,
			 const char *name, int ncpus, struct tdat_error *err)
{
	struct tdat_blob stats;
	char rel[64], *text;
	size_t cap;
	int cpu, r;

	if (name[0]) {
		cap = strlen(name) + 16;
		text = malloc(cap);
		if (!text)
			return tdat_errorf(err, "out of memory");
		snprintf(text, cap, "\nBuffer: %s\n\n", name);
		r = add_text(m, TDAT_OPT_CPUSTAT, text, err);
		free(text);
		if (r)
			return -1;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		if (!tfs_exists(dir, rel))
			continue;
		if (tfs_read(dir, rel, &stats, err))
			return -1;
		cap = stats.len + 32;
		text = malloc(cap);
		if (!text) {
			free(stats.data);
			return tdat_errorf(err, "out of memory");
		}
		snprintf(text, cap, "CPU: %d\n%s", cpu,
			 stats.data ? (char *)stats.data : "");
		free(stats.data);
		r = add_text(m, TDAT_OPT_CPUSTAT, text, err);
		free(text);
		if (r)
			return -1;
	}
	return 0;
}
