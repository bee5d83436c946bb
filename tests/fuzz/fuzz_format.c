/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_format.c - libFuzzer target for event format texts and the
 * events they describe (`make fuzz`): what report and check-events hand
 * to libtraceevent (convert/tepfmt, the stream's tep_load.c, recview.c,
 * print.c, json.c, funcgraph.c, check_events.c).
 *
 * Input: a selector byte; entries "SYSTEM\nTEXT" separated by \001 up
 * to the first \0 (SYSTEM "ftrace" for ftrace's own formats, or one of
 * "cmdlines", "kallsyms", "printk" for those texts); then one page of
 * events (cut or zero-padded to 4096 bytes).  A v6 file is written from
 * them with libfmt's writer (one CPU, that page), then reported with one
 * of the option sets below and, for odd selectors, checked by
 * check-events.  Output goes to /dev/null; any crash, leak or sanitizer
 * report is a bug.
 *
 * The selector: bits 0-2 the option set, bit 3 worker threads, bit 0
 * check-events too; bit 4 a big-endian file, bit 5 a 32-bit kernel's
 * (4-byte commit word and longs, 12-byte page header), else x86_64's;
 * bits 6-7, when not 0, replace every event format's print fmt by one of
 * __print_array, __print_hex and __print_hex_str over its fields
 * (genfmt.c): their counts come from the page's records.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/cmds.h"
#include "libfmt/bytes.h"
#include "libfmt/metabuild.h"
#include "tests/fuzz/scratch.h"
#include "tests/fuzz/genfmt.h"
#include "convert/tepfmt/tepfmt.h"

#define PAGE 4096

/* x86_64's, and a 32-bit kernel's */
static const char header_page8[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_page4[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static const char *const option_sets[][6] = {
	{ NULL },
	{ "-R", NULL },
	{ "--json", NULL },
	{ "-l", NULL },
	{ "--events", NULL },
	{ "-E", "-P", "-f", NULL },
	{ "--layout", "3.4", NULL },
	{ "-F", "common_pid > 0", NULL },
};
#define NSETS (sizeof(option_sets) / sizeof(option_sets[0]))

/* The parts of the v6 file, in the making. */
struct parts {
	struct tdat_bytes headers, ftrace, events, kallsyms, printk, cmdlines;
	struct tdat_bytes lastboot;	/* "boot_map:" TEXT, or empty */
	uint32_t nftrace, nsys;
	const struct tdat_file *f;
	int failed;
	unsigned gen;		/* selector bits 6-7: helpers made up */
};

static void add(struct parts *p, struct tdat_bytes *b, const void *d,
		size_t n)
{
	p->failed |= tdat_bytes_add(b, d, n);
}

static void add_num(struct parts *p, struct tdat_bytes *b, uint64_t v,
		    int width)
{
	uint8_t w[8];

	if (width == 4)
		tdat_put32(p->f, w, (uint32_t)v);
	else
		tdat_put64(p->f, w, v);
	add(p, b, w, (size_t)width);
}

/* One entry "SYSTEM\nTEXT" into its part. */
static void add_entry(struct parts *p, const char *e, size_t n)
{
	const char *nl = memchr(e, '\n', n);
	size_t sl = nl ? (size_t)(nl - e) : n, tl = nl ? n - sl - 1 : 0;
	const char *text = nl ? nl + 1 : e + n;

	if (sl == 6 && !memcmp(e, "ftrace", 6)) {
		add_num(p, &p->ftrace, tl, 8);
		add(p, &p->ftrace, text, tl);
		p->nftrace++;
	} else if (sl == 8 && !memcmp(e, "cmdlines", 8)) {
		add(p, &p->cmdlines, text, tl);
	} else if (sl == 8 && !memcmp(e, "kallsyms", 8)) {
		add(p, &p->kallsyms, text, tl);
	} else if (sl == 6 && !memcmp(e, "printk", 6)) {
		add(p, &p->printk, text, tl);
	} else if (sl == 8 && !memcmp(e, "lastboot", 8)) {
		p->lastboot.len = 0;
		add(p, &p->lastboot, "boot_map:", 9);
		add(p, &p->lastboot, text, tl);
		add(p, &p->lastboot, "", 1);
	} else {	/* a system of one format */
		size_t gl = 0;
		char *g = p->gen ? genfmt_helpers(text, tl, p->gen, &gl) : NULL;

		add(p, &p->events, e, sl);
		add(p, &p->events, "", 1);
		add_num(p, &p->events, 1, 4);
		add_num(p, &p->events, g ? gl : tl, 8);
		add(p, &p->events, g ? g : text, g ? gl : tl);
		p->nsys++;
		free(g);
	}
}

static void add_headers(struct parts *p)
{
	const char *hp = p->f->commit_size == 4 ? header_page4 : header_page8;
	size_t hl = strlen(hp);

	add(p, &p->headers, "header_page", 12);
	add_num(p, &p->headers, hl, 8);
	add(p, &p->headers, hp, hl);
	add(p, &p->headers, "header_event", 13);
	add_num(p, &p->headers, sizeof(header_event) - 1, 8);
	add(p, &p->headers, header_event, sizeof(header_event) - 1);
}

/* Part m of f: count (width bytes, 0 for none), then body. */
static void set_part(struct parts *p, struct tdat_file *f, enum tdat_meta m,
		     uint64_t count, int width, struct tdat_bytes *body)
{
	struct tdat_bytes b = { NULL, 0, 0 };
	struct tdat_blob blob;

	if (width)
		add_num(p, &b, count, width);
	add(p, &b, body->data, body->len);
	blob.data = b.data;
	blob.len = b.len;
	tdat_meta_set(f, m, &blob);
	free(blob.data);	/* NULL when taken over */
	tdat_bytes_free(body);
}

/* The LAST_BOOT_INFO option of text (NUL-ended). */
static int last_boot(struct tdat_file *f, const struct tdat_bytes *text)
{
	struct tdat_option o = { TDAT_OPT_LAST_BOOT_INFO,
				 (uint32_t)text->len, text->data };

	return tdat_add_option(f, &o);
}

/* The metadata of the file: the parts from the entries, the layout
 * from the selector. */
static struct tdat_file *make_meta(const uint8_t *text, size_t n, int sel)
{
	int long4 = (sel >> 5) & 1;
	struct tdat_error err;
	struct tdat_file *f = tdat_meta_new(6, (sel >> 4) & 1, long4 ? 4 : 8,
					    PAGE, &err);
	struct parts p;
	const uint8_t *e = text, *end = text + n, *sep;

	if (!f)
		return NULL;
	memset(&p, 0, sizeof(p));
	p.f = f;
	p.gen = (unsigned)sel >> 6;
	f->commit_size = long4 ? 4 : 8;
	f->page_header_size = long4 ? 12 : 16;
	add_headers(&p);
	for (; e <= end; e = sep + 1) {
		sep = memchr(e, 1, (size_t)(end - e));
		if (!sep)
			sep = end;
		add_entry(&p, (const char *)e, (size_t)(sep - e));
	}
	set_part(&p, f, TDAT_META_HEADERS, 0, 0, &p.headers);
	set_part(&p, f, TDAT_META_FTRACE, p.nftrace, 4, &p.ftrace);
	set_part(&p, f, TDAT_META_EVENTS, p.nsys, 4, &p.events);
	set_part(&p, f, TDAT_META_KALLSYMS, p.kallsyms.len, 4, &p.kallsyms);
	set_part(&p, f, TDAT_META_PRINTK, p.printk.len, 4, &p.printk);
	set_part(&p, f, TDAT_META_CMDLINES, p.cmdlines.len, 8, &p.cmdlines);
	f->cpu_count = 1;
	if (p.failed || tdat_meta_add_buffer(f, "", "local", PAGE) < 0 ||
	    tdat_meta_add_cpu(f, 0, 0) || (p.lastboot.len &&
	    (last_boot(f, &p.lastboot) ||
	     tdat_meta_add_buffer(f, "boot_map", "local", PAGE) < 0 ||
	     tdat_meta_add_cpu(f, 1, 0)))) {
		tdat_bytes_free(&p.lastboot);
		tdat_close(f);
		return NULL;
	}
	tdat_bytes_free(&p.lastboot);
	return f;
}

/* The file at path: f's metadata, one CPU holding page. */
static int write_file(const char *path, const struct tdat_file *f,
		      const uint8_t *page)
{
	struct tdat_write_opts o = { .version = 6 };
	struct tdat_error err;
	struct tdat_writer *w = tdat_writer_open(path, f, &o, &err);

	if (!w)
		return -1;
	/* the page is the last buffer's: boot_map's with a LAST_BOOT_INFO */
	if (tdat_writer_begin_cpu(w, f->nbuffers - 1, 0, &err) ||
	    tdat_writer_put_pages(w, page, PAGE, &err) ||
	    tdat_writer_end_cpu(w, &err)) {
		tdat_writer_abort(w);
		return -1;
	}
	return tdat_writer_close(w, &err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	scratch_quiet_stdout();
	return 0;
}

/* The texts as a 32-bit host rewrites their %p (tepfmt's wideptr.c),
 * which this 64-bit host never does itself: the rewriting alone. */
static void widen_texts(const char *text, size_t len)
{
	size_t n;
	char *w = tepfmt_widen(text, len, &n);

	if (w && (n != strlen(w)))
		abort();	/* the length it says is the text's */
	free(w);
	free(tepfmt_widen_printk(text, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[12] = { "report" }, *path;
	const char *check[] = { "check-events", "-i", NULL, NULL };
	const uint8_t *nul;
	uint8_t page[PAGE];
	struct tdat_file *f;
	size_t tl;
	int sel, n = 1, k;

	if (size < 1)
		return 0;
	sel = data[0];
	nul = memchr(data + 1, 0, size - 1);
	tl = nul ? (size_t)(nul - data - 1) : size - 1;
	memset(page, 0, sizeof(page));
	if (nul)
		memcpy(page, nul + 1, size - tl - 2 < PAGE ? size - tl - 2 :
							     PAGE);
	widen_texts((const char *)data + 1, tl);
	f = make_meta(data + 1, tl, sel);
	path = scratch_path(0, "fmt.dat");
	if (!f || write_file(path, f, page)) {
		if (f)
			tdat_close(f);
		scratch_clean();
		return 0;
	}
	tdat_close(f);
	setenv("TDAT_REPORT_THREADS", sel / NSETS % 2 ? "2" : "0", 1);
	for (k = 0; option_sets[sel % NSETS][k]; k++)
		args[n++] = option_sets[sel % NSETS][k];
	args[n++] = "-i";
	args[n++] = path;
	args[n] = NULL;
	scratch_run(cmd_report, args);
	if (sel & 1) {
		check[2] = path;
		scratch_run(cmd_check_events, check);
	}
	scratch_clean();
	return 0;
}
