// SPDX-License-Identifier: GPL-2.0
/*
 * The perf events of a counter: their attributes, their making with the
 * checks of perf_event_open() that the kernel path skips (for counter.c
 * and cpu_events.c), the event made only to ask perf whether it takes a
 * frequency (for counter.c), and what perfkmod knows of the PMUs: which
 * are perf's clocks, and how a counter's events may be read locally (for
 * read_local.c). An event's value is read by perfkmod_add_event_value()
 * in internal.h, inline on the read path. The events a series makes for
 * itself (a task series' context-switch event) are series.c's.
 */
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "counter_event.h"
#include "internal.h"

/*
 * perf's PMUs of cpu-clock and task-clock (static in kernel/events/core.c,
 * registered at boot and never unregistered), and the types perf gives
 * their events: a PMU's own where it has one (6.12 registers them as
 * "cpu_clock" and "task_clock", with dynamic types, and perf_swevent_init()
 * rewrites attr.type to those), else PERF_TYPE_SOFTWARE (6.1, whose
 * cpu_clock_event_init() takes that type only). Also the read() of perf's
 * software PMU, perf_swevent_read(), which does nothing and which the
 * tracepoint, kprobe and uprobe PMUs share. Captured by
 * perfkmod_pmus_init(), before any counter is made; read-only after.
 */
static struct pmu *cpu_clock_pmu, *task_clock_pmu;
static u32 cpu_clock_type = PERF_TYPE_SOFTWARE;
static u32 task_clock_type = PERF_TYPE_SOFTWARE;
static void (*swevent_read)(struct perf_event *event);

/*
 * The PMU perf gives a disabled software event of @config made on this
 * task, and the type it gives the event; then the event is released.
 */
static int probe_pmu(u64 config, struct pmu **pmu, u32 *type)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL,
						 NULL);
	if (IS_ERR(event))
		return PTR_ERR(event);
	*pmu = event->pmu;
	if (type)
		*type = event->attr.type;
	perf_event_release_kernel(event);
	return 0;
}

/**
 * perfkmod_pmus_init() - learn perf's PMUs of the clocks and software events
 *
 * Made and released at once: a disabled event of cpu-clock, task-clock and
 * the dummy software event on the calling task (a task event: no CPU to
 * choose, none to go offline meanwhile).
 *
 * Context: process context, may sleep; called once from module init,
 *	before any counter is made.
 * Return: 0, or the errno perf gave for one of the events.
 */
int perfkmod_pmus_init(void)
{
	struct pmu *sw;
	int err;

	err = probe_pmu(PERF_COUNT_SW_CPU_CLOCK, &cpu_clock_pmu,
			&cpu_clock_type) ?:
	      probe_pmu(PERF_COUNT_SW_TASK_CLOCK, &task_clock_pmu,
			&task_clock_type) ?:
	      probe_pmu(PERF_COUNT_SW_DUMMY, &sw, NULL);
	if (err)
		return err;
	swevent_read = sw->read;
	return 0;
}

/**
 * perfkmod_config_is_timer() - whether a config is cpu-clock or task-clock
 * @cfg: a config, as the caller gave it.
 *
 * perf makes those two of an hrtimer, and turns their frequency into a
 * period. Also under their own PMU's type (a spec's pmu=N), where perf
 * has one.
 *
 * Context: any context.
 * Return: true for cpu-clock and task-clock.
 */
bool perfkmod_config_is_timer(const struct perfkmod_config *cfg)
{
	switch (cfg->config) {
	case PERF_COUNT_SW_CPU_CLOCK:
		return cfg->type == PERF_TYPE_SOFTWARE ||
		       cfg->type == cpu_clock_type;
	case PERF_COUNT_SW_TASK_CLOCK:
		return cfg->type == PERF_TYPE_SOFTWARE ||
		       cfg->type == task_clock_type;
	}
	return false;
}

/*
 * How perfkmod_counter_read_local() may read @event (enum
 * perfkmod_read_kind), by its PMU alone: its attr.type and config are
 * what perf or a pmu=N spec made them, and tell no PMU apart from
 * another. read_local.c's may_read_pmu() says why each kind is read as it is.
 */
static u8 read_kind(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (pmu->task_ctx_nr == perf_invalid_context)
		return PERFKMOD_READ_SYSTEM;
	/* hw_breakpoint_pmu_read() is empty on x86 and arm64 */
	if (pmu->read == swevent_read || pmu->type == PERF_TYPE_BREAKPOINT)
		return PERFKMOD_READ_NONE;
	if (pmu == cpu_clock_pmu || pmu == task_clock_pmu)
		return PERFKMOD_READ_CLOCK;
	if (pmu->task_ctx_nr == perf_hw_context)
		return PERFKMOD_READ_HW;
	return PERFKMOD_READ_SW;
}

/*
 * The perf attributes of an event of @cfg. Static, so that it is inlined
 * into its callers, where @attr is on the stack: the compiler then sets the
 * bit-fields of a zeroed struct at once, rather than each in turn.
 */
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
	attr->enable_on_exec = cfg->enable_on_exec;
	attr->pinned = cfg->pinned;
	attr->exclusive = cfg->exclusive;
	attr->exclude_user = cfg->exclude_user;
	attr->exclude_kernel = cfg->exclude_kernel;
	attr->exclude_hv = cfg->exclude_hv;
	attr->exclude_idle = cfg->exclude_idle;
}

/**
 * perfkmod_create_event() - make one perf event of a counter
 * @c: the counter.
 * @cpu: the CPU, or -1 for a task's event.
 * @task: the task, or NULL for a CPU's event.
 * @disabled: make it disabled.
 *
 * Makes the event with the checks of perf_event_open() that the kernel
 * path skips. A sampling event is made disabled and checked before it is
 * enabled: a frequency event starts at period 1 and would overflow at
 * once, before a check could refuse it (an inherited task counter is the
 * exception, see below). A counting event, which no check refuses, is
 * made in its final state. An event made for enable_on_exec is made
 * disabled (@disabled) and stays so: the task's exec enables it, perhaps
 * before the checks end.
 *
 * Context: process context, may sleep; @c->sync_lock held for a per-CPU
 *	counter, not @c->lock (perf takes cpu_hotplug_lock).
 * Return: the event, or an ERR_PTR() of perf's errno or of a check's.
 */
struct perf_event *perfkmod_create_event(struct perfkmod_counter *c, int cpu,
					 struct task_struct *task, bool disabled)
{
	bool sampling = perfkmod_config_samples(&c->config);
	struct perf_event_attr attr;
	struct perf_event *event;
	int err;

	config_to_attr(&c->config, &attr);
	/*
	 * Except with inherit: children inherit the state the event has when
	 * they fork, and perf_event_enable() does not reach them (with
	 * enable_on_exec, @disabled: the children forked after the exec
	 * inherit the event the exec enabled).
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
		 * An inherited event was live, an enable_on_exec one may have
		 * been enabled by an exec meanwhile: an overflow may still be
		 * in the trampoline (see perfkmod_counter_release()). Any other
		 * was never enabled.
		 */
		if (sampling && (!attr.disabled || attr.enable_on_exec))
			synchronize_rcu();
		return ERR_PTR(err);
	}
	/* once, for the counter; before the caller publishes @event */
	if (READ_ONCE(c->read_kind) == PERFKMOD_READ_NONE)
		WRITE_ONCE(c->read_kind, read_kind(event));
	if (!disabled && attr.disabled)
		perf_event_enable(event);
	return event;
}

/**
 * perfkmod_probe_freq() - whether perf takes a frequency for a counter
 * @c: a sampling per-CPU counter made with a frequency.
 * @freq: the frequency.
 *
 * Asked of a disabled event made for the purpose on an online CPU: for a
 * per-CPU counter none of whose CPUs has an event (its CPU is offline), so
 * that a value is refused now rather than when the CPU comes back. Never
 * enabled, it cannot overflow.
 *
 * Context: process context, may sleep; perfkmod_counter_set_period() calls
 *	it with @c->sync_lock held, not @c->lock (perf makes an event).
 * Return: 0, or perf's errno for the event or the frequency.
 */
int perfkmod_probe_freq(struct perfkmod_counter *c, u64 freq)
{
	struct perf_event_attr attr;
	struct perf_event *event;
	int err = -ENODEV, cpu;

	config_to_attr(&c->config, &attr);
	attr.disabled = 1;
	/*
	 * A CPU going offline refuses events (-ENODEV) before it leaves the
	 * online mask: then the next one. No hotplug lock is held: perf may
	 * take it itself to make the event (a static key).
	 */
	for_each_online_cpu(cpu) {
		event = perf_event_create_kernel_counter(&attr, cpu, NULL,
							 perfkmod_overflow, c);
		if (IS_ERR(event)) {
			err = PTR_ERR(event);
			if (err == -ENODEV)
				continue;
			break;
		}
		err = perf_event_period(event, freq);
		perf_event_release_kernel(event);
		break;
	}
	return err;
}

/**
 * perfkmod_event_set_period() - give one of a counter's events a period
 * @c: the counter.
 * @event: one of its events.
 * @value: the period, or the frequency for a counter made with one.
 *
 * perf turns the frequency of cpu-clock and task-clock into a fixed period
 * when it makes the event (their hrtimer has no frequency mode, and
 * attr.freq is cleared): those get one second divided by the frequency.
 *
 * Context: process context, may sleep; @c->lock held.
 * Return: perf_event_period()'s answer.
 */
int perfkmod_event_set_period(struct perfkmod_counter *c,
			      struct perf_event *event, u64 value)
{
	lockdep_assert_held(&c->lock);
	if (c->config.sample_freq && !event->attr.freq)
		value = div64_u64(NSEC_PER_SEC, value);
	return perf_event_period(event, value);
}

/**
 * perfkmod_events_read_as_system() - read a counter as a system PMU's
 * @c: a per-CPU counter one of whose events counts for more CPUs than the
 *	one it was made for.
 *
 * Raises @c->read_kind to %PERFKMOD_READ_SYSTEM (&enum perfkmod_read_kind)
 * before the event is published, so that a reader of the event reads it
 * set.
 *
 * Context: process context; @c->sync_lock held.
 */
void perfkmod_events_read_as_system(struct perfkmod_counter *c)
{
	lockdep_assert_held(&c->sync_lock);
	WRITE_ONCE(c->read_kind, PERFKMOD_READ_SYSTEM);
}
