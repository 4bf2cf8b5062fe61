// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for time series sampled in the kernel: records per interval
 * on every CPU, their deltas adding up to the counter, a series following
 * one task, drops counted when no one reads, bad configs refused, and CPU
 * hotplug and release in the middle of it.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "internal.h"
#include "series.h"
#include "test.h"

#define RECS	512

static struct perfkmod_counter *all_cpus(struct kunit *test, u64 config)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
	};

	return test_create(test, &cfg);
}

/* For counter_released_under_series, which releases its counter itself. */
KUNIT_DEFINE_ACTION_WRAPPER(release_series, perfkmod_series_release,
			    struct perfkmod_series *);

static struct perfkmod_series *new_series(struct kunit *test,
					  struct perfkmod_counter **counters,
					  unsigned int n, u64 interval_ns,
					  unsigned int ring_records)
{
	struct perfkmod_series_config cfg = {
		.counters = counters,
		.nr_counters = n,
		.interval_ns = interval_ns,
		.ring_records = ring_records,
	};

	return test_series(test, &cfg);
}

/*
 * The records of @cpu waiting in @s after the @n of @recs read before, at
 * most RECS in all, each made on @cpu (a timer that migrated with CPU
 * hotplug would record on another CPU into @cpu's ring); the records in
 * @recs now, or -1 when the read fails.
 */
static int drain_more(struct kunit *test, struct perfkmod_series *s, int cpu,
		      struct perfkmod_series_record *recs, int n)
{
	int i, k = perfkmod_series_read(s, cpu, recs + n, RECS - n);

	KUNIT_EXPECT_GE(test, k, 0);
	if (k < 0)
		return -1;
	for (i = n; i < n + k; i++)
		KUNIT_EXPECT_EQ_MSG(test, recs[i].cpu, cpu, "record %d", i);
	return n + k;
}

/* Every record of @cpu waiting in @s, at most RECS; 0 when the read fails. */
static int drain(struct kunit *test, struct perfkmod_series *s, int cpu,
		 struct perfkmod_series_record *recs)
{
	return max(drain_more(test, s, cpu, recs, 0), 0);
}

/* What records_per_interval saw of one CPU so far. */
struct seen {
	int n;
	struct perfkmod_series_record last;
};

/*
 * Reads @cpu's waiting records into @seen, each checked against the one
 * before it: both values, no error, made on @cpu, later, values never
 * going back. Return: false at the first that is not (the case failed).
 */
static bool take(struct kunit *test, struct perfkmod_series *s, int cpu,
		 struct perfkmod_series_record *recs, struct seen *seen)
{
	struct perfkmod_series_record *r, *l = &seen->last;
	int i, n = drain_more(test, s, cpu, recs, 0);
	bool good;

	for (i = 0; i < n; i++, seen->n++) {
		r = &recs[i];
		good = r->cpu == cpu && r->nr_values == 2 && !r->errors &&
		       (!seen->n || (r->time > l->time &&
				     r->values[0] >= l->values[0] &&
				     r->values[1] >= l->values[1]));
		KUNIT_EXPECT_TRUE_MSG(test, good,
				      "CPU %d record %d: %u values, errors %#x, time %llu after %llu, values %llu %llu after %llu %llu",
				      cpu, seen->n, r->nr_values, r->errors,
				      r->time, l->time, r->values[0],
				      r->values[1], l->values[0], l->values[1]);
		if (!good)
			return false;
		*l = *r;
	}
	return n >= 0;
}

/*
 * Reads every CPU's records into @seen until each CPU has @want of them,
 * the last made after @after; false after a minute without, or at the
 * first bad record.
 */
static bool take_until(struct kunit *test, struct perfkmod_series *s,
		       struct perfkmod_series_record *recs, struct seen *seen,
		       int want, u64 after)
{
	unsigned long end = jiffies + 60 * HZ;
	bool done;
	int cpu;

	do {
		msleep(20);
		done = true;
		for_each_online_cpu(cpu) {
			if (!take(test, s, cpu, recs, &seen[cpu]))
				return false;
			done &= seen[cpu].n >= want &&
				seen[cpu].last.time > after;
		}
	} while (!done && time_before(jiffies, end));
	return done;
}

/*
 * Two counters every millisecond: records on every CPU until each has 50,
 * never more than one per interval (a guest's timers may come late under
 * TCG, never early); times and values in order, each record with both
 * values, the CPU it says. Once the counters are stopped and each CPU has
 * recorded since, its last values are the counters' share of it: the
 * deltas add up to what each counter counted there.
 */
static void records_per_interval(struct kunit *test)
{
	struct perfkmod_counter *c[2] = {
		all_cpus(test, PERF_COUNT_SW_CPU_CLOCK),
		all_cpus(test, PERF_COUNT_SW_CONTEXT_SWITCHES),
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	struct perfkmod_value v;
	struct seen *seen;
	ktime_t t0;
	u64 stop;
	int cpu, j;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	seen = kunit_kcalloc(test, nr_cpu_ids, sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	/* before the timers start: every record is made after it */
	t0 = ktime_get();
	/* room for seconds of records between two reads: none dropped */
	s = new_series(test, c, 2, NSEC_PER_MSEC, 16 * RECS);
	KUNIT_ASSERT_TRUE_MSG(test, take_until(test, s, recs, seen, 50, 0),
			      "a CPU made fewer than 50 records in a minute");
	for (j = 0; j < 2; j++)
		perfkmod_counter_disable(c[j]);
	stop = ktime_get_ns();
	KUNIT_ASSERT_TRUE_MSG(test, take_until(test, s, recs, seen, 0, stop),
			      "a CPU made no record in a minute after the stop");

	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_LE_MSG(test, seen[cpu].n,
				    ktime_ms_delta(ktime_get(), t0) + 2,
				    "CPU %d", cpu);
		for (j = 0; j < 2; j++) {
			KUNIT_EXPECT_EQ(test, perfkmod_counter_read_cpu(c[j], cpu, &v), 0);
			KUNIT_EXPECT_EQ_MSG(test, seen[cpu].last.values[j], v.value,
					    "CPU %d counter %d", cpu, j);
		}
		kunit_info(test, "CPU %d: %d records in %lld ms", cpu,
			   seen[cpu].n, ktime_ms_delta(ktime_get(), t0));
	}
	KUNIT_EXPECT_EQ(test, perfkmod_series_dropped(s), 0);
}

/*
 * The records of @cpu that @s makes from now on, at least one, at most
 * RECS: whatever it holds now is discarded first. Waits for the CPU's
 * timer (30 s at most, then fails the case), not for a time.
 */
static int next_records(struct kunit *test, struct perfkmod_series *s,
			int cpu, struct perfkmod_series_record *recs)
{
	int n;

	drain(test, s, cpu, recs);
	test_await(30, (n = drain(test, s, cpu, recs)) > 0);
	KUNIT_EXPECT_GT_MSG(test, n, 0, "no record of CPU %d in 30 s", cpu);
	return n;
}

/*
 * A hardware counter's series: cycles of every CPU each millisecond, read
 * from the PMU in the timer's hard interrupt (arm64-pmu; skipped where
 * there is no PMU). Each CPU's records count on, and the last of the
 * case's CPU, busy between them until it has 5, counted its cycles.
 */
static void hardware_counter(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_counter *c;
	struct perfkmod_series *s;
	int cpu, i, n;

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		test_no_pmu(test, c);
		return;
	}
	test_release_at_end(test, c);
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = new_series(test, &c, 1, NSEC_PER_MSEC, RECS);
	/*
	 * busy on this CPU, where the case runs (migration disabled), 50 ms
	 * and until its timer made 5 records
	 */
	migrate_disable();
	cpu = smp_processor_id();
	busy_ms(50);
	n = 0;
	test_await_busy(30, (n = drain_more(test, s, cpu, recs, n)) >= 5 ||
			n < 0);
	migrate_enable();
	n = max(n, 0);
	KUNIT_EXPECT_GE_MSG(test, n, 5, "records of CPU %d in 30 s", cpu);
	for (i = 1; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, recs[i].errors, 0, "record %d", i);
		KUNIT_EXPECT_GE_MSG(test, recs[i].values[0], recs[i - 1].values[0],
				    "record %d", i);
	}
	if (n >= 2)
		KUNIT_EXPECT_GT(test, recs[n - 1].values[0], recs[0].values[0]);
	if (n)
		kunit_info(test, "CPU %d: %d records, %llu cycles between the first and last",
			   cpu, n, recs[n - 1].values[0] - recs[0].values[0]);
}

/*
 * The followed task: 50 times 1 ms busy, then asleep until the case has
 * seen it asleep (a sleep on a timer may end before the task leaves its
 * CPU), then asleep until stopped.
 */
struct follow {
	struct completion go, wake, done;
	/* the task's task-clock counter, and its value read by the task last */
	struct perfkmod_counter *clock;
	u64 mark;
};

static int follow_work(void *arg)
{
	struct follow *f = arg;
	int i;

	wait_for_completion(&f->go);
	for (i = 0; i < 50; i++) {
		busy_ms(1);
		wait_for_completion(&f->wake);
	}
	/* before the last switch out: its record counts at least this */
	f->mark = test_value(f->clock);
	complete(&f->done);
	/* asleep until kthread_stop(): no more records */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct perfkmod_series_record *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * A series of one task's counters (task-clock, context switches) follows
 * the task: a record each time the task leaves a CPU (51 sleeps at least)
 * and at the ticks that find it running; none of any other task. In time
 * order, over all CPUs, the values never go back; the last record, made as
 * the task went to sleep, is its counters' value then.
 */
static void follows_task(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.target = PERFKMOD_TARGET_TASK,
	};
	struct perfkmod_counter *c[2];
	struct perfkmod_series_config scfg = {
		.counters = c,
		.nr_counters = 2,
		.interval_ns = NSEC_PER_MSEC,
		.ring_records = RECS,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	struct task_struct *t;
	struct follow f;
	int cpu, i, n = 0;
	u64 clock, switches, dropped;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	init_completion(&f.go);
	init_completion(&f.wake);
	init_completion(&f.done);
	t = kthread_run(follow_work, &f, "perfkmod-follow");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "kthread_run: %pe", t);
	get_task_struct(t);
	cfg.task = t;
	cfg.config = PERF_COUNT_SW_TASK_CLOCK;
	c[0] = perfkmod_counter_create(&cfg);
	cfg.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	c[1] = perfkmod_counter_create(&cfg);
	if (IS_ERR(c[0]) || IS_ERR(c[1])) {
		KUNIT_FAIL(test, "perfkmod_counter_create: %pe %pe", c[0], c[1]);
		goto out_thread;
	}
	s = perfkmod_series_create(&scfg);
	if (IS_ERR(s)) {
		KUNIT_FAIL(test, "perfkmod_series_create: %pe", s);
		goto out_counters;
	}
	f.clock = c[0];
	complete(&f.go);
	for (i = 0; i < 50; i++) {
		if (!test_await(30, test_asleep(t, TASK_UNINTERRUPTIBLE))) {
			KUNIT_FAIL(test, "the task not asleep in 30 s, sleep %d", i);
			break;
		}
		complete(&f.wake);
	}
	complete_all(&f.wake);
	wait_for_completion(&f.done);
	/* asleep for good: its last record made */
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, test_asleep(t, TASK_INTERRUPTIBLE)),
			      "the task not asleep in 30 s after its sleeps");
	clock = test_value(c[0]);
	switches = test_value(c[1]);

	for_each_possible_cpu(cpu) {
		i = perfkmod_series_read(s, cpu, recs + n, RECS - n);
		KUNIT_EXPECT_GE(test, i, 0);
		n += max(i, 0);
	}
	dropped = perfkmod_series_dropped(s);
	perfkmod_series_release(s);
	KUNIT_EXPECT_EQ(test, dropped, 0);
	KUNIT_EXPECT_LT(test, n, RECS);	/* all of them read */
	KUNIT_EXPECT_GE(test, n, 50);
	sort(recs, n, sizeof(*recs), by_time, NULL);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, recs[i].errors, 0, "record %d", i);
		if (!i)
			continue;
		KUNIT_EXPECT_GE_MSG(test, recs[i].values[0], recs[i - 1].values[0],
				    "record %d", i);
		KUNIT_EXPECT_GE_MSG(test, recs[i].values[1], recs[i - 1].values[1],
				    "record %d", i);
	}
	if (n) {
		/*
		 * made at the last switch out: after the task's last read of
		 * its clock, which runs on until the switch is done (by how
		 * much is the host's to say under TCG: no bound of time)
		 */
		KUNIT_EXPECT_GE(test, recs[n - 1].values[0], f.mark);
		KUNIT_EXPECT_LE(test, recs[n - 1].values[0], clock);
		/* this switch is counted before or after the record */
		KUNIT_EXPECT_LE(test, switches - recs[n - 1].values[1], 1);
		/* each of the 50 sleeps and the last one switched out */
		KUNIT_EXPECT_GE(test, switches, 51);
		kunit_info(test, "%d records; task-clock %llu ns, %llu switches; last record %llu ns, %llu; the task's last read %llu ns",
			   n, clock, switches, recs[n - 1].values[0],
			   recs[n - 1].values[1], f.mark);
	}
out_counters:
	perfkmod_counter_release(c[1]);
	perfkmod_counter_release(c[0]);
out_thread:
	complete(&f.go);
	complete_all(&f.wake);
	kthread_stop(t);
	put_task_struct(t);
}

/* No reader: the ring fills, and every record after that is counted. */
static void drops_counted(struct kunit *test)
{
	struct perfkmod_counter *c = all_cpus(test, PERF_COUNT_SW_CPU_CLOCK);
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	u64 dropped;
	int cpu, n, total = 0;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = new_series(test, &c, 1, PERFKMOD_SERIES_MIN_INTERVAL_NS, 16);
	/* until each CPU's ring has been full: each dropped a record */
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_TRUE_MSG(test,
				      test_await(60, perfkmod_series_dropped_on(s, cpu)),
				      "CPU %d dropped nothing in 60 s", cpu);
	/* what was dropped before the reads, at least */
	dropped = perfkmod_series_dropped(s);
	for_each_online_cpu(cpu) {
		n = drain(test, s, cpu, recs);
		KUNIT_EXPECT_EQ_MSG(test, n, 16, "CPU %d: the ring's size", cpu);
		total += n;
	}
	KUNIT_EXPECT_GE(test, dropped, num_online_cpus());
	KUNIT_EXPECT_GE(test, perfkmod_series_dropped(s), dropped);
	kunit_info(test, "%d records read, %llu dropped", total, dropped);
}

/* What perfkmod_series_create() refuses, and why. */
static void bad_configs(struct kunit *test)
{
	struct perfkmod_config one_cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.target = PERFKMOD_TARGET_CPU,
	};
	struct perfkmod_counter *c[PERFKMOD_SERIES_MAX_COUNTERS + 1];
	struct perfkmod_series_config cfg = {
		.counters = c,
		.nr_counters = 1,
		.interval_ns = NSEC_PER_MSEC,
	};
	struct perfkmod_series *s;
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		c[i] = all_cpus(test, PERF_COUNT_SW_CPU_CLOCK);
	cfg.nr_counters = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.nr_counters = ARRAY_SIZE(c);
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.nr_counters = 1;
	cfg.interval_ns = PERFKMOD_SERIES_MIN_INTERVAL_NS - 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.interval_ns = NSEC_PER_MSEC;
	cfg.ring_records = PERFKMOD_SERIES_MAX_RECORDS + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.ring_records = 0;
	/* a one-CPU counter: the series reads every CPU's share */
	c[0] = test_create(test, &one_cfg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	/* a task's counter with an all-CPUs one; an inherit one */
	one_cfg.target = PERFKMOD_TARGET_TASK;
	one_cfg.task = current;
	c[0] = test_create(test, &one_cfg);
	cfg.nr_counters = 2;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.nr_counters = 1;
	one_cfg.inherit = true;
	c[0] = test_create(test, &one_cfg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	c[0] = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	c[0] = c[1];
	cfg.counters = NULL;
	KUNIT_EXPECT_EQ(test, PTR_ERR(perfkmod_series_create(&cfg)), -EINVAL);
	cfg.counters = c;
	s = perfkmod_series_create(&cfg);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(s), "%pe", s);
	KUNIT_EXPECT_EQ(test, perfkmod_series_read(s, -1, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, perfkmod_series_read(s, nr_cpu_ids, NULL, 0), -EINVAL);
	perfkmod_series_release(s);
}

/*
 * CPU 1 goes and comes back while a series samples a page-faults counter
 * (a static key) and cpu-clock: the hotplug state stops and starts CPU 1's
 * timer on CPU 1 (one that migrated to CPU 0 would record there into CPU
 * 1's ring, which drain() catches), CPU 1 records again once back, and a
 * series is created and released meanwhile.
 */
static void under_hotplug(struct kunit *test)
{
	struct perfkmod_counter *c[2] = {
		all_cpus(test, PERF_COUNT_SW_CPU_CLOCK),
		all_cpus(test, PERF_COUNT_SW_PAGE_FAULTS),
	};
	struct perfkmod_series_config other_cfg = {
		.counters = c,
		.nr_counters = 1,
		.interval_ns = PERFKMOD_SERIES_MIN_INTERVAL_NS,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s, *other;
	struct test_hotplug *h;
	int i, n, cycles;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "CPU 1 is not online");
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = new_series(test, c, 2, NSEC_PER_MSEC, RECS);
	h = test_hotplug_start(test);
	for (i = 0; test_hotplug_more(h, i, 200, 5); i++) {
		other = perfkmod_series_create(&other_cfg);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(other), "%pe", other);
		msleep(20);
		if (!IS_ERR(other))
			perfkmod_series_release(other);
		/* each CPU's records made on that CPU (drain() checks) */
		drain(test, s, 0, recs);
		drain(test, s, 1, recs);
	}
	cycles = test_hotplug_stop(h);
	KUNIT_EXPECT_GE_MSG(test, cycles, 1, "no hotplug cycle of CPU 1 in 60 s");
	n = next_records(test, s, 1, recs);
	kunit_info(test, "%d hotplug cycles; CPU 1 back: %d records", cycles, n);
}

/*
 * A timer that comes late lets the intervals in between pass unrecorded,
 * and counts them: CPU 0's timer held off for 20 ms of 1 ms intervals
 * (interrupts off there) skips at least 10 of them once it runs (TCG may
 * raise its interrupt later still), and records again after.
 */
static void late_timer_skips(struct kunit *test)
{
	struct perfkmod_counter *c[1] = {
		all_cpus(test, PERF_COUNT_SW_CONTEXT_SWITCHES),
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	u64 skipped;
	int n;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	s = new_series(test, c, 1, NSEC_PER_MSEC, RECS);
	usleep_range(5000, 6000);
	skipped = perfkmod_series_skipped_on(s, 0);
	local_irq_disable();
	mdelay(20);
	local_irq_enable();
	/* the late tick */
	test_await(30, perfkmod_series_skipped_on(s, 0) - skipped >= 10);
	skipped = perfkmod_series_skipped_on(s, 0) - skipped;
	KUNIT_EXPECT_GE_MSG(test, skipped, 10, "intervals CPU 0 skipped in 30 s");
	n = next_records(test, s, 0, recs);
	kunit_info(test, "%llu intervals skipped; then %d records", skipped, n);
}

/*
 * A counter released while a series reads it, as when its module is not
 * the series' (it cannot know of the series): the series reads it no more
 * and records it as an error, and goes on with its other counter.
 */
static void counter_released_under_series(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct perfkmod_counter *c[2];
	struct perfkmod_series_config scfg = {
		.counters = c,
		.nr_counters = 2,
		.interval_ns = NSEC_PER_MSEC,
		.ring_records = RECS,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	int cpu, i, n;

	/* c[0] is released in the middle: by hand on every way out */
	c[1] = all_cpus(test, PERF_COUNT_SW_CONTEXT_SWITCHES);
	c[0] = perfkmod_counter_create(&cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c[0]));
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	s = recs ? perfkmod_series_create(&scfg) : ERR_PTR(-ENOMEM);
	if (IS_ERR(s)) {
		perfkmod_counter_release(c[0]);
		KUNIT_FAIL(test, "perfkmod_series_create: %pe", s);
		return;
	}
	/* released at the end, before c[1] */
	if (kunit_add_action_or_reset(test, release_series, s)) {
		perfkmod_counter_release(c[0]);
		KUNIT_FAIL(test, "no room for the series' release");
		return;
	}
	for_each_online_cpu(cpu) {
		n = next_records(test, s, cpu, recs);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, recs[i].errors, 0);
	}

	perfkmod_counter_release(c[0]);
	for_each_online_cpu(cpu) {
		n = next_records(test, s, cpu, recs);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ_MSG(test, recs[i].errors, BIT(0),
					    "CPU %d record %d", cpu, i);
			KUNIT_EXPECT_EQ(test, recs[i].values[0], 0);
		}
	}
	KUNIT_EXPECT_EQ(test, perfkmod_series_dropped(s), 0);
}

static struct kunit_case perfkmod_series_cases[] = {
	KUNIT_CASE(records_per_interval),
	KUNIT_CASE(follows_task),
	KUNIT_CASE(hardware_counter),
	KUNIT_CASE(drops_counted),
	KUNIT_CASE(late_timer_skips),
	KUNIT_CASE(bad_configs),
	KUNIT_CASE(counter_released_under_series),
	KUNIT_CASE_SLOW(under_hotplug),
	{}
};

static struct kunit_suite perfkmod_series_suite = {
	.name = "perfkmod_series",
	.test_cases = perfkmod_series_cases,
};

kunit_test_suites(&perfkmod_series_suite);
