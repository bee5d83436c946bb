/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tep_load.c - a libtraceevent handle from a trace.dat's own metadata. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/events/stream.h"
#include "convert/tepfmt/tepfmt.h"

/* The formats into tep, but those the trial found bad. */
struct load {
	struct tep_handle *tep;
	const struct tepfmt_trial *trial;
	int i;
};

static int parse_format(void *ctx, const char *system, const char *text,
			size_t len)
{
	struct load *l = ctx;

	int step = 1 + l->i++;

	/* A format libtraceevent cannot parse is not fatal: its events
	 * print as [FAILED TO PARSE] with their fields, as with trace-cmd
	 * (one it would crash on too, where trace-cmd crashes: its fields
	 * alone are given then, unless they kill it too). */
	if (tepfmt_trial_ok(l->trial, step))
		tepfmt_parse(l->tep, NULL, text, len, system, NULL);
	else if (tepfmt_trial_fields_ok(l->trial, step))
		tepfmt_parse_fields(l->tep, NULL, text, len, system);
	return 0;
}

/* libtraceevent wants NUL-terminated texts. */
static char *text_copy(const char *text, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, text, len);
		s[len] = 0;
	}
	return s;
}

static int load_text(struct tep_handle *tep, const struct tdat_file *f,
		     enum tdat_meta m, struct tdat_error *err)
{
	const char *text;
	size_t len;
	char *s, *moved = NULL;

	/* kallsyms as the events' boot had them (a last boot's buffer) */
	if (m == TDAT_META_KALLSYMS ?
	    tdat_event_kallsyms(f, &text, &len, &moved, err) :
	    tdat_meta_text(f, m, &text, &len, err))
		return -1;
	if (!len)
		return 0;
	if (m == TDAT_META_PRINTK && tepfmt_cuts_pointers(tep))
		s = tepfmt_widen_printk(text, len);
	else
		s = moved ? moved : text_copy(text, len);
	if (!s)
		return -1;
	if (m == TDAT_META_KALLSYMS)
		tep_parse_kallsyms(tep, s);
	else if (m == TDAT_META_PRINTK)
		tep_parse_printk_formats(tep, s);
	else
		tep_parse_saved_cmdlines(tep, s);
	free(s);
	return 0;
}

static struct tep_handle *build(const struct tdat_file *f, int load_plugins,
				int kallsyms, struct tep_plugin_list **plugins,
				struct tepfmt_trial *trial,
				struct tdat_error *err)
{
	struct tep_handle *tep = tep_alloc();
	struct load l = { tep, trial, 0 };
	const char *page, *event;
	size_t page_len, event_len;

	*plugins = NULL;
	if (!tep) {
		tdat_fail_nooff(err, f->path, "out of memory");
		return NULL;
	}
	tep_set_file_bigendian(tep, f->big_endian ? TEP_BIG_ENDIAN :
						    TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tdat_host_big_endian() ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, f->commit_size);
	tep_set_page_size(tep, (int)f->page_size);
	if (tepfmt_prepare(tep)) {
		tdat_fail_nooff(err, f->path, "out of memory");
		tep_free(tep);
		return NULL;
	}
	tep_set_cpus(tep, (int)tdat_cpus(f));
	if (load_plugins)
		*plugins = tep_load_plugins(tep);
	if (!trial->bad)
		tepfmt_trial(tep, f, trial);
	if (tdat_header_texts(f, &page, &page_len, &event, &event_len, err))
		goto fail;
	if (page_len && tepfmt_trial_ok(trial, 0))
		tep_parse_header_page(tep, (char *)page, page_len,
				      f->commit_size);
	if (tdat_each_format(f, parse_format, &l, err) < 0 ||
	    (kallsyms && load_text(tep, f, TDAT_META_KALLSYMS, err)) ||
	    load_text(tep, f, TDAT_META_PRINTK, err) ||
	    load_text(tep, f, TDAT_META_CMDLINES, err))
		goto fail;
	return tep;
fail:
	if (*plugins)
		tep_unload_plugins(*plugins, tep);
	*plugins = NULL;
	tep_free(tep);
	return NULL;
}

struct tep_handle *tep_from_file(const struct tdat_file *f, int load_plugins,
				 struct tep_plugin_list **plugins,
				 struct tepfmt_trial *trial,
				 struct tdat_error *err)
{
	return build(f, load_plugins, 1, plugins, trial, err);
}

/* The same without kallsyms: a worker's handle gets them through
 * ksyms_attach(). */
struct tep_handle *tep_from_file_nosyms(const struct tdat_file *f,
					int load_plugins,
					struct tep_plugin_list **plugins,
					struct tepfmt_trial *trial,
					struct tdat_error *err)
{
	return build(f, load_plugins, 0, plugins, trial, err);
}

int tep_add_kallsyms(struct tep_handle *tep, const struct tdat_file *f,
		     struct tdat_error *err)
{
	return load_text(tep, f, TDAT_META_KALLSYMS, err);
}
