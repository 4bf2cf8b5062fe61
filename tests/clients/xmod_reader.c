// SPDX-License-Identifier: GPL-2.0
/*
 * xmod_reader: a module that uses another module's counter, for
 * tests/guest/test-xmod.sh: a time series over xmod_owner's counter, and
 * a direct and a deferred (PERFKMOD_DELIVER_IRQ) callback on it.
 *
 *	insmod xmod_owner.ko
 *	insmod xmod_reader.ko
 *	cat /sys/module/xmod_reader/parameters/seen
 *
 * It gets the counter through symbol_get() and puts the symbol back at
 * the end of its init: it holds no reference on xmod_owner, which may
 * unload (or release the counter) while this module still uses the
 * counter. perfkmod then takes the counter out of the series, whose later
 * records have its error bit set, and detaches the callbacks, which never
 * run again; their handles stay this module's to unregister.
 *
 * Reading seen drains the series and gives, since load, "RECORDS ERRORS
 * LATE DIRECT IRQ": the records read, those with the counter's error bit,
 * those without it that came after one with it on the same CPU (a series
 * reads a released counter no more: always 0), and the runs of each
 * callback. With forget_cleanup=1 the module unloads without releasing
 * the series and callbacks, and perfkmod's module notifier does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "perfkmod.h"
#include "xmod.h"

#define INTERVAL_NS	1000000ULL
/* 16 s of records a CPU at 1 ms: a test reads more often than that */
#define RING_RECORDS	16384
#define READ_BATCH	32

static bool forget_cleanup;
module_param(forget_cleanup, bool, 0400);
MODULE_PARM_DESC(forget_cleanup, "testing only: unload without releasing the series and callbacks, for perfkmod to release them");

/* Set once init succeeded; cleared in exit under the module's param lock. */
static struct perfkmod_series *series;
static struct perfkmod_callback *direct_cb;
static struct perfkmod_callback *irq_cb;
static atomic64_t direct_runs;
static atomic64_t irq_runs;

/* What seen reports; under the module's param lock, as seen_get() runs. */
static u64 records;
static u64 errors;
static u64 late;
/* the CPUs whose last record read had the error bit */
static struct cpumask errored;
static struct perfkmod_series_record batch[READ_BATCH];

/* Context: the overflow's (direct) or hard IRQ (deferred). */
static void count_run(const struct perfkmod_sample *sample,
		      struct pt_regs *regs, void *context)
{
	atomic64_inc(context);
}

/* Take every record waiting on @cpu into the sums. */
static int drain_cpu(int cpu)
{
	int n, i;

	do {
		n = perfkmod_series_read(series, cpu, batch, READ_BATCH);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			records++;
			/* the series' one counter: bit 0 */
			if (batch[i].errors & BIT(0)) {
				errors++;
				cpumask_set_cpu(cpu, &errored);
			} else if (cpumask_test_cpu(cpu, &errored)) {
				late++;
			}
		}
	} while (n == READ_BATCH);
	return 0;
}

/* Called with the param lock held, so series cannot go away meanwhile. */
static int seen_get(char *buffer, const struct kernel_param *kp)
{
	int cpu, err;

	if (!series)
		return -ENODEV;
	for_each_possible_cpu(cpu) {
		err = drain_cpu(cpu);
		if (err)
			return err;
	}
	return sysfs_emit(buffer, "%llu %llu %llu %lld %lld\n", records,
			  errors, late, atomic64_read(&direct_runs),
			  atomic64_read(&irq_runs));
}

static const struct kernel_param_ops seen_ops = {
	.get = seen_get,
};

module_param_cb(seen, &seen_ops, NULL, 0400);
MODULE_PARM_DESC(seen, "read: records, records with the error bit, records without it after one with it, direct and deferred callback runs");

static int __init reader_init(void)
{
	struct perfkmod_counter *(*get_counter)(void);
	struct perfkmod_series_config scfg = {
		.nr_counters = 1,
		.interval_ns = INTERVAL_NS,
		.ring_records = RING_RECORDS,
	};
	struct perfkmod_callback *dcb, *icb;
	struct perfkmod_series *s;
	struct perfkmod_counter *c;
	int err;

	get_counter = symbol_get(xmod_owner_counter);
	if (!get_counter) {
		pr_err("xmod_owner is not loaded\n");
		return -ENOENT;
	}
	/* the symbol's reference keeps xmod_owner loaded until the put */
	c = get_counter();
	if (!c) {
		pr_err("xmod_owner released its counter\n");
		err = -ENODEV;
		goto err_put;
	}
	scfg.counters = &c;
	s = perfkmod_series_create(&scfg);
	if (IS_ERR(s)) {
		err = PTR_ERR(s);
		goto err_put;
	}
	dcb = perfkmod_callback_register(c, count_run, &direct_runs,
					 PERFKMOD_DELIVER_DIRECT);
	if (IS_ERR(dcb)) {
		err = PTR_ERR(dcb);
		goto err_series;
	}
	icb = perfkmod_callback_register(c, count_run, &irq_runs,
					 PERFKMOD_DELIVER_IRQ);
	if (IS_ERR(icb)) {
		err = PTR_ERR(icb);
		goto err_direct;
	}
	symbol_put(xmod_owner_counter);
	kernel_param_lock(THIS_MODULE);
	series = s;
	direct_cb = dcb;
	irq_cb = icb;
	kernel_param_unlock(THIS_MODULE);
	return 0;

err_direct:
	perfkmod_callback_unregister(dcb);
err_series:
	perfkmod_series_release(s);
err_put:
	symbol_put(xmod_owner_counter);
	return err;
}

static void __exit reader_exit(void)
{
	struct perfkmod_series *s;

	/* the seen file outlives exit until the module's sysfs goes */
	kernel_param_lock(THIS_MODULE);
	s = series;
	series = NULL;
	kernel_param_unlock(THIS_MODULE);
	if (forget_cleanup)
		return;
	perfkmod_callback_unregister(irq_cb);
	perfkmod_callback_unregister(direct_cb);
	perfkmod_series_release(s);
}

module_init(reader_init);
module_exit(reader_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("perfkmod test client: reads another module's counter through a series and callbacks");
