// SPDX-License-Identifier: GPL-2.0
/*
 * A region's calls: a call's begin reads the region's counters on its CPU,
 * its end reads them again and folds the differences into the CPU's
 * figures; both in any context, NMI included, without a lock. From a
 * module's marker (__perfkmod_region_begin() and _end(), which
 * perfkmod_region.h's inline begin and end call while the marker's static
 * key is on) or a function's probe (region_func.c).
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "internal.h"
#include "region.h"

/*
 * The share of CPU @cpu of @r's first counter: its hotplug generation
 * (&perfkmod_cpu_share.seq) moves each time the CPU goes offline or comes
 * online, on every per-CPU counter; 0 for a task's counters, which follow
 * their task.
 */
static __always_inline u32 cpu_gen(const struct perfkmod_region *r, int cpu)
{
	if (r->task)
		return 0;
	return READ_ONCE(per_cpu_ptr(r->counters[0]->pcpu.cpus, cpu)->seq);
}

/**
 * perfkmod_region_call_begin() - begin a call of a region
 * @r: the region, on: its counters are not released while a caller is in
 *	here (an RCU reader: interrupts off, or a probe's handler).
 * @call: the call's state, set.
 *
 * A call from another task than a task region's is not begun and not
 * counted; one whose counter cannot be read here is counted lost.
 *
 * Context: any context, NMI included; takes no lock.
 * Return: whether the call began.
 */
bool perfkmod_region_call_begin(struct perfkmod_region *r,
				struct perfkmod_region_call *call)
{
	unsigned long flags;
	unsigned int i;
	int cpu, err = 0;

	local_irq_save(flags);
	cpu = smp_processor_id();
	call->id = READ_ONCE(r->gen);
	if (unlikely(!(call->id & 1)))
		goto out;	/* off */
	call->cpu = cpu;
	call->seq = cpu_gen(r, cpu);
	for (i = 0; i < r->config.nr_counters; i++) {
		err = perfkmod_read_local_raw(r->counters[i], cpu,
					      &call->start[i]);
		if (unlikely(err))
			break;
	}
	if (likely(!err)) {
		call->region = r;
		local_irq_restore(flags);
		return true;
	}
	if (err != -EINVAL || !r->task)
		local64_inc(&this_cpu_ptr(r->cpus)->lost);
out:
	call->region = NULL;
	local_irq_restore(flags);
	return false;
}

/* Lower @v's local minimum @m to @val, against an interrupting update. */
static __always_inline void fold_min(local64_t *m, u64 val)
{
	u64 old = local64_read(m);

	while (val < old) {
		u64 seen = local64_cmpxchg(m, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void fold_max(local64_t *m, u64 val)
{
	u64 old = local64_read(m);

	while (val > old) {
		u64 seen = local64_cmpxchg(m, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

/**
 * perfkmod_region_call_end() - end a call of a region, and count it
 * @r: the region, as for perfkmod_region_call_begin().
 * @call: the call perfkmod_region_call_begin() began.
 *
 * The call is folded into the figures of the CPU it ends on. It is
 * dropped, uncounted, if the region was turned off or released since its
 * begin (another @gen), or if it ends in an NMI of its CPU's reset;
 * counted migrated if it began on another CPU (all-CPUs counters); lost if
 * a counter cannot be read here or the CPU went offline (or came online)
 * in between.
 *
 * Context: any context, NMI included; takes no lock.
 */
void perfkmod_region_call_end(struct perfkmod_region *r,
			      struct perfkmod_region_call *call)
{
	struct perfkmod_region_cpu *s;
	unsigned long flags;
	unsigned int i, n;
	u64 now, v[PERFKMOD_REGION_MAX_COUNTERS];
	int cpu;

	local_irq_save(flags);
	if (unlikely(call->id != READ_ONCE(r->gen)))
		goto out;
	cpu = smp_processor_id();
	s = this_cpu_ptr(r->cpus);
	if (unlikely(READ_ONCE(s->resetting)))
		goto out;	/* an NMI in this CPU's reset: not counted */
	if (!r->task && unlikely(call->cpu != cpu)) {
		local64_inc(&s->migrated);
		goto out;
	}
	n = r->config.nr_counters;
	for (i = 0; i < n; i++) {
		if (unlikely(perfkmod_read_local_raw(r->counters[i], cpu, &now) ||
			     now < call->start[i]))
			goto lost;
		v[i] = now - call->start[i];
	}
	if (unlikely(cpu_gen(r, cpu) != call->seq))
		goto lost;
	for (i = 0; i < n; i++)
		local64_add(v[i], &s->sum[i]);
	fold_min(&s->min, v[0]);
	fold_max(&s->max, v[0]);
	i = min(fls64(v[0]), PERFKMOD_REGION_HIST_BUCKETS - 1);
	local64_inc(&s->hist[i]);
	/* last: a reader that sees the call sees most of it */
	local64_inc(&s->calls);
out:
	local_irq_restore(flags);
	return;
lost:
	local64_inc(&s->lost);
	local_irq_restore(flags);
}

void __perfkmod_region_begin(struct perfkmod_marker *marker,
			     struct perfkmod_region_call *call)
{
	struct perfkmod_region *r;

	/*
	 * preempt_disable() makes the begin an RCU reader: the release
	 * waits for it (synchronize_rcu()) before it frees the region.
	 */
	preempt_disable_notrace();
	r = rcu_dereference_sched(marker->region);
	if (r)
		perfkmod_region_call_begin(r, call);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__perfkmod_region_begin);

void __perfkmod_region_end(struct perfkmod_marker *marker,
			   struct perfkmod_region_call *call)
{
	struct perfkmod_region *r = call->region;

	if (!r)
		return;
	preempt_disable_notrace();
	/* a region released since is neither read nor written */
	if (r == rcu_dereference_sched(marker->region))
		perfkmod_region_call_end(r, call);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__perfkmod_region_end);
