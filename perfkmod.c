// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod: in-kernel performance counters for kernel code and root users.
 *
 * Module init and exit, and the module parameters.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "internal.h"

/* The most counters that may exist at once, set at load time only. */
static unsigned int max_counters = 256;

static int max_counters_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, PERFKMOD_MAX_COUNTERS_LIMIT);
}

static const struct kernel_param_ops max_counters_ops = {
	.set = max_counters_set,
	.get = param_get_uint,
};

module_param_cb(max_counters, &max_counters_ops, &max_counters, 0400);
MODULE_PARM_DESC(max_counters, "most counters at once (1-65536, default 256)");

static int __init perfkmod_init(void)
{
	perfkmod_debugfs_init();
	return 0;
}

static void __exit perfkmod_exit(void)
{
	perfkmod_debugfs_exit();
}

module_init(perfkmod_init);
module_exit(perfkmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("In-kernel performance counters with an NMI-safe overflow trampoline");
