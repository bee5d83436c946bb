/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * split.c - the split applet: cut a trace.dat into pieces.  Options and
 * piece names follow trace-cmd 3.4's split; the work is in
 * convert/split/ (split.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "cmds/outopts.h"
#include "cmds/progress.h"
#include "convert/split/split.h"
#include "libfmt/stored.h"

static const char usage[] =
"usage: tdat split [OPTIONS] [START [END]]\n"
"\n"
"Cut a trace.dat into pieces.  Every event between START and END lands in\n"
"exactly one piece; each piece is a complete trace.dat with the input's\n"
"metadata and options.  START and END are seconds of the trace clock,\n"
"e.g. 75678.923853 (default: the whole file).\n"
"\n"
"  -i FILE             input file (default trace.dat)\n"
"  -o FILE             output file; with -r the pieces are FILE.0001,\n"
"                      FILE.0002, ... (default: the input name; a single\n"
"                      piece named like the input gets .1 appended)\n"
"  -s N                N seconds per piece\n"
"  -m N                N milliseconds per piece\n"
"  -u N                N microseconds per piece\n"
"  -e N                N events per piece\n"
"  -p N                N input pages per CPU per piece (implies -c)\n"
"  -r                  repeat: pieces until END or the end of the data\n"
"  --dat-suffix        pieces end in .dat, which KernelShark asks for:\n"
"                      FILE.0001.dat (FILE: -o without its .dat), and a\n"
"                      single piece named like the input FILE.1.dat\n"
"  -c                  count -s/-m/-u/-e per CPU\n"
"  -C CPU              keep the events of this CPU only\n"
"  --top               keep the top buffer\n"
"  -b NAME             after --top: store it as instance NAME\n"
"  -B NAME             keep instance NAME (repeatable)\n"
"  -t                  after -B NAME: make that instance the top buffer\n"
"  --file-version 6|7  output version (default: the input's)\n"
"  --compression ALG   none, zlib, zstd or any (default: the input's)\n"
"  -q                  no progress line\n"
"  -h, --help          show this help\n"
"\n"
"Without --top or -B every buffer is kept.  Pages wholly inside a piece\n"
"are copied as they are (compressed chunks too, when the compression\n"
"stays); only pages at a cut are re-encoded.  If a piece cannot be\n"
"written, the pieces already written are removed.\n";

enum { OPT_TOP = OPT_OUTOPTS_END, OPT_DAT_SUFFIX };

static const struct option long_opts[] = {
	{ "top", no_argument, NULL, OPT_TOP },
	{ "dat-suffix", no_argument, NULL, OPT_DAT_SUFFIX },
	{ "file-version", required_argument, NULL, OPT_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A buffer the user chose: the input name and the output name. */
struct pick {
	const char *in_name;	/* "" = top */
	const char *out_name;
};

struct args {
	const char *in;
	const char *out;
	char unit;		/* 's', 'm', 'u', 'e', 'p' or 0 */
	uint64_t amount;
	int repeat, per_cpu, only_cpu;
	int dat_suffix;		/* --dat-suffix: NAME.0001.dat */
	int quiet;		/* -q: no progress line */
	int npicks;
	struct pick *picks;
	int last_pick;		/* index of the last --top/-B, -1 */
	struct outopts opts;	/* version 0 = the input's */
	const char *times[2];
	int ntimes;
};

/* A decimal count > 0, nothing else. */
static int parse_count(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || *s == '-' || !*v ? -1 : 0;
}

/*
 * Seconds with up to 9 decimals, read exactly: trace-cmd multiplies a
 * double by 1e9, which can land 1 ns short ("540.138869261" gives
 * 540138869260); here it gives the nanosecond written.  Further
 * decimals are cut off.
 */
static int parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (!*p || *p == '.')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (digits < 9)
				frac = frac * 10 + (uint64_t)(*p - '0');
	if (*p)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static int add_pick(struct args *a, const char *in_name)
{
	struct pick *p = realloc(a->picks, (a->npicks + 1) * sizeof(*p));

	if (!p)
		return usage_error("out of memory");
	a->picks = p;
	p[a->npicks].in_name = in_name;
	p[a->npicks].out_name = in_name;
	a->last_pick = a->npicks++;
	return 0;
}

static int set_unit(struct args *a, int c, const char *arg)
{
	if (a->unit)
		return usage_error("only one of -s, -m, -u, -e and -p");
	if (parse_count(arg, &a->amount))
		return usage_error("-%c: \"%s\" is not a number above 0", c,
				   arg);
	a->unit = (char)c;
	return 0;
}

static int parse_option(struct args *a, int c, const char *arg)
{
	uint64_t v;
	int r;

	switch (c) {
	case 'i':
		a->in = arg;
		return 0;
	case 'o':
		a->out = arg;
		return 0;
	case 's': case 'm': case 'u': case 'e': case 'p':
		return set_unit(a, c, arg);
	case 'r':
		a->repeat = 1;
		return 0;
	case 'q':
		a->quiet = 1;
		return 0;
	case 'c':
		a->per_cpu = 1;
		return 0;
	case 'C':
		errno = 0;
		if (!strcmp(arg, "0"))
			v = 0;
		else if (parse_count(arg, &v) || v > 65535)
			return usage_error("-C: \"%s\" is not a CPU", arg);
		a->only_cpu = (int)v;
		return 0;
	case OPT_TOP:
		return add_pick(a, "");
	case OPT_DAT_SUFFIX:
		a->dat_suffix = 1;
		return 0;
	case 'B':
		return add_pick(a, arg);
	case 'b':
		if (a->last_pick < 0 || a->picks[a->last_pick].in_name[0])
			return usage_error("-b NAME goes after --top");
		a->picks[a->last_pick].out_name = arg;
		return 0;
	case 't':
		if (a->last_pick < 0 || !a->picks[a->last_pick].in_name[0])
			return usage_error("-t goes after -B NAME");
		a->picks[a->last_pick].out_name = "";
		return 0;
	default:
		r = outopt_parse(&a->opts, c, arg);
		return r < 0 ? usage_error("unknown option") : r;
	}
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c, r;

	memset(a, 0, sizeof(*a));
	a->in = "trace.dat";
	a->only_cpu = -1;
	a->last_pick = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:o:s:m:u:e:p:rcC:B:b:tq",
				long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?' || c == ':')
			return getopt_error(c, argv, optind, long_opts);
		r = parse_option(a, c, optarg);
		if (r)
			return r;
	}
	for (; optind < argc; optind++) {
		if (a->ntimes == 2)
			return usage_error("too many arguments (\"%s\")",
					   argv[optind]);
		a->times[a->ntimes++] = argv[optind];
	}
	return 0;
}

/* The output buffers from --top/-B/-b/-t, or every buffer. */
static int pick_buffers(const struct args *a, const struct tdat_file *f,
			struct split_opts *o)
{
	int i, j, n = a->npicks ? a->npicks : f->nbuffers, tops = 0;

	o->buffers = calloc(n ? (size_t)n : 1, sizeof(*o->buffers));
	if (!o->buffers)
		return usage_error("out of memory");
	for (i = 0; i < n; i++) {
		struct split_buffer *b = &o->buffers[i];

		if (!a->npicks) {
			b->in_buf = i;
			b->name = f->buffers[i].name;
			continue;
		}
		for (j = 0; j < f->nbuffers; j++)
			if (!strcmp(f->buffers[j].name, a->picks[i].in_name))
				break;
		if (j == f->nbuffers) {
			if (!a->picks[i].in_name[0])
				return usage_error("%s has no top buffer",
						   f->path);
			return usage_error("%s has no instance \"%s\"", f->path,
					   a->picks[i].in_name);
		}
		b->in_buf = j;
		b->name = a->picks[i].out_name;
	}
	for (i = 0; i < n; i++)
		tops += !o->buffers[i].name[0];
	if (tops > 1)
		return usage_error("only one buffer can be the top buffer");
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(o->buffers[i].name, o->buffers[j].name))
				return usage_error("buffer \"%s\" is chosen"
						   " twice", o->buffers[i].name);
	}
	/* the top buffer goes first */
	for (i = 1; i < n; i++) {
		if (!o->buffers[i].name[0]) {
			struct split_buffer t = o->buffers[i];

			memmove(&o->buffers[1], &o->buffers[0],
				(size_t)i * sizeof(t));
			o->buffers[0] = t;
		}
	}
	o->nbuffers = n;
	return 0;
}

static int pick_output(const struct args *a, const struct tdat_file *f,
		       struct split_opts *o)
{
	const char *c = a->opts.compression;

	o->version = a->opts.version ? a->opts.version : f->version;
	if (!c)
		c = o->version == 7 && f->version == 7 ?
		    tdat_codec_name(f->codec) : "none";
	return outopt_codec(&a->opts, o->version, c, &o->codec);
}

static int pick_range(const struct args *a, struct split_opts *o)
{
	static const uint64_t ns[] = { ['s'] = 1000000000ull,
				       ['m'] = 1000000ull, ['u'] = 1000ull };

	if (a->ntimes > 0 && parse_seconds(a->times[0], &o->start))
		return usage_error("START \"%s\" is not a time in seconds",
				   a->times[0]);
	if (a->ntimes > 1 && parse_seconds(a->times[1], &o->end))
		return usage_error("END \"%s\" is not a time in seconds",
				   a->times[1]);
	o->has_start = a->ntimes > 0;
	o->has_end = a->ntimes > 1;
	if (o->has_end && o->end < o->start)
		return usage_error("END is before START");
	o->repeat = a->repeat;
	o->per_cpu = a->per_cpu || a->unit == 'p';
	o->only_cpu = a->only_cpu;
	o->amount = a->amount;
	switch (a->unit) {
	case 's': case 'm': case 'u':
		if (a->amount > UINT64_MAX / ns[(int)a->unit])
			return usage_error("-%c %llu is too long", a->unit,
					   (unsigned long long)a->amount);
		o->unit = SPLIT_TIME;
		o->amount = a->amount * ns[(int)a->unit];
		break;
	case 'e':
		o->unit = SPLIT_EVENTS;
		break;
	case 'p':
		o->unit = SPLIT_PAGES;
		break;
	default:
		o->unit = SPLIT_WHOLE;
	}
	return 0;
}

/* ---- piece names: OUT.0001... with -r, else OUT (or OUT.1 = input) ---- */

struct naming {
	const char *base;
	int numbered;
	int dot1;
	int dat_suffix;		/* base without its ".dat"; names end in it */
};

static void piece_name(void *ctx, int n, char *buf, size_t cap)
{
	const struct naming *nm = ctx;
	size_t len = strlen(nm->base);
	const char *end = "";

	if (nm->dat_suffix) {
		if (len > 4 && !strcmp(nm->base + len - 4, ".dat"))
			len -= 4;
		end = ".dat";
	}
	if (nm->numbered)
		snprintf(buf, cap, "%.*s.%04d%s", (int)len, nm->base, n, end);
	else if (nm->dot1 || *end)
		snprintf(buf, cap, "%.*s%s%s", (int)len, nm->base,
			 nm->dot1 ? ".1" : "", end);
	else
		snprintf(buf, cap, "%s", nm->base);
}

/* No piece may overwrite the input. */
static int check_names(const char *in, struct split_opts *o, int n)
{
	char name[4096];
	int k;

	for (k = 1; k <= n; k++) {
		o->piece_name(o->name_ctx, k, name, sizeof(name));
		if (same_file(in, name))
			return usage_error("piece \"%s\" would overwrite the"
					   " input", name);
	}
	return 0;
}

static int run(struct args *a, struct tdat_file *f)
{
	struct split_opts o;
	struct split_plan p;
	struct naming nm;
	struct tdat_error err;
	struct progress prog;
	int r, written;

	memset(&o, 0, sizeof(o));
	if (pick_buffers(a, f, &o) || pick_output(a, f, &o) ||
	    pick_range(a, &o)) {
		free(o.buffers);
		return 2;
	}
	nm.base = a->out ? a->out : a->in;
	nm.numbered = a->repeat;
	nm.dot1 = !a->repeat && same_file(nm.base, a->in);
	nm.dat_suffix = a->dat_suffix;
	o.piece_name = piece_name;
	o.name_ctx = &nm;
	r = split_plan(f, &o, &p, &err);
	if (r) {
		job_failed(&err, &a->in, 1);
		free(o.buffers);
		return 1;
	}
	r = check_names(a->in, &o, p.npieces);
	progress_start(&prog, a->quiet);
	o.progress = show_progress;
	o.progress_ctx = &prog;
	if (!r && split_write(f, &o, &p, &written, &err)) {
		end_progress(&prog);
		r = job_failed(&err, &a->in, 1);
	}
	end_progress(&prog);
	split_plan_free(&p);
	free(o.buffers);
	return r;
}

/*
 * The input, its compressed metadata sections left as stored: every
 * piece gets them as they are (the v7 writer copies stored bytes), so
 * kallsyms is neither decompressed nor compressed again per piece.
 * They are still checked here, as tdat_open would.
 */
static struct tdat_file *open_input(const char *path, struct tdat_error *err)
{
	struct tdat_file *f = tdat_open_flags(path, TDAT_OPEN_LAZY_META, err);
	int m;

	for (m = 0; f && tdat_note(f, m); m++)
		fprintf(stderr, "tdat split: warning: %s\n", tdat_note(f, m));
	for (m = 0; f && m < TDAT_META_COUNT; m++) {
		if (tdat_meta_check(f, m, err)) {
			tdat_close(f);
			return NULL;
		}
	}
	return f;
}

int cmd_split(int argc, char **argv)
{
	struct tdat_error err;
	struct tdat_file *f;
	struct args a;
	int r;

	cmd_name = "split";
	discard_outputs_on_signals();
	r = parse_args(&a, argc, argv);
	if (r) {
		free(a.picks);
		return r == 1 ? 0 : r;
	}
	f = open_input(a.in, &err);
	if (!f) {
		job_failed(&err, &a.in, 1);
		free(a.picks);
		return 1;
	}
	r = run(&a, f);
	tdat_close(f);
	free(a.picks);
	return r;
}
