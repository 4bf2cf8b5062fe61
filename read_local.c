// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod_counter_read_local(): this CPU's event of a counter (or a task
 * counter's event), read without a lock, allocation or wait, in any
 * context, NMI included; and when it may call the PMU's read()
 * (may_read_pmu()). Documented in perfkmod.h.
 */
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include "cpu_events.h"
#include "internal.h"

/*
 * Whether perf holds @event's context lock, on any CPU. perf changes what
 * is on a CPU's PMU only under the lock of the event's context, on that
 * CPU, interrupts off: event_sched_in() from its store of @event->oncpu
 * to the end of the PMU's add(), event_sched_out() from the PMU's del()
 * to its reset of @oncpu, ctx_resched() and the context switches around
 * the PMU's start() and stop(), the context's time
 * (__update_context_time(), which lockdep asserts held), perf's own reads
 * (__perf_event_read()) and period changes. A local read that finds the
 * lock free is in none of those on this CPU, and none begins there before
 * the read ends: interrupts are off, and an NMI stops the CPU it
 * interrupts. Held by another CPU (perf_event_read() of an inactive event,
 * the checks of an enable), it only makes the count less fresh. Two
 * loads, safe in NMI. Without SMP or spinlock debugging the lock is no
 * lock and reads free: there only an NMI can interrupt perf holding it,
 * and an NMI is taken as finding it held.
 */
static __always_inline bool ctx_locked(struct perf_event *event)
{
#if defined(CONFIG_SMP) || defined(CONFIG_DEBUG_SPINLOCK)
	return raw_spin_is_locked(&READ_ONCE(event->ctx)->lock);
#else
	return in_nmi();
#endif
}

/*
 * Whether a local read may call the PMU's read() of @event, on this CPU's
 * PMU (@event's @oncpu is this CPU, or perf reads it from here: see
 * read_cpu()), @kind being its counter's &enum perfkmod_read_kind; if
 * not, the count is the one of the event's last update. A PMU's read()
 * must not put the count ahead of what the event counted, nor below what
 * an earlier read gave, wherever the read lands in perf's scheduling of
 * this CPU: an NMI lands anywhere in it, and a kprobe or tracepoint in
 * perf's code calls in with the context lock held. Per kind, from
 * kernel/events/core.c and the PMU drivers of 6.1 and 6.12:
 *
 * - %PERFKMOD_READ_NONE: perf_swevent_read() and hw_breakpoint_pmu_read()
 *   do nothing; perf_swevent_event() adds to the count as the event
 *   happens, so the count is exact without a call.
 * - %PERFKMOD_READ_CLOCK: cpu_clock_event_update() and
 *   task_clock_event_update() add the time since @hw.prev_count, taken
 *   with local64_xchg(). Their add(), del(), start() and stop() never
 *   mark the event in @hw.state, and only start() sets @prev_count: from
 *   event_sched_in()'s @oncpu store to add(), @prev_count is 0 before the
 *   first start() (the read adds the uptime, task-clock its context's
 *   whole time) or the time of the last stop() (the time off is added),
 *   and start() then overwrites it, so the count stays ahead for good;
 *   from del() to the @oncpu reset, the time since del() is added. The
 *   context lock covers both. In NMI there is more: an update the NMI
 *   interrupts between its clock read and its exchange
 *   (perf_swevent_hrtimer()'s, in a hard interrupt, without the lock;
 *   perfkmod's own, interrupts off) stores an older time over the NMI's,
 *   and the count goes back; and task-clock reads its context's time,
 *   which __update_context_time() writes in two stores an NMI can split.
 *   So never in NMI. Elsewhere interrupts are off: no other update is
 *   under way on this CPU, and with the lock free the event is active
 *   (event_sched_in() stores @oncpu before it makes the event active,
 *   event_sched_out() resets it before it makes the event inactive, both
 *   under the lock).
 * - %PERFKMOD_READ_HW: the PMU's add() and stop() mark the event
 *   PERF_HES_STOPPED until start() has set @prev_count and the counter,
 *   and the update is a cmpxchg loop, which survives an update it
 *   interrupts. That is enough on x86: x86_pmu_add() marks the event,
 *   x86_pmu_enable() moves counters through x86_pmu_stop() (which marks it
 *   before its update) and x86_pmu_start() (which clears the mark after it
 *   sets the period), and x86_perf_event_update() reads nothing of an
 *   event never started (no @hw.event_base). Not on arm64: armpmu_add()
 *   sets @hw.idx before it marks the event, an event never added is
 *   unmarked with @idx -1 (6.12's read_pmevcntrn() warns of an invalid
 *   index), and armpmu_start() clears the mark before
 *   armpmu_event_set_period() writes @prev_count and the counter, which
 *   holds what the last event on it left: the context lock too, there
 *   and on any other architecture. (arm64's cpu_pm notifier stops and
 *   starts the events around a CPU's low-power state without the lock, a
 *   window perf_event_read_local() leaves open as well.)
 * - %PERFKMOD_READ_SW, %PERFKMOD_READ_SYSTEM: what perfkmod knows nothing
 *   of, as x86's msr PMU, whose msr_event_add() and msr_event_start()
 *   never mark the event and whose @prev_count is 0 until start() (the
 *   read adds the raw TSC): while the context lock is free. A system PMU
 *   is refused in NMI before this.
 */
static __always_inline bool may_read_pmu(u8 kind, struct perf_event *event)
{
	switch (kind) {
	case PERFKMOD_READ_CLOCK:
		return !in_nmi() && !ctx_locked(event);
	case PERFKMOD_READ_NONE:
		return false;
	case PERFKMOD_READ_HW:
		if (READ_ONCE(event->hw.state) & PERF_HES_STOPPED)
			return false;
		return IS_ENABLED(CONFIG_X86) || !ctx_locked(event);
	default:
		return !ctx_locked(event);
	}
}

/*
 * The CPU perf reads @event on for @cpu, its @cpu or @oncpu, as perf's
 * __perf_event_read_cpu() (static) has it: this CPU @this for an event that
 * may be read from any CPU of its PMU's scope (6.12: PERF_EV_CAP_READ_SCOPE)
 * or of its package (PERF_EV_CAP_READ_ACTIVE_PKG) when @this is one; else
 * @cpu. Of a system PMU's event only: no other PMU has those.
 */
static int read_cpu(struct perf_event *event, int cpu, int this)
{
	if ((unsigned int)cpu >= nr_cpu_ids || cpu == this)
		return cpu;
#if defined(PERFKMOD_HAVE_PMU_SCOPE) && defined(PERF_EV_CAP_READ_SCOPE)
	if ((event->group_caps & PERF_EV_CAP_READ_SCOPE) &&
	    cpumask_test_cpu(this, perfkmod_scope_cpus(event->pmu->scope, cpu)))
		return this;
#endif
	if ((event->group_caps & PERF_EV_CAP_READ_ACTIVE_PKG) &&
	    topology_physical_package_id(cpu) ==
	    topology_physical_package_id(this))
		return this;
	return cpu;
}

/*
 * read_event_local() of an event whose @oncpu is not this CPU @this (@kind,
 * its counter's read kind): an event off the PMU, or a system PMU's that
 * perf may read from here. Out of line: the local read of an event on
 * this CPU, which perfkmod_counter_read_local() is for, keeps fewer
 * registers.
 */
static noinline int read_off_cpu(u8 kind, struct perf_event *event,
				 int oncpu, int this)
{
	if (kind == PERFKMOD_READ_SYSTEM) {
		if (read_cpu(event, READ_ONCE(event->cpu), this) != this)
			return -EINVAL;
		if (in_nmi())
			return -EOPNOTSUPP;
		oncpu = read_cpu(event, oncpu, this);
	}
	if (oncpu != this)
		return event->attr.pinned ? -EBUSY : 0;
	if (may_read_pmu(kind, event))
		event->pmu->read(event);
	return 0;
}

/*
 * What @event of @c has counted, read on CPU @this with interrupts off, as
 * perf_event_read_local() (not exported) reads it, but for the PMU's read(),
 * which may_read_pmu() decides. Of a system PMU, never in NMI, where its
 * read may take a lock (-EOPNOTSUPP); and an event that perf does not read
 * on this CPU (read_cpu()) is refused (-EINVAL, as perf answers): the PMU
 * moved it to another CPU (AMD's uncore, 6.1's cstate) or migrated it
 * since, and its count, read here, would not be current. An event whose
 * @oncpu is this CPU is on this CPU's context, whose CPU is its @cpu.
 * Inlined, so that the count stays in a register.
 */
static __always_inline int read_event_local(const struct perfkmod_counter *c,
					    struct perf_event *event,
					    int this, u64 *count)
{
	int oncpu = READ_ONCE(event->oncpu);
	u8 kind = READ_ONCE(c->read_kind);
	int err;

	if (unlikely(oncpu != this)) {
		err = read_off_cpu(kind, event, oncpu, this);
		if (err)
			return err;
	} else if (kind == PERFKMOD_READ_CLOCK) {
		/* first: the one kind that tests both NMI and the lock */
		if (may_read_pmu(PERFKMOD_READ_CLOCK, event))
			event->pmu->read(event);
	} else if (kind != PERFKMOD_READ_NONE) {
		if (unlikely(kind == PERFKMOD_READ_SYSTEM) && in_nmi())
			return -EOPNOTSUPP;
		if (may_read_pmu(kind, event))
			event->pmu->read(event);
	}
	*count = local64_read(&event->count);
	return 0;
}

/*
 * The count of @event, current, on CPU @cpu, this one, in *@count: with
 * @pmu, read_event_local(), interrupts off; without, preemption off at
 * least, the count of an event on this CPU whose kind needs no PMU read()
 * (%PERFKMOD_READ_NONE: software events, tracepoints, probes,
 * breakpoints), which calls nothing, else -EAGAIN: the read is made again
 * with @pmu.
 */
static __always_inline int read_event(const struct perfkmod_counter *c,
				      struct perf_event *event, int cpu,
				      u64 *count, bool pmu)
{
	if (pmu)
		return read_event_local(c, event, cpu, count);
	if (unlikely(READ_ONCE(c->read_kind) != PERFKMOD_READ_NONE ||
		     READ_ONCE(event->oncpu) != cpu))
		return -EAGAIN;
	*count = local64_read(&event->count);
	return 0;
}

/*
 * This CPU's count of per-CPU counter @c, @pc its share of CPU @cpu, this
 * one: its live event's count plus what its retired events counted, no
 * reset's base taken off; @pmu as for read_event(). Nothing here waits,
 * allocates or takes a lock. The event read is safe without @c->lock: a
 * per-CPU counter's event of this CPU is retired or replaced only after
 * the CPU's hotplug callback moved @seq, and that callback runs on this
 * CPU, in its hotplug thread, so not while preemption (or interrupts) is
 * off here, nor under an NMI here. An event whose @event_seq is not the
 * CPU's @seq is not read (-EBUSY). perfkmod_sync_cpus() publishes @event
 * after @event_seq and @retired, with release; it is loaded with acquire,
 * and they and the counter's @read_kind (written before its first event
 * is published) after it. An event and the @event_seq of the next are
 * never read together: the CPU cannot go down and up while preemption is
 * off here (taking it down stops the machine, this CPU included), and
 * perfkmod_sync_cpus() waits for an RCU grace period, which waits for a
 * reader with preemption off, before it publishes a new event where it
 * retired one since. Interrupts need be off only for the PMU's read()
 * (may_read_pmu() says why): what an interrupt may do on this CPU
 * meanwhile leaves the rest as it is, and a count that the PMU's read()
 * does not update is one load of a local64, whole whatever interrupts it.
 */
static __always_inline int read_share_local(struct perfkmod_counter *c,
					    struct perfkmod_cpu_share *pc,
					    int cpu, u64 *count, bool pmu)
{
	struct perf_event *event;
	u64 live = 0;
	int err;

	/* pairs with smp_store_release() in perfkmod_sync_cpus() */
	event = smp_load_acquire(&pc->event);
	if (event) {
		if (READ_ONCE(pc->event_seq) != READ_ONCE(pc->seq))
			return -EBUSY;	/* the CPU went and came back */
		err = read_event(c, event, cpu, &live, pmu);
		if (err)
			return err;
	} else if (!READ_ONCE(pc->served_by) && !READ_ONCE(pc->absent)) {
		/* refused by perf, or not made yet since the CPU came online */
		return READ_ONCE(pc->err) ? -ENODATA : -EBUSY;
	} else if (unlikely(in_nmi()) && perfkmod_system_pmu(c)) {
		return -EOPNOTSUPP;	/* as on the CPU that serves this one */
	}
	*count = live + READ_ONCE(pc->retired.value);
	return 0;
}

/*
 * perfkmod_counter_read_local() (perfkmod.h), @pmu a constant: with
 * @pmu, any read, interrupts off; without, preemption off only, the
 * reads that call nothing (read_event()), and -EAGAIN for the others.
 */
static __always_inline int read_local(struct perfkmod_counter *c, u64 *value,
				      bool pmu)
{
	struct perfkmod_cpu_share *pc;
	struct perf_event *event;
	unsigned long flags;
	u64 count, base;
	int cpu, err;

	if (pmu)
		local_irq_save(flags);
	else
		preempt_disable_notrace();
	cpu = smp_processor_id();
	switch (c->config.target) {
	case PERFKMOD_TARGET_ALL_CPUS:
		pc = per_cpu_ptr(c->pcpu.cpus, cpu);
		break;
	case PERFKMOD_TARGET_CPU:
		if (cpu != c->config.cpu) {
			err = -EINVAL;
			goto err;
		}
		pc = &c->pcpu.one;
		break;
	default:
		event = c->event;
		if (c->config.inherit || event->hw.target != current) {
			err = -EINVAL;
			goto err;
		}
		err = read_event(c, event, cpu, &count, pmu);
		if (err)
			goto err;
		base = READ_ONCE(c->base);
		goto out;
	}
	err = read_share_local(c, pc, cpu, &count, pmu);
	if (err)
		goto err;
	base = READ_ONCE(pc->base);
out:
	if (pmu)
		local_irq_restore(flags);
	else
		preempt_enable_notrace();
	*value = count - min(count, base);
	return 0;

err:
	if (pmu)
		local_irq_restore(flags);
	else
		preempt_enable_notrace();
	return err;
}

/*
 * The read that may call the PMU's read(). Out of line, and a last call
 * where it is called: so the read that calls nothing keeps no register
 * across a call and saves none.
 */
static noinline int read_local_pmu(struct perfkmod_counter *c, u64 *value)
{
	return read_local(c, value, true);
}

/*
 * The counter's kind, loaded first, is a guess at which read it takes:
 * read_event() loads it again, in its order, before it counts on it.
 */
int perfkmod_counter_read_local(struct perfkmod_counter *c, u64 *value)
{
	int err;

	if (READ_ONCE(c->read_kind) != PERFKMOD_READ_NONE)
		return read_local_pmu(c, value);
	err = read_local(c, value, false);
	if (unlikely(err == -EAGAIN))
		return read_local_pmu(c, value);
	return err;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_read_local);

/* perfkmod_read_local_raw(), @pmu as for read_event() */
static __always_inline int read_raw(struct perfkmod_counter *c, int cpu,
				    u64 *count, bool pmu)
{
	struct perf_event *event;

	if (c->config.target == PERFKMOD_TARGET_TASK) {
		event = c->event;
		if (event->hw.target != current)
			return -EINVAL;
		return read_event(c, event, cpu, count, pmu);
	}
	return read_share_local(c, per_cpu_ptr(c->pcpu.cpus, cpu), cpu, count,
				pmu);
}

/* As read_local_pmu(), for perfkmod_read_local_raw() */
static noinline int read_raw_pmu(struct perfkmod_counter *c, int cpu,
				 u64 *count)
{
	return read_raw(c, cpu, count, true);
}

/**
 * perfkmod_read_local_raw() - a counter's raw count on this CPU, for a region
 * @c: an all-CPUs counter, or a task counter without inherit.
 * @cpu: this CPU.
 * @count: set to what the CPU's events of @c counted (the task's event, of
 *	a task counter), no reset taken off: a reset between two reads does
 *	not change their difference.
 *
 * As perfkmod_counter_read_local() reads; the region's begin and end,
 * which read several counters at once, turn interrupts off around them.
 *
 * Context: interrupts off, or NMI; takes no lock.
 * Return: 0, or perfkmod_counter_read_local()'s errno; -%EINVAL for a
 * task counter read outside its task.
 */
int perfkmod_read_local_raw(struct perfkmod_counter *c, int cpu, u64 *count)
{
	int err;

	if (READ_ONCE(c->read_kind) != PERFKMOD_READ_NONE)
		return read_raw_pmu(c, cpu, count);
	err = read_raw(c, cpu, count, false);
	if (unlikely(err == -EAGAIN))
		return read_raw_pmu(c, cpu, count);
	return err;
}
