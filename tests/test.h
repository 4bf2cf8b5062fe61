/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's KUnit suites share; they all link into perfkmod_kunit.ko.
 */
#ifndef _PERFKMOD_TEST_H
#define _PERFKMOD_TEST_H

#include <linux/ktime.h>
#include <linux/processor.h>
#include <linux/types.h>

struct kunit;
struct pt_regs;
struct perfkmod_config;
struct perfkmod_counter;

/*
 * Module parameter: the lane has a hardware PMU, so a hardware case that
 * cannot create its counter fails instead of being skipped.
 */
extern bool require_pmu;

/*
 * Release @c when the case ends, however it ends; when that cannot be
 * arranged (-ENOMEM), @c is released at once and the case fails.
 */
void test_release_at_end(struct kunit *test, struct perfkmod_counter *c);

/* Create a counter released when the case ends, or fail the case. */
struct perfkmod_counter *test_create(struct kunit *test,
				     const struct perfkmod_config *cfg);

/*
 * A hardware case could not create its counter (@err, an ERR_PTR): fail
 * the case on a lane with a PMU (require_pmu), else skip it with the reason,
 * which ends the case. The caller returns right after.
 */
void test_no_pmu(struct kunit *test, const void *err);

/* perfkmod_counter_read()'s value of @c. */
u64 test_value(struct perfkmod_counter *c);

/*
 * A kthread that takes CPU 1 down and up until test_hotplug_stop(), or
 * until the case ends, however it ends (CPU 1 is then brought back).
 * test_hotplug_cycles() tells how many whole cycles it made so far;
 * test_hotplug_stop() stops it, expects CPU 1 back online and returns them.
 */
struct test_hotplug;
struct test_hotplug *test_hotplug_start(struct kunit *test);
int test_hotplug_cycles(struct test_hotplug *h);
int test_hotplug_stop(struct test_hotplug *h);

#ifdef CONFIG_X86
/*
 * Run @fn(@arg, the NMI's registers) once in a real NMI on this CPU (a
 * self-IPI through the local APIC), the calling task kept on the CPU
 * meanwhile. Return: 0, or -ETIMEDOUT when the NMI did not come within
 * about 100 ms.
 */
int test_in_nmi(void (*fn)(void *arg, struct pt_regs *regs), void *arg);
#endif

/*
 * Keep the CPU busy for @ms milliseconds of ktime_get() time. Unlike
 * mdelay(), whose loop calibration is unreliable under TCG, the time spent
 * is what the clock says.
 */
static inline void busy_ms(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

#endif /* _PERFKMOD_TEST_H */
