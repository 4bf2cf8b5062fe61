// SPDX-License-Identifier: GPL-2.0
/*
 * What perfkmod's KUnit suites share (declared in test.h): the require_pmu
 * parameter, counters released at the end of a case, the verdict of a
 * hardware case that has no PMU, and a CPU hotplug loop.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>

#include "perfkmod.h"
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

void test_no_pmu(struct kunit *test, const void *err)
{
	if (require_pmu)
		KUNIT_FAIL(test, "no hardware counter: %pe", err);
	else
		kunit_skip(test, "no hardware PMU here (%pe); the arm64-pmu lane runs this case",
			   err);
}

int test_hotplug_loop(void *data)
{
	int *cycles = data;

	while (!kthread_should_stop()) {
		if (!remove_cpu(1) && !add_cpu(1))
			WRITE_ONCE(*cycles, *cycles + 1);
		cond_resched();
	}
	return 0;
}
