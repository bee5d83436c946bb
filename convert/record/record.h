/*
 * record.h - the on-disk state of a recording (the contract between record and
 * restore, so that a SIGKILLed "record -o OUT" can be finished by
 * "restore OUT").  While it runs, record keeps everything in the
 * directory OUT.rec/:
 *
 *   OUT.rec/head.dat    header-only trace.dat written before tracing
 *                       starts (sysmeta_header_only's content plus the
 *                       recording's options: clock, uname, ...); may be
 *                       rewritten (atomically) when the recording ends,
 *                       to add per-CPU stats.
 *   OUT.rec/manifest    text, written atomically before tracing starts:
 *                         tdat-recording 1
 *                         page_size 4096
 *                         buffer NAME clock CLOCK cpus N
 *                         cpu NAME CPU FILE
 *                       one "buffer" line per buffer ("-" names the top
 *                       buffer, first), then one "cpu" line per CPU
 *                       stream; FILE is relative to OUT.rec/.
 *   OUT.rec/output      added later: one line "VERSION CODEC" ("6 none",
 *                       "7 zstd"), the file the recording was asked for.
 *                       head.dat is always v7 "none" (quick to write
 *                       twice; compressing kallsyms is not), so restore
 *                       OUT should take version and codec from this file
 *                       when it is there.
 *   OUT.rec/FILE        raw ring-buffer pages as read from
 *                       trace_pipe_raw, page after page; the last page
 *                       may be incomplete after a crash.  Note: the
 *                       kernel sets the missed-events flags of the
 *                       commit word through a signed long, so a page
 *                       that follows lost events reads e.g. commit
 *                       0xffffffffc0000fc0 on a 64-bit kernel (bits
 *                       32-63 set, sign-extended from bit 31): a good
 *                       page that trace-cmd reads and reports with
 *                       "CPU:N [M EVENTS DROPPED]", not a bad one.
 *
 * On a normal end, record assembles OUT from OUT.rec with the same code
 * restore uses (convert/restore/assemble.h) and then removes OUT.rec.
 */
#ifndef TDAT_RECORD_H
#define TDAT_RECORD_H


#endif
