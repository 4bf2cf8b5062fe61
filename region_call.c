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
 * Counter @c's raw count on CPU @cpu, this one, with preemption off at
 * least, where it needs no call: an event on this CPU whose PMU read()
 * does nothing (%PERFKMOD_READ_NONE: software events, tracepoints, probes,
 * breakpoints); and, of an all-CPUs counter, the CPU's hotplug generation
 * (&perfkmod_cpu_share.seq), which moves each time the CPU goes offline
 * or comes online, in @seq if not NULL. As read_local.c reads it: the event is loaded
 * with acquire, then its generation and the counter's read kind (written
 * before its first event is published). False for every other case, which
 * read_slow() reads.
 */
static __always_inline bool read_fast(const struct perfkmod_region *r,
				      struct perfkmod_counter *c, int cpu,
				      u64 *count, unsigned int *seq)
{
	struct perfkmod_cpu_share *pc;
	struct perf_event *event;
	u64 retired = 0;

	if (r->task) {
		event = c->event;
		if (unlikely(event->hw.target != current))
			return false;
		if (seq)
			*seq = 0;
	} else {
		unsigned int s;

		pc = per_cpu_ptr(c->pcpu.cpus, cpu);
		/* pairs with smp_store_release() in perfkmod_sync_cpus() */
		event = smp_load_acquire(&pc->event);
		if (unlikely(!event))
			return false;
		s = READ_ONCE(pc->seq);
		if (unlikely(READ_ONCE(pc->event_seq) != s))
			return false;
		if (seq)
			*seq = s;
		retired = READ_ONCE(pc->retired.value);
	}
	if (unlikely(READ_ONCE(c->read_kind) != PERFKMOD_READ_NONE ||
		     READ_ONCE(event->oncpu) != cpu))
		return false;
	*count = local64_read(&event->count) + retired;
	return true;
}

/*
 * read_fast()'s other cases: perfkmod_read_local_raw(), interrupts off
 * around the PMU's read() it may call; @seq as there, if not NULL. A CPU
 * without an event of an all-CPUs counter (a hybrid machine's CPU whose
 * PMU lacks the event) counted nothing: its calls are lost (-ENODATA),
 * not calls of value 0.
 */
static noinline int read_slow(const struct perfkmod_region *r,
			      struct perfkmod_counter *c, int cpu, u64 *count,
			      unsigned int *seq)
{
	struct perfkmod_cpu_share *pc = NULL;
	unsigned long flags;
	int err = -ENODATA;

	local_irq_save(flags);
	if (!r->task) {
		pc = per_cpu_ptr(c->pcpu.cpus, cpu);
		if (seq)
			*seq = READ_ONCE(pc->seq);
	} else if (seq) {
		*seq = 0;
	}
	/* pairs with smp_store_release() in perfkmod_sync_cpus() */
	if (!pc || smp_load_acquire(&pc->event))
		err = perfkmod_read_local_raw(c, cpu, count);
	local_irq_restore(flags);
	return err;
}

static __always_inline int read_counter(const struct perfkmod_region *r,
					unsigned int i, int cpu, u64 *count,
					unsigned int *seq)
{
	struct perfkmod_counter *c = r->counters[i];

	if (likely(read_fast(r, c, cpu, count, seq)))
		return 0;
	return read_slow(r, c, cpu, count, seq);
}

/*
 * A call's begin on CPU @cpu, preemption off at least; see
 * perfkmod_region_call_begin().
 */
static __always_inline bool call_begin(struct perfkmod_region *r,
				       struct perfkmod_region_call *call,
				       int cpu)
{
	u32 gen = READ_ONCE(r->gen);
	unsigned int i;
	int err;

	if (unlikely(!(gen & 1)))
		return false;	/* off */
	err = read_counter(r, 0, cpu, &call->start[0], &call->seq);
	for (i = 1; !err && i < r->config.nr_counters; i++)
		err = read_counter(r, i, cpu, &call->start[i], NULL);
	if (likely(!err)) {
		call->id = gen;
		call->cpu = cpu;
		call->region = r;
		return true;
	}
	if (err != -EINVAL || !r->task)
		local64_inc(&this_cpu_ptr(r->cpus)->lost);
	return false;
}

/**
 * perfkmod_region_call_begin() - begin a call of a region
 * @r: the region, on: its counters are not released while a caller is in
 *	here (an RCU reader: preemption off, or a probe's handler).
 * @call: the call's state, set.
 *
 * A call from another task than a task region's is not begun and not
 * counted; one whose counter cannot be read here is counted lost.
 *
 * Context: any context, NMI included, preemption off; takes no lock.
 * Return: whether the call began.
 */
bool perfkmod_region_call_begin(struct perfkmod_region *r,
				struct perfkmod_region_call *call)
{
	if (call_begin(r, call, smp_processor_id()))
		return true;
	call->region = NULL;
	return false;
}

/* Lower the local minimum @m to @val, against an interrupting update. */
static __always_inline void fold_min(local64_t *m, u64 val)
{
	u64 old = local64_read(m);

	while (unlikely(val < old)) {
		u64 seen = local64_cmpxchg(m, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void fold_max(local64_t *m, u64 val)
{
	u64 old = local64_read(m);

	while (unlikely(val > old)) {
		u64 seen = local64_cmpxchg(m, old, val);

		if (seen == old)
			break;
		old = seen;
	}
}

/*
 * A call's end, preemption off at least; see perfkmod_region_call_end().
 * The figures are the CPU's, changed with local64 operations: an
 * interrupt or NMI that ends a call of its own meanwhile leaves both
 * whole.
 */
static __always_inline void call_end(struct perfkmod_region *r,
				     struct perfkmod_region_call *call)
{
	struct perfkmod_region_cpu *s;
	unsigned int i, n, seq;
	u64 now;
	int cpu;

	if (unlikely(call->id != READ_ONCE(r->gen)))
		return;
	cpu = smp_processor_id();
	s = this_cpu_ptr(r->cpus);
	if (unlikely(READ_ONCE(s->resetting)))
		return;	/* an NMI in this CPU's reset: not counted */
	if (unlikely(!r->task && call->cpu != cpu)) {
		/* its CPU went offline under it: lost; else it moved */
		if (READ_ONCE(per_cpu_ptr(r->counters[0]->pcpu.cpus,
					  call->cpu)->seq) != call->seq)
			goto lost;
		local64_inc(&s->migrated);
		return;
	}
	/* each counter's value in the call, in place of its start */
	if (unlikely(read_counter(r, 0, cpu, &now, &seq) ||
		     seq != call->seq || now < call->start[0]))
		goto lost;
	call->start[0] = now - call->start[0];
	n = r->config.nr_counters;
	for (i = 1; i < n; i++) {
		if (unlikely(read_counter(r, i, cpu, &now, NULL) ||
			     now < call->start[i]))
			goto lost;
		call->start[i] = now - call->start[i];
	}
	for (i = 0; i < n; i++)
		local64_add(call->start[i], &s->sum[i]);
	fold_min(&s->min, call->start[0]);
	fold_max(&s->max, call->start[0]);
	i = min(fls64(call->start[0]), PERFKMOD_REGION_HIST_BUCKETS - 1);
	local64_inc(&s->hist[i]);
	/* last: a reader that sees the call sees most of it */
	local64_inc(&s->calls);
	return;
lost:
	local64_inc(&s->lost);
}

/**
 * perfkmod_region_call_end() - end a call of a region, and count it
 * @r: the region, as for perfkmod_region_call_begin().
 * @call: the call perfkmod_region_call_begin() began.
 *
 * The call is folded into the figures of the CPU it ends on. It is
 * dropped, uncounted, if the region was turned off or released since its
 * begin (another @gen), or if it ends in an NMI of its CPU's reset;
 * counted migrated if it began on another CPU (all-CPUs counters), lost
 * if that CPU went offline meanwhile; lost if a counter cannot be read
 * here or the CPU went offline and came back in between (its first
 * counter's hotplug generation moved). The call's @start then holds what
 * each counter counted in it.
 *
 * Context: any context, NMI included, preemption off; takes no lock.
 */
void perfkmod_region_call_end(struct perfkmod_region *r,
			      struct perfkmod_region_call *call)
{
	call_end(r, call);
}

/*
 * The marker's begin and end: preemption off makes each an RCU reader,
 * which the release waits for (synchronize_rcu()) before it frees the
 * region, and keeps the call on its CPU while it reads.
 */
void __perfkmod_region_begin(struct perfkmod_marker *marker,
			     struct perfkmod_region_call *call)
{
	struct perfkmod_region *r;

	preempt_disable_notrace();
	r = rcu_dereference_sched(marker->region);
	if (likely(r) && call_begin(r, call, smp_processor_id())) {
		preempt_enable_notrace();
		return;
	}
	call->region = NULL;
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
	if (likely(r == rcu_dereference_sched(marker->region)))
		call_end(r, call);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__perfkmod_region_end);
