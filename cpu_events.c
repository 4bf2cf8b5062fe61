// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU events of all-CPUs and one-CPU counters: made for the CPUs
 * online when the counter is made, then brought in line as CPUs come and
 * go, by the work that the CPU hotplug callbacks (counter_list.c) queue;
 * and what the counter core does to them all: enable and disable, read,
 * reset, period and state. read_local.c reads this CPU's event without a
 * lock.
 */
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "counter_event.h"
#include "cpu_events.h"
#include "internal.h"

/* Whether a per-CPU counter (all CPUs, or one) counts on @cpu. */
static bool counts_on(const struct perfkmod_counter *c, unsigned int cpu)
{
	return c->config.target == PERFKMOD_TARGET_ALL_CPUS ||
	       cpu == c->config.cpu;
}

/**
 * perfkmod_cpu_changed() - note that a CPU of a per-CPU counter came or goes
 * @c: a per-CPU counter.
 * @cpu: the CPU.
 * @down: it is going offline; else it came online.
 *
 * A CPU of a per-CPU counter (all CPUs, or one CPU) came online or is going
 * offline (@down): in the CPU's hotplug thread, while the CPU hotplug lock
 * is held for writing, so no perf event may be made or released here (see
 * "Locks" in internal.h). So this only notes that the CPU's event, if
 * any, is stale, and leaves the work to perfkmod_sync_cpus(), in
 * a workqueue. perf detaches the events of a CPU going offline for good
 * (after this callback, which runs before perf's own); perfkmod_sync_cpus()
 * keeps what such an event counted and makes a new one when the CPU is
 * back. Never fails: a CPU must come online even when its event cannot be
 * made; it then reads as in error.
 *
 * Context: a CPU hotplug callback (counter_list.c), perfkmod_counters_mutex
 *	held.
 */
void perfkmod_cpu_changed(struct perfkmod_counter *c, unsigned int cpu,
			  bool down)
{
	struct perfkmod_cpu_share *pc;

	if (!counts_on(c, cpu))
		return;
	pc = perfkmod_cpu_share(c, cpu);
	/*
	 * Only written here: a new generation, and the direction in the same
	 * store. Pairs with READ_ONCE() in perfkmod_sync_cpus().
	 */
	WRITE_ONCE(pc->seq, ((pc->seq | PERFKMOD_CPU_DOWN) + 1) |
			    (down ? PERFKMOD_CPU_DOWN : 0));
	/* seen before the CPU is active: see enodev_answer() */
	smp_mb();
	WRITE_ONCE(c->pcpu.sync_queued, true);
	mod_delayed_work(system_unbound_wq, &c->pcpu.hotplug_work, 0);
}

/*
 * What perf's -ENODEV for @cpu, whose event was being made at @seq, means.
 * perf answers -ENODEV for a CPU whose perf context is off: from its
 * teardown at CPUHP_AP_PERF_ONLINE until CPUHP_PERF_PREPARE brings it back.
 * perfkmod's callback (CPUHP_AP_ONLINE_DYN) runs between that and the
 * CPU's active state either way: a CPU going down stops being active, then
 * perfkmod's callback bumps @seq, then perf turns its context off; one
 * coming up has its context on, then perfkmod's callback bumps @seq and
 * queues a sync, then it becomes active. So on an active CPU, a moved @seq
 * says the CPU went and came back meanwhile (a sync is queued: 0), an
 * unchanged one that -ENODEV is the PMU's own answer. On a CPU not active,
 * perf's context may be off or on: -EAGAIN, try again later. Likewise while
 * another CPU is between states (online, not active): a PMU that serves
 * this CPU from another (uncore, RAPL) may have moved the event to that
 * one, whose context perf is turning off or has not turned on yet.
 */
static int enodev_answer(struct perfkmod_cpu_share *pc, int cpu,
			 unsigned int seq)
{
	if (!cpu_active(cpu) || !cpumask_equal(cpu_online_mask, cpu_active_mask))
		return -EAGAIN;
	/* pairs with smp_mb() in perfkmod_cpu_changed() */
	smp_rmb();
	return READ_ONCE(pc->seq) == seq ? -ENODEV : 0;
}

/*
 * Whether @event, just made for @cpu, counts for more CPUs than @cpu: its
 * PMU moved it to a CPU of its choosing, which serves a whole package or
 * die (uncore, RAPL, AMD's uncore), or the PMU has a scope (6.11 and later:
 * cstate_core, cstate_pkg, ...), whose events stay where they were made
 * and read the one counter of the core, die, cluster or package.
 */
static bool event_is_shared(struct perf_event *event, int cpu)
{
	if (READ_ONCE(event->cpu) != cpu)
		return true;
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	if (event->pmu->scope != PERF_PMU_SCOPE_NONE)
		return true;
#endif
	return false;
}

/*
 * Whether @a and @b, events of one counter, count the same: on one CPU
 * (where the PMU moved both, or one migrated to the CPU of the other), or
 * on CPUs of one scope of a PMU with a scope. @b is on an online CPU, whose
 * topology masks hold the online CPUs of its core, die and package.
 */
static bool events_count_alike(struct perf_event *a, struct perf_event *b)
{
	int acpu = READ_ONCE(a->cpu), bcpu = READ_ONCE(b->cpu);

	if (acpu == bcpu)
		return true;
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	if (b->pmu->scope != PERF_PMU_SCOPE_NONE && acpu >= 0)
		return cpumask_test_cpu(acpu, perfkmod_scope_cpus(b->pmu->scope, bcpu));
#endif
	return false;
}

/*
 * The counted CPU, other than @cpu, whose event counts what @event (made
 * for @cpu) counts; -1 if there is none. Also a CPU whose event went stale
 * since the first pass of perfkmod_sync_cpus() (the CPU went offline
 * meanwhile): the sync its callback queued retires that event, then makes
 * the next, so that the two never count at once. Called with
 * @c->sync_lock held.
 */
static int find_server(struct perfkmod_counter *c, int cpu,
		       struct perf_event *event)
{
	int other;

	lockdep_assert_held(&c->sync_lock);
	for_each_cpu(other, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, other);

		if (other != cpu && pc->event &&
		    events_count_alike(pc->event, event))
			return other;
	}
	return -1;
}

/*
 * Retire the event of counted CPU @cpu if the CPU went offline (or went
 * and came back) since the event was made, keeping what it counted in
 * @retired. Called with @c->sync_lock held.
 */
static void retire_stale(struct perfkmod_counter *c, int cpu)
{
	struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);
	/* @event changes under both locks: @sync_lock, held, will do */
	struct perf_event *event = pc->event;

	/* pairs with WRITE_ONCE() in perfkmod_cpu_changed() */
	if (!event || pc->event_seq == READ_ONCE(pc->seq))
		return;
	/*
	 * A CPU going offline: its event may still count until perf
	 * detaches it. Stopped first, it counts nothing between the read and
	 * the release. (An event perf detached is off already.)
	 */
	perf_event_disable(event);
	mutex_lock(&c->lock);
	perfkmod_add_event_value(event, &pc->retired);
	/* @retired first: see perfkmod_counter_read_local() */
	smp_store_release(&pc->event, NULL);
	mutex_unlock(&c->lock);
	perf_event_release_kernel(event);
	pc->grace_due = true;
}

/**
 * perfkmod_sync_cpus() - bring a per-CPU counter's events in line with CPUs
 * @c: a per-CPU counter.
 *
 * Bring the events of a per-CPU counter in line with the CPUs: retire the
 * event of each CPU that went offline (or went and came back) since its
 * event was made, keeping what it counted in @retired; then make an event
 * for each counted CPU that is online and has none, also where an earlier
 * attempt failed. A CPU that comes or goes meanwhile makes perf answer
 * -ENODEV: its callback queues another sync, or this one queues itself
 * again, a tenth of a second later, while the CPU is between states (a
 * window that ends, unless a debug kernel parks the CPU there).
 *
 * An all-CPUs counter of a PMU whose events count for several CPUs (see
 * event_is_shared()) keeps one event for each set of CPUs it counts for:
 * a CPU whose new event counts what another CPU's current event counts
 * has its event released and is served by the other (@served_by). The
 * stale events are all retired before any is made, so that a package's
 * old and new events never count at once. A CPU whose PMU lacks the
 * event (a hybrid system's PMU of the other kind of CPU) has none either:
 * perf's -ENOENT or -ENODEV is noted in @absent, not as an error.
 *
 * Called with @c->sync_lock held, and neither @c->lock nor the CPU hotplug
 * lock (see "Locks" in internal.h): @c->lock is taken here only to publish
 * a change, never around perf making or releasing an event.
 *
 * Context: process context, may sleep; @c->sync_lock held.
 * Return: the first errno perf gave for an online CPU, or 0.
 */
int perfkmod_sync_cpus(struct perfkmod_counter *c)
{
	bool all = c->config.target == PERFKMOD_TARGET_ALL_CPUS;
	struct perf_event *event;
	int cpu, other, err, server, first = 0;
	unsigned int seq;
	bool enabled;

	lockdep_assert_held(&c->sync_lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c))
		retire_stale(c, cpu);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		/* pairs with WRITE_ONCE() in perfkmod_cpu_changed() */
		seq = READ_ONCE(pc->seq);
		if (pc->event)
			continue;
		/*
		 * Not on a CPU on its way down either: perf would detach the
		 * event, which would hold what it reserved (a breakpoint
		 * slot, a counter) until the CPU is back.
		 */
		if (!cpu_online(cpu) || (seq & PERFKMOD_CPU_DOWN)) {
			WRITE_ONCE(pc->err, 0);
			continue;
		}
		/*
		 * Nor on a CPU between states that its callback has not seen
		 * yet (generation 0: offline when the counter was made), whose
		 * way is unknown: a bring-up that rolls back before perfkmod's
		 * state would leave a detached event with a current @seq.
		 */
		if (!seq && !cpu_active(cpu)) {
			WRITE_ONCE(pc->err, 0);
			WRITE_ONCE(c->pcpu.sync_queued, true);
			queue_delayed_work(system_unbound_wq, &c->pcpu.hotplug_work,
					   HZ / 10);
			continue;
		}
		/* still served by the event of another CPU */
		if (pc->served_by &&
		    perfkmod_cpu_share(c, pc->served_by - 1)->event)
			continue;
		WRITE_ONCE(pc->served_by, 0);
		/*
		 * A PMU that serves CPUs from others moves its events while a
		 * CPU comes or goes, in hotplug states below perfkmod's (uncore
		 * and RAPL choose another CPU, perf migrates a scope's events):
		 * an event made meanwhile may land beside the moved one, or be
		 * refused. None is made until every online CPU is active.
		 */
		if (perfkmod_system_pmu(c) &&
		    !cpumask_equal(cpu_online_mask, cpu_active_mask)) {
			WRITE_ONCE(pc->err, 0);
			WRITE_ONCE(c->pcpu.sync_queued, true);
			queue_delayed_work(system_unbound_wq, &c->pcpu.hotplug_work,
					   HZ / 10);
			continue;
		}
		/* one grace period for all the events retired until now */
		if (pc->grace_due) {
			synchronize_rcu();
			for_each_cpu(other, perfkmod_counted_cpus(c))
				perfkmod_cpu_share(c, other)->grace_due = false;
		}
		/* enable and disable change it under @lock alone */
		enabled = READ_ONCE(c->enabled);
		event = perfkmod_create_event(c, cpu, NULL, !enabled);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			if (err == -ENODEV)
				err = enodev_answer(pc, cpu, seq);
			pr_debug("no event on CPU %d: %pe\n", cpu, event);
			/* @absent unchanged until the CPU's state is known */
			if (err == -EAGAIN) {
				WRITE_ONCE(c->pcpu.sync_queued, true);
				queue_delayed_work(system_unbound_wq,
						   &c->pcpu.hotplug_work, HZ / 10);
				WRITE_ONCE(pc->err, 0);
				continue;
			}
			/*
			 * Written once each: perfkmod_counter_read_local() reads
			 * them locklessly. See perfkmod_create_cpus() for a PMU
			 * that no CPU has.
			 */
			if (all && (err == -ENOENT || err == -ENODEV)) {
				WRITE_ONCE(pc->absent, err);
				err = 0;
			} else if (pc->absent) {
				WRITE_ONCE(pc->absent, 0);
			}
			WRITE_ONCE(pc->err, err);
			first = first ?: err;
			continue;
		}
		WRITE_ONCE(pc->absent, 0);
		/* perfkmod_create_event() classed a PMU with no task events */
		if (event_is_shared(event, cpu))
			perfkmod_events_read_as_system(c);
		/*
		 * Also for an event that stayed on its CPU: the one of the CPU
		 * that serves the package, which the PMU does not move.
		 */
		server = all && perfkmod_system_pmu(c) ? find_server(c, cpu, event) : -1;
		if (server >= 0) {
			/* @c outlives it: no wait for an overflow */
			perf_event_release_kernel(event);
			WRITE_ONCE(pc->served_by, server + 1);
			WRITE_ONCE(pc->err, 0);
			continue;
		}
		mutex_lock(&c->lock);
		/* an enable or disable meanwhile did not see this event */
		if (c->enabled != enabled) {
			if (c->enabled)
				perf_event_enable(event);
			else
				perf_event_disable(event);
		}
		WRITE_ONCE(pc->event_seq, seq);
		/* after @event_seq: see perfkmod_counter_read_local() */
		smp_store_release(&pc->event, event);
		WRITE_ONCE(pc->err, 0);
		mutex_unlock(&c->lock);
	}
	return first;
}

static void hotplug_work(struct work_struct *work)
{
	struct perfkmod_counter *c = container_of(to_delayed_work(work),
						  struct perfkmod_counter,
						  pcpu.hotplug_work);

	mutex_lock(&c->sync_lock);
	perfkmod_sync_cpus(c);
	mutex_unlock(&c->sync_lock);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * perfkmod_cpu_events_flush() - wait for a counter's hotplug work
 * @c: a per-CPU counter.
 *
 * For the KUnit suites: once it returns, the events of @c follow the CPU
 * hotplug operations that returned before it was called (no CPU is left
 * between states then, which would make the work queue itself again).
 *
 * Context: process context, may sleep.
 */
void perfkmod_cpu_events_flush(struct perfkmod_counter *c)
{
	flush_delayed_work(&c->pcpu.hotplug_work);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_cpu_events_flush);
#endif

/**
 * perfkmod_release_cpus() - release the events of a per-CPU counter
 * @c: a per-CPU counter.
 *
 * Release the events of a per-CPU counter for good, once it is off its
 * list: no hotplug callback queues the work then, and none of it runs
 * after cancel_delayed_work_sync(), which also stops a work queueing
 * itself.
 *
 * Context: process context, may sleep.
 */
void perfkmod_release_cpus(struct perfkmod_counter *c)
{
	int cpu;

	/* never queued, it cannot run: no need to wait for it */
	if (READ_ONCE(c->pcpu.sync_queued))
		cancel_delayed_work_sync(&c->pcpu.hotplug_work);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (pc->event)
			perf_event_release_kernel(pc->event);
	}
}

/**
 * perfkmod_cpu_events_enable() - enable or disable a per-CPU counter's events
 * @c: a per-CPU counter.
 * @on: enable; else disable. Enable skips the stale event of a CPU that
 *	went and came back since its event was made: perf would count
 *	enabled time for it until the hotplug work retires it.
 *
 * Context: process context, may sleep; @c->lock held.
 */
void perfkmod_cpu_events_enable(struct perfkmod_counter *c, bool on)
{
	int cpu;

	lockdep_assert_held(&c->lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (!pc->event)
			continue;
		if (!on)
			perf_event_disable(pc->event);
		else if (pc->event_seq == READ_ONCE(pc->seq))
			perf_event_enable(pc->event);
	}
}

/* What @pc's CPU counted: its retired events' and its live event's. */
static void share_total(struct perfkmod_cpu_share *pc,
			struct perfkmod_value *val)
{
	*val = pc->retired;
	if (pc->event)
		perfkmod_add_event_value(pc->event, val);
}

/**
 * perfkmod_cpu_events_read() - one CPU's share of a per-CPU counter
 * @c: a per-CPU counter.
 * @cpu: a counted CPU, or any possible one of an all-CPUs counter.
 * @val: its value since the last reset, and times; not scaled.
 *
 * Context: process context, may sleep; @c->lock held.
 */
void perfkmod_cpu_events_read(struct perfkmod_counter *c, int cpu,
			      struct perfkmod_value *val)
{
	struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

	lockdep_assert_held(&c->lock);
	share_total(pc, val);
	val->value -= min(val->value, pc->base);
}

/**
 * perfkmod_cpu_events_reset() - count a per-CPU counter from zero again
 * @c: a per-CPU counter.
 *
 * Context: process context, may sleep; @c->lock held.
 */
void perfkmod_cpu_events_reset(struct perfkmod_counter *c)
{
	struct perfkmod_value val;
	int cpu;

	lockdep_assert_held(&c->lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		share_total(pc, &val);
		/* read locklessly by perfkmod_counter_read_local() */
		WRITE_ONCE(pc->base, val.value);
	}
}

/*
 * All or nothing: the CPUs' events may be of different PMUs (a hybrid
 * system's PMU of each CPU, for a generic hardware event), whose limits
 * differ, so a value one event took may be refused by the next. The events
 * before @failed, in the order perfkmod_cpu_events_set_period() sets them,
 * get @c's period or frequency back, which their PMU took when they were
 * made. Called with @c->sync_lock and @c->lock held.
 */
static void restore_period(struct perfkmod_counter *c, int failed)
{
	u64 old = c->config.sample_freq ?: c->config.sample_period;
	int cpu, err;

	lockdep_assert_held(&c->sync_lock);
	lockdep_assert_held(&c->lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (cpu == failed)
			break;
		if (!pc->event)
			continue;
		err = perfkmod_event_set_period(c, pc->event, old);
		if (err)
			pr_warn("CPU %d: the old period not restored: %pe\n",
				cpu, ERR_PTR(err));
	}
}

/**
 * perfkmod_cpu_events_set_period() - give a per-CPU counter's events a period
 * @c: a sampling per-CPU counter.
 * @value: the new period, or frequency for a counter made with one.
 * @live: set to whether any CPU has an event to ask perf.
 *
 * All or nothing: when an event refuses @value, those set before it get
 * the counter's period back.
 *
 * Context: process context, may sleep; @c->sync_lock and @c->lock held.
 * Return: 0, or perf's errno for the first event that refused @value.
 */
int perfkmod_cpu_events_set_period(struct perfkmod_counter *c, u64 value,
				   bool *live)
{
	int cpu, err;

	lockdep_assert_held(&c->sync_lock);
	lockdep_assert_held(&c->lock);
	*live = false;
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (!pc->event)
			continue;
		*live = true;
		err = perfkmod_event_set_period(c, pc->event, value);
		if (err) {
			restore_period(c, cpu);
			return err;
		}
	}
	return 0;
}

/**
 * perfkmod_cpu_events_failed() - whether a per-CPU counter is in error
 * @c: a per-CPU counter.
 *
 * Context: process context, may sleep; @c->lock held.
 * Return: true when a counted CPU online has no event for an error of
 *	perf's, or an event perf put in error.
 */
bool perfkmod_cpu_events_failed(struct perfkmod_counter *c)
{
	int cpu;

	lockdep_assert_held(&c->lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (READ_ONCE(pc->err) ||
		    (pc->event &&
		     READ_ONCE(pc->event->state) == PERF_EVENT_STATE_ERROR))
			return true;
	}
	return false;
}

/*
 * What perf answered for an all-CPUs counter none of whose CPUs has an
 * event: its -ENOENT or -ENODEV, which perfkmod_sync_cpus() notes for each
 * CPU whose PMU lacks the event, when no online CPU has it; else 0. Called
 * with @c->sync_lock held.
 */
static int absent_everywhere(struct perfkmod_counter *c)
{
	int cpu, err = 0;

	lockdep_assert_held(&c->sync_lock);
	for_each_possible_cpu(cpu) {
		struct perfkmod_cpu_share *pc = perfkmod_cpu_share(c, cpu);

		if (pc->event)
			return 0;
		err = err ?: pc->absent;
	}
	return err;
}

/**
 * perfkmod_create_cpus() - make the events of a new per-CPU counter
 * @c: an all-CPUs or one-CPU counter, being made: set up by
 *	perfkmod_cpu_events_init(), and on the list of the CPU hotplug
 *	callbacks (perfkmod_list_counter()).
 *
 * The events of an all-CPUs or one-CPU counter: made here for the CPUs
 * online, then by perfkmod_sync_cpus() as CPUs come and go. When it fails,
 * the caller takes @c off the list, then releases the events made
 * (perfkmod_release_cpus()).
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int perfkmod_create_cpus(struct perfkmod_counter *c)
{
	bool one = c->config.target == PERFKMOD_TARGET_CPU;
	int err;

	mutex_lock(&c->sync_lock);
	err = perfkmod_sync_cpus(c);
	/*
	 * A CPU was between states (or came or went since it was listed):
	 * once that hotplug operation is over, again (the CPU hotplug lock
	 * may be taken under @sync_lock: see "Locks" in internal.h).
	 */
	if (!err && READ_ONCE(c->pcpu.sync_queued)) {
		cpus_read_lock();
		cpus_read_unlock();
		err = perfkmod_sync_cpus(c);
	}
	/* the one CPU is offline: perf's errno for that */
	if (!err && one && !c->pcpu.one.event)
		err = -ENODEV;
	if (!err && !one)
		err = absent_everywhere(c);
	mutex_unlock(&c->sync_lock);
	return err;
}

/**
 * perfkmod_cpu_events_init() - set up a new counter's per-CPU state
 * @c: the counter, of any target; nothing to do for a task counter.
 *
 * Context: process context, may sleep.
 * Return: 0, -%EINVAL for a CPU number perf has no CPU for, or -%ENOMEM.
 */
int perfkmod_cpu_events_init(struct perfkmod_counter *c)
{
	switch (c->config.target) {
	case PERFKMOD_TARGET_TASK:
		return 0;
	case PERFKMOD_TARGET_CPU:
		/* what perf says of a CPU number it has no CPU for */
		if (c->config.cpu >= nr_cpu_ids || !cpu_possible(c->config.cpu))
			return -EINVAL;
		break;
	case PERFKMOD_TARGET_ALL_CPUS:
		c->pcpu.cpus = alloc_percpu(struct perfkmod_cpu_share);
		if (!c->pcpu.cpus)
			return -ENOMEM;
		break;
	}
	INIT_DELAYED_WORK(&c->pcpu.hotplug_work, hotplug_work);
	return 0;
}

/**
 * perfkmod_cpu_events_exit() - free a counter's per-CPU state
 * @c: the counter, whose events are all released (perfkmod_release_cpus())
 *	and which no trampoline runs for any more.
 *
 * Context: process context.
 */
void perfkmod_cpu_events_exit(struct perfkmod_counter *c)
{
	free_percpu(c->pcpu.cpus);
}
