/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysmeta.h - the running system's metadata (sysmeta.c), and the
 * header-only trace.dat made of it (header_only.c): what record writes
 * before tracing starts and what restore -c writes.
 *
 * Errors are values as in libfmt: -1 and a struct tdat_error.
 */
#ifndef CONVERT_SYSMETA_H
#define CONVERT_SYSMETA_H

#include <stdint.h>
#include "libfmt/tracedat.h"

struct tfs_names;

/*
 * The running system's metadata as writer meta: header (host byte order,
 * long size, page size from header_page), header_page and header_event,
 * ftrace formats, the formats of systems (all when systems is NULL),
 * kallsyms, printk formats, saved cmdlines, CPU count.  No options, no
 * buffers.  Free with tdat_close.
 */
struct tdat_file *sysmeta_collect(const char *tdir,
				  const struct tfs_names *systems,
				  const char *kallsyms, struct tdat_error *err);
/* Re-read saved_cmdlines (at the end: the pids seen while tracing). */
int sysmeta_refresh_cmdlines(struct tdat_file *m, const char *tdir,
			     struct tdat_error *err);
/* TRACECLOCK (trace_clock of dir), UNAME, VERSION, TRACEID. */
int sysmeta_add_options(struct tdat_file *m, const char *dir,
			struct tdat_error *err);
/* CPUSTAT options for the CPUs of buffer dir; name "" is the top buffer,
 * an instance's come after a "\nBuffer: NAME\n\n" one. */
int sysmeta_add_cpustats(struct tdat_file *m, const char *dir,
			 const char *name, int ncpus, struct tdat_error *err);
/* The number of CPUs of the tracefs (per_cpu/cpuN, highest N + 1). */
int sysmeta_cpu_count(const char *tdir, struct tdat_error *err);
/* The selected clock of dir's trace_clock ("local"). */
int sysmeta_clock(const char *dir, char *buf, size_t cap,
		  struct tdat_error *err);
/* Sub-buffer size of a buffer: data offset + size of its header_page. */
int sysmeta_page_size(const char *dir, uint32_t *size, struct tdat_error *err);

/*
 * lastboot_meta.c: a buffer kept across a reboot, as trace-cmd 3.4's
 * extract records it.  add_last_boot: instance name's (in dir)
 * last_boot_info as a LAST_BOOT_INFO option "NAME:TEXT" (*found 1), or
 * nothing where there is none; add_modules: /proc/modules as the
 * modules part; add_btf: /sys/kernel/btf/vmlinux as the BTF part (none
 * where the kernel has no BTF).
 */
int sysmeta_add_last_boot(struct tdat_file *m, const char *dir,
			  const char *name, int *found,
			  struct tdat_error *err);
int sysmeta_add_modules(struct tdat_file *m, struct tdat_error *err);
int sysmeta_add_btf(struct tdat_file *m, struct tdat_error *err);

/*
 * Write a header-only trace.dat (metadata, no trace data) describing the
 * running system: header_page, header_event, every event format (all
 * systems), kallsyms, printk formats, saved cmdlines, uname, version,
 * date.  tracing_dir NULL: find (and if needed mount) tracefs;
 * kallsyms NULL: /proc/kallsyms.  Written unnamed and named when
 * complete; scratch makes it a provisional output (libfmt/outputs.h):
 * tdat_outputs_drop removes it, and so does a signal handler.  0, or
 * -1 with err.
 */
int sysmeta_header_only(const char *out, int version, enum tdat_codec codec,
			const char *tracing_dir, const char *kallsyms,
			int scratch, struct tdat_error *err);

#endif
