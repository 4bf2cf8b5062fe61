// SPDX-License-Identifier: GPL-2.0
/*
 * region_target: a function for root's function regions to measure, and a
 * marker region of the module's own, for tests/guest/test-regions.sh.
 *
 *	insmod region_target.ko
 *	echo N >/sys/module/region_target/parameters/run
 *
 * Each write of N calls perfkmod_test_region_target() N times, each call
 * bracketed by the marker of the module's region "region_target" (made
 * on, over an all-CPUs counter of the module's own, spec=); the function
 * writes region_target_var writes= times a call, so that a breakpoint
 * counter on it (mem:ADDR:w4, ADDR from /proc/kallsyms) counts exactly
 * that many per call. With forget_cleanup=1 the module unloads without
 * releasing its region and counter, for perfkmod's module notifier to.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "perfkmod.h"
#include "region_target.h"

static char *spec = "page-faults";
module_param(spec, charp, 0400);
MODULE_PARM_DESC(spec, "the event of the marker region's counter, in perfkmod's grammar; all CPUs");

static unsigned int writes = 3;
module_param(writes, uint, 0400);
MODULE_PARM_DESC(writes, "the writes of region_target_var each call makes");

static bool forget_cleanup;
module_param(forget_cleanup, bool, 0400);
MODULE_PARM_DESC(forget_cleanup, "testing only: unload without releasing the region and counter, for perfkmod to release them");

/* Written by each call, writes times: a breakpoint counter's target. */
static u32 region_target_var;

static DEFINE_PERFKMOD_MARKER(region_target_marker);
static struct perfkmod_counter *counter;
static struct perfkmod_region *region;

/* One write at a time, so that the calls of a write are N in a row. */
static DEFINE_MUTEX(run_mutex);

/**
 * perfkmod_test_region_target() - the function the guest's regions measure
 *
 * Writes region_target_var @writes times. noinline and exported, so
 * that it keeps its symbol, which kprobes probes, and is never inlined
 * nor cloned.
 *
 * Context: any context.
 */
noinline void perfkmod_test_region_target(void)
{
	unsigned int i;

	for (i = 0; i < writes; i++)
		WRITE_ONCE(region_target_var, region_target_var + 1);
}
EXPORT_SYMBOL_NS_GPL(perfkmod_test_region_target, PERFKMOD_TEST);

/* Call the function N times, each call a call of the marker's region. */
static int run_set(const char *val, const struct kernel_param *kp)
{
	struct perfkmod_region_call call;
	unsigned int n, i;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	mutex_lock(&run_mutex);
	for (i = 0; i < n; i++) {
		perfkmod_region_begin(&region_target_marker, &call);
		perfkmod_test_region_target();
		perfkmod_region_end(&region_target_marker, &call);
	}
	mutex_unlock(&run_mutex);
	return 0;
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
};

module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call perfkmod_test_region_target() N times");

static int __init region_target_init(void)
{
	static const char *const names[] = { "marks" };
	struct perfkmod_region_config rcfg = {
		.name = "region_target",
		.counters = &counter,
		.counter_names = names,
		.nr_counters = 1,
		.marker = &region_target_marker,
	};
	struct perfkmod_config cfg;
	int err;

	err = perfkmod_parse(spec, &cfg);
	if (err) {
		pr_err("spec \"%s\": %s\n", spec, perfkmod_strerror(err));
		return err;
	}
	counter = perfkmod_counter_create(&cfg);
	if (IS_ERR(counter)) {
		pr_err("%s: %s\n", spec, perfkmod_strerror(PTR_ERR(counter)));
		return PTR_ERR(counter);
	}
	region = perfkmod_region_create(&rcfg);
	if (IS_ERR(region)) {
		err = PTR_ERR(region);
		pr_err("region: %s\n", perfkmod_strerror(err));
		goto err_counter;
	}
	return 0;

err_counter:
	perfkmod_counter_release(counter);
	return err;
}

static void __exit region_target_exit(void)
{
	if (forget_cleanup)
		return;
	perfkmod_region_release(region);
	perfkmod_counter_release(counter);
}

module_init(region_target_init);
module_exit(region_target_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("perfkmod test client: a function for function regions, and a marker region");
