/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_usablecpus.c - tdat_usable_cpus (libfmt/usablecpus.c): a process
 * allowed one CPU (taskset, a Slurm task's mask) counts one, not the
 * machine's; never more than are online, never 0.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "libfmt/tracedat.h"
#include "tests/unit/units.h"

static void test_bounds(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int n = tdat_usable_cpus();

	CU_ASSERT(n >= 1);
	CU_ASSERT(online < 1 || n <= online);
}

/* In a child (the mask is the process's): one CPU allowed, one usable. */
static void test_one_cpu_mask(void)
{
	cpu_set_t set;
	pid_t pid;
	int status = 0, cpu;

	CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CU_ASSERT_FATAL(cpu < CPU_SETSIZE);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		_exit(sched_setaffinity(0, sizeof(set), &set) ? 2 :
		      tdat_usable_cpus() == 1 ? 0 : 1);
	}
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

void suite_usablecpus(void)
{
	CU_pSuite s = CU_add_suite("usable CPUs", NULL, NULL);

	CU_add_test(s, "within 1 and the online CPUs", test_bounds);
	CU_add_test(s, "an affinity mask of one CPU", test_one_cpu_mask);
}
