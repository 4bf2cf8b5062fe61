/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod's overflow callbacks: a function of another module called on each
 * overflow of a sampling counter, in NMI or interrupt context or deferred
 * to a context of its choosing; their statistics, and the overflow limit.
 * Part of perfkmod.h, the public interface, which includes it.
 */
#ifndef _PERFKMOD_CALLBACK_API_H
#define _PERFKMOD_CALLBACK_API_H

#ifndef _PERFKMOD_H
#error "include perfkmod.h, which includes this header"
#endif

/**
 * struct perfkmod_sample - what a callback learns of one overflow
 * @counter: the counter that overflowed.
 * @time: for a deferred callback, local_clock() at the overflow, in
 *	nanoseconds. 0 for a direct callback: it runs at the overflow, where
 *	local_clock() is the time (the trampoline reads no clock for it: a
 *	clock read would cost every overflow, whether a callback wants it or
 *	not).
 * @ip: the interrupted instruction pointer.
 * @period: events counted since the previous overflow (perf's period).
 * @count: the overflowing event's count (for an all-CPUs counter, that
 *	CPU's), as perf last updated it.
 * @cpu: the CPU the overflow happened on.
 * @pid: the thread group id of the task that was running (0: idle).
 * @tid: its thread id.
 *
 * Small on purpose: it is built on the overflow context's stack, which may
 * be the NMI stack.
 */
struct perfkmod_sample {
	struct perfkmod_counter *counter;
	u64 time;
	u64 ip;
	u64 period;
	u64 count;
	u32 cpu;
	u32 pid;
	u32 tid;
};

/**
 * enum perfkmod_delivery - where a callback runs
 * @PERFKMOD_DELIVER_DIRECT: in the overflow context itself: NMI for
 *	hardware PMUs, hard IRQ for cpu-clock and task-clock, the
 *	instrumented code's context for other software events, breakpoints
 *	and tracepoints. The callback must be NMI-safe: no locks shared with
 *	other contexts, no allocation, no sleeping; it gets the registers.
 * @PERFKMOD_DELIVER_IRQ: deferred: the sample goes through a per-CPU ring
 *	to an irq_work, and the callback runs in hard IRQ context on the same
 *	CPU, never in NMI. It may take spinlocks (irqsave), not sleep. On
 *	PREEMPT_RT kernels the irq_work runs in the CPU's irq_work thread
 *	instead, not in hard IRQ: the same rules hold there. Samples are
 *	delivered in batches, in the order they came: at the CPU's next tick
 *	(so up to 1/HZ late), or at once when the ring is half full or the
 *	CPU's tick is stopped (on PREEMPT_RT, at once). A batch delivers at
 *	most what the ring held when it began; samples that came during it
 *	wait a tick, on a timer, also where the tick is stopped (counted in
 *	&perfkmod_stats.requeued).
 * @PERFKMOD_DELIVER_PROCESS: deferred further, to a workqueue: the callback
 *	runs in process context and may sleep. A batch delivers at most what
 *	the ring held when it began, rescheduling between the calls; the work
 *	item is then queued again for the rest, behind the other work items
 *	(counted in &perfkmod_stats.requeued).
 *
 * A deferred sample that finds its ring full is dropped and counted.
 *
 * A deferred callback must not cause overflows of its own counter: write
 * the variable its breakpoint watches, allocate under a kmem:kmalloc
 * counter, arm a timer under a timer:hrtimer_start counter. perf does not
 * throttle these (the first overflow of each software event, tracepoint or
 * breakpoint hit never is), and deferral takes the callback out of perf's
 * recursion protection: each call would queue the next. perfkmod
 * does not let such a callback, nor one slower than its counter, hold the
 * CPU: its ring fills, the samples that find it full are dropped and
 * counted, and the CPU runs other things (other tasks, RCU) between
 * batches. What the callback was meant to see is lost, though.
 */
enum perfkmod_delivery {
	PERFKMOD_DELIVER_DIRECT,
	PERFKMOD_DELIVER_IRQ,
	PERFKMOD_DELIVER_PROCESS,
};

/**
 * typedef perfkmod_callback_fn - an overflow callback
 * @sample: the overflow; valid during the call only.
 * @regs: the interrupted registers for %PERFKMOD_DELIVER_DIRECT, else NULL.
 * @context: the pointer given at registration.
 */
typedef void (*perfkmod_callback_fn)(const struct perfkmod_sample *sample,
				     struct pt_regs *regs, void *context);

struct perfkmod_callback;

/**
 * struct perfkmod_stats - overflow statistics of a counter or a callback
 * @overflows: overflows perf reported (counter), or offered (callback).
 * @throttled: times perf throttled the counter for overflowing too often
 *	(kernel.perf_event_max_sample_rate); perfkmod does not hide it.
 * @runs: callback calls.
 * @deferred: samples put in a ring for deferred delivery.
 * @dropped: deferred samples dropped because the ring was full.
 * @requeued: deferred samples a delivery batch left for a later one: they
 *	came while it ran (see &enum perfkmod_delivery). Counted each time
 *	one is left; it grows with the calls of a callback that feeds itself
 *	or cannot keep up, and of one whose counter overflows while it runs.
 *
 * Once deferred deliveries are done, @runs + @dropped == @overflows for a
 * callback (until it is unregistered: unregistering discards the samples
 * still waiting, counted in neither).
 */
struct perfkmod_stats {
	u64 overflows;
	u64 throttled;
	u64 runs;
	u64 deferred;
	u64 dropped;
	u64 requeued;
};

struct perfkmod_callback *
__perfkmod_callback_register(struct perfkmod_counter *counter,
			     perfkmod_callback_fn fn, void *context,
			     enum perfkmod_delivery delivery,
			     struct module *owner);

/**
 * perfkmod_callback_register() - call a function on each overflow of a counter
 * @counter: a sampling counter (created with a period or a frequency).
 * @fn: the callback.
 * @context: passed to @fn.
 * @delivery: where @fn runs; see &enum perfkmod_delivery.
 *
 * Any number of callbacks may be registered on a counter, at any time, also
 * while it overflows. On each overflow the direct callbacks are called
 * first, in the order they were registered, then the deferred ones are
 * queued. The calling module is recorded as the owner: it must
 * unregister its callbacks before it unloads; if it does not, perfkmod
 * unregisters them when the module goes away and logs a warning.
 *
 * A deferred @fn must not cause overflows of @counter itself (see
 * &enum perfkmod_delivery): if it does, its samples are dropped, not
 * delivered, though the CPU is not held.
 *
 * Context: process context, may sleep.
 * Return: a handle for perfkmod_callback_unregister(), or ERR_PTR():
 * -%EINVAL for a counter that does not sample, a NULL @fn or an unknown
 * @delivery; -%ENOMEM.
 */
#define perfkmod_callback_register(counter, fn, context, delivery) \
	__perfkmod_callback_register(counter, fn, context, delivery, THIS_MODULE)

/**
 * perfkmod_callback_unregister() - stop calling a callback
 * @cb: the handle; NULL or an ERR_PTR() is ignored.
 *
 * Once it returns, the callback is not running and never runs again, its
 * context may be freed, and @cb is freed (its statistics stay in the
 * counter's: perfkmod_counter_stats()). Also for a handle on a counter
 * since released (see perfkmod_counter_release()), by any module. Samples
 * still waiting in its rings are discarded. It waits for a callback that
 * is running: not with a lock held that the callback takes.
 *
 * From a %PERFKMOD_DELIVER_PROCESS callback, which runs in a work item, it
 * waits for no such work item, its own included: two such callbacks that
 * unregister each other (or each other's counters) would wait for each
 * other for ever, and a callback that unregisters itself for itself.
 * There, unregistering a %PERFKMOD_DELIVER_PROCESS callback, itself or
 * another, returns at once: the callback is not called for any later
 * sample, but a call of it under way (on another CPU, or the calling one)
 * may still be running. perfkmod waits for those and frees @cb afterwards,
 * and before the module that registered it finishes unloading: its context
 * must stay valid until then. Two callbacks may unregister each other this
 * way. Unregistering a direct or %PERFKMOD_DELIVER_IRQ callback from there
 * waits, as from any process context.
 *
 * A direct or %PERFKMOD_DELIVER_IRQ callback may not sleep: from there, as
 * with interrupts or preemption off, this warns and does nothing; such a
 * callback stops its counter's overflows with perfkmod_overflow_stop().
 *
 * Context: process context, may sleep (waits for an RCU grace period);
 *	not with cpus_read_lock() held nor from a CPU hotplug callback (it
 *	takes the CPU hotplug lock to run the CPUs' pending deliveries).
 */
void perfkmod_callback_unregister(struct perfkmod_callback *cb);

/**
 * perfkmod_callback_stats() - a callback's statistics
 * @cb: the callback.
 * @stats: filled in; @stats->throttled is 0.
 *
 * Context: any context.
 */
void perfkmod_callback_stats(struct perfkmod_callback *cb,
			     struct perfkmod_stats *stats);

/**
 * perfkmod_counter_stats() - a counter's overflow statistics
 * @counter: the counter.
 * @stats: filled in: @stats->runs, @stats->deferred, @stats->dropped and
 *	@stats->requeued add up those of all its callbacks, past and present.
 *
 * Context: any context.
 */
void perfkmod_counter_stats(struct perfkmod_counter *counter,
			    struct perfkmod_stats *stats);

/**
 * perfkmod_overflow_stop() - stop a counter from an overflow callback
 * @counter: the counter; a counting counter, which has no overflows, is
 *	left as it is.
 *
 * No callback of @counter is called for later overflows; the counter is
 * disabled soon after, from a workqueue. perfkmod_counter_enable() or
 * perfkmod_counter_refresh() starts it again.
 *
 * Context: any context, NMI included; takes no lock.
 */
void perfkmod_overflow_stop(struct perfkmod_counter *counter);

/**
 * perfkmod_overflow_limit() - deliver only the next @n overflows
 * @counter: the counter; a counting counter is left as it is.
 * @n: how many more overflows reach the callbacks; after the last one the
 *	counter stops as with perfkmod_overflow_stop(). 0 stops it now.
 *
 * The limit of perf's PERF_EVENT_IOC_REFRESH, without its enable, which
 * perfkmod_counter_refresh() adds.
 *
 * Context: any context, NMI included; takes no lock.
 */
void perfkmod_overflow_limit(struct perfkmod_counter *counter, unsigned int n);

/**
 * perfkmod_overflow_refresh() - perfkmod_overflow_limit(), by its old name
 * @counter: the counter.
 * @n: how many more overflows reach the callbacks.
 *
 * Deprecated: the name of version 0.1, kept until version 1.0.
 *
 * Context: any context, NMI included; takes no lock.
 */
static inline void perfkmod_overflow_refresh(struct perfkmod_counter *counter,
					     unsigned int n)
{
	perfkmod_overflow_limit(counter, n);
}

/**
 * perfkmod_counter_refresh() - enable a counter for its next @n overflows
 * @counter: a sampling counter.
 * @n: overflows to deliver before the counter stops; at least 1.
 *
 * perf's PERF_EVENT_IOC_REFRESH: a limit as perfkmod_overflow_limit()
 * sets, and the enable.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 * Return: 0; -%EINVAL if @counter does not sample or @n is 0.
 */
int perfkmod_counter_refresh(struct perfkmod_counter *counter, unsigned int n);

#endif /* _PERFKMOD_CALLBACK_API_H */
