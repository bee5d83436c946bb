/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_fastfmt.c - libFuzzer target: compiled print fmts
 * (convert/fastfmt) against libtraceevent (`make fuzz FUZZ=fuzz_fastfmt`).
 *
 * At start, every event format of the fixtures (fixtures/ and
 * fixtures/external/, or $FUZZ_FIXTURES) is loaded as report's workers
 * load it (plugins; kallsyms of the files up to 2 MiB), and again with
 * the file's byte order and long size turned, and each event whose
 * print fmt compiles is kept with the first record of it in the file.
 * Input: two bytes choose the event,
 * one byte the mode, one the record size; the rest are the payload.
 * Mode bit 0: the event's real record with the input's (offset, byte)
 * pairs written over it, else the input's bytes as they are.  The
 * event's id goes in common_type.  Whenever fastfmt_print prints the
 * record, its text must be libtraceevent's byte for byte: abort() if
 * not.  The record lies in a large zeroed buffer, so libtraceevent's own
 * reads past a short record stay inside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "libfmt/tracedat.h"
#include "convert/fastfmt/fastfmt.h"
#include "convert/events/stream.h"

#define ROOM 70000	/* any __data_loc offset, and a string after it */
#define PAYLOAD 4096
#define MAX_EVENTS 4096
#define SYMS_FILE_MAX (2 << 20)

struct target {
	struct tep_handle *tep;
	struct tep_event *ev;
	struct fastfmt *prog;
	uint8_t *real;		/* its first record in the file, or NULL */
	uint32_t real_size;
};

static struct target targets[MAX_EVENTS];
static int ntargets;
static uint8_t *room;
static struct trace_seq seq;

static struct target *target_of(struct tep_handle *tep, struct tep_event *ev)
{
	int i;

	for (i = ntargets - 1; i >= 0 && targets[i].tep == tep; i--)
		if (targets[i].ev == ev)
			return &targets[i];
	return NULL;
}

/* Keep the first record of each kept event of f. */
static void take_records(struct tdat_file *f, struct tep_handle *tep)
{
	struct tdat_error err;
	struct stream st;
	struct stream_cpu *c;
	struct tep_record rec;
	struct target *t;

	memset(&st, 0, sizeof(st));
	if (f->nbuffers < 1 || stream_add_buffer(&st, f, 0, 0, &err))
		return;
	for (; (c = stream_peek(&st)); stream_advance(&st, c)) {
		memset(&rec, 0, sizeof(rec));
		rec.data = (void *)c->ev.data;
		rec.size = (int)c->ev.size;
		t = target_of(tep, tep_find_event_by_record(tep, &rec));
		if (!t || t->real || c->ev.size > PAYLOAD)
			continue;
		t->real = malloc(c->ev.size ? c->ev.size : 1);
		if (!t->real)
			continue;
		memcpy(t->real, c->ev.data, c->ev.size);
		t->real_size = c->ev.size;
	}
	stream_free(&st);
}

/* Every event of a handle made from path that compiles; turned: with
 * the byte order and long size turned (both paths see the same). */
static void load(const char *path, int turned)
{
	struct tep_plugin_list *plugins = NULL;
	struct tepfmt_trial trial = { 0, NULL };
	struct tdat_error err;
	struct tdat_file *f = tdat_open(path, &err);
	struct stat st;
	/* kallsyms only of the small files (%pS and the kmem plugin's call
	 * sites print names): memory stays well under libFuzzer's limit */
	int syms = !stat(path, &st) && st.st_size <= SYMS_FILE_MAX;
	struct tep_handle *tep = !f ? NULL :
		syms ? tep_from_file(f, 1, &plugins, &trial, &err) :
		       tep_from_file_nosyms(f, 1, &plugins, &trial, &err);
	struct tep_event **evs;
	int i;

	tepfmt_trial_free(&trial);
	if (tep && turned) {
		tep_set_file_bigendian(tep, tep_is_file_bigendian(tep) ?
				       TEP_LITTLE_ENDIAN : TEP_BIG_ENDIAN);
		tep_set_long_size(tep, tep_get_long_size(tep) == 8 ? 4 : 8);
	}
	evs = tep ? tep_list_events(tep, TEP_EVENT_SORT_ID) : NULL;
	for (i = 0; evs && evs[i] && ntargets < MAX_EVENTS; i++) {
		struct fastfmt *p = fastfmt_compile(evs[i]);

		if (p)
			targets[ntargets++] = (struct target){ tep, evs[i], p,
							       NULL, 0 };
	}
	if (tep && !turned)
		take_records(f, tep);
	if (f)
		tdat_close(f);	/* the handles stay, for the whole run */
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const dirs[] = { "", "external/" };
	const char *fix = getenv("FUZZ_FIXTURES");
	char cmd[512], path[1024];
	FILE *ls;
	size_t i;

	room = calloc(1, ROOM);
	trace_seq_init(&seq);
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "ls %s/%s*.dat 2>/dev/null",
			 fix ? fix : "fixtures", dirs[i]);
		ls = popen(cmd, "r");
		while (ls && fgets(path, sizeof(path), ls)) {
			path[strcspn(path, "\n")] = 0;
			load(path, 0);
			load(path, 1);
		}
		if (ls)
			pclose(ls);
	}
	if (!room || !ntargets) {
		fprintf(stderr, "fuzz_fastfmt: no compiled event (fixtures?)\n");
		exit(1);
	}
	fprintf(stderr, "fuzz_fastfmt: %d compiled events\n", ntargets);
	return 0;
}

/* The record of input data in room: its size. */
static uint32_t make_record(const struct target *t, const uint8_t *data,
			    size_t size)
{
	const uint8_t *in = data + 4;
	size_t n = size - 4, k;
	uint32_t len;
	int big = tep_is_file_bigendian(t->tep);

	memset(room, 0, PAYLOAD + 256);
	if ((data[2] & 1) && t->real) {
		memcpy(room, t->real, t->real_size);
		for (k = 0; k + 1 < n; k += 2)
			room[in[k] % (t->real_size + 8)] = in[k + 1];
		len = t->real_size;
	} else {
		n = n < PAYLOAD ? n : PAYLOAD;
		memcpy(room, in, n);
		len = (uint32_t)n;
	}
	if (data[2] & 2)	/* another size: shorter or longer */
		len = data[3] % (len + 16);
	tdat_store16(big, room, (uint16_t)t->ev->id);
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct target *t;
	struct tep_record rec;
	char out[8192];
	int n;

	if (size < 4)
		return 0;
	t = &targets[(data[0] | data[1] << 8) % ntargets];
	memset(&rec, 0, sizeof(rec));
	rec.data = room;
	rec.size = (int)make_record(t, data, size);
	n = fastfmt_print(t->prog, room, (uint32_t)rec.size, out,
			  sizeof(out) - 1);
	if (n < 0)
		return 0;
	if (n && out[n - 1] == '\n')
		n--;
	out[n] = 0;
	trace_seq_reset(&seq);
	tep_print_event(t->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	if (seq.len && seq.buffer[seq.len - 1] == '\n')
		seq.buffer[--seq.len] = 0;
	if (strcmp(out, seq.buffer)) {
		fprintf(stderr, "fuzz_fastfmt: %s:%s size %d\n fast [%s]\n"
			" tep  [%s]\n", t->ev->system, t->ev->name, rec.size,
			out, seq.buffer);
		abort();
	}
	return 0;
}
