/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's own files share with each other; other modules use
 * perfkmod.h only.
 */
#ifndef _PERFKMOD_INTERNAL_H
#define _PERFKMOD_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "perfkmod.h"
#include "cpu_events.h"
#include "overflow.h"

/*
 * Locks
 *
 * Every lock perfkmod takes, in one place: what it protects, what it is
 * taken under and by whom. The order, outermost first:
 *
 *	perfkmod_named_mutex > perfkmod_named.lock >
 *	perfkmod_counter.sync_lock > perfkmod_counter.lock >
 *	perf's locks (ctx->mutex, ...) > cpu_hotplug_lock
 *
 *	series_reader.lock > perfkmod_series.read_lock
 *
 *	perfkmod_named_mutex > perfkmod_region_mutex > region_dirs_mutex >
 *	perfkmod_region.lock > kprobe_mutex, cpu_hotplug_lock > jump_label_mutex
 *
 * and the leaves perfkmod_counters_mutex, perfkmod_callback_mutex and
 * perfkmod_series_mutex, taken under perfkmod_named_mutex or none (and
 * perfkmod_counters_mutex in the CPU hotplug callbacks, while
 * cpu_hotplug_lock is held for writing). All are mutexes, taken in process context
 * only: what may run in NMI, in an interrupt or with interrupts off (the
 * trampoline and its deferred deliveries, the lockless local read, the
 * series' timers, switch event, trigger callback and CPU hotplug
 * callbacks) takes none. The one spinlock, a series' wait queue's, is a
 * leaf, never taken in NMI.
 * Elsewhere, a lock's declaration points here, and a function's comment
 * says which it must be called with. Below, a counter's @hotplug_work is
 * @pcpu.hotplug_work (cpu_events.h), and its @direct and @deferred are
 * @overflow.direct and @overflow.deferred (overflow.h).
 *
 * perfkmod_named_mutex, perfkmod_named.lock (control/)
 *	The root interface's: control/control.h says what they protect.
 *	They are taken outside every lock below (perfkmod.h's functions take
 *	those under them), never in a CPU hotplug callback nor under
 *	cpu_hotplug_lock.
 * perfkmod_counter.sync_lock (counter.c)
 *	Serialises the making and retiring of a per-CPU counter's events
 *	(perfkmod_sync_cpus(): create, enable, @hotplug_work) with each
 *	other and with perfkmod_counter_set_period(). Taken for every
 *	target: for a task counter it only serialises enable, refresh and
 *	set_period. Held while perf makes
 *	or releases an event, which takes cpu_hotplug_lock for reading (the
 *	static_key_slow_inc() and _dec() of software and tracepoint events,
 *	with JUMP_LABEL): so never taken under cpu_hotplug_lock, and the CPU
 *	hotplug callbacks leave the events to @hotplug_work. Held while
 *	waiting for an RCU grace period (perfkmod_sync_cpus()) and for a
 *	hotplug operation to end (create). Taken by create, enable, refresh
 *	and set_period, and by @hotplug_work (a workqueue).
 * cpu_hotplug_lock (the kernel's)
 *	Taken for reading by perf as it makes or releases an event, by
 *	cpuhp_state_add_instance() and _remove_instance() (a series' create
 *	and release), by perfkmod_create_cpus() to wait for a hotplug
 *	operation, and by the flush of a deferred callback's deliveries.
 *	Held for writing around the CPU hotplug callbacks, of which
 *	perfkmod's take perfkmod_counters_mutex and nothing else.
 * perfkmod_counter.lock
 *	Protects @enabled, @releasing, @base's writes and the per-CPU
 *	shares' @event, @base and @retired (a share's @event changes under
 *	both this and @sync_lock: under either it is stable; its @err,
 *	@absent, @served_by and @grace_due are @sync_lock's: cpu_events.h);
 *	serialises
 *	disable, reset, the stop work, state and the reads of per-CPU
 *	counters with the changes of enable and set_period, which hold
 *	@sync_lock and take this in turns. Never held while perf makes or
 *	releases an event; held while perf disables, resets and reads them,
 *	under its ctx->mutex, so never taken under cpu_hotplug_lock (see
 *	perf's locks). Taken by the API's callers, the stop work and
 *	@hotplug_work (workqueues) and debugfs readers.
 * perf's locks (the context's ctx->mutex, and those under it)
 *	Taken by perf as perfkmod makes, releases, enables, disables, reads
 *	and periods events, under the locks above. perf calls perfkmod with
 *	them held only in overflow handlers (the trampoline, a series'
 *	switch event), which take no lock. perf takes cpu_hotplug_lock under
 *	them: a task's exit frees its inherited events under its ctx->mutex,
 *	and the last tracepoint event of its kind unregisters its probe
 *	(event_mutex, tracepoints_mutex, a static call's cpus_read_lock()).
 *	So neither perfkmod nor its callers call perf in cpus_read_lock().
 * perfkmod_region_mutex (region.c)
 *	Protects the list of regions, its notifier chain (whose callbacks run
 *	under it: a region's viewers, control/'s debugfs files), the
 *	regions' names and markers' @region, the @counters of each listed
 *	region and the @users it holds of them. Taken by a region's create
 *	and release, the notifier's (un)register, a counter's release
 *	(region_forget(), the regions' struct perfkmod_user) and the module
 *	notifier, perhaps under perfkmod_named_mutex. Held while a region's
 *	probe is unregistered and an RCU grace period passes, and while the
 *	viewers remove their files, which waits for those files' readers:
 *	these take perfkmod_region.lock, never this.
 * perfkmod_region.lock (region.h)
 *	Serialises turning a region on and off (its @gen and
 *	@orphan): taken by enable and disable, alone, and under
 *	perfkmod_region_mutex by create, release and a counter's release.
 *	Held while a marker's static key changes (cpu_hotplug_lock for
 *	reading, then jump_label_mutex) and a probe is enabled or disabled
 *	(kprobe_mutex): never taken under cpu_hotplug_lock. A call's begin
 *	and end take no lock.
 * region_dirs_mutex (control/region_files.c)
 *	control/control.h says what it protects: taken by the region
 *	notifier's callbacks, under perfkmod_region_mutex.
 * series_reader.lock (control/named_files.c), an open records file's
 *	control/control.h says what it protects; it is held over
 *	perfkmod_series_read(), which takes perfkmod_series.read_lock.
 *
 * Leaves: no other lock is taken, and nothing is waited for, under them.
 *
 * perfkmod_counters_mutex (counter_list.c)
 *	Protects the lists of counters (perfkmod_per_cpu_counters, which
 *	the CPU hotplug callbacks walk, and perfkmod_task_counters) and each
 *	counter's @node. Taken by the CPU hotplug callbacks (in the CPU's
 *	hotplug thread, cpu_hotplug_lock held for writing), by create and
 *	release (perhaps under perfkmod_named_mutex, under no counter's
 *	lock) and by the module notifier. Only the workqueue's own locks are
 *	taken under it (mod_delayed_work()).
 * perfkmod_callback_mutex (callbacks.c)
 *	Protects every counter's @direct and @deferred lists (for writers:
 *	the trampoline reads them under RCU), each callback's attachment,
 *	and the list of the handles their owners still hold. Taken by
 *	register, unregister, a sampling counter's release and an
 *	event-driven series' create and release (each perhaps under
 *	perfkmod_named_mutex, never under perfkmod_series_mutex) and the
 *	module notifier.
 * perfkmod_series_mutex (series.c)
 *	Protects the list of the series whose timers or triggers may record,
 *	each listed series' @counters and @config.trigger, the @users of
 *	the counters they read and of their triggers, and the ring memory
 *	taken.
 *	Taken by a series' create and release, a counter's release
 *	(series_forget(), the series' struct perfkmod_user) and the module
 *	notifier, perhaps under perfkmod_named_mutex.
 * perfkmod_series.read_lock (series.h, taken in series_read.c)
 *	One reader of a series at a time: each ring's @tail. Taken by
 *	perfkmod_series_read(): under series_reader.lock for the records
 *	file, under whatever its caller holds otherwise.
 * perfkmod_series_waitq.wait's lock (the kernel's wait queue spinlock)
 *	A leaf: taken by poll() as a reader joins the queue, by a CPU's
 *	irq_work (hard interrupt) and by the series' release as they wake
 *	it. A record, which may be made in NMI, only looks at the queue
 *	without it (wq_has_sleeper()).
 */

/*
 * Module parameters (Documentation/perfkmod.rst, "Module parameters", is
 * where they are documented) are each defined in the file that uses them:
 * counters and series in control/params.c, max_name_len, max_cmd_len and
 * max_counters in control/named.c, ring_size in overflow.c,
 * series_max_mb in series.c.
 */

/**
 * enum perfkmod_read_kind - when a local read may call the PMU's read()
 * @PERFKMOD_READ_NONE: the PMU's read() does nothing, the count is exact
 *	as it stands: the software events, tracepoints, kprobes, uprobes and
 *	breakpoints. Also the value of a counter with no event yet.
 * @PERFKMOD_READ_CLOCK: cpu-clock or task-clock, whose read() updates the
 *	count from a clock with an exchange: never in NMI, else only while
 *	perf does not hold the event's context lock.
 * @PERFKMOD_READ_HW: a CPU's own PMU (perf_hw_context): while the event
 *	is not stopped (PERF_HES_STOPPED) and, but on x86, perf does not hold
 *	its context lock.
 * @PERFKMOD_READ_SW: another PMU of perf's software context whose read()
 *	reads a counter (x86's msr, ...): while perf does not hold the
 *	event's context lock.
 * @PERFKMOD_READ_SYSTEM: a PMU that is not the CPUs' own: it takes no task
 *	events (perf_invalid_context: uncore, RAPL, cstate, ...), or an event
 *	of it counts for more CPUs than the one it was made for (see
 *	event_is_shared() in cpu_events.c). Refused in NMI; else as
 *	%PERFKMOD_READ_SW.
 *
 * read_local.c's may_read_pmu() says why each.
 */
enum perfkmod_read_kind {
	PERFKMOD_READ_NONE,
	PERFKMOD_READ_CLOCK,
	PERFKMOD_READ_HW,
	PERFKMOD_READ_SW,
	PERFKMOD_READ_SYSTEM,
};

/**
 * struct perfkmod_counter - a counter: one perf event, or one per CPU
 * @config: the config it was created from; @config.task is NULL (the task,
 *	if any, is named by @config.pid). Its period and frequency change
 *	under @lock (see perfkmod_config_samples()); the rest never.
 * @lock: protects the counter's state and events; see "Locks" above.
 * @enabled: counting is on; a CPU that comes online gets its event in this
 *	state. Written under @lock with WRITE_ONCE(); perfkmod_sync_cpus()
 *	reads it without, and mends an event made meanwhile under @lock.
 * @releasing: perfkmod_counter_release() has begun; set under @lock.
 * @sync_lock: serialises the making and retiring of a counter's events with
 *	enable, refresh and set_period; see "Locks" above.
 * @created: create has returned it (smp_store_release()): a per-CPU
 *	counter is on its list before, for the CPU hotplug callbacks, and
 *	the module notifier leaves it alone until then.
 * @read_kind: how perfkmod_counter_read_local() reads the counter's
 *	events (&enum perfkmod_read_kind), by their PMU: written by
 *	counter_event.c only, with WRITE_ONCE(): set once when the first event
 *	is made (perfkmod_create_event()), and raised to
 *	%PERFKMOD_READ_SYSTEM (perfkmod_events_read_as_system()) when
 *	perfkmod_sync_cpus() makes the first event that tells; before an event
 *	is published either way, so that a reader of the event reads it set.
 * @event: the perf event of a task counter; NULL otherwise.
 * @base: @event's value at the last reset; written under @lock with
 *	WRITE_ONCE(), read locklessly with READ_ONCE().
 * @owner: the module that created the counter.
 * @users: how many readers of the users in perfkmod_users read the
 *	counter, through perfkmod_counter_use() and _unuse(), each under its
 *	own lock (a series under perfkmod_series_mutex). Its release makes
 *	them stop.
 * @node: counter_list.c's (initialised by create): entry in one of its
 *	lists, from create until one caller takes it off
 *	(perfkmod_unlist_counter()); under perfkmod_counters_mutex.
 * @release_work: releases the counter in perfkmod_reap_wq, for a release
 *	from a callback's process delivery (perfkmod_counter_release()).
 * @pcpu: the per-CPU events, cpu_events.c's (struct perfkmod_cpu_events).
 * @overflow: the overflow state, overflow.c's and callbacks.c's (struct
 *	perfkmod_overflow).
 *
 * The subsystems' states are embedded, not pointed to: the reads and the
 * trampoline reach them with no load more.
 */
struct perfkmod_counter {
	struct perfkmod_config config;
	struct mutex lock;	/* see "Locks" above */
	struct mutex sync_lock;	/* see "Locks" above */
	bool enabled;
	bool releasing;
	bool created;
	u8 read_kind;
	atomic_t users;
	struct perf_event *event;
	u64 base;
	struct module *owner;
	struct list_head node;	/* under perfkmod_counters_mutex */
	struct work_struct release_work;
	struct perfkmod_cpu_events pcpu;
	struct perfkmod_overflow overflow;
};

/*
 * Whether @c's PMU is not the CPUs' own (see &enum perfkmod_read_kind):
 * written before an event of @c is published, read without a lock.
 */
static inline bool perfkmod_system_pmu(const struct perfkmod_counter *c)
{
	return READ_ONCE(c->read_kind) == PERFKMOD_READ_SYSTEM;
}

/* Whether @c has events per CPU (all CPUs, or one): not a task's. */
static inline bool perfkmod_per_cpu(const struct perfkmod_counter *c)
{
	return c->config.target != PERFKMOD_TARGET_TASK;
}

/*
 * The CPUs a per-CPU counter counts on: its one CPU, or every possible one.
 * cpumask_of() is good for every CPU below nr_cpu_ids, which create checks.
 */
static inline const struct cpumask *
perfkmod_counted_cpus(const struct perfkmod_counter *c)
{
	return c->config.target == PERFKMOD_TARGET_CPU ?
	       cpumask_of(c->config.cpu) : cpu_possible_mask;
}

/* The share of counted CPU @cpu of a per-CPU counter. */
static inline struct perfkmod_cpu_share *
perfkmod_cpu_share(struct perfkmod_counter *c, int cpu)
{
	return c->pcpu.cpus ? per_cpu_ptr(c->pcpu.cpus, cpu) : &c->pcpu.one;
}

/*
 * @val += what @event counted, with its times. Inline: on every read of a
 * counter (counter.c), a call there is a measurable share of the read.
 */
static inline void perfkmod_add_event_value(struct perf_event *event,
					    struct perfkmod_value *val)
{
	u64 enabled, running;

	val->value += perf_event_read_value(event, &enabled, &running);
	val->enabled += enabled;
	val->running += running;
}

/* counter.c: the counter lifecycle */
int perfkmod_counter_cache_init(void);
void perfkmod_counter_cache_exit(void);
int perfkmod_counters_release_owner(struct module *mod);
struct task_struct *perfkmod_counter_task(const struct perfkmod_counter *c);
void perfkmod_counter_use(struct perfkmod_counter *c);
void perfkmod_counter_unuse(struct perfkmod_counter *c);

/* counter_list.c: the lists of counters */
void perfkmod_list_counter(struct perfkmod_counter *c);
bool perfkmod_unlist_counter(struct perfkmod_counter *c);
struct perfkmod_counter *perfkmod_take_owned_counter(struct module *mod);

/**
 * struct perfkmod_user - a part of perfkmod above the counter core that
 *	reads counters, and is told when one goes
 * @node: entry in counter.c's perfkmod_users; added and removed by module
 *	init and exit only, while no counter exists, and read without a lock.
 * @forget: called by the release of a counter whose @users is not 0,
 *	before its events go, with no lock of the counter held: once it
 *	returns, none of the user's readers reads the counter (each takes
 *	itself off, and drops @users, under its own lock). Process context,
 *	may sleep.
 */
struct perfkmod_user {
	struct list_head node;
	void (*forget)(struct perfkmod_counter *c);
};

void perfkmod_user_register(struct perfkmod_user *u);
void perfkmod_user_unregister(struct perfkmod_user *u);

/*
 * Where preempt_count() does not tell that a delivery may not sleep (see
 * overflow.c), perfkmod_delivering marks the task that runs it.
 */
#if defined(CONFIG_PREEMPT_RT) || !defined(CONFIG_PREEMPT_COUNT)
#define PERFKMOD_MARK_DELIVERY
DECLARE_PER_CPU(struct task_struct *, perfkmod_delivering);
#endif

/*
 * Whether the caller may not sleep: in an interrupt, NMI or softirq, with
 * bottom halves, interrupts or (where preempt_count() counts it)
 * preemption off, in a delivery perfkmod_delivering marks, or, for a
 * function that may wait for an RCU grace period (@gp), in a preemptible
 * RCU reader, whose grace period would then never end. A spinlock held is
 * seen only where preempt_count() counts it; a preemptible RCU reader in
 * a function that waits for no grace period (the reads) only by
 * DEBUG_ATOMIC_SLEEP's check (perfkmod_might_sleep()): it is a bug there,
 * not a hang, and the test would cost every read more than the rest.
 */
static __always_inline bool perfkmod_atomic_caller(bool gp)
{
	if (preempt_count() || irqs_disabled() || (gp && rcu_preempt_depth()))
		return true;
#ifdef PERFKMOD_MARK_DELIVERY
	return this_cpu_read(perfkmod_delivering) == current;
#else
	return false;
#endif
}

/*
 * At the entry of each function that may sleep: where its caller may not (a
 * direct or IRQ callback, interrupts or preemption off; but for the reads,
 * perfkmod_refuse_atomic_read(), an RCU reader), it warns once,
 * naming the function and the rule, and the function refuses: returns an
 * error (-EDEADLK) or does nothing. Elsewhere, with DEBUG_ATOMIC_SLEEP,
 * might_sleep()'s check of what this one cannot see (a spinlock held
 * without PREEMPT_COUNT); not its voluntary preemption point, which the
 * function's own sleeping calls (mutex_lock(), ...) are, and which would
 * cost the reads each call.
 */
#if !defined(CONFIG_DEBUG_ATOMIC_SLEEP)
#define perfkmod_might_sleep()	do { } while (0)
#elif defined(PERFKMOD_HAVE_MIGHT_SLEEP_OFFSET)
#define perfkmod_might_sleep()	__might_sleep(__FILE__, __LINE__, 0)
#else
#define perfkmod_might_sleep()	__might_sleep(__FILE__, __LINE__)
#endif
#define PERFKMOD_SLEEP_WARN \
	"perfkmod: %s() may sleep: not in a direct or IRQ callback, atomic nor an RCU reader\n"
#define __perfkmod_refuse_atomic(gp)					\
({									\
	bool __atomic = perfkmod_atomic_caller(gp);			\
									\
	WARN_ONCE(__atomic, PERFKMOD_SLEEP_WARN, __func__);		\
	if (!__atomic)							\
		perfkmod_might_sleep();					\
	__atomic;							\
})
#define perfkmod_refuse_atomic()	__perfkmod_refuse_atomic(true)
/* for the reads, which wait for no grace period (see above) */
#define perfkmod_refuse_atomic_read()	__perfkmod_refuse_atomic(false)

#endif /* _PERFKMOD_INTERNAL_H */
