// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod: in-kernel performance counters for kernel code and root users.
 *
 * The counter lifecycle: create, enable, disable, reset, read, period,
 * state and release, of task counters and, through cpu_events.c, of per-CPU
 * ones. The exported functions are documented in perfkmod.h.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "counter_event.h"
#include "cpu_events.h"
#include "internal.h"

/*
 * Counters, in a cache of their own: of their size, not kmalloc()'s next
 * power of two, and destroying it at unload says whether any was left.
 */
static struct kmem_cache *perfkmod_counter_cache;

/**
 * perfkmod_counter_cache_init() - make the cache of counters
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_counter_cache_init(void)
{
	perfkmod_counter_cache = KMEM_CACHE(perfkmod_counter, 0);
	return perfkmod_counter_cache ? 0 : -ENOMEM;
}

/**
 * perfkmod_counter_cache_exit() - destroy the cache of counters
 *
 * Every counter must be released first.
 *
 * Context: process context, may sleep; called once from module exit.
 */
void perfkmod_counter_cache_exit(void)
{
	kmem_cache_destroy(perfkmod_counter_cache);
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
	c->event = perfkmod_create_event(c, -1, task, !c->enabled);
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
	    !cfg->task == !cfg->pid :
	    cfg->task || cfg->pid || cfg->inherit || cfg->enable_on_exec)
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
	 * enable_on_exec makes it off until the exec; disabled would say that
	 * perfkmod_counter_enable() starts it: one or the other.
	 */
	if (cfg->enable_on_exec && cfg->disabled)
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
static void release_work(struct work_struct *work);

/*
 * Release @c's perf events, and wait until no trampoline runs for them.
 * Kernels without upstream's fix of __perf_event_overflow() against
 * perf_remove_from_context() ran software and tracepoint overflows with
 * interrupts on: the trampoline may still be running on an event just
 * released, reading @c. Every context perf calls it in is an RCU
 * read-side section (NMI included), so a grace period waits for it. A
 * counting counter's events have no handler: no wait for them.
 */
static void release_events(struct perfkmod_counter *c)
{
	if (perfkmod_per_cpu(c))
		perfkmod_release_cpus(c);
	else
		perf_event_release_kernel(c->event);
	if (perfkmod_config_samples(&c->config))
		synchronize_rcu();
}

struct perfkmod_counter *
__perfkmod_counter_create(const struct perfkmod_config *config,
			  struct module *owner)
{
	struct perfkmod_counter *c;
	int err;

	if (perfkmod_refuse_atomic())
		return ERR_PTR(-EDEADLK);
	err = check_config(config);
	if (err)
		return ERR_PTR(err);
	c = kmem_cache_zalloc(perfkmod_counter_cache, GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->config = *config;
	/* an enable_on_exec counter's exec enables it, perf's doing */
	c->enabled = !config->disabled && !config->enable_on_exec;
	c->owner = owner;
	mutex_init(&c->lock);
	mutex_init(&c->sync_lock);
	INIT_LIST_HEAD(&c->node);
	INIT_WORK(&c->release_work, release_work);
	err = perfkmod_cpu_events_init(c);
	if (err)
		goto err_free;
	err = perfkmod_overflow_counter_init(c, stop_work);
	if (err)
		goto err_cpu_events;

	if (perfkmod_per_cpu(c)) {
		/* from here on, a CPU that comes or goes queues a sync */
		perfkmod_list_counter(c);
		err = perfkmod_create_cpus(c);
		if (err)
			goto err_unlist;
	} else {
		err = create_task(c);
		if (err)
			goto err_overflow;
	}
	/* the module notifier may release it from here on */
	smp_store_release(&c->created, true);
	if (!perfkmod_per_cpu(c))
		perfkmod_list_counter(c);
	pr_debug("created counter type %u config %#llx target %d\n",
		 config->type, config->config, config->target);
	return c;

err_unlist:
	perfkmod_unlist_counter(c);
	/* an event enabled meanwhile may be in the trampoline: as release */
	release_events(c);
err_overflow:
	perfkmod_overflow_counter_exit(c);
err_cpu_events:
	perfkmod_cpu_events_exit(c);
err_free:
	mutex_destroy(&c->sync_lock);
	mutex_destroy(&c->lock);
	kmem_cache_free(perfkmod_counter_cache, c);
	pr_debug("create type %u config %#llx: %pe\n", config->type,
		 config->config, ERR_PTR(err));
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(__perfkmod_counter_create);

/*
 * The parts of perfkmod above the core that read counters (struct
 * perfkmod_user): added by module init, before any counter is made, and
 * removed by module exit, after the last is released.
 */
static LIST_HEAD(perfkmod_users);

/**
 * perfkmod_user_register() - tell a user of counters when one goes
 * @u: the user, whose @forget each counter's release calls from now on.
 *
 * Context: process context; module init only, before any counter exists.
 */
void perfkmod_user_register(struct perfkmod_user *u)
{
	list_add_tail(&u->node, &perfkmod_users);
}

/**
 * perfkmod_user_unregister() - undo perfkmod_user_register()
 * @u: the user.
 *
 * Context: process context; module exit only, once no counter exists.
 */
void perfkmod_user_unregister(struct perfkmod_user *u)
{
	list_del(&u->node);
}

/**
 * perfkmod_counter_use() - note that a reader of a user reads a counter
 * @c: a counter, not released.
 *
 * The release of @c calls each user's @forget until as many
 * perfkmod_counter_unuse() calls undo these.
 *
 * Context: any context; under the user's own lock, which its @forget takes.
 */
void perfkmod_counter_use(struct perfkmod_counter *c)
{
	atomic_inc(&c->users);
}

/**
 * perfkmod_counter_unuse() - undo perfkmod_counter_use()
 * @c: a counter.
 *
 * Context: any context; under the user's own lock, which its @forget takes.
 */
void perfkmod_counter_unuse(struct perfkmod_counter *c)
{
	atomic_dec(&c->users);
}

/**
 * perfkmod_counter_task() - the task a task counter counts in
 * @c: a counter.
 *
 * Context: any context.
 * Return: the task of a task counter that does not count in the task's
 *	children (inherit); NULL for another counter.
 */
struct task_struct *perfkmod_counter_task(const struct perfkmod_counter *c)
{
	if (c->config.target != PERFKMOD_TARGET_TASK || c->config.inherit)
		return NULL;
	return c->event->hw.target;
}

/* Release @c, which this caller took off its list. */
static void release_now(struct perfkmod_counter *c)
{
	struct perfkmod_user *u;

	pr_debug("release counter type %u config %#llx\n", c->config.type,
		 c->config.config);
	/* what reads it (another module's series) reads it no more */
	if (atomic_read(&c->users)) {
		list_for_each_entry(u, &perfkmod_users, node)
			u->forget(c);
	}
	if (perfkmod_config_samples(&c->config)) {
		perfkmod_callbacks_quiesce(c);
		/* a stop queued from an overflow must not touch the events */
		mutex_lock(&c->lock);
		c->releasing = true;
		mutex_unlock(&c->lock);
	}
	release_events(c);
	/* the stop work, synced here, may read the per-CPU shares */
	perfkmod_overflow_counter_exit(c);
	perfkmod_cpu_events_exit(c);
	mutex_destroy(&c->sync_lock);
	mutex_destroy(&c->lock);
	kmem_cache_free(perfkmod_counter_cache, c);
}

static void release_work(struct work_struct *work)
{
	release_now(container_of(work, struct perfkmod_counter, release_work));
}

void perfkmod_counter_release(struct perfkmod_counter *c)
{
	bool in_delivery;

	if (IS_ERR_OR_NULL(c) || perfkmod_refuse_atomic())
		return;
	in_delivery = perfkmod_in_process_delivery();
	if (!perfkmod_unlist_counter(c)) {
		/*
		 * Released already: a caller's bug, but for the calls of a
		 * process callback of @c on several CPUs, which the release
		 * the first handed on waits for. (The calls of another
		 * counter's callback it does not wait for: @c may be gone.)
		 */
		WARN_ONCE(!perfkmod_in_delivery_of(c),
			  "perfkmod: a counter released twice\n");
		return;
	}
	if (in_delivery) {
		/*
		 * The release waits for the counter's deliveries and those
		 * of its callbacks, which may be this one, or one waiting for
		 * it (see perfkmod_callback_unregister()): in
		 * perfkmod_reap_wq. No later overflow is delivered.
		 */
		perfkmod_overflow_stop(c);
		queue_work(perfkmod_reap_wq, &c->release_work);
		return;
	}
	release_now(c);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_release);

/* Enable (@on) or disable @c's perf events, with @c->lock held. */
static void enable_events(struct perfkmod_counter *c, bool on)
{
	lockdep_assert_held(&c->lock);
	if (perfkmod_per_cpu(c))
		perfkmod_cpu_events_enable(c, on);
	else if (on)
		perf_event_enable(c->event);
	else
		perf_event_disable(c->event);
}

/*
 * Start counting, delivering @limit overflows (-1: all); CPUs whose event
 * could not be made are tried again. perfkmod_counter_enable() and
 * perfkmod_counter_refresh() are this, with no limit and with one.
 */
static void enable_with_limit(struct perfkmod_counter *c, int limit)
{
	mutex_lock(&c->sync_lock);
	mutex_lock(&c->lock);
	perfkmod_overflow_arm(c, limit);
	WRITE_ONCE(c->enabled, true);
	mutex_unlock(&c->lock);
	/*
	 * First, so that the stale event of a CPU that came back is retired,
	 * not enabled (a CPU that comes and goes meanwhile has its event
	 * retired by the work its callback queues).
	 */
	if (perfkmod_per_cpu(c))
		perfkmod_sync_cpus(c);
	mutex_lock(&c->lock);
	/*
	 * A disable, or the stop of an overflow limit reached, while the
	 * lock was dropped has the last word.
	 */
	if (c->enabled)
		enable_events(c, true);
	mutex_unlock(&c->lock);
	mutex_unlock(&c->sync_lock);
}

void perfkmod_counter_enable(struct perfkmod_counter *c)
{
	if (perfkmod_refuse_atomic())
		return;
	enable_with_limit(c, -1);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_enable);

int perfkmod_counter_refresh(struct perfkmod_counter *c, unsigned int n)
{
	if (perfkmod_refuse_atomic())
		return -EDEADLK;
	if (!perfkmod_config_samples(&c->config) || !n)
		return -EINVAL;
	enable_with_limit(c, min_t(unsigned int, n, INT_MAX));
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_refresh);

/**
 * stop_work() - disable a counter that its overflows stopped
 * @work: the counter's overflow @stop_work, which the overflow state
 *	queues (perfkmod_overflow_counter_init() was given this function).
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
						  overflow.stop_work);

	mutex_lock(&c->lock);
	if (!c->releasing && perfkmod_overflow_stopped(c)) {
		WRITE_ONCE(c->enabled, false);
		enable_events(c, false);
	}
	mutex_unlock(&c->lock);
}

void perfkmod_counter_disable(struct perfkmod_counter *c)
{
	if (perfkmod_refuse_atomic())
		return;
	mutex_lock(&c->lock);
	WRITE_ONCE(c->enabled, false);
	enable_events(c, false);
	mutex_unlock(&c->lock);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_disable);

void perfkmod_counter_reset(struct perfkmod_counter *c)
{
	struct perfkmod_value val = {};

	if (perfkmod_refuse_atomic())
		return;
	mutex_lock(&c->lock);
	if (perfkmod_per_cpu(c)) {
		perfkmod_cpu_events_reset(c);
	} else {
		perfkmod_add_event_value(c->event, &val);
		/* pairs with READ_ONCE() in perfkmod_counter_read() */
		WRITE_ONCE(c->base, val.value);
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

	if (perfkmod_refuse_atomic_read()) {
		memset(val, 0, sizeof(*val));
		return;
	}
	if (c->config.target == PERFKMOD_TARGET_CPU) {
		/* its one CPU; the lock keeps hotplug from swapping the event */
		mutex_lock(&c->lock);
		perfkmod_cpu_events_read(c, c->config.cpu, val);
		mutex_unlock(&c->lock);
	} else if (!perfkmod_per_cpu(c)) {
		memset(val, 0, sizeof(*val));
		perfkmod_add_event_value(c->event, val);
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
			perfkmod_cpu_events_read(c, cpu, &cpu_val);
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
	if (perfkmod_refuse_atomic_read())
		return -EDEADLK;
	if (c->config.target != PERFKMOD_TARGET_ALL_CPUS || cpu < 0 ||
	    cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	mutex_lock(&c->lock);
	perfkmod_cpu_events_read(c, cpu, val);
	mutex_unlock(&c->lock);
	val->scaled = perfkmod_scale(val->value, val->enabled, val->running);
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_counter_read_cpu);

int perfkmod_counter_set_period(struct perfkmod_counter *c, u64 value)
{
	bool live = false;
	u64 freq;
	int err;

	if (perfkmod_refuse_atomic())
		return -EDEADLK;
	/* refused here whether or not an event is live to ask perf */
	if (!perfkmod_config_samples(&c->config) || !value)
		return -EINVAL;
	/* only whether it is 0 matters, which no set_period() changes */
	freq = READ_ONCE(c->config.sample_freq);
	if (freq && perfkmod_config_is_timer(&c->config) &&
	    value > PERFKMOD_TIMER_FREQ_MAX)
		return -EINVAL;
	if (!freq && (value & BIT_ULL(63)))
		return -EINVAL;

	/* no CPU's event made or retired meanwhile */
	mutex_lock(&c->sync_lock);
	mutex_lock(&c->lock);
	if (perfkmod_per_cpu(c))
		err = perfkmod_cpu_events_set_period(c, value, &live);
	else
		err = perfkmod_event_set_period(c, c->event, value);
	mutex_unlock(&c->lock);
	/*
	 * No event: the frequency limit, asked of perf all the same, without
	 * @lock (perf makes an event).
	 */
	if (perfkmod_per_cpu(c) && !live && c->config.sample_freq &&
	    !perfkmod_config_is_timer(&c->config))
		err = perfkmod_probe_freq(c, value);
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

	if (!perfkmod_per_cpu(c))
		return event_state(c->event);
	if (perfkmod_refuse_atomic_read())
		return PERFKMOD_STATE_ERROR;

	mutex_lock(&c->lock);
	if (perfkmod_cpu_events_failed(c))
		state = PERFKMOD_STATE_ERROR;
	else
		state = c->enabled ? PERFKMOD_STATE_ACTIVE : PERFKMOD_STATE_OFF;
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
	{ -EDEADLK, "it may sleep: not in a direct or IRQ callback, atomic nor an RCU reader" },
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
 * perfkmod_counters_release_owner() - release the counters a module left
 * @mod: a module going away, whose series and callbacks are gone.
 *
 * Context: process context, may sleep.
 * Return: how many counters @mod had left.
 */
int perfkmod_counters_release_owner(struct module *mod)
{
	struct perfkmod_counter *found;
	int n = 0;

	while ((found = perfkmod_take_owned_counter(mod))) {
		release_now(found);
		n++;
	}
	return n;
}
