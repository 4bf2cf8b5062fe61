// SPDX-License-Identifier: GPL-2.0
/*
 * The lists of counters: each counter is listed from its create until one
 * caller takes it off, who releases it (a counter is released once); the
 * CPU hotplug callbacks walk the per-CPU counters and tell each of its
 * CPU's change (cpu_events.c); a module going away finds the counters it
 * left.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "cpu_events.h"
#include "cpuhotplug.h"
#include "internal.h"

/* The dynamic CPU hotplug state that tells per-CPU counters of CPUs. */
static enum cpuhp_state perfkmod_hp_state;

/*
 * The per-CPU counters, which the CPU hotplug callbacks walk, and the task
 * ones; perfkmod_counters_mutex: see "Locks" in internal.h. (Lists of one
 * mutex rather than a multi-instance hotplug state: adding and removing an
 * instance takes the CPU hotplug lock and the state's mutex, on every
 * create and release.)
 */
static DEFINE_MUTEX(perfkmod_counters_mutex);
static LIST_HEAD(perfkmod_per_cpu_counters);
static LIST_HEAD(perfkmod_task_counters);

/**
 * perfkmod_list_counter() - list a counter being made
 * @c: a counter. A per-CPU one is listed before its events are made, for
 *	the CPU hotplug callbacks; a task one once it is made.
 *
 * Listed, @c is found by perfkmod_take_owned_counter() when its owner
 * goes (once @c->created says create returned it).
 *
 * Context: process context, may sleep; takes perfkmod_counters_mutex.
 */
void perfkmod_list_counter(struct perfkmod_counter *c)
{
	struct list_head *list = perfkmod_per_cpu(c) ?
				 &perfkmod_per_cpu_counters :
				 &perfkmod_task_counters;

	mutex_lock(&perfkmod_counters_mutex);
	list_add_tail(&c->node, list);
	mutex_unlock(&perfkmod_counters_mutex);
}

/**
 * perfkmod_unlist_counter() - take a counter off its list
 * @c: a counter.
 *
 * Once it returns, no CPU hotplug callback sees @c, and the module
 * notifier does not find it: the one caller that took @c off its list
 * releases it.
 *
 * Context: process context, may sleep; takes perfkmod_counters_mutex.
 * Return: whether this call took it off (it was listed).
 */
bool perfkmod_unlist_counter(struct perfkmod_counter *c)
{
	bool listed;

	mutex_lock(&perfkmod_counters_mutex);
	listed = !list_empty(&c->node);
	list_del_init(&c->node);
	mutex_unlock(&perfkmod_counters_mutex);
	return listed;
}

/*
 * A CPU came online or is going offline (@down): in the CPU's hotplug
 * thread, cpu_hotplug_lock held for writing. Each per-CPU counter notes it
 * and leaves the work to a workqueue (perfkmod_cpu_changed()). Never fails:
 * a CPU must come online even when its event cannot be made.
 */
static void cpu_changed_all(unsigned int cpu, bool down)
{
	struct perfkmod_counter *c;

	mutex_lock(&perfkmod_counters_mutex);
	list_for_each_entry(c, &perfkmod_per_cpu_counters, node)
		perfkmod_cpu_changed(c, cpu, down);
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

/**
 * perfkmod_counters_hotplug_init() - set up the per-CPU counters' hotplug state
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or a negative errno.
 */
int perfkmod_counters_hotplug_init(void)
{
	/* no counter yet: nothing to call */
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					    PERFKMOD_CPUHP_COUNTERS,
					    perfkmod_cpu_online,
					    perfkmod_cpu_offline);
	if (ret < 0)
		return ret;
	perfkmod_hp_state = ret;
	return 0;
}

/**
 * perfkmod_counters_hotplug_exit() - remove the CPU hotplug state
 *
 * Every per-CPU counter must be released first.
 *
 * Context: process context, may sleep; called once from module exit.
 */
void perfkmod_counters_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(perfkmod_hp_state);
}

/* A counter of @list that @mod made; perfkmod_counters_mutex held. */
static struct perfkmod_counter *owned_by(struct list_head *list,
					 struct module *mod)
{
	struct perfkmod_counter *c;

	lockdep_assert_held(&perfkmod_counters_mutex);
	list_for_each_entry(c, list, node) {
		/* not one still being made: see @created */
		if (c->owner == mod && smp_load_acquire(&c->created))
			return c;
	}
	return NULL;
}

/**
 * perfkmod_take_owned_counter() - take off its list a counter a module left
 * @mod: a module going away.
 *
 * As perfkmod_unlist_counter(): the caller releases what it returns.
 *
 * Context: process context, may sleep; takes perfkmod_counters_mutex.
 * Return: a counter @mod made (one create returned), or NULL.
 */
struct perfkmod_counter *perfkmod_take_owned_counter(struct module *mod)
{
	struct perfkmod_counter *found;

	mutex_lock(&perfkmod_counters_mutex);
	found = owned_by(&perfkmod_per_cpu_counters, mod) ?:
		owned_by(&perfkmod_task_counters, mod);
	if (found)
		list_del_init(&found->node);
	mutex_unlock(&perfkmod_counters_mutex);
	return found;
}
