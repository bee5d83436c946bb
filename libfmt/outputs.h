/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * outputs.h - outputs that are not final yet, and taking them away when
 * a signal ends the program.
 *
 * A tdat_writer writes into an unnamed file (O_TMPFILE) that gets its
 * name only when it is complete, so a program that dies leaves nothing.
 * Two kinds of names can still exist before the work is done, and libfmt
 * keeps a list of them (its one piece of global state):
 *   - temporary names ".NAME.tmp-RANDOM", only where the file system
 *     cannot make unnamed files;
 *   - provisional outputs: complete files under their final name that
 *     are wanted only if the whole job succeeds (tdat_write_opts.
 *     provisional: restore's scratch header, which is read by name).
 * Split's pieces are held unnamed instead (TDAT_UNNAMED_UNTIL_KEPT): the
 * list keeps their descriptors, and tdat_outputs_keep names them all at
 * the end, so that not even SIGKILL leaves a part of a split behind.
 * libfmt installs no signal handler.  An application that wants nothing
 * left by SIGINT/SIGTERM/SIGHUP calls tdat_outputs_discard() from its
 * handler and then dies of the signal.  The list changes only with every
 * signal blocked in the thread that changes it, and libfmt's own threads
 * block every signal, so the handler never sees it half updated.
 * Outputs are opened and finished by one thread at a time.
 */
#ifndef TDAT_OUTPUTS_H
#define TDAT_OUTPUTS_H

/* Remove every temporary name and provisional output.  Async-signal-safe
 * (unlink only); the list is left as it is. */
void tdat_outputs_discard(void);

/* The job succeeded: provisional outputs are kept from now on, and the
 * unnamed ones are synced (their writeback began when each was
 * finished), then get their names (all, or none and -1 with err). */
struct tdat_error;
int tdat_outputs_keep(struct tdat_error *err);

/* The descriptor of the held unnamed output that is to be named name,
 * or -1 (none: named already, or never held).  A scratch file can be
 * read through /proc/self/fd/N meanwhile, and drop leaves nothing. */
int tdat_outputs_held_fd(const char *name);

/* The job failed: provisional outputs are removed now. */
void tdat_outputs_drop(void);

/*
 * A directory of the caller's that is not final yet (an export's
 * dataset, built beside its name): tdat_outputs_discard removes it and
 * all it holds, until tdat_outputs_forget(path) takes it off the list
 * (once renamed into place, or removed).  0, or -1 out of memory.
 */
int tdat_outputs_add_tree(const char *path);
void tdat_outputs_forget(const char *path);
/* Remove path and everything under it, a few levels deep at most.
 * Async-signal-safe: no allocation, only system calls.  0, or -1 with
 * errno (what could be removed is gone). */
int tdat_remove_tree(const char *path);

/* The directory path is in, malloc'd ("." for a bare name, "/" for a
 * name in the root); NULL when out of memory. */
char *tdat_dir_of(const char *path);
/* Sync the directory path is in, best effort (a file system may not
 * sync directories): after a rename there, so that it lasts. */
void tdat_sync_dir_of(const char *path);

#endif
