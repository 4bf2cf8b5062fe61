// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the wakeups of a series' readers (perfkmod_series.h's
 * poll API): a reader on the series' wait queue stays asleep while no
 * CPU's ring holds the watermark and is woken by the record that brings
 * one there, never from NMI; the default watermark is one record; the
 * series' release wakes it and says the series is gone; a hardware
 * trigger's records, made in NMI (pseudo-NMI on arm64), wake it too; and
 * wakeups go on while CPU 1 goes down and up.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/hw_breakpoint.h>
#include <linux/poll.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/wait.h>

#include "internal.h"
#include "test.h"

#define RECS	512

/* A reader asleep in poll(), as the poll table of poll() or epoll. */
struct poller {
	poll_table pt;
	wait_queue_entry_t entry;
	wait_queue_head_t *head;
	struct perfkmod_series_waitq *wq;
	atomic_t wakes;
	atomic_t wakes_in_nmi;
};

static int poller_wake(wait_queue_entry_t *entry, unsigned int mode,
		       int sync, void *key)
{
	struct poller *p = container_of(entry, struct poller, entry);

	if (in_nmi())
		atomic_inc(&p->wakes_in_nmi);
	atomic_inc(&p->wakes);
	return 0;
}

static void poller_queue(struct file *file, wait_queue_head_t *head,
			 poll_table *pt)
{
	struct poller *p = container_of(pt, struct poller, pt);

	p->head = head;
	init_waitqueue_func_entry(&p->entry, poller_wake);
	add_wait_queue(head, &p->entry);
}

/* Off the queue, and its reference given back, when the case ends. */
static void poller_end(void *data)
{
	struct poller *p = data;

	if (p->head)
		remove_wait_queue(p->head, &p->entry);
	perfkmod_series_waitq_put(p->wq);
}

/*
 * A poller on @s's queue, as a file's poll operation makes one: what
 * perfkmod_series_poll_wait() answers, and then perfkmod_series_ready()'s
 * answer, must be nothing yet.
 */
static struct poller *poller_start(struct kunit *test,
				   struct perfkmod_series *s)
{
	struct poller *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	init_poll_funcptr(&p->pt, poller_queue);
	p->wq = perfkmod_series_waitq_get(s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, poller_end, p), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_series_poll_wait(p->wq, NULL, &p->pt), 0);
	KUNIT_ASSERT_NOT_NULL(test, p->head);
	KUNIT_EXPECT_FALSE(test, perfkmod_series_ready(s));
	return p;
}

static int bp_target;

static noinline void write_target(int i)
{
	WRITE_ONCE(bp_target, i);
}

/*
 * An event-driven series of a write breakpoint on bp_target, of all CPUs,
 * period 1: a record per write_target() on the writing CPU.
 */
static struct perfkmod_series *bp_series(struct kunit *test,
					 unsigned int wakeup)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&bp_target,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W,
		.sample_period = 1,
	};
	struct perfkmod_series_config scfg = {
		.nr_counters = 1,
		.ring_records = RECS,
		.wakeup_records = wakeup,
	};
	struct perfkmod_counter *c;

	c = perfkmod_counter_create(&cfg);
	if (IS_ENABLED(CONFIG_ARM64) && c == ERR_PTR(-EOPNOTSUPP))
		kunit_skip(test, "arm64 cannot sample breakpoints; the x86 lanes run this");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "perfkmod_counter_create: %pe", c);
	test_release_at_end(test, c);
	scfg.counters = &c;
	scfg.trigger = c;
	return test_series(test, &scfg);
}

/* @n records on this CPU, with interrupts off: none is read meanwhile. */
static void write_n(int n)
{
	unsigned long flags;
	int i;

	local_irq_save(flags);
	for (i = 0; i < n; i++)
		write_target(i);
	local_irq_restore(flags);
}

/*
 * Watermark 10: nine records leave the poller asleep and the series not
 * ready; the tenth wakes it, from the irq_work its CPU queued (never in
 * NMI), and makes the series ready until its ring is read below the
 * watermark.
 */
static void wakes_at_watermark(struct kunit *test)
{
	struct perfkmod_series_record *recs;
	struct perfkmod_series *s;
	struct poller *p;
	int cpu, n;

	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	s = bp_series(test, 10);
	p = poller_start(test, s);

	cpu = get_cpu();
	write_n(9);
	put_cpu();
	KUNIT_EXPECT_FALSE(test, perfkmod_series_ready(s));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->wakes), 0);

	cpu = get_cpu();
	write_n(1);
	put_cpu();
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, atomic_read(&p->wakes) > 0),
			      "the poller was not woken at the 10th record");
	KUNIT_EXPECT_TRUE(test, perfkmod_series_ready(s));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->wakes_in_nmi), 0);
	n = perfkmod_series_read(s, cpu, recs, 5);
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_FALSE(test, perfkmod_series_ready(s));
	n = perfkmod_series_read(s, cpu, recs, RECS);
	KUNIT_EXPECT_EQ(test, n, 5);
}

/* The default watermark (0): the first record wakes the poller. */
static void wakes_at_first_record(struct kunit *test)
{
	struct perfkmod_series *s;
	struct poller *p;

	s = bp_series(test, 0);
	p = poller_start(test, s);
	get_cpu();
	write_n(1);
	put_cpu();
	KUNIT_EXPECT_TRUE_MSG(test, test_await(30, atomic_read(&p->wakes) > 0),
			      "the poller was not woken by a record");
	KUNIT_EXPECT_TRUE(test, perfkmod_series_ready(s));
}

/*
 * A series released while a reader sleeps on its queue: the release
 * wakes it, and the queue, which the reader still holds, says the series
 * is gone (EPOLLHUP | EPOLLERR) to the poll that follows.
 */
static void release_wakes_poller(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1ULL << 40,
	};
	struct perfkmod_series_config scfg = {
		.nr_counters = 1,
	};
	struct perfkmod_counter *c;
	struct perfkmod_series *s;
	struct poller *p;

	c = test_create(test, &cfg);
	scfg.counters = &c;
	scfg.trigger = c;
	s = perfkmod_series_create(&scfg);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(s), "%pe", s);
	p = poller_start(test, s);
	perfkmod_series_release(s);
	KUNIT_EXPECT_GT(test, atomic_read(&p->wakes), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_series_poll_wait(p->wq, NULL, NULL),
			EPOLLHUP | EPOLLERR);
}

/*
 * A hardware trigger (cycles of this thread; the arm64-pmu lane's
 * overflows are pseudo-NMIs): its records, made in NMI, wake the poller
 * from the irq_work they queue, never in NMI.
 */
static void nmi_record_wakes(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.target = PERFKMOD_TARGET_TASK,
		.task = current,
		.sample_period = 50000000,
		.disabled = true,
	};
	struct perfkmod_series_config scfg = {
		.nr_counters = 1,
		.ring_records = RECS,
	};
	struct perfkmod_counter *c;
	struct perfkmod_series *s;
	struct poller *p;

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		test_no_pmu(test, c);
		return;
	}
	test_release_at_end(test, c);
	scfg.counters = &c;
	scfg.trigger = c;
	s = test_series(test, &scfg);
	p = poller_start(test, s);
	perfkmod_counter_enable(c);
	KUNIT_EXPECT_TRUE_MSG(test,
			      test_await_busy(120, atomic_read(&p->wakes) > 0),
			      "no wakeup from cycles' records in 120 s");
	perfkmod_counter_disable(c);
	KUNIT_EXPECT_TRUE(test, perfkmod_series_ready(s));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->wakes_in_nmi), 0);
}

/*
 * A cpu-clock trigger of all CPUs every 100 us, with a poller, while CPU 1
 * goes down and up: each round the poller is woken again after the rings
 * are read (a wakeup queued on a CPU going down runs before it is gone),
 * never in NMI; the series' release at the end syncs the irq_works left.
 */
static void wakes_under_hotplug(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100 * NSEC_PER_USEC,
	};
	struct perfkmod_series_config scfg = {
		.nr_counters = 1,
		.ring_records = RECS,
	};
	struct perfkmod_series_record *recs;
	struct perfkmod_counter *c;
	struct perfkmod_series *s;
	struct test_hotplug *h;
	struct poller *p;
	int cpu, i, from, cycles;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "CPU 1 is not online");
	recs = kunit_kcalloc(test, RECS, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	c = test_create(test, &cfg);
	scfg.counters = &c;
	scfg.trigger = c;
	s = test_series(test, &scfg);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	init_poll_funcptr(&p->pt, poller_queue);
	p->wq = perfkmod_series_waitq_get(s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, poller_end, p), 0);
	perfkmod_series_poll_wait(p->wq, NULL, &p->pt);
	h = test_hotplug_start(test);
	for (i = 0; test_hotplug_more(h, i, 200, 5); i++) {
		for_each_possible_cpu(cpu)
			while (perfkmod_series_read(s, cpu, recs, RECS) > 0)
				;
		from = atomic_read(&p->wakes);
		KUNIT_EXPECT_TRUE_MSG(test,
				      test_await(60, atomic_read(&p->wakes) > from),
				      "round %d: no wakeup", i);
	}
	cycles = test_hotplug_stop(h);
	KUNIT_EXPECT_GE_MSG(test, cycles, 1, "no hotplug cycle of CPU 1 in 60 s");
	KUNIT_EXPECT_EQ(test, atomic_read(&p->wakes_in_nmi), 0);
	kunit_info(test, "%d hotplug cycles of CPU 1, %d wakeups", cycles,
		   atomic_read(&p->wakes));
}

static struct kunit_case perfkmod_poll_cases[] = {
	KUNIT_CASE(wakes_at_watermark),
	KUNIT_CASE(wakes_at_first_record),
	KUNIT_CASE(release_wakes_poller),
	KUNIT_CASE(nmi_record_wakes),
	KUNIT_CASE_SLOW(wakes_under_hotplug),
	{}
};

static struct kunit_suite perfkmod_poll_suite = {
	.name = "perfkmod_poll",
	.test_cases = perfkmod_poll_cases,
};

kunit_test_suite(perfkmod_poll_suite);
