// SPDX-License-Identifier: GPL-2.0
/*
 * Series sampled in the kernel: a pinned hrtimer on every online CPU
 * reads a set of counters with perfkmod_counter_read_local() each interval
 * and appends one record to that CPU's ring; a reader drains the rings.
 * Records that find a ring full are counted, never lost silently. An
 * event-driven series has no timer: a direct callback on its trigger
 * counter records at each overflow, on the overflow's CPU.
 *
 * A series of one task's counters follows the task: a CPU's timer records
 * only when it interrupts the task, and the task's leaving a CPU records
 * too, from the overflow of a context-switches event of the task's own
 * (perf raises it as the task switches out, before its events stop).
 *
 * Each ring has one producer at a time, on its own CPU: the hrtimer of the
 * CPU (hard interrupt), or the task's switching out there (interrupts
 * off); of an event-driven series, the trigger's overflow (any context,
 * NMI included: an overflow of the trigger in an interrupt of its own
 * recording finds @busy set and drops its record); and one consumer at a
 * time, perfkmod_series_read() under
 * @read_lock: @head is published with release after the record is written,
 * @tail with release after it is read, each loaded with acquire by the
 * other side.
 *
 * Readers may sleep in poll() on the series' wait queue (struct
 * perfkmod_series_waitq) until a CPU's ring holds the series' watermark
 * of records. A producer that brings its ring to the watermark looks for
 * a sleeper there without a lock (wq_has_sleeper()) and, when it finds
 * one, queues its CPU's irq_work, which does the wake_up(): a producer
 * may run in NMI or under the scheduler's locks, where a wake_up() may
 * not. With nobody polling, the cost of a record is that look.
 */
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/perf_event.h>
#include <linux/refcount.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include <asm/local64.h>

#include "compat.h"
#include "cpuhotplug.h"
#include "internal.h"
#include "series.h"

static enum cpuhp_state series_hp_state;
/*
 * Every series whose timers may run is listed, so that a counter's
 * release finds those that read it and a module that goes away has its
 * own released; perfkmod_series_mutex: see "Locks" in internal.h.
 */
static DEFINE_MUTEX(perfkmod_series_mutex);
static LIST_HEAD(perfkmod_series_list);

/*
 * The ring memory all series may take together, whoever made them: a
 * series' rings take a record per CPU possible, so one series can ask for
 * gigabytes on a large machine.
 */
static unsigned int series_max_mb = 256;
module_param(series_max_mb, uint, 0600);
MODULE_PARM_DESC(series_max_mb, "MiB of ring memory all series together may take; a series that would take more is refused (default 256)");

/* The ring memory of the series made; under perfkmod_series_mutex. */
static u64 series_bytes;

/* Take @bytes of the series' memory, if the bound allows. */
static int reserve_bytes(u64 bytes)
{
	int err = 0;

	mutex_lock(&perfkmod_series_mutex);
	if (series_bytes + bytes > (u64)READ_ONCE(series_max_mb) << 20)
		err = -ENOMEM;
	else
		series_bytes += bytes;
	mutex_unlock(&perfkmod_series_mutex);
	return err;
}

static void unreserve_bytes(u64 bytes)
{
	mutex_lock(&perfkmod_series_mutex);
	series_bytes -= bytes;
	mutex_unlock(&perfkmod_series_mutex);
}

/*
 * After a record is published: while the ring holds the watermark, wake
 * the readers asleep in poll(), if any, through this CPU's irq_work (a
 * queued one is not queued again). Each such record wakes, not only the
 * one that reaches the watermark: the count is read with the reader's
 * @tail, which may be older than its last read, and an older @tail only
 * makes the count larger, never smaller, so no wakeup is lost (a record
 * that reached the watermark by a stale count would be the only one that
 * wakes, and the rest would find the count past it).
 *
 * wq_has_sleeper()'s barrier orders the new @head before the look at the
 * wait queue; the poller's, between joining the queue and reading @head,
 * pairs with it (perfkmod_series_poll_wait()).
 *
 * Context: a producer's, NMI included; takes no lock.
 */
static void series_wake_pollers(struct perfkmod_series *s,
				struct perfkmod_series_cpu *sc,
				unsigned long head)
{
	if (head - READ_ONCE(sc->tail) < s->watermark)
		return;
	if (wq_has_sleeper(&s->waitq->wait))
		irq_work_queue(&sc->wakeup);
}

/*
 * The irq_work of a CPU: wake the pollers. Context: hard interrupt (the
 * irq_work thread on PREEMPT_RT).
 */
static void series_wakeup_work(struct irq_work *work)
{
	struct perfkmod_series_cpu *sc = container_of(work,
			struct perfkmod_series_cpu, wakeup);

	wake_up_all(&sc->series->waitq->wait);
}

/*
 * Append a record to this CPU's ring, with what a trigger's overflow
 * interrupted (@sample and @regs; NULL for a timer's record). Context:
 * hard interrupt, interrupts off, or an overflow's (NMI included); on the
 * ring's CPU.
 */
static void series_record(struct perfkmod_series *s,
			  struct perfkmod_series_cpu *sc,
			  const struct perfkmod_sample *sample,
			  struct pt_regs *regs)
{
	struct perfkmod_series_record *r;
	struct perfkmod_counter *c;
	unsigned long head;
	unsigned int i;

	if (READ_ONCE(sc->busy)) {
		local64_inc(&sc->dropped);
		return;
	}
	WRITE_ONCE(sc->busy, true);
	barrier();
	head = sc->head;
	/* pairs with smp_store_release() in perfkmod_series_read() */
	if (head - smp_load_acquire(&sc->tail) > s->mask) {
		local64_inc(&sc->dropped);
		goto out;
	}
	r = &sc->ring[head & s->mask];
	r->time = ktime_get_mono_fast_ns();
	r->cpu = smp_processor_id();
	r->nr_values = s->config.nr_counters;
	r->errors = 0;
	for (i = 0; i < s->config.nr_counters; i++) {
		/* pairs with WRITE_ONCE() in series_forget() */
		c = READ_ONCE(s->counters[i]);
		if (!c || perfkmod_counter_read_local(c, &r->values[i])) {
			r->values[i] = 0;
			r->errors |= BIT(i);
		}
	}
	r->ip = 0;
	r->pid = 0;
	r->tid = 0;
	r->flags = 0;
	r->reserved = 0;
	if (sample) {
		r->ip = sample->ip;
		r->pid = sample->pid;
		r->tid = sample->tid;
		r->flags = PERFKMOD_RECORD_TRIGGERED |
			   (regs && user_mode(regs) ? PERFKMOD_RECORD_USER : 0);
	}
	/* the record first: pairs with smp_load_acquire() in the reader */
	smp_store_release(&sc->head, head + 1);
	series_wake_pollers(s, sc, head + 1);
out:
	barrier();
	WRITE_ONCE(sc->busy, false);
}

static enum hrtimer_restart series_tick(struct hrtimer *timer)
{
	struct perfkmod_series_cpu *sc = container_of(timer,
			struct perfkmod_series_cpu, timer);
	struct perfkmod_series *s = sc->series;
	ktime_t start = hrtimer_cb_get_time(timer), end, busy;
	u64 intervals;

	/* a task series: only while the task runs here, until it is gone */
	if (s->task) {
		if (READ_ONCE(s->task->exit_state))
			return HRTIMER_NORESTART;
		if (current != s->task) {
			hrtimer_forward(timer, start, s->interval);
			return HRTIMER_RESTART;
		}
	}
	series_record(s, sc, NULL, NULL);
	/*
	 * The next expiry no sooner after this tick's end than the tick held
	 * the CPU: from its expiry (interrupt entry, the timers that ran
	 * before it), or if it came later than an interval (interrupts were
	 * off) from its start. A tick slower than half its interval (a debug
	 * or emulated kernel, several series) skips intervals, counted,
	 * rather than take the whole CPU.
	 */
	end = hrtimer_cb_get_time(timer);
	busy = min(ktime_sub(end, hrtimer_get_expires(timer)), s->interval);
	busy = max(busy, ktime_sub(end, start));
	intervals = hrtimer_forward(timer, ktime_add(end, busy), s->interval);
	if (intervals > 1)
		WRITE_ONCE(sc->skipped, sc->skipped + intervals - 1);
	return HRTIMER_RESTART;
}

/*
 * The overflow of @s->switch_event: the task is switching out of this CPU,
 * its events not yet stopped. Context: the scheduler, interrupts off.
 */
static void series_switch(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct perfkmod_series *s = event->overflow_handler_context;

	if (current == s->task)
		series_record(s, this_cpu_ptr(s->cpus), NULL, NULL);
}

/*
 * The direct callback on an event-driven series' trigger. Context: the
 * overflow's, NMI included; on the CPU of the overflow.
 */
static void series_trigger(const struct perfkmod_sample *sample,
			   struct pt_regs *regs, void *context)
{
	struct perfkmod_series *s = context;

	series_record(s, this_cpu_ptr(s->cpus), sample, regs);
}

/* A task series' context-switches event, on its task. */
static int series_switch_event(struct perfkmod_series *s)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.sample_period = 1,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, s->task,
						 series_switch, s);
	if (IS_ERR(event))
		return PTR_ERR(event);
	s->switch_event = event;
	return 0;
}

/* On the CPU coming online, in its hotplug thread. */
static int series_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct perfkmod_series *s = hlist_entry(node, struct perfkmod_series,
						node);
	struct perfkmod_series_cpu *sc = per_cpu_ptr(s->cpus, cpu);

	hrtimer_start(&sc->timer, s->interval, HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/* On the CPU going offline: its timer must not migrate to another. */
static int series_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct perfkmod_series *s = hlist_entry(node, struct perfkmod_series,
						node);

	hrtimer_cancel(&per_cpu_ptr(s->cpus, cpu)->timer);
	return 0;
}

/*
 * Release a task series' switch event, then wait until no overflow of it
 * can still be writing to a ring (perf calls software overflows in an RCU
 * read-side section, with interrupts off).
 */
static void release_switch_event(struct perfkmod_series *s)
{
	if (!s->switch_event)
		return;
	perf_event_release_kernel(s->switch_event);
	s->switch_event = NULL;
	synchronize_rcu();
}

static void free_rings(struct perfkmod_series *s)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kvfree(per_cpu_ptr(s->cpus, cpu)->ring);
	free_percpu(s->cpus);
}

/* @c counts what @task's series reads: the task, or all CPUs for NULL. */
static bool same_target(const struct perfkmod_counter *c,
			const struct task_struct *task)
{
	return task ? perfkmod_counter_task(c) == task :
		      c->config.target == PERFKMOD_TARGET_ALL_CPUS;
}

/*
 * The config's bounds, and its counters: all all-CPUs counters, or all
 * counters of one task (without inherit, whose children's counts a read
 * in the task cannot see), then stored in @task; a trigger that samples
 * and counts the same.
 */
static int check_series_config(const struct perfkmod_series_config *cfg,
			       struct task_struct **task)
{
	const struct perfkmod_counter *c;
	unsigned int i;

	if (!cfg->counters || !cfg->nr_counters ||
	    cfg->nr_counters > PERFKMOD_SERIES_MAX_COUNTERS)
		return -EINVAL;
	/* an interval, or a trigger without one */
	if (cfg->trigger ? cfg->interval_ns :
	    (cfg->interval_ns < PERFKMOD_SERIES_MIN_INTERVAL_NS ||
	     cfg->interval_ns > (u64)KTIME_MAX))
		return -EINVAL;
	if (cfg->ring_records > PERFKMOD_SERIES_MAX_RECORDS ||
	    cfg->wakeup_records > PERFKMOD_SERIES_MAX_RECORDS)
		return -EINVAL;
	for (i = 0; i < cfg->nr_counters; i++) {
		c = cfg->counters[i];
		if (IS_ERR_OR_NULL(c))
			return -EINVAL;
		if (!i)
			*task = perfkmod_counter_task(c);
		if (!same_target(c, *task))
			return -EINVAL;
	}
	c = cfg->trigger;
	if (c && (IS_ERR(c) || !perfkmod_config_samples(&c->config) ||
		  !same_target(c, *task)))
		return -EINVAL;
	return 0;
}

/* Take @s off the list, and off the counters it still reads. */
static void unlist_series(struct perfkmod_series *s)
{
	unsigned int i;

	mutex_lock(&perfkmod_series_mutex);
	list_del(&s->all);
	for (i = 0; i < s->config.nr_counters; i++) {
		if (s->counters[i])
			perfkmod_counter_unuse(s->counters[i]);
	}
	if (s->config.trigger)
		perfkmod_counter_unuse(s->config.trigger);
	mutex_unlock(&perfkmod_series_mutex);
}

/**
 * series_forget() - stop every series reading a counter
 * @c: a counter being released, which may be another module's, and which
 *	some series reads (perfkmod_counter_use()).
 *
 * Each series that reads @c records it as an error from now on (its bit
 * in &perfkmod_series_record.errors, value 0), as for any counter it
 * cannot read, and goes on with its other counters; it stays its owner's
 * to read and release. Once this returns, no series reads @c: the timers
 * read it in hard interrupt, a task series' switch in the scheduler with
 * interrupts off, and an RCU grace period waits for both. An event-driven
 * series whose trigger @c is records no more: @c's events go with its
 * release (its callback stays, for the series' release to unregister).
 *
 * Context: process context, may sleep.
 */
static void series_forget(struct perfkmod_counter *c)
{
	struct perfkmod_series *s;
	unsigned int i;

	mutex_lock(&perfkmod_series_mutex);
	list_for_each_entry(s, &perfkmod_series_list, all) {
		for (i = 0; i < s->config.nr_counters; i++) {
			if (s->counters[i] != c)
				continue;
			/* pairs with READ_ONCE() in series_record() */
			WRITE_ONCE(s->counters[i], NULL);
			perfkmod_counter_unuse(c);
		}
		if (s->config.trigger == c) {
			s->config.trigger = NULL;
			perfkmod_counter_unuse(c);
		}
	}
	mutex_unlock(&perfkmod_series_mutex);
	synchronize_rcu();
}

/* The series, a user of counters: their release calls series_forget(). */
struct perfkmod_user perfkmod_series_user = {
	.forget = series_forget,
};

struct perfkmod_series *
__perfkmod_series_create(const struct perfkmod_series_config *config,
			 struct module *owner)
{
	struct perfkmod_series *s;
	struct task_struct *task;
	unsigned int records, i;
	int cpu, err;

	if (perfkmod_refuse_atomic())
		return ERR_PTR(-EDEADLK);
	err = check_series_config(config, &task);
	if (err)
		return ERR_PTR(err);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	if (task)
		s->task = get_task_struct(task);
	s->config = *config;
	memcpy(s->counters, config->counters,
	       config->nr_counters * sizeof(*s->counters));
	s->config.counters = s->counters;
	s->interval = ns_to_ktime(config->interval_ns);
	records = roundup_pow_of_two(config->ring_records ?:
				     PERFKMOD_SERIES_DEFAULT_RECORDS);
	s->mask = records - 1;
	s->watermark = clamp(config->wakeup_records, 1U, records);
	s->bytes = (u64)records * sizeof(*s->cpus->ring) * num_possible_cpus();
	s->owner = owner;
	mutex_init(&s->read_lock);

	err = reserve_bytes(s->bytes);
	if (err)
		goto err_free;
	err = -ENOMEM;
	s->waitq = kzalloc(sizeof(*s->waitq), GFP_KERNEL);
	if (!s->waitq)
		goto err_unreserve;
	init_waitqueue_head(&s->waitq->wait);
	refcount_set(&s->waitq->ref, 1);
	s->cpus = alloc_percpu(struct perfkmod_series_cpu);
	if (!s->cpus)
		goto err_waitq;
	for_each_possible_cpu(cpu) {
		struct perfkmod_series_cpu *sc = per_cpu_ptr(s->cpus, cpu);

		sc->series = s;
		hrtimer_init(&sc->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		sc->timer.function = series_tick;
		init_irq_work(&sc->wakeup, series_wakeup_work);
		sc->ring = kvcalloc(records, sizeof(*sc->ring),
				    GFP_KERNEL_ACCOUNT);
		if (!sc->ring)
			goto err_rings;
	}
	if (s->task && !config->trigger) {
		err = series_switch_event(s);
		if (err)
			goto err_rings;
	}
	/* before the timers read them: a counter's release finds @s */
	mutex_lock(&perfkmod_series_mutex);
	list_add_tail(&s->all, &perfkmod_series_list);
	for (i = 0; i < config->nr_counters; i++)
		perfkmod_counter_use(s->counters[i]);
	if (s->config.trigger)
		perfkmod_counter_use(s->config.trigger);
	mutex_unlock(&perfkmod_series_mutex);
	/* perfkmod's own: the series' release unregisters it, not its owner */
	if (config->trigger) {
		s->trigger_cb =
			__perfkmod_callback_register(config->trigger,
						     series_trigger, s,
						     PERFKMOD_DELIVER_DIRECT,
						     THIS_MODULE);
		if (IS_ERR(s->trigger_cb)) {
			err = PTR_ERR(s->trigger_cb);
			goto err_unlist;
		}
		return s;
	}
	/* starts the timer of each online CPU, on that CPU */
	err = cpuhp_state_add_instance(series_hp_state, &s->node);
	if (err)
		goto err_unlist;
	return s;

err_unlist:
	unlist_series(s);
	release_switch_event(s);
err_rings:
	free_rings(s);
err_waitq:
	perfkmod_series_waitq_put(s->waitq);
err_unreserve:
	unreserve_bytes(s->bytes);
err_free:
	mutex_destroy(&s->read_lock);
	if (s->task)
		put_task_struct(s->task);
	kfree(s);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(__perfkmod_series_create);

/*
 * Whether this caller is the one that releases @s: the series stays on
 * its list until its timers are stopped (series_forget() finds
 * it there meanwhile), so a flag, not the list, says it is being released.
 */
static bool claim_series(struct perfkmod_series *s)
{
	bool first;

	mutex_lock(&perfkmod_series_mutex);
	first = !s->claimed;
	s->claimed = true;
	mutex_unlock(&perfkmod_series_mutex);
	return first;
}

/* Release @s, which this caller claimed. */
static void release_claimed(struct perfkmod_series *s)
{
	int cpu;

	/* waits for a record being made, as the timers' cancel does */
	if (s->trigger_cb)
		perfkmod_callback_unregister(s->trigger_cb);
	else
		/* stops the timer of each online CPU; offline ones are stopped */
		cpuhp_state_remove_instance(series_hp_state, &s->node);
	release_switch_event(s);
	/* no producer is left: none queues a wakeup, none is running */
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(s->cpus, cpu)->wakeup);
	/*
	 * The pollers see @dead after their barrier, or are woken: pairs with
	 * the poller's smp_mb() (perfkmod_series_poll_wait()) through the
	 * queue's lock.
	 */
	WRITE_ONCE(s->waitq->dead, true);
	wake_up_all(&s->waitq->wait);
	perfkmod_series_waitq_put(s->waitq);
	/* nothing reads the counters now: leave them to their release */
	unlist_series(s);
	free_rings(s);
	unreserve_bytes(s->bytes);
	mutex_destroy(&s->read_lock);
	if (s->task)
		put_task_struct(s->task);
	kfree(s);
}

void perfkmod_series_release(struct perfkmod_series *s)
{
	if (perfkmod_refuse_atomic())
		return;
	if (WARN_ONCE(!claim_series(s), "perfkmod: a series released twice\n"))
		return;
	release_claimed(s);
}
EXPORT_SYMBOL_GPL(perfkmod_series_release);

/**
 * perfkmod_series_release_owner() - release the series a module left
 * @mod: the module going away.
 *
 * Before its counters are released: a series reads them.
 *
 * Context: process context, may sleep.
 * Return: how many were released.
 */
int perfkmod_series_release_owner(struct module *mod)
{
	struct perfkmod_series *s, *found;
	int n = 0;

	do {
		found = NULL;
		mutex_lock(&perfkmod_series_mutex);
		list_for_each_entry(s, &perfkmod_series_list, all) {
			if (s->owner == mod && !s->claimed) {
				found = s;
				s->claimed = true;
				break;
			}
		}
		mutex_unlock(&perfkmod_series_mutex);
		if (found) {
			release_claimed(found);
			n++;
		}
	} while (found);
	return n;
}

/**
 * perfkmod_series_hotplug_init() - set up the CPU hotplug state of the series
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or a negative errno.
 */
int perfkmod_series_hotplug_init(void)
{
	int ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
					  PERFKMOD_CPUHP_SERIES,
					  series_cpu_online,
					  series_cpu_offline);
	if (ret < 0)
		return ret;
	series_hp_state = ret;
	return 0;
}

/**
 * perfkmod_series_hotplug_exit() - remove the CPU hotplug state of the series
 *
 * Context: process context, may sleep; called once from module exit, when
 * no series is left.
 */
void perfkmod_series_hotplug_exit(void)
{
	WARN_ON(!list_empty(&perfkmod_series_list));
	cpuhp_remove_multi_state(series_hp_state);
}
