/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arrays.c - the crashed kernel's trace arrays: global_trace (the top
 * buffer) and every instance, from the list ftrace_trace_arrays, with
 * the ring buffer and the clock of each; and its CPU count.
 */
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

/* More trace arrays than this is a list gone wrong. */
#define ARRAYS_MAX 4096
#define NAME_MAX_LEN 256

struct tr_layout {
	uint32_t size;
	struct kfield list, name, buffer, clock;
};

static int layout(struct kernel *k, struct tr_layout *l,
		  struct tdat_error *err)
{
	return kbtf_size(k->btf, &k->mem, "trace_array", &l->size, err) ||
	       kbtf_field(k->btf, &k->mem, "trace_array", "list", &l->list, err) ||
	       kbtf_field(k->btf, &k->mem, "trace_array", "name", &l->name, err) ||
	       kbtf_field(k->btf, &k->mem, "trace_array", "array_buffer.buffer",
			  &l->buffer, err) ||
	       kbtf_field(k->btf, &k->mem, "trace_array", "clock_id", &l->clock,
			  err) ? -1 : 0;
}

static int add(struct karrays *a, uint64_t tr, char *name, uint64_t buffer,
	       int clock, int top, struct tdat_error *err)
{
	struct karray *v = realloc(a->v, (size_t)(a->n + 1) * sizeof(*v));

	if (!v) {
		free(name);
		return tdat_errorf(err, "out of memory");
	}
	a->v = v;
	if (top) {	/* the top buffer first */
		memmove(v + 1, v, (size_t)a->n * sizeof(*v));
		v = &v[0];
	} else {
		v = &v[a->n];
	}
	v->addr = tr;
	v->name = name;
	v->buffer = buffer;
	v->clock_id = clock;
	a->n++;
	return 0;
}

/* The trace array at tr into a. */
static int one(struct kernel *k, const struct tr_layout *l, uint64_t tr,
	       uint64_t global, struct karrays *a, struct tdat_error *err)
{
	uint8_t *obj = kmem_obj(&k->mem, tr, l->size, "trace_array", err);
	uint64_t name;
	char *s;
	int r;

	if (!obj)
		return -1;
	name = kfield_get(&k->mem, obj, &l->name);
	if (tr == global || !name)
		s = strdup("");
	else
		s = kmem_strdup(&k->mem, name, NAME_MAX_LEN, "trace_array.name",
				err);
	if (!s) {
		free(obj);
		return tr == global || !name ? tdat_errorf(err, "out of memory")
					     : -1;
	}
	r = add(a, tr, s, kfield_get(&k->mem, obj, &l->buffer),
		(int)kfield_get(&k->mem, obj, &l->clock), tr == global, err);
	free(obj);
	return r;
}

static int cpu_count(struct kernel *k, struct karrays *a,
		     struct tdat_error *err)
{
	uint64_t at;
	uint32_t n;

	if (ksymtab_need(&k->syms, &k->mem, "nr_cpu_ids", &at, err) ||
	    kmem_u32(&k->mem, at, &n, "nr_cpu_ids", err))
		return -1;
	if (!n || n > 65536)
		return kmem_fail(&k->mem, at, err, "nr_cpu_ids: %u CPUs", n);
	a->ncpus = (int)n;
	return 0;
}

int karrays_load(struct kernel *k, struct karrays *a, struct tdat_error *err)
{
	struct tr_layout l;
	uint64_t head, global, node;
	int i;

	memset(a, 0, sizeof(*a));
	if (layout(k, &l, err) || cpu_count(k, a, err) ||
	    ksymtab_need(&k->syms, &k->mem, "ftrace_trace_arrays", &head, err) ||
	    ksymtab_need(&k->syms, &k->mem, "global_trace", &global, err) ||
	    kmem_ptr(&k->mem, head, &node, "ftrace_trace_arrays", err))
		goto fail;
	for (i = 0; node != head; i++) {
		if (i == ARRAYS_MAX) {
			kmem_fail(&k->mem, head, err, "ftrace_trace_arrays:"
				  " more than %d entries (a loop?)", ARRAYS_MAX);
			goto fail;
		}
		if (one(k, &l, node - l.list.off, global, a, err) ||
		    kmem_ptr(&k->mem, node, &node, "trace_array.list", err))
			goto fail;
	}
	if (!a->n || a->v[0].addr != global) {
		kmem_fail(&k->mem, head, err, "ftrace_trace_arrays: no"
			  " global_trace");
		goto fail;
	}
	return 0;
fail:
	karrays_free(a);
	return -1;
}

void karrays_free(struct karrays *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		free(a->v[i].name);
	free(a->v);
	memset(a, 0, sizeof(*a));
}
