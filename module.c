// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod: in-kernel performance counters for kernel code and root users.
 *
 * The module: its init and exit, which set up and take down every part in
 * order, and the module notifier, which releases what a module going away
 * left. The only file that calls into every other.
 */
#include <linux/module.h>
#include <linux/stringify.h>

#include "counter_event.h"
#include "cpuhotplug.h"
#include "internal.h"
#include "control/control.h"
#include "region.h"
#include "series.h"

/*
 * A module that unloads with counters or callbacks it did not release
 * would leave perf calling into freed memory and text: release them, and
 * say so. Module notifiers run after the module's exit function, so a
 * module that cleans up after itself is never touched here.
 */
static int perfkmod_module_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct module *mod = data;
	int counters, callbacks, series, regions;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	/*
	 * Callbacks first, and the ends they handed on (which may still run
	 * the module's code): nothing of the module runs after this, to
	 * create or release what the scans below find.
	 */
	callbacks = perfkmod_callbacks_release_owner(mod);
	flush_workqueue(perfkmod_reap_wq);
	/* regions and series before counters: they read counters */
	regions = perfkmod_regions_release_owner(mod);
	series = perfkmod_series_release_owner(mod);
	counters = perfkmod_counters_release_owner(mod);
	if (counters || callbacks)
		pr_warn("module %s unloaded without releasing %d counters and %d callbacks; perfkmod released them\n",
			mod->name, counters, callbacks);
	if (series)
		pr_warn("module %s unloaded without releasing %d series; perfkmod released them\n",
			mod->name, series);
	if (regions)
		pr_warn("module %s unloaded without releasing %d regions; perfkmod released them\n",
			mod->name, regions);
	return NOTIFY_OK;
}

static struct notifier_block perfkmod_module_nb = {
	.notifier_call = perfkmod_module_notify,
};

static int __init perfkmod_init(void)
{
	int err;

	/* first: every create needs the PMUs it finds (the clocks, read kinds) */
	err = perfkmod_pmus_init();
	if (err)
		return err;
	err = perfkmod_counter_cache_init();
	if (err)
		return err;
	err = perfkmod_counters_hotplug_init();
	if (err)
		goto err_cache;
	err = perfkmod_callbacks_init();
	if (err)
		goto err_hotplug;
	err = perfkmod_series_hotplug_init();
	if (err)
		goto err_callbacks;
	/* before the counters= counters: series and regions read counters */
	perfkmod_user_register(&perfkmod_series_user);
	perfkmod_user_register(&perfkmod_region_user);
	err = register_module_notifier(&perfkmod_module_nb);
	if (err)
		goto err_series;
	/* last: the root interface, a client of the rest */
	err = perfkmod_control_init();
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_module_notifier(&perfkmod_module_nb);
err_series:
	perfkmod_user_unregister(&perfkmod_region_user);
	perfkmod_user_unregister(&perfkmod_series_user);
	perfkmod_series_hotplug_exit();
err_callbacks:
	perfkmod_callbacks_exit();
err_hotplug:
	perfkmod_counters_hotplug_exit();
err_cache:
	perfkmod_counter_cache_exit();
	return err;
}

static void __exit perfkmod_exit(void)
{
	perfkmod_control_exit();
	unregister_module_notifier(&perfkmod_module_nb);
	perfkmod_user_unregister(&perfkmod_region_user);
	perfkmod_user_unregister(&perfkmod_series_user);
	perfkmod_series_hotplug_exit();
	perfkmod_callbacks_exit();
	perfkmod_counters_hotplug_exit();
	perfkmod_counter_cache_exit();
}

module_init(perfkmod_init);
module_exit(perfkmod_exit);

MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION is the same (make lint checks it) */
MODULE_VERSION(__stringify(PERFKMOD_VERSION_MAJOR) "."
	       __stringify(PERFKMOD_VERSION_MINOR));
MODULE_DESCRIPTION("In-kernel performance counters with an NMI-safe overflow trampoline");

