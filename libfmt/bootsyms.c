/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bootsyms.c - the kallsyms that name the events of a buffer whose pages
 * the last boot wrote (a LAST_BOOT_INFO option names it, lastboot.c).
 *
 * The file's kallsyms are this boot's, and KASLR put the kernel elsewhere
 * then.  Each symbol is moved to where it was in the last boot, so that
 * every reader (libtraceevent, the exports) names that boot's addresses
 * as they are: the core kernel by the text delta (6.12-6.14) or by the
 * move of _text (6.15 on), a module by the move of its base (its base
 * now: the MODULES section, this boot's /proc/modules, else its lowest
 * symbol).  A module the last boot did not have is left out; with only a
 * delta, modules keep their addresses (nothing says where they were).
 * Addresses below _text (per-CPU offsets, absolute symbols) do not move.
 * When a buffer with data holds this boot's pages as well, this boot's
 * symbols stay beside the moved ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/bytes.h"
#include "libfmt/internal.h"
#include "libfmt/stored.h"

/* One kallsyms line: "ADDR TYPE NAME[\t[MODULE]]". */
struct ksym_line {
	const char *p;
	size_t len;
	uint64_t addr;
	size_t addr_len;	/* hex digits */
	const char *mod;	/* module name, or NULL */
	size_t mod_len;
};

static int parse_line(const char *p, size_t len, struct ksym_line *l)
{
	const char *open, *close;
	size_t i;

	memset(l, 0, sizeof(*l));
	l->p = p;
	l->len = len;
	i = hex_prefix(p, len, &l->addr);
	if (!i || i == len || p[i] != ' ')
		return -1;
	l->addr_len = i;
	open = memchr(p, '[', len);
	close = open ? memchr(open, ']', len - (size_t)(open - p)) : NULL;
	if (open && close && open > p && open[-1] == '\t') {
		l->mod = open + 1;
		l->mod_len = (size_t)(close - open - 1);
	}
	return 0;
}

/* The next line of the text at *pos; 0 at its end. */
static int next_line(const char *text, size_t len, size_t *pos,
		     struct ksym_line *l)
{
	while (*pos < len) {
		const char *p = text + *pos, *nl = memchr(p, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - p) : len - *pos;

		*pos += n + (nl != NULL);
		if (!parse_line(p, n, l))
			return 1;
	}
	return 0;
}

/* A module of the last boot: where it was then, where it is now (0:
 * not loaded now, or not known). */
struct boot_mod {
	const char *name;
	uint64_t then, now;
};

/* How the symbols move: the core kernel's shift, the modules'. */
struct boot_move {
	const struct tdat_last_boot *lb;
	uint64_t cur_text;
	int have_text;
	uint64_t core_shift;	/* added (mod 2^64) to a core address */
	struct boot_mod *mods;	/* the last boot's, lb->nmods */
};

static struct boot_mod *find_mod(const struct boot_move *mv, const char *name,
				 size_t n)
{
	size_t i;

	for (i = 0; i < mv->lb->nmods; i++)
		if (strlen(mv->mods[i].name) == n &&
		    !memcmp(mv->mods[i].name, name, n))
			return &mv->mods[i];
	return NULL;
}

/* Where each module is now: /proc/modules' address (its sixth field). */
static void bases_from_modules(struct boot_move *mv, const char *p, size_t len)
{
	const char *end = p + len, *nl;
	struct boot_mod *m;

	for (; p < end; p = nl + 1) {
		char line[512], mod[64];
		unsigned long long a;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) >= sizeof(line))
			continue;
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = 0;
		if (sscanf(line, "%63s %*s %*s %*s %*s %llx", mod, &a) == 2 &&
		    (m = find_mod(mv, mod, strlen(mod))) != NULL)
			m->now = a;
	}
}

/* Else the lowest of its symbols; and _text, the core kernel's start. */
static void bases_from_kallsyms(struct boot_move *mv, const char *text,
				size_t len, int have_modules)
{
	struct ksym_line l;
	struct boot_mod *m;
	size_t pos = 0;

	while (next_line(text, len, &pos, &l)) {
		if (!l.mod && l.len - l.addr_len == 8 &&
		    !memcmp(l.p + l.addr_len + 2, " _text", 6)) {
			mv->cur_text = l.addr;
			mv->have_text = 1;
		}
		if (l.mod && !have_modules &&
		    (m = find_mod(mv, l.mod, l.mod_len)) != NULL &&
		    (!m->now || l.addr < m->now))
			m->now = l.addr;
	}
}

/* Line l moved into out, or left out. */
static int put_moved(const struct boot_move *mv, const struct ksym_line *l,
		     struct tdat_bytes *out)
{
	uint64_t a = l->addr;
	struct boot_mod *m;
	char hex[24];

	if (l->mod && mv->lb->kind == TDAT_BOOT_TEXT) {
		m = find_mod(mv, l->mod, l->mod_len);
		if (!m || !m->now)
			return 0;	/* not loaded then, or not known */
		a = a - m->now + m->then;
	} else if (!l->mod && mv->have_text && a >= mv->cur_text) {
		a += mv->core_shift;
	}
	snprintf(hex, sizeof(hex), "%0*llx", (int)l->addr_len,
		 (unsigned long long)a);
	return tdat_bytes_add(out, hex, strlen(hex)) ||
	       tdat_bytes_add(out, l->p + l->addr_len, l->len - l->addr_len) ||
	       tdat_bytes_add(out, "\n", 1);
}

static int has_data(const struct tdat_buffer *b)
{
	int i;

	if (b->latency)
		return b->latency_size > 0;
	for (i = 0; i < b->ncpus; i++)
		if (b->cpus[i].size)
			return 1;
	return 0;
}

/* The option that names buffer name (the last one), 1 with it in lb. */
static int boot_of(const struct tdat_file *f, const char *name,
		   struct tdat_last_boot *lb)
{
	struct tdat_last_boot x;
	int pos = 0, found = 0;

	while (tdat_last_boot_next(f, &pos, &x)) {
		if (strcmp(x.instance, name)) {
			tdat_last_boot_free(&x);
			continue;
		}
		if (found)
			tdat_last_boot_free(lb);
		*lb = x;
		found = 1;
	}
	return found;
}

/* The last boot that a buffer with data holds pages of (the first such
 * buffer's), 1 with it in lb; *current: a buffer with data is this
 * boot's. */
static int boot_to_name(const struct tdat_file *f, struct tdat_last_boot *lb,
			int *current)
{
	struct tdat_last_boot x;
	int i, found = 0;

	*current = 0;
	for (i = 0; i < f->nbuffers; i++) {
		if (!has_data(&f->buffers[i]))
			continue;
		if (!boot_of(f, f->buffers[i].name, &x)) {
			*current = 1;
			continue;
		}
		if (x.kind == TDAT_BOOT_CURRENT)
			*current = 1;
		else if (!found) {
			*lb = x;
			found = 1;
			continue;
		}
		tdat_last_boot_free(&x);
	}
	return found;
}

/* The moved text into out (and this boot's after it with current). */
static int move_all(const struct tdat_file *f, const struct tdat_last_boot *lb,
		    const char *text, size_t len, int current,
		    struct tdat_bytes *out)
{
	struct boot_move mv = { lb, 0, 0, 0, NULL };
	struct ksym_line l;
	size_t i, pos = 0;
	int r = 0;

	mv.mods = calloc(lb->nmods ? lb->nmods : 1, sizeof(*mv.mods));
	if (!mv.mods)
		return -1;
	for (i = 0; i < lb->nmods; i++) {
		mv.mods[i].name = lb->mods[i].name;
		mv.mods[i].then = lb->mods[i].addr;
	}
	if (tdat_meta_has(f, TDAT_META_MODULES) &&
	    !tdat_meta_pending(f, TDAT_META_MODULES))
		bases_from_modules(&mv, (const char *)f->meta[TDAT_META_MODULES].data,
				   f->meta[TDAT_META_MODULES].len);
	bases_from_kallsyms(&mv, text, len,
			    tdat_meta_has(f, TDAT_META_MODULES));
	mv.core_shift = lb->kind == TDAT_BOOT_TEXT ? lb->old_text - mv.cur_text :
			(uint64_t)0 - (uint64_t)lb->text_delta;
	while (!r && next_line(text, len, &pos, &l))
		r = put_moved(&mv, &l, out);
	if (!r && current)
		r = tdat_bytes_add(out, text, len) ||
		    (len && text[len - 1] != '\n' && tdat_bytes_add(out, "\n", 1));
	free(mv.mods);
	return r || tdat_bytes_add(out, "", 1) ? -1 : 0;
}

int tdat_event_kallsyms(const struct tdat_file *f, const char **text,
			size_t *len, char **owned, struct tdat_error *err)
{
	struct tdat_last_boot lb;
	struct tdat_bytes out = { 0 };
	int current, r;

	*owned = NULL;
	if (tdat_meta_text(f, TDAT_META_KALLSYMS, text, len, err))
		return -1;
	if (!*len || !boot_to_name(f, &lb, &current))
		return 0;
	r = move_all(f, &lb, *text, *len, current, &out);
	tdat_last_boot_free(&lb);
	if (r) {
		tdat_bytes_free(&out);
		return tdat_fail_nooff(err, f->path, "out of memory");
	}
	*owned = (char *)out.data;
	*text = *owned;
	*len = out.len - 1;
	return 0;
}
