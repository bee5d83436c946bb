/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lastboot_meta.c - what a trace.dat holds, beside the usual metadata,
 * about a ring buffer kept across a reboot, as trace-cmd 3.4's extract
 * writes it (FORMAT.md section 5): the instance's last_boot_info as a
 * LAST_BOOT_INFO option, this boot's /proc/modules as a modules section
 * (readers move the modules' symbols with it), and
 * /sys/kernel/btf/vmlinux as a BTF section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "convert/tracefs/sysmeta.h"
#include "convert/tracefs/tracefs.h"
#include "libfmt/metabuild.h"

int sysmeta_add_last_boot(struct tdat_file *m, const char *dir,
			  const char *name, int *found,
			  struct tdat_error *err)
{
	struct tdat_option o;
	struct tdat_blob info;
	size_t n = strlen(name);
	int r;

	*found = 0;
	if (!name[0] || !tfs_exists(dir, "last_boot_info"))
		return 0;
	if (tfs_read_after(dir, "last_boot_info", n + 1, &info, err))
		return -1;
	memcpy(info.data, name, n);
	info.data[n] = ':';
	o.id = TDAT_OPT_LAST_BOOT_INFO;
	o.size = (uint32_t)info.len + 1;	/* its NUL (read_all's) */
	o.data = info.data;
	r = tdat_add_option(m, &o);
	free(info.data);
	if (r)
		return tdat_errorf(err, "out of memory");
	*found = 1;
	return 0;
}

/* Part which: the whole of path, or nothing when there is none. */
static int whole_file(struct tdat_file *m, enum tdat_meta which,
		      const char *path, struct tdat_error *err)
{
	const char *slash = strrchr(path, '/');
	char dir[256];
	struct tdat_blob b;

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!tfs_exists(dir, slash + 1))
		return 0;
	if (tfs_read(dir, slash + 1, &b, err))
		return -1;
	tdat_meta_set(m, which, &b);
	return 0;
}

int sysmeta_add_modules(struct tdat_file *m, struct tdat_error *err)
{
	return whole_file(m, TDAT_META_MODULES, "/proc/modules", err);
}

int sysmeta_add_btf(struct tdat_file *m, struct tdat_error *err)
{
	return whole_file(m, TDAT_META_BTF, "/sys/kernel/btf/vmlinux", err);
}
