/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lastboot.c - the LAST_BOOT_INFO option (24, trace-cmd 3.4): an
 * instance whose ring buffer lives in memory kept across a reboot holds
 * the pages the boot before wrote, and its last_boot_info file says
 * where that boot's kernel was.  The option is "INSTANCE:" and that
 * text, which kernels wrote two ways:
 *
 *   6.12-6.14  "text delta:\tN\ndata delta:\tN\n": this boot's
 *              addresses minus the last boot's (decimal, signed);
 *   6.15 on    "ADDR\t[kernel]\n": where the last boot's _text was,
 *              then "ADDR\tMODULE\n" for each module it had loaded;
 *              "# Current" when the pages are this boot's own.
 *
 * Lines are checked strictly: anything else makes the option malformed,
 * and readers then name addresses as the file's kallsyms do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/internal.h"

/* One line of len bytes: "WORD:\tN" into *v (signed decimal). */
static int delta_line(const char *line, size_t len, const char *word,
		      int64_t *v)
{
	size_t n = strlen(word);
	char num[32], *end;

	if (len <= n + 2 || memcmp(line, word, n) || line[n] != ':' ||
	    line[n + 1] != '\t' || len - n - 2 >= sizeof(num))
		return -1;
	memcpy(num, line + n + 2, len - n - 2);
	num[len - n - 2] = 0;
	*v = strtoll(num, &end, 10);
	return *end || end == num ? -1 : 0;
}

size_t hex_prefix(const char *p, size_t len, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < len && i < 16; i++) {
		int c = p[i], d = c >= '0' && c <= '9' ? c - '0' :
				  c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				  c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			break;
		*v = *v << 4 | (uint64_t)d;
	}
	return i;
}

/* "ADDR\tNAME": 16 hex digits at most, a tab, a name. */
static int addr_line(const char *line, size_t len, uint64_t *addr,
		     const char **name, size_t *nlen)
{
	size_t i, digits = hex_prefix(line, len, addr);

	if (!digits || digits >= len || line[digits] != '\t' ||
	    len - digits - 1 == 0)
		return -1;
	*name = line + digits + 1;
	*nlen = len - digits - 1;
	for (i = 0; i < *nlen; i++)
		if ((*name)[i] <= ' ' || (*name)[i] == 0x7f)
			return -1;
	return 0;
}

static int add_module(struct tdat_last_boot *lb, uint64_t addr,
		      const char *name, size_t n)
{
	struct tdat_boot_module *m;

	if (n >= sizeof(m->name))
		return -1;
	m = realloc(lb->mods, (lb->nmods + 1) * sizeof(*m));
	if (!m)
		return -2;
	lb->mods = m;
	m += lb->nmods++;
	m->addr = addr;
	memcpy(m->name, name, n);
	m->name[n] = 0;
	return 0;
}

/* Line k (from 1) of the text after the instance name. */
static int one_line(struct tdat_last_boot *lb, int k, const char *line,
		    size_t len)
{
	const char *name;
	size_t nlen;
	uint64_t addr;

	if (k == 1 && len == 9 && !memcmp(line, "# Current", 9)) {
		lb->kind = TDAT_BOOT_CURRENT;
		return 0;
	}
	if (k == 1 && !delta_line(line, len, "text delta", &lb->text_delta)) {
		lb->kind = TDAT_BOOT_DELTA;
		return 0;
	}
	if (k == 2 && lb->kind == TDAT_BOOT_DELTA)
		return delta_line(line, len, "data delta", &lb->data_delta);
	if (lb->kind == TDAT_BOOT_DELTA || lb->kind == TDAT_BOOT_CURRENT ||
	    addr_line(line, len, &addr, &name, &nlen))
		return -1;
	if (k == 1) {
		if (nlen != 8 || memcmp(name, "[kernel]", 8))
			return -1;
		lb->kind = TDAT_BOOT_TEXT;
		lb->old_text = addr;
		return 0;
	}
	return add_module(lb, addr, name, nlen);
}

int tdat_last_boot_parse(const char *text, size_t size,
			 struct tdat_last_boot *lb, char *why, size_t cap)
{
	const char *colon, *p, *nl, *end;
	size_t n = strnlen(text, size);
	int k = 0, r;

	memset(lb, 0, sizeof(*lb));
	colon = memchr(text, ':', n);
	if (n == size || !colon || colon == text ||
	    (size_t)(colon - text) >= sizeof(lb->instance)) {
		snprintf(why, cap, "%s", n == size ? "no NUL at its end" :
			 "no \"INSTANCE:\" at its start");
		return -1;
	}
	memcpy(lb->instance, text, (size_t)(colon - text));
	for (p = colon + 1, end = text + n; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p)
			continue;	/* a blank line (the text's last) */
		r = one_line(lb, ++k, p, (size_t)(nl - p));
		if (r) {
			snprintf(why, cap, r == -2 ? "out of memory" :
				 "line %d: not a last_boot_info line", k);
			tdat_last_boot_free(lb);
			return -1;
		}
	}
	if (lb->kind == TDAT_BOOT_DELTA && k < 2) {
		snprintf(why, cap, "\"text delta\" without \"data delta\"");
		tdat_last_boot_free(lb);
		return -1;
	}
	if (!k) {
		snprintf(why, cap, "no text after the instance name");
		return -1;
	}
	return 0;
}

void tdat_last_boot_free(struct tdat_last_boot *lb)
{
	free(lb->mods);
	lb->mods = NULL;
	lb->nmods = 0;
}

int tdat_last_boot_next(const struct tdat_file *f, int *pos,
			struct tdat_last_boot *lb)
{
	char why[128];

	while (*pos >= 0 && *pos < f->noptions) {
		const struct tdat_option *o = &f->options[(*pos)++];

		if (o->id == TDAT_OPT_LAST_BOOT_INFO &&
		    !tdat_last_boot_parse((const char *)o->data, o->size, lb,
					  why, sizeof(why)))
			return 1;
	}
	return 0;
}

int lastboot_check(struct tdat_file *f, uint16_t id, const uint8_t *d,
		   uint32_t size, uint64_t off)
{
	struct tdat_last_boot lb;
	char why[128], what[256];

	if (id != TDAT_OPT_LAST_BOOT_INFO)
		return 0;
	if (!tdat_last_boot_parse((const char *)d, size, &lb, why,
				  sizeof(why))) {
		tdat_last_boot_free(&lb);
		return 0;
	}
	snprintf(what, sizeof(what), "option LAST_BOOT_INFO (24) of %u bytes:"
		 " %s: ignored, addresses are named by this file's kallsyms",
		 size, why);
	return file_note(f, off, what);
}
