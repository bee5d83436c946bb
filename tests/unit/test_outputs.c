/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_outputs.c - libfmt's outputs (outfile.c, outdirect.c, outreg.c):
 * the O_EXCL way used where O_TMPFILE is missing (which tests/e2e cannot
 * reach on a file system that has it), signals through cmds/signals.c's
 * handler, provisional outputs, FIFOs and device nodes, and the
 * buffer small appends go through.
 */
#define _GNU_SOURCE		/* O_TMPFILE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/units.h"
#include "cmds/cmds.h"
#include "libfmt/internal.h"
#include "libfmt/outputs.h"

/* A fresh, empty directory for one test. */
static const char *fresh_dir(const char *name)
{
	static char dir[512];

	snprintf(dir, sizeof(dir), "%s/outputs-%s", test_tmpdir(), name);
	if (mkdir(dir, 0755))
		return NULL;
	return dir;
}

/* Names in dir (dot files too, not . and ..), 0 if it cannot be read. */
static int count_entries(const char *dir, char *first, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!n && first)
			snprintf(first, cap, "%s", e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static char *path_in(const char *dir, const char *name)
{
	static char p[4][600];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static int file_is(const char *path, const char *text)
{
	char buf[64];
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* Without O_TMPFILE: one new ".NAME.tmp-<16 hex>" file, created past a
 * link planted at the old ".NAME.tmp-PID" name, then renamed. */
static void test_named_fallback(void)
{
	const char *dir = fresh_dir("named");
	struct outfile o;
	struct tdat_error err;
	char old[600], seen[256];
	size_t i;

	CU_ASSERT_FATAL(dir != NULL);
	write_file(path_in(dir, "victim"), "precious");
	snprintf(old, sizeof(old), "%s/.out.dat.tmp-%ld", dir, (long)getpid());
	CU_ASSERT_FATAL(symlink("victim", old) == 0);
	CU_ASSERT_FATAL(out_open(&o, path_in(dir, "out.dat"), OUT_NO_TMPFILE,
				 &err) == 0);
	CU_ASSERT(o.tmp != NULL && strcmp(o.tmp, old) != 0);
	snprintf(seen, sizeof(seen), "%s", strrchr(o.tmp, '/') + 1);
	CU_ASSERT(strncmp(seen, ".out.dat.tmp-", 13) == 0 &&
		  strlen(seen) == 13 + 16);
	for (i = 13; i < strlen(seen); i++)
		CU_ASSERT(strchr("0123456789abcdef", seen[i]) != NULL);
	CU_ASSERT(out_write(&o, "new", 3, &err) == 0);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(file_is(path_in(dir, "out.dat"), "new"));
	CU_ASSERT(file_is(path_in(dir, "victim"), "precious"));
	/* victim, the planted link, out.dat: no temporary name left */
	CU_ASSERT(count_entries(dir, NULL, 0) == 3);
}

/* With O_TMPFILE (where the file system has it) no name exists until
 * the commit; a symlink at the final name is replaced. */
static void test_unnamed(void)
{
	const char *dir = fresh_dir("unnamed");
	struct outfile o;
	struct tdat_error err;
	int fd;

	CU_ASSERT_FATAL(dir != NULL);
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		return;		/* no O_TMPFILE here: test_named_fallback's way */
	close(fd);
	write_file(path_in(dir, "victim"), "precious");
	CU_ASSERT_FATAL(symlink("victim", path_in(dir, "out.dat")) == 0);
	CU_ASSERT_FATAL(out_open(&o, path_in(dir, "out.dat"), 0, &err) == 0);
	CU_ASSERT(o.tmp == NULL);
	CU_ASSERT(out_write(&o, "new", 3, &err) == 0);
	CU_ASSERT(count_entries(dir, NULL, 0) == 2);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(count_entries(dir, NULL, 0) == 2);
	CU_ASSERT(file_is(path_in(dir, "victim"), "precious"));
	CU_ASSERT(file_is(path_in(dir, "out.dat"), "new"));
}

/*
 * In a child with the applets' handler: a provisional output placed, a
 * second output being written without O_TMPFILE, then signal sig.  The
 * child must die of sig and leave dir empty.
 */
static void signal_leaves_nothing(const char *name, int sig)
{
	const char *dir = fresh_dir(name);
	char first[256] = "";
	pid_t pid;
	int status = 0;

	CU_ASSERT_FATAL(dir != NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct outfile a, b;
		struct tdat_error err;

		/* as a shell started it, not as nohup left it (an ignored
		 * signal stays ignored: cmds/signals.c) */
		signal(sig, SIG_DFL);
		discard_outputs_on_signals();
		if (out_open(&a, path_in(dir, "piece.1"), OUT_PROVISIONAL |
			     OUT_NO_TMPFILE, &err) ||
		    out_write(&a, "done", 4, &err) || out_commit(&a, &err) ||
		    out_open(&b, path_in(dir, "piece.2"), OUT_NO_TMPFILE,
			     &err) || out_write(&b, "half", 4, &err) ||
		    count_entries(dir, NULL, 0) != 2)
			_exit(3);
		raise(sig);
		_exit(4);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	CU_ASSERT(count_entries(dir, first, sizeof(first)) == 0);
	if (first[0])
		fprintf(stderr, "\n  left: %s\n", first);
}

static void test_signals(void)
{
	signal_leaves_nothing("sigint", SIGINT);
	signal_leaves_nothing("sigterm", SIGTERM);
	signal_leaves_nothing("sighup", SIGHUP);
}

/* dir/t with files and directories three levels deep, dot files too. */
static const char *make_tree(const char *dir)
{
	static const char *const files[] = {
		"t/meta.json", "t/.hidden", "t/sched/sched_switch.parquet",
		"t/sched/sched_switch/a.parquet", "t/sched/sched_switch/b.parquet",
	};
	static char top[512];
	size_t i;
	int fd;

	snprintf(top, sizeof(top), "%s/t", dir);
	if (mkdir(top, 0700) || mkdir(path_in(dir, "t/sched"), 0755) ||
	    mkdir(path_in(dir, "t/sched/sched_switch"), 0755) ||
	    mkdir(path_in(dir, "t/empty"), 0755))
		return NULL;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		fd = open(path_in(dir, files[i]), O_WRONLY | O_CREAT, 0644);
		if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
			return NULL;
	}
	return top;
}

/* A tree removed whole; a name that is not there is no error. */
static void test_remove_tree(void)
{
	const char *dir = fresh_dir("tree"), *top;

	CU_ASSERT_FATAL(dir != NULL);
	top = make_tree(dir);
	CU_ASSERT_FATAL(top != NULL);
	CU_ASSERT(tdat_remove_tree(top) == 0);
	CU_ASSERT(count_entries(dir, NULL, 0) == 0);
	CU_ASSERT(tdat_remove_tree(top) == 0);
}

/* A registered tree goes on a signal; once forgotten, it stays. */
static void test_tree_signals(void)
{
	const char *dir = fresh_dir("treesig"), *top;
	int status = 0;
	pid_t pid;

	CU_ASSERT_FATAL(dir != NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		discard_outputs_on_signals();
		top = make_tree(dir);
		if (!top || tdat_outputs_add_tree(top))
			_exit(3);
		raise(SIGTERM);
		_exit(4);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CU_ASSERT(count_entries(dir, NULL, 0) == 0);
	top = make_tree(dir);
	CU_ASSERT_FATAL(top != NULL);
	CU_ASSERT(tdat_outputs_add_tree(top) == 0);
	tdat_outputs_forget(top);
	tdat_outputs_discard();
	CU_ASSERT(access(path_in(dir, "t/sched/sched_switch/a.parquet"),
			 F_OK) == 0);
	CU_ASSERT(tdat_remove_tree(top) == 0);
}

/* keep: provisional outputs stay, even through a discard; drop: gone. */
static void test_keep_drop(void)
{
	const char *dir = fresh_dir("keep");
	struct outfile o;
	struct tdat_error err;

	CU_ASSERT_FATAL(dir != NULL);
	CU_ASSERT_FATAL(out_open(&o, path_in(dir, "kept"), OUT_PROVISIONAL,
				 &err) == 0);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(tdat_outputs_keep(&err) == 0);
	tdat_outputs_discard();
	CU_ASSERT(access(path_in(dir, "kept"), F_OK) == 0);
	CU_ASSERT_FATAL(out_open(&o, path_in(dir, "dropped"), OUT_PROVISIONAL,
				 &err) == 0);
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(access(path_in(dir, "dropped"), F_OK) == 0);
	tdat_outputs_drop();
	CU_ASSERT(access(path_in(dir, "dropped"), F_OK) != 0);
	CU_ASSERT(access(path_in(dir, "kept"), F_OK) == 0);
}

/* Held unnamed: no name until keep, which names them all and replaces
 * an older file; drop (or a signal, or SIGKILL) leaves nothing and the
 * older file as it was. */
static void test_unnamed_until_kept(void)
{
	const char *dir = fresh_dir("held");
	struct outfile o;
	struct tdat_error err;
	char old[64] = "";
	int i, fd;

	CU_ASSERT_FATAL(dir != NULL);
	fd = open(path_in(dir, "p.2"), O_WRONLY | O_CREAT, 0644);
	CU_ASSERT_FATAL(fd >= 0 && write(fd, "old", 3) == 3);
	close(fd);
	for (i = 1; i <= 3; i++) {
		snprintf(old, sizeof(old), "p.%d", i);
		CU_ASSERT_FATAL(out_open(&o, path_in(dir, old),
					 OUT_UNNAMED_UNTIL_KEPT, &err) == 0);
		CU_ASSERT(out_write(&o, "new", 3, &err) == 0);
		CU_ASSERT(out_commit(&o, &err) == 0);
	}
	CU_ASSERT(access(path_in(dir, "p.1"), F_OK) != 0);	/* no name yet */
	tdat_outputs_discard();		/* a signal: the old p.2 stays */
	fd = open(path_in(dir, "p.2"), O_RDONLY);
	CU_ASSERT(fd >= 0 && read(fd, old, 3) == 3 && !memcmp(old, "old", 3));
	close(fd);
	CU_ASSERT(tdat_outputs_keep(&err) == 0);
	for (i = 1; i <= 3; i++) {
		snprintf(old, sizeof(old), "p.%d", i);
		fd = open(path_in(dir, old), O_RDONLY);
		CU_ASSERT(fd >= 0 && read(fd, old, 3) == 3 &&
			  !memcmp(old, "new", 3));
		close(fd);
	}
	CU_ASSERT_FATAL(out_open(&o, path_in(dir, "gone"),
				 OUT_UNNAMED_UNTIL_KEPT, &err) == 0);
	CU_ASSERT(out_commit(&o, &err) == 0);
	tdat_outputs_drop();
	CU_ASSERT(access(path_in(dir, "gone"), F_OK) != 0);
}

/* A FIFO gets the finished file and stays a FIFO. */
static void test_fifo(void)
{
	const char *dir = fresh_dir("fifo");
	const char *fifo;
	struct outfile o;
	struct tdat_error err;
	struct stat st;
	char buf[16] = "";
	int rd;

	CU_ASSERT_FATAL(dir != NULL);
	fifo = path_in(dir, "fifo");
	CU_ASSERT_FATAL(mkfifo(fifo, 0644) == 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);	/* a reader, so no wait */
	CU_ASSERT_FATAL(rd >= 0);
	CU_ASSERT_FATAL(out_open(&o, fifo, 0, &err) == 0);
	CU_ASSERT(out_pwrite(&o, 4, "tail", 4, &err) == 0);
	CU_ASSERT(out_pwrite(&o, 0, "head", 4, &err) == 0);
	CU_ASSERT(read(rd, buf, sizeof(buf)) == -1);	/* nothing yet */
	CU_ASSERT(out_commit(&o, &err) == 0);
	CU_ASSERT(read(rd, buf, sizeof(buf)) == 8);
	CU_ASSERT(memcmp(buf, "headtail", 8) == 0);
	close(rd);
	CU_ASSERT(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
}

/* A device node or a directory is refused at once and left alone. */
static void test_refused(void)
{
	const char *dir = fresh_dir("refused");
	struct outfile o;
	struct tdat_error err;
	struct stat st;

	CU_ASSERT_FATAL(dir != NULL);
	CU_ASSERT(out_open(&o, dir, 0, &err) == -1);
	CU_ASSERT(strstr(err.msg, "not a regular file (a directory);"
			 " refusing to replace it") != NULL);
	if (mknod(path_in(dir, "null"), S_IFCHR | 0666, makedev(1, 3)))
		return;		/* not permitted here */
	CU_ASSERT(out_open(&o, path_in(dir, "null"), 0, &err) == -1);
	CU_ASSERT(strstr(err.msg, "not a regular file (a character device)")
		  != NULL);
	CU_ASSERT(stat(path_in(dir, "null"), &st) == 0 && S_ISCHR(st.st_mode));
	CU_ASSERT(count_entries(dir, NULL, 0) == 1);
}

/* ---- appends buffered, patches and the rest as if they were not ---- */

#define MODEL_MAX (4u << 20)

struct model {
	uint8_t *b;
	uint64_t pos;
};

static void model_put(struct model *m, uint64_t off, const uint8_t *p,
		      size_t n)
{
	memcpy(m->b + off, p, n);
	if (off + n > m->pos)
		m->pos = off + n;
}

static int file_equals(const char *path, const struct model *m)
{
	uint8_t *got = malloc(m->pos + 1);
	int fd = open(path, O_RDONLY), ok;
	ssize_t n = got && fd >= 0 ? read(fd, got, m->pos + 1) : -1;

	ok = n == (ssize_t)m->pos && !memcmp(got, m->b, m->pos);
	if (fd >= 0)
		close(fd);
	free(got);
	return ok;
}

/* One random step on both: small or big append, patch (maybe across
 * the buffered part), align, cut back. */
static int random_step(struct outfile *o, struct model *m, uint8_t *data,
		       struct tdat_error *err)
{
	int kind = rand() % 10;
	size_t n = kind < 5 ? 1 + (size_t)(rand() % 6000) :
			      100000 + (size_t)(rand() % 200000);
	uint64_t off = m->pos, at;

	if (kind < 7) {
		if (off + n > MODEL_MAX)
			return 0;
		if (out_write(o, data, n, err))
			return -1;
		model_put(m, off, data, n);
		return 0;
	}
	if (kind == 7 && m->pos) {
		at = (uint64_t)rand() % m->pos;
		n = (size_t)(rand() % 20000) + 1;
		if (at + n > MODEL_MAX)
			return 0;
		if (out_pwrite(o, at, data + 7, n, err))
			return -1;
		model_put(m, at, data + 7, n);
		return 0;
	}
	if (kind == 8) {
		at = (m->pos + 4095) / 4096 * 4096;
		if (at > MODEL_MAX || out_align(o, 4096, err))
			return at > MODEL_MAX ? 0 : -1;
		memset(m->b + m->pos, 0, at - m->pos);
		m->pos = at;
		return 0;
	}
	at = m->pos ? (uint64_t)rand() % m->pos : 0;
	if (out_truncate(o, at, err))
		return -1;
	memset(m->b + at, 0, m->pos - at);
	m->pos = at;
	return 0;
}

/* Many files of random steps, each checked byte for byte against the
 * same steps done in memory. */
static void test_buffered_writes(void)
{
	const char *dir = fresh_dir("buffered");
	struct model m = { calloc(1, MODEL_MAX), 0 };
	uint8_t *data = malloc(400000);
	struct tdat_error err;
	struct outfile o;
	int f, i, ok = 1;

	CU_ASSERT_FATAL(dir != NULL && m.b && data);
	srand(22);
	for (f = 0; f < 40 && ok; f++) {
		for (i = 0; i < 400000; i++)
			data[i] = (uint8_t)rand();
		memset(m.b, 0, MODEL_MAX);
		m.pos = 0;
		CU_ASSERT_FATAL(out_open(&o, path_in(dir, "out"), 0,
					 &err) == 0);
		for (i = 0; i < 60 && ok; i++)
			ok = random_step(&o, &m, data, &err) == 0;
		/* nothing, from nowhere: a writer's empty piece */
		CU_ASSERT(out_write(&o, NULL, 0, &err) == 0);
		CU_ASSERT(m.pos < 8 || out_pwrite(&o, m.pos - 8, NULL, 0,
						  &err) == 0);
		CU_ASSERT(ok);
		CU_ASSERT(o.pos == m.pos);
		CU_ASSERT_FATAL(out_commit(&o, &err) == 0);
		ok = ok && file_equals(path_in(dir, "out"), &m);
		CU_ASSERT(ok);
	}
	free(m.b);
	free(data);
}

void suite_outputs(void)
{
	CU_pSuite s = CU_add_suite("outputs", NULL, NULL);

	CU_add_test(s, "without O_TMPFILE: a random name, O_EXCL",
		    test_named_fallback);
	CU_add_test(s, "unnamed until complete, links replaced",
		    test_unnamed);
	CU_add_test(s, "signals remove temporary and provisional names",
		    test_signals);
	CU_add_test(s, "provisional outputs kept or dropped", test_keep_drop);
	CU_add_test(s, "held unnamed until kept", test_unnamed_until_kept);
	CU_add_test(s, "a FIFO gets the file", test_fifo);
	CU_add_test(s, "devices and directories refused", test_refused);
	CU_add_test(s, "a directory tree removed whole", test_remove_tree);
	CU_add_test(s, "a registered tree goes on a signal", test_tree_signals);
	CU_add_test(s, "buffered appends, patches, aligns and cuts",
		    test_buffered_writes);
}
