// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow trampoline: the one handler perf calls when a sampling
 * counter overflows, which dispatches to the callbacks that callbacks.c
 * registers; the rings that defer samples out of NMI, and their delivery;
 * and each counter's overflow state: its limit, its stop and its
 * statistics.
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
 * IRQ, fills its ring and has its samples dropped and counted.
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
#include "overflow.h"

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
		this_cpu_inc(cb->counter->overflow.stats->runs);
		if (resched)
			cond_resched();
	}
	left = atomic_read(&r->head) - r->tail;
	/* an ended handle's samples wait for nothing: no batch, no timer */
	if (!left || READ_ONCE(cb->dead))
		return false;
	this_cpu_add(cb->cpus->stats.requeued, left);
	this_cpu_add(cb->counter->overflow.stats->requeued, left);
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

/**
 * perfkmod_defer_init() - set up one CPU's deferred delivery of a callback
 * @pcc: the CPU's share of a deferred callback being registered, whose
 *	@cb and @cpu are set.
 *
 * Its ring of ring_size samples (the value at this call), the irq_works
 * and the work that consume it, and the rest timer.
 *
 * Context: process context, may sleep.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_defer_init(struct perfkmod_cb_cpu *pcc)
{
	perfkmod_init_irq_work_lazy(&pcc->lazy, deliver_lazy);
	init_irq_work(&pcc->kick, deliver_kick);
	INIT_WORK(&pcc->work, deliver_work);
	hrtimer_init(&pcc->rest, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	pcc->rest.function = rest_done;
	pcc->ring = ring_alloc(READ_ONCE(perfkmod_ring_size), pcc->cpu);
	return pcc->ring ? 0 : -ENOMEM;
}

static void run_irq_work(void *unused)
{
	irq_work_run();
}

/**
 * perfkmod_defer_flush() - wait for a detached callback's deferred deliveries
 * @cb: a callback no trampoline sees any more.
 *
 * Wait for the deferred deliveries of a detached callback whose grace
 * period has passed: no trampoline sees it, so nothing pushes to its rings
 * and a batch that begins now leaves nothing. A batch that began before may
 * still run (in an irq_work thread on PREEMPT_RT, which need not be an RCU
 * reader) and start the rest timer: the irq_works are waited for first,
 * then the timer is cancelled, then the kick it may have queued is waited
 * for. The kick and the lazy irq_work may queue the work, which is
 * cancelled last, also when it queues itself again. Nothing for a direct
 * callback.
 *
 * Context: process context, may sleep; takes cpus_read_lock().
 */
void perfkmod_defer_flush(struct perfkmod_callback *cb)
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

/**
 * perfkmod_process_delivery() - the callback whose process delivery this is
 *
 * Each work item delivers one callback's samples of one CPU.
 *
 * Context: any context.
 * Return: the callback whose process delivery the caller is, or NULL.
 */
struct perfkmod_callback *perfkmod_process_delivery(void)
{
	struct work_struct *work = current_work();

	if (!work || work->func != deliver_work)
		return NULL;
	return container_of(work, struct perfkmod_cb_cpu, work)->cb;
}

/**
 * perfkmod_in_process_delivery() - whether the caller is a process delivery
 *
 * Context: any context.
 * Return: true in the process delivery of any callback.
 */
bool perfkmod_in_process_delivery(void)
{
	return perfkmod_process_delivery();
}

/**
 * perfkmod_in_delivery_of() - whether the caller delivers a counter's overflows
 * @c: a counter, perhaps released.
 *
 * Context: any context.
 * Return: true in the process delivery of a callback of @c.
 */
bool perfkmod_in_delivery_of(const struct perfkmod_counter *c)
{
	struct perfkmod_callback *cb = perfkmod_process_delivery();

	return cb && cb->counter == c;
}

/* Queue one overflow for a deferred callback. Context: the trampoline's. */
static void defer(struct perfkmod_callback *cb,
		  struct perfkmod_stats __percpu *cs,
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
	struct perfkmod_stats __percpu *stats = c->overflow.stats;
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

	if (atomic_read(&c->overflow.limit) >= 0) {
		left = atomic_dec_if_positive(&c->overflow.limit);
		if (left < 0)
			return;		/* stopped */
		last = !left;
	}

	rcu_read_lock_sched_notrace();
	/* the time of the overflow, before the direct callbacks run */
	time = list_empty(&c->overflow.deferred) ? 0 : local_clock();
	prev = delivering_begin();
	list_for_each_entry_rcu(cb, &c->overflow.direct, node) {
		cb->fn(&s, regs, cb->context);
		this_cpu_inc(cb->cpus->stats.runs);
		runs++;
	}
	delivering_end(prev);
	if (runs)
		this_cpu_add(stats->runs, runs);
	list_for_each_entry_rcu(cb, &c->overflow.deferred, node) {
		/* or now, for one registered since the time was taken */
		if (!s.time)
			s.time = time ?: local_clock();
		defer(cb, stats, &s);
	}
	rcu_read_unlock_sched_notrace();

	if (last)
		irq_work_queue(&c->overflow.stop_irq_work);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_overflow);

static void stop_irq_work(struct irq_work *work)
{
	schedule_work(&container_of(work, struct perfkmod_overflow,
				    stop_irq_work)->stop_work);
}

void perfkmod_overflow_stop(struct perfkmod_counter *c)
{
	if (!c->overflow.stats)
		return;		/* counting: no overflow to stop */
	atomic_set(&c->overflow.limit, 0);
	irq_work_queue(&c->overflow.stop_irq_work);
}
EXPORT_SYMBOL_GPL(perfkmod_overflow_stop);

void perfkmod_overflow_limit(struct perfkmod_counter *c, unsigned int n)
{
	if (!c->overflow.stats)
		return;
	if (!n) {
		perfkmod_overflow_stop(c);
		return;
	}
	atomic_set(&c->overflow.limit, min_t(unsigned int, n, INT_MAX));
}
EXPORT_SYMBOL_GPL(perfkmod_overflow_limit);

/**
 * perfkmod_overflow_arm() - set how many overflows a counter delivers
 * @c: the counter, being enabled or refreshed.
 * @limit: overflows to deliver before it stops; -1 for all.
 *
 * Context: process context, with @c->lock held.
 */
void perfkmod_overflow_arm(struct perfkmod_counter *c, int limit)
{
	lockdep_assert_held(&c->lock);
	atomic_set(&c->overflow.limit, limit);
}

/**
 * perfkmod_overflow_stopped() - whether a counter's overflows stopped it
 * @c: the counter.
 *
 * Context: any context; the stop work asks it with @c->lock held, under
 *	which perfkmod_overflow_arm() changes the answer.
 * Return: true when its limit is reached, or perfkmod_overflow_stop() or
 *	perfkmod_overflow_limit(@c, 0) stopped it.
 */
bool perfkmod_overflow_stopped(struct perfkmod_counter *c)
{
	return !atomic_read(&c->overflow.limit);
}

static void sum_stats(struct perfkmod_stats __percpu *pcpu,
		      struct perfkmod_stats *st)
{
	int cpu;

	memset(st, 0, sizeof(*st));
	if (!pcpu)
		return;		/* a counting counter: nothing overflows */
	for_each_possible_cpu(cpu) {
		struct perfkmod_stats *p = per_cpu_ptr(pcpu, cpu);

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
	sum_stats(c->overflow.stats, stats);
}
EXPORT_SYMBOL_GPL(perfkmod_counter_stats);

/**
 * perfkmod_overflow_counter_init() - set up a new counter's overflow state
 * @c: the counter, before any of its events exists.
 * @stop: the counter core's stop work, queued once the counter's overflows
 *	stopped it (a limit reached, or perfkmod_overflow_stop()); only a
 *	sampling counter's, whose @stats is set, is ever queued.
 *
 * Context: process context, may sleep.
 * Return: 0 or -%ENOMEM.
 */
int perfkmod_overflow_counter_init(struct perfkmod_counter *c,
				   work_func_t stop)
{
	struct perfkmod_overflow *o = &c->overflow;

	INIT_LIST_HEAD(&o->direct);
	INIT_LIST_HEAD(&o->deferred);
	atomic_set(&o->detaching, 0);
	atomic_set(&o->limit, -1);
	init_irq_work(&o->stop_irq_work, stop_irq_work);
	INIT_WORK(&o->stop_work, stop);
	/* set_period() never makes a counting counter sample */
	if (!perfkmod_config_samples(&c->config))
		return 0;
	o->stats = alloc_percpu(struct perfkmod_stats);
	return o->stats ? 0 : -ENOMEM;
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
	if (!c->overflow.stats)
		return;
	/* no event is left to queue them again */
	irq_work_sync(&c->overflow.stop_irq_work);
	cancel_work_sync(&c->overflow.stop_work);
	free_percpu(c->overflow.stats);
}
