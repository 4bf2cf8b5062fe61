/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU events of all-CPUs and one-CPU counters (cpu_events.c) and
 * their lockless local read (read_local.c): what the two share, and what
 * the counter core calls.
 */
#ifndef _PERFKMOD_CPU_EVENTS_H
#define _PERFKMOD_CPU_EVENTS_H

#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/topology.h>

struct module;
struct perfkmod_counter;

/* cpu_events.c: per-CPU events, and the lists of counters */
void perfkmod_list_task_counter(struct perfkmod_counter *c);
bool perfkmod_unlist_counter(struct perfkmod_counter *c);
struct perfkmod_counter *perfkmod_take_owned_counter(struct module *mod);
int perfkmod_create_cpus(struct perfkmod_counter *c);
int perfkmod_sync_cpus(struct perfkmod_counter *c);
void perfkmod_release_cpus(struct perfkmod_counter *c);
void perfkmod_counter_flush_hotplug(struct perfkmod_counter *c);

/*
 * The CPUs that a PMU with @scope counts for together with @cpu: what perf
 * reads its events on (perf_scope_cpu_topology_cpumask(), not exported).
 */
#ifdef PERFKMOD_HAVE_PMU_SCOPE
static inline const struct cpumask *
perfkmod_scope_cpus(unsigned int scope, int cpu)
{
	switch (scope) {
	case PERF_PMU_SCOPE_CORE:
		return topology_sibling_cpumask(cpu);
	case PERF_PMU_SCOPE_DIE:
		return topology_die_cpumask(cpu);
	case PERF_PMU_SCOPE_CLUSTER:
		return topology_cluster_cpumask(cpu);
	case PERF_PMU_SCOPE_PKG:
		return topology_core_cpumask(cpu);
	case PERF_PMU_SCOPE_SYS_WIDE:
		return cpu_online_mask;
	}
	return cpumask_of(cpu);
}
#endif

#endif /* _PERFKMOD_CPU_EVENTS_H */
