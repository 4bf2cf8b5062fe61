// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod: in-kernel performance counters for kernel code and root users.
 *
 * Counter lifecycle (create, enable, disable, reset, read, release), the
 * per-CPU events of all-CPUs and one-CPU counters and their CPU hotplug,
 * module init and exit. The exported functions are documented in
 * perfkmod.h.
 */
#include <linux/cpuhotplug.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/topology.h>

#include "compat.h"
#include "internal.h"

/* The dynamic CPU hotplug state that tells per-CPU counters of CPUs. */
static enum cpuhp_state perfkmod_hp_state;

/*
 * Counters, in a cache of their own: 488 bytes each on Debian 12's x86-64
 * kernel (kmalloc's next size is 512), and destroying it at unload says
 * whether any was left.
 */
static struct kmem_cache *perfkmod_counter_cache;

/*
 * Every counter, for cleaning up after a module that unloads with counters
 * it did not release: the per-CPU ones, which the CPU hotplug callbacks
 * also walk, and the task ones. perfkmod_counters_mutex protects the
 * lists. It is taken in the callbacks, under the CPU hotplug lock, and
 * elsewhere with no lock of perfkmod's but perfkmod_named_mutex held;
 * nothing but the workqueue's own locks is taken under it. (Lists of one
 * mutex rather than a multi-instance hotplug state: adding and removing
 * an instance takes the CPU hotplug lock and the state's mutex, on every
 * create and release.)
 */
static DEFINE_MUTEX(perfkmod_counters_mutex);
static LIST_HEAD(perfkmod_per_cpu_counters);
static LIST_HEAD(perfkmod_task_counters);

static void list_counter(struct perfkmod_counter *c, struct list_head *list)
{
	mutex_lock(&perfkmod_counters_mutex);
	list_add_tail(&c->all, list);
	mutex_unlock(&perfkmod_counters_mutex);
}

/* Once it returns, no CPU hotplug callback sees @c. */
static void unlist_counter(struct perfkmod_counter *c)
{
	mutex_lock(&perfkmod_counters_mutex);
	list_del(&c->all);
	mutex_unlock(&perfkmod_counters_mutex);
}

static void config_to_attr(const struct perfkmod_config *cfg,
			   struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = cfg->type;
	attr->config = cfg->config;
	attr->config1 = cfg->config1;
	attr->config2 = cfg->config2;
	if (cfg->type == PERF_TYPE_BREAKPOINT) {
		attr->bp_addr = cfg->bp_addr;
		attr->bp_len = cfg->bp_len;
		attr->bp_type = cfg->bp_type;
	}
	if (cfg->sample_freq) {
		attr->freq = 1;
		attr->sample_freq = cfg->sample_freq;
	} else {
		attr->sample_period = cfg->sample_period;
	}
	/*
	 * An event without a ring buffer wakes no one; but with a fixed period
	 * and no wakeup_events, x86 makes a precise (PEBS) event auto-reload
	 * with a large PEBS buffer, and perf then calls the handler for the
	 * last record of each buffer only: every overflow must reach it.
	 */
	if (perfkmod_config_samples(cfg))
		attr->wakeup_events = 1;
	attr->precise_ip = cfg->precise_ip;
	attr->inherit = cfg->inherit;
	attr->pinned = cfg->pinned;
	attr->exclusive = cfg->exclusive;
	attr->exclude_user = cfg->exclude_user;
	attr->exclude_kernel = cfg->exclude_kernel;
	attr->exclude_hv = cfg->exclude_hv;
	attr->exclude_idle = cfg->exclude_idle;
}

/*
 * The highest frequency of cpu-clock and task-clock, whose frequency perf
 * turns into a period: their timer's 10 us floor, and the default of
 * kernel.perf_event_max_sample_rate, which perfkmod cannot read.
 */
#define PERFKMOD_TIMER_FREQ_MAX	100000

/*
 * Create one perf event of @c on @cpu (or -1) for @task (or NULL), with
 * the checks of perf_event_open() that the kernel path skips. A sampling
 * event is made disabled and checked before it is enabled: a frequency
 * event starts at period 1 and would overflow at once, before a check could
 * refuse it (an inherited task counter is the exception, see below). A
 * counting event, which no check refuses, is made in its final state.
 */
static struct perf_event *create_event(struct perfkmod_counter *c, int cpu,
				       struct task_struct *task, bool disabled)
{
	bool sampling = perfkmod_config_samples(&c->config);
	struct perf_event_attr attr;
	struct perf_event *event;
	int err;

	config_to_attr(&c->config, &attr);
	/*
	 * Except with inherit: children inherit the state the event has when
	 * they fork, and perf_event_enable() does not reach them.
	 */
	attr.disabled = disabled || (sampling && !(task && c->config.inherit));
	event = perf_event_create_kernel_counter(&attr, cpu, task, sampling ?
						 perfkmod_overflow : NULL, c);
	if (IS_ERR(event))
		return event;

	err = 0;
	if (sampling && (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		err = -EOPNOTSUPP;
	else if (c->config.sample_freq && event->attr.freq)
		/* perf_event_period() checks the frequency against the limit */
		err = perf_event_period(event, c->config.sample_freq);
	else if (c->config.sample_freq > PERFKMOD_TIMER_FREQ_MAX)
		err = -EINVAL;	/* a timer's frequency, made a period by perf */
	if (err) {
		perf_event_release_kernel(event);
		/*
		 * An inherited event was live: an overflow may still be in the
		 * trampoline (see perfkmod_counter_release()). Any other was
		 * never enabled.
		 */
		if (sampling && !attr.disabled)
			synchronize_rcu();
		return ERR_PTR(err);
	}
	if (!disabled && attr.disabled)
		perf_event_enable(event);
	return event;
}

/* @val += what @event counted, with its times. */
static void add_event_value(struct perf_event *event, struct perfkmod_value *val)
{
	u64 enabled, running;

	val->value += perf_event_read_value(event, &enabled, &running);
	val->enabled += enabled;
	val->running += running;
}

/* One CPU's share of a per-CPU counter; called with @c->lock held. */
static void read_cpu_locked(struct perfkmod_counter *c, int cpu,
			    struct perfkmod_value *val)
{
	struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

	lockdep_assert_held(&c->lock);
	*val = pc->retired;
	if (pc->event)
		add_event_value(pc->event, val);
	val->value -= min(val->value, pc->base);
}

/* Whether a per-CPU counter (all CPUs, or one) counts on @cpu. */
static bool counts_on(const struct perfkmod_counter *c, unsigned int cpu)
{
	return c->config.target == PERFKMOD_TARGET_ALL_CPUS ||
	       cpu == c->config.cpu;
}

/*
 * A CPU of a per-CPU counter (all CPUs, or one CPU) came online or is going
 * offline (@down): in the CPU's hotplug thread, while the CPU hotplug lock
 * is held for writing. No perf event may be made or released here: perf's
 * software and tracepoint events flip static keys, which take
 * cpus_read_lock() (with CONFIG_JUMP_LABEL, as in every distribution
 * kernel) and would deadlock. So this only notes that the CPU's event, if
 * any, is no longer good, and leaves the work to sync_cpus(), in a
 * workqueue. perf detaches the events of a CPU going
 * offline for good (after this callback, which runs before perf's own);
 * sync_cpus() keeps what such an event counted and makes a new one when the
 * CPU is back. Never fails: a CPU must come online even when its event
 * cannot be made; it then reads as in error.
 */
static void cpu_changed(struct perfkmod_counter *c, unsigned int cpu,
			bool down)
{
	struct perfkmod_cpu *pc;

	if (!counts_on(c, cpu))
		return;
	pc = perfkmod_cpu_share(c, cpu);
	/*
	 * Only written here: a new generation, and the direction in the same
	 * store. Pairs with READ_ONCE() in sync_cpus().
	 */
	WRITE_ONCE(pc->seq, ((pc->seq | PERFKMOD_CPU_DOWN) + 1) |
			    (down ? PERFKMOD_CPU_DOWN : 0));
	/* seen before the CPU is active: see enodev_answer() */
	smp_mb();
	WRITE_ONCE(c->sync_queued, true);
	mod_delayed_work(system_unbound_wq, &c->hotplug_work, 0);
}

static void cpu_changed_all(unsigned int cpu, bool down)
{
	struct perfkmod_counter *c;

	mutex_lock(&perfkmod_counters_mutex);
	list_for_each_entry(c, &perfkmod_per_cpu_counters, all)
		cpu_changed(c, cpu, down);
	mutex_unlock(&perfkmod_counters_mutex);
}

static int perfkmod_cpu_online(unsigned int cpu)
{
	cpu_changed_all(cpu, false);
	return 0;
}

static int perfkmod_cpu_offline(unsigned int cpu)
{
	cpu_changed_all(cpu, true);
	return 0;
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
static int enodev_answer(struct perfkmod_cpu *pc, int cpu, unsigned int seq)
{
	if (!cpu_active(cpu) || !cpumask_equal(cpu_online_mask, cpu_active_mask))
		return -EAGAIN;
	/* pairs with smp_mb() in cpu_changed() */
	smp_rmb();
	return READ_ONCE(pc->seq) == seq ? -ENODEV : 0;
}

/*
 * The CPUs that a PMU with @scope counts for together with @cpu: what perf
 * reads its events on (perf_scope_cpu_topology_cpumask(), not exported).
 */
#ifdef PERFKMOD_HAVE_PMU_SCOPE
static const struct cpumask *scope_cpus(unsigned int scope, int cpu)
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
		return cpumask_test_cpu(acpu, scope_cpus(b->pmu->scope, bcpu));
#endif
	return false;
}

/*
 * The counted CPU, other than @cpu, whose event counts what @event (made
 * for @cpu) counts; -1 if there is none. Also a CPU whose event went stale
 * since the first pass of sync_cpus() (the CPU went offline meanwhile):
 * the sync its callback queued retires that event, then makes the next,
 * so that the two never count at once. Called with @c->sync_lock held.
 */
static int find_server(struct perfkmod_counter *c, int cpu,
		       struct perf_event *event)
{
	int other;

	lockdep_assert_held(&c->sync_lock);
	for_each_cpu(other, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, other);

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
	struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);
	/* @event changes under both locks: @sync_lock, held, will do */
	struct perf_event *event = pc->event;

	/* pairs with WRITE_ONCE() in cpu_changed() */
	if (!event || pc->event_seq == READ_ONCE(pc->seq))
		return;
	/*
	 * A CPU going offline: its event may still count until perf
	 * detaches it. Stopped first, it counts nothing between the read and
	 * the release. (An event perf detached is off already.)
	 */
	perf_event_disable(event);
	mutex_lock(&c->lock);
	add_event_value(event, &pc->retired);
	/* @retired first: see perfkmod_counter_read_local() */
	smp_store_release(&pc->event, NULL);
	mutex_unlock(&c->lock);
	perf_event_release_kernel(event);
	pc->grace_due = true;
}

/*
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
 * lock: perf takes the CPU hotplug lock when it makes or releases a
 * software or tracepoint event, so @c->lock is taken here only to publish
 * a change, never around perf making or releasing an event.
 *
 * Return: the first errno perf gave for an online CPU, or 0.
 */
static int sync_cpus(struct perfkmod_counter *c)
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
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		/* pairs with WRITE_ONCE() in cpu_changed() */
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
			WRITE_ONCE(c->sync_queued, true);
			queue_delayed_work(system_unbound_wq, &c->hotplug_work,
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
		if (READ_ONCE(c->system_pmu) &&
		    !cpumask_equal(cpu_online_mask, cpu_active_mask)) {
			WRITE_ONCE(pc->err, 0);
			WRITE_ONCE(c->sync_queued, true);
			queue_delayed_work(system_unbound_wq, &c->hotplug_work,
					   HZ / 10);
			continue;
		}
		/* one grace period for all the events retired until now */
		if (pc->grace_due) {
			synchronize_rcu();
			for_each_cpu(other, perfkmod_counted_cpus(c))
				perfkmod_cpu_share(c, other)->grace_due = false;
		}
		/* enable() and disable() change it under @lock alone */
		enabled = READ_ONCE(c->enabled);
		event = create_event(c, cpu, NULL, !enabled);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			if (err == -ENODEV)
				err = enodev_answer(pc, cpu, seq);
			pr_debug("no event on CPU %d: %pe\n", cpu, event);
			/* @absent as it was until the CPU's state is known */
			if (err == -EAGAIN) {
				WRITE_ONCE(c->sync_queued, true);
				queue_delayed_work(system_unbound_wq,
						   &c->hotplug_work, HZ / 10);
				WRITE_ONCE(pc->err, 0);
				continue;
			}
			/*
			 * Written once each: perfkmod_counter_read_local() reads
			 * them locklessly. See create_cpus() for a PMU that no
			 * CPU has.
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
		if (event_is_shared(event, cpu) ||
		    event->pmu->task_ctx_nr == perf_invalid_context)
			WRITE_ONCE(c->system_pmu, true);
		/*
		 * Also for an event that stayed on its CPU: the one of the CPU
		 * that serves the package, which the PMU does not move.
		 */
		server = all && c->system_pmu ? find_server(c, cpu, event) : -1;
		if (server >= 0) {
			/* @c outlives it: no wait for an overflow */
			perf_event_release_kernel(event);
			WRITE_ONCE(pc->served_by, server + 1);
			WRITE_ONCE(pc->err, 0);
			continue;
		}
		mutex_lock(&c->lock);
		/* an enable() or disable() meanwhile did not see this event */
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
						  hotplug_work);

	mutex_lock(&c->sync_lock);
	sync_cpus(c);
	mutex_unlock(&c->sync_lock);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * perfkmod_counter_flush_hotplug() - wait for a counter's hotplug work
 * @c: a per-CPU counter.
 *
 * For the KUnit suites: once it returns, the events of @c follow the CPU
 * hotplug operations that returned before it was called (no CPU is left
 * between states then, which would make the work queue itself again).
 *
 * Context: process context, may sleep.
 */
void perfkmod_counter_flush_hotplug(struct perfkmod_counter *c)
{
	flush_delayed_work(&c->hotplug_work);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_counter_flush_hotplug);
#endif

/*
 * Release the events of a per-CPU counter for good, once it is off its
 * list: no hotplug callback queues the work then, and none of it runs
 * after cancel_delayed_work_sync(), which also stops a work queueing
 * itself.
 */
static void release_cpus(struct perfkmod_counter *c)
{
	int cpu;

	/* never queued, it cannot run: no need to wait for it */
	if (READ_ONCE(c->sync_queued))
		cancel_delayed_work_sync(&c->hotplug_work);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		if (pc->event)
			perf_event_release_kernel(pc->event);
	}
}

/*
 * What perf answered for an all-CPUs counter none of whose CPUs has an
 * event: its -ENOENT or -ENODEV, which sync_cpus() notes for each CPU
 * whose PMU lacks the event, when no online CPU has it; else 0. Called
 * with @c->sync_lock held.
 */
static int absent_everywhere(struct perfkmod_counter *c)
{
	int cpu, err = 0;

	lockdep_assert_held(&c->sync_lock);
	for_each_possible_cpu(cpu) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		if (pc->event)
			return 0;
		err = err ?: pc->absent;
	}
	return err;
}

/*
 * The events of an all-CPUs or one-CPU counter: made here for the CPUs
 * online, then by sync_cpus() as CPUs come and go.
 */
static int create_cpus(struct perfkmod_counter *c)
{
	bool one = c->config.target == PERFKMOD_TARGET_CPU;
	int err;

	/* what perf says of a CPU number it has no CPU for */
	if (one && (c->config.cpu >= nr_cpu_ids || !cpu_possible(c->config.cpu)))
		return -EINVAL;
	if (!one) {
		c->cpus = alloc_percpu(struct perfkmod_cpu);
		if (!c->cpus)
			return -ENOMEM;
	}
	INIT_DELAYED_WORK(&c->hotplug_work, hotplug_work);
	/* from here on, a CPU that comes or goes queues a sync */
	list_counter(c, &perfkmod_per_cpu_counters);

	mutex_lock(&c->sync_lock);
	err = sync_cpus(c);
	/*
	 * A CPU was between states (or came or went since it was listed):
	 * once that hotplug operation is over, again (the CPU hotplug lock
	 * may be taken under @sync_lock).
	 */
	if (!err && READ_ONCE(c->sync_queued)) {
		cpus_read_lock();
		cpus_read_unlock();
		err = sync_cpus(c);
	}
	/* the one CPU is offline: perf's errno for that */
	if (!err && one && !c->one.event)
		err = -ENODEV;
	if (!err && !one)
		err = absent_everywhere(c);
	mutex_unlock(&c->sync_lock);
	if (err)
		goto err_release;
	return 0;

err_release:
	/*
	 * An event enabled meanwhile, released here or retired by the
	 * hotplug work, may still be in the trampoline.
	 */
	unlist_counter(c);
	release_cpus(c);
	if (perfkmod_config_samples(&c->config))
		synchronize_rcu();
	free_percpu(c->cpus);
	c->cpus = NULL;
	return err;
}

/* The task a config names, with a reference held, or an ERR_PTR(). */
static struct task_struct *get_config_task(const struct perfkmod_config *cfg)
{
	struct task_struct *task;

	if (cfg->task) {
		get_task_struct(cfg->task);
		return cfg->task;
	}
	if (cfg->pid <= 0)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	task = pid_task(find_vpid(cfg->pid), PIDTYPE_PID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ?: ERR_PTR(-ESRCH);
}

static int create_task(struct perfkmod_counter *c)
{
	struct task_struct *task = get_config_task(&c->config);
	int err = 0;

	if (IS_ERR(task))
		return PTR_ERR(task);
	c->config.pid = task_pid_vnr(task);
	c->config.task = NULL;
	/* perf holds its own reference to the task as long as the event */
	c->event = create_event(c, -1, task, !c->enabled);
	if (IS_ERR(c->event))
		err = PTR_ERR(c->event);
	put_task_struct(task);
	return err;
}

static int check_config(const struct perfkmod_config *cfg)
{
	if (cfg->sample_period && cfg->sample_freq)
		return -EINVAL;
	if (cfg->sample_period & BIT_ULL(63))
		return -EINVAL;
	if (cfg->precise_ip > 3)
		return -EINVAL;
	if (cfg->target > PERFKMOD_TARGET_TASK)
		return -EINVAL;
	/*
	 * A field the target does not use is a mistake (a zeroed target with
	 * a @cpu is all CPUs, not that CPU): refused, never ignored.
	 */
	if (cfg->target == PERFKMOD_TARGET_CPU ? cfg->cpu < 0 : cfg->cpu)
		return -EINVAL;
	if (cfg->target == PERFKMOD_TARGET_TASK ?
	    !cfg->task == !cfg->pid : cfg->task || cfg->pid || cfg->inherit)
		return -EINVAL;
	if (cfg->type != PERF_TYPE_BREAKPOINT &&
	    (cfg->bp_addr || cfg->bp_len || cfg->bp_type))
		return -EINVAL;
	/*
	 * perf_event_enable() reaches the task's own event, not the children
	 * it was inherited to: children forked while it is off never count.
	 */
	if (cfg->target == PERFKMOD_TARGET_TASK && cfg->inherit && cfg->disabled)
		return -EINVAL;
	/*
	 * arm64 steps over a watched instruction only for perf's default
	 * overflow handler; with the trampoline it would trap forever.
	 */
	if (IS_ENABLED(CONFIG_ARM64) && cfg->type == PERF_TYPE_BREAKPOINT &&
	    perfkmod_config_samples(cfg))
		return -EOPNOTSUPP;
	return 0;
}

static void stop_work(struct work_struct *work);

struct perfkmod_counter *
__perfkmod_counter_create(const struct perfkmod_config *config,
			  struct module *owner)
{
	struct perfkmod_counter *c;
	int err;

	err = check_config(config);
	if (err)
		return ERR_PTR(err);
	c = kmem_cache_zalloc(perfkmod_counter_cache, GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->config = *config;
	c->enabled = !config->disabled;
	c->owner = owner;
	mutex_init(&c->sync_lock);
	mutex_init(&c->lock);
	INIT_WORK(&c->stop_work, stop_work);
	err = perfkmod_overflow_counter_init(c);
	if (err)
		goto err_free;

	switch (config->target) {
	case PERFKMOD_TARGET_ALL_CPUS:
	case PERFKMOD_TARGET_CPU:
		err = create_cpus(c);
		break;
	case PERFKMOD_TARGET_TASK:
		err = create_task(c);
		break;
	}
	if (err)
		goto err_overflow;
	c->config.task = NULL;
	/* the module notifier may release it from here on */
	smp_store_release(&c->created, true);
	/* a per-CPU counter is listed already, for the hotplug callbacks */
	if (!perfkmod_per_cpu(c))
		list_counter(c, &perfkmod_task_counters);
	pr_debug("created counter type %u config %#llx target %d\n",
		 config->type, config->config, config->target);
	return c;

err_overflow:
	perfkmod_overflow_counter_exit(c);
err_free:
	mutex_destroy(&c->lock);
	mutex_destroy(&c->sync_lock);
	kmem_cache_free(perfkmod_counter_cache, c);
	pr_debug("create type %u config %#llx: %pe\n", config->type,
		 config->config, ERR_PTR(err));
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(__perfkmod_counter_create);

void perfkmod_counter_release(struct perfkmod_counter *c)
{
	if (IS_ERR_OR_NULL(c))
		return;
	pr_debug("release counter type %u config %#llx\n", c->config.type,
		 c->config.config);
	unlist_counter(c);
	/* another module's series may read it: they read it no more */
	perfkmod_series_forget(c);
	if (perfkmod_config_samples(&c->config)) {
		perfkmod_overflow_counter_quiesce(c);
		/* a stop queued from an overflow must not touch the events */
		mutex_lock(&c->lock);
		c->releasing = true;
		mutex_unlock(&c->lock);
	}
	if (perfkmod_per_cpu(c))
		release_cpus(c);
	else
		perf_event_release_kernel(c->event);
	/*
	 * Kernels without upstream's fix of __perf_event_overflow() against
	 * perf_remove_from_context() ran software and tracepoint overflows
	 * with interrupts on: the trampoline may still be running on an event
	 * just released, reading @c. Every context perf calls it in is an RCU
	 * read-side section (NMI included), so a grace period waits for it.
	 * A counting counter's events have no handler: no wait for them.
	 */
	if (perfkmod_config_samples(&c->config))
		synchronize_rcu();
	perfkmod_overflow_counter_exit(c);
	free_percpu(c->cpus);
	mutex_destroy(&c->lock);
	mutex_destroy(&c->sync_lock);
	kmem_cache_free(perfkmod_counter_cache, c);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_release);

/* Call @fn on each of @c's perf events, with @c->lock held. */
static void apply_to_events(struct perfkmod_counter *c,
			    void (*fn)(struct perf_event *event))
{
	int cpu;

	lockdep_assert_held(&c->lock);
	if (!perfkmod_per_cpu(c)) {
		fn(c->event);
		return;
	}
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		/*
		 * Not the stale event of a CPU that went and came back since
		 * its event was made: perf would count enabled time for it
		 * until the hotplug work retires it.
		 */
		if (pc->event && (fn != perf_event_enable ||
				  pc->event_seq == READ_ONCE(pc->seq)))
			fn(pc->event);
	}
}

/*
 * Start counting, delivering @limit overflows (-1: all); CPUs whose event
 * could not be made are tried again.
 */
static void enable(struct perfkmod_counter *c, int limit)
{
	mutex_lock(&c->sync_lock);
	mutex_lock(&c->lock);
	atomic_set(&c->limit, limit);
	WRITE_ONCE(c->enabled, true);
	mutex_unlock(&c->lock);
	/*
	 * First, so that the stale event of a CPU that came back is retired,
	 * not enabled (a CPU that comes and goes meanwhile has its event
	 * retired by the work its callback queues).
	 */
	if (perfkmod_per_cpu(c))
		sync_cpus(c);
	mutex_lock(&c->lock);
	/*
	 * A disable, or the stop of an overflow limit reached, while the
	 * lock was dropped has the last word.
	 */
	if (c->enabled)
		apply_to_events(c, perf_event_enable);
	mutex_unlock(&c->lock);
	mutex_unlock(&c->sync_lock);
}

void perfkmod_counter_enable(struct perfkmod_counter *c)
{
	enable(c, -1);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_enable);

int perfkmod_counter_refresh(struct perfkmod_counter *c, unsigned int n)
{
	if (!perfkmod_config_samples(&c->config) || !n)
		return -EINVAL;
	enable(c, min_t(unsigned int, n, INT_MAX));
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_refresh);

/**
 * stop_work() - disable a counter that its overflows stopped
 * @work: the counter's @stop_work, which its @stop_irq_work queues.
 *
 * Run from a workqueue after perfkmod_overflow_stop() or the last overflow
 * of a refresh; does nothing if the counter was enabled again since, or is
 * being released.
 *
 * Context: process context, may sleep.
 */
static void stop_work(struct work_struct *work)
{
	struct perfkmod_counter *c = container_of(work, struct perfkmod_counter,
						  stop_work);

	mutex_lock(&c->lock);
	if (!c->releasing && !atomic_read(&c->limit)) {
		WRITE_ONCE(c->enabled, false);
		apply_to_events(c, perf_event_disable);
	}
	mutex_unlock(&c->lock);
}

void perfkmod_counter_disable(struct perfkmod_counter *c)
{
	mutex_lock(&c->lock);
	WRITE_ONCE(c->enabled, false);
	apply_to_events(c, perf_event_disable);
	mutex_unlock(&c->lock);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_disable);

void perfkmod_counter_reset(struct perfkmod_counter *c)
{
	struct perfkmod_value val = {};
	int cpu;

	mutex_lock(&c->lock);
	if (!perfkmod_per_cpu(c)) {
		add_event_value(c->event, &val);
		/* pairs with READ_ONCE() in perfkmod_counter_read() */
		WRITE_ONCE(c->base, val.value);
	} else {
		for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
			struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

			val = pc->retired;
			if (pc->event)
				add_event_value(pc->event, &val);
			/* read locklessly by perfkmod_counter_read_local() */
			WRITE_ONCE(pc->base, val.value);
		}
	}
	mutex_unlock(&c->lock);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_reset);

u64 perfkmod_scale(u64 value, u64 enabled, u64 running)
{
	if (!running)
		return 0;
	if (running >= enabled)
		return value;
	/* the quotient fits in 64 bits iff the product's top half < running */
	if (mul_u64_u64_shr(value, enabled, 64) >= running)
		return U64_MAX;
	return mul_u64_u64_div_u64(value, enabled, running);
}
EXPORT_SYMBOL_GPL(perfkmod_scale);

void perfkmod_counter_read(struct perfkmod_counter *c,
			   struct perfkmod_value *val)
{
	struct perfkmod_value cpu_val;
	u64 base;
	int cpu;

	if (c->config.target == PERFKMOD_TARGET_CPU) {
		/* its one CPU; the lock keeps hotplug from swapping the event */
		mutex_lock(&c->lock);
		read_cpu_locked(c, c->config.cpu, val);
		mutex_unlock(&c->lock);
	} else if (!perfkmod_per_cpu(c)) {
		memset(val, 0, sizeof(*val));
		add_event_value(c->event, val);
		/*
		 * A reset racing with this read may leave a base above the
		 * value read before it: that read is then as good as zero.
		 */
		base = READ_ONCE(c->base);
		val->value -= min(val->value, base);
	} else {
		memset(val, 0, sizeof(*val));
		mutex_lock(&c->lock);
		for_each_possible_cpu(cpu) {
			read_cpu_locked(c, cpu, &cpu_val);
			val->value += cpu_val.value;
			val->enabled += cpu_val.enabled;
			val->running += cpu_val.running;
		}
		mutex_unlock(&c->lock);
	}
	val->scaled = perfkmod_scale(val->value, val->enabled, val->running);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_read);

int perfkmod_counter_read_cpu(struct perfkmod_counter *c, int cpu,
			      struct perfkmod_value *val)
{
	if (c->config.target != PERFKMOD_TARGET_ALL_CPUS || cpu < 0 ||
	    cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	mutex_lock(&c->lock);
	read_cpu_locked(c, cpu, val);
	mutex_unlock(&c->lock);
	val->scaled = perfkmod_scale(val->value, val->enabled, val->running);
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_read_cpu);

/* task-clock, by what the caller asked for: perf may rewrite attr.type */
static bool is_task_clock(const struct perfkmod_config *cfg)
{
	return cfg->type == PERF_TYPE_SOFTWARE &&
	       cfg->config == PERF_COUNT_SW_TASK_CLOCK;
}

/*
 * Whether a read in NMI leaves the PMU alone, taking @event's count as of
 * its last update. Only an NMI can interrupt perf on this CPU, where
 * interrupts are off:
 * - between event_sched_in() setting @event->oncpu and the PMU's add(),
 *   and between its del() and @oncpu's reset, the PMU's counter index is
 *   stale or gone (x86 would add another counter's value for good, arm64
 *   warns of an invalid index). The PMU's stop() and del() mark the event
 *   stopped, its count up to date (PERF_HES_STOPPED, PERF_HES_UPTODATE),
 *   and add() keeps it so until start(). The first add() after create
 *   finds the event unmarked, its index -1: x86 then reads nothing (its
 *   counter base is unset), arm64 warns; perf_event_read_local() shares
 *   that window, which needs a PMU overflow already pending as the PMU
 *   is disabled around add().
 * - task-clock's read adds the context's time, which perf updates in two
 *   stores that an NMI may split. Asked of @c's config: where task-clock
 *   has a PMU of its own (6.12, not 6.1), perf gives the event that PMU's
 *   dynamic type.
 * Either way the count never goes back.
 */
static __always_inline bool nmi_keeps_off(const struct perfkmod_counter *c,
					  struct perf_event *event)
{
	return (READ_ONCE(event->hw.state) & PERF_HES_STOPPED) ||
	       is_task_clock(&c->config);
}

/*
 * What @event of @c has counted, read on CPU @this with interrupts off, as
 * perf_event_read_local() reads it (not exported to modules): the PMU is
 * read when the event is on it here, or for a package-wide event on another
 * CPU of this package. Inlined, so that the count stays in a register.
 */
static __always_inline int read_event_local(const struct perfkmod_counter *c,
					    struct perf_event *event,
					    int this, u64 *count)
{
	int oncpu = READ_ONCE(event->oncpu);
	bool keep_off = false;

	if (unlikely(in_nmi())) {
		/*
		 * See perfkmod.h: such a PMU's read may take a lock. Set
		 * before @c's first event is published, so read after it.
		 */
		if (READ_ONCE(c->system_pmu))
			return -EOPNOTSUPP;
		keep_off = nmi_keeps_off(c, event);
	}
	if (oncpu != this) {
		if ((unsigned int)oncpu < nr_cpu_ids &&
		    (event->group_caps & PERF_EV_CAP_READ_ACTIVE_PKG) &&
		    topology_physical_package_id(oncpu) ==
		    topology_physical_package_id(this))
			oncpu = this;
		else if (event->attr.pinned)
			return -EBUSY;
	}
	if (oncpu == this && !keep_off)
		event->pmu->read(event);
	*count = local64_read(&event->count);
	return 0;
}

/*
 * Nothing here waits, allocates or takes a lock. The event read is safe
 * without @c->lock: a per-CPU counter's event of this CPU is retired or
 * replaced only after the CPU's hotplug callback moved @seq, and that
 * callback runs on this CPU, so not while interrupts are off here (nor
 * under an NMI here). An event whose @event_seq is not the CPU's @seq is
 * not read (-EBUSY). sync_cpus() publishes @event after @event_seq and
 * @retired, with release; it is loaded with acquire. An event and the
 * @event_seq of the next are never read together: the CPU cannot go
 * down and up while interrupts are off here, and sync_cpus() waits for
 * an RCU grace period before it publishes a new event where it retired
 * one since.
 */
int perfkmod_counter_read_local(struct perfkmod_counter *c, u64 *value)
{
	struct perfkmod_cpu *pc;
	struct perf_event *event;
	unsigned long flags;
	u64 count = 0, base;
	int cpu, err = 0;

	local_irq_save(flags);
	cpu = smp_processor_id();
	if (!perfkmod_per_cpu(c)) {
		event = c->event;
		if (c->config.inherit || event->hw.target != current) {
			err = -EINVAL;
			goto out;
		}
		err = read_event_local(c, event, cpu, &count);
		base = READ_ONCE(c->base);
		goto out;
	}
	if (!counts_on(c, cpu)) {
		err = -EINVAL;
		goto out;
	}
	pc = perfkmod_cpu_share(c, cpu);
	/* pairs with smp_store_release() in sync_cpus() */
	event = smp_load_acquire(&pc->event);
	if (event && READ_ONCE(pc->event_seq) != READ_ONCE(pc->seq)) {
		err = -EBUSY;	/* the CPU went and came back: a stale event */
		goto out;
	}
	if (event) {
		err = read_event_local(c, event, cpu, &count);
	} else if (!READ_ONCE(pc->served_by) && !READ_ONCE(pc->absent)) {
		/* refused by perf, or not made yet since the CPU came online */
		err = READ_ONCE(pc->err) ? -ENODATA : -EBUSY;
		goto out;
	} else if (unlikely(in_nmi()) && READ_ONCE(c->system_pmu)) {
		err = -EOPNOTSUPP;	/* as on the CPU that serves this one */
		goto out;
	}
	count += READ_ONCE(pc->retired.value);
	base = READ_ONCE(pc->base);
out:
	local_irq_restore(flags);
	if (!err)
		*value = count - min(count, base);
	return err;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_read_local);

/* cpu-clock and task-clock: perf turns their frequency into a period. */
static bool is_timer(const struct perfkmod_config *cfg)
{
	return cfg->type == PERF_TYPE_SOFTWARE &&
	       (cfg->config == PERF_COUNT_SW_CPU_CLOCK ||
		cfg->config == PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * Set @event's period, or its frequency for a counter made with one. perf
 * turns the frequency of cpu-clock and task-clock into a fixed period when
 * it makes the event (their hrtimer has no frequency mode, and
 * attr.freq is cleared): those get one second divided by the frequency.
 */
static int set_event_period(struct perfkmod_counter *c,
			    struct perf_event *event, u64 value)
{
	if (c->config.sample_freq && !event->attr.freq)
		value = div64_u64(NSEC_PER_SEC, value);
	return perf_event_period(event, value);
}

/*
 * All or nothing: the CPUs' events may be of different PMUs (a hybrid
 * system's PMU of each CPU, for a generic hardware event), whose limits
 * differ, so a value one event took may be refused by the next. The events
 * before @failed, in the order perfkmod_counter_set_period() sets them, get
 * @c's period or frequency back, which their PMU took when they were made.
 * Called with @c->sync_lock and @c->lock held.
 */
static void restore_period(struct perfkmod_counter *c, int failed)
{
	u64 old = c->config.sample_freq ?: c->config.sample_period;
	int cpu, err;

	lockdep_assert_held(&c->sync_lock);
	lockdep_assert_held(&c->lock);
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		if (cpu == failed)
			break;
		if (!pc->event)
			continue;
		err = set_event_period(c, pc->event, old);
		if (err)
			pr_warn("CPU %d: the old period not restored: %pe\n",
				cpu, ERR_PTR(err));
	}
}

/*
 * Whether perf takes @freq for @c's event, asked of a disabled event made
 * for the purpose on an online CPU: for a per-CPU counter none of whose
 * CPUs has an event (its CPU is offline), so that a value is refused now
 * rather than when the CPU comes back. Never enabled, it cannot overflow.
 */
static int probe_freq(struct perfkmod_counter *c, u64 freq)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int err = -ENODEV, tries, cpu;

	config_to_attr(&c->config, &attr);
	attr.disabled = 1;
	/* a CPU that goes offline meanwhile: try another */
	for (tries = 0; tries < 3 && err == -ENODEV; tries++) {
		cpu = cpumask_first(cpu_online_mask);
		event = perf_event_create_kernel_counter(&attr, cpu, NULL,
							 perfkmod_overflow, c);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			continue;
		}
		err = perf_event_period(event, freq);
		perf_event_release_kernel(event);
	}
	return err;
}

int perfkmod_counter_set_period(struct perfkmod_counter *c, u64 value)
{
	bool live = false;
	u64 freq;
	int cpu, err = 0;

	/* refused here whether or not an event is live to ask perf */
	if (!perfkmod_config_samples(&c->config) || !value)
		return -EINVAL;
	/* only whether it is 0 matters, which no set_period() changes */
	freq = READ_ONCE(c->config.sample_freq);
	if (freq && is_timer(&c->config) && value > PERFKMOD_TIMER_FREQ_MAX)
		return -EINVAL;
	if (!freq && (value & BIT_ULL(63)))
		return -EINVAL;

	/* no CPU's event made or retired meanwhile */
	mutex_lock(&c->sync_lock);
	mutex_lock(&c->lock);
	if (!perfkmod_per_cpu(c)) {
		err = set_event_period(c, c->event, value);
	} else {
		for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
			struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

			if (!pc->event)
				continue;
			live = true;
			err = set_event_period(c, pc->event, value);
			if (err) {
				restore_period(c, cpu);
				break;
			}
		}
	}
	mutex_unlock(&c->lock);
	/*
	 * No event: the frequency limit, asked of perf all the same, without
	 * @lock (perf makes an event).
	 */
	if (perfkmod_per_cpu(c) && !live && c->config.sample_freq &&
	    !is_timer(&c->config))
		err = probe_freq(c, value);
	/* CPUs that come online later get the new value too */
	if (!err) {
		mutex_lock(&c->lock);
		if (c->config.sample_freq)
			WRITE_ONCE(c->config.sample_freq, value);
		else
			WRITE_ONCE(c->config.sample_period, value);
		mutex_unlock(&c->lock);
	}
	mutex_unlock(&c->sync_lock);
	return err;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_set_period);

/* perf's state of one event, read without perf's locks. */
static enum perfkmod_state event_state(struct perf_event *event)
{
	switch (READ_ONCE(event->state)) {
	case PERF_EVENT_STATE_ERROR:
		return PERFKMOD_STATE_ERROR;
	case PERF_EVENT_STATE_EXIT:
	case PERF_EVENT_STATE_DEAD:
		return PERFKMOD_STATE_EXIT;
	case PERF_EVENT_STATE_OFF:
		return PERFKMOD_STATE_OFF;
	default:
		return PERFKMOD_STATE_ACTIVE;
	}
}

enum perfkmod_state perfkmod_counter_state(struct perfkmod_counter *c)
{
	enum perfkmod_state state;
	int cpu;

	if (!perfkmod_per_cpu(c))
		return event_state(c->event);

	mutex_lock(&c->lock);
	state = c->enabled ? PERFKMOD_STATE_ACTIVE : PERFKMOD_STATE_OFF;
	for_each_cpu(cpu, perfkmod_counted_cpus(c)) {
		struct perfkmod_cpu *pc = perfkmod_cpu_share(c, cpu);

		if (READ_ONCE(pc->err) ||
		    (pc->event && event_state(pc->event) == PERFKMOD_STATE_ERROR))
			state = PERFKMOD_STATE_ERROR;
	}
	mutex_unlock(&c->lock);
	return state;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_state);

const struct perfkmod_config *
perfkmod_counter_config(const struct perfkmod_counter *c)
{
	return &c->config;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_config);

static const struct {
	int err;
	const char *text;
} errno_texts[] = {
	{ 0, "success" },
	{ -ENOENT,
	  "no PMU has this event: the CPU's PMU lacks it, or there is no PMU (as in most VMs)" },
	{ -EOPNOTSUPP,
	  "the PMU cannot do this: an exclude_* flag, precise_ip, or sampling it lacks" },
	{ -EINVAL,
	  "invalid event settings, or a setting the target or event type does not use" },
	{ -ENODEV, "the CPU is offline or does not exist" },
	{ -ESRCH, "no such task, or it is exiting" },
	{ -EBUSY, "the PMU is busy: an exclusive event holds it" },
	{ -ENOSPC, "no free hardware slot: every breakpoint register is in use" },
	{ -ENOMEM, "out of memory" },
	{ -ERANGE, "a number is out of range" },
	{ -E2BIG, "the text is too long" },
	{ -EEXIST, "a counter with this name exists" },
	{ -EACCES, "not permitted" },
	{ -EPERM, "not permitted" },
	{ -ENODATA, "this CPU has no event: perf refused it when the CPU came online" },
};

const char *perfkmod_strerror(int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_texts); i++)
		if (errno_texts[i].err == err)
			return errno_texts[i].text;
	return "unexpected error";
}
EXPORT_SYMBOL_GPL(perfkmod_strerror);

/**
 * perfkmod_hotplug_init() - set up the CPU hotplug state of per-CPU counters
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or a negative errno.
 */
int perfkmod_hotplug_init(void)
{
	/* no counter yet: nothing to call */
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					    "perfkmod:online",
					    perfkmod_cpu_online,
					    perfkmod_cpu_offline);
	if (ret < 0)
		return ret;
	perfkmod_hp_state = ret;
	return 0;
}

/**
 * perfkmod_hotplug_exit() - remove the CPU hotplug state
 *
 * Every per-CPU counter must be released first.
 *
 * Context: process context, may sleep; called once from module exit.
 */
void perfkmod_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(perfkmod_hp_state);
}

/* A counter of @list that @mod made; perfkmod_counters_mutex held. */
static struct perfkmod_counter *owned_by(struct list_head *list,
					 struct module *mod)
{
	struct perfkmod_counter *c;

	lockdep_assert_held(&perfkmod_counters_mutex);
	list_for_each_entry(c, list, all) {
		/* not one still being made: see @created */
		if (c->owner == mod && smp_load_acquire(&c->created))
			return c;
	}
	return NULL;
}

/*
 * A module that unloads with counters or callbacks it did not release
 * would leave perf calling into freed memory and text: release them, and
 * say so. Module notifiers run after the module's exit function, so a
 * module that cleans up after itself is never touched here.
 */
static int perfkmod_module_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct perfkmod_counter *found;
	struct module *mod = data;
	int counters = 0, callbacks, series;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	/* series first: they read counters */
	series = perfkmod_series_release_owner(mod);
	/* callbacks next, those a counter's release detached too */
	callbacks = perfkmod_callbacks_release_owner(mod);
	do {
		mutex_lock(&perfkmod_counters_mutex);
		found = owned_by(&perfkmod_per_cpu_counters, mod) ?:
			owned_by(&perfkmod_task_counters, mod);
		mutex_unlock(&perfkmod_counters_mutex);
		if (found) {
			perfkmod_counter_release(found);
			counters++;
		}
	} while (found);
	if (counters || callbacks)
		pr_warn("module %s unloaded without releasing %d counters and %d callbacks; perfkmod released them\n",
			mod->name, counters, callbacks);
	if (series)
		pr_warn("module %s unloaded without releasing %d series; perfkmod released them\n",
			mod->name, series);
	return NOTIFY_OK;
}

static struct notifier_block perfkmod_module_nb = {
	.notifier_call = perfkmod_module_notify,
};

static int __init perfkmod_init(void)
{
	int err;

	perfkmod_counter_cache = KMEM_CACHE(perfkmod_counter, 0);
	if (!perfkmod_counter_cache)
		return -ENOMEM;
	err = perfkmod_hotplug_init();
	if (err)
		goto err_cache;
	err = perfkmod_series_init();
	if (err)
		goto err_hotplug;
	err = register_module_notifier(&perfkmod_module_nb);
	if (err)
		goto err_series;
	err = perfkmod_control_init();
	if (err)
		goto err_notifier;
	perfkmod_debugfs_init();
	return 0;

err_notifier:
	unregister_module_notifier(&perfkmod_module_nb);
err_series:
	perfkmod_series_exit();
err_hotplug:
	perfkmod_hotplug_exit();
err_cache:
	kmem_cache_destroy(perfkmod_counter_cache);
	return err;
}

static void __exit perfkmod_exit(void)
{
	perfkmod_debugfs_exit();
	perfkmod_control_exit();
	unregister_module_notifier(&perfkmod_module_nb);
	perfkmod_series_exit();
	perfkmod_hotplug_exit();
	kmem_cache_destroy(perfkmod_counter_cache);
}

module_init(perfkmod_init);
module_exit(perfkmod_exit);

MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION is the same (make lint checks it) */
MODULE_VERSION(__stringify(PERFKMOD_VERSION_MAJOR) "."
	       __stringify(PERFKMOD_VERSION_MINOR));
MODULE_DESCRIPTION("In-kernel performance counters with an NMI-safe overflow trampoline");
