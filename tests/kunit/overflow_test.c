// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the overflow trampoline: callbacks in real NMI context
 * (x86: an NMI sent through the APIC; arm64: the PMU's pseudo-NMI), exact
 * delivery counts, deferral out of NMI, full rings, stop and refresh from
 * overflow context, and register/unregister racing with overflows.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include <linux/hw_breakpoint.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/power.h>

#include "internal.h"
#include "test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

KUNIT_DEFINE_ACTION_WRAPPER(unregister_cb, perfkmod_callback_unregister,
			    struct perfkmod_callback *);

static struct perfkmod_callback *reg(struct kunit *test,
				     struct perfkmod_counter *c,
				     perfkmod_callback_fn fn, void *ctx,
				     enum perfkmod_delivery delivery)
{
	struct perfkmod_callback *cb;

	cb = perfkmod_callback_register(c, fn, ctx, delivery);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "perfkmod_callback_register: %pe", cb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, unregister_cb, cb), 0);
	return cb;
}

/* What a test callback records. */
struct probe {
	atomic_t calls;
	atomic_t in_nmi;
	atomic_t with_regs;
	atomic_t wrong_counter;
	struct perfkmod_counter *counter;
	/* stop, or refresh, the counter at this call (0: never) */
	int stop_at;
	int limit_at;
	unsigned int limit_n;
};

static void probe_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		     void *context)
{
	struct probe *p = context;
	int n = atomic_inc_return(&p->calls);

	if (in_nmi())
		atomic_inc(&p->in_nmi);
	if (regs)
		atomic_inc(&p->with_regs);
	if (s->counter != p->counter)
		atomic_inc(&p->wrong_counter);
	if (n == p->stop_at)
		perfkmod_overflow_stop(s->counter);
	if (n == p->limit_at)
		perfkmod_overflow_limit(s->counter, p->limit_n);
}

/*
 * Wait up to 30 s for @p to have been called @n times, or fail the case:
 * deferred delivery waits for the workqueue, which a loaded machine runs
 * late. Return: whether it was.
 */
static bool wait_calls(struct kunit *test, struct probe *p, int n)
{
	bool called = test_await(30, atomic_read(&p->calls) >= n);

	KUNIT_EXPECT_TRUE_MSG(test, called, "%d calls in 30 s, not %d",
			      atomic_read(&p->calls), n);
	return called;
}

/* written with WRITE_ONCE(): each write is a store the breakpoint sees */
static int bp_target;

/* @n writes to bp_target, IRQs off around each (see counter_test.c). */
static void poke(int n)
{
	unsigned long flags;
	int i;

	for (i = 0; i < n; i++) {
		local_irq_save(flags);
		WRITE_ONCE(bp_target, i);
		local_irq_restore(flags);
	}
}

/* A write breakpoint on bp_target, on CPU @cpu, released at the end. */
static struct perfkmod_counter *bp_counter_on(struct kunit *test, u64 period,
					      int cpu)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&bp_target,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W,
		.sample_period = period,
		.target = PERFKMOD_TARGET_CPU,
		.cpu = cpu,
	};
	struct perfkmod_counter *c;

	c = perfkmod_counter_create(&cfg);
	if (IS_ENABLED(CONFIG_ARM64) && c == ERR_PTR(-EOPNOTSUPP))
		kunit_skip(test, "arm64 cannot sample breakpoints; the x86 lanes run this");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "perfkmod_counter_create: %pe", c);
	test_release_at_end(test, c);
	return c;
}

/* The same on this CPU, the thread pinned to it. */
static struct perfkmod_counter *bp_counter(struct kunit *test, u64 period)
{
	int cpu = raw_smp_processor_id();

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	return bp_counter_on(test, period, cpu);
}

/*
 * A breakpoint with period P over N writes: exactly N/P overflows, each
 * delivered once to each callback, direct or deferred.
 */
static void breakpoint_exact_overflows(struct kunit *test)
{
	struct probe d1 = {}, d2 = {}, irq = {}, proc = {};
	struct perfkmod_callback *cb_irq, *cb_proc;
	struct perfkmod_counter *c = bp_counter(test, 10);
	struct perfkmod_stats st;
	struct perfkmod_value v;
	int i;

	d1.counter = c;
	d2.counter = c;
	irq.counter = c;
	proc.counter = c;
	reg(test, c, probe_fn, &d1, PERFKMOD_DELIVER_DIRECT);
	reg(test, c, probe_fn, &d2, PERFKMOD_DELIVER_DIRECT);
	cb_irq = reg(test, c, probe_fn, &irq, PERFKMOD_DELIVER_IRQ);
	cb_proc = reg(test, c, probe_fn, &proc, PERFKMOD_DELIVER_PROCESS);

	/*
	 * 20 overflows at a time, fewer than a ring holds, each batch
	 * delivered before the next: no drop, however slow the workqueue.
	 */
	for (i = 1; i <= 5; i++) {
		poke(200);
		if (!wait_calls(test, &irq, 20 * i) ||
		    !wait_calls(test, &proc, 20 * i))
			return;
	}

	perfkmod_counter_read(c, &v);
	KUNIT_EXPECT_EQ(test, v.value, 1000);
	perfkmod_counter_stats(c, &st);
	KUNIT_EXPECT_EQ(test, st.overflows, 100);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d1.calls), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&d2.calls), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&irq.calls), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&proc.calls), 100);
	KUNIT_EXPECT_EQ(test, st.runs, 400);
	KUNIT_EXPECT_EQ(test, st.deferred, 200);
	/* only direct callbacks get the registers */
	KUNIT_EXPECT_EQ(test, atomic_read(&d1.with_regs), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&irq.with_regs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d1.wrong_counter), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&proc.wrong_counter), 0);
	/* deferred callbacks never run in NMI */
	KUNIT_EXPECT_EQ(test, atomic_read(&irq.in_nmi), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&proc.in_nmi), 0);

	perfkmod_callback_stats(cb_irq, &st);
	KUNIT_EXPECT_EQ(test, st.overflows, 100);
	KUNIT_EXPECT_EQ(test, st.runs, 100);
	KUNIT_EXPECT_EQ(test, st.deferred, 100);
	perfkmod_callback_stats(cb_proc, &st);
	KUNIT_EXPECT_EQ(test, st.runs, 100);
}

/*
 * A deferred consumer that cannot keep up: 1000 overflows with IRQs off
 * fill the ring; the rest are dropped and counted, never waited for.
 */
static void ring_full_drops(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct probe p = { .counter = c };
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;
	unsigned long flags;
	int i;

	cb = reg(test, c, probe_fn, &p, PERFKMOD_DELIVER_IRQ);
	local_irq_save(flags);
	for (i = 0; i < 1000; i++)
		WRITE_ONCE(bp_target, i);
	local_irq_restore(flags);
	wait_calls(test, &p, perfkmod_ring_size);
	usleep_range(10000, 11000);

	perfkmod_callback_stats(cb, &st);
	KUNIT_EXPECT_EQ(test, st.overflows, 1000);
	KUNIT_EXPECT_EQ(test, st.runs, perfkmod_ring_size);
	KUNIT_EXPECT_EQ(test, st.dropped, st.overflows - st.runs);
	KUNIT_EXPECT_EQ(test, st.deferred, st.runs);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), perfkmod_ring_size);
}

/* The samples a callback got, in order. */
struct sample_log {
	struct perfkmod_sample s[32];
	atomic_t n;
};

static void log_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		   void *context)
{
	struct sample_log *log = context;
	int n = atomic_inc_return(&log->n) - 1;

	if (n < ARRAY_SIZE(log->s))
		log->s[n] = *s;
}

/*
 * What each field of a sample holds: the writer's CPU, thread group and
 * thread, perf's period and the count; the time (local_clock()) for a
 * deferred callback only, 0 for a direct one (perfkmod.h). Deferred
 * samples come in the order of the overflows.
 */
static void sample_fields(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct sample_log *direct, *deferred;
	u64 before, after;
	int i;

	direct = kunit_kzalloc(test, sizeof(*direct), GFP_KERNEL);
	deferred = kunit_kzalloc(test, sizeof(*deferred), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, direct);
	KUNIT_ASSERT_NOT_NULL(test, deferred);
	reg(test, c, log_fn, direct, PERFKMOD_DELIVER_DIRECT);
	reg(test, c, log_fn, deferred, PERFKMOD_DELIVER_IRQ);

	before = local_clock();
	poke(ARRAY_SIZE(direct->s));
	after = local_clock();
	test_await(30, atomic_read(&deferred->n) >= (int)ARRAY_SIZE(deferred->s));
	KUNIT_ASSERT_EQ(test, atomic_read(&direct->n), (int)ARRAY_SIZE(direct->s));
	KUNIT_ASSERT_EQ_MSG(test, atomic_read(&deferred->n), (int)ARRAY_SIZE(deferred->s),
			    "deferred samples after 30 s");

	for (i = 0; i < ARRAY_SIZE(direct->s); i++) {
		struct perfkmod_sample *d = &direct->s[i], *q = &deferred->s[i];

		KUNIT_EXPECT_PTR_EQ(test, d->counter, c);
		KUNIT_EXPECT_EQ(test, d->time, 0);
		KUNIT_EXPECT_EQ(test, d->cpu, (u32)raw_smp_processor_id());
		KUNIT_EXPECT_EQ(test, d->pid, (u32)current->tgid);
		KUNIT_EXPECT_EQ(test, d->tid, (u32)current->pid);
		KUNIT_EXPECT_EQ(test, d->period, 1);
		KUNIT_EXPECT_EQ(test, d->count, (u64)i + 1);
		KUNIT_EXPECT_NE(test, d->ip, 0);
		/* the same overflow, as the deferred callback got it */
		KUNIT_EXPECT_GE(test, q->time, before);
		KUNIT_EXPECT_LE(test, q->time, after);
		if (i)
			KUNIT_EXPECT_GE(test, q->time, deferred->s[i - 1].time);
		KUNIT_EXPECT_EQ(test, q->cpu, d->cpu);
		KUNIT_EXPECT_EQ(test, q->pid, d->pid);
		KUNIT_EXPECT_EQ(test, q->tid, d->tid);
		KUNIT_EXPECT_EQ(test, q->count, d->count);
		KUNIT_EXPECT_EQ(test, q->ip, d->ip);
	}
}

/*
 * Deferred samples go in batches, at the next tick or once the ring is
 * half full (perfkmod.h). A burst of overflows with interrupts on, many
 * rings' worth before any tick: the half-full kick delivers them as they
 * come, so none is dropped.
 */
static void burst_not_dropped(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct probe irq = { .counter = c }, proc = { .counter = c };
	struct perfkmod_callback *cb_irq;
	struct perfkmod_stats st;
	int n = 16 * perfkmod_ring_size, i;

	cb_irq = reg(test, c, probe_fn, &irq, PERFKMOD_DELIVER_IRQ);
	reg(test, c, probe_fn, &proc, PERFKMOD_DELIVER_PROCESS);
	for (i = 0; i < n; i++)
		WRITE_ONCE(bp_target, i);
	wait_calls(test, &irq, n);
	perfkmod_callback_stats(cb_irq, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.overflows, (u64)n);
	KUNIT_EXPECT_EQ(test, atomic_read(&irq.calls), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&irq.in_nmi), 0);
	/* the process consumer may fall behind; what it missed is counted */
	perfkmod_counter_stats(c, &st);
	wait_calls(test, &proc, n - (int)st.dropped);
	perfkmod_counter_stats(c, &st);
	KUNIT_EXPECT_EQ(test, st.runs, (u64)atomic_read(&irq.calls) +
			atomic_read(&proc.calls));
	KUNIT_EXPECT_EQ(test, st.deferred + st.dropped, 2 * (u64)n);
}

static void slow_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		    void *context)
{
	usleep_range(1000, 2000);
}

/* @cb's statistics in @st; whether it ran every sample it queued. */
static bool all_run(struct perfkmod_callback *cb, struct perfkmod_stats *st)
{
	perfkmod_callback_stats(cb, st);
	return st->runs == st->deferred;
}

/* A sleeping consumer in process context: whatever it misses is counted. */
static void slow_process_consumer(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;

	cb = reg(test, c, slow_fn, NULL, PERFKMOD_DELIVER_PROCESS);
	poke(500);
	test_await(60, all_run(cb, &st));
	KUNIT_EXPECT_EQ(test, st.overflows, 500);
	KUNIT_EXPECT_EQ_MSG(test, st.runs, st.deferred, "runs of the samples queued, after 60 s");
	KUNIT_EXPECT_EQ(test, st.dropped, st.overflows - st.runs);
	kunit_info(test, "500 overflows: %llu delivered, %llu dropped",
		   st.runs, st.dropped);
}

/*
 * A deferred callback that causes overflows of its own counter: each call
 * queues another sample. Until it has been called @cap times it feeds
 * itself; the test's thread, pinned to the counter's CPU, bumps @gen
 * whenever it runs there. Calls with one @gen in between are one stretch
 * of the CPU in hard IRQ: one delivery batch (or several back to back).
 */
struct feed {
	int cap;
	atomic_t calls;
	atomic_t gen;
	/* the callback's own, on one CPU */
	int last_gen;
	int run;
	int max_run;
};

/* Note a call of @f's callback. Return: which call it is, from 1. */
static int feed_note(struct feed *f)
{
	int gen = atomic_read(&f->gen);

	if (gen != f->last_gen) {
		f->last_gen = gen;
		f->run = 0;
	}
	f->max_run = max(f->max_run, ++f->run);
	return atomic_inc_return(&f->calls);
}

/* Writes the variable its breakpoint watches. */
static void feed_bp_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		       void *context)
{
	struct feed *f = context;
	int n = feed_note(f);

	if (n < f->cap)
		WRITE_ONCE(bp_target, n);
}

/* Allocates under a kmem:kmalloc counter. */
static void feed_kmalloc_fn(const struct perfkmod_sample *s,
			    struct pt_regs *regs, void *context)
{
	struct feed *f = context;
	void *p;

	if (feed_note(f) >= f->cap)
		return;
	p = kmalloc(16, GFP_ATOMIC);
	OPTIMIZER_HIDE_VAR(p);
	kfree(p);
}

/*
 * Run on the counter's CPU, bumping @f->gen, until the callback has been
 * called @f->cap times, or for 30 s. Busy, so that the CPU's tick runs.
 */
static void feed_wait(struct feed *f)
{
	ktime_t end = ktime_add_ms(ktime_get(), 30000);

	while (atomic_read(&f->calls) < f->cap && ktime_before(ktime_get(), end)) {
		atomic_inc(&f->gen);
		cond_resched();
	}
}

/* What every self-feeding case asks of the delivery. */
static void feed_check(struct kunit *test, struct feed *f)
{
	/* the callback went on feeding itself to the end */
	KUNIT_EXPECT_GE(test, atomic_read(&f->calls), f->cap);
	/*
	 * and the CPU left hard IRQ for the test's thread between batches,
	 * each of at most what the ring held when it began
	 */
	KUNIT_EXPECT_LE_MSG(test, f->max_run, (int)perfkmod_ring_size,
			    "%d calls in one stretch in hard IRQ", f->max_run);
	kunit_info(test, "%d calls, at most %d in one stretch in hard IRQ",
		   atomic_read(&f->calls), f->max_run);
}

/*
 * A write breakpoint whose IRQ callback writes the watched variable: one
 * write starts a chain of overflows that perf does not throttle (a
 * breakpoint's first overflow each time). The chain ends when the
 * callback stops at its cap; it must not hold the CPU in hard IRQ until
 * then, and unregister must return.
 */
static void irq_callback_feeds_breakpoint(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;
	struct feed *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->cap = 4 * perfkmod_ring_size;
	cb = perfkmod_callback_register(c, feed_bp_fn, f, PERFKMOD_DELIVER_IRQ);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "perfkmod_callback_register: %pe", cb);
	WRITE_ONCE(bp_target, 0);
	feed_wait(f);
	perfkmod_callback_stats(cb, &st);
	perfkmod_callback_unregister(cb);

	feed_check(test, f);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->calls), f->cap);
	KUNIT_EXPECT_EQ(test, st.overflows, f->cap);
	KUNIT_EXPECT_EQ(test, st.runs, f->cap);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	/* every sample but the first came in the batch before its own */
	KUNIT_EXPECT_EQ(test, st.requeued, f->cap - 1);
}

/*
 * A breakpoint chain started on an idle CPU, whose tick is stopped: an
 * irq_work queued there raises its interrupt at once, lazy or not. Calls
 * with no pass of the CPU's idle loop in between (power:cpu_idle) are one
 * stretch in hard IRQ; the CPU must get out of it between batches all the
 * same.
 */
struct idle_feed {
	int cap;
	unsigned int cpu;
	atomic_t calls;
	/* bumped by the CPU's idle loop */
	int gen;
	/* the callback's own, on that CPU */
	int last_gen;
	int run;
	int max_run;
};

static void idle_feed_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct idle_feed *f = data;

	if (cpu == f->cpu)
		WRITE_ONCE(f->gen, f->gen + 1);
}

static void idle_feed_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
			 void *context)
{
	struct idle_feed *f = context;
	int gen = READ_ONCE(f->gen), n;

	if (gen != f->last_gen) {
		f->last_gen = gen;
		f->run = 0;
	}
	f->max_run = max(f->max_run, ++f->run);
	n = atomic_inc_return(&f->calls);
	if (n < f->cap)
		WRITE_ONCE(bp_target, n);
}

static void write_bp_target(void *unused)
{
	WRITE_ONCE(bp_target, 0);
}

static void irq_callback_feeds_idle_cpu(struct kunit *test)
{
	unsigned long end = jiffies + 30 * HZ;
	struct idle_feed *f;
	int this, cpu, err;

	/* this task on one CPU, the chain on another, idle one */
	this = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(this)), 0);
	cpu = cpumask_any_but(cpu_online_mask, this);
	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs 2 online CPUs");
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->cap = 4 * perfkmod_ring_size;
	f->cpu = cpu;
	reg(test, bp_counter_on(test, 1, cpu), idle_feed_fn, f,
	    PERFKMOD_DELIVER_IRQ);
	KUNIT_ASSERT_EQ(test, register_trace_cpu_idle(idle_feed_idle, f), 0);
	err = smp_call_function_single(cpu, write_bp_target, NULL, 1);
	/* asleep here: the chain's CPU is left alone */
	while (!err && atomic_read(&f->calls) < f->cap && time_before(jiffies, end))
		usleep_range(1000, 2000);
	unregister_trace_cpu_idle(idle_feed_idle, f);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->calls), f->cap);
	KUNIT_EXPECT_GT_MSG(test, READ_ONCE(f->gen), 0, "CPU %u never idle", f->cpu);
	KUNIT_EXPECT_LE_MSG(test, f->max_run, (int)perfkmod_ring_size,
			    "%d calls in one stretch in hard IRQ", f->max_run);
	kunit_info(test, "%d calls on idle CPU %d, at most %d in one stretch",
		   atomic_read(&f->calls), cpu, f->max_run);
}

/* The id of tracepoint @system:@event, or a negative errno. */
static int tracepoint_id(const char *system, const char *event)
{
	struct trace_event_file *file;
	int id;

	if (!IS_ENABLED(CONFIG_EVENT_TRACING))
		return -ENOENT;
	file = trace_get_event_file(NULL, system, event);
	if (IS_ERR(file))
		return PTR_ERR(file);
	id = file->event_call->event.type;
	trace_put_event_file(file);
	return id;
}

/*
 * A kmem:kmalloc counter on this CPU whose IRQ callback allocates: each
 * call is another overflow (besides what the rest of the kernel allocates
 * there). Bounded batches all the same.
 */
static void irq_callback_feeds_tracepoint(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_TRACEPOINT,
		.sample_period = 1,
		.target = PERFKMOD_TARGET_CPU,
	};
	struct perfkmod_counter *c;
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;
	struct feed *f;
	int id;
	void *p;

	id = tracepoint_id("kmem", "kmalloc");
	if (id < 0)
		kunit_skip(test, "no kmem:kmalloc tracepoint: %d", id);
	cfg.config = id;
	cfg.cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cfg.cpu)), 0);
	c = test_create(test, &cfg);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->cap = 4 * perfkmod_ring_size;
	cb = perfkmod_callback_register(c, feed_kmalloc_fn, f, PERFKMOD_DELIVER_IRQ);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "perfkmod_callback_register: %pe", cb);
	p = kmalloc(16, GFP_KERNEL);
	OPTIMIZER_HIDE_VAR(p);
	kfree(p);
	feed_wait(f);
	perfkmod_callback_stats(cb, &st);
	perfkmod_callback_unregister(cb);

	feed_check(test, f);
	/* each call but the last pushed one, at least, during its batch */
	KUNIT_EXPECT_GE(test, st.requeued + st.dropped, f->cap - 1);
	kunit_info(test, "%llu overflows, %llu dropped, %llu requeued", st.overflows,
		   st.dropped, st.requeued);
}

/*
 * A process-context callback slower than its counter: each call takes
 * 300 us of a cpu-clock counter that overflows every 100 us on one CPU.
 * The ring never empties; a kthread pinned to that CPU must still run,
 * and the work item must give the workqueue back after each batch. A
 * probe on workqueue_execute_start counts the executions of the
 * callback's work item, which the callback learns from current_work().
 */
struct slow_feed {
	struct tracepoint *tp;
	atomic_t calls;
	struct work_struct *work;
	atomic_t starts;
	atomic_t pinned_runs;
	/* the callback's own: it runs in one work item */
	int last_start;
	int run;
	int max_run;
};

static void busy_us(unsigned int us)
{
	ktime_t end = ktime_add_us(ktime_get(), us);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

static void slow_feed_fn(const struct perfkmod_sample *s,
			 struct pt_regs *regs, void *context)
{
	struct slow_feed *f = context;
	int start;

	WRITE_ONCE(f->work, current_work());
	start = atomic_read(&f->starts);
	if (start != f->last_start) {
		f->last_start = start;
		f->run = 0;
	}
	f->max_run = max(f->max_run, ++f->run);
	atomic_inc(&f->calls);
	busy_us(300);
}

static void slow_feed_work_start(void *data, struct work_struct *work)
{
	struct slow_feed *f = data;

	if (work == READ_ONCE(f->work))
		atomic_inc(&f->starts);
}

static int slow_feed_pinned(void *data)
{
	struct slow_feed *f = data;

	while (!kthread_should_stop()) {
		atomic_inc(&f->pinned_runs);
		usleep_range(200, 400);
	}
	return 0;
}

static void find_work_start(struct tracepoint *tp, void *priv)
{
	struct tracepoint **found = priv;

	if (!strcmp(tp->name, "workqueue_execute_start"))
		*found = tp;
}

static void work_start_unregister(struct slow_feed *f)
{
	tracepoint_probe_unregister(f->tp, slow_feed_work_start, f);
	tracepoint_synchronize_unregister();
}

KUNIT_DEFINE_ACTION_WRAPPER(unregister_work_start, work_start_unregister,
			    struct slow_feed *);

#define SLOW_FEED_PINNED_RUNS	20

static void process_callback_slower_than_counter(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
		.target = PERFKMOD_TARGET_CPU,
	};
	int here = raw_smp_processor_id(), calls;
	struct perfkmod_callback *cb;
	struct perfkmod_counter *c;
	struct task_struct *pinned;
	struct perfkmod_stats st;
	struct slow_feed *f;
	ktime_t end;

	cfg.cpu = cpumask_any_but(cpu_online_mask, here);
	if (cfg.cpu >= nr_cpu_ids)
		kunit_skip(test, "one CPU online: none for the callback alone");
	/* this thread stays off the callback's CPU */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(here)), 0);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->last_start = -1;
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "no tracepoints in this kernel");
	for_each_kernel_tracepoint(find_work_start, &f->tp);
	if (!f->tp)
		kunit_skip(test, "no workqueue_execute_start tracepoint");
	c = test_create(test, &cfg);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(f->tp, slow_feed_work_start, f), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, unregister_work_start, f), 0);
	pinned = kthread_create(slow_feed_pinned, f, "perfkmod-pinned");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(pinned), "kthread_create: %pe", pinned);
	get_task_struct(pinned);
	kthread_bind(pinned, cfg.cpu);
	cb = perfkmod_callback_register(c, slow_feed_fn, f, PERFKMOD_DELIVER_PROCESS);
	if (IS_ERR(cb)) {
		kthread_stop(pinned);
		put_task_struct(pinned);
		KUNIT_FAIL(test, "perfkmod_callback_register: %pe", cb);
		return;
	}

	/* from the first call on, the callback is behind */
	end = ktime_add_ms(ktime_get(), 60 * MSEC_PER_SEC);
	while (!atomic_read(&f->calls) && ktime_before(ktime_get(), end))
		usleep_range(1000, 2000);
	wake_up_process(pinned);
	/* events, not time: an emulated CPU is slow */
	while ((atomic_read(&f->pinned_runs) < SLOW_FEED_PINNED_RUNS ||
		atomic_read(&f->calls) < 3 * (int)perfkmod_ring_size) &&
	       ktime_before(ktime_get(), end))
		usleep_range(1000, 2000);
	kthread_stop(pinned);
	put_task_struct(pinned);
	perfkmod_callback_stats(cb, &st);
	perfkmod_callback_unregister(cb);
	calls = atomic_read(&f->calls);

	KUNIT_EXPECT_GE_MSG(test, atomic_read(&f->pinned_runs), SLOW_FEED_PINNED_RUNS,
			    "runs of the pinned thread in 60 s");
	KUNIT_EXPECT_GE_MSG(test, calls, 3 * (int)perfkmod_ring_size,
			    "calls in 60 s");
	KUNIT_EXPECT_LE_MSG(test, f->max_run, (int)perfkmod_ring_size,
			    "%d calls in one execution of the work item", f->max_run);
	KUNIT_EXPECT_GT(test, st.requeued, 0);
	kunit_info(test, "%d calls, at most %d in one execution of the work, %llu dropped; the pinned thread ran %d times",
		   calls, f->max_run, st.dropped, atomic_read(&f->pinned_runs));
}

/* A callback stops the counter at its 5th call: no 6th, and it is off. */
static void stop_from_callback(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct probe p = { .counter = c, .stop_at = 5 };

	reg(test, c, probe_fn, &p, PERFKMOD_DELIVER_DIRECT);
	poke(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), 5);
	/* the state follows in a work item */
	KUNIT_EXPECT_TRUE_MSG(test,
			      test_await(30, perfkmod_counter_state(c) == PERFKMOD_STATE_OFF),
			      "state %d 30 s after the stop", perfkmod_counter_state(c));

	/* perf's refresh: enabled again for exactly 3 more overflows */
	KUNIT_EXPECT_EQ(test, perfkmod_counter_refresh(c, 3), 0);
	poke(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), 8);

	/* enable: no limit any more */
	perfkmod_counter_enable(c);
	poke(10);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), 18);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_refresh(c, 0), -EINVAL);
}

/* A callback asks for the next 2 overflows only, at its first call. */
static void limit_from_callback(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct probe p = { .counter = c, .limit_at = 1, .limit_n = 2 };

	reg(test, c, probe_fn, &p, PERFKMOD_DELIVER_DIRECT);
	poke(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), 3);
}

/* The old name of perfkmod_overflow_limit(), in process context. */
static void limit_by_old_name(struct kunit *test)
{
	struct perfkmod_counter *c = bp_counter(test, 1);
	struct probe p = { .counter = c };

	reg(test, c, probe_fn, &p, PERFKMOD_DELIVER_DIRECT);
	perfkmod_overflow_refresh(c, 2);
	poke(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), 2);
}

static void register_errors(struct kunit *test)
{
	struct perfkmod_config plain = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
	};
	struct perfkmod_config sampling = plain;
	struct perfkmod_counter *c = test_create(test, &plain), *s;
	struct perfkmod_callback *cb;

	sampling.sample_period = 1;
	s = test_create(test, &sampling);
	cb = perfkmod_callback_register(c, probe_fn, NULL, PERFKMOD_DELIVER_DIRECT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(cb), -EINVAL);
	cb = perfkmod_callback_register(s, NULL, NULL, PERFKMOD_DELIVER_DIRECT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(cb), -EINVAL);
	cb = perfkmod_callback_register(s, probe_fn, NULL,
					PERFKMOD_DELIVER_PROCESS + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(cb), -EINVAL);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_refresh(c, 1), -EINVAL);
}

/*
 * Releasing a counter detaches what is still registered on it, and ends no
 * handle, the counter's own module's neither: each is unregistered after,
 * as late as its owner likes (KASAN would see a handle freed before).
 */
static void release_with_callbacks(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
	};
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
	struct perfkmod_callback *cb[2];
	struct perfkmod_stats st[2], later;
	struct probe p = {};
	int calls, i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	p.counter = c;
	cb[0] = perfkmod_callback_register(c, probe_fn, &p, PERFKMOD_DELIVER_DIRECT);
	cb[1] = perfkmod_callback_register(c, probe_fn, &p, PERFKMOD_DELIVER_PROCESS);
	if (IS_ERR(cb[0]) || IS_ERR(cb[1])) {
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "register: %pe %pe", cb[0], cb[1]);
		return;
	}
	wait_calls(test, &p, 10);
	perfkmod_counter_release(c);
	calls = atomic_read(&p.calls);
	KUNIT_EXPECT_GE(test, calls, 10);
	for (i = 0; i < 2; i++)
		perfkmod_callback_stats(cb[i], &st[i]);
	usleep_range(20000, 21000);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), calls);
	for (i = 0; i < 2; i++) {
		/* final: nothing counts for a detached callback */
		perfkmod_callback_stats(cb[i], &later);
		KUNIT_EXPECT_EQ(test, later.overflows, st[i].overflows);
		KUNIT_EXPECT_EQ(test, later.runs, st[i].runs);
		perfkmod_callback_unregister(cb[i]);
	}
	/* p is on the stack: a later call would be caught by KASAN */
}

/*
 * A module other than the counter's that registers callbacks on it: a
 * stand-in, never loaded, so that the suite can play both modules.
 */
static struct module other_module = { .name = "perfkmod_other" };

/*
 * A handle another module holds on a released counter stays valid: its
 * statistics are final, it is never called again, and its owner still
 * unregisters it.
 */
static void foreign_handle_outlives_counter(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
	};
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;
	struct probe p = {};
	int calls;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	p.counter = c;
	cb = __perfkmod_callback_register(c, probe_fn, &p,
					  PERFKMOD_DELIVER_PROCESS,
					  &other_module);
	if (IS_ERR(cb)) {
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "register: %pe", cb);
		return;
	}
	wait_calls(test, &p, 5);
	perfkmod_counter_release(c);
	calls = atomic_read(&p.calls);
	KUNIT_EXPECT_GE(test, calls, 5);
	perfkmod_callback_stats(cb, &st);
	KUNIT_EXPECT_EQ(test, st.runs, calls);
	KUNIT_EXPECT_EQ(test, st.runs + st.dropped, st.overflows);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.calls), calls);
	perfkmod_callback_unregister(cb);
	/* nothing left for perfkmod to end when that module goes */
	KUNIT_EXPECT_EQ(test, perfkmod_callbacks_release_owner(&other_module), 0);
}

/* A slow process-context callback that notes calls after a release. */
struct slow_probe {
	atomic_t calls;
	atomic_t late;
	atomic_t released;
};

static void slow_probe_fn(const struct perfkmod_sample *s,
			  struct pt_regs *regs, void *context)
{
	struct slow_probe *p = context;

	atomic_inc(&p->calls);
	usleep_range(5000, 6000);
	if (atomic_read(&p->released))
		atomic_inc(&p->late);
}

struct unregister_race {
	struct perfkmod_callback *cb;
	struct completion go;
};

static int unregister_thread(void *data)
{
	struct unregister_race *r = data;

	complete(&r->go);
	perfkmod_callback_unregister(r->cb);
	return 0;
}

/*
 * The other module unregisters its callback, whose deferred samples are
 * still being delivered, while the counter's module releases the counter:
 * the release waits for that delivery too (it uses the counter). No call
 * after the release returned.
 */
static void unregister_races_release(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
	};
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
	struct unregister_race r;
	struct slow_probe p = {};
	struct task_struct *t;

	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	r.cb = __perfkmod_callback_register(c, slow_probe_fn, &p,
					    PERFKMOD_DELIVER_PROCESS,
					    &other_module);
	if (IS_ERR(r.cb)) {
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "register: %pe", r.cb);
		return;
	}
	/* samples pile up in the ring faster than the callback takes them */
	test_await(30, atomic_read(&p.calls) >= 2);
	init_completion(&r.go);
	t = kthread_run(unregister_thread, &r, "perfkmod-unregister");
	if (IS_ERR(t)) {
		perfkmod_callback_unregister(r.cb);
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "kthread_run: %pe", t);
		return;
	}
	get_task_struct(t);
	wait_for_completion(&r.go);
	/* the unregister is detaching, or waiting for its grace period */
	usleep_range(2000, 3000);
	perfkmod_counter_release(c);
	atomic_set(&p.released, 1);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_GE_MSG(test, atomic_read(&p.calls), 2, "calls in 30 s");
	KUNIT_EXPECT_EQ(test, atomic_read(&p.late), 0);
}

struct owner_race {
	struct completion go;
	int ended;
};

static int owner_gone(void *data)
{
	struct owner_race *r = data;

	wait_for_completion(&r->go);
	r->ended = perfkmod_callbacks_release_owner(&other_module);
	return 0;
}

#define OWNER_RACE_CYCLES	200

/*
 * The other module goes away (perfkmod ends its handles) while the
 * counter's module releases the counter, 200 times: each handle is ended
 * once, whichever comes first.
 */
static void owner_gone_races_release(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
	};
	struct perfkmod_counter *c;
	struct perfkmod_callback *cb;
	struct task_struct *t;
	struct owner_race r;
	struct probe p = {};
	int i, once = 0;

	for (i = 0; i < OWNER_RACE_CYCLES; i++) {
		c = perfkmod_counter_create(&cfg);
		KUNIT_ASSERT_FALSE(test, IS_ERR(c));
		cb = __perfkmod_callback_register(c, probe_fn, &p, i % 3,
						  &other_module);
		if (IS_ERR(cb)) {
			perfkmod_counter_release(c);
			KUNIT_FAIL(test, "register: %pe", cb);
			return;
		}
		init_completion(&r.go);
		r.ended = -1;
		t = kthread_run(owner_gone, &r, "perfkmod-owner-gone");
		if (IS_ERR(t)) {
			perfkmod_callback_unregister(cb);
			perfkmod_counter_release(c);
			KUNIT_FAIL(test, "kthread_run: %pe", t);
			return;
		}
		get_task_struct(t);
		complete(&r.go);
		perfkmod_counter_release(c);
		kthread_stop(t);
		put_task_struct(t);
		once += r.ended == 1;
	}
	KUNIT_EXPECT_EQ(test, once, OWNER_RACE_CYCLES);
	KUNIT_EXPECT_EQ(test, perfkmod_callbacks_release_owner(&other_module), 0);
}

/*
 * An overflow perf is still delivering when the counter is released: on
 * kernels where the removal of an event can land inside its overflow
 * handler, perf's RCU-freed event outlives perfkmod_counter_release(),
 * and the trampoline reads the counter. So the release must wait for an
 * RCU grace period before freeing it. Played by a thread that holds an
 * RCU read-side section across the release (as perf's overflow path is
 * one) and calls the trampoline on the released event once the release
 * is in synchronize_rcu(), or has returned (then KASAN sees the counter
 * freed under it).
 */
struct inflight {
	struct perf_event *event;
	struct task_struct *releaser;
	atomic_t waiting;	/* the release is in synchronize_rcu() */
	atomic_t returned;	/* perfkmod_counter_release() returned */
	bool returned_first;
	struct completion reading;
	struct completion done;
};

static struct inflight *inflight_now;

static int inflight_sync_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct inflight *f = READ_ONCE(inflight_now);

	/* the event is RCU-freed and the reader holds RCU: still there */
	if (f && current == f->releaser &&
	    READ_ONCE(f->event->state) == PERF_EVENT_STATE_DEAD)
		atomic_set(&f->waiting, 1);
	return 0;
}

static int inflight_reader(void *data)
{
	struct inflight *f = data;
	struct perf_sample_data sd;
	ktime_t end = ktime_add_ms(ktime_get(), 10000);

	perf_sample_data_init(&sd, 0, 0);
	rcu_read_lock();
	complete(&f->reading);
	while (!atomic_read(&f->waiting) && !atomic_read(&f->returned) &&
	       ktime_before(ktime_get(), end))
		cpu_relax();
	f->returned_first = atomic_read(&f->returned);
	perfkmod_overflow(f->event, &sd, NULL);
	rcu_read_unlock();
	complete(&f->done);
	return 0;
}

static void release_waits_for_overflow(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.sample_period = NSEC_PER_SEC,
	};
	struct kprobe kp = {
		.symbol_name = "synchronize_rcu",
		.pre_handler = inflight_sync_pre,
	};
	struct perfkmod_counter *c;
	struct task_struct *t;
	struct inflight f = {};
	int err;

	init_completion(&f.reading);
	init_completion(&f.done);
	f.releaser = current;
	c = perfkmod_counter_create(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	f.event = c->event;
	WRITE_ONCE(inflight_now, &f);
	err = register_kprobe(&kp);
	if (err) {
		WRITE_ONCE(inflight_now, NULL);
		perfkmod_counter_release(c);
		kunit_skip(test, "no kprobe on synchronize_rcu: %d", err);
	}
	t = kthread_run(inflight_reader, &f, "perfkmod-inflight");
	if (IS_ERR(t)) {
		unregister_kprobe(&kp);
		WRITE_ONCE(inflight_now, NULL);
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "kthread_run: %pe", t);
		return;
	}
	wait_for_completion(&f.reading);
	perfkmod_counter_release(c);
	atomic_set(&f.returned, 1);
	wait_for_completion(&f.done);
	unregister_kprobe(&kp);
	WRITE_ONCE(inflight_now, NULL);
	KUNIT_EXPECT_FALSE_MSG(test, f.returned_first,
			       "perfkmod_counter_release() returned while an overflow was under way");
	KUNIT_EXPECT_EQ(test, atomic_read(&f.waiting), 1);
}

#define RACE_MAGIC	0x5eedf00d
#define RACE_POISON	0xdeadbeef
#define RACE_THREADS	8
/* each unregister waits for a grace period: about 10 ms under TCG */
#define RACE_CYCLES	2400
static_assert(RACE_CYCLES % RACE_THREADS == 0);

struct race_ctx {
	u32 magic;
	atomic_t *late;
	atomic_t *calls;
};

struct race {
	struct perfkmod_counter *counters[2];
	atomic_t late;
	atomic_t calls;
	atomic_t cycles;
	atomic_t done;
};

static void race_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		    void *context)
{
	struct race_ctx *ctx = context;

	if (READ_ONCE(ctx->magic) != RACE_MAGIC)
		atomic_inc(ctx->late);
	atomic_inc(ctx->calls);
}

static void wait_for_stop(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
}

static int race_writer(void *unused)
{
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		WRITE_ONCE(bp_target, i++);
		if (!(i % 64))
			cond_resched();
	}
	return 0;
}

/* One racer: register, maybe let it run, unregister, poison, free. */
static int race_thread(void *data)
{
	struct race *r = data;
	struct perfkmod_callback *cb;
	struct race_ctx *ctx;
	int i;

	for (i = 0; i < RACE_CYCLES / RACE_THREADS; i++) {
		ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			break;
		ctx->magic = RACE_MAGIC;
		ctx->late = &r->late;
		ctx->calls = &r->calls;
		cb = perfkmod_callback_register(r->counters[i % 2], race_fn, ctx,
						i % 3);
		if (IS_ERR(cb)) {
			kfree(ctx);
			break;
		}
		if (!(i % 16))
			usleep_range(100, 200);
		/*
		 * The first cycle, a direct callback of the clock, lasts until
		 * a callback ran: the race has overflows to race with.
		 */
		if (!i)
			test_await(30, atomic_read(&r->calls));
		perfkmod_callback_unregister(cb);
		WRITE_ONCE(ctx->magic, RACE_POISON);
		kfree(ctx);
		atomic_inc(&r->cycles);
	}
	atomic_inc(&r->done);
	wait_for_stop();
	return 0;
}

/*
 * 2,400 register/unregister cycles from 8 threads at once, all three
 * delivery modes, while an all-CPUs cpu-clock counter overflows at perf's
 * 10 us floor and an all-CPUs breakpoint fires on every write of a busy
 * thread. A callback that ran after its unregister returned would find its
 * context poisoned (and freed: KASAN would report it).
 */
static void register_unregister_race(struct kunit *test)
{
	struct perfkmod_config clock = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 10000,
	};
	struct perfkmod_config bp = {
		.type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&bp_target,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W,
		.sample_period = 1,
	};
	struct task_struct *threads[RACE_THREADS], *writer;
	struct race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	int i, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->counters[0] = test_create(test, &clock);
	if (IS_ENABLED(CONFIG_ARM64))	/* cannot sample breakpoints */
		r->counters[1] = test_create(test, &clock);
	else
		r->counters[1] = test_create(test, &bp);
	writer = kthread_run(race_writer, NULL, "perfkmod-writer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(writer));
	for (; n < RACE_THREADS; n++) {
		threads[n] = kthread_run(race_thread, r, "perfkmod-race/%d", n);
		if (IS_ERR(threads[n]))
			break;
	}
	while (atomic_read(&r->done) < n)
		msleep(20);
	for (i = 0; i < n; i++)
		kthread_stop(threads[i]);
	kthread_stop(writer);

	KUNIT_EXPECT_EQ(test, n, RACE_THREADS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->cycles), RACE_CYCLES);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->late), 0);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&r->calls), 0, "no call in 30 s");
	kunit_info(test, "%d cycles, %d callback calls", atomic_read(&r->cycles),
		   atomic_read(&r->calls));
}

#ifdef CONFIG_X86
/*
 * The dispatch path in a real NMI: 100 NMIs sent to this CPU through the
 * local APIC, each running the trampoline as perf would, with lockdep and
 * KASAN watching. Direct callbacks see in_nmi(); deferred ones run later,
 * outside NMI, once each.
 */
static void x86_real_nmi(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
		.target = PERFKMOD_TARGET_CPU,
	};
	struct probe direct = {}, deferred = {};
	struct perfkmod_counter *c;
	struct perf_event *event;
	int i, err = 0;

	cfg.cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cfg.cpu)), 0);
	c = test_create(test, &cfg);
	/* the perf event of this CPU, which the NMI handler passes to perf */
	event = perfkmod_cpu_share(c, cfg.cpu)->event;
	KUNIT_ASSERT_NOT_NULL(test, event);
	direct.counter = c;
	deferred.counter = c;
	reg(test, c, probe_fn, &direct, PERFKMOD_DELIVER_DIRECT);
	reg(test, c, probe_fn, &deferred, PERFKMOD_DELIVER_IRQ);
	for (i = 0; i < 100; i++) {
		err = test_overflow_in_nmi(event);
		if (err)
			break;
	}
	KUNIT_EXPECT_EQ(test, err, 0);
	wait_calls(test, &deferred, 100);

	KUNIT_EXPECT_EQ(test, i, 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&direct.calls), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&direct.in_nmi), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&deferred.calls), 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&deferred.in_nmi), 0);
}
#else
static void x86_real_nmi(struct kunit *test)
{
	kunit_skip(test, "x86 only: the arm64 lane runs pmu_nmi_callbacks instead");
}
#endif

/*
 * The real PMU NMI (arm64-pmu lane): a cycles counter overflowing, two
 * direct callbacks called in NMI every time, a deferred one outside NMI,
 * each as many times as the counter overflowed.
 */
static void pmu_nmi_callbacks(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000000,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.disabled = true,	/* every callback sees every overflow */
	};
	struct probe d1 = {}, d2 = {}, def = {};
	struct perfkmod_counter *c;
	struct perfkmod_stats st;

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		test_no_pmu(test, c);
		return;
	}
	test_release_at_end(test, c);
	d1.counter = c;
	d2.counter = c;
	def.counter = c;
	reg(test, c, probe_fn, &d1, PERFKMOD_DELIVER_DIRECT);
	reg(test, c, probe_fn, &d2, PERFKMOD_DELIVER_DIRECT);
	reg(test, c, probe_fn, &def, PERFKMOD_DELIVER_IRQ);
	perfkmod_counter_enable(c);

	busy_ms(300);
	/* busy: the task's cycles count only while it runs */
	test_await_busy(30, atomic_read(&d1.calls) >= 20);
	perfkmod_counter_disable(c);
	perfkmod_counter_stats(c, &st);
	wait_calls(test, &def, st.overflows - st.dropped);

	KUNIT_EXPECT_GE_MSG(test, st.overflows, 20, "overflows in 30 s");
	KUNIT_EXPECT_EQ(test, atomic_read(&d1.calls), st.overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&d2.calls), st.overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&d1.in_nmi), st.overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&d2.in_nmi), st.overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&def.calls) + st.dropped, st.overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&def.in_nmi), 0);
	kunit_info(test, "%llu overflows in NMI, %llu throttled, %llu dropped",
		   st.overflows, st.throttled, st.dropped);
}

/* The times @c was throttled so far. */
static u64 throttled(struct perfkmod_counter *c)
{
	struct perfkmod_stats st;

	perfkmod_counter_stats(c, &st);
	return st.throttled;
}

/* Overflowing far faster than perf allows: the throttling is counted. */
static void pmu_throttle_counted(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 10000,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
	};
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
	struct perfkmod_stats st;

	if (IS_ERR(c)) {
		test_no_pmu(test, c);
		return;
	}
	busy_ms(300);
	/* busy: the task's cycles count only while it runs */
	test_await_busy(30, throttled(c) > 0);
	perfkmod_counter_stats(c, &st);
	perfkmod_counter_release(c);
	KUNIT_EXPECT_GT_MSG(test, st.throttled, 0, "no throttling in 30 s");
	kunit_info(test, "%llu overflows, throttled %llu times", st.overflows,
		   st.throttled);
}

static struct kunit_case perfkmod_overflow_cases[] = {
	KUNIT_CASE(x86_real_nmi),
	KUNIT_CASE(pmu_nmi_callbacks),
	KUNIT_CASE(pmu_throttle_counted),
	KUNIT_CASE(breakpoint_exact_overflows),
	KUNIT_CASE(ring_full_drops),
	KUNIT_CASE(sample_fields),
	KUNIT_CASE(burst_not_dropped),
	KUNIT_CASE(slow_process_consumer),
	KUNIT_CASE(irq_callback_feeds_breakpoint),
	KUNIT_CASE_SLOW(irq_callback_feeds_idle_cpu),
	KUNIT_CASE_SLOW(irq_callback_feeds_tracepoint),
	KUNIT_CASE(process_callback_slower_than_counter),
	KUNIT_CASE(stop_from_callback),
	KUNIT_CASE(limit_from_callback),
	KUNIT_CASE(limit_by_old_name),
	KUNIT_CASE(register_errors),
	KUNIT_CASE(release_with_callbacks),
	KUNIT_CASE(foreign_handle_outlives_counter),
	KUNIT_CASE_SLOW(owner_gone_races_release),
	KUNIT_CASE(unregister_races_release),
	KUNIT_CASE(release_waits_for_overflow),
	KUNIT_CASE_SLOW(register_unregister_race),
	{}
};

static struct kunit_suite perfkmod_overflow_suite = {
	.name = "perfkmod_overflow",
	.test_cases = perfkmod_overflow_cases,
};

kunit_test_suites(&perfkmod_overflow_suite);
