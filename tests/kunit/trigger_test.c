// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for event-driven series: a record at each overflow of the
 * trigger, on its CPU, with what it interrupted; one record per write of a
 * breakpoint, one per switch of a task, records on every CPU from a clock,
 * a hardware PMU's cycles in NMI, x86's path in a real NMI, drops counted
 * when no one reads or when the trigger overflows again while its CPU
 * records, the triggers refused, and a trigger released under its series.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/hw_breakpoint.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "internal.h"
#include "series.h"
#include "test.h"

#define RECS	512

static int bp_target;

/* An event-driven series of @n @counters, triggered by @trigger. */
static struct perfkmod_series *
trigger_series(struct kunit *test, struct perfkmod_counter **counters,
	       unsigned int n, struct perfkmod_counter *trigger,
	       unsigned int ring_records)
{
	struct perfkmod_series_config cfg = {
		.counters = counters,
		.nr_counters = n,
		.ring_records = ring_records,
		.trigger = trigger,
	};

	return test_series(test, &cfg);
}

/* An event-driven series of @c alone, triggered by @c, not released. */
static struct perfkmod_series *trigger_series_of(struct perfkmod_counter *c)
{
	struct perfkmod_series_config cfg = {
		.counters = &c,
		.nr_counters = 1,
		.ring_records = RECS,
		.trigger = c,
	};

	return perfkmod_series_create(&cfg);
}

/* An all-CPUs software counter sampling every @period events. */
static struct perfkmod_counter *sw_counter(struct kunit *test, u64 config,
					   u64 period)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.sample_period = period,
	};

	return test_create(test, &cfg);
}

/* Where the breakpoint's records must say they were taken. */
static noinline void write_target(int i)
{
	WRITE_ONCE(bp_target, i);
}

/*
 * A write breakpoint on a kernel variable, of all CPUs, period 1, as the
 * trigger: each of 100 writes on this CPU makes one record there, taken
 * in write_target() by this thread in kernel mode, the breakpoint's own
 * value (read in its overflow) one more each time, and the series' other
 * counter, cpu-clock, never going back.
 */
static void breakpoint_record_per_write(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&bp_target,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W,
		.sample_period = 1,
	};
	struct perfkmod_series_record *recs, *r;
	struct perfkmod_counter *c[2];
	struct perfkmod_series *s;
	unsigned long flags;
	char where[64], want[64];	/* "write_target [perfkmod_kunit]" */
	int cpu, i, n;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	c[0] = perfkmod_counter_create(&cfg);
	if (IS_ENABLED(CONFIG_ARM64) && c[0] == ERR_PTR(-EOPNOTSUPP))
		kunit_skip(test, "arm64 cannot sample breakpoints; the x86 lanes run this");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c[0]), "perfkmod_counter_create: %pe", c[0]);
	test_release_at_end(test, c[0]);
	c[1] = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, 0);
	s = trigger_series(test, c, 2, c[0], RECS);

	snprintf(want, sizeof(want), "%ps", write_target);
	cpu = get_cpu();
	/* IRQs off: see breakpoint_counts_exactly() in counter_test.c */
	local_irq_save(flags);
	for (i = 0; i < 100; i++)
		write_target(i);
	local_irq_restore(flags);
	put_cpu();

	n = perfkmod_series_read(s, cpu, recs, RECS);
	KUNIT_EXPECT_EQ(test, n, 100);
	for (i = 0; i < n; i++) {
		r = &recs[i];
		snprintf(where, sizeof(where), "%ps", (void *)(unsigned long)r->ip);
		KUNIT_EXPECT_EQ_MSG(test, r->cpu, cpu, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->flags, PERFKMOD_RECORD_TRIGGERED,
				    "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->tid, current->pid, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->pid, current->tgid, "record %d", i);
		KUNIT_EXPECT_STREQ_MSG(test, where, want,
				       "record %d: ip %#llx", i, r->ip);
		KUNIT_EXPECT_EQ_MSG(test, r->errors, 0, "record %d", i);
		if (i) {
			KUNIT_EXPECT_EQ_MSG(test, r->values[0],
					    recs[i - 1].values[0] + 1, "record %d", i);
			KUNIT_EXPECT_GE_MSG(test, r->values[1],
					    recs[i - 1].values[1], "record %d", i);
		}
		if (strcmp(where, want) || r->flags != PERFKMOD_RECORD_TRIGGERED)
			break;
	}
	KUNIT_EXPECT_EQ(test, perfkmod_series_dropped(s), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_series_skipped(s), 0);
}

/* A kthread that sleeps 50 times, each a switch, then until stopped. */
static int sleeper_work(void *arg)
{
	int i;

	for (i = 0; i < 50; i++)
		usleep_range(1000, 2000);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * A task's context-switches counter, period 1, triggers a series of its
 * own values, both made before the task first runs: one record per switch
 * of the task (its count once it is asleep for good, less what the ring
 * dropped), each taken in the task, on the CPU it left.
 */
static void task_record_per_switch(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.target = PERFKMOD_TARGET_TASK,
		.sample_period = 1,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_counter *c;
	struct perfkmod_series *s;
	struct task_struct *t;
	int cpu, i, n = 0, k;
	u64 switches;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	t = kthread_create(sleeper_work, NULL, "perfkmod-sleeper");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "kthread_create: %pe", t);
	get_task_struct(t);
	cfg.task = t;
	c = perfkmod_counter_create(&cfg);
	s = IS_ERR(c) ? ERR_CAST(c) : trigger_series_of(c);
	if (IS_ERR(s)) {
		KUNIT_FAIL(test, "counter or series: %pe", s);
		goto out;
	}
	wake_up_process(t);
	/* its sleeps, then asleep for good (only then interruptible) */
	KUNIT_EXPECT_TRUE(test, test_await(60, test_asleep(t, TASK_INTERRUPTIBLE)));
	switches = test_value(c);
	for_each_possible_cpu(cpu) {
		k = perfkmod_series_read(s, cpu, recs + n, RECS - n);
		for (i = n; i < n + k; i++) {
			KUNIT_EXPECT_EQ(test, recs[i].cpu, cpu);
			KUNIT_EXPECT_EQ(test, recs[i].tid, t->pid);
			KUNIT_EXPECT_EQ(test, recs[i].flags, PERFKMOD_RECORD_TRIGGERED);
		}
		n += max(k, 0);
	}
	KUNIT_EXPECT_EQ(test, n + perfkmod_series_dropped(s), switches);
	KUNIT_EXPECT_GT(test, switches, 0);
	kunit_info(test, "%llu switches, %d records", switches, n);
	perfkmod_series_release(s);
out:
	if (!IS_ERR(c))
		perfkmod_counter_release(c);
	/* never woken when the series failed: kthread_stop() runs it to its end */
	kthread_stop(t);
	put_task_struct(t);
}

/*
 * cpu-clock, all CPUs, every 1 ms: records on every online CPU until each
 * has 20, each on its CPU with the clock's value past the one before (its
 * hrtimer comes late or on time, so a period may read short after a late
 * one).
 */
static void clock_records_every_cpu(struct kunit *test)
{
	struct perfkmod_counter *c = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK,
						NSEC_PER_MSEC);
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	unsigned long end = jiffies + 60 * HZ;
	int cpu, i, n, *seen;
	bool done;
	u64 *last;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	last = kunit_kcalloc(test, nr_cpu_ids, sizeof(*last), GFP_KERNEL);
	seen = kunit_kcalloc(test, nr_cpu_ids, sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_NOT_NULL(test, last);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	s = trigger_series(test, &c, 1, c, RECS);
	do {
		msleep(20);
		done = true;
		for_each_online_cpu(cpu) {
			n = perfkmod_series_read(s, cpu, recs, RECS);
			for (i = 0; i < n; i++, seen[cpu]++) {
				KUNIT_EXPECT_EQ(test, recs[i].cpu, cpu);
				KUNIT_EXPECT_TRUE(test, recs[i].flags &
						  PERFKMOD_RECORD_TRIGGERED);
				KUNIT_EXPECT_GT_MSG(test, recs[i].values[0],
						    last[cpu],
						    "CPU %d record %d", cpu, seen[cpu]);
				last[cpu] = recs[i].values[0];
			}
			done &= seen[cpu] >= 20;
		}
	} while (!done && time_before(jiffies, end));
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_GE_MSG(test, seen[cpu], 20, "CPU %d in 60 s", cpu);
}

/* What a direct callback beside a series' own saw of its overflows. */
struct nmi_spy {
	atomic_t calls;
	atomic_t in_nmi;
	atomic_t other_task;
	struct task_struct *task;
};

/* Counts the calls, those in NMI, and those that did not interrupt @task. */
static void nmi_spy(const struct perfkmod_sample *sample, struct pt_regs *regs,
		    void *context)
{
	struct nmi_spy *spy = context;

	raw_atomic_inc(&spy->calls);
	if (in_nmi())
		raw_atomic_inc(&spy->in_nmi);
	if (current != spy->task)
		raw_atomic_inc(&spy->other_task);
}

/*
 * cycles of this thread, every 50 million, triggers a series of those
 * cycles and cpu-clock (a hardware PMU: the arm64-pmu lane, whose
 * overflows are pseudo-NMIs), with a direct callback beside the series'
 * own; the counter is made off and enabled once both are there. While the
 * thread works through 20 overflows with interrupts on (a tick unthrottles
 * what perf throttles), each overflow is in NMI and in this thread, and
 * makes a record (or a drop, counted): on this CPU, in this thread in
 * kernel mode, at an address of the kernel's code, cpu-clock never going
 * back. The K-th record holds K periods of cycles at least, and a skid
 * more: perf starts each period where the last was due, or where its
 * overflow came when that was a period late (QEMU's cycles are its virtual
 * clock, which runs on while the host holds the vCPU's thread: a skid can
 * be long). A quarter of the periods at least make a record (a quiet host
 * records them all, a loaded one about three in four): a period makes
 * none when its skid is a whole period, or when the thread leaves the CPU
 * before the overflow's interrupt comes (the PMU driver clears the
 * overflow as it stops the counter).
 */
static void hardware_trigger_in_nmi(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.sample_period = 50000000,
		.disabled = true,
	};
	struct perfkmod_config clock_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
	};
	struct nmi_spy spy = { .task = current };
	struct perfkmod_series_record *recs, *r;
	struct perfkmod_counter *c[2];
	struct perfkmod_callback *cb;
	struct perfkmod_series *s;
	int cpu = raw_smp_processor_id(), calls, i, n;
	u64 p = cfg.sample_period, skid = 0, end;
	char where[64];

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	c[0] = perfkmod_counter_create(&cfg);
	if (IS_ERR(c[0])) {
		test_no_pmu(test, c[0]);
		return;
	}
	test_release_at_end(test, c[0]);
	c[1] = test_create(test, &clock_cfg);
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = trigger_series(test, c, 2, c[0], RECS);
	cb = perfkmod_callback_register(c[0], nmi_spy, &spy,
					PERFKMOD_DELIVER_DIRECT);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "%pe", cb);
	perfkmod_counter_enable(c[0]);

	KUNIT_EXPECT_TRUE_MSG(test,
			      test_await_busy(120, atomic_read(&spy.calls) >= 20),
			      "%d overflows of cycles in 120 s", atomic_read(&spy.calls));
	/* no overflow after this: the counts below are final */
	perfkmod_counter_disable(c[0]);
	perfkmod_callback_unregister(cb);
	calls = atomic_read(&spy.calls);
	end = test_value(c[0]);
	n = perfkmod_series_read(s, cpu, recs, RECS);

	KUNIT_EXPECT_EQ(test, atomic_read(&spy.other_task), 0);
	KUNIT_EXPECT_EQ(test, n + perfkmod_series_dropped(s), calls);
	for (i = 0; i < n; i++) {
		r = &recs[i];
		KUNIT_EXPECT_EQ_MSG(test, r->cpu, cpu, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->flags, PERFKMOD_RECORD_TRIGGERED,
				    "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->tid, current->pid, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r->errors, 0, "record %d", i);
		/* an address of the kernel's or a module's code, by name */
		snprintf(where, sizeof(where), "%ps", (void *)(unsigned long)r->ip);
		KUNIT_EXPECT_FALSE_MSG(test, str_has_prefix(where, "0x"),
				       "record %d: ip %#llx", i, r->ip);
		KUNIT_EXPECT_GE_MSG(test, r->values[0], (i + 1) * p, "record %d", i);
		if (r->values[0] - (i + 1) * p < p)
			skid = max(skid, r->values[0] - (i + 1) * p);
		if (i)
			KUNIT_EXPECT_GE_MSG(test, r->values[1],
					    recs[i - 1].values[1], "record %d", i);
	}
	KUNIT_EXPECT_GE_MSG(test, 4 * n, div64_u64(end, p),
			    "%d records of %llu cycles", n, end);
	kunit_info(test, "%d overflows, %d in NMI, %d records of %llu periods, longest skid within a period %llu cycles",
		   calls, atomic_read(&spy.in_nmi), n, div64_u64(end, p), skid);
	if (!require_pmu && !atomic_read(&spy.in_nmi))
		kunit_skip(test, "the PMU's overflow is an ordinary interrupt here, not an NMI");
	KUNIT_EXPECT_EQ(test, atomic_read(&spy.in_nmi), calls);
}

#ifdef CONFIG_X86
/*
 * The record path in a real NMI: 20 NMIs sent to this CPU, each running
 * the trampoline on the trigger's event of this CPU (a dummy, period 1)
 * as perf would: 20 records there, taken in this thread, with cpu-clock
 * read in the NMI and never going back.
 */
static void x86_records_in_nmi(struct kunit *test)
{
	struct perfkmod_counter *c[2];
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	struct perf_event *event;
	int cpu = raw_smp_processor_id(), i, n;

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	c[0] = sw_counter(test, PERF_COUNT_SW_DUMMY, 1);
	c[1] = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, 0);
	s = trigger_series(test, c, 2, c[0], RECS);
	event = perfkmod_cpu_share(c[0], cpu)->event;
	KUNIT_ASSERT_NOT_NULL(test, event);
	for (i = 0; i < 20; i++)
		KUNIT_ASSERT_EQ(test, test_overflow_in_nmi(event), 0);
	n = perfkmod_series_read(s, cpu, recs, RECS);
	KUNIT_EXPECT_EQ(test, n, 20);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, recs[i].flags, PERFKMOD_RECORD_TRIGGERED,
				    "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, recs[i].tid, current->pid, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, recs[i].errors, 0, "record %d", i);
		KUNIT_EXPECT_NE_MSG(test, recs[i].ip, 0, "record %d", i);
		if (i)
			KUNIT_EXPECT_GE_MSG(test, recs[i].values[1],
					    recs[i - 1].values[1], "record %d", i);
	}
}

/*
 * A PMU of CPU counters that count nothing, whose read, once armed, makes
 * the trigger overflow again in an NMI it sends its own CPU, and waits
 * for that NMI: the overflow of a trigger that comes while its CPU is
 * recording, as a trigger in NMI interrupting its own record taken in an
 * interrupt would.
 */
static struct perf_event *nest_trigger;	/* the trigger's event of this CPU */
static bool nest_armed;			/* the next read sends the NMI */
static bool nest_pending;		/* sent, and not yet handled */
static struct perf_sample_data nest_data;

static int nest_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(nest_pending))
		return NMI_DONE;
	perfkmod_overflow(nest_trigger, &nest_data, regs);
	/* after the overflow: nest_read() waits for this */
	smp_store_release(&nest_pending, false);
	return NMI_HANDLED;
}

static void nest_read(struct perf_event *event)
{
	int us = 1000000;

	if (in_nmi() || !READ_ONCE(nest_armed))
		return;
	WRITE_ONCE(nest_armed, false);
	WRITE_ONCE(nest_pending, true);
	apic->send_IPI_self(NMI_VECTOR);
	/* at most a second: the case then finds it pending, and fails */
	while (smp_load_acquire(&nest_pending) && us--)
		udelay(1);
}

static int nest_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	return event->cpu < 0 || is_sampling_event(event) ? -EINVAL : 0;
}

static int nest_add(struct perf_event *event, int flags)
{
	return 0;
}

static void nest_nop(struct perf_event *event, int flags)
{
}

/* a CPU's own PMU, as pmu_test.c's hybrid one; no task events */
static struct pmu nest_pmu = {
	.module = THIS_MODULE,
	.task_ctx_nr = perf_hw_context,
	.capabilities = PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init = nest_event_init,
	.add = nest_add,
	.del = nest_nop,
	.start = nest_nop,
	.stop = nest_nop,
	.read = nest_read,
};

static void nest_pmu_unregister(void *unused)
{
	perf_pmu_unregister(&nest_pmu);
}

static void nest_nmi_unregister(void *unused)
{
	unregister_nmi_handler(NMI_LOCAL, "perfkmod_test_nest");
	WRITE_ONCE(nest_armed, false);
	WRITE_ONCE(nest_pending, false);
}

/*
 * 10 overflows of the trigger with interrupts off on this CPU, as perf
 * delivers a software trigger's, each reading a counter of nest_pmu that
 * overflows the trigger again in NMI: each outer overflow is a record,
 * each nested one a drop, counted; none is lost, none corrupts a record.
 */
static void x86_nested_overflow_dropped(struct kunit *test)
{
	struct perfkmod_config cfg = { .sample_period = 0 };
	struct perfkmod_series_record *recs;
	struct perfkmod_counter *c[2];
	struct perf_sample_data data;
	struct perfkmod_series *s;
	struct pt_regs regs;
	unsigned long flags;
	int cpu, i, n, err;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	/* unregistered last: after the series and counters on it */
	err = perf_pmu_register(&nest_pmu, "perfkmod_test_nest", -1);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, nest_pmu_unregister, NULL), 0);
	cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	c[0] = sw_counter(test, PERF_COUNT_SW_DUMMY, 1);
	cfg.type = nest_pmu.type;
	c[1] = test_create(test, &cfg);
	s = trigger_series(test, c, 2, c[0], RECS);
	nest_trigger = perfkmod_cpu_share(c[0], cpu)->event;
	KUNIT_ASSERT_NOT_NULL(test, nest_trigger);
	/*
	 * Unregistered first, before the counters are released: an NMI that
	 * came late never finds nest_trigger's event freed.
	 */
	err = register_nmi_handler(NMI_LOCAL, nest_nmi, 0, "perfkmod_test_nest");
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, nest_nmi_unregister, NULL), 0);
	perf_sample_data_init(&nest_data, 0, 1);
	perf_sample_data_init(&data, 0, 1);
	for (i = 0; i < 10; i++) {
		local_irq_save(flags);
		perf_fetch_caller_regs(&regs);
		WRITE_ONCE(nest_armed, true);
		perfkmod_overflow(nest_trigger, &data, &regs);
		local_irq_restore(flags);
		KUNIT_ASSERT_FALSE_MSG(test, READ_ONCE(nest_armed),
				       "overflow %d: nest_pmu was not read", i);
		KUNIT_ASSERT_FALSE_MSG(test, READ_ONCE(nest_pending),
				       "overflow %d: the NMI did not come in a second", i);
	}
	n = perfkmod_series_read(s, cpu, recs, RECS);
	KUNIT_EXPECT_EQ(test, n, 10);
	KUNIT_EXPECT_EQ(test, perfkmod_series_dropped(s), 10);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, recs[i].flags, PERFKMOD_RECORD_TRIGGERED,
				    "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, recs[i].tid, current->pid, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, recs[i].errors, 0, "record %d", i);
		KUNIT_EXPECT_EQ_MSG(test, recs[i].nr_values, 2, "record %d", i);
	}
}
#endif

/* Nobody reads a ring of 16: each CPU's next records are dropped, counted. */
static void trigger_drops_counted(struct kunit *test)
{
	struct perfkmod_counter *c = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK,
						100 * NSEC_PER_USEC);
	struct perfkmod_series *s = trigger_series(test, &c, 1, c, 16);
	int cpu;

	for_each_online_cpu(cpu)
		KUNIT_EXPECT_TRUE_MSG(test,
				      test_await(60, perfkmod_series_dropped_on(s, cpu)),
				      "CPU %d dropped nothing in 60 s", cpu);
}

/*
 * CPU 1 goes and comes back under an event-driven series of all CPUs
 * (cpu-clock every 100 us, and page-faults, a static key): the trigger's
 * event of CPU 1 is made again each time, its records stay on their CPU,
 * and CPU 1 records again once back.
 */
static void trigger_under_hotplug(struct kunit *test)
{
	struct perfkmod_counter *c[2] = {
		sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, 100 * NSEC_PER_USEC),
		sw_counter(test, PERF_COUNT_SW_PAGE_FAULTS, 0),
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	struct test_hotplug *h;
	int cpu, i, k, cycles;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "CPU 1 is not online");
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = trigger_series(test, c, 2, c[0], RECS);
	h = test_hotplug_start(test);
	for (i = 0; test_hotplug_more(h, i, 200, 5); i++) {
		usleep_range(10000, 20000);
		for (cpu = 0; cpu < 2; cpu++) {
			k = perfkmod_series_read(s, cpu, recs, RECS);
			while (k-- > 0)
				KUNIT_EXPECT_EQ(test, recs[k].cpu, cpu);
		}
	}
	cycles = test_hotplug_stop(h);
	KUNIT_EXPECT_GE_MSG(test, cycles, 1, "no hotplug cycle of CPU 1 in 60 s");
	while (perfkmod_series_read(s, 1, recs, RECS) > 0)
		;
	KUNIT_EXPECT_TRUE_MSG(test, test_await(60, perfkmod_series_read(s, 1, recs, 1) > 0),
			      "CPU 1 recorded nothing once back");
	kunit_info(test, "%d hotplug cycles of CPU 1", cycles);
}

/*
 * A refused series: -EINVAL, and no series reads its counters or trigger
 * (one made all the same is released).
 */
static void refused(struct kunit *test, struct perfkmod_series_config *cfg,
		    const char *what)
{
	struct perfkmod_counter *t = cfg->trigger;
	struct perfkmod_series *s = perfkmod_series_create(cfg);

	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(s), -EINVAL, "%s", what);
	if (!IS_ERR(s))
		perfkmod_series_release(s);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&cfg->counters[0]->users), 0,
			    "%s", what);
	if (!IS_ERR_OR_NULL(t))
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&t->users), 0, "%s", what);
}

static void put_task(void *task)
{
	put_task_struct(task);
}

/* What perfkmod_series_create() refuses of a trigger. */
static void bad_triggers(struct kunit *test)
{
	struct perfkmod_config task_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.sample_period = NSEC_PER_MSEC,
	};
	struct perfkmod_counter *c = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, 0);
	struct perfkmod_series_config cfg = {
		.counters = &c,
		.nr_counters = 1,
	};
	struct perfkmod_counter *task_trigger, *task_c;
	struct task_struct *init;

	cfg.trigger = c;
	refused(test, &cfg, "a trigger that does not sample");
	cfg.trigger = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, NSEC_PER_MSEC);
	cfg.interval_ns = NSEC_PER_MSEC;
	refused(test, &cfg, "an interval besides");
	cfg.interval_ns = 0;
	task_trigger = test_create(test, &task_cfg);
	cfg.trigger = task_trigger;
	refused(test, &cfg, "a task's trigger, for counters of all CPUs");
	task_cfg.target = PERFKMOD_TARGET_CPU;
	task_cfg.task = NULL;
	task_cfg.cpu = raw_smp_processor_id();
	cfg.trigger = test_create(test, &task_cfg);
	refused(test, &cfg, "one CPU's trigger, for counters of all CPUs");
	cfg.trigger = ERR_PTR(-ENOENT);
	refused(test, &cfg, "an error for a trigger");
	cfg.trigger = NULL;
	refused(test, &cfg, "neither trigger nor interval");

	/* for counters of this task: all CPUs', another task's, inherit */
	task_cfg.target = PERFKMOD_TARGET_TASK;
	task_cfg.task = current;
	task_cfg.cpu = 0;
	task_cfg.sample_period = 0;
	task_c = test_create(test, &task_cfg);
	cfg.counters = &task_c;
	cfg.trigger = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, NSEC_PER_MSEC);
	refused(test, &cfg, "an all-CPUs trigger, for a task's counters");
	rcu_read_lock();
	init = get_pid_task(find_vpid(1), PIDTYPE_PID);
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, init);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_task, init), 0);
	task_cfg.task = init;
	task_cfg.sample_period = NSEC_PER_MSEC;
	cfg.trigger = test_create(test, &task_cfg);
	refused(test, &cfg, "another task's trigger");
	task_cfg.task = current;
	task_cfg.inherit = true;
	cfg.trigger = test_create(test, &task_cfg);
	refused(test, &cfg, "an inherit trigger");
}

/* Counts the overflows of a counter. */
static void count_overflows(const struct perfkmod_sample *sample,
			    struct pt_regs *regs, void *context)
{
	atomic_inc(context);
}

static void unregister_cb(void *cb)
{
	perfkmod_callback_unregister(cb);
}

/*
 * The trigger released under its series (by its owner, another module in
 * life): the records stop, and what was recorded stays to be read; the
 * series is released after. A clock of the same period with a callback
 * that counts its overflows tells how long to wait: 20 of its overflows
 * from the series' start to the release (the trigger's as many, give or
 * take), 20 after it.
 */
static void trigger_released_under_series(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100 * NSEC_PER_USEC,
	};
	struct perfkmod_counter *c = sw_counter(test, PERF_COUNT_SW_CPU_CLOCK, 0);
	struct perfkmod_counter *clock = test_create(test, &cfg);
	struct perfkmod_counter *trigger = perfkmod_counter_create(&cfg);
	struct perfkmod_series_record *recs;
	struct perfkmod_callback *cb;
	struct perfkmod_series *s;
	/* not on the stack: the callback goes at the case's end, after it */
	static atomic_t ticks;
	int cpu, n, left = 0, from;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(trigger), "%pe", trigger);
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	atomic_set(&ticks, 0);
	cb = perfkmod_callback_register(clock, count_overflows, &ticks,
					PERFKMOD_DELIVER_DIRECT);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(cb), "%pe", cb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, unregister_cb, cb), 0);
	s = trigger_series(test, &c, 1, trigger, RECS);
	from = atomic_read(&ticks);
	KUNIT_EXPECT_TRUE(test, test_await(60, atomic_read(&ticks) >= from + 20));
	perfkmod_counter_release(trigger);
	/* what was recorded is there to be read */
	for_each_possible_cpu(cpu)
		while ((n = perfkmod_series_read(s, cpu, recs, RECS)) > 0)
			left += n;
	KUNIT_EXPECT_GT(test, left + perfkmod_series_dropped(s), 0);
	/* then nothing more, while the clock overflows 20 times */
	from = atomic_read(&ticks);
	KUNIT_EXPECT_TRUE(test, test_await(60, atomic_read(&ticks) >= from + 20));
	for_each_possible_cpu(cpu) {
		n = perfkmod_series_read(s, cpu, recs, RECS);
		KUNIT_EXPECT_EQ_MSG(test, n, 0, "CPU %d recorded after the release", cpu);
	}
}

static struct kunit_case perfkmod_trigger_cases[] = {
	KUNIT_CASE(breakpoint_record_per_write),
	KUNIT_CASE(task_record_per_switch),
	KUNIT_CASE(clock_records_every_cpu),
	KUNIT_CASE(hardware_trigger_in_nmi),
#ifdef CONFIG_X86
	KUNIT_CASE(x86_records_in_nmi),
	KUNIT_CASE(x86_nested_overflow_dropped),
#endif
	KUNIT_CASE(trigger_drops_counted),
	KUNIT_CASE(bad_triggers),
	KUNIT_CASE(trigger_released_under_series),
	KUNIT_CASE_SLOW(trigger_under_hotplug),
	{}
};

static struct kunit_suite perfkmod_trigger_suite = {
	.name = "perfkmod_trigger",
	.test_cases = perfkmod_trigger_cases,
};

kunit_test_suite(perfkmod_trigger_suite);
