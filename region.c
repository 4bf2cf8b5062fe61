// SPDX-License-Identifier: GPL-2.0
/*
 * The regions' lifetime: create and release, on and off (their markers'
 * static keys, their functions' probes), reset and read of their figures,
 * their list and its notifier, and what a counter's release or a module's
 * unload does to them. Their calls are region_call.c's. Documented in
 * perfkmod_region.h.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "compat.h"
#include "internal.h"
#include "region.h"

/* See "Locks" in internal.h. */
static DEFINE_MUTEX(perfkmod_region_mutex);
/* every region, from create until its release begins; under the mutex */
static LIST_HEAD(perfkmod_regions);
/* the viewers of the regions; called under the mutex */
static RAW_NOTIFIER_HEAD(perfkmod_region_chain);
/*
 * Where each region's @gen comes from: a region's calls begin only while
 * its @gen is odd (on), and end only while it is the one they began with;
 * no two regions, nor two times of one, share a @gen.
 */
static atomic_t perfkmod_region_gens = ATOMIC_INIT(0);

/*
 * A new @gen for @r, on or off, in one store: a begin never sees the
 * region on with the @gen of its turning off, nor the reverse.
 */
static void new_gen(struct perfkmod_region *r, bool on)
{
	u32 gen = (u32)atomic_add_return(2, &perfkmod_region_gens) | on;

	/* pairs with READ_ONCE() in the begin and end */
	WRITE_ONCE(r->gen, gen);
}

/*
 * Turn @r's calls on or off: its marker's static key or its function's
 * probe. Off, a new @gen drops the calls under way. Called with @r->lock
 * held; @going: the marker's module is going away, its code never runs
 * again and its jump entries are gone: the key stays as it is.
 */
static int region_switch(struct perfkmod_region *r, bool on, bool going)
{
	int err;

	lockdep_assert_held(&r->lock);
	if (on && r->orphan)
		return -ENODEV;	/* off for good */
	if (on && r->config.func && perfkmod_region_func_gone(r))
		return -ENOENT;	/* on or off, it would count nothing again */
	if (on == (r->gen & 1))
		return 0;
	if (on) {
		new_gen(r, true);
		if (r->config.marker) {
			static_branch_enable(&r->config.marker->on);
			return 0;
		}
		err = perfkmod_region_func_switch(r, true);
		if (err)
			new_gen(r, false);
		return err;
	}
	new_gen(r, false);
	if (!r->config.marker)
		perfkmod_region_func_switch(r, false);
	else if (!going)
		static_branch_disable(&r->config.marker->on);
	return 0;
}

/* A name of 1 to PERFKMOD_REGION_NAME_MAX letters, digits, _ - or . */
static bool good_name(const char *name, bool counter)
{
	size_t len = name ? strnlen(name, PERFKMOD_REGION_NAME_MAX + 1) : 0;
	size_t i;

	if (!len || len > PERFKMOD_REGION_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		if (counter ? !isgraph(name[i]) :
		    !(isalnum(name[i]) || strchr("_-.", name[i])))
			return false;
	}
	return true;
}

/*
 * The config's bounds and its counters: all all-CPUs counters, or all
 * counters of one task without inherit (perfkmod_counter_task()); @task
 * is set for those.
 */
static int check_config(const struct perfkmod_region_config *cfg, bool *task)
{
	struct task_struct *t = NULL;
	const struct perfkmod_counter *c;
	unsigned int i;

	if (!good_name(cfg->name, false) || !cfg->counters ||
	    !cfg->nr_counters || cfg->nr_counters > PERFKMOD_REGION_MAX_COUNTERS)
		return -EINVAL;
	if (!cfg->marker == !cfg->func)
		return -EINVAL;
	if (cfg->func && (!*cfg->func || strlen(cfg->func) >= KSYM_NAME_LEN ||
			  cfg->max_active > PERFKMOD_REGION_MAX_ACTIVE))
		return -EINVAL;
	for (i = 0; i < cfg->nr_counters; i++) {
		c = cfg->counters[i];
		/* a PMU not the CPUs' own: its events are not every CPU's */
		if (IS_ERR_OR_NULL(c) || perfkmod_system_pmu(c))
			return -EINVAL;
		if (cfg->counter_names && !good_name(cfg->counter_names[i], true))
			return -EINVAL;
		if (!i)
			t = perfkmod_counter_task(c);
		if (t ? perfkmod_counter_task(c) != t :
		    c->config.target != PERFKMOD_TARGET_ALL_CPUS)
			return -EINVAL;
	}
	*task = t;
	return 0;
}

static struct perfkmod_region *find_region(const char *name)
{
	struct perfkmod_region *r;

	list_for_each_entry(r, &perfkmod_regions, node) {
		if (!strcmp(r->name, name))
			return r;
	}
	return NULL;
}

static void reset_cpu(struct perfkmod_region_cpu *s)
{
	unsigned int i;

	local64_set(&s->calls, 0);
	local64_set(&s->lost, 0);
	local64_set(&s->migrated, 0);
	local64_set(&s->min, U64_MAX);
	local64_set(&s->max, 0);
	for (i = 0; i < PERFKMOD_REGION_MAX_COUNTERS; i++)
		local64_set(&s->sum[i], 0);
	for (i = 0; i < PERFKMOD_REGION_HIST_BUCKETS; i++)
		local64_set(&s->hist[i], 0);
}

static void free_region(struct perfkmod_region *r)
{
	unsigned int i;

	mutex_destroy(&r->lock);
	for (i = 0; i < PERFKMOD_REGION_MAX_COUNTERS; i++)
		kfree(r->names[i]);
	free_percpu(r->cpus);
	kfree(r);
}

struct perfkmod_region *
__perfkmod_region_create(const struct perfkmod_region_config *config,
			 struct module *owner)
{
	struct perfkmod_region *r;
	unsigned int i;
	bool task;
	int cpu, err;

	if (perfkmod_refuse_atomic())
		return ERR_PTR(-EDEADLK);
	err = check_config(config, &task);
	if (err)
		return ERR_PTR(err);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->config = *config;
	memcpy(r->counters, config->counters,
	       config->nr_counters * sizeof(*r->counters));
	r->config.counters = r->counters;
	strscpy(r->name, config->name, sizeof(r->name));
	r->config.name = r->name;
	r->task = task;
	r->owner = owner;
	mutex_init(&r->lock);
	r->cpus = alloc_percpu(struct perfkmod_region_cpu);
	if (!r->cpus)
		goto err_free;
	for_each_possible_cpu(cpu)
		reset_cpu(per_cpu_ptr(r->cpus, cpu));
	if (config->counter_names) {
		for (i = 0; i < config->nr_counters; i++) {
			r->names[i] = kstrdup(config->counter_names[i],
					      GFP_KERNEL);
			if (!r->names[i])
				goto err_free;
		}
		r->config.counter_names = (const char *const *)r->names;
	}
	if (config->func) {
		err = perfkmod_region_func_register(r);
		if (err)
			goto err_free_err;
		r->config.func = r->func.symbol;
	}

	mutex_lock(&perfkmod_region_mutex);
	err = -EEXIST;
	if (find_region(r->name))
		goto err_unlock;
	err = -EBUSY;
	if (config->marker &&
	    rcu_access_pointer(config->marker->region))
		goto err_unlock;
	if (config->marker)
		rcu_assign_pointer(config->marker->region, r);
	for (i = 0; i < config->nr_counters; i++)
		perfkmod_counter_use(r->counters[i]);
	list_add_tail(&r->node, &perfkmod_regions);
	mutex_lock(&r->lock);
	err = region_switch(r, !config->disabled, false);
	mutex_unlock(&r->lock);
	if (err) {
		list_del(&r->node);
		goto err_unuse;
	}
	raw_notifier_call_chain(&perfkmod_region_chain,
				PERFKMOD_REGION_CREATED, r);
	mutex_unlock(&perfkmod_region_mutex);
	return r;

err_unuse:
	for (i = 0; i < config->nr_counters; i++)
		perfkmod_counter_unuse(r->counters[i]);
	if (config->marker)
		RCU_INIT_POINTER(config->marker->region, NULL);
err_unlock:
	mutex_unlock(&perfkmod_region_mutex);
	if (config->func)
		perfkmod_region_func_unregister(r);
err_free_err:
	free_region(r);
	return ERR_PTR(err);
err_free:
	free_region(r);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_GPL(__perfkmod_region_create);

/*
 * Turn @r off for good; then no begin or end reads @r's counters once an
 * RCU grace period has passed (the begins and ends run with preemption
 * off, or in a probe's handler). The marker stays @r's until its release
 * (another region there is refused), unless its module is going away
 * (@going): its code never runs again, and its memory goes, so
 * @config.marker becomes NULL. Called with
 * perfkmod_region_mutex held.
 */
static void region_stop(struct perfkmod_region *r, bool going)
{
	lockdep_assert_held(&perfkmod_region_mutex);
	mutex_lock(&r->lock);
	region_switch(r, false, going);
	r->orphan = true;
	mutex_unlock(&r->lock);
	if (going && r->config.marker) {
		RCU_INIT_POINTER(r->config.marker->region, NULL);
		/* a viewer may read it meanwhile (perfkmod_region_get_config()) */
		WRITE_ONCE(r->config.marker, NULL);
	}
}

/*
 * Release @r, which this caller took off the list (with the mutex held):
 * its viewers let it go, it stops, nothing reads it any more (the probe's
 * unregister waits for its handlers), its counters are no longer used,
 * and it is the caller's to free.
 */
static void release_unlisted(struct perfkmod_region *r, bool going)
{
	unsigned int i;

	lockdep_assert_held(&perfkmod_region_mutex);
	/* before @r->lock: a viewer waits for its files' enable writers */
	raw_notifier_call_chain(&perfkmod_region_chain,
				PERFKMOD_REGION_RELEASING, r);
	region_stop(r, going);
	if (r->config.marker)
		RCU_INIT_POINTER(r->config.marker->region, NULL);
	/* the probe's unregister waits for a grace period itself */
	if (r->config.func)
		perfkmod_region_func_unregister(r);
	else
		synchronize_rcu();
	for (i = 0; i < r->config.nr_counters; i++) {
		if (r->counters[i])
			perfkmod_counter_unuse(r->counters[i]);
	}
}

void perfkmod_region_release(struct perfkmod_region *region)
{
	if (IS_ERR_OR_NULL(region) || perfkmod_refuse_atomic())
		return;
	mutex_lock(&perfkmod_region_mutex);
	list_del(&region->node);
	release_unlisted(region, false);
	mutex_unlock(&perfkmod_region_mutex);
	free_region(region);
}
EXPORT_SYMBOL_GPL(perfkmod_region_release);

int perfkmod_region_enable(struct perfkmod_region *region)
{
	int err;

	if (perfkmod_refuse_atomic())
		return -EDEADLK;
	mutex_lock(&region->lock);
	err = region_switch(region, true, false);
	mutex_unlock(&region->lock);
	return err;
}
EXPORT_SYMBOL_GPL(perfkmod_region_enable);

void perfkmod_region_disable(struct perfkmod_region *region)
{
	if (perfkmod_refuse_atomic())
		return;
	mutex_lock(&region->lock);
	region_switch(region, false, false);
	mutex_unlock(&region->lock);
}
EXPORT_SYMBOL_GPL(perfkmod_region_disable);

bool perfkmod_region_enabled(struct perfkmod_region *region)
{
	return READ_ONCE(region->gen) & 1;
}
EXPORT_SYMBOL_GPL(perfkmod_region_enabled);

/*
 * Reset this CPU's figures of the region @info, in a task bound to the
 * CPU, interrupts off: a call's end, which runs with preemption off (or
 * in an interrupt), is never under way on the CPU then but in an NMI,
 * which @resetting turns away. An IPI would land in the middle of an
 * end's fold and split its call.
 */
static int reset_here(void *info)
{
	struct perfkmod_region *r = info;
	struct perfkmod_region_cpu *s;
	unsigned long flags;

	local_irq_save(flags);
	s = this_cpu_ptr(r->cpus);
	WRITE_ONCE(s->resetting, true);
	barrier();
	reset_cpu(s);
	barrier();
	WRITE_ONCE(s->resetting, false);
	local_irq_restore(flags);
	return 0;
}

void perfkmod_region_reset(struct perfkmod_region *region)
{
	int cpu;

	if (perfkmod_refuse_atomic())
		return;
	/* no CPU comes or goes: an offline CPU's figures are reset here */
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_on_cpu(cpu, reset_here, region, false);
		else
			reset_cpu(per_cpu_ptr(region->cpus, cpu));
	}
	cpus_read_unlock();
	if (region->config.func)
		perfkmod_region_func_reset(region);
}
EXPORT_SYMBOL_GPL(perfkmod_region_reset);

/* Add CPU @cpu's figures of @r to @st. */
static void add_cpu_figures(struct perfkmod_region *r, int cpu,
			    struct perfkmod_region_stats *st)
{
	struct perfkmod_region_cpu *s = per_cpu_ptr(r->cpus, cpu);
	u64 calls = local64_read(&s->calls);
	unsigned int i;

	st->calls += calls;
	st->lost += local64_read(&s->lost);
	st->migrated += local64_read(&s->migrated);
	if (calls) {
		st->min = min_t(u64, st->min, local64_read(&s->min));
		st->max = max_t(u64, st->max, local64_read(&s->max));
	}
	for (i = 0; i < r->config.nr_counters; i++)
		st->sum[i] += local64_read(&s->sum[i]);
	for (i = 0; i < PERFKMOD_REGION_HIST_BUCKETS; i++)
		st->hist[i] += local64_read(&s->hist[i]);
}

int perfkmod_region_read(struct perfkmod_region *region, int cpu,
			 struct perfkmod_region_stats *stats)
{
	int c;

	if (cpu >= 0 && (cpu >= nr_cpu_ids || !cpu_possible(cpu)))
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	stats->min = U64_MAX;
	if (cpu >= 0) {
		add_cpu_figures(region, cpu, stats);
	} else {
		for_each_possible_cpu(c)
			add_cpu_figures(region, c, stats);
		if (region->config.func)
			stats->missed = perfkmod_region_func_missed(region);
	}
	if (!stats->calls)
		stats->min = 0;
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_region_read);

const struct perfkmod_region_config *
perfkmod_region_get_config(const struct perfkmod_region *region)
{
	return &region->config;
}
EXPORT_SYMBOL_GPL(perfkmod_region_get_config);

int perfkmod_region_notifier_register(struct notifier_block *nb)
{
	struct perfkmod_region *r;
	int err;

	if (perfkmod_refuse_atomic())
		return -EDEADLK;
	mutex_lock(&perfkmod_region_mutex);
	err = raw_notifier_chain_register(&perfkmod_region_chain, nb);
	if (!err) {
		list_for_each_entry(r, &perfkmod_regions, node)
			nb->notifier_call(nb, PERFKMOD_REGION_CREATED, r);
	}
	mutex_unlock(&perfkmod_region_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(perfkmod_region_notifier_register);

void perfkmod_region_notifier_unregister(struct notifier_block *nb)
{
	if (perfkmod_refuse_atomic())
		return;
	mutex_lock(&perfkmod_region_mutex);
	raw_notifier_chain_unregister(&perfkmod_region_chain, nb);
	mutex_unlock(&perfkmod_region_mutex);
}
EXPORT_SYMBOL_GPL(perfkmod_region_notifier_unregister);

/* Whether @r reads @c. */
static bool reads_counter(const struct perfkmod_region *r,
			  const struct perfkmod_counter *c)
{
	unsigned int i;

	for (i = 0; i < r->config.nr_counters; i++) {
		if (r->counters[i] == c)
			return true;
	}
	return false;
}

/*
 * region_forget() - stop every region reading a counter
 * @c: a counter being released (perfkmod_counter_use() by a region).
 *
 * Each region reading @c goes off for good (perfkmod_region_enable()
 * refuses it): a new @gen drops its calls under way, and once a grace
 * period has passed no begin or end reads @c (region_stop()). Its figures
 * stay.
 *
 * Context: process context, may sleep.
 */
static void region_forget(struct perfkmod_counter *c)
{
	struct perfkmod_region *r;
	bool stopped = false;
	unsigned int i;

	mutex_lock(&perfkmod_region_mutex);
	list_for_each_entry(r, &perfkmod_regions, node) {
		if (reads_counter(r, c)) {
			region_stop(r, false);
			stopped = true;
		}
	}
	if (!stopped) {
		mutex_unlock(&perfkmod_region_mutex);
		return;
	}
	synchronize_rcu();
	list_for_each_entry(r, &perfkmod_regions, node) {
		for (i = 0; i < r->config.nr_counters; i++) {
			if (r->counters[i] != c)
				continue;
			r->counters[i] = NULL;
			perfkmod_counter_unuse(c);
		}
	}
	mutex_unlock(&perfkmod_region_mutex);
}

/* The regions, a user of counters: their release calls region_forget(). */
struct perfkmod_user perfkmod_region_user = {
	.forget = region_forget,
};

/**
 * perfkmod_regions_release_owner() - release the regions a module left
 * @mod: a module going away.
 *
 * Its regions are released. Another module's region at a marker of @mod
 * stops for good and stays its owner's to read and release.
 *
 * Context: process context, may sleep; from the module notifier.
 * Return: how many were released.
 */
int perfkmod_regions_release_owner(struct module *mod)
{
	struct perfkmod_region *r, *tmp;
	LIST_HEAD(gone);
	int n = 0;

	mutex_lock(&perfkmod_region_mutex);
	list_for_each_entry_safe(r, tmp, &perfkmod_regions, node) {
		bool going = r->config.marker &&
			within_module((unsigned long)r->config.marker, mod);

		if (r->owner != mod) {
			if (going)
				region_stop(r, true);
			continue;
		}
		list_move_tail(&r->node, &gone);
		release_unlisted(r, going);
		n++;
	}
	mutex_unlock(&perfkmod_region_mutex);
	list_for_each_entry_safe(r, tmp, &gone, node)
		free_region(r);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_regions_release_owner);
