// SPDX-License-Identifier: GPL-2.0
/*
 * Which row of perf stat's --per-core, --per-cache, --per-cluster,
 * --per-die, --per-socket and --per-node a CPU's counts go to, from sysfs
 * as perf reads it (tools/perf/util/cpumap.c): a missing die_id or
 * cluster_id is 0, any other missing number -1; a cache row is the
 * highest level's cache, named by the first CPU that shares it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

static const char sys_cpu[] = "/sys/devices/system/cpu";

/* read_int: the number in sysfs file PATH; false if there is none */
static bool read_int(const char *path, int *v)
{
	char *text = read_text(path), *end;
	long n;

	if (!text)
		return false;
	n = strtol(text, &end, 10);
	if (end == text) {
		free(text);
		return false;
	}
	free(text);
	*v = (int)n;
	return true;
}

static int topology_int(int cpu, const char *name)
{
	char *path = xasprintf("%s/cpu%d/topology/%s", sys_cpu, cpu, name);
	int v;

	if (!read_int(path, &v))
		v = -1;
	free(path);
	return v;
}

/* node_of: the node whose directory links CPU, or -1 */
static int node_of(int cpu)
{
	char *dir = xasprintf("%s/cpu%d", sys_cpu, cpu);
	struct dirent *d;
	int node = -1;
	DIR *dp;

	dp = opendir(dir);
	free(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dp);
	return node;
}

/*
 * cache_of: the level and instance of CPU's highest cache, as perf finds
 * them: every cache/indexN must have its files, or there is no cache
 * row (-1, -1); the instance is the lowest CPU of its shared_cpu_list.
 */
static void cache_of(int cpu, int *level, int *id)
{
	static const char * const files[] = {
		"coherency_line_size", "number_of_sets",
		"ways_of_associativity", "type", "size",
	};
	int lvl, best = -1, first, i, n;
	char *path, *text, *end;
	size_t f;

	*level = -1;
	*id = -1;
	for (i = 0; ; i++) {
		path = xasprintf("%s/cpu%d/cache/index%d/level", sys_cpu, cpu, i);
		n = read_int(path, &lvl);
		free(path);
		if (!n) {
			if (i == 0)
				return;
			break;
		}
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			path = xasprintf("%s/cpu%d/cache/index%d/%s", sys_cpu,
					 cpu, i, files[f]);
			text = read_text(path);
			free(path);
			if (!text)
				return;
			free(text);
		}
		path = xasprintf("%s/cpu%d/cache/index%d/shared_cpu_list",
				 sys_cpu, cpu, i);
		text = read_text(path);
		free(path);
		if (!text)
			return;
		first = strtol(text, &end, 10);
		if (end == text)
			first = cpu;
		free(text);
		if (lvl > best) {
			best = lvl;
			*level = lvl;
			*id = first;
		}
	}
}

void aggr_id_of_cpu(int cpu, enum aggr_mode mode, struct aggr_id *id)
{
	memset(id, 0xff, sizeof(*id));		/* every field -1 */
	switch (mode) {
	case AGGR_NODE:
		id->node = node_of(cpu);
		return;
	case AGGR_GLOBAL:
	case AGGR_THREAD:
		return;
	case AGGR_NONE:
		id->cpu = cpu;
		return;
	default:
		break;
	}
	id->socket = topology_int(cpu, "physical_package_id");
	if (mode == AGGR_SOCKET)
		return;
	id->die = topology_int(cpu, "die_id");
	if (id->die == -1)
		id->die = 0;
	if (mode == AGGR_DIE)
		return;
	if (mode == AGGR_CACHE) {
		cache_of(cpu, &id->cache_lvl, &id->cache);
		return;
	}
	id->cluster = topology_int(cpu, "cluster_id");
	if (id->cluster == -1)
		id->cluster = 0;
	if (mode == AGGR_CLUSTER)
		return;
	id->core = topology_int(cpu, "core_id");
}

/* aggr_id_cmp: perf's order of rows (aggr_cpu_id__cmp, then the CPU) */
int aggr_id_cmp(const struct aggr_id *a, const struct aggr_id *b)
{
	const int x[] = { a->node, a->socket, a->die, a->cluster, a->cache_lvl,
			  a->cache, a->core, a->thread, a->cpu };
	const int y[] = { b->node, b->socket, b->die, b->cluster, b->cache_lvl,
			  b->cache, b->core, b->thread, b->cpu };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(x); i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* sysfs_cpus: the CPUs of sysfs's list FILE; it must name one */
static int *sysfs_cpus(const char *file, int *n)
{
	char *path = xasprintf("%s/%s", sys_cpu, file);
	int *cpus = cpu_list(path, n);

	if (!*n)
		die("%s: cannot read a CPU in it", path);
	free(path);
	return cpus;
}

int *online_cpu_list(int *n)
{
	return sysfs_cpus("online", n);
}

/* possible_cpus: one more than the highest CPU number there may be */
int possible_cpus(void)
{
	int n, *cpus = sysfs_cpus("possible", &n), last = cpus[n - 1];

	free(cpus);
	return last + 1;
}
