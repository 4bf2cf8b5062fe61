// SPDX-License-Identifier: GPL-2.0
/*
 * What perfkmod's KUnit suites share (declared in test.h): the require_pmu
 * parameter, counters released at the end of a case, the verdict of a
 * hardware case that has no PMU, the type perf gives a software event, a
 * CPU hotplug loop and, on x86, a function run in a real NMI.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "internal.h"
#include "test.h"

bool require_pmu;
module_param(require_pmu, bool, 0400);
MODULE_PARM_DESC(require_pmu, "fail, rather than skip, when there is no hardware PMU");

KUNIT_DEFINE_ACTION_WRAPPER(release_action, perfkmod_counter_release,
			    struct perfkmod_counter *);

void test_release_at_end(struct kunit *test, struct perfkmod_counter *c)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, release_action, c), 0);
}

struct perfkmod_counter *test_create(struct kunit *test,
				     const struct perfkmod_config *cfg)
{
	struct perfkmod_counter *c = perfkmod_counter_create(cfg);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(c), "perfkmod_counter_create: %pe: %s",
			       c, perfkmod_strerror(PTR_ERR_OR_ZERO(c)));
	test_release_at_end(test, c);
	return c;
}

KUNIT_DEFINE_ACTION_WRAPPER(release_series, perfkmod_series_release,
			    struct perfkmod_series *);

struct perfkmod_series *test_series(struct kunit *test,
				    const struct perfkmod_series_config *cfg)
{
	struct perfkmod_series *s = perfkmod_series_create(cfg);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(s), "perfkmod_series_create: %pe", s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, release_series, s), 0);
	return s;
}

void test_no_pmu(struct kunit *test, const void *err)
{
	if (require_pmu)
		KUNIT_FAIL(test, "no hardware counter: %pe", err);
	else
		kunit_skip(test, "no hardware PMU here (%pe); the arm64-pmu lane runs this case",
			   err);
}

u64 test_value(struct perfkmod_counter *c)
{
	struct perfkmod_value v;

	perfkmod_counter_read(c, &v);
	return v.value;
}

u32 test_sw_type(struct kunit *test, u64 config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.disabled = 1,
	};
	struct perf_event *event;
	u32 type;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "software event %llu: %pe",
			       config, event);
	type = event->attr.type;
	perf_event_release_kernel(event);
	return type;
}

#ifdef CONFIG_X86
static void (*nmi_fn)(void *arg, struct pt_regs *regs);
static void *nmi_arg;
static bool nmi_armed;

/* Claims only the NMI test_in_nmi() sends itself. */
static int test_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(nmi_armed))
		return NMI_DONE;
	nmi_fn(nmi_arg, regs);
	/* after the call: the sender waits for this */
	smp_store_release(&nmi_armed, false);
	return NMI_HANDLED;
}

static struct perf_sample_data nmi_data;

/* What perf does with an overflow of @event in NMI. */
static void nmi_overflow(void *event, struct pt_regs *regs)
{
	perfkmod_overflow(event, &nmi_data, regs);
}

int test_overflow_in_nmi(struct perf_event *event)
{
	perf_sample_data_init(&nmi_data, 0, 1);
	return test_in_nmi(nmi_overflow, event);
}

int test_in_nmi(void (*fn)(void *arg, struct pt_regs *regs), void *arg)
{
	ktime_t end;
	int err;

	err = register_nmi_handler(NMI_LOCAL, test_nmi_handler, 0,
				   "perfkmod_test_in_nmi");
	if (err)
		return err;
	nmi_fn = fn;
	nmi_arg = arg;
	migrate_disable();
	WRITE_ONCE(nmi_armed, true);
	apic->send_IPI_self(NMI_VECTOR);
	end = ktime_add_ms(ktime_get(), 30 * MSEC_PER_SEC);
	/* pairs with smp_store_release() in the handler: @fn has run */
	while (smp_load_acquire(&nmi_armed) && ktime_before(ktime_get(), end))
		usleep_range(10, 20);
	migrate_enable();
	err = READ_ONCE(nmi_armed) ? -ETIMEDOUT : 0;
	WRITE_ONCE(nmi_armed, false);
	unregister_nmi_handler(NMI_LOCAL, "perfkmod_test_in_nmi");
	return err;
}
#endif

struct test_hotplug {
	struct kunit *test;
	struct task_struct *task;
	int cycles;
	ktime_t end;	/* of test_hotplug_more()'s wait */
};

/* Take CPU 1 down and up until kthread_stop(), counting whole cycles. */
static int hotplug_loop(void *data)
{
	struct test_hotplug *h = data;

	while (!kthread_should_stop()) {
		if (!remove_cpu(1) && !add_cpu(1))
			WRITE_ONCE(h->cycles, h->cycles + 1);
		cond_resched();
	}
	return 0;
}

/* Also run when the case ends early: nothing left cycling, CPU 1 back. */
static void hotplug_end(void *data)
{
	struct test_hotplug *h = data;

	if (h->task)
		kthread_stop(h->task);
	h->task = NULL;
	if (!cpu_online(1))
		add_cpu(1);
}

struct test_hotplug *test_hotplug_start(struct kunit *test)
{
	struct test_hotplug *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->test = test;
	h->end = ktime_add_ms(ktime_get(), 60 * MSEC_PER_SEC);
	t = kthread_run(hotplug_loop, h, "perfkmod-hotplug");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "kthread_run: %pe", t);
	h->task = t;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hotplug_end, h), 0);
	return h;
}

int test_hotplug_cycles(struct test_hotplug *h)
{
	return READ_ONCE(h->cycles);
}

bool test_hotplug_more(struct test_hotplug *h, int round, int rounds,
		       int cycles)
{
	int done = test_hotplug_cycles(h);

	if (done >= cycles || (round >= rounds && done))
		return false;
	return ktime_before(ktime_get(), h->end);
}

int test_hotplug_stop(struct test_hotplug *h)
{
	kthread_stop(h->task);
	h->task = NULL;
	if (!cpu_online(1))
		KUNIT_EXPECT_EQ(h->test, add_cpu(1), 0);
	return h->cycles;
}
