// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of overflow callbacks: register and unregister, a counter's
 * release detaching its callbacks, and a module going away with handles it
 * did not end. A callback is on its counter's RCU lists, which the
 * trampoline (overflow.c) walks; ending it waits for an RCU grace period,
 * which also waits for NMI handlers (Documentation/RCU/NMI-RCU.rst), then
 * for its deferred deliveries, so that it never runs after
 * perfkmod_callback_unregister() returns. The exported functions are
 * documented in perfkmod.h.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "internal.h"
#include "overflow.h"

/*
 * perfkmod_callbacks: the handles still held by their owners, which
 * perfkmod_callbacks_release_owner() walks; perfkmod_callback_mutex: see
 * "Locks" in internal.h.
 */
static DEFINE_MUTEX(perfkmod_callback_mutex);
static LIST_HEAD(perfkmod_callbacks);

/*
 * Ends of handles and counters that a process delivery asked for and must
 * not wait for there (perfkmod_callback_unregister(),
 * perfkmod_counter_release()): each waits in a work item of its own, for
 * deliveries, never the other way round. Not ordered: a counter's release
 * waits for the unregisters queued behind it.
 */
struct workqueue_struct *perfkmod_reap_wq;
EXPORT_SYMBOL_IF_KUNIT(perfkmod_reap_wq);

static void free_callback(struct perfkmod_callback *cb)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kvfree(per_cpu_ptr(cb->cpus, cpu)->ring);
	free_percpu(cb->cpus);
	kfree(cb);
}

static void reap_callback(struct work_struct *work);

struct perfkmod_callback *
__perfkmod_callback_register(struct perfkmod_counter *c,
			     perfkmod_callback_fn fn, void *context,
			     enum perfkmod_delivery delivery,
			     struct module *owner)
{
	struct perfkmod_callback *cb;
	int cpu;

	if (perfkmod_refuse_atomic())
		return ERR_PTR(-EDEADLK);
	if (!fn || delivery > PERFKMOD_DELIVER_PROCESS ||
	    !perfkmod_config_samples(&c->config))
		return ERR_PTR(-EINVAL);

	cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	if (!cb)
		return ERR_PTR(-ENOMEM);
	cb->counter = c;
	/* one reference for the handle, one while attached */
	refcount_set(&cb->ref, 2);
	cb->fn = fn;
	cb->context = context;
	cb->delivery = delivery;
	cb->owner = owner;
	INIT_WORK(&cb->reap_work, reap_callback);
	cb->cpus = alloc_percpu(struct perfkmod_cb_cpu);
	if (!cb->cpus)
		goto err_free_cb;
	for_each_possible_cpu(cpu) {
		struct perfkmod_cb_cpu *pcc = per_cpu_ptr(cb->cpus, cpu);

		pcc->cb = cb;
		pcc->cpu = cpu;
		if (delivery != PERFKMOD_DELIVER_DIRECT &&
		    perfkmod_defer_init(pcc))
			goto err_free;
	}

	mutex_lock(&perfkmod_callback_mutex);
	list_add_tail(&cb->all, &perfkmod_callbacks);
	/* publishes the initialised callback to the trampoline */
	list_add_tail_rcu(&cb->node, delivery == PERFKMOD_DELIVER_DIRECT ?
			  &c->overflow.direct : &c->overflow.deferred);
	cb->attached = true;
	mutex_unlock(&perfkmod_callback_mutex);
	pr_debug("callback %ps of %s registered, delivery %d\n", fn,
		 owner ? owner->name : "kernel", delivery);
	return cb;

err_free:
	free_callback(cb);
	return ERR_PTR(-ENOMEM);
err_free_cb:
	kfree(cb);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_GPL(__perfkmod_callback_register);

/*
 * Take @cb off its counter's list. Unless the counter's release does it
 * (@by_release), the release must wait until this caller has waited for
 * @cb: @detaching says so. Return: whether this call did it.
 */
static bool detach_locked(struct perfkmod_callback *cb, bool by_release)
{
	lockdep_assert_held(&perfkmod_callback_mutex);
	if (!cb->attached)
		return false;
	list_del_rcu(&cb->node);
	cb->attached = false;
	if (!by_release)
		atomic_inc(&cb->counter->overflow.detaching);
	return true;
}

/* Take @cb's handle from its owner. Return: whether this call did it. */
static bool claim_handle_locked(struct perfkmod_callback *cb)
{
	lockdep_assert_held(&perfkmod_callback_mutex);
	if (list_empty(&cb->all))
		return false;
	list_del_init(&cb->all);
	WRITE_ONCE(cb->dead, true);
	return true;
}

static void put_callback(struct perfkmod_callback *cb)
{
	struct perfkmod_stats st;

	if (!refcount_dec_and_test(&cb->ref))
		return;
	perfkmod_callback_stats(cb, &st);
	pr_debug("callback %ps unregistered: %llu overflows, %llu runs, %llu dropped\n",
		 cb->fn, st.overflows, st.runs, st.dropped);
	free_callback(cb);
}

/*
 * End the handle of @cb, claimed under perfkmod_callback_mutex, after
 * detaching it there if it was still attached (@detached): wait until it
 * runs nowhere, then drop the references taken.
 */
static void end_handle(struct perfkmod_callback *cb, bool detached)
{
	struct perfkmod_counter *c = cb->counter;

	/*
	 * No trampoline, NMI included, still sees @cb after this, also when
	 * a counter release detached it and has not finished waiting.
	 */
	synchronize_rcu();
	perfkmod_defer_flush(cb);
	if (detached) {
		/* @c may be freed from here on: wake_up_var() only hashes */
		if (atomic_dec_and_test(&c->overflow.detaching))
			wake_up_var(&c->overflow.detaching);
		put_callback(cb);
	}
	put_callback(cb);
}

static void reap_callback(struct work_struct *work)
{
	struct perfkmod_callback *cb = container_of(work, struct perfkmod_callback,
						    reap_work);

	end_handle(cb, cb->reap_detached);
}

/*
 * A process delivery waits for no process delivery, its own included: two
 * callbacks that unregister each other (or each other's counters) would
 * wait for each other for ever, and a callback that unregisters itself
 * for itself. It hands the end of a process callback's handle to
 * perfkmod_reap_wq, which waits there for the calls under way, this one
 * among them, and frees the handle.
 */
void perfkmod_callback_unregister(struct perfkmod_callback *cb)
{
	struct perfkmod_callback *in;
	bool detached, claimed, handed = false;

	if (IS_ERR_OR_NULL(cb) || perfkmod_refuse_atomic())
		return;
	in = perfkmod_process_delivery();
	mutex_lock(&perfkmod_callback_mutex);
	detached = detach_locked(cb, false);
	claimed = claim_handle_locked(cb);
	if (claimed && in && cb->delivery == PERFKMOD_DELIVER_PROCESS) {
		/* queued before the mutex goes: a module going away flushes it */
		cb->reap_detached = detached;
		queue_work(perfkmod_reap_wq, &cb->reap_work);
		handed = true;
	}
	mutex_unlock(&perfkmod_callback_mutex);
	/*
	 * A handle ended twice, a caller's bug (the first end has most
	 * likely freed @cb already): do no more harm. Unless @cb's own calls
	 * on two CPUs end it at once: the end the first handed on waits for
	 * this call too.
	 */
	if (!claimed) {
		WARN_ON_ONCE(in != cb);
		return;
	}
	if (!handed)
		end_handle(cb, detached);
}
EXPORT_SYMBOL_GPL(perfkmod_callback_unregister);

/**
 * perfkmod_callbacks_init() - set up what the callbacks share
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_callbacks_init(void)
{
	perfkmod_reap_wq = alloc_workqueue("perfkmod_reap", WQ_UNBOUND, 0);
	return perfkmod_reap_wq ? 0 : -ENOMEM;
}

/**
 * perfkmod_callbacks_exit() - take down what the callbacks share
 *
 * Context: process context, may sleep; called once from module exit, when
 * no callback or counter is left to end.
 */
void perfkmod_callbacks_exit(void)
{
	destroy_workqueue(perfkmod_reap_wq);
}

/**
 * perfkmod_callbacks_quiesce() - detach a counter's callbacks
 * @c: a sampling counter, being released.
 *
 * Detaches every callback of @c and waits until none runs. Their handles
 * stay valid, detached, whichever module holds them, until it unregisters
 * them or goes away: a handle is its owner's to end, and a late
 * unregister is as safe as an early one.
 *
 * Context: process context, may sleep.
 */
void perfkmod_callbacks_quiesce(struct perfkmod_counter *c)
{
	struct list_head *lists[] = { &c->overflow.direct, &c->overflow.deferred };
	struct perfkmod_callback *cb, *tmp;
	LIST_HEAD(reap);
	unsigned int i;

	mutex_lock(&perfkmod_callback_mutex);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		list_for_each_entry_safe(cb, tmp, lists[i], node) {
			detach_locked(cb, true);
			/* a reference: the handle, if its owner unregisters now */
			list_add_tail(&cb->reap, &reap);
		}
	}
	mutex_unlock(&perfkmod_callback_mutex);
	if (!list_empty(&reap)) {
		/* one grace period for them all */
		synchronize_rcu();
		list_for_each_entry_safe(cb, tmp, &reap, reap) {
			perfkmod_defer_flush(cb);
			put_callback(cb);
		}
	}
	/* callbacks that others detached, and are still waiting for */
	wait_var_event(&c->overflow.detaching, !atomic_read(&c->overflow.detaching));
}

/**
 * perfkmod_callbacks_release_owner() - unregister a module's callbacks
 * @mod: a module going away.
 *
 * Context: process context, may sleep.
 * Return: how many callbacks @mod had left registered.
 */
int perfkmod_callbacks_release_owner(struct module *mod)
{
	struct perfkmod_callback *cb, *found;
	bool detached = false;
	int n = 0;

	do {
		found = NULL;
		mutex_lock(&perfkmod_callback_mutex);
		list_for_each_entry(cb, &perfkmod_callbacks, all) {
			if (cb->owner == mod) {
				found = cb;
				detached = detach_locked(cb, false);
				claim_handle_locked(cb);
				break;
			}
		}
		mutex_unlock(&perfkmod_callback_mutex);
		if (found) {
			end_handle(found, detached);
			n++;
		}
	} while (found);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_callbacks_release_owner);
