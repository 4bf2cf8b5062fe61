// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the test harness itself: the lanes' kernels can do what
 * the other suites rely on. perfkmod_kunit.ko holds every perfkmod suite and
 * runs them when it is loaded into a kernel built with KUnit (CONFIG_KUNIT,
 * y or m; scripts/check.sh does that in QEMU).
 *
 * Hardware cases need a PMU: under x86 TCG there is none and they are
 * skipped with the reason; the arm64-pmu lane has one and loads this module
 * with require_pmu=1, which turns such a skip into a failure.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#include "test.h"

/* Create @attr on the current task; skip or fail when there is no PMU. */
static struct perf_event *create_hw_counter(struct kunit *test,
					    struct perf_event_attr *attr,
					    perf_overflow_handler_t handler,
					    void *context)
{
	struct perf_event *event;

	event = perf_event_create_kernel_counter(attr, -1, current, handler,
						 context);
	if (IS_ERR(event))
		test_no_pmu(test, event);
	return event;
}

struct overflow_probe {
	atomic_t overflows;
	atomic_t in_nmi;
};

static void probe_overflow(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	struct overflow_probe *probe = event->overflow_handler_context;

	atomic_inc(&probe->overflows);
	if (in_nmi())
		atomic_inc(&probe->in_nmi);
}

/*
 * A sampling cycles counter overflows, and on arm64 with pseudo-NMIs
 * (irqchip.gicv3_pseudo_nmi=1) each overflow is handled in NMI context.
 */
static void hw_cycles_overflow_in_nmi(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000000,
	};
	struct overflow_probe probe = {};
	struct perf_event *event;

	event = create_hw_counter(test, &attr, probe_overflow, &probe);
	if (IS_ERR(event))
		return;
	/* busy: the task's cycles count only while it runs */
	test_await_busy(30, atomic_read(&probe.overflows) >= 20);
	perf_event_release_kernel(event);

	KUNIT_EXPECT_GE_MSG(test, atomic_read(&probe.overflows), 20, "overflows in 30 s");
	KUNIT_EXPECT_EQ(test, atomic_read(&probe.in_nmi),
			atomic_read(&probe.overflows));
}

/* A software counter of context switches counts schedule() calls. */
static void sw_context_switches_count(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	struct perf_event *event;
	u64 enabled, running, count;
	int i;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "create: %pe", event);
	for (i = 0; i < 10; i++)
		schedule_timeout_uninterruptible(1);
	count = perf_event_read_value(event, &enabled, &running);
	perf_event_release_kernel(event);

	KUNIT_EXPECT_GE(test, count, 10);
	KUNIT_EXPECT_GT(test, enabled, 0);
}

/* Loading perfkmod created its debugfs directory. */
static void debugfs_dir_exists(struct kunit *test)
{
	struct dentry *dir = debugfs_lookup("perfkmod", NULL);

	KUNIT_EXPECT_NOT_NULL_MSG(test, dir, "is perfkmod loaded?");
	dput(dir);
}

static struct kunit_case perfkmod_harness_cases[] = {
	KUNIT_CASE(debugfs_dir_exists),
	KUNIT_CASE(sw_context_switches_count),
	KUNIT_CASE(hw_cycles_overflow_in_nmi),
	{}
};

static struct kunit_suite perfkmod_harness_suite = {
	.name = "perfkmod_harness",
	.test_cases = perfkmod_harness_cases,
};

kunit_test_suites(&perfkmod_harness_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for perfkmod");
