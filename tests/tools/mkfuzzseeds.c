/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfuzzseeds - seeds for the fuzz targets that take pieces of a file
 * rather than a whole one (tests/fuzz/seed calls it).
 *
 * usage: mkfuzzseeds pages|formats IN DIR
 *        mkfuzzseeds helpers DIR
 *
 * pages    For the first 2 pages of every CPU of IN (top buffer and
 *          instances): DIR/NAME-bB-cC-pP, fuzz_pages' input: a config
 *          byte (bit 0 big endian, bit 1 4-byte commit word, as IN),
 *          a u32 parameter (little endian, P * 0x01020304), the page
 *          up to the end of its commit area (and a stored missed count).
 * formats  For the first page of every CPU of IN's first buffer (the
 *          top one, or the instance of a file that has only one):
 *          DIR/NAME-cC, fuzz_format's input: a selector byte (C), then
 *          entries "SYSTEM\nFORMAT TEXT" separated by \001 (the formats
 *          of the first 4 event ids of the page, and "cmdlines\n" with
 *          IN's saved cmdlines), a \0, then the page as above.  Only
 *          little-endian files with 8-byte commit words and 4096-byte
 *          pages are used (what fuzz_format builds).  DIR/NAME-cC-gen
 *          too, the same with selector bit 6 set: fuzz_format makes up
 *          print fmts of __print_array, __print_hex and __print_hex_str
 *          over each format's fields.
 * helpers  DIR/helpers-bB-lL-sS, fuzz_format's input for a format whose
 *          print fmt has __print_array, __print_hex and __print_hex_str
 *          over a static array, a __data_loc and a __rel_loc array, with
 *          counts of a field, expressions on fields and a dynamic array's
 *          length, and a page of three of its records, the second with
 *          forged counts: for each byte order (B 1: big endian) and long
 *          size (L 4: a 32-bit kernel's page header), with option sets S.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libfmt/tracedat.h"

static const char *dir, *base;

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "mkfuzzseeds: %s%s%s\n", what, msg ? ": " : "",
		msg ? msg : "");
	exit(1);
}

static FILE *create(const char *name)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s-%s", dir, base, name);
	fp = fopen(path, "wb");
	if (!fp)
		die(path, "cannot create");
	return fp;
}

/* The page up to its commit area's end (and a stored missed count). */
static size_t used_bytes(const struct tdat_file *f, const uint8_t *page,
			 uint32_t page_size)
{
	uint64_t commit = f->commit_size == 4 ? tdat_get32(f, page + 8) :
						tdat_get64(f, page + 8);
	uint64_t n = (uint64_t)f->page_header_size + (commit & 0x07FFFFFFu);

	if (commit & (1u << 30))
		n += (uint64_t)f->commit_size;
	return n < page_size ? (size_t)n : page_size;
}

static void page_seed(const struct tdat_file *f, const uint8_t *page,
		      uint32_t page_size, int b, int c, int p)
{
	uint8_t head[5];
	uint32_t param = (uint32_t)p * 0x01020304u;
	char name[64];
	FILE *fp;

	head[0] = (uint8_t)((f->big_endian ? 1 : 0) |
			    (f->commit_size == 4 ? 2 : 0));
	head[1] = (uint8_t)param;
	head[2] = (uint8_t)(param >> 8);
	head[3] = (uint8_t)(param >> 16);
	head[4] = (uint8_t)(param >> 24);
	snprintf(name, sizeof(name), "b%d-c%d-p%d", b, c, p);
	fp = create(name);
	fwrite(head, 1, sizeof(head), fp);
	fwrite(page, 1, used_bytes(f, page, page_size), fp);
	if (fclose(fp))
		die(name, "write error");
}

/* Call fn for the first n pages of CPU idx of buffer b. */
static void each_page(struct tdat_file *f, int b, int idx, int n,
		      void (*fn)(struct tdat_file *, int, int, int,
				 const uint8_t *))
{
	struct tdat_error err;
	struct tdat_cpu_reader *r = tdat_cpu_open(f, b, idx, &err);
	const uint8_t *page;
	uint64_t off;
	int p;

	if (!r)
		die(err.msg, NULL);
	for (p = 0; p < n && tdat_cpu_next_page(r, &page, &off, &err) == 1;
	     p++)
		fn(f, b, idx, p, page);
	tdat_cpu_close(r);
}

static void one_page(struct tdat_file *f, int b, int idx, int p,
		     const uint8_t *page)
{
	page_seed(f, page, f->buffers[b].page_size, b,
		  f->buffers[b].cpus[idx].cpu, p);
}

/* ---- formats ---- */

/* The format texts whose ID the page's first events have. */
struct wanted {
	int ids[4];
	int n;
	FILE *fp;
	int written;
};

static int format_id(const char *text, size_t len)
{
	const char *p = memmem(text, len, "\nID: ", 5);

	return p ? atoi(p + 5) : -1;
}

static int put_format(void *ctx, const char *system, const char *text,
		      size_t len)
{
	struct wanted *w = ctx;
	int id = format_id(text, len), k;

	for (k = 0; k < w->n; k++) {
		if (w->ids[k] != id)
			continue;
		if (w->written++)
			fputc(1, w->fp);
		fprintf(w->fp, "%s\n", system);
		fwrite(text, 1, len, w->fp);
	}
	return 0;
}

/* A file of the last boot's pages (fixtures/lastboot/): its
 * LAST_BOOT_INFO text, and a few kallsyms for it to move (the small
 * variants have none). */
static void last_boot_entries(const struct tdat_file *f, struct wanted *w)
{
	const char *lb, *colon;

	if (!tdat_opt_string(f, TDAT_OPT_LAST_BOOT_INFO, &lb) ||
	    !(colon = strchr(lb, ':')))
		return;
	fprintf(w->fp, "%slastboot\n%s\001kallsyms\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81001000 T do_sys_openat2\n"
		"ffffffffc0600000 t virtblk_probe\t[virtio_blk]\n",
		w->written++ ? "\001" : "", colon + 1);
}

static void format_seed(struct tdat_file *f, int b, int idx, int p,
			const uint8_t *page)
{
	struct tdat_page_iter it;
	struct tdat_event ev;
	struct tdat_error err;
	struct wanted w = { .n = 0 };
	const char *text;
	size_t len;
	char name[32];
	int k, id;

	if (tdat_page_iter_init(&it, f, page, f->page_size))
		return;
	while (w.n < 4 && tdat_page_iter_next(&it, &ev) == 1) {
		id = ev.size >= 2 ? (int)tdat_get16(f, ev.data) : -1;
		for (k = 0; k < w.n && w.ids[k] != id; k++)
			;
		if (k == w.n)
			w.ids[w.n++] = id;
	}
	snprintf(name, sizeof(name), "c%d", f->buffers[b].cpus[idx].cpu);
	w.fp = create(name);
	fputc(f->buffers[b].cpus[idx].cpu, w.fp);
	if (tdat_each_format(f, put_format, &w, &err) < 0)
		die(err.msg, NULL);
	if (!tdat_meta_text(f, TDAT_META_CMDLINES, &text, &len, &err) && len) {
		fprintf(w.fp, "%scmdlines\n", w.written++ ? "\001" : "");
		fwrite(text, 1, len, w.fp);
	}
	last_boot_entries(f, &w);
	fputc(0, w.fp);
	fwrite(page, 1, used_bytes(f, page, f->page_size), w.fp);
	if (fclose(w.fp))
		die(name, "write error");
}

/* The same seed with selector bit 6: print fmts made up of helpers. */
static void gen_seed(struct tdat_file *f, int b, int idx, int p,
		     const uint8_t *page)
{
	char from[4096], to[4096], name[32];
	FILE *in, *out;
	int c;

	format_seed(f, b, idx, p, page);
	snprintf(name, sizeof(name), "c%d", f->buffers[b].cpus[idx].cpu);
	snprintf(from, sizeof(from), "%s/%s-%s", dir, base, name);
	snprintf(to, sizeof(to), "%s/%s-%s-gen", dir, base, name);
	in = fopen(from, "rb");
	out = fopen(to, "wb");
	if (!in || !out)
		die(to, "cannot create");
	c = fgetc(in);
	fputc(c | 0x40, out);
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(in);
	if (fclose(out))
		die(to, "write error");
}

/* ---- helpers ---- */

static const char helpers_format[] =
	"test\nname: helpers\nID: 500\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned short len;\toffset:12;\tsize:2;\tsigned:0;\n"
	"\tfield:u64 vals[2];\toffset:16;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc u8[] buf;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc u16[] rel;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"a=%s h=%s s=%s d=%s r=%s\", "
	"__print_array(REC->vals, REC->n, 8), "
	"__print_hex(REC->vals, REC->len), "
	"__print_hex_str(__get_dynamic_array(buf), REC->len - REC->n), "
	"__print_array(__get_dynamic_array(buf), "
	"__get_dynamic_array_len(buf) / 2, 2), "
	"__print_array(__get_rel_dynamic_array(rel), REC->n * 2 + 1, 2)\n"
	"\001cmdlines\n42 prog\n";

/* One record of helpers_format at p (52 bytes): n and len as given. */
static void helpers_record(const struct tdat_file *f, uint8_t *p,
			   uint32_t n, uint16_t len)
{
	memset(p, 0, 52);
	tdat_put16(f, p, 500);
	tdat_put32(f, p + 4, 42);
	tdat_put32(f, p + 8, n);
	tdat_put16(f, p + 12, len);
	tdat_put64(f, p + 16, 0x1111111111111111ull);
	tdat_put64(f, p + 24, 0x2222222222222222ull);
	tdat_put32(f, p + 32, 6u << 16 | 40);	/* buf: 6 bytes at 40 */
	memcpy(p + 40, "\x0a\x0b\x0c\x0d\x0e\x0f", 6);
	tdat_put32(f, p + 36, 4u << 16 | 6);	/* rel: 4 bytes at 46 */
	tdat_put16(f, p + 46, 5);
	tdat_put16(f, p + 48, 6);
}

/* The page: three records 1000 ns apart, their header words in the
 * file's layout; its length. */
static size_t helpers_page(const struct tdat_file *f, uint8_t *page)
{
	static const struct { uint32_t n; uint16_t len; } recs[] = {
		{ 2, 3 }, { 0x7fffffff, 0xffff }, { 0xffffffff, 7 },
	};
	size_t hdr = (size_t)f->page_header_size, pos = hdr;
	uint32_t word;
	size_t k;

	memset(page, 0, 4096);
	tdat_put64(f, page, 1000000);
	for (k = 0; k < sizeof(recs) / sizeof(recs[0]); k++) {
		/* type_len 13 (52 bytes), time delta 1000 */
		word = f->big_endian ? 13u << 27 | 1000 : 1000u << 5 | 13;
		tdat_put32(f, page + pos, word);
		helpers_record(f, page + pos + 4, recs[k].n, recs[k].len);
		pos += 56;
	}
	if (f->commit_size == 4)
		tdat_put32(f, page + 8, (uint32_t)(pos - hdr));
	else
		tdat_put64(f, page + 8, pos - hdr);
	return pos;
}

static void helpers_seeds(void)
{
	static const int sets[] = { 0, 1, 3, 2, 8 };	/* fuzz_format's */
	struct tdat_file f;
	uint8_t page[4096];
	char name[64];
	size_t len, k;
	int big, l4;
	FILE *fp;

	base = "helpers";
	for (big = 0; big < 2; big++)
		for (l4 = 0; l4 < 2; l4++)
			for (k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
				memset(&f, 0, sizeof(f));
				f.big_endian = big;
				f.commit_size = l4 ? 4 : 8;
				f.page_header_size = l4 ? 12 : 16;
				len = helpers_page(&f, page);
				snprintf(name, sizeof(name), "b%d-l%d-s%d", big,
					 l4 ? 4 : 8, sets[k]);
				fp = create(name);
				fputc(sets[k] | big << 4 | l4 << 5, fp);
				fwrite(helpers_format, 1,
				       sizeof(helpers_format) - 1, fp);
				fputc(0, fp);
				fwrite(page, 1, len, fp);
				if (fclose(fp))
					die(name, "write error");
			}
}

int main(int argc, char **argv)
{
	struct tdat_error err;
	struct tdat_file *f;
	const char *slash;
	int b, i, pages;

	if (argc == 3 && !strcmp(argv[1], "helpers")) {
		dir = argv[2];
		helpers_seeds();
		return 0;
	}
	if (argc != 4 || (strcmp(argv[1], "pages") &&
			  strcmp(argv[1], "formats")))
		die("usage: mkfuzzseeds pages|formats IN DIR, or helpers DIR",
		    NULL);
	pages = !strcmp(argv[1], "pages");
	dir = argv[3];
	slash = strrchr(argv[2], '/');
	base = slash ? slash + 1 : argv[2];
	f = tdat_open(argv[2], &err);
	if (!f)
		die(err.msg, NULL);
	if (!pages && (f->big_endian || f->commit_size != 8 ||
		       f->page_size != 4096 || !f->nbuffers)) {
		tdat_close(f);
		return 0;
	}
	for (b = 0; b < (pages ? f->nbuffers : 1); b++)
		for (i = 0; !f->buffers[b].latency &&
			    i < f->buffers[b].ncpus; i++)
			each_page(f, b, i, pages ? 2 : 1,
				  pages ? one_page : gen_seed);
	tdat_close(f);
	return 0;
}
