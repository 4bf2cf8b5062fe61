// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod_client: an example module that counts through perfkmod.
 *
 *	insmod perfkmod_client.ko spec="page-faults,pid=123"
 *	cat /sys/module/perfkmod_client/parameters/value
 *
 * The value file reads "VALUE ENABLED_NS RUNNING_NS STATE OVERFLOWS". When
 * the spec samples (period= or freq=), a callback counts the overflows;
 * it runs directly in the overflow context, NMI included, so it only does
 * an atomic increment.
 *
 * Each read of the value file is also a call of a region, named
 * perfkmod_client.read, over the counter itself: what one read costs in
 * the event counted, per call, where the counter is one a region can read
 * (of all CPUs, or of one task without inherit, whose reads alone are
 * calls):
 *
 *	insmod perfkmod_client.ko spec=instructions
 *	cat /sys/module/perfkmod_client/parameters/value
 *	cat /sys/kernel/debug/perfkmod/regions/perfkmod_client.read/stat
 *	perfkstat regions perfkmod_client.read
 *
 * Its marker costs a patched-out branch while the region is off:
 *
 *	echo 0 > /sys/kernel/debug/perfkmod/regions/perfkmod_client.read/enable
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "perfkmod.h"

static char *spec = "context-switches";
module_param(spec, charp, 0400);
MODULE_PARM_DESC(spec, "the event to count, in perfkmod's grammar");

static bool forget_cleanup;
module_param(forget_cleanup, bool, 0400);
MODULE_PARM_DESC(forget_cleanup, "testing only: unload without releasing the counter and callback, to show perfkmod doing it");

/* Set once init succeeded; cleared in exit under the module's param lock. */
static struct perfkmod_counter *counter;
static struct perfkmod_callback *callback;
static atomic64_t overflows;

/* Where value_get() brackets its read: the region measures there. */
static DEFINE_PERFKMOD_MARKER(read_marker);
/* The region, or NULL where the counter is not one a region reads. */
static struct perfkmod_region *region;

/* Context: the overflow's, NMI included. */
static void count_overflow(const struct perfkmod_sample *sample,
			   struct pt_regs *regs, void *context)
{
	atomic64_inc(context);
}

static const char * const state_names[] = {
	[PERFKMOD_STATE_ACTIVE] = "active",
	[PERFKMOD_STATE_OFF] = "off",
	[PERFKMOD_STATE_ERROR] = "error",
	[PERFKMOD_STATE_EXIT] = "exit",
};

/* Called with the param lock held, so counter cannot go away meanwhile. */
static int value_get(char *buffer, const struct kernel_param *kp)
{
	struct perfkmod_region_call call;
	struct perfkmod_value v;

	if (!counter)
		return -ENODEV;
	/* a call of the region: what the read below costs */
	perfkmod_region_begin(&read_marker, &call);
	perfkmod_counter_read(counter, &v);
	perfkmod_region_end(&read_marker, &call);
	return sysfs_emit(buffer, "%llu %llu %llu %s %lld\n", v.value, v.enabled,
			  v.running, state_names[perfkmod_counter_state(counter)],
			  atomic64_read(&overflows));
}

static const struct kernel_param_ops value_ops = {
	.get = value_get,
};

module_param_cb(value, &value_ops, NULL, 0400);
MODULE_PARM_DESC(value, "read: value, enabled ns, running ns, state, overflows");

/*
 * The region at read_marker, over counter @c: a failure is no error of the
 * module's (a counter of one CPU, or with inherit, is not one a region
 * reads), only said.
 */
static void create_region(struct perfkmod_counter **c)
{
	struct perfkmod_region_config rcfg = {
		.name = KBUILD_MODNAME ".read",
		.counters = c,
		.nr_counters = 1,
		.marker = &read_marker,
	};
	struct perfkmod_region *r = perfkmod_region_create(&rcfg);

	if (IS_ERR(r)) {
		pr_info("no region over %s: %s\n", spec,
			perfkmod_strerror(PTR_ERR(r)));
		return;
	}
	region = r;
}

static int __init client_init(void)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	int err;

	err = perfkmod_parse(spec, &cfg);
	if (err) {
		pr_err("spec \"%s\": %s\n", spec, perfkmod_strerror(err));
		return err;
	}
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		pr_err("%s: %s\n", spec, perfkmod_strerror(PTR_ERR(c)));
		return PTR_ERR(c);
	}
	if (cfg.sample_period || cfg.sample_freq) {
		callback = perfkmod_callback_register(c, count_overflow,
						      &overflows,
						      PERFKMOD_DELIVER_DIRECT);
		if (IS_ERR(callback)) {
			err = PTR_ERR(callback);
			goto err_release;
		}
	}
	create_region(&c);
	kernel_param_lock(THIS_MODULE);
	counter = c;
	kernel_param_unlock(THIS_MODULE);
	return 0;

err_release:
	perfkmod_counter_release(c);
	return err;
}

static void __exit client_exit(void)
{
	struct perfkmod_counter *c;

	/* the value file outlives exit until the module's sysfs goes */
	kernel_param_lock(THIS_MODULE);
	c = counter;
	counter = NULL;
	kernel_param_unlock(THIS_MODULE);
	if (forget_cleanup)
		return;
	/* before the counter it reads, and while its marker's code is here */
	if (region)
		perfkmod_region_release(region);
	perfkmod_callback_unregister(callback);
	perfkmod_counter_release(c);
}

module_init(client_init);
module_exit(client_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Example client of perfkmod: one counter, read through a parameter, each read a call of a region");
