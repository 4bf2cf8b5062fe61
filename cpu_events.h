/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU events of all-CPUs and one-CPU counters (cpu_events.c) and
 * their lockless local read (read_local.c): the state a counter embeds,
 * what the two files share, and what the counter core calls.
 */
#ifndef _PERFKMOD_CPU_EVENTS_H
#define _PERFKMOD_CPU_EVENTS_H

#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "perfkmod.h"

struct perfkmod_counter;

/* One CPU's share of an all-CPUs or one-CPU counter. */
struct perfkmod_cpu_share {
	/*
	 * NULL when the CPU has no event: it was offline when the counter
	 * was made, or making its event failed (@err). The detached event of
	 * a CPU that went offline stays here until perfkmod_sync_cpus()
	 * retires it. Changed under both &perfkmod_counter.lock and
	 * &perfkmod_counter.sync_lock (smp_store_release()), so stable under
	 * either; read locklessly by perfkmod_counter_read_local().
	 */
	struct perf_event *event;
	/*
	 * Why @event is NULL on an online CPU: the errno from perf, else 0.
	 * Written under &perfkmod_counter.sync_lock (WRITE_ONCE()), read
	 * without it (READ_ONCE()).
	 */
	int err;
	/*
	 * An event was retired, and no RCU grace period has passed since: a
	 * reader of the CPU (interrupts off, or NMI) may have loaded it and
	 * not yet @event_seq, which must not meet the next event's. Under
	 * &perfkmod_counter.sync_lock.
	 */
	bool grace_due;
	/*
	 * The CPU's value (retired plus live) at the last reset. Written
	 * under &perfkmod_counter.lock (WRITE_ONCE()), read locklessly by
	 * perfkmod_counter_read_local().
	 */
	u64 base;
	/*
	 * What the CPU's earlier events counted before it went offline.
	 * Added to under both &perfkmod_counter.lock and
	 * &perfkmod_counter.sync_lock, before @event is cleared; read under
	 * either, or locklessly by perfkmod_counter_read_local() after it
	 * loads @event.
	 */
	struct perfkmod_value retired;
	/*
	 * The CPU's hotplug generation and direction in one word, so that a
	 * reader never sees one without the other: bumped by the CPU hotplug
	 * callback each time the CPU comes online or goes offline, with
	 * PERFKMOD_CPU_DOWN set when it went offline (WRITE_ONCE() there,
	 * READ_ONCE() once in perfkmod_sync_cpus()). @event is good only
	 * while @event_seq, the @seq it was made at, equals it.
	 */
	unsigned int seq;
	unsigned int event_seq;
	/*
	 * Of a PMU that counts for several CPUs at once (see
	 * event_is_shared() in cpu_events.c): the number plus one of the
	 * counted CPU whose event counts what this CPU's would, so that this
	 * CPU has none; 0 otherwise. Changed under
	 * &perfkmod_counter.sync_lock (WRITE_ONCE()), read locklessly by
	 * perfkmod_counter_read_local().
	 */
	unsigned int served_by;
	/*
	 * Why an all-CPUs counter's @event is NULL on an online CPU that the
	 * PMU does not serve (a hybrid system's PMU of the other kind of
	 * CPU): its -ENOENT or -ENODEV, which is no error of the counter, as
	 * long as some CPU counts (@err is 0). Changed under
	 * &perfkmod_counter.sync_lock (WRITE_ONCE()), read locklessly by
	 * perfkmod_counter_read_local().
	 */
	int absent;
};

/* In perfkmod_cpu_share.seq: the CPU's last hotplug callback was offline */
#define PERFKMOD_CPU_DOWN	1u

/**
 * struct perfkmod_cpu_events - a counter's per-CPU events: cpu_events.c's
 * @sync_queued: @hotplug_work was queued once at least; set before each
 *	time (WRITE_ONCE()), so that a release after the counter was taken
 *	off its list (the callbacks queue it under perfkmod_counters_mutex)
 *	or after create (which may queue it) reads it right.
 * @cpus: the per-CPU shares of an all-CPUs counter; NULL otherwise. Set by
 *	perfkmod_cpu_events_init(), freed by perfkmod_cpu_events_exit().
 * @one: the share of a one-CPU counter (of its CPU only: no per-CPU
 *	array, for its memory and its create and release). Reach a per-CPU
 *	counter's CPU through perfkmod_cpu_share().
 * @hotplug_work: brings the events of a per-CPU counter in line with the
 *	online CPUs, in a workqueue, after the hotplug callback queued it (at
 *	once), or queued by itself (later) while a CPU is between states.
 *
 * The shares' fields say which lock guards each. The counter's @sync_lock
 * (internal.h) serialises the making and retiring of the events.
 */
struct perfkmod_cpu_events {
	bool sync_queued;
	struct perfkmod_cpu_share __percpu *cpus;
	struct perfkmod_cpu_share one;
	struct delayed_work hotplug_work;
};

/* cpu_events.c: a counter's per-CPU state, set up and taken down */
int perfkmod_cpu_events_init(struct perfkmod_counter *c);
void perfkmod_cpu_events_exit(struct perfkmod_counter *c);

/* cpu_events.c: the per-CPU events, for the counter core */
int perfkmod_create_cpus(struct perfkmod_counter *c);
int perfkmod_sync_cpus(struct perfkmod_counter *c);
void perfkmod_release_cpus(struct perfkmod_counter *c);
void perfkmod_cpu_changed(struct perfkmod_counter *c, unsigned int cpu,
			  bool down);
void perfkmod_cpu_events_enable(struct perfkmod_counter *c, bool on);
void perfkmod_cpu_events_read(struct perfkmod_counter *c, int cpu,
			      struct perfkmod_value *val);
void perfkmod_cpu_events_reset(struct perfkmod_counter *c);
int perfkmod_cpu_events_set_period(struct perfkmod_counter *c, u64 value,
				   bool *live);
bool perfkmod_cpu_events_failed(struct perfkmod_counter *c);

/* read_local.c: a counter's raw count on this CPU, for the regions */
int perfkmod_read_local_raw(struct perfkmod_counter *c, int cpu, u64 *count);

/* cpu_events.c, for the KUnit suites */
void perfkmod_cpu_events_flush(struct perfkmod_counter *c);

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
