/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rawdata.c - ftrace's raw_data event (trace_marker_raw writes): "# ID"
 * in hex, then the payload's bytes in hex, as trace-cmd on x86_64
 * prints it through its plugin handler, on every host.
 *
 * libtraceevent prints the payload a word at a time: it steps by the
 * file's long size and prints as many bytes as the host's long holds
 * (fewer at the end).  On x86_64 (8-byte longs) a 64-bit file's bytes
 * come out once each and a 32-bit file's partly twice; a 32-bit host
 * skipped half of a 64-bit file's.  The reference is x86_64's text, so
 * the host's long is taken as 8 bytes here.
 */
#include <string.h>
#include "convert/report/print.h"
#include "libfmt/tracedat.h"

#define REF_LONG 8		/* x86_64's long */
#define ID_OFF 8		/* the format: u32 id at 8, buf from 12 */
#define BUF_OFF 12

/* Only where a plugin's handler prints it (not with -N: the print fmt
 * then). */
int rawdata_wanted(const struct tep_event *ev)
{
	return ev->handler && ev->system && !strcmp(ev->system, "ftrace") &&
	       ev->name && !strcmp(ev->name, "raw_data");
}

int rawdata_print(struct trace_seq *s, struct tep_handle *tep,
		  const struct tep_record *rec)
{
	const uint8_t *d = rec->data;
	uint32_t len, i, k, n, step = (uint32_t)tep_get_long_size(tep);

	if (rec->size < BUF_OFF || (step != 4 && step != 8))
		return -1;
	trace_seq_printf(s, "# %x", tdat_load32(tep_is_file_bigendian(tep),
						d + ID_OFF));
	len = (uint32_t)rec->size - BUF_OFF;
	for (i = 0; i < len; i += step) {
		n = len - i < REF_LONG ? len - i : REF_LONG;
		for (k = 0; k < n; k++)
			trace_seq_printf(s, " %02x", d[BUF_OFF + i + k]);
	}
	return 0;
}
