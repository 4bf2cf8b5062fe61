// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow trampoline: the one handler perf calls when a sampling
 * counter overflows, the registry of callbacks it dispatches to, and the
 * rings that defer samples out of NMI.
 *
 * The trampoline may run in NMI context (hardware PMUs), hard IRQ context
 * (hrtimer software events), an exception (breakpoints) or the context of
 * the instrumented code (other software events, tracepoints). So it takes
 * no lock, allocates nothing and never sleeps. It walks the counter's
 * callbacks under rcu_read_lock_sched() (allowed in NMI); unregistering
 * waits for an RCU grace period, which also waits for NMI handlers
 * (Documentation/RCU/NMI-RCU.rst), so a callback never runs after
 * perfkmod_callback_unregister() returns.
 *
 * A deferred callback has a ring per CPU. Producers are the trampoline on
 * that CPU, which may nest (a tracepoint in task context interrupted by an
 * IRQ, interrupted by an NMI), so a slot is reserved with a cmpxchg and
 * published with a per-slot sequence number; a full ring drops the sample.
 * The consumer is the callback's irq_work on that CPU, or the work it
 * queues for process-context callbacks (work items never run concurrently
 * with themselves): one consumer at a time. Samples go in batches: each
 * push queues the lazy irq_work, which runs from the CPU's next tick (at
 * once if the tick is stopped), and a push that leaves the ring half full
 * queues the kick, which raises an interrupt; both run the same consumer,
 * in hard IRQ on that CPU (in its irq_work thread on PREEMPT_RT), so never
 * at the same time.
 *
 * A batch delivers at most what the ring held when it began: a callback
 * that causes overflows of its own counter (or is slower than they come)
 * would otherwise never end its batch. What came meanwhile is counted as
 * requeued and waits: in hard IRQ for the rest timer, a tick later, and
 * until it has fired neither irq_work delivers (the kick's interrupt would
 * come the moment the batch returned, and so would the lazy one's on a CPU
 * whose tick is stopped, idle or nohz_full: the interrupted task would not
 * run in between); in process context for the work item queued again,
 * behind the others, with cond_resched() between the calls. So a callback
 * that feeds itself takes at most a ring's worth of calls a tick in hard
 * IRQ, fills its ring and has its samples dropped and counted. The hot
 * path is as it was.
 */
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "internal.h"

/*
 * What perf stores in hw.interrupts when it throttles an event
 * (MAX_INTERRUPTS, private to kernel/events/core.c; ~0ULL in 6.1 and 6.12).
 */
#define PERF_THROTTLED_INTERRUPTS	(~0ULL)

/* A ring slot: free for the producer at position p when seq == p. */
struct perfkmod_slot {
	atomic_t seq;
	struct perfkmod_sample sample;
};

struct perfkmod_ring {
	atomic_t head;		/* next position producers reserve */
	unsigned int tail;	/* next position the consumer reads */
	unsigned int mask;	/* slots - 1; the size is a power of two */
	struct perfkmod_slot slots[];
};

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

/*
 * The task that runs a delivery on this CPU where in_task() and
 * preempt_count() do not tell that it may not sleep: an IRQ delivery's
 * batch (in the CPU's irq_work thread on PREEMPT_RT), and without
 * PREEMPT_COUNT the direct callbacks of a software event or tracepoint,
 * in the task that hit it. Each delivery restores what it found: they
 * nest.
 */
#ifdef PERFKMOD_MARK_DELIVERY
DEFINE_PER_CPU(struct task_struct *, perfkmod_delivering);

static __always_inline struct task_struct *delivering_begin(void)
{
	struct task_struct *prev = this_cpu_read(perfkmod_delivering);

	this_cpu_write(perfkmod_delivering, current);
	barrier();
	return prev;
}

static __always_inline void delivering_end(struct task_struct *prev)
{
	barrier();
	this_cpu_write(perfkmod_delivering, prev);
}
#else
/* preempt_count() tells: an IRQ delivery is a hard interrupt */
static __always_inline struct task_struct *delivering_begin(void)
{
	return NULL;
}

static __always_inline void delivering_end(struct task_struct *prev)
{
}
#endif

/* Samples a deferred callback's ring holds per CPU; a power of two. */
unsigned int perfkmod_ring_size = 64;
EXPORT_SYMBOL_IF_KUNIT(perfkmod_ring_size);

static int ring_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	if (n < 2 || n > 65536 || !is_power_of_2(n))
		return -EINVAL;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static const struct kernel_param_ops ring_size_ops = {
	.set = ring_size_set,
	.get = param_get_uint,
};

module_param_cb(ring_size, &ring_size_ops, &perfkmod_ring_size, 0600);
MODULE_PARM_DESC(ring_size, "samples per CPU a deferred callback can hold (power of two, 2-65536, default 64); applies to callbacks registered later");

static struct perfkmod_ring *ring_alloc(unsigned int size, int cpu)
{
	struct perfkmod_ring *r;
	unsigned int i;

	r = kvzalloc_node(struct_size(r, slots, size), GFP_KERNEL,
			  cpu_to_node(cpu));
	if (!r)
		return NULL;
	r->mask = size - 1;
	for (i = 0; i < size; i++)
		atomic_set(&r->slots[i].seq, i);
	return r;
}

/*
 * Producer: any context on the ring's CPU, NMI included; may nest.
 * Return: the samples in the ring once @s is, about (the consumer may be
 * taking some, a nested producer adding some), at least 1; 0 when it was
 * full.
 */
static unsigned int ring_push(struct perfkmod_ring *r,
			      const struct perfkmod_sample *s)
{
	int pos = atomic_read(&r->head);
	struct perfkmod_slot *slot;
	unsigned int held;
	int diff;

	for (;;) {
		slot = &r->slots[pos & r->mask];
		/* pairs with the release in ring_pop() */
		diff = atomic_read_acquire(&slot->seq) - pos;
		if (diff < 0)
			return 0;	/* full */
		if (diff > 0)		/* another producer took it: catch up */
			pos = atomic_read(&r->head);
		else if (atomic_try_cmpxchg_relaxed(&r->head, &pos, pos + 1))
			break;		/* on failure, pos is the new head */
	}
	slot->sample = *s;
	/* pairs with the acquire in ring_pop() */
	atomic_set_release(&slot->seq, pos + 1);
	held = pos + 1 - READ_ONCE(r->tail);
	/* a consumer that ran meanwhile may have taken it already */
	return (int)held > 0 ? held : 1;
}

/* Consumer: one at a time. False when empty or the next slot is unwritten. */
static bool ring_pop(struct perfkmod_ring *r, struct perfkmod_sample *s)
{
	unsigned int pos = r->tail;
	struct perfkmod_slot *slot = &r->slots[pos & r->mask];

	if ((int)(atomic_read_acquire(&slot->seq) - (pos + 1)) < 0)
		return false;
	*s = slot->sample;
	atomic_set_release(&slot->seq, pos + r->mask + 1);
	WRITE_ONCE(r->tail, pos + 1);
	return true;
}

/*
 * Deliver a batch of @pcc's ring: at most the samples it held as the batch
 * began; those pushed meanwhile (by the callback itself, say) are left for
 * the next batch and counted. In process context (@resched), give the CPU
 * up between the calls when it is wanted. Context: hard IRQ, or process.
 * Return: whether samples were left.
 */
static bool deliver(struct perfkmod_cb_cpu *pcc, bool resched)
{
	struct perfkmod_callback *cb = pcc->cb;
	struct perfkmod_ring *r = pcc->ring;
	unsigned int n = atomic_read(&r->head) - r->tail;
	struct perfkmod_sample s;
	unsigned int left;

	while (n-- && !READ_ONCE(cb->dead) && ring_pop(r, &s)) {
		cb->fn(&s, NULL, cb->context);
		this_cpu_inc(cb->cpus->stats.runs);
		this_cpu_inc(cb->counter->stats->runs);
		if (resched)
			cond_resched();
	}
	left = atomic_read(&r->head) - r->tail;
	/* an ended handle's samples wait for nothing: no batch, no timer */
	if (!left || READ_ONCE(cb->dead))
		return false;
	this_cpu_add(cb->cpus->stats.requeued, left);
	this_cpu_add(cb->counter->stats->requeued, left);
	return true;
}

/*
 * The consumer of an irq_work: a batch in hard IRQ, unless the last one
 * left samples for the rest timer; what this one leaves waits for it.
 */
static void consume(struct perfkmod_cb_cpu *pcc)
{
	struct task_struct *prev;
	bool left;

	if (pcc->cb->delivery == PERFKMOD_DELIVER_PROCESS) {
		schedule_work(&pcc->work);
		return;
	}
	if (READ_ONCE(pcc->resting))
		return;
	prev = delivering_begin();
	left = deliver(pcc, false);
	delivering_end(prev);
	if (left) {
		WRITE_ONCE(pcc->resting, true);
		hrtimer_start(&pcc->rest, ns_to_ktime(TICK_NSEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
}

static void deliver_lazy(struct irq_work *work)
{
	consume(container_of(work, struct perfkmod_cb_cpu, lazy));
}

static void deliver_kick(struct irq_work *work)
{
	consume(container_of(work, struct perfkmod_cb_cpu, kick));
}

/*
 * A tick after a batch that left samples: the next batch, by the kick. A
 * pinned timer still moves to another CPU when its own goes offline: the
 * callback must not run there, so the samples wait for the next overflow
 * of their CPU once it is back (or for the unregister, which drops them).
 */
static enum hrtimer_restart rest_done(struct hrtimer *timer)
{
	struct perfkmod_cb_cpu *pcc = container_of(timer, struct perfkmod_cb_cpu,
						   rest);

	WRITE_ONCE(pcc->resting, false);
	if (likely(pcc->cpu == smp_processor_id()))
		irq_work_queue(&pcc->kick);
	return HRTIMER_NORESTART;
}

static void deliver_work(struct work_struct *work)
{
	struct perfkmod_cb_cpu *pcc = container_of(work, struct perfkmod_cb_cpu,
						   work);

	/* the rest after the work items queued meanwhile */
	if (deliver(pcc, true))
		schedule_work(&pcc->work);
}

/*
 * The callback whose process delivery the caller is, or NULL: each work
 * item delivers one callback's samples of one CPU.
 */
static struct perfkmod_callback *process_delivery(void)
{
	struct work_struct *work = current_work();

	if (!work || work->func != deliver_work)
		return NULL;
	return container_of(work, struct perfkmod_cb_cpu, work)->cb;
}

bool perfkmod_in_process_delivery(void)
{
	return process_delivery();
}

bool perfkmod_in_delivery_of(const struct perfkmod_counter *c)
{
	struct perfkmod_callback *cb = process_delivery();

	return cb && cb->counter == c;
}

/* Queue one overflow for a deferred callback. Context: the trampoline's. */
static void defer(struct perfkmod_callback *cb,
		  struct perfkmod_pcpu_stats __percpu *cs,
		  const struct perfkmod_sample *s)
{
	struct perfkmod_cb_cpu *pcc = this_cpu_ptr(cb->cpus);
	unsigned int held = ring_push(pcc->ring, s);

	if (held) {
		this_cpu_inc(cb->cpus->stats.deferred);
		this_cpu_inc(cs->deferred);
		if (held > pcc->ring->mask / 2)
			irq_work_queue(&pcc->kick);
		else
			irq_work_queue(&pcc->lazy);
	} else {
		this_cpu_inc(cb->cpus->stats.dropped);
		this_cpu_inc(cs->dropped);
	}
}

/**
 * perfkmod_overflow() - perf's overflow handler of every sampling counter
 * @event: the perf event that overflowed; its context is the counter.
 * @data: perf's sample data; only its period is read.
 * @regs: the interrupted registers.
 *
 * Counts the overflow (and perf's throttling), applies the counter's
 * delivery limit, builds a small sample on the stack and hands it to each
 * direct callback, then to each deferred one, stamped with the time.
 *
 * Statistics cost one per-CPU increment per callback: a direct callback's
 * offers are its runs, a deferred one's are its queued and dropped samples
 * (perfkmod_callback_stats() adds them up).
 *
 * Perf calls it with preemption disabled, so an RCU-sched reader costs
 * next to nothing; synchronize_rcu() waits for those too.
 *
 * Context: NMI-safe: any context perf calls it in. No locks, no allocation.
 */
void perfkmod_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct perfkmod_counter *c = event->overflow_handler_context;
	struct perfkmod_pcpu_stats __percpu *stats = c->stats;
	struct perfkmod_sample s = {
		.counter = c,
		.ip = regs ? instruction_pointer(regs) : 0,
		.period = data->period,
		.count = local64_read(&event->count),
		.cpu = smp_processor_id(),
		.pid = task_tgid_nr(current),
		.tid = task_pid_nr(current),
	};
	struct perfkmod_callback *cb;
	unsigned long runs = 0;
	bool last = false;
	struct task_struct *prev;
	u64 time;
	int left;

	this_cpu_inc(stats->overflows);
	if (READ_ONCE(event->hw.interrupts) == PERF_THROTTLED_INTERRUPTS)
		this_cpu_inc(stats->throttled);

	if (atomic_read(&c->limit) >= 0) {
		left = atomic_dec_if_positive(&c->limit);
		if (left < 0)
			return;		/* stopped */
		last = !left;
	}

	rcu_read_lock_sched_notrace();
	/* the time of the overflow, before the direct callbacks run */
	time = list_empty(&c->deferred) ? 0 : local_clock();
	prev = delivering_begin();
	list_for_each_entry_rcu(cb, &c->direct, node) {
		cb->fn(&s, regs, cb->context);
		this_cpu_inc(cb->cpus->stats.runs);
		runs++;
	}
	delivering_end(prev);
	if (runs)
		this_cpu_add(stats->runs, runs);
	list_for_each_entry_rcu(cb, &c->deferred, node) {
		/* or now, for one registered since the time was taken */
		if (!s.time)
			s.time = time ?: local_clock();
		defer(cb, stats, &s);
	}
	rcu_read_unlock_sched_notrace();

	if (last)
		irq_work_queue(&c->stop_irq_work);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_overflow);

static void stop_irq_work(struct irq_work *work)
{
	schedule_work(&container_of(work, struct perfkmod_counter,
				    stop_irq_work)->stop_work);
}

void perfkmod_overflow_stop(struct perfkmod_counter *c)
{
	if (!c->stats)
		return;		/* counting: no overflow to stop */
	atomic_set(&c->limit, 0);
	irq_work_queue(&c->stop_irq_work);
}
EXPORT_SYMBOL_GPL(perfkmod_overflow_stop);

void perfkmod_overflow_limit(struct perfkmod_counter *c, unsigned int n)
{
	if (!c->stats)
		return;
	if (!n) {
		perfkmod_overflow_stop(c);
		return;
	}
	atomic_set(&c->limit, min_t(unsigned int, n, INT_MAX));
}
EXPORT_SYMBOL_GPL(perfkmod_overflow_limit);

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
		if (delivery == PERFKMOD_DELIVER_DIRECT)
			continue;
		perfkmod_init_irq_work_lazy(&pcc->lazy, deliver_lazy);
		init_irq_work(&pcc->kick, deliver_kick);
		INIT_WORK(&pcc->work, deliver_work);
		hrtimer_init(&pcc->rest, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		pcc->rest.function = rest_done;
		pcc->ring = ring_alloc(READ_ONCE(perfkmod_ring_size), cpu);
		if (!pcc->ring)
			goto err_free;
	}

	mutex_lock(&perfkmod_callback_mutex);
	list_add_tail(&cb->all, &perfkmod_callbacks);
	/* publishes the initialised callback to the trampoline */
	list_add_tail_rcu(&cb->node, delivery == PERFKMOD_DELIVER_DIRECT ?
			  &c->direct : &c->deferred);
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
		atomic_inc(&cb->counter->detaching);
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

static void run_irq_work(void *unused)
{
	irq_work_run();
}

/*
 * Wait for the deferred deliveries of a detached callback whose grace
 * period has passed: no trampoline sees it, so nothing pushes to its rings
 * and a batch that begins now leaves nothing. A batch that began before may
 * still run (in an irq_work thread on PREEMPT_RT, which need not be an RCU
 * reader) and start the rest timer: the irq_works are waited for first,
 * then the timer is cancelled, then the kick it may have queued is waited
 * for. The kick and the lazy irq_work may queue the work, which is
 * cancelled last, also when it queues itself again.
 * Context: process context, may sleep; takes cpus_read_lock().
 */
static void flush_callback(struct perfkmod_callback *cb)
{
	int cpu;

	if (cb->delivery == PERFKMOD_DELIVER_DIRECT)
		return;
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(cb->cpus, cpu)->kick);
	/*
	 * A lazy irq_work waits for its CPU's next tick, which an idle CPU
	 * may not have for long: run that CPU's irq_works now, there. (An
	 * offline CPU ran them on its way down.)
	 */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (irq_work_is_pending(&per_cpu_ptr(cb->cpus, cpu)->lazy))
			smp_call_function_single(cpu, run_irq_work, NULL, 1);
	}
	cpus_read_unlock();
	for_each_possible_cpu(cpu) {
		struct perfkmod_cb_cpu *pcc = per_cpu_ptr(cb->cpus, cpu);

		irq_work_sync(&pcc->lazy);
		hrtimer_cancel(&pcc->rest);
		irq_work_sync(&pcc->kick);
		cancel_work_sync(&pcc->work);
	}
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
	flush_callback(cb);
	if (detached) {
		/* @c may be freed from here on: wake_up_var() only hashes */
		if (atomic_dec_and_test(&c->detaching))
			wake_up_var(&c->detaching);
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
	in = process_delivery();
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

static void sum_stats(struct perfkmod_pcpu_stats __percpu *pcpu,
		      struct perfkmod_stats *st)
{
	int cpu;

	memset(st, 0, sizeof(*st));
	if (!pcpu)
		return;		/* a counting counter: nothing overflows */
	for_each_possible_cpu(cpu) {
		struct perfkmod_pcpu_stats *p = per_cpu_ptr(pcpu, cpu);

		st->overflows += READ_ONCE(p->overflows);
		st->throttled += READ_ONCE(p->throttled);
		st->runs += READ_ONCE(p->runs);
		st->deferred += READ_ONCE(p->deferred);
		st->dropped += READ_ONCE(p->dropped);
		st->requeued += READ_ONCE(p->requeued);
	}
}

void perfkmod_callback_stats(struct perfkmod_callback *cb,
			     struct perfkmod_stats *stats)
{
	sum_stats(&cb->cpus->stats, stats);
	/* what the trampoline offered it: see perfkmod_overflow() */
	if (cb->delivery == PERFKMOD_DELIVER_DIRECT)
		stats->overflows = stats->runs;
	else
		stats->overflows = stats->deferred + stats->dropped;
}
EXPORT_SYMBOL_GPL(perfkmod_callback_stats);

void perfkmod_counter_stats(struct perfkmod_counter *c,
			    struct perfkmod_stats *stats)
{
	sum_stats(c->stats, stats);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_stats);

/**
 * perfkmod_overflow_init() - set up what the callbacks share
 *
 * Context: process context, may sleep; called once from module init.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_overflow_init(void)
{
	perfkmod_reap_wq = alloc_workqueue("perfkmod_reap", WQ_UNBOUND, 0);
	return perfkmod_reap_wq ? 0 : -ENOMEM;
}

/**
 * perfkmod_overflow_exit() - take down what the callbacks share
 *
 * Context: process context, may sleep; called once from module exit, when
 * no callback or counter is left to end.
 */
void perfkmod_overflow_exit(void)
{
	destroy_workqueue(perfkmod_reap_wq);
}

/**
 * perfkmod_overflow_counter_init() - set up a new counter's overflow state
 * @c: the counter, before any of its events exists; its @stop_work, which
 *	@stop_irq_work queues, is the counter code's and set up already.
 *
 * Context: process context, may sleep.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_overflow_counter_init(struct perfkmod_counter *c)
{
	INIT_LIST_HEAD(&c->direct);
	INIT_LIST_HEAD(&c->deferred);
	atomic_set(&c->limit, -1);
	atomic_set(&c->detaching, 0);
	init_irq_work(&c->stop_irq_work, stop_irq_work);
	/* set_period() never makes a counting counter sample */
	if (!perfkmod_config_samples(&c->config))
		return 0;
	c->stats = alloc_percpu(struct perfkmod_pcpu_stats);
	return c->stats ? 0 : -ENOMEM;
}

/**
 * perfkmod_overflow_counter_quiesce() - detach a counter's callbacks
 * @c: a sampling counter, being released.
 *
 * Detaches every callback of @c and waits until none runs. Their handles
 * stay valid, detached, whichever module holds them, until it unregisters
 * them or goes away: a handle is its owner's to end, and a late
 * unregister is as safe as an early one.
 *
 * Context: process context, may sleep.
 */
void perfkmod_overflow_counter_quiesce(struct perfkmod_counter *c)
{
	struct list_head *lists[] = { &c->direct, &c->deferred };
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
			flush_callback(cb);
			put_callback(cb);
		}
	}
	/* callbacks that others detached, and are still waiting for */
	wait_var_event(&c->detaching, !atomic_read(&c->detaching));
}

/**
 * perfkmod_overflow_counter_exit() - free a counter's overflow state
 * @c: the counter, whose events are all released.
 *
 * Context: process context, may sleep.
 */
void perfkmod_overflow_counter_exit(struct perfkmod_counter *c)
{
	/* counting: nothing queued them (perfkmod_overflow_stop()) */
	if (!c->stats)
		return;
	/* no event is left to queue them again */
	irq_work_sync(&c->stop_irq_work);
	cancel_work_sync(&c->stop_work);
	free_percpu(c->stats);
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
