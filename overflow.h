/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The overflow subsystem: the trampoline and its deferred deliveries
 * (overflow.c), and the registry of callbacks (callbacks.c). The state a
 * counter embeds, the callback the two files share, and what the counter
 * core calls.
 */
#ifndef _PERFKMOD_OVERFLOW_H
#define _PERFKMOD_OVERFLOW_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>

#include "perfkmod.h"

struct module;
struct perfkmod_counter;
struct perfkmod_ring;

/**
 * struct perfkmod_overflow - a counter's overflow state
 * @direct: the registered direct callbacks, an RCU list the trampoline
 *	walks first; changed by callbacks.c under perfkmod_callback_mutex.
 * @deferred: the registered deferred callbacks, likewise, walked next.
 * @detaching: callbacks of this counter that perfkmod_callback_unregister()
 *	or a module going away took off its lists and is still waiting for
 *	(their deferred deliveries use the counter): the counter's release
 *	waits for them too. Raised by callbacks.c under
 *	perfkmod_callback_mutex, dropped after the wait.
 * @stats: the overflow statistics per CPU, incremented by the trampoline
 *	and the deferred deliveries with this_cpu_inc() (NMI-safe on x86, one
 *	instruction, and arm64, an atomic, as perf's own per-CPU counters in
 *	its overflow path are), summed when read; NULL for a counting
 *	counter. overflow.c's, set at create.
 * @limit: overflows left to deliver before the counter stops; -1 for no
 *	limit, 0 for stopped. overflow.c's: the trampoline decrements it,
 *	perfkmod_overflow_arm() (enable and refresh, under the counter's
 *	lock), perfkmod_overflow_stop() and perfkmod_overflow_limit() set it.
 * @stop_irq_work: queued by the trampoline, at the last overflow of a
 *	limit, and by perfkmod_overflow_stop(), to stop the counter from any
 *	context, NMI included: it queues @stop_work. Neither is queued for a
 *	counting counter (@stats NULL).
 * @stop_work: the counter core's stop, which disables the counter once its
 *	overflows stopped it (perfkmod_overflow_stopped()), in process
 *	context; given to perfkmod_overflow_counter_init().
 *
 * Set up by perfkmod_overflow_counter_init(); written by overflow.c and, for
 * the lists of callbacks and @detaching, callbacks.c only.
 */
struct perfkmod_overflow {
	struct list_head direct;
	struct list_head deferred;
	atomic_t detaching;
	atomic_t limit;
	struct perfkmod_stats __percpu *stats;
	struct irq_work stop_irq_work;
	struct work_struct stop_work;
};

/* One CPU's share of a callback. */
struct perfkmod_cb_cpu {
	struct perfkmod_stats stats;
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
 * @reap_detached: the end handed to @reap_work detached @cb (end_handle()).
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

/* Samples each deferred callback can hold per CPU (ring_size; the tests') */
extern unsigned int perfkmod_ring_size;

/* overflow.c: the trampoline, deferred delivery, a counter's state */
void perfkmod_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs);
int perfkmod_overflow_counter_init(struct perfkmod_counter *c,
				   work_func_t stop);
void perfkmod_overflow_counter_exit(struct perfkmod_counter *c);
void perfkmod_overflow_arm(struct perfkmod_counter *c, int limit);
bool perfkmod_overflow_stopped(struct perfkmod_counter *c);
int perfkmod_defer_init(struct perfkmod_cb_cpu *pcc);
void perfkmod_defer_flush(struct perfkmod_callback *cb);
struct perfkmod_callback *perfkmod_process_delivery(void);
bool perfkmod_in_process_delivery(void);
bool perfkmod_in_delivery_of(const struct perfkmod_counter *c);

/* callbacks.c: the registry */
extern struct workqueue_struct *perfkmod_reap_wq;
int perfkmod_callbacks_init(void);
void perfkmod_callbacks_exit(void);
void perfkmod_callbacks_quiesce(struct perfkmod_counter *c);
int perfkmod_callbacks_release_owner(struct module *mod);

#endif /* _PERFKMOD_OVERFLOW_H */
