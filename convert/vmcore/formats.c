/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * formats.c - every event's format, rebuilt from the kernel's own event
 * structures (the list ftrace_events of struct trace_event_call) as its
 * tracefs format file prints it: name, ID, the common fields, a blank
 * line, the event's fields, the print fmt.  Fields sit on their lists
 * newest first, so they are read from the list's tail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/vmcore/vmcore_internal.h"

#define EVENTS_MAX 65536
#define FIELDS_MAX 1024
#define NAME_LEN 256
#define PRINT_FMT_MAX (64u << 10)

struct fmt_layout {
	uint32_t call_size, field_size;
	struct kfield list, class, name, tp, type_id, print_fmt, flags, data;
	struct kfield system, fields, get_fields;		/* class */
	struct kfield tp_name;					/* tracepoint */
	struct kfield link, fname, ftype, offset, size, is_signed, len;
	int has_len;		/* ftrace_event_field.len: "name[N]" */
	int64_t fl_tracepoint, fl_custom;
	uint64_t enter_fields_fn;	/* syscall_get_enter_fields */
	struct kfield enter_fields;	/* syscall_metadata */
};

static int call_fields(struct kernel *k, struct fmt_layout *l,
		       struct tdat_error *err)
{
	const struct kbtf *b = k->btf;
	struct kmem *m = &k->mem;
	const char *c = "trace_event_call";

	return kbtf_size(b, m, c, &l->call_size, err) ||
	       kbtf_field(b, m, c, "list", &l->list, err) ||
	       kbtf_field(b, m, c, "class", &l->class, err) ||
	       kbtf_field(b, m, c, "name", &l->name, err) ||
	       kbtf_field(b, m, c, "tp", &l->tp, err) ||
	       kbtf_field(b, m, c, "event.type", &l->type_id, err) ||
	       kbtf_field(b, m, c, "print_fmt", &l->print_fmt, err) ||
	       kbtf_field(b, m, c, "flags", &l->flags, err) ||
	       kbtf_field(b, m, c, "data", &l->data, err) ||
	       kbtf_field(b, m, "trace_event_class", "system", &l->system, err) ||
	       kbtf_field(b, m, "trace_event_class", "fields", &l->fields, err) ||
	       kbtf_field(b, m, "trace_event_class", "get_fields",
			  &l->get_fields, err) ||
	       kbtf_field(b, m, "tracepoint", "name", &l->tp_name, err) ||
	       kbtf_enum(b, m, "TRACE_EVENT_FL_TRACEPOINT", &l->fl_tracepoint,
			 err) ? -1 : 0;
}

static int field_fields(struct kernel *k, struct fmt_layout *l,
			struct tdat_error *err)
{
	const struct kbtf *b = k->btf;
	struct kmem *m = &k->mem;
	const char *f = "ftrace_event_field";

	l->has_len = kbtf_has(b, f, "len");
	if (l->has_len && kbtf_field(b, m, f, "len", &l->len, err))
		return -1;
	if (kbtf_enum(b, m, "TRACE_EVENT_FL_CUSTOM", &l->fl_custom, NULL))
		l->fl_custom = 0;	/* before Linux 6.3 */
	if (ksymtab_find(&k->syms, "syscall_get_enter_fields",
		       &l->enter_fields_fn) ||
	    kbtf_field(b, m, "syscall_metadata", "enter_fields",
		       &l->enter_fields, NULL))
		l->enter_fields_fn = 0;
	return kbtf_size(b, m, f, &l->field_size, err) ||
	       kbtf_field(b, m, f, "link", &l->link, err) ||
	       kbtf_field(b, m, f, "name", &l->fname, err) ||
	       kbtf_field(b, m, f, "type", &l->ftype, err) ||
	       kbtf_field(b, m, f, "offset", &l->offset, err) ||
	       kbtf_field(b, m, f, "size", &l->size, err) ||
	       kbtf_field(b, m, f, "is_signed", &l->is_signed, err) ? -1 : 0;
}

/* One field's line, as f_show prints it. */
static int field_line(struct kernel *k, const struct fmt_layout *l,
		      const uint8_t *obj, struct tdat_bytes *out,
		      struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	char type[NAME_LEN], name[NAME_LEN], line[3 * NAME_LEN];
	const char *bracket;
	unsigned off = (unsigned)kfield_get(m, obj, &l->offset);
	unsigned size = (unsigned)kfield_get(m, obj, &l->size);
	int sign = !!kfield_get(m, obj, &l->is_signed), n;

	if (kmem_string(m, kfield_get(m, obj, &l->ftype), type, sizeof(type),
			"ftrace_event_field.type", err) ||
	    kmem_string(m, kfield_get(m, obj, &l->fname), name, sizeof(name),
			"ftrace_event_field.name", err))
		return -1;
	bracket = strchr(type, '[');
	if (!strncmp(type, "__data_loc", 10))
		bracket = NULL;
	if (!bracket)
		n = snprintf(line, sizeof(line), "\tfield:%s %s;", type, name);
	else if (!l->has_len)
		n = snprintf(line, sizeof(line), "\tfield:%.*s %s%s;",
			     (int)(bracket - type), type, name, bracket);
	else if (kfield_get(m, obj, &l->len))
		n = snprintf(line, sizeof(line), "\tfield:%.*s %s[%d];",
			     (int)(bracket - type), type, name,
			     (int)kfield_get(m, obj, &l->len));
	else
		n = snprintf(line, sizeof(line), "\tfield:%.*s %s[];",
			     (int)(bracket - type), type, name);
	n += snprintf(line + n, sizeof(line) - (size_t)n,
		      "\toffset:%u;\tsize:%u;\tsigned:%d;\n", off, size, sign);
	return tdat_bytes_add(out, line, (size_t)n) ?
	       tdat_errorf(err, "out of memory") : 0;
}

/* The fields on the list at head, oldest first (from the tail). */
static int field_lines(struct kernel *k, const struct fmt_layout *l,
		       uint64_t head, struct tdat_bytes *out,
		       struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint64_t node;
	uint8_t *obj;
	int i, r;

	if (kmem_ptr(m, head + (uint64_t)m->ptr_size, &node, "fields.prev", err))
		return -1;
	for (i = 0; node != head; i++) {
		if (i == FIELDS_MAX)
			return kmem_fail(m, head, err, "an event's fields: more"
					 " than %d (a loop?)", FIELDS_MAX);
		obj = kmem_obj(m, node - l->link.off, l->field_size,
			       "ftrace_event_field", err);
		if (!obj)
			return -1;
		r = field_line(k, l, obj, out, err);
		/* link.prev: the pointer after link.next */
		node = kmem_load(m, obj + l->link.off + m->ptr_size,
				 m->ptr_size);
		free(obj);
		if (r)
			return -1;
	}
	return 0;
}

/* The list of fields of the call in obj (class's, or a syscall's). */
static int fields_head(struct kernel *k, const struct fmt_layout *l,
		       const uint8_t *obj, uint64_t class, uint64_t *head,
		       struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint64_t fn;

	if (kmem_ptr(m, class + l->get_fields.off, &fn,
		     "trace_event_class.get_fields", err))
		return -1;
	*head = class + l->fields.off;
	if (!fn)
		return 0;
	if (fn != l->enter_fields_fn || !l->enter_fields_fn)
		return 1;	/* fields only a function knows: left out */
	*head = kfield_get(m, obj, &l->data) + l->enter_fields.off;
	return 0;
}

/* The name as trace_event_name gives it. */
static int event_name(struct kernel *k, const struct fmt_layout *l,
		      const uint8_t *obj, char *name, struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint64_t flags = kfield_get(m, obj, &l->flags), tp;

	if ((flags & (uint64_t)l->fl_tracepoint) &&
	    !(flags & (uint64_t)l->fl_custom)) {
		tp = kfield_get(m, obj, &l->tp);
		if (kmem_ptr(m, tp + l->tp_name.off, &tp, "tracepoint.name",
			     err))
			return -1;
		return kmem_string(m, tp, name, NAME_LEN, "tracepoint.name",
				   err);
	}
	return kmem_string(m, kfield_get(m, obj, &l->name), name, NAME_LEN,
			   "trace_event_call.name", err);
}

/* The format text of the call in obj into out; 1 when it has none
 * (fields only a function of the kernel knows). */
static int one_format(struct kernel *k, const struct fmt_layout *l,
		      uint64_t common, const uint8_t *obj, char *name,
		      char *system, struct tdat_bytes *out,
		      struct tdat_error *err)
{
	struct kmem *m = &k->mem;
	uint64_t class = kfield_get(m, obj, &l->class), sys, head;
	char line[2 * NAME_LEN], *pf = NULL;
	uint64_t pfa = kfield_get(m, obj, &l->print_fmt);
	int n, r;

	if (event_name(k, l, obj, name, err) ||
	    kmem_ptr(m, class + l->system.off, &sys, "trace_event_class.system",
		     err) ||
	    kmem_string(m, sys, system, NAME_LEN, "trace_event_class.system",
			err))
		return -1;
	r = fields_head(k, l, obj, class, &head, err);
	if (r)
		return r;
	if (pfa && !(pf = kmem_strdup(m, pfa, PRINT_FMT_MAX,
				      "trace_event_call.print_fmt", err)))
		return -1;
	n = snprintf(line, sizeof(line), "name: %s\nID: %d\nformat:\n", name,
		     (int)kfield_get(m, obj, &l->type_id));
	r = tdat_bytes_add(out, line, (size_t)n) ? tdat_errorf(err,
							       "out of memory") : 0;
	r = r || field_lines(k, l, common, out, err) ||
	    tdat_bytes_add(out, "\n", 1) ||
	    field_lines(k, l, head, out, err) ||
	    tdat_bytes_add(out, "\nprint fmt: ", 12) ||
	    tdat_bytes_add(out, pf ? pf : "(null)", strlen(pf ? pf : "(null)")) ||
	    tdat_bytes_add(out, "\n", 1);
	free(pf);
	return r ? -1 : 0;
}

int kformats_each(struct kernel *k, kformat_fn fn, void *ctx,
		  struct tdat_error *err)
{
	struct fmt_layout l;
	struct tdat_bytes text = { 0 };
	char name[NAME_LEN], system[NAME_LEN];
	uint64_t head, common, node;
	uint8_t *obj;
	int i, r = 0;

	if (call_fields(k, &l, err) || field_fields(k, &l, err) ||
	    ksymtab_need(&k->syms, &k->mem, "ftrace_events", &head, err) ||
	    ksymtab_need(&k->syms, &k->mem, "ftrace_common_fields", &common,
			 err) ||
	    kmem_ptr(&k->mem, head, &node, "ftrace_events", err))
		return -1;
	for (i = 0; !r && node != head; i++) {
		if (i == EVENTS_MAX) {
			r = kmem_fail(&k->mem, head, err, "ftrace_events: more"
				      " than %d events (a loop?)", EVENTS_MAX);
			break;
		}
		obj = kmem_obj(&k->mem, node - l.list.off, l.call_size,
			       "trace_event_call", err);
		if (!obj) {
			r = -1;
			break;
		}
		tdat_bytes_reset(&text);
		r = one_format(k, &l, common, obj, name, system, &text, err);
		if (!r)
			r = fn(ctx, system, name, (const char *)text.data,
			       text.len, err);
		else if (r == 1)	/* fields only a function knows */
			r = 0;
		node = kfield_get(&k->mem, obj, &l.list);
		free(obj);
	}
	tdat_bytes_free(&text);
	return r ? -1 : 0;
}
