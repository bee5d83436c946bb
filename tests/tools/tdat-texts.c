/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tdat-texts - write the tracefs texts a trace.dat keeps back out as the
 * files they came from, for a diff against a kernel's own:
 *     DIR/events/header_page, DIR/events/header_event,
 *     DIR/events/SYSTEM/EVENT/format (EVENT from the text's "name:"),
 *     DIR/kallsyms, DIR/printk_formats, DIR/saved_cmdlines
 * (tests/vm/vmcore-check compares a dump's extracted file with the
 * crashed kernel's tracefs this way).
 *
 * usage: tdat-texts FILE DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "libfmt/tracedat.h"

static int put(const char *dir, const char *name, const char *text,
	       size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "tdat-texts: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int mkdirs(const char *dir, const char *a, const char *b)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, a);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, a, b);
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

static int one_format(void *ctx, const char *system, const char *text,
		      size_t len)
{
	const char *dir = ctx;
	char name[256], rel[1024];

	if (len < 7 || strncmp(text, "name: ", 6) ||
	    sscanf(text + 6, "%255[^\n]", name) != 1 ||
	    strchr(name, '/') || strchr(system, '/')) {
		fprintf(stderr, "tdat-texts: a format without a name\n");
		return -1;
	}
	snprintf(rel, sizeof(rel), "events/%s", system);
	if (mkdirs(dir, rel, name))
		return -1;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, name);
	return put(dir, rel, text, len);
}

static int texts(struct tdat_file *f, const char *dir, struct tdat_error *err)
{
	static const struct { enum tdat_meta m; const char *name; } parts[] = {
		{ TDAT_META_KALLSYMS, "kallsyms" },
		{ TDAT_META_PRINTK, "printk_formats" },
		{ TDAT_META_CMDLINES, "saved_cmdlines" },
	};
	const char *page, *event, *t;
	size_t plen, elen, n;
	unsigned i;

	if (mkdirs(dir, "events", ".") ||
	    tdat_header_texts(f, &page, &plen, &event, &elen, err) ||
	    put(dir, "events/header_page", page, plen) ||
	    put(dir, "events/header_event", event, elen) ||
	    tdat_each_format(f, one_format, (void *)dir, err))
		return -1;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (tdat_meta_has(f, parts[i].m) &&
		    (tdat_meta_text(f, parts[i].m, &t, &n, err) ||
		     put(dir, parts[i].name, t, n)))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct tdat_error err;

	memset(&err, 0, sizeof(err));
	struct tdat_file *f;
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: tdat-texts FILE DIR\n");
		return 2;
	}
	if (mkdir(argv[2], 0755) && errno != EEXIST) {
		fprintf(stderr, "tdat-texts: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	f = tdat_open(argv[1], &err);
	if (!f) {
		fprintf(stderr, "tdat-texts: %s\n", err.msg);
		return 1;
	}
	r = texts(f, argv[2], &err);
	if (r && err.msg[0])
		fprintf(stderr, "tdat-texts: %s\n", err.msg);
	tdat_close(f);
	return r ? 1 : 0;
}
