/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the overflow trampoline and its deferred deliveries (overflow.c)
 * share with the registry of callbacks (callbacks.c): the callback.
 */
#ifndef _PERFKMOD_OVERFLOW_H
#define _PERFKMOD_OVERFLOW_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>

#include "internal.h"

struct perfkmod_ring;

/* One CPU's share of a callback. */
struct perfkmod_cb_cpu {
	struct perfkmod_pcpu_stats stats;
	struct perfkmod_ring *ring;	/* deferred delivery only */
	struct irq_work lazy;		/* consumes the ring, or queues @work */
	struct irq_work kick;		/* the same, at once */
	struct work_struct work;	/* consumes the ring in process context */
	struct hrtimer rest;		/* queues @kick a tick after a batch */
	struct perfkmod_callback *cb;
	int cpu;			/* the CPU whose share this is */
	/*
	 * The last batch in hard IRQ left samples for @rest: the irq_works
	 * leave them to it. Written by the consumer and @rest (on this CPU,
	 * or on the one @rest moved to when this one went offline).
	 */
	bool resting;
};

/**
 * struct perfkmod_callback - a registered overflow callback
 * @node: entry in the counter's RCU list of callbacks while @attached.
 * @all: entry in perfkmod_callbacks while the handle is its owner's: taken
 *	off (list_del_init()) by whoever ends the handle.
 * @reap: entry in a private list of callbacks a counter release detached.
 * @attached: on the counter's list: the trampoline may call it.
 * @ref: one reference while @attached, one for the handle; the last put
 *	frees it. Both are given up only after waiting for the callback to
 *	run nowhere, so that a second party that detached nothing can still
 *	wait for it (detach and unregister may race: a counter release and a
 *	module going away).
 * @counter: the counter; not to be used once detached (it may be freed).
 * @fn: the function.
 * @context: its argument.
 * @delivery: where @fn runs.
 * @owner: the module that registered it.
 * @cpus: per-CPU statistics, rings and deferral work.
 * @dead: the handle is ended (claimed): no deferred delivery calls @fn
 *	any more, and the samples waiting are dropped. Set under
 *	perfkmod_callback_mutex (WRITE_ONCE()), read by the deliveries.
 * @reap_detached: the end handed to @reap detached @cb (end_handle()).
 * @reap_work: ends the handle in perfkmod_reap_wq, for an unregister from a
 *	process delivery (perfkmod_callback_unregister()).
 *
 * @node, @all, @reap and @attached are under perfkmod_callback_mutex.
 */
struct perfkmod_callback {
	struct list_head node;
	struct list_head all;
	struct list_head reap;
	bool attached;
	refcount_t ref;
	struct perfkmod_counter *counter;
	perfkmod_callback_fn fn;
	void *context;
	enum perfkmod_delivery delivery;
	struct module *owner;
	struct perfkmod_cb_cpu __percpu *cpus;
	bool dead;
	bool reap_detached;
	struct work_struct reap_work;
};

/* overflow.c: deferred delivery */
int perfkmod_defer_init(struct perfkmod_cb_cpu *pcc);
void perfkmod_defer_flush(struct perfkmod_callback *cb);
struct perfkmod_callback *perfkmod_process_delivery(void);

#endif /* _PERFKMOD_OVERFLOW_H */
