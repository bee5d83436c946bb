/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usablecpus.c - how many CPUs this process may keep busy: the online
 * ones, within its affinity mask (a Slurm task's, taskset's, a cpuset's)
 * and its cgroup's CPU quota (cgroup v2 cpu.max: a container's limit),
 * so that a job given one CPU of a big node does not start a thread per
 * CPU of the node.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libfmt/tracedat.h"

/* CPUs in the affinity mask, or 0 when it cannot be read. */
static long affinity_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return CPU_COUNT(&set);
}

/* The process's cgroup v2 directory, from /proc/self/cgroup's "0::"
 * line, into path; -1 when there is none. */
static int cgroup_dir(char *path, size_t cap)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			found = snprintf(path, cap, "/sys/fs/cgroup%s",
					 line + 3) < (int)cap ? 0 : -1;
		}
	fclose(f);
	return found;
}

/* cpu.max's quota over its period, rounded up; 0 when unlimited or
 * unknown.  (Only the process's own cgroup: a limit set higher up the
 * tree is not seen.) */
static long quota_cpus(void)
{
	char dir[400], path[448];
	long long quota, period;
	FILE *f;
	int n;

	if (cgroup_dir(dir, sizeof(dir)))
		return 0;
	snprintf(path, sizeof(path), "%s/cpu.max", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fscanf(f, "%lld %lld", &quota, &period);
	fclose(f);
	if (n != 2 || quota <= 0 || period <= 0)
		return 0;	/* "max": no quota */
	return (long)((quota + period - 1) / period);
}

int tdat_usable_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), a = affinity_cpus(),
	     q = quota_cpus();

	if (a > 0 && (n < 1 || a < n))
		n = a;
	if (q > 0 && q < n)
		n = q;
	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
