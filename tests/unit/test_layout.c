/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_layout.c - convert/events/layout.c: an event type's fields worked
 * out once read every record as the field rules read it field by field,
 * on real recordings of several kernels and word sizes, whole and cut
 * short at every length; and --json writes an event the same through
 * the layout as through the format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "convert/events/stream.h"
#include "convert/report/print.h"
#include "convert/report/json.h"
#include "tests/unit/units.h"

static const char *const files[] = {
	"v6-sched-irq.dat",
	"v7-zstd-2inst-irq-top-sched-inst1.dat",
	"external/lanhao.dat",
	"external/samarxie_android.dat",
	"external/gpuvis_amdgpu.dat",
	"external/lisa_trappy_2014a.dat",
	"external/carverdamien_full.dat",
};
#define NFILES (int)(sizeof(files) / sizeof(files[0]))
#define MAX_EVENTS 4000		/* of each file */

/* Place p against field_span and field_kind on data[0..size). */
static int same_place(struct tep_handle *tep, const struct field_place *p,
		      const uint8_t *data, size_t size)
{
	size_t s1 = 0, l1 = 0, s2 = 0, l2 = 0;
	struct field_kind k;
	int r1, r2;

	field_kind(p->f, &k);
	if (memcmp(&k, &p->k, sizeof(k)))
		return 0;
	r1 = field_place_span(tep, p, data, size, &s1, &l1);
	r2 = field_span(tep, p->f, data, size, &s2, &l2);
	return r1 == r2 && (r1 || (s1 == s2 && l1 == l2));
}

/* Every place of l on the record and on each cut of it. */
static int same_record(struct tep_handle *tep, const struct event_layout *l,
		       const uint8_t *data, size_t size)
{
	size_t cut;
	int i;

	for (cut = 0; cut <= size; cut++) {
		for (i = 0; i < l->ncommon; i++)
			if (!same_place(tep, &l->common[i], data, cut))
				return 0;
		for (i = 0; i < l->nfields; i++)
			if (!same_place(tep, &l->fields[i], data, cut))
				return 0;
	}
	return 1;
}

static int count(const struct tep_format_field *f)
{
	int n = 0;

	for (; f; f = f->next)
		n++;
	return n;
}

/* --json's object of the record, through l (has_type) or not. */
static char *json_of(struct tep_handle *tep, struct tep_record *rec,
		     const struct tep_event *ev, int by_layout)
{
	struct event_view v;
	struct printer p;
	struct outbuf o;
	char *text;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	outbuf_init(&o, fp);
	memset(&p, 0, sizeof(p));
	p.o = &o;
	json_printer_init(&p, 0);
	memset(&v, 0, sizeof(v));
	v.tep = tep;
	v.rec = rec;
	v.buffer = "";
	v.comm = "c";
	v.has_type = by_layout;
	v.type = ev->id;
	p.line(&p, &v);
	if (by_layout)	/* the layout's way was taken */
		CU_ASSERT_PTR_NOT_NULL(event_memo_layout(p.memo, &v, ev));
	event_memo_free(p.memo);
	outbuf_flush(&o);
	outbuf_free(&o);
	fclose(fp);
	return text;
}

static int same_json(struct tep_handle *tep, struct tep_record *rec,
		     const struct tep_event *ev)
{
	char *a = json_of(tep, rec, ev, 0), *b = json_of(tep, rec, ev, 1);
	int same = !strcmp(a, b);

	if (!same)
		fprintf(stderr, "\n  format: %s  layout: %s", a, b);
	free(a);
	free(b);
	return same;
}

/* Each event of buffer 0 of one file, against its type's layout. */
static void check_file(const char *name)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture(name), &err);
	struct tep_handle *tep;
	struct tep_record rec;
	struct stream_cpu *c;
	struct stream st;
	int n = 0, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tep = tep_from_file_nosyms(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL_FATAL(stream_add_buffer(&st, f, 0, 0, &err), 0);
	for (; n < MAX_EVENTS && (c = stream_peek(&st));
	     stream_advance(&st, c), n++) {
		struct tep_event *ev;
		struct event_layout *l;

		memset(&rec, 0, sizeof(rec));
		rec.size = (int)c->ev.size;
		rec.data = (void *)c->ev.data;
		rec.cpu = c->cpu;
		ev = tep_find_event_by_record(tep, &rec);
		if (!ev)
			continue;
		l = event_layout_new(ev);
		CU_ASSERT_PTR_NOT_NULL_FATAL(l);
		CU_ASSERT_EQUAL(l->ncommon, count(ev->format.common_fields));
		CU_ASSERT_EQUAL(l->nfields, count(ev->format.fields));
		if (!same_record(tep, l, c->ev.data, c->ev.size) ||
		    !same_json(tep, &rec, ev))
			bad++;
		event_layout_free(l);
	}
	CU_ASSERT(n > 0);
	CU_ASSERT_EQUAL(bad, 0);
	if (bad)
		fprintf(stderr, "\n  %s: %d of %d events differ\n", name, bad,
			n);
	stream_free(&st);
	tep_free(tep);
	tdat_close(f);
}

static void test_layouts_of_fixtures(void)
{
	int k;

	for (k = 0; k < NFILES; k++)
		check_file(files[k]);
}

/* Out of memory at each allocation: NULL, nothing leaked (ASan). */
static void test_layout_no_memory(void)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(fixture("v6-sched-irq.dat"), &err);
	struct tep_handle *tep;
	struct tep_event *ev;
	struct event_layout *l;
	long k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	tep = tep_from_file_nosyms(f, 0, &plugins, &trial, &err);
	tepfmt_trial_free(&trial);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	for (k = 0;; k++) {
		failalloc_arm(k);
		l = event_layout_new(ev);
		if (failalloc_disarm() <= k) {
			CU_ASSERT_PTR_NOT_NULL(l);
			event_layout_free(l);
			break;
		}
		CU_ASSERT_PTR_NULL(l);
	}
	CU_ASSERT(k >= 3);	/* the layout, its common and own fields */
	tep_free(tep);
	tdat_close(f);
}

void suite_layout(void)
{
	CU_pSuite s = CU_add_suite("layout", NULL, NULL);

	CU_add_test(s, "fixtures' events read through layouts",
		    test_layouts_of_fixtures);
	CU_add_test(s, "out of memory", test_layout_no_memory);
}
