/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pfencode.c - the Perfetto export's two ways of writing an event
 * (convert/perfetto/encode.c): the fast way, for maps whose fields are
 * all numbers at fixed places, must write the bytes the general way
 * writes, and name the same pids and symbols.  Random maps (types,
 * sizes, signs, places, arrays, field numbers, either byte order) over
 * random records, some cut short of a field (the general way leaves it
 * out).  Texts too: char arrays, __data_loc and __rel_loc ones, some
 * not ASCII, some too long for the fast way, some pointing past the
 * record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/units.h"
#include "convert/perfetto/perfetto_internal.h"

#define FIELDS 8
#define RECORD 160

struct case_map {
	struct pf_map m;
	struct pf_field f[FIELDS];
	struct tep_format_field tf[FIELDS];
};

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A text field: a char array in place, a __data_loc or a __rel_loc
 * one (its word written into the record by place_text). */
static void random_text(struct pf_field *pf, struct tep_format_field *tf,
			uint64_t *s)
{
	pf->type = PT_STR;
	pf->place.k.read = FIELD_TEXT;
	pf->names = pf->symbol = 0;
	tf->flags = TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING;
	switch (next(s) % 3) {
	case 0:
		tf->size = (int)(next(s) % 24);	/* 0: runs to the end */
		pf->place.k.fixed = tf->size > 0;
		break;
	case 1:
		tf->flags |= TEP_FIELD_IS_RELATIVE;
		/* fall through */
	default:
		tf->flags |= TEP_FIELD_IS_DYNAMIC;
		tf->size = 4;
		pf->place.k.fixed = 0;
		break;
	}
}

static void random_field(struct pf_field *pf, struct tep_format_field *tf,
			 int i, uint64_t *s)
{
	static const int sizes[] = { 1, 2, 4, 8 };
	static const enum pf_type types[] = {
		PT_I32, PT_I64, PT_U32, PT_U64, PT_S64, PT_U64_REP,
	};

	memset(pf, 0, sizeof(*pf));
	memset(tf, 0, sizeof(*tf));
	tf->name = (char *)"f";
	tf->size = sizes[next(s) % 4];
	pf->place.f = tf;
	pf->place.k.read = FIELD_INT;
	pf->place.k.fixed = 1;
	pf->place.k.size = tf->size;
	pf->place.k.is_signed = (int)(next(s) % 2);
	pf->type = types[next(s) % 6];
	if (pf->type == PT_U64_REP && next(s) % 2) {	/* an array */
		pf->place.k.read = FIELD_LIST;
		pf->place.k.es = (int)(next(s) % 9);	/* 3, 5...: none written */
		tf->size *= (int)(next(s) % 7);	/* 0 to 6 elements */
	}
	if (next(s) % 5 == 0)
		random_text(pf, tf, s);
	tf->offset = (int)(next(s) % (RECORD - (unsigned)tf->size + 1));
	pf->num = next(s) % 4 ? (uint32_t)i + 1 : (uint32_t)(next(s) % 600) + 1;
	pf->names = next(s) % 5 == 0;
	pf->symbol = next(s) % 7 == 0;
}

static void random_map(struct case_map *c, uint64_t *s)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->m.form = next(s) % 2 ? FORM_TYPED : FORM_SELF;
	c->m.id = next(s) % 3 ? (uint32_t)(next(s) % 500) + 1 :
				(uint32_t)(65536 + next(s) % 65536);
	c->m.desc_sent = 1;	/* the descriptor is not what is compared */
	c->m.n = (int)(next(s) % (FIELDS + 1));
	c->m.fields = c->f;
	for (i = 0; i < c->m.n; i++)
		random_field(&c->f[i], &c->tf[i], i, s);
}

static int same_bits(const uint8_t *a, const uint8_t *b)
{
	if (!a || !b)
		return a == b;
	return !memcmp(a, b, PF_NAMED_PIDS / 8);
}

static int same_syms(const struct pf_syms *a, const struct pf_syms *b)
{
	size_t i, j;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->cap; i++) {
		if (a->addr[i] < 2)
			continue;
		for (j = 0; j < b->cap && b->addr[j] != a->addr[i]; j++)
			;
		if (j == b->cap)
			return 0;
	}
	return 1;
}

/* Mostly letters, now and then a NUL or a byte past ASCII. */
static uint8_t random_byte(uint64_t *s)
{
	uint64_t r = next(s) % 64;

	if (r == 0)
		return 0;
	if (r == 1)
		return (uint8_t)(0x80 + next(s) % 0x80);
	return (uint8_t)('a' + r % 26);
}

/* A __data_loc word (length << 16 | offset) pointing into the record,
 * or now and then past it; __rel_loc counts from the word's end. */
static void place_text(const struct tep_format_field *tf, uint8_t *data,
		       int big, uint64_t *s)
{
	uint32_t at = (uint32_t)(next(s) % RECORD), len, word;
	uint32_t base = tf->flags & TEP_FIELD_IS_RELATIVE ?
				(uint32_t)tf->offset + 4 : 0;

	len = (uint32_t)(next(s) % (next(s) % 8 ? 40 : 140));
	if (next(s) % 10 && at + len > RECORD)	/* mostly inside */
		len = RECORD - at;
	if (at < base)
		at = base;
	word = len << 16 | (at - base);
	tdat_store32(big, data + tf->offset, word);
}

/* One record through both ways; returns whether the fast way was taken. */
static int one(struct case_map *c, int big, struct tep_handle *tep,
	       uint64_t *s)
{
	struct encoder fast, slow;
	struct pb bf = { 0 }, bs = { 0 };
	uint8_t data[RECORD];
	struct tep_record rec;
	struct stream_event e;
	int i, took;

	for (i = 0; i < RECORD; i++)
		data[i] = random_byte(s);
	for (i = 0; i < c->m.n; i++)
		if (c->tf[i].flags & TEP_FIELD_IS_DYNAMIC)
			place_text(&c->tf[i], data, big, s);
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = next(s) % 4 ? RECORD : (int)(next(s) % RECORD);
	memset(&e, 0, sizeof(e));
	e.rec = &rec;
	e.tep = tep;	/* reads __data_loc words in the record's order */
	e.ts = next(s) >> (next(s) % 64);
	e.pid = (int)next(s);
	memset(&fast, 0, sizeof(fast));
	memset(&slow, 0, sizeof(slow));
	fast.big[0] = slow.big[0] = big;
	encode_prepare(&c->m);
	took = c->m.fast && (size_t)rec.size >= c->m.fixed_end;
	encode_event(&fast, &bf, &c->m, &e);
	c->m.fast = 0;
	encode_event(&slow, &bs, &c->m, &e);
	CU_ASSERT_FALSE(pb_failed(&bf) || pb_failed(&bs));
	CU_ASSERT_EQUAL_FATAL(bf.len, bs.len);
	CU_ASSERT(!memcmp(bf.data, bs.data, bf.len));
	CU_ASSERT(same_bits(fast.named[0], slow.named[0]));
	CU_ASSERT(same_syms(&fast.syms[0], &slow.syms[0]));
	pb_free(&bf);
	pb_free(&bs);
	free(fast.named[0]);
	free(slow.named[0]);
	syms_free(&fast.syms[0]);
	syms_free(&slow.syms[0]);
	tdat_bytes_free(&fast.text);
	tdat_bytes_free(&slow.text);
	return took;
}

static void test_fast_as_general(void)
{
	struct case_map *c = malloc(sizeof(*c));
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int i, fast = 0, runs = 6000;

	struct tep_handle *tep[2] = { tep_alloc(), tep_alloc() };

	CU_ASSERT_FATAL(c && tep[0] && tep[1]);
	tep_set_file_bigendian(tep[0], TEP_LITTLE_ENDIAN);
	tep_set_file_bigendian(tep[1], TEP_BIG_ENDIAN);
	for (i = 0; i < runs; i++) {
		random_map(c, &s);
		fast += one(c, i % 2, tep[i % 2], &s);
	}
	free(c);
	tep_free(tep[0]);
	tep_free(tep[1]);
	/* Both ways were compared often: most maps qualify, and records
	 * cut short or events over 127 bytes take the general way. */
	CU_ASSERT(fast > runs / 3);
	CU_ASSERT(fast < runs);
}

void suite_pfencode(void)
{
	CU_pSuite s = CU_add_suite("pfencode", NULL, NULL);

	CU_add_test(s, "the fast way writes what the general way writes",
		    test_fast_as_general);
}
