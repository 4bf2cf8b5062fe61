/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's KUnit suites share; they all link into perfkmod_kunit.ko.
 */
#ifndef _PERFKMOD_TEST_H
#define _PERFKMOD_TEST_H

#include <linux/types.h>

/*
 * Module parameter: the lane has a hardware PMU, so a hardware case that
 * cannot create its counter fails instead of being skipped.
 */
extern bool require_pmu;

#endif /* _PERFKMOD_TEST_H */
