// SPDX-License-Identifier: GPL-2.0
/*
 * xmod_misuse: a client that calls perfkmod where it may not, for
 * tests/guest/test-misuse.sh: a direct callback of a page fault counter on
 * every CPU, which runs in the faulting task with preemption off, calls
 * perfkmod_callback_unregister() on itself and perfkmod_counter_read_cpu()
 * at each run. Both may sleep: perfkmod warns once for each and refuses,
 * on every kernel, also where preempt_count() does not count
 * preempt_disable() (no CONFIG_PREEMPT_COUNT). The callback stays
 * registered and goes on running.
 *
 *	insmod xmod_misuse.ko
 *	cat /sys/module/xmod_misuse/parameters/seen
 *
 * seen gives "RUNS REFUSED ACCEPTED": the callback's runs since load, and
 * its perfkmod_counter_read_cpu() calls that answered -EDEADLK and that
 * did not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "perfkmod.h"

static struct perfkmod_counter *counter;
static struct perfkmod_callback *cb;
static atomic64_t runs;
static atomic64_t refused;
static atomic64_t accepted;

/* Context: a page fault's, preemption off: nothing here may sleep. */
static void misuse_fn(const struct perfkmod_sample *sample,
		      struct pt_regs *regs, void *context)
{
	struct perfkmod_value val;

	atomic64_inc(&runs);
	perfkmod_callback_unregister(cb);
	if (perfkmod_counter_read_cpu(counter, sample->cpu, &val) == -EDEADLK)
		atomic64_inc(&refused);
	else
		atomic64_inc(&accepted);
}

static int seen_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld %lld %lld\n", atomic64_read(&runs),
			  atomic64_read(&refused), atomic64_read(&accepted));
}

static const struct kernel_param_ops seen_ops = {
	.get = seen_get,
};

module_param_cb(seen, &seen_ops, NULL, 0444);
MODULE_PARM_DESC(seen, "the callback's runs, refused and accepted reads since load");

static int __init xmod_misuse_init(void)
{
	struct perfkmod_config cfg = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1,
	};

	counter = perfkmod_counter_create(&cfg);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	/* the warnings the callback's misuse is due to give */
	pr_info("PERFKMOD-EXPECT-WARN perfkmod: perfkmod_callback_unregister() may sleep\n");
	pr_info("PERFKMOD-EXPECT-WARN perfkmod: perfkmod_counter_read_cpu() may sleep\n");
	cb = perfkmod_callback_register(counter, misuse_fn, NULL,
					PERFKMOD_DELIVER_DIRECT);
	if (IS_ERR(cb)) {
		perfkmod_counter_release(counter);
		return PTR_ERR(cb);
	}
	return 0;
}

static void __exit xmod_misuse_exit(void)
{
	perfkmod_callback_unregister(cb);
	perfkmod_counter_release(counter);
}

module_init(xmod_misuse_init);
module_exit(xmod_misuse_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("perfkmod test client: a direct callback that calls what may sleep");
