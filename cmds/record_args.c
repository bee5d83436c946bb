/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record_args.c - values and lists of record's command line
 * (record_args.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmds/record_args.h"

int rarg_long(const char *s, long min, long max, long *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	*v = n;
	return 0;
}

int rarg_seconds(const char *s, long max_ms, long *ms)
{
	long whole = 0, frac = 0, scale = 100;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((whole = whole * 10 + (*p - '0')) > max_ms / 1000)
			return -1;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale; p++, scale /= 10)
			frac += (*p - '0') * scale;
	if (*p || p[-1] == '.' || whole * 1000 + frac > max_ms)
		return -1;
	*ms = whole * 1000 + frac;
	return 0;
}

int rarg_kb(const char *s, long *v)
{
	return rarg_long(s, 1, 64L << 20, v);
}

int rarg_offset(const char *s)
{
	char *end;

	errno = 0;
	strtoll(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

int rarg_cpumask(const char *s)
{
	int digits = 0;

	for (; *s; s++) {
		if (*s == ',')
			continue;
		if (!strchr("0123456789abcdefABCDEF", *s))
			return -1;
		digits++;
	}
	return digits > 0 ? 0 : -1;
}

int rarg_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..") &&
	       !strchr(s, '\n') && !strchr(s, ' ') ? 0 : -1;
}

int rarg_word(const char *s)
{
	return *s && !strpbrk(s, " \t\n/") ? 0 : -1;
}

int rarg_event_spec(const char *s)
{
	const char *colon = strchr(s, ':');

	if (!*s || s[0] == ':' || strpbrk(s, "/ \n") ||
	    (colon && strchr(colon + 1, ':')))
		return -1;
	return 0;
}

int rarg_compression(const char *s, enum tdat_codec *c)
{
	if (!strcmp(s, "any")) {
		*c = TDAT_CODEC_ZSTD;
		return 0;
	}
	return tdat_codec_by_name(s, c);
}

int rarg_words_add(struct rec_words *w, const char *s)
{
	char **v = realloc(w->v, (size_t)(w->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	w->v = v;
	v[w->n] = strdup(s);
	if (!v[w->n])
		return -1;
	w->n++;
	return 0;
}

void rarg_words_free(struct rec_words *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

struct rec_buf_opts *rarg_add_buffer(struct record_opts *o, const char *name)
{
	struct rec_buf_opts *b;

	b = realloc(o->bufs, (size_t)(o->nbufs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	o->bufs = b;
	b = &o->bufs[o->nbufs];
	memset(b, 0, sizeof(*b));
	b->graph_depth = -1;
	b->name = strdup(name);
	if (!b->name)
		return NULL;
	o->nbufs++;
	return b;
}

/* all, SYSTEM:EVENT, SYSTEM:, SYSTEM:* or a WORD (a system or an event:
 * told apart against tracefs at setup; kept as system, event NULL). */
int rarg_add_event(struct rec_buf_opts *b, const char *spec, int neg)
{
	const char *colon = strchr(spec, ':');
	struct rec_event *e;

	e = realloc(b->events, (size_t)(b->nevents + 1) * sizeof(*e));
	if (!e)
		return -1;
	b->events = e;
	e = &b->events[b->nevents++];
	memset(e, 0, sizeof(*e));
	e->neg = neg;
	if (!strcmp(spec, "all"))
		return 0;
	if (!colon) {
		e->system = strdup(spec);
		return e->system ? 0 : -1;
	}
	e->system = strndup(spec, (size_t)(colon - spec));
	if (!e->system)
		return -1;
	if (colon[1] && strcmp(colon + 1, "*")) {
		e->event = strdup(colon + 1);
		if (!e->event)
			return -1;
	}
	return 0;
}

int rarg_add_pids(struct rec_buf_opts *b, const char *list)
{
	const char *p = list, *comma;
	char num[32];
	long pid;
	int *v;

	do {
		comma = strchr(p, ',');
		if (!comma)
			comma = p + strlen(p);
		if ((size_t)(comma - p) >= sizeof(num))
			return -1;
		memcpy(num, p, (size_t)(comma - p));
		num[comma - p] = 0;
		if (rarg_long(num, 1, 0x7fffffff, &pid))
			return -1;
		v = realloc(b->pids, (size_t)(b->npids + 1) * sizeof(*v));
		if (!v)
			return -1;
		b->pids = v;
		v[b->npids++] = (int)pid;
		p = comma + 1;
	} while (*comma);
	return 0;
}

void rarg_buffer_free(struct rec_buf_opts *b)
{
	int j;

	for (j = 0; j < b->nevents; j++) {
		free(b->events[j].system);
		free(b->events[j].event);
		free(b->events[j].filter);
		rarg_words_free(&b->events[j].triggers);
	}
	free(b->events);
	free(b->name);
	free(b->tracer);
	rarg_words_free(&b->options);
	rarg_words_free(&b->funcs);
	rarg_words_free(&b->notrace);
	free(b->pids);
}
