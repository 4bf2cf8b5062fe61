/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's own files share with each other; other modules use
 * perfkmod.h only.
 */
#ifndef _PERFKMOD_INTERNAL_H
#define _PERFKMOD_INTERNAL_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>

#include "perfkmod.h"

/* Hard ceiling of the max_counters module parameter. */
#define PERFKMOD_MAX_COUNTERS_LIMIT	65536

/* One CPU's share of an all-CPUs counter. */
struct perfkmod_cpu {
	/* NULL while the CPU is offline, or when creating its event failed */
	struct perf_event *event;
	/* why event is NULL on an online CPU: the errno from perf, else 0 */
	int err;
	/* the CPU's value (retired plus live) at the last reset */
	u64 base;
	/* what the CPU's earlier events counted before it went offline */
	struct perfkmod_value retired;
};

/**
 * struct perfkmod_counter - a counter: one perf event, or one per CPU
 * @config: the config it was created from; @config.task is NULL (the task,
 *	if any, is named by @config.pid).
 * @lock: serialises enable, disable, reset, reads of all-CPUs counters and
 *	the CPU hotplug callbacks. Protects @enabled, @cpus and @base writes.
 *	Lock order: cpu_hotplug_lock, then @lock, then perf's own mutexes.
 * @enabled: counting is on; a CPU that comes online gets its event in this
 *	state.
 * @event: the perf event of a one-CPU or task counter; NULL otherwise.
 * @base: @event's value at the last reset; written under @lock with
 *	WRITE_ONCE(), read locklessly with READ_ONCE().
 * @cpus: the per-CPU events of an all-CPUs counter; NULL otherwise.
 * @node: an all-CPUs counter's entry in perfkmod's CPU hotplug state.
 * @overflows: overflows perf reported to the trampoline.
 */
struct perfkmod_counter {
	struct perfkmod_config config;
	struct mutex lock;
	bool enabled;
	struct perf_event *event;
	u64 base;
	struct perfkmod_cpu __percpu *cpus;
	struct hlist_node node;
	atomic64_t overflows;
};

int perfkmod_hotplug_init(void);
void perfkmod_hotplug_exit(void);

void perfkmod_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs);

void perfkmod_debugfs_init(void);
void perfkmod_debugfs_exit(void);

#endif /* _PERFKMOD_INTERNAL_H */
