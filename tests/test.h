/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's KUnit suites share; they all link into perfkmod_kunit.ko.
 */
#ifndef _PERFKMOD_TEST_H
#define _PERFKMOD_TEST_H

#include <linux/ktime.h>
#include <linux/processor.h>
#include <linux/types.h>

/*
 * Module parameter: the lane has a hardware PMU, so a hardware case that
 * cannot create its counter fails instead of being skipped.
 */
extern bool require_pmu;

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
