// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of lifecycle stress and faults: 2,500 create/release
 * cycles, an allocation failure injected at each allocation of the create
 * and register paths in turn, and CPU hotplug 100 times under counters
 * that are read, created and released meanwhile. That nothing is left
 * behind is checked by kmemleak and by the guest's count of perf_event
 * objects before and after this module (tests/guest/run.sh).
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>

#include "cpu_events.h"
#include "internal.h"
#include "test.h"

#define CHURN_CYCLES		2500
#define HOTPLUG_CYCLES		100

static void count_fn(const struct perfkmod_sample *s, struct pt_regs *regs,
		     void *context)
{
	atomic_inc(context);
}

/*
 * 2,500 create/release cycles over each kind of target: one CPU, a task,
 * all CPUs, and sampling all-CPUs counters, every 25th of those with a
 * direct and a deferred callback still registered at release. Each cycle
 * takes the same paths, which KASAN and kmemleak check every time; the
 * count is for meeting perf's asynchronous work (RCU callbacks, the
 * hotplug work, irq_work) at different points, not for volume.
 */
static void create_release_churn(struct kunit *test)
{
	const struct perfkmod_config cfgs[] = {
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		  .target = PERFKMOD_TARGET_CPU, .cpu = cpumask_first(cpu_online_mask) },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		  .target = PERFKMOD_TARGET_TASK, .task = current },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS },
		{ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		  .sample_period = 20000 },
	};
	struct perfkmod_callback *cb[2] = {};
	struct perfkmod_counter *c;
	struct perfkmod_value v;
	atomic_t calls = ATOMIC_INIT(0);
	ktime_t start = ktime_get();
	int i, fails = 0, callbacks = 0;

	for (i = 0; i < CHURN_CYCLES; i++) {
		c = perfkmod_counter_create(&cfgs[i % ARRAY_SIZE(cfgs)]);
		if (IS_ERR(c)) {
			KUNIT_FAIL(test, "cycle %d: %pe", i, c);
			if (++fails > 10)
				return;
			continue;
		}
		/* a sampling counter: cfgs[3] */
		if (i % 100 == 3) {
			cb[0] = perfkmod_callback_register(c, count_fn, &calls,
							   PERFKMOD_DELIVER_DIRECT);
			KUNIT_EXPECT_FALSE(test, IS_ERR(cb[0]));
			cb[1] = perfkmod_callback_register(c, count_fn, &calls,
							   PERFKMOD_DELIVER_PROCESS);
			KUNIT_EXPECT_FALSE(test, IS_ERR(cb[1]));
			callbacks += 2;
			/* 1 ms, and the first time until a callback ran */
			busy_ms(1);
			if (i == 3)
				test_await_busy(30, atomic_read(&calls));
		}
		if (!(i % 64))
			perfkmod_counter_read(c, &v);
		perfkmod_counter_release(c);
		/* detached by the release, unregistered after it */
		perfkmod_callback_unregister(cb[0]);
		perfkmod_callback_unregister(cb[1]);
		cb[0] = NULL;
		cb[1] = NULL;
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, callbacks, 2 * CHURN_CYCLES / 100);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&calls), 0, "no call in 30 s");
	kunit_info(test, "%d cycles, %d callbacks detached by their counter's release, %d calls, %lld ms",
		   CHURN_CYCLES, callbacks, atomic_read(&calls),
		   ktime_ms_delta(ktime_get(), start));
}

#if IS_ENABLED(CONFIG_FAILSLAB)
/*
 * Run @op with this task's @nth slab allocation failing (the kernel's
 * fail-nth, as /proc/self/fail-nth sets it). Returns the allocations left
 * to go: non-zero when @op made fewer than @nth.
 */
static unsigned int nth_failing(unsigned int nth, void *(*op)(void *), void *arg,
				void **ret)
{
	unsigned int left;

	WRITE_ONCE(current->fail_nth, nth);
	*ret = op(arg);
	left = READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return left;
}

/*
 * Fail each allocation @op makes, one at a time: each failure must come
 * back as -ENOMEM; @undo releases what a successful @op made.
 */
static void fail_each_allocation(struct kunit *test, const char *what,
				 void *(*op)(void *), void (*undo)(void *),
				 void *arg)
{
	unsigned int nth, left, failed = 0;
	void *ret;

	for (nth = 1; nth < 1000; nth++) {
		left = nth_failing(nth, op, arg, &ret);
		if (IS_ERR(ret)) {
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(ret), -ENOMEM,
					    "%s with allocation %u failing", what, nth);
			failed++;
			continue;
		}
		undo(ret);
		if (left)
			break;	/* every allocation was made to fail once */
	}
	KUNIT_EXPECT_LT_MSG(test, nth, 1000, "%s: no end to its allocations", what);
	KUNIT_EXPECT_GT_MSG(test, failed, 0,
			    "%s: no failure injected (failslab ignore-gfp-wait must be N)",
			    what);
	kunit_info(test, "%s: %u allocations, %u failures returned -ENOMEM", what,
		   nth - 1, failed);
}

static void *create_op(void *cfg)
{
	return perfkmod_counter_create(cfg);
}

static void release_op(void *c)
{
	perfkmod_counter_release(c);
}

struct register_arg {
	struct perfkmod_counter *counter;
	enum perfkmod_delivery delivery;
	atomic_t calls;
};

static void *register_op(void *data)
{
	struct register_arg *arg = data;

	return perfkmod_callback_register(arg->counter, count_fn, &arg->calls,
					  arg->delivery);
}

static void unregister_op(void *cb)
{
	perfkmod_callback_unregister(cb);
}

static void create_alloc_failures(struct kunit *test)
{
	struct perfkmod_config cpu = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.target = PERFKMOD_TARGET_CPU,
		.cpu = cpumask_first(cpu_online_mask),
	};
	struct perfkmod_config task = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.sample_period = 1000,
	};
	struct perfkmod_config all = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};

	fail_each_allocation(test, "create, one CPU", create_op, release_op, &cpu);
	fail_each_allocation(test, "create, a task, sampling", create_op,
			     release_op, &task);
	fail_each_allocation(test, "create, all CPUs", create_op, release_op, &all);
}

static void register_alloc_failures(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
		.disabled = true,
	};
	struct register_arg arg = {};

	arg.counter = test_create(test, &cfg);
	arg.delivery = PERFKMOD_DELIVER_DIRECT;
	fail_each_allocation(test, "register, direct", register_op,
			     unregister_op, &arg);
	arg.delivery = PERFKMOD_DELIVER_IRQ;
	fail_each_allocation(test, "register, deferred to IRQ", register_op,
			     unregister_op, &arg);
	arg.delivery = PERFKMOD_DELIVER_PROCESS;
	fail_each_allocation(test, "register, deferred to process", register_op,
			     unregister_op, &arg);
}
#else
static void create_alloc_failures(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB");
}

static void register_alloc_failures(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB");
}
#endif

struct hotplug_churn {
	int cpu;
	int created;
	int errors;
	int last_error;
};

/* Create, read and release counters while CPU hotplug goes on. */
static int hotplug_creator(void *data)
{
	struct perfkmod_config all = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 50000,
	};
	struct perfkmod_config one = all;
	struct hotplug_churn *h = data;
	struct perfkmod_counter *c;
	struct perfkmod_value v;

	one.target = PERFKMOD_TARGET_CPU;
	one.cpu = h->cpu;
	while (!kthread_should_stop()) {
		/*
		 * cpu-clock, and page-faults, whose events flip a static key
		 * (cpus_read_lock() on JUMP_LABEL kernels) when they come or go
		 */
		all.config = all.config == PERF_COUNT_SW_CPU_CLOCK ?
			     PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CPU_CLOCK;
		one.config = all.config;
		c = perfkmod_counter_create(&all);
		if (IS_ERR(c)) {
			h->errors++;
			h->last_error = PTR_ERR(c);
		} else {
			h->created++;
			perfkmod_counter_read(c, &v);
			perfkmod_counter_release(c);
		}
		/* an offline CPU is -ENODEV, as perf says */
		c = perfkmod_counter_create(&one);
		if (IS_ERR(c) && PTR_ERR(c) != -ENODEV) {
			h->errors++;
			h->last_error = PTR_ERR(c);
		} else if (!IS_ERR(c)) {
			h->created++;
			perfkmod_counter_release(c);
		}
		cond_resched();
	}
	return 0;
}

/*
 * CPU 1 offline and online 100 times under an all-CPUs counter, a counter
 * of CPU 1 and an all-CPUs page-faults counter (a static key's event),
 * while another thread creates and releases counters:
 * no deadlock, no error but -ENODEV for the offline CPU, the all-CPUs
 * value never goes back, and both counters count on CPU 1 once it is back.
 */
static void hotplug_churn(struct kunit *test)
{
	struct perfkmod_config all = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct perfkmod_config one = all, faults = all;
	struct hotplug_churn h = { .cpu = 1 };
	struct perfkmod_counter *c, *c1, *pf;
	struct perfkmod_value v, cpu_v;
	struct task_struct *creator;
	u64 last = 0, back, last_pf = 0;
	int i, err = 0;

	if (num_online_cpus() < 2 || !cpu_online(h.cpu))
		kunit_skip(test, "needs CPU 1 online");
	one.target = PERFKMOD_TARGET_CPU;
	one.cpu = h.cpu;
	c = test_create(test, &all);
	c1 = test_create(test, &one);
	faults.config = PERF_COUNT_SW_PAGE_FAULTS;
	pf = test_create(test, &faults);
	creator = kthread_run(hotplug_creator, &h, "perfkmod-hp-creator");
	KUNIT_ASSERT_FALSE(test, IS_ERR(creator));

	for (i = 0; i < HOTPLUG_CYCLES && !err; i++) {
		err = remove_cpu(h.cpu);
		perfkmod_counter_read(c, &v);
		KUNIT_EXPECT_GE(test, v.value, last);
		last = v.value;
		perfkmod_counter_read(c1, &v);
		if (!err)
			err = add_cpu(h.cpu);
		perfkmod_counter_read(c, &v);
		KUNIT_EXPECT_GE(test, v.value, last);
		last = v.value;
		perfkmod_counter_read(pf, &v);
		KUNIT_EXPECT_GE(test, v.value, last_pf);
		last_pf = v.value;
	}
	kthread_stop(creator);
	/* the events of CPU 1's last return are made by a work */
	perfkmod_cpu_events_flush(c);
	perfkmod_cpu_events_flush(c1);
	perfkmod_cpu_events_flush(pf);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(pf), PERFKMOD_STATE_ACTIVE);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "hotplug at cycle %d", i);
	KUNIT_EXPECT_EQ(test, i, HOTPLUG_CYCLES);
	KUNIT_EXPECT_EQ_MSG(test, h.errors, 0, "last error %d", h.last_error);
	KUNIT_EXPECT_GT(test, h.created, 0);

	KUNIT_EXPECT_EQ(test, perfkmod_counter_read_cpu(c, h.cpu, &cpu_v), 0);
	perfkmod_counter_read(c1, &v);
	back = v.value;
	msleep(20);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_read_cpu(c, h.cpu, &v), 0);
	KUNIT_EXPECT_GT_MSG(test, v.value, cpu_v.value, "CPU %d does not count", h.cpu);
	/* the one-CPU counter too: perfkmod made its event anew each time */
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c1), PERFKMOD_STATE_ACTIVE);
	perfkmod_counter_read(c1, &v);
	KUNIT_EXPECT_GT_MSG(test, v.value, back, "the counter of CPU %d stopped", h.cpu);
	kunit_info(test, "%d cycles, %d counters created meanwhile; CPU %d counted %llu ns",
		   i, h.created, h.cpu, v.value);
}

static struct kunit_case perfkmod_stress_cases[] = {
	KUNIT_CASE_SLOW(create_release_churn),
	KUNIT_CASE(create_alloc_failures),
	KUNIT_CASE(register_alloc_failures),
	KUNIT_CASE_SLOW(hotplug_churn),
	{}
};

static struct kunit_suite perfkmod_stress_suite = {
	.name = "perfkmod_stress",
	.test_cases = perfkmod_stress_cases,
};

kunit_test_suites(&perfkmod_stress_suite);
