// SPDX-License-Identifier: GPL-2.0
/*
 * What every file of control/ shares of the named counters and series:
 * the list of the named counters, the mutex that guards them and the
 * named series, and their limits: the module parameters max_name_len,
 * max_cmd_len and max_counters, read-only once loaded, which bound the
 * control file's commands and the counters= and series= entries. It calls nothing: the
 * files that make, list and show the named counters all reach it, and so
 * may each assert the mutex.
 */
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "control.h"

/* The named counters; perfkmod_named_mutex: see control.h. */
DEFINE_MUTEX(perfkmod_named_mutex);
LIST_HEAD(perfkmod_named_list);

/*
 * The hard ceilings of max_cmd_len and max_counters; max_name_len's is
 * PERFKMOD_NAME_LIMIT.
 */
#define PERFKMOD_CMD_LIMIT		4096
#define PERFKMOD_MAX_COUNTERS_LIMIT	65536

/* The longest counter name; a name is a debugfs directory name too. */
unsigned int perfkmod_max_name_len = 64;

static int max_name_len_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, PERFKMOD_NAME_LIMIT);
}

static const struct kernel_param_ops max_name_len_ops = {
	.set = max_name_len_set,
	.get = param_get_uint,
};

module_param_cb(max_name_len, &max_name_len_ops, &perfkmod_max_name_len, 0400);
MODULE_PARM_DESC(max_name_len, "longest counter name (1-255, default 64)");

/* The longest command one write(2) to control may hold. */
unsigned int perfkmod_max_cmd_len = 512;

static int max_cmd_len_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 16, PERFKMOD_CMD_LIMIT);
}

static const struct kernel_param_ops max_cmd_len_ops = {
	.set = max_cmd_len_set,
	.get = param_get_uint,
};

module_param_cb(max_cmd_len, &max_cmd_len_ops, &perfkmod_max_cmd_len, 0400);
MODULE_PARM_DESC(max_cmd_len, "longest control command in bytes (16-4096, default 512)");

/*
 * The most named counters (control and counters=) at once, and the most
 * named series, set at load time only; counters of other modules are
 * theirs to bound.
 */
unsigned int perfkmod_max_counters = 256;

static int max_counters_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, PERFKMOD_MAX_COUNTERS_LIMIT);
}

static const struct kernel_param_ops max_counters_ops = {
	.set = max_counters_set,
	.get = param_get_uint,
};

module_param_cb(max_counters, &max_counters_ops, &perfkmod_max_counters, 0400);
MODULE_PARM_DESC(max_counters, "most named counters (control, counters=) at once, and most named series (1-65536, default 256)");
