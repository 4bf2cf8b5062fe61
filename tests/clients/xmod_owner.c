// SPDX-License-Identifier: GPL-2.0
/*
 * xmod_owner: a module that owns one sampling all-CPUs counter and hands
 * it to other modules (xmod_reader), for tests/guest/test-xmod.sh.
 *
 *	insmod xmod_owner.ko spec="cpu-clock,period=1000000"
 *	echo 1 >/sys/module/xmod_owner/parameters/release
 *
 * Writing release releases the counter at once, while others still use
 * it. With forget_cleanup=1 the module unloads without releasing it, and
 * perfkmod's module notifier does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "perfkmod.h"
#include "xmod.h"

static char *spec = "cpu-clock,period=1000000";
module_param(spec, charp, 0400);
MODULE_PARM_DESC(spec, "the event of the counter, in perfkmod's grammar; it must sample and count on all CPUs");

static bool forget_cleanup;
module_param(forget_cleanup, bool, 0400);
MODULE_PARM_DESC(forget_cleanup, "testing only: unload without releasing the counter, for perfkmod to release it");

/* The counter; NULL once released. */
static struct perfkmod_counter *counter;
static DEFINE_MUTEX(counter_mutex);

/**
 * xmod_owner_counter() - this module's counter, for another module to use
 *
 * The counter stays valid until it is released, by a write to the release
 * parameter or when this module unloads; a user must not race with
 * either (the test loads, unloads and writes one step at a time) and must
 * expect the counter to go while it still uses it, as perfkmod allows.
 * Exported in the PERFKMOD_TEST namespace: a test's symbol, not part of
 * perfkmod's API.
 *
 * Context: process context, may sleep.
 * Return: the counter, or NULL if it was released.
 */
struct perfkmod_counter *xmod_owner_counter(void)
{
	struct perfkmod_counter *c;

	mutex_lock(&counter_mutex);
	c = counter;
	mutex_unlock(&counter_mutex);
	return c;
}
EXPORT_SYMBOL_NS_GPL(xmod_owner_counter, PERFKMOD_TEST);

static void release_counter(void)
{
	struct perfkmod_counter *c;

	mutex_lock(&counter_mutex);
	c = counter;
	counter = NULL;
	mutex_unlock(&counter_mutex);
	perfkmod_counter_release(c);
}

static int release_set(const char *val, const struct kernel_param *kp)
{
	bool yes;
	int err = kstrtobool(val, &yes);

	if (err)
		return err;
	if (yes)
		release_counter();
	return 0;
}

static const struct kernel_param_ops release_ops = {
	.set = release_set,
};

module_param_cb(release, &release_ops, NULL, 0200);
MODULE_PARM_DESC(release, "write 1: release the counter now, while other modules use it");

static int __init owner_init(void)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	int err;

	err = perfkmod_parse(spec, &cfg);
	if (err) {
		pr_err("spec \"%s\": %s\n", spec, perfkmod_strerror(err));
		return err;
	}
	if (cfg.target != PERFKMOD_TARGET_ALL_CPUS ||
	    !(cfg.sample_period || cfg.sample_freq)) {
		pr_err("spec \"%s\": not a sampling all-CPUs counter\n", spec);
		return -EINVAL;
	}
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		pr_err("%s: %s\n", spec, perfkmod_strerror(PTR_ERR(c)));
		return PTR_ERR(c);
	}
	mutex_lock(&counter_mutex);
	counter = c;
	mutex_unlock(&counter_mutex);
	return 0;
}

static void __exit owner_exit(void)
{
	if (forget_cleanup)
		return;
	release_counter();
}

module_init(owner_init);
module_exit(owner_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("perfkmod test client: owns a counter that another module reads");
