/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * restore_order.c - which pages of a raw CPU file are out of time order.
 *
 * A reader writes a CPU's pages in the order the kernel filled them, so
 * their time stamps never go back.  After a crash a file system may
 * hand back blocks that were never written by this file (ext4 with
 * data=writeback, ext2, a disk that lied about its cache): a page there
 * can look genuine, events of known ids and all, and still not be this
 * recording's.  Its time gives it away.  The pages kept are the longest
 * run of genuine pages whose time stamps never go back (a longest
 * non-decreasing subsequence, O(n log n)); every other genuine page is
 * dropped, and told, by the page filter.  Nothing is invented: at worst
 * a genuine page is dropped, never a foreign one kept in the middle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "convert/restore/restore_internal.h"

#define READ_PAGES 64

/* The time stamps of the genuine pages, and their page numbers; or,
 * when only looking, whether they ever go back (the usual file keeps
 * nothing then: memory only for a file that needs it). */
struct stamps {
	int looking;
	int back;		/* looking: a stamp below the one before */
	uint64_t last;
	uint64_t n, cap;
	uint64_t *ts;
	uint64_t *page;
};

static int stamps_add(struct stamps *s, uint64_t ts, uint64_t page)
{
	uint64_t *t, *p;

	if (s->looking) {
		s->back |= s->n++ && ts < s->last;
		s->last = ts;
		return 0;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		t = realloc(s->ts, s->cap * sizeof(*t));
		if (t)
			s->ts = t;
		p = realloc(s->page, s->cap * sizeof(*p));
		if (p)
			s->page = p;
		if (!t || !p)
			return -1;
	}
	s->ts[s->n] = ts;
	s->page[s->n++] = page;
	return 0;
}

/* The first pages whole pages of fd: the genuine ones' stamps. */
static int read_stamps(const struct page_filter *pf, int fd, uint64_t pages,
		       struct stamps *s, struct tdat_error *err)
{
	size_t ps = pf->page_size, i;
	uint8_t *buf = malloc(READ_PAGES * ps);
	struct tdat_page_check pc;
	uint64_t page = 0, off = 0;
	ssize_t got;

	if (!buf)
		return tdat_fail_nooff(err, pf->file, "out of memory");
	for (;;) {
		got = pread(fd, buf, READ_PAGES * ps, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return tdat_fail(err, pf->file, off, "read error: %s",
					 strerror(errno));
		}
		for (i = 0; i + ps <= (size_t)got && page < pages;
		     i += ps, page++)
			if (tdat_page_check(pf->f, buf + i, pf->page_size,
					    pf->ids, &pc) == TDAT_PAGE_OK &&
			    stamps_add(s, pc.page_ts, page)) {
				free(buf);
				return tdat_fail_nooff(err, pf->file,
						       "out of memory");
			}
		off += (uint64_t)got;
		if ((size_t)got < READ_PAGES * ps || page >= pages)
			break;
	}
	free(buf);
	return 0;
}

/* The first of tails[0..len) whose stamp is greater than ts. */
static uint64_t first_later(const struct stamps *s, const uint64_t *tails,
			    uint64_t len, uint64_t ts)
{
	uint64_t lo = 0, hi = len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->ts[tails[mid]] > ts)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Mark in drop (a byte per page of the file) the genuine pages that are
 * not on a longest run in time order. */
static int mark_out_of_order(const struct stamps *s, uint8_t *drop)
{
	uint64_t *tails = malloc((s->n ? s->n : 1) * sizeof(*tails));
	uint64_t *prev = malloc((s->n ? s->n : 1) * sizeof(*prev));
	uint64_t len = 0, k, at;

	if (!tails || !prev) {
		free(tails);
		free(prev);
		return -1;
	}
	for (k = 0; k < s->n; k++) {
		at = first_later(s, tails, len, s->ts[k]);
		prev[k] = at ? tails[at - 1] : UINT64_MAX;
		tails[at] = k;
		if (at == len)
			len++;
	}
	for (k = 0; k < s->n; k++)
		drop[s->page[k]] = 1;
	for (k = len ? tails[len - 1] : UINT64_MAX; k != UINT64_MAX;
	     k = prev[k])
		drop[s->page[k]] = 0;
	free(tails);
	free(prev);
	return 0;
}

int order_plan(const struct page_filter *pf, int fd, uint64_t size,
	       uint8_t **drop, struct tdat_error *err)
{
	struct stamps s = { 1, 0, 0, 0, 0, NULL, NULL };
	uint64_t pages = size / pf->page_size;
	int r;

	*drop = NULL;
	/* first a look: in order, as a recorder writes, nothing to drop */
	if (read_stamps(pf, fd, pages, &s, err))
		return -1;
	if (!s.back)
		return 0;
	memset(&s, 0, sizeof(s));
	*drop = calloc(pages ? pages : 1, 1);
	if (!*drop)
		return tdat_fail_nooff(err, pf->file, "out of memory");
	r = read_stamps(pf, fd, pages, &s, err);
	if (!r && mark_out_of_order(&s, *drop))
		r = tdat_fail_nooff(err, pf->file, "out of memory");
	free(s.ts);
	free(s.page);
	if (r) {
		free(*drop);
		*drop = NULL;
	}
	return r;
}
