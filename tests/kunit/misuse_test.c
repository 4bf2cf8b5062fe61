// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: calls perfkmod's API forbids or must survive, each made on
 * purpose: perfkmod says so (a warning naming the rule, an error) or does
 * what its kernel-doc promises, and the kernel goes on.
 *
 * - A function that may sleep, called from a direct or an IRQ callback,
 *   warns and refuses (-EDEADLK, or nothing for a void function); the
 *   callback stays registered. So does one that may wait for an RCU grace
 *   period, called inside rcu_read_lock().
 * - A process-context callback may unregister itself, unregister another
 *   callback that unregisters it, or release its own counter: each call
 *   returns, and the callback is not called again.
 *
 * Each case announces the warnings it causes ("PERFKMOD-EXPECT-WARN
 * TEXT"): scripts/judge.py expects them, and fails the lane on any other
 * and on an announced one that never comes. A warning is printed once per
 * function and boot.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

#include "internal.h"
#include "test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Announce that @fn() is due to warn that it may sleep. */
#define expect_sleep_warn(test, fn)					\
	kunit_info(test, "PERFKMOD-EXPECT-WARN perfkmod: %s() may sleep", fn)

/*
 * A cpu-clock counter on this CPU, the case's thread pinned to it, or on
 * every CPU (@all).
 */
static struct perfkmod_counter *__clock_counter(struct kunit *test,
						bool release_at_end, bool all)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,	/* 1 ms */
		.target = all ? PERFKMOD_TARGET_ALL_CPUS : PERFKMOD_TARGET_CPU,
		.cpu = all ? 0 : raw_smp_processor_id(),
	};
	struct perfkmod_counter *c;

	if (!all)
		KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cfg.cpu)), 0);
	if (release_at_end)
		return test_create(test, &cfg);
	c = perfkmod_counter_create(&cfg);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "perfkmod_counter_create: %pe", c);
	return c;
}

static struct perfkmod_counter *clock_counter(struct kunit *test,
					      bool release_at_end)
{
	return __clock_counter(test, release_at_end, false);
}

/* What a callback of these cases records, and does at its first call. */
struct misuse {
	struct perfkmod_counter *counter;
	struct perfkmod_callback *self;
	struct perfkmod_callback *other;	/* to unregister */
	struct completion *started;		/* completed at the first call */
	struct completion *partner;		/* awaited at the first call */
	struct completion *go;			/* @other set: awaited next */
	atomic_t calls;
	bool done;				/* the first call's misuse returned */
	/* the refused calls' answers (atomic callbacks) */
	int read_cpu, set_period, refresh, series_read;
	void *create, *reg;
	bool still_registered;
};

/* The first call of each case's callback: everything perfkmod refuses. */
static void refused_calls(struct misuse *m)
{
	struct perfkmod_config cfg = m->counter->config;
	struct perfkmod_value val = { .value = 1 };

	perfkmod_callback_unregister(m->self);
	perfkmod_counter_release(m->counter);
	perfkmod_counter_disable(m->counter);
	perfkmod_counter_read(m->counter, &val);
	m->read_cpu = perfkmod_counter_read_cpu(m->counter, 0, &val) ?:
		      (val.value ? 1 : 0);
	m->set_period = perfkmod_counter_set_period(m->counter, 2000000);
	m->refresh = perfkmod_counter_refresh(m->counter, 1);
	m->create = perfkmod_counter_create(&cfg);
	m->reg = perfkmod_callback_register(m->counter, NULL, NULL,
					    PERFKMOD_DELIVER_DIRECT);
}

static void atomic_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		      void *context)
{
	struct misuse *m = context;

	if (atomic_inc_return(&m->calls) != 1)
		return;
	refused_calls(m);
	WRITE_ONCE(m->done, true);
}

/*
 * A direct (hard IRQ for cpu-clock) or IRQ callback calls every function
 * that may sleep: each warns and refuses, and the callback goes on being
 * called, as does its counter.
 */
static void atomic_callback_refused(struct kunit *test,
				    enum perfkmod_delivery delivery)
{
	struct misuse m = { .counter = clock_counter(test, true) };
	static const char * const warned[] = {
		"perfkmod_callback_unregister", "perfkmod_counter_release",
		"perfkmod_counter_disable", "perfkmod_counter_read",
		"perfkmod_counter_read_cpu", "perfkmod_counter_set_period",
		"perfkmod_counter_refresh", "__perfkmod_counter_create",
		"__perfkmod_callback_register",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(warned); i++)
		expect_sleep_warn(test, warned[i]);
	m.self = perfkmod_callback_register(m.counter, atomic_fn, &m, delivery);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m.self));
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, READ_ONCE(m.done)),
			      "no call in 30 s");
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, atomic_read(&m.calls) > 3),
			      "the callback was not called again: %d calls",
			      atomic_read(&m.calls));
	KUNIT_EXPECT_EQ(test, m.read_cpu, -EDEADLK);
	KUNIT_EXPECT_EQ(test, m.set_period, -EDEADLK);
	KUNIT_EXPECT_EQ(test, m.refresh, -EDEADLK);
	KUNIT_EXPECT_PTR_EQ(test, m.create, ERR_PTR(-EDEADLK));
	KUNIT_EXPECT_PTR_EQ(test, m.reg, ERR_PTR(-EDEADLK));
	/* refused, not done: the counter counts, enabled */
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(m.counter),
			PERFKMOD_STATE_ACTIVE);
	KUNIT_EXPECT_GT(test, test_value(m.counter), 0ULL);
	perfkmod_callback_unregister(m.self);
}

/*
 * Inside rcu_read_lock(), the release of an event-driven series (whose
 * trigger's callback goes after a grace period) and the enable of a
 * counter warn and refuse: a grace period would wait for the reader that
 * waits for it. Outside, the series still records and the counter is
 * still off; then both go as usual.
 */
static void rcu_reader_refused(struct kunit *test)
{
	struct perfkmod_counter *trigger = __clock_counter(test, true, true);
	struct perfkmod_config off_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.disabled = true,
	};
	struct perfkmod_counter *off = test_create(test, &off_cfg);
	struct perfkmod_series_config cfg = {
		.counters = &trigger,
		.nr_counters = 1,
		.ring_records = 64,
		.trigger = trigger,
	};
	struct perfkmod_series_record rec;
	struct perfkmod_series *s;
	int cpu;

	/* a reader is seen by its depth, or by the preemption it turns off */
	if (!IS_ENABLED(CONFIG_PREEMPT_RCU) && !IS_ENABLED(CONFIG_PREEMPT_COUNT))
		kunit_skip(test, "rcu_read_lock() leaves no trace in this kernel");
	s = test_series(test, &cfg);
	expect_sleep_warn(test, "perfkmod_series_release");
	expect_sleep_warn(test, "perfkmod_counter_enable");
	rcu_read_lock();
	perfkmod_series_release(s);
	perfkmod_counter_enable(off);
	rcu_read_unlock();

	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(off), PERFKMOD_STATE_OFF);
	/* the records so far taken: then a new one, within 30 s */
	for_each_possible_cpu(cpu)
		while (perfkmod_series_read(s, cpu, &rec, 1) > 0)
			;
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, ({
		bool any = false;

		for_each_online_cpu(cpu)
			any |= perfkmod_series_read(s, cpu, &rec, 1) > 0;
		any; })), "the series made no record after its refused release");
}

static void direct_callback_refused(struct kunit *test)
{
	atomic_callback_refused(test, PERFKMOD_DELIVER_DIRECT);
}

static void irq_callback_refused(struct kunit *test)
{
	atomic_callback_refused(test, PERFKMOD_DELIVER_IRQ);
}

static void unregister_fn(const struct perfkmod_sample *s,
			  struct pt_regs *regs, void *context)
{
	struct misuse *m = context;

	if (atomic_inc_return(&m->calls) != 1)
		return;
	if (m->started)
		complete(m->started);
	/* both callbacks running at once: each unregisters the other */
	if (m->partner &&
	    !wait_for_completion_timeout(m->partner, 30 * HZ))
		return;
	if (m->go && !wait_for_completion_timeout(m->go, 30 * HZ))
		return;
	perfkmod_callback_unregister(READ_ONCE(m->other));
	WRITE_ONCE(m->done, true);
}

/*
 * Once the ends handed on are reaped, @m's callback is called no more
 * over five more overflows of its counter.
 */
static void expect_no_more_calls(struct kunit *test, struct misuse *m)
{
	struct perfkmod_stats st;
	u64 overflows;
	int calls;

	flush_workqueue(perfkmod_reap_wq);
	calls = atomic_read(&m->calls);
	perfkmod_counter_stats(m->counter, &st);
	overflows = st.overflows;
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, ({
		perfkmod_counter_stats(m->counter, &st);
		st.overflows >= overflows + 5; })),
		"%llu overflows in 30 s", st.overflows - overflows);
	KUNIT_EXPECT_EQ(test, atomic_read(&m->calls), calls);
}

/*
 * A process callback unregisters itself at its first call: the call
 * returns rather than waiting for its own work item, which would never
 * end, and the callback is never called again.
 */
static void process_callback_unregisters_itself(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(go);
	struct misuse m = { .counter = clock_counter(test, true), .go = &go };

	m.self = perfkmod_callback_register(m.counter, unregister_fn, &m,
					    PERFKMOD_DELIVER_PROCESS);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m.self));
	WRITE_ONCE(m.other, m.self);
	complete_all(&go);
	KUNIT_ASSERT_TRUE_MSG(test, test_await(30, READ_ONCE(m.done)),
			      "the unregister from the callback did not return in 30 s (%d calls)",
			      atomic_read(&m.calls));
	expect_no_more_calls(test, &m);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.calls), 1);
}

static void unregister_always_fn(const struct perfkmod_sample *s,
				 struct pt_regs *regs, void *context)
{
	struct misuse *m = context;
	struct perfkmod_callback *self = READ_ONCE(m->self);

	/* a call before registration returned its handle: none counted */
	if (!self)
		return;
	atomic_inc(&m->calls);
	perfkmod_callback_unregister(self);
	WRITE_ONCE(m->done, true);
}

/*
 * The same on every CPU: the calls on two CPUs may unregister the callback
 * at once; both return, one of them quietly (the other one's end waits
 * for it), and no call comes after.
 */
static void process_callback_unregisters_itself_on_all_cpus(struct kunit *test)
{
	struct misuse m = { .counter = __clock_counter(test, true, true) };
	struct perfkmod_callback *cb;
	int calls;

	cb = perfkmod_callback_register(m.counter, unregister_always_fn, &m,
					PERFKMOD_DELIVER_PROCESS);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cb));
	WRITE_ONCE(m.self, cb);
	KUNIT_ASSERT_TRUE_MSG(test, test_await(30, READ_ONCE(m.done)),
			      "the unregister from the callback did not return in 30 s (%d calls)",
			      atomic_read(&m.calls));
	expect_no_more_calls(test, &m);
	calls = atomic_read(&m.calls);
	/* a call on each CPU at most: each stops its work item's batch */
	KUNIT_EXPECT_LE(test, calls, (int)num_online_cpus());
}

/*
 * Two process callbacks of one counter, both in their first call, each
 * unregister the other: both return rather than each waiting for the
 * other's work item, and neither is called again.
 */
static void process_callbacks_unregister_each_other(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(a_started);
	DECLARE_COMPLETION_ONSTACK(b_started);
	DECLARE_COMPLETION_ONSTACK(go);
	struct perfkmod_counter *c = clock_counter(test, true);
	struct misuse a = { .counter = c, .started = &a_started,
			    .partner = &b_started, .go = &go };
	struct misuse b = { .counter = c, .started = &b_started,
			    .partner = &a_started, .go = &go };

	/* not unregistered at the end: each other's calls do it */
	a.self = perfkmod_callback_register(c, unregister_fn, &a,
					    PERFKMOD_DELIVER_PROCESS);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a.self));
	b.self = perfkmod_callback_register(c, unregister_fn, &b,
					    PERFKMOD_DELIVER_PROCESS);
	if (IS_ERR(b.self))
		perfkmod_callback_unregister(a.self);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b.self));
	WRITE_ONCE(a.other, b.self);
	WRITE_ONCE(b.other, a.self);
	complete_all(&go);
	KUNIT_ASSERT_TRUE_MSG(test,
			      test_await(60, READ_ONCE(a.done) && READ_ONCE(b.done)),
			      "the unregisters did not both return in 60 s: %d %d",
			      READ_ONCE(a.done), READ_ONCE(b.done));
	expect_no_more_calls(test, &a);
	expect_no_more_calls(test, &b);
}

static void release_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		       void *context)
{
	struct misuse *m = context;

	if (atomic_inc_return(&m->calls) != 1)
		return;
	perfkmod_counter_release(s->counter);
	WRITE_ONCE(m->done, true);
}

/*
 * A process callback releases its own counter at its first call: the
 * release returns rather than waiting for this very call, which would
 * never end; the callback is detached, and its handle stays its owner's.
 */
static void process_callback_releases_its_counter(struct kunit *test)
{
	struct misuse m = { .counter = clock_counter(test, false) };
	struct perfkmod_stats st;

	m.self = perfkmod_callback_register(m.counter, release_fn, &m,
					    PERFKMOD_DELIVER_PROCESS);
	if (IS_ERR(m.self))
		perfkmod_counter_release(m.counter);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m.self));
	KUNIT_ASSERT_TRUE_MSG(test, test_await(30, READ_ONCE(m.done)),
			      "the release from the callback did not return in 30 s (%d calls)",
			      atomic_read(&m.calls));
	/* the counter's release is done once its work is */
	flush_workqueue(perfkmod_reap_wq);
	perfkmod_callback_stats(m.self, &st);
	KUNIT_EXPECT_GE(test, atomic_read(&m.calls), 1);
	KUNIT_EXPECT_EQ(test, st.runs, (u64)atomic_read(&m.calls));
	perfkmod_callback_unregister(m.self);
}

static struct kunit_case perfkmod_misuse_cases[] = {
	KUNIT_CASE(direct_callback_refused),
	KUNIT_CASE(irq_callback_refused),
	KUNIT_CASE(process_callback_unregisters_itself),
	KUNIT_CASE(process_callback_unregisters_itself_on_all_cpus),
	KUNIT_CASE(process_callbacks_unregister_each_other),
	KUNIT_CASE(process_callback_releases_its_counter),
	KUNIT_CASE(rcu_reader_refused),
	{}
};

static struct kunit_suite perfkmod_misuse_suite = {
	.name = "perfkmod_misuse",
	.test_cases = perfkmod_misuse_cases,
};

kunit_test_suites(&perfkmod_misuse_suite);
