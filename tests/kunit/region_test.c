// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for regions (perfkmod_region.h): a region's calls and sums
 * exact under a write breakpoint that counts each store to a variable of
 * the suite's; nested calls, and the same region's call from a hard
 * interrupt and an NMI of its own call's CPU, counted inclusively; calls
 * that end on another CPU or across a CPU's hotplug; a region off, reset,
 * read per CPU, and stopped by its counter's release; function regions on
 * functions of this module (calls, recursion, one call followed at a
 * time, a call that sleeps and moves); what create refuses; the notifier; and the regions a module
 * leaves behind.
 *
 * What "correct" is for nested calls: a call's value is what its counters
 * counted on its CPU (or in its task) from its begin to its end, whatever
 * ran in between included: a call of another region inside it, or a call
 * of the same region made by an interrupt or an NMI of that CPU. Each
 * call, inner or outer, is counted once, at its end, into the figures of
 * the CPU it ends on.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hw_breakpoint.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "cpu_events.h"
#include "internal.h"
#include "region.h"
#include "test.h"

/* Each store to it is one count of a write breakpoint on it. */
static int bp_target;

/*
 * @n stores to bp_target, interrupts off: on arm64 an interrupt taken
 * while the watchpoint handler single-steps a store makes it trigger
 * again (see breakpoint_counts_exactly() in counter_test.c).
 */
static noinline void write_target(unsigned int n)
{
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	for (i = 0; i < n; i++)
		WRITE_ONCE(bp_target, i);
	local_irq_restore(flags);
}

/* The markers the cases measure at; a case releases its regions. */
static DEFINE_PERFKMOD_MARKER(marker_a);
static DEFINE_PERFKMOD_MARKER(marker_b);
/* module_gone_marker's: its static key may stay on */
static DEFINE_PERFKMOD_MARKER(marker_gone);

/* A write breakpoint on bp_target: of all CPUs, or of @task. */
static struct perfkmod_config bp_config(struct task_struct *task)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&bp_target,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W,
	};

	if (task) {
		cfg.target = PERFKMOD_TARGET_TASK;
		cfg.task = task;
	}
	return cfg;
}

static struct perfkmod_counter *bp_all_cpus(struct kunit *test)
{
	struct perfkmod_config cfg = bp_config(NULL);

	return test_create(test, &cfg);
}

KUNIT_DEFINE_ACTION_WRAPPER(region_release_action, perfkmod_region_release,
			    struct perfkmod_region *);

/* Create a region of @cfg released when the case ends, or fail the case. */
static struct perfkmod_region *
new_region(struct kunit *test, struct perfkmod_region_config *cfg)
{
	struct perfkmod_region *r = perfkmod_region_create(cfg);
	int err;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r), "perfkmod_region_create(%s): %pe",
			       cfg->name, r);
	err = kunit_add_action_or_reset(test, region_release_action, r);
	KUNIT_ASSERT_EQ(test, err, 0);
	return r;
}

/* A region at @marker over @c alone, released when the case ends. */
static struct perfkmod_region *
marker_region(struct kunit *test, const char *name,
	      struct perfkmod_marker *marker, struct perfkmod_counter **c)
{
	struct perfkmod_region_config cfg = {
		.name = name,
		.counters = c,
		.nr_counters = 1,
		.marker = marker,
	};

	return new_region(test, &cfg);
}

/*
 * One call at @marker of @n writes; true when it began. Inlined: a
 * marker's begin and end patch a branch at their call site, so @marker
 * must be a constant there, as a static key must.
 */
static __always_inline bool marker_call(struct perfkmod_marker *marker, unsigned int n)
{
	struct perfkmod_region_call call;
	bool began;

	perfkmod_region_begin(marker, &call);
	began = call.region;
	write_target(n);
	perfkmod_region_end(marker, &call);
	return began;
}

static struct perfkmod_region_stats *read_stats(struct kunit *test,
						struct perfkmod_region *r,
						int cpu)
{
	struct perfkmod_region_stats *st = kunit_kzalloc(test, sizeof(*st),
							 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_EQ(test, perfkmod_region_read(r, cpu, st), 0);
	return st;
}

/* Nothing counted: no call, nothing lost or migrated, every figure 0. */
static void expect_empty(struct kunit *test, struct perfkmod_region_stats *st)
{
	struct perfkmod_region_stats zero = {};

	KUNIT_EXPECT_EQ(test, st->calls, 0);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, st->sum[0], 0);
	KUNIT_EXPECT_EQ(test, st->min, 0);
	KUNIT_EXPECT_EQ(test, st->max, 0);
	KUNIT_EXPECT_EQ(test, memcmp(st->hist, zero.hist, sizeof(zero.hist)), 0);
}

/* @calls calls of @n writes each, all folded in, nothing else. */
static void expect_exact(struct kunit *test, struct perfkmod_region_stats *st,
			 u64 calls, u64 n)
{
	KUNIT_EXPECT_EQ(test, st->calls, calls);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, st->missed, 0);
	KUNIT_EXPECT_EQ(test, st->sum[0], n * calls);
	KUNIT_EXPECT_EQ(test, st->min, n);
	KUNIT_EXPECT_EQ(test, st->max, n);
	KUNIT_EXPECT_EQ(test, st->hist[fls64(n)], calls);
}

/* The sum of @st's histogram: each call is in one bucket. */
static u64 hist_calls(const struct perfkmod_region_stats *st)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < PERFKMOD_REGION_HIST_BUCKETS; i++)
		sum += st->hist[i];
	return sum;
}

#define EXACT_N	12	/* writes a call */
#define EXACT_M	50	/* calls */

/*
 * A region of an all-CPUs breakpoint counter around M calls of N writes,
 * preemption off: M calls, N*M in all, each call N, in bucket fls64(N),
 * and the counter itself agrees.
 */
static void exact_all_cpus(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-exact", &marker_a, &c);
	struct perfkmod_region_stats *st;
	int i, began = 0;

	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(r));
	for (i = 0; i < EXACT_M; i++) {
		preempt_disable();
		began += marker_call(&marker_a, EXACT_N);
		preempt_enable();
	}
	KUNIT_EXPECT_EQ(test, began, EXACT_M);
	st = read_stats(test, r, -1);
	expect_exact(test, st, EXACT_M, EXACT_N);
	KUNIT_EXPECT_EQ(test, hist_calls(st), EXACT_M);
	KUNIT_EXPECT_EQ(test, test_value(c), EXACT_N * EXACT_M);
}

/* What a call made by another task saw */
struct other_call {
	struct work_struct work;
	bool began;
};

static void other_call_fn(struct work_struct *work)
{
	struct other_call *oc = container_of(work, struct other_call, work);

	oc->began = marker_call(&marker_a, EXACT_N);
}

/*
 * A region of this task's counter (no inherit), preemption on, each call
 * sleeping and, with two CPUs, moving to another CPU in its middle: the
 * counter follows the task, so every call is folded in, exact, and none is
 * migrated. A call made by another task (a kworker) is not begun, and
 * counted nowhere. arm64 refuses a task's breakpoint on a kernel address:
 * there the counter is the task's context switches, of which each call
 * makes at least one a sleep.
 */
static void exact_task(struct kunit *test)
{
	struct perfkmod_config cfg = bp_config(current);
	struct perfkmod_region *r;
	struct perfkmod_region_stats *st;
	struct perfkmod_counter *c;
	struct other_call oc = {};
	bool bp = true;
	int i, began = 0, cpu, other, err = 0;

	c = perfkmod_counter_create(&cfg);
	if (IS_ENABLED(CONFIG_ARM64) && PTR_ERR_OR_ZERO(c) == -EINVAL) {
		cfg = (struct perfkmod_config){
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
			.target = PERFKMOD_TARGET_TASK,
			.task = current,
		};
		bp = false;
		c = perfkmod_counter_create(&cfg);
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "task counter: %pe", c);
	test_release_at_end(test, c);
	r = marker_region(test, "kunit-task", &marker_a, &c);

	for (i = 0; i < EXACT_M; i++) {
		struct perfkmod_region_call call;

		perfkmod_region_begin(&marker_a, &call);
		began += !!call.region;
		write_target(EXACT_N / 2);
		cpu = raw_smp_processor_id();
		other = cpumask_any_but(cpu_online_mask, cpu);
		if (i % 2 && other < nr_cpu_ids)
			err = set_cpus_allowed_ptr(current, cpumask_of(other));
		KUNIT_EXPECT_EQ(test, err, 0);
		schedule_timeout_uninterruptible(1);
		write_target(EXACT_N - EXACT_N / 2);
		perfkmod_region_end(&marker_a, &call);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, began, EXACT_M);
	st = read_stats(test, r, -1);
	if (bp) {
		expect_exact(test, st, EXACT_M, EXACT_N);
	} else {
		KUNIT_EXPECT_EQ(test, st->calls, EXACT_M);
		KUNIT_EXPECT_EQ(test, st->lost, 0);
		KUNIT_EXPECT_EQ(test, st->migrated, 0);
		KUNIT_EXPECT_GE(test, st->min, 1);
		KUNIT_EXPECT_GE(test, st->sum[0], EXACT_M);
		KUNIT_EXPECT_LE(test, st->sum[0], test_value(c));
	}

	INIT_WORK_ONSTACK(&oc.work, other_call_fn);
	schedule_work(&oc.work);
	flush_work(&oc.work);
	destroy_work_on_stack(&oc.work);
	KUNIT_EXPECT_FALSE_MSG(test, oc.began, "another task's call began");
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, EXACT_M);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
}

#define OUTER_BEFORE	5
#define INNER_N		3
#define OUTER_AFTER	4

/*
 * Region A's call around region B's (two markers over one counter): B's
 * calls count their own writes, A's calls those around B's and B's.
 */
static void nested_regions(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *a = marker_region(test, "kunit-outer", &marker_a, &c);
	struct perfkmod_region *b = marker_region(test, "kunit-inner", &marker_b, &c);
	struct perfkmod_region_call outer;
	int i;

	for (i = 0; i < EXACT_M; i++) {
		preempt_disable();
		perfkmod_region_begin(&marker_a, &outer);
		write_target(OUTER_BEFORE);
		KUNIT_EXPECT_TRUE(test, marker_call(&marker_b, INNER_N));
		write_target(OUTER_AFTER);
		perfkmod_region_end(&marker_a, &outer);
		preempt_enable();
	}
	expect_exact(test, read_stats(test, b, -1), EXACT_M, INNER_N);
	expect_exact(test, read_stats(test, a, -1), EXACT_M,
		     OUTER_BEFORE + INNER_N + OUTER_AFTER);
}

/* The same region's call from a hard interrupt: an irq_work */
struct irq_call {
	struct irq_work work;
	unsigned int writes;
	int cpu;
	int runs;
	int began;
};

static void irq_call_fn(struct irq_work *work)
{
	struct irq_call *ic = container_of(work, struct irq_call, work);

	/* the task reads them once irq_work_sync() has seen this end */
	WRITE_ONCE(ic->began, ic->began + marker_call(&marker_a, ic->writes));
	WRITE_ONCE(ic->cpu, smp_processor_id());
	WRITE_ONCE(ic->runs, ic->runs + 1);
}

#define IRQ_OUTER	12	/* writes of the outer call: 12 + 3 in bucket 4 */
#define IRQ_INNER	3	/* of the interrupt's: bucket 2 */

/*
 * A call that queues an irq_work on its CPU and waits for it before its
 * end, the irq_work making a call of the same region: two calls each
 * time, the interrupt's of its own writes, the outer one of its writes and
 * the interrupt's. The outer call keeps its CPU with migrate_disable(),
 * as irq_work_sync() may sleep.
 */
static void same_region_from_irq(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-irq", &marker_a, &c);
	struct irq_call *ic = kunit_kzalloc(test, sizeof(*ic), GFP_KERNEL);
	struct perfkmod_region_call outer;
	struct perfkmod_region_stats *st;
	int i, cpu, began = 0;

	KUNIT_ASSERT_NOT_NULL(test, ic);
	ic->work = IRQ_WORK_INIT_HARD(irq_call_fn);
	ic->writes = IRQ_INNER;
	for (i = 0; i < EXACT_M; i++) {
		migrate_disable();
		cpu = smp_processor_id();
		WRITE_ONCE(ic->cpu, -1);
		perfkmod_region_begin(&marker_a, &outer);
		began += !!outer.region;
		write_target(IRQ_OUTER);
		KUNIT_EXPECT_TRUE(test, irq_work_queue(&ic->work));
		irq_work_sync(&ic->work);
		perfkmod_region_end(&marker_a, &outer);
		migrate_enable();
		KUNIT_EXPECT_EQ(test, READ_ONCE(ic->cpu), cpu);
	}
	KUNIT_EXPECT_EQ(test, began, EXACT_M);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ic->runs), EXACT_M);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ic->began), EXACT_M);
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, 2 * EXACT_M);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, st->sum[0],
			EXACT_M * (IRQ_OUTER + IRQ_INNER) + EXACT_M * IRQ_INNER);
	KUNIT_EXPECT_EQ(test, st->min, IRQ_INNER);
	KUNIT_EXPECT_EQ(test, st->max, IRQ_OUTER + IRQ_INNER);
	KUNIT_EXPECT_EQ(test, st->hist[fls64(IRQ_INNER)], EXACT_M);
	KUNIT_EXPECT_EQ(test, st->hist[fls64(IRQ_OUTER + IRQ_INNER)], EXACT_M);
	KUNIT_EXPECT_EQ(test, hist_calls(st), 2 * EXACT_M);
}

/* What the NMIs' calls of a region saw */
struct nmi_calls {
	unsigned int writes;
	atomic_t handled;
	atomic_t in_nmi;
	atomic_t began;
};

static void nmi_call(struct nmi_calls *p)
{
	if (in_nmi())
		atomic_inc(&p->in_nmi);
	if (marker_call(&marker_a, p->writes))
		atomic_inc(&p->began);
	atomic_inc(&p->handled);
}

#ifdef CONFIG_X86
static void self_nmi_fn(void *arg, struct pt_regs *regs)
{
	nmi_call(arg);
}

#define NMIS		20
#define NMI_WRITES	2

/*
 * A call that sends its CPU NMIS NMIs (x86 self-IPIs), each NMI a call of
 * the same region that writes NMI_WRITES times: NMIS + 1 calls, none lost
 * or migrated. x86 turns the hardware breakpoints off for an NMI's length
 * (exc_nmi()'s local_db_save()), so the NMIs' calls count 0 and the
 * outer one exactly its own writes: a call in NMI takes nothing from the
 * call it interrupts. same_region_from_irq and pmu_nmi show the inner
 * calls' counts in the outer.
 */
static void self_nmi(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-nmi", &marker_a, &c);
	struct nmi_calls p = { .writes = NMI_WRITES };
	struct perfkmod_region_call outer;
	struct perfkmod_region_stats *st;
	int i, cpu;

	migrate_disable();
	cpu = smp_processor_id();
	perfkmod_region_begin(&marker_a, &outer);
	write_target(EXACT_N);
	for (i = 0; i < NMIS; i++) {
		if (test_in_nmi(self_nmi_fn, &p))
			break;
	}
	perfkmod_region_end(&marker_a, &outer);
	migrate_enable();
	KUNIT_ASSERT_EQ_MSG(test, i, NMIS, "NMI %d did not come in 30 s", i);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.handled), NMIS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.in_nmi), NMIS);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.began), NMIS);
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, NMIS + 1);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, st->min, 0);
	KUNIT_EXPECT_EQ(test, st->max, EXACT_N);
	KUNIT_EXPECT_EQ(test, st->sum[0], EXACT_N);
	KUNIT_EXPECT_EQ(test, st->hist[0], NMIS);
	KUNIT_EXPECT_EQ(test, st->hist[fls64(EXACT_N)], 1);
	/* all on the one CPU */
	KUNIT_EXPECT_EQ(test, read_stats(test, r, cpu)->calls, NMIS + 1);
	/* the breakpoint saw the writes outside NMI alone */
	KUNIT_EXPECT_EQ(test, test_value(c), EXACT_N);
}
#else
static void self_nmi(struct kunit *test)
{
	kunit_skip(test, "x86 only: a real NMI from a self-IPI; pmu_nmi on arm64");
}
#endif

static void nmi_callback(const struct perfkmod_sample *s,
			 struct pt_regs *regs, void *context)
{
	nmi_call(context);
}

/*
 * The PMU's overflow NMI (the arm64-pmu lane: pseudo-NMIs): a direct
 * callback of a cycles counter of this task makes a call of a region of
 * an all-CPUs cycles counter at each overflow, while the task is in a
 * call of the same region: every overflow's call counted, and the outer
 * one, none lost or migrated. Where there are no cycles (x86 under TCG)
 * self_nmi is the NMI case.
 */
static void pmu_nmi(struct kunit *test)
{
	struct perfkmod_config sampler_cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000000,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.disabled = true,
	};
	struct perfkmod_config cycles_cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	struct nmi_calls *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct perfkmod_counter *sampler, *cycles;
	struct perfkmod_region_call outer;
	struct perfkmod_region_stats *st;
	struct perfkmod_callback *cb;
	struct perfkmod_region *r;
	bool met;

	KUNIT_ASSERT_NOT_NULL(test, p);
	sampler = perfkmod_counter_create(&sampler_cfg);
	if (IS_ERR(sampler)) {
		test_no_pmu(test, sampler);
		return;
	}
	test_release_at_end(test, sampler);
	cycles = test_create(test, &cycles_cfg);
	r = marker_region(test, "kunit-pmu-nmi", &marker_a, &cycles);
	cb = perfkmod_callback_register(sampler, nmi_callback, p,
					PERFKMOD_DELIVER_DIRECT);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "register: %pe", cb);

	migrate_disable();
	perfkmod_region_begin(&marker_a, &outer);
	perfkmod_counter_enable(sampler);
	/* busy: a task's sampler overflows only while the task runs */
	met = test_await_busy(30, atomic_read(&p->handled) >= 10);
	perfkmod_counter_disable(sampler);
	perfkmod_region_end(&marker_a, &outer);
	migrate_enable();
	perfkmod_callback_unregister(cb);

	KUNIT_EXPECT_TRUE_MSG(test, met, "%d overflows in 30 s, not 10",
			      atomic_read(&p->handled));
	KUNIT_EXPECT_TRUE(test, outer.region);
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->began), atomic_read(&p->handled));
	KUNIT_EXPECT_EQ(test, st->calls, atomic_read(&p->handled) + 1);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, hist_calls(st), st->calls);
	/* the outer call holds every overflow's call: the most of them all */
	KUNIT_EXPECT_GE(test, st->max, st->sum[0] - st->max);
	kunit_info(test, "%d overflows, %d in NMI; %llu cycles a call",
		   atomic_read(&p->handled), atomic_read(&p->in_nmi),
		   st->calls ? st->sum[0] / st->calls : 0);
	if (!require_pmu && !atomic_read(&p->in_nmi))
		kunit_skip(test, "the PMU's overflow is an ordinary interrupt here, not an NMI");
	KUNIT_EXPECT_EQ(test, atomic_read(&p->in_nmi), atomic_read(&p->handled));
}

/* CPU 1 back online however the case ends */
static void cpu1_back(void *unused)
{
	if (!cpu_online(1))
		add_cpu(1);
}

static void need_cpu1(struct kunit *test)
{
	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online and another CPU");
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cpu1_back, NULL), 0);
}

/* A call of marker_a begun on CPU 1, the task bound there, EXACT_N in it */
static void begin_on_cpu1(struct kunit *test, struct perfkmod_region_call *call)
{
	need_cpu1(test);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(1)), 0);
	perfkmod_region_begin(&marker_a, call);
	KUNIT_EXPECT_TRUE(test, call->region);
	write_target(EXACT_N);
}

/* @r counted one call, lost, and nothing else */
static void expect_one_lost(struct kunit *test, struct perfkmod_region *r)
{
	struct perfkmod_region_stats *st = read_stats(test, r, -1);

	KUNIT_EXPECT_EQ(test, st->lost, 1);
	KUNIT_EXPECT_EQ(test, st->calls, 0);
	KUNIT_EXPECT_EQ(test, st->migrated, 0);
	KUNIT_EXPECT_EQ(test, st->sum[0], 0);
}

/*
 * A call begun on CPU 1 whose CPU goes offline under it (the task is
 * moved off): it ends on another CPU, lost, not folded in (and not
 * migrated: its CPU went).
 */
static void hotplug_offline(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-offline", &marker_a, &c);
	struct perfkmod_region_call call;

	begin_on_cpu1(test, &call);
	KUNIT_EXPECT_EQ(test, remove_cpu(1), 0);
	KUNIT_EXPECT_NE(test, raw_smp_processor_id(), 1);
	write_target(EXACT_N);
	perfkmod_region_end(&marker_a, &call);
	KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	expect_one_lost(test, r);
}

/*
 * A call begun on CPU 1 that goes offline and online again, the task
 * back on it for the end: the CPU's hotplug generation moved, the call is
 * lost. The region counts again afterwards.
 */
static void hotplug_lost(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-cycle", &marker_a, &c);
	struct perfkmod_region_call call;
	struct perfkmod_region_stats *st;

	begin_on_cpu1(test, &call);
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(1)), 0);
	KUNIT_EXPECT_EQ(test, raw_smp_processor_id(), 1);
	write_target(EXACT_N);
	perfkmod_region_end(&marker_a, &call);
	expect_one_lost(test, r);
	KUNIT_EXPECT_EQ(test, read_stats(test, r, 1)->lost, 1);

	/* CPU 1's new event counts once perfkmod has made it */
	perfkmod_cpu_events_flush(c);
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	st = read_stats(test, r, 1);
	KUNIT_EXPECT_EQ(test, st->calls, 1);
	KUNIT_EXPECT_EQ(test, st->sum[0], EXACT_N);
}

/*
 * A region made off counts nothing, its begin not beginning; on, it
 * counts; off again, nothing. A call under way as the region goes off and
 * on again is dropped. A call under way as the region is released ends
 * without a trace, also when a new region measures at the marker by its
 * end (a use after free would be KASAN's).
 */
static void off_and_release(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region_config cfg = {
		.name = "kunit-off",
		.counters = &c,
		.nr_counters = 1,
		.marker = &marker_a,
		.disabled = true,
	};
	struct perfkmod_region *r = new_region(test, &cfg);
	struct perfkmod_region_call call;

	KUNIT_EXPECT_FALSE(test, perfkmod_region_enabled(r));
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	expect_empty(test, read_stats(test, r, -1));

	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), 0);
	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(r));
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	expect_exact(test, read_stats(test, r, -1), 1, EXACT_N);

	perfkmod_region_disable(r);
	KUNIT_EXPECT_FALSE(test, perfkmod_region_enabled(r));
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	expect_exact(test, read_stats(test, r, -1), 1, EXACT_N);

	/* off and on under a call: dropped, not lost */
	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), 0);
	migrate_disable();
	perfkmod_region_begin(&marker_a, &call);
	KUNIT_EXPECT_TRUE(test, call.region);
	perfkmod_region_disable(r);
	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), 0);
	write_target(EXACT_N);
	perfkmod_region_end(&marker_a, &call);
	migrate_enable();
	expect_exact(test, read_stats(test, r, -1), 1, EXACT_N);

	/* released under a call, a new region at the marker by its end */
	migrate_disable();
	perfkmod_region_begin(&marker_a, &call);
	KUNIT_EXPECT_TRUE(test, call.region);
	kunit_release_action(test, region_release_action, r);
	cfg.disabled = false;
	r = new_region(test, &cfg);
	write_target(EXACT_N);
	perfkmod_region_end(&marker_a, &call);
	migrate_enable();
	expect_empty(test, read_stats(test, r, -1));
}

/*
 * A counter released under its region stops the region for good
 * (perfkmod_region_enable() refuses it); the figures stay.
 */
static void counter_released(struct kunit *test)
{
	struct perfkmod_config cfg = bp_config(NULL);
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
	struct perfkmod_region_stats *before, *after;
	struct perfkmod_region_config rcfg = {
		.name = "kunit-orphan",
		.counters = &c,
		.nr_counters = 1,
		.marker = &marker_a,
	};
	struct perfkmod_region *r;
	int i, err;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "counter: %pe", c);
	r = perfkmod_region_create(&rcfg);
	if (IS_ERR(r)) {
		perfkmod_counter_release(c);
		KUNIT_FAIL(test, "perfkmod_region_create: %pe", r);
		return;
	}
	err = kunit_add_action_or_reset(test, region_release_action, r);
	KUNIT_ASSERT_EQ(test, err, 0);
	for (i = 0; i < 3; i++) {
		preempt_disable();
		marker_call(&marker_a, EXACT_N);
		preempt_enable();
	}
	before = read_stats(test, r, -1);
	expect_exact(test, before, 3, EXACT_N);

	perfkmod_counter_release(c);
	KUNIT_EXPECT_FALSE(test, perfkmod_region_enabled(r));
	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), -ENODEV);
	KUNIT_EXPECT_FALSE(test, perfkmod_region_enabled(r));
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	after = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, memcmp(before, after, sizeof(*after)), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_region_get_config(r)->nr_counters, 1);
}

/* After a reset every figure is 0; the calls after it count exactly. */
static void reset_exact(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-reset", &marker_a, &c);
	int i;

	for (i = 0; i < EXACT_M; i++) {
		preempt_disable();
		marker_call(&marker_a, EXACT_N);
		preempt_enable();
	}
	expect_exact(test, read_stats(test, r, -1), EXACT_M, EXACT_N);
	perfkmod_region_reset(r);
	expect_empty(test, read_stats(test, r, -1));
	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(r));
	for (i = 0; i < EXACT_M / 2; i++) {
		preempt_disable();
		marker_call(&marker_a, INNER_N);
		preempt_enable();
	}
	expect_exact(test, read_stats(test, r, -1), EXACT_M / 2, INNER_N);
}

static void call_here(void *unused)
{
	marker_call(&marker_a, INNER_N);
}

/*
 * Calls on one CPU are that CPU's figures, and the others' are 0; with
 * calls on a second CPU (in an IPI there), each CPU has its own and all
 * CPUs' are their sum, its least and most the least and most of both.
 * A CPU that is not possible is refused.
 */
static void read_per_cpu(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = marker_region(test, "kunit-percpu", &marker_a, &c);
	struct perfkmod_region_stats *all, *st;
	int i, cpu, other;

	cpu = get_cpu();
	for (i = 0; i < EXACT_M; i++)
		marker_call(&marker_a, EXACT_N);
	put_cpu();
	all = read_stats(test, r, -1);
	expect_exact(test, all, EXACT_M, EXACT_N);
	st = read_stats(test, r, cpu);
	KUNIT_EXPECT_EQ(test, memcmp(all, st, sizeof(*st)), 0);
	for_each_possible_cpu(i) {
		if (i != cpu)
			expect_empty(test, read_stats(test, r, i));
	}
	KUNIT_EXPECT_EQ(test, perfkmod_region_read(r, nr_cpu_ids, st), -EINVAL);

	other = cpumask_any_but(cpu_online_mask, cpu);
	if (other >= nr_cpu_ids)
		kunit_skip(test, "one CPU online: no second CPU's figures");
	for (i = 0; i < EXACT_M / 2; i++)
		KUNIT_ASSERT_EQ(test, smp_call_function_single(other, call_here,
							       NULL, 1), 0);
	expect_exact(test, read_stats(test, r, cpu), EXACT_M, EXACT_N);
	expect_exact(test, read_stats(test, r, other), EXACT_M / 2, INNER_N);
	all = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, all->calls, EXACT_M + EXACT_M / 2);
	KUNIT_EXPECT_EQ(test, all->sum[0], EXACT_M * EXACT_N + EXACT_M / 2 * INNER_N);
	KUNIT_EXPECT_EQ(test, all->min, INNER_N);
	KUNIT_EXPECT_EQ(test, all->max, EXACT_N);
	KUNIT_EXPECT_EQ(test, all->hist[fls64(INNER_N)], EXACT_M / 2);
	KUNIT_EXPECT_EQ(test, all->hist[fls64(EXACT_N)], EXACT_M);
}

/*
 * The functions of function regions: probed by name, so neither inlined
 * nor cloned (a clone of region_leaf() for its constant argument would be
 * region_leaf.constprop.0).
 */
static noinline __noclone void region_leaf(unsigned int n)
{
	write_target(n);
}

static noinline __noclone void region_recurse(unsigned int depth)
{
	write_target(1);
	if (depth > 1)
		region_recurse(depth - 1);
	/* not a tail call: each level stays a call of its own */
	barrier();
}

static noinline __noclone void region_sleep_move(int cpu)
{
	write_target(1);
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
	schedule_timeout_uninterruptible(1);
	write_target(1);
}

/* kprobes refuse this one: it is on their blacklist */
static noinline __noclone void region_unprobeable(void)
{
	write_target(1);
}

NOKPROBE_SYMBOL(region_unprobeable);

/* A region of @func over @c, released when the case ends */
static struct perfkmod_region *
func_region(struct kunit *test, const char *name, const char *func,
	    struct perfkmod_counter **c)
{
	struct perfkmod_region_config cfg = {
		.name = name,
		.counters = c,
		.nr_counters = 1,
		.func = func,
	};

	if (!IS_ENABLED(CONFIG_KRETPROBES))
		kunit_skip(test, "a kernel without kretprobes");
	return new_region(test, &cfg);
}

#define FUNC_CALLS	40

/*
 * A function region on a function of this module ("MODULE:SYMBOL"),
 * called FUNC_CALLS times: as many calls, each of its writes exactly;
 * none missed. Its config names the function.
 */
static void func_calls(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r;
	int i;

	r = func_region(test, "kunit-func", KBUILD_MODNAME ":region_leaf", &c);
	KUNIT_EXPECT_STREQ(test, perfkmod_region_get_config(r)->func,
			   KBUILD_MODNAME ":region_leaf");
	KUNIT_EXPECT_NULL(test, perfkmod_region_get_config(r)->marker);
	for (i = 0; i < FUNC_CALLS; i++) {
		preempt_disable();
		region_leaf(EXACT_N);
		preempt_enable();
	}
	expect_exact(test, read_stats(test, r, -1), FUNC_CALLS, EXACT_N);

	perfkmod_region_disable(r);
	region_leaf(EXACT_N);
	KUNIT_EXPECT_EQ(test, read_stats(test, r, -1)->calls, FUNC_CALLS);
	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), 0);
	preempt_disable();
	region_leaf(EXACT_N);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, read_stats(test, r, -1)->calls, FUNC_CALLS + 1);
}

#define DEPTH	5
#define TOPS	10

/*
 * A function region on a recursive function, DEPTH levels a call from
 * here: each level is a call, holding the writes of the levels below it
 * (level d of DEPTH makes d writes), so DEPTH calls a top call.
 */
static void func_recursion(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = func_region(test, "kunit-recurse",
						"region_recurse", &c);
	struct perfkmod_region_stats *st;
	int i, d;

	for (i = 0; i < TOPS; i++) {
		preempt_disable();
		region_recurse(DEPTH);
		preempt_enable();
	}
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, DEPTH * TOPS);
	KUNIT_EXPECT_EQ(test, st->missed, 0);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->sum[0], TOPS * DEPTH * (DEPTH + 1) / 2);
	KUNIT_EXPECT_EQ(test, st->min, 1);
	KUNIT_EXPECT_EQ(test, st->max, DEPTH);
	for (d = 1; d <= DEPTH; d++)
		st->hist[fls64(d)] -= TOPS;
	for (i = 0; i < PERFKMOD_REGION_HIST_BUCKETS; i++)
		KUNIT_EXPECT_EQ_MSG(test, st->hist[i], 0, "bucket %d", i);
}

/*
 * A function region that follows one call at a time (max_active 1) on the
 * recursive function: the top level is followed, the DEPTH - 1 levels
 * within it are missed (of all CPUs only); the top call holds them all.
 */
static void func_max_active(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region_config cfg = {
		.name = "kunit-max-active",
		.counters = &c,
		.nr_counters = 1,
		.func = "region_recurse",
		.max_active = 1,
	};
	struct perfkmod_region_stats *st;
	struct perfkmod_region *r;
	int i, cpu;

	if (!IS_ENABLED(CONFIG_KRETPROBES))
		kunit_skip(test, "a kernel without kretprobes");
	r = new_region(test, &cfg);
	KUNIT_EXPECT_EQ(test, perfkmod_region_get_config(r)->max_active, 1);
	cpu = get_cpu();
	for (i = 0; i < TOPS; i++)
		region_recurse(DEPTH);
	put_cpu();
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, TOPS);
	KUNIT_EXPECT_EQ(test, st->missed, TOPS * (DEPTH - 1));
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, st->min, DEPTH);
	KUNIT_EXPECT_EQ(test, st->max, DEPTH);
	KUNIT_EXPECT_EQ(test, st->sum[0], TOPS * DEPTH);
	st = read_stats(test, r, cpu);
	KUNIT_EXPECT_EQ(test, st->calls, TOPS);
	KUNIT_EXPECT_EQ(test, st->missed, 0);
	/* a reset sets the missed calls back to zero too */
	perfkmod_region_reset(r);
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->calls, 0);
	KUNIT_EXPECT_EQ(test, st->missed, 0);
}

/*
 * A function region on a function that sleeps and moves to another CPU
 * before it returns: the call ends there, migrated, not folded in.
 */
static void func_sleeps_and_moves(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r = func_region(test, "kunit-move",
						"region_sleep_move", &c);
	struct perfkmod_region_stats *st;
	int cpu, other;

	cpu = raw_smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, cpu);
	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs 2 online CPUs");
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	region_sleep_move(other);
	KUNIT_EXPECT_EQ(test, raw_smp_processor_id(), other);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	st = read_stats(test, r, -1);
	KUNIT_EXPECT_EQ(test, st->migrated, 1);
	KUNIT_EXPECT_EQ(test, st->calls, 0);
	KUNIT_EXPECT_EQ(test, st->lost, 0);
	KUNIT_EXPECT_EQ(test, read_stats(test, r, other)->migrated, 1);
}

/*
 * What create refuses: kprobes' errno for a function they may not probe
 * (on their blacklist: this module's NOKPROBE_SYMBOL function, and the
 * kernel's notify_die()) or that does not exist; a bad config; a name
 * taken; a marker measured by another region.
 */
static void create_refused(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_config task_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
	};
	struct perfkmod_config cpu_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.target = PERFKMOD_TARGET_CPU,
	};
	struct perfkmod_counter *mixed[2] = { c, test_create(test, &task_cfg) };
	struct perfkmod_counter *one_cpu = test_create(test, &cpu_cfg);
	static const char *const bad_names[] = { "", "a b", "a/b",
		"0123456789012345678901234567890123456789012345678901234567890123" };
	struct perfkmod_region_config cfg = {
		.name = "kunit-refused",
		.counters = &c,
		.nr_counters = 1,
	};
	struct perfkmod_region *r;
	unsigned int i;

	if (IS_ENABLED(CONFIG_KRETPROBES)) {
		cfg.func = "region_unprobeable";
		KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
		cfg.func = "notify_die";
		KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
		cfg.func = "perfkmod_no_such_function";
		KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -ENOENT);
	}
	cfg.func = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.func = "region_leaf";
	cfg.marker = &marker_a;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.func = NULL;
	cfg.nr_counters = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.nr_counters = PERFKMOD_REGION_MAX_COUNTERS + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.nr_counters = 2;
	cfg.counters = mixed;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.nr_counters = 1;
	cfg.counters = &one_cpu;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EINVAL);
	cfg.counters = &c;
	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		cfg.name = bad_names[i];
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(perfkmod_region_create(&cfg)),
				    -EINVAL, "name \"%s\"", bad_names[i]);
	}

	cfg.name = "kunit-taken";
	r = new_region(test, &cfg);
	cfg.marker = &marker_b;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EEXIST);
	cfg.name = "kunit-marker-taken";
	cfg.marker = &marker_a;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_region_create(&cfg)), -EBUSY);
	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(r));
}

/* What a region notifier was told of the regions named in @names */
struct told {
	struct notifier_block nb;
	const char *names[3];
	int created[3];
	int releasing[3];
	const void *config[3];	/* the config it was told of */
};

static int told_fn(struct notifier_block *nb, unsigned long event, void *data)
{
	struct told *t = container_of(nb, struct told, nb);
	const struct perfkmod_region_config *cfg = perfkmod_region_get_config(data);
	int i;

	for (i = 0; i < ARRAY_SIZE(t->names); i++) {
		if (!t->names[i] || strcmp(cfg->name, t->names[i]))
			continue;
		if (event == PERFKMOD_REGION_CREATED)
			t->created[i]++;
		else if (event == PERFKMOD_REGION_RELEASING)
			t->releasing[i]++;
		t->config[i] = cfg;
	}
	return NOTIFY_OK;
}

static void unregister_told(void *data)
{
	struct told *t = data;

	if (t->nb.notifier_call)
		perfkmod_region_notifier_unregister(&t->nb);
	t->nb.notifier_call = NULL;
}

/* A notifier for the regions named @a, @b and @c, unregistered at the end */
static struct told *new_told(struct kunit *test, const char *a, const char *b,
			     const char *c)
{
	struct told *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->names[0] = a;
	t->names[1] = b;
	t->names[2] = c;
	t->nb.notifier_call = told_fn;
	KUNIT_ASSERT_EQ(test, perfkmod_region_notifier_register(&t->nb), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, unregister_told, t), 0);
	return t;
}

/*
 * A notifier is told of every region there is as it registers, then of
 * each new one, and of each release before the region goes; unregistered,
 * of nothing. Its config is perfkmod's copy: names and function copied.
 */
static void notifier(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	char name[] = "kunit-notified-a";
	const char *cname = "bp";
	struct perfkmod_region_config cfg = {
		.name = name,
		.counters = &c,
		.counter_names = &cname,
		.nr_counters = 1,
		.marker = &marker_a,
	};
	struct perfkmod_region *a, *b, *d;
	const struct perfkmod_region_config *got;
	struct told *t;

	a = new_region(test, &cfg);
	t = new_told(test, "kunit-notified-a", "kunit-notified-b",
		     "kunit-notified-c");
	KUNIT_EXPECT_EQ(test, t->created[0], 1);
	KUNIT_EXPECT_PTR_EQ(test, t->config[0], perfkmod_region_get_config(a));
	name[sizeof(name) - 2] = 'x';	/* the region keeps its own copy */
	got = perfkmod_region_get_config(a);
	KUNIT_EXPECT_STREQ(test, got->name, "kunit-notified-a");
	KUNIT_ASSERT_NOT_NULL(test, got->counter_names);
	KUNIT_EXPECT_STREQ(test, got->counter_names[0], "bp");
	KUNIT_EXPECT_PTR_NE(test, (const void *)got->counter_names,
			    (const void *)&cname);
	KUNIT_EXPECT_EQ(test, got->nr_counters, 1);
	KUNIT_EXPECT_PTR_EQ(test, got->marker, &marker_a);
	KUNIT_EXPECT_NULL(test, got->func);

	cfg.name = "kunit-notified-b";
	cfg.marker = &marker_b;
	b = new_region(test, &cfg);
	KUNIT_EXPECT_EQ(test, t->created[1], 1);
	KUNIT_EXPECT_EQ(test, t->releasing[0], 0);
	kunit_release_action(test, region_release_action, a);
	KUNIT_EXPECT_EQ(test, t->releasing[0], 1);
	KUNIT_EXPECT_EQ(test, t->created[0], 1);

	unregister_told(t);
	cfg.name = "kunit-notified-c";
	cfg.marker = &marker_a;
	d = new_region(test, &cfg);
	kunit_release_action(test, region_release_action, d);
	KUNIT_EXPECT_EQ(test, t->created[2], 0);
	KUNIT_EXPECT_EQ(test, t->releasing[2], 0);
	KUNIT_EXPECT_EQ(test, t->releasing[1], 0);
	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(b));
}

/*
 * A module that goes away owning regions: a stand-in, never loaded, so
 * that the suite plays both modules (the module notifier's scan,
 * perfkmod_regions_release_owner(), with it). A real rmmod is
 * tests/guest's.
 */
static struct module gone_module = { .name = "perfkmod_region_gone" };

/*
 * A marker region and a function region of a module that goes without
 * releasing them: both released (its viewers told), the marker free for
 * another region and the function's probe gone; the scan finds nothing
 * the second time, and nothing of another module.
 */
static void module_gone(struct kunit *test)
{
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region_config cfg = {
		.name = "kunit-gone-marker",
		.counters = &c,
		.nr_counters = 1,
		.marker = &marker_a,
	};
	struct perfkmod_region *mine, *r[2];
	struct told *t;
	int i;

	r[0] = __perfkmod_region_create(&cfg, &gone_module);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r[0]), "create: %pe", r[0]);
	cfg.name = "kunit-gone-func";
	cfg.marker = NULL;
	cfg.func = "region_leaf";
	r[1] = IS_ENABLED(CONFIG_KRETPROBES) ?
		__perfkmod_region_create(&cfg, &gone_module) : NULL;
	if (IS_ERR(r[1])) {
		perfkmod_regions_release_owner(&gone_module);
		KUNIT_FAIL(test, "create: %pe", r[1]);
		return;
	}
	cfg.name = "kunit-gone-mine";
	cfg.func = NULL;
	cfg.marker = &marker_b;
	mine = new_region(test, &cfg);
	t = new_told(test, "kunit-gone-marker", "kunit-gone-func",
		     "kunit-gone-mine");
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, t->created[i], i == 1 && !r[1] ? 0 : 1);
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();

	KUNIT_EXPECT_EQ(test, perfkmod_regions_release_owner(&gone_module),
			r[1] ? 2 : 1);
	KUNIT_EXPECT_EQ(test, t->releasing[0], 1);
	KUNIT_EXPECT_EQ(test, t->releasing[1], r[1] ? 1 : 0);
	KUNIT_EXPECT_EQ(test, t->releasing[2], 0);
	KUNIT_EXPECT_EQ(test, perfkmod_regions_release_owner(&gone_module), 0);
	KUNIT_EXPECT_TRUE(test, perfkmod_region_enabled(mine));

	/* the marker measures nothing, then another region's calls */
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	/* a probe left behind would end calls of a freed region (KASAN) */
	region_leaf(EXACT_N);
	cfg.name = "kunit-gone-marker";
	cfg.marker = &marker_a;
	mine = new_region(test, &cfg);
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, marker_call(&marker_a, EXACT_N));
	preempt_enable();
	expect_exact(test, read_stats(test, mine, -1), 1, EXACT_N);
}

/*
 * A region of this module at a marker of a module going away (a stand-in
 * whose data, in struct module's mem[], is marker_gone): the region stops
 * for good, its config no longer names the marker, its figures stay, and
 * it is still this module's to read and release. The marker's static key
 * is left as it is (a going module's jump entries are gone), so a begin
 * there finds no region and begins nothing.
 */
static void module_gone_marker(struct kunit *test)
{
	struct module *mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	struct perfkmod_counter *c = bp_all_cpus(test);
	struct perfkmod_region *r;
	struct perfkmod_region_stats *before;

	KUNIT_ASSERT_NOT_NULL(test, mod);
	strscpy(mod->name, "perfkmod_marker_gone", sizeof(mod->name));
	mod->mem[MOD_DATA].base = &marker_gone;
	mod->mem[MOD_DATA].size = sizeof(marker_gone);
	r = marker_region(test, "kunit-marker-gone", &marker_gone, &c);
	preempt_disable();
	KUNIT_EXPECT_TRUE(test, marker_call(&marker_gone, EXACT_N));
	preempt_enable();
	before = read_stats(test, r, -1);
	expect_exact(test, before, 1, EXACT_N);

	KUNIT_EXPECT_EQ(test, perfkmod_regions_release_owner(mod), 0);
	KUNIT_EXPECT_FALSE(test, perfkmod_region_enabled(r));
	KUNIT_EXPECT_EQ(test, perfkmod_region_enable(r), -ENODEV);
	KUNIT_EXPECT_NULL(test, perfkmod_region_get_config(r)->marker);
	preempt_disable();
	KUNIT_EXPECT_FALSE(test, marker_call(&marker_gone, EXACT_N));
	preempt_enable();
	KUNIT_EXPECT_EQ(test, memcmp(before, read_stats(test, r, -1),
				     sizeof(*before)), 0);
}

static struct kunit_case perfkmod_region_cases[] = {
	KUNIT_CASE(exact_all_cpus),
	KUNIT_CASE(exact_task),
	KUNIT_CASE(nested_regions),
	KUNIT_CASE(same_region_from_irq),
	KUNIT_CASE(self_nmi),
	KUNIT_CASE(pmu_nmi),
	KUNIT_CASE(hotplug_offline),
	KUNIT_CASE(hotplug_lost),
	KUNIT_CASE(off_and_release),
	KUNIT_CASE(counter_released),
	KUNIT_CASE(reset_exact),
	KUNIT_CASE(read_per_cpu),
	KUNIT_CASE(func_calls),
	KUNIT_CASE(func_recursion),
	KUNIT_CASE(func_max_active),
	KUNIT_CASE(func_sleeps_and_moves),
	KUNIT_CASE(create_refused),
	KUNIT_CASE(notifier),
	KUNIT_CASE(module_gone),
	KUNIT_CASE(module_gone_marker),
	{}
};

static struct kunit_suite perfkmod_region_suite = {
	.name = "perfkmod_region",
	.test_cases = perfkmod_region_cases,
};

kunit_test_suites(&perfkmod_region_suite);
