// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for all-CPUs counters of PMUs that are not one per CPU, with
 * test PMUs of its own that play the hardware: a package PMU whose events
 * all move to one designated CPU and read one shared counter (as RAPL's and
 * uncore's do), which migrates them when that CPU goes offline, and one
 * like it whose events cannot be read from other CPUs (AMD's uncore); a
 * PMU with a package scope (6.11 and later), whose events stay where they
 * were made and read the package's one counter; a hybrid PMU, absent from
 * the CPUs its config names; and a sampling PMU whose limits on periods
 * differ by CPU.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include "cpu_events.h"
#include "internal.h"
#include "test.h"

/* The one counter every test PMU counts: the cases add to it. */
static atomic64_t tpmu_count = ATOMIC64_INIT(0);

/*
 * The CPU the package PMU moves its events to: set by a case before it
 * makes its counter, moved by tpmu_cpu_offline() when that CPU goes down.
 */
static int tpmu_pkg_cpu;

static void tpmu_update(struct perf_event *event)
{
	u64 prev, now;

	do {
		prev = local64_read(&event->hw.prev_count);
		now = atomic64_read(&tpmu_count);
	} while (local64_cmpxchg(&event->hw.prev_count, prev, now) != prev);
	local64_add(now - prev, &event->count);
}

static void tpmu_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, atomic64_read(&tpmu_count));
	event->hw.state = 0;
}

static void tpmu_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	tpmu_update(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/*
 * Set by a case: add() leaves its events stopped, as a PMU's events stay
 * between add() and start(), or while perf throttles them, on the PMU.
 */
static bool tpmu_add_stopped;

/* The test PMUs' reads in NMI. */
static atomic_t tpmu_nmi_reads = ATOMIC_INIT(0);

static int tpmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if ((flags & PERF_EF_START) && !READ_ONCE(tpmu_add_stopped))
		tpmu_start(event, flags);
	return 0;
}

static void tpmu_del(struct perf_event *event, int flags)
{
	tpmu_stop(event, PERF_EF_UPDATE);
}

static void tpmu_read(struct perf_event *event)
{
	if (in_nmi())
		atomic_inc(&tpmu_nmi_reads);
	if (!(event->hw.state & PERF_HES_STOPPED))
		tpmu_update(event);
}

/* What every test PMU takes: counting CPU events of its own type. */
static int tpmu_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0 || is_sampling_event(event))
		return -EINVAL;
	return 0;
}

/* As RAPL's and uncore's: every event to the package's designated CPU. */
static int pkg_event_init(struct perf_event *event)
{
	int err = tpmu_init(event);

	if (err)
		return err;
	event->cpu = READ_ONCE(tpmu_pkg_cpu);
	event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	return 0;
}

/* As AMD's uncore: every event to the designated CPU, read there only. */
static int moved_event_init(struct perf_event *event)
{
	int err = tpmu_init(event);

	if (err)
		return err;
	event->cpu = READ_ONCE(tpmu_pkg_cpu);
	return 0;
}

/*
 * The CPUs (bit cpu % 64) on which the hybrid PMU has no free counter:
 * set by a case after it made its counter.
 */
static u64 tpmu_full;

/*
 * As a hybrid system's: no such PMU on the CPUs whose bit config sets; no
 * free counter on those of @tpmu_full.
 */
static int hybrid_event_init(struct perf_event *event)
{
	int err = tpmu_init(event);

	if (err)
		return err;
	if (event->attr.config & BIT_ULL(event->cpu % 64))
		return -ENOENT;
	if (READ_ONCE(tpmu_full) & BIT_ULL(event->cpu % 64))
		return -ENOSPC;
	return 0;
}

/*
 * The CPU whose PMU takes no period below 1000, as a hybrid x86 system's
 * PMUs limit periods differently: set by a case; -1 for none.
 */
static int tpmu_long_periods = -1;

/* As a CPU's own PMU, also sampling (it never raises an overflow). */
static int period_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	return event->cpu < 0 ? -EINVAL : 0;
}

static int period_check(struct perf_event *event, u64 value)
{
	if (event->cpu == READ_ONCE(tpmu_long_periods))
		return value < 1000 ? -EINVAL : 0;
	return 0;
}

/* A test PMU that cannot sample: it has no interrupt. */
#define TEST_PMU(init, ctx)						\
	TEST_PMU_CAPS(init, ctx,					\
		      PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE)

#define TEST_PMU_CAPS(init, ctx, caps)					\
	.module = THIS_MODULE,						\
	.task_ctx_nr = ctx,						\
	.capabilities = caps,						\
	.event_init = init,						\
	.add = tpmu_add,						\
	.del = tpmu_del,						\
	.start = tpmu_start,						\
	.stop = tpmu_stop,						\
	.read = tpmu_read

/*
 * The package PMUs take no task events, as uncore's and RAPL's; the hybrid
 * one plays a CPU's own PMU, in the hardware context (its event_init
 * refuses task events all the same).
 */
static struct pmu pkg_pmu = { TEST_PMU(pkg_event_init, perf_invalid_context) };
static struct pmu moved_pmu = {
	TEST_PMU(moved_event_init, perf_invalid_context)
};

static struct pmu hybrid_pmu = { TEST_PMU(hybrid_event_init, perf_hw_context) };
static struct pmu period_pmu = {
	TEST_PMU_CAPS(period_event_init, perf_hw_context,
		      PERF_PMU_CAP_NO_EXCLUDE),
	.check_period = period_check,
};

#ifdef PERFKMOD_HAVE_PMU_SCOPE
static struct pmu scope_pmu = {
	TEST_PMU(tpmu_init, perf_invalid_context),
	.scope = PERF_PMU_SCOPE_PKG,
};
#endif

/*
 * What RAPL does when its designated CPU goes offline: another online CPU
 * serves the package, and the events move there.
 */
static int tpmu_cpu_offline(unsigned int cpu)
{
	unsigned int target;

	if (cpu != READ_ONCE(tpmu_pkg_cpu))
		return 0;
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	WRITE_ONCE(tpmu_pkg_cpu, target);
	perf_pmu_migrate_context(&pkg_pmu, cpu, target);
	perf_pmu_migrate_context(&moved_pmu, cpu, target);
	return 0;
}

static enum cpuhp_state tpmu_hp_state;

static int tpmu_suite_init(struct kunit_suite *suite)
{
	int err;

	WRITE_ONCE(tpmu_pkg_cpu, cpumask_first(cpu_online_mask));
	err = perf_pmu_register(&pkg_pmu, "perfkmod_test_pkg", -1);
	if (err)
		return err;
	err = perf_pmu_register(&moved_pmu, "perfkmod_test_moved", -1);
	if (err)
		goto err_pkg;
	err = perf_pmu_register(&hybrid_pmu, "perfkmod_test_hybrid", -1);
	if (err)
		goto err_moved;
	err = perf_pmu_register(&period_pmu, "perfkmod_test_period", -1);
	if (err)
		goto err_hybrid;
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	err = perf_pmu_register(&scope_pmu, "perfkmod_test_scope", -1);
	if (err)
		goto err_period;
#endif
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"perfkmod/test_pkg:online", NULL,
					tpmu_cpu_offline);
	if (err < 0)
		goto err_scope;
	tpmu_hp_state = err;
	return 0;

err_scope:
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	perf_pmu_unregister(&scope_pmu);
err_period:
#endif
	perf_pmu_unregister(&period_pmu);
err_hybrid:
	perf_pmu_unregister(&hybrid_pmu);
err_moved:
	perf_pmu_unregister(&moved_pmu);
err_pkg:
	perf_pmu_unregister(&pkg_pmu);
	return err;
}

static void tpmu_suite_exit(struct kunit_suite *suite)
{
	cpuhp_remove_state_nocalls(tpmu_hp_state);
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	perf_pmu_unregister(&scope_pmu);
#endif
	perf_pmu_unregister(&period_pmu);
	perf_pmu_unregister(&hybrid_pmu);
	perf_pmu_unregister(&moved_pmu);
	perf_pmu_unregister(&pkg_pmu);
}

struct shared_case {
	const char *name;
	bool scope;	/* the PMU with a scope, else the package PMU */
};

static const struct shared_case shared_cases[] = {
	{ "moved", false },
	{ "scope", true },
};

KUNIT_ARRAY_PARAM_DESC(shared, shared_cases, name);

/* The case's PMU; a case of the scope PMU is skipped where there is none. */
static struct pmu *case_pmu(struct kunit *test)
{
	const struct shared_case *p = test->param_value;

	if (!p->scope)
		return &pkg_pmu;
#ifdef PERFKMOD_HAVE_PMU_SCOPE
	return &scope_pmu;
#else
	kunit_skip(test, "no PMU scope in this kernel (6.11 and later)");
	return NULL;
#endif
}

/*
 * What the case's PMU counts in truth for @n added to the shared counter:
 * @n once for the package PMU, whose every event is on one CPU; once per
 * package with an online CPU for the scope PMU (@n on each, by
 * construction).
 */
static u64 truth(struct kunit *test, u64 n)
{
	const struct shared_case *p = test->param_value;
	unsigned int cpu, packages = 0;

	if (!p->scope)
		return n;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (cpu == cpumask_first(topology_core_cpumask(cpu)))
			packages++;
	cpus_read_unlock();
	return n * packages;
}

/* Add @n to what the test PMUs count; return what @c must count for it. */
static u64 bump(struct kunit *test, u64 n)
{
	atomic64_add(n, &tpmu_count);
	return truth(test, n);
}

static struct perfkmod_counter *create_on(struct kunit *test, struct pmu *pmu,
					  u64 config)
{
	struct perfkmod_config cfg = {
		.type = pmu->type,
		.config = config,
	};

	return test_create(test, &cfg);
}

struct local_read {
	struct perfkmod_counter *c;
	u64 value;
	int err;
};

static void local_read_fn(void *data)
{
	struct local_read *r = data;

	r->err = perfkmod_counter_read_local(r->c, &r->value);
}

/*
 * An all-CPUs counter of a package PMU on two or more CPUs counts the
 * package once: the shared counter's 1000 read 1000, not 1000 per CPU.
 * The CPU whose event counts the package holds the count; the CPUs it
 * serves read 0, with perfkmod_counter_read_cpu() and
 * perfkmod_counter_read_local() alike, and the counter is active.
 */
static void counts_package_once(struct kunit *test)
{
	struct pmu *pmu = case_pmu(test);
	struct perfkmod_counter *c;
	struct perfkmod_value v;
	u64 want, sum = 0, local_sum = 0;
	int cpu, holders = 0;

	WRITE_ONCE(tpmu_pkg_cpu, cpumask_first(cpu_online_mask));
	c = create_on(test, pmu, 0);
	want = bump(test, 1000);
	KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "%u CPUs online",
			    num_online_cpus());
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);

	/* the API outside cpus_read_lock() (perfkmod.h), the IPIs in it */
	for_each_online_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, perfkmod_counter_read_cpu(c, cpu, &v), 0);
		sum += v.value;
		if (v.value)
			holders++;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct local_read r = { .c = c, .err = 1 };

		KUNIT_EXPECT_EQ(test, smp_call_function_single(cpu, local_read_fn,
							       &r, 1), 0);
		KUNIT_EXPECT_EQ_MSG(test, r.err, 0, "CPU %d", cpu);
		local_sum += r.value;
	}
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, sum, want);
	KUNIT_EXPECT_EQ(test, local_sum, want);
	KUNIT_EXPECT_EQ(test, holders * 1000, want);
}

/*
 * The same across CPU hotplug: of the designated CPU (CPU 1 here, whose
 * events the package PMU moves to CPU 0 when it goes, as RAPL does), of
 * CPU 0 where the kernel can take it offline, and of CPU 1 in a loop. Each
 * 1000 added while no CPU is between states counts its truth exactly; while
 * CPUs come and go, never more than that (the count of a package between
 * the retirement of its event on a CPU going offline and the making of
 * the next one is not counted).
 */
static void package_hotplug(struct kunit *test)
{
	struct pmu *pmu = case_pmu(test);
	struct perfkmod_counter *c;
	struct test_hotplug *h;
	u64 want, per, bound, got;
	int i, err, cycles;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	WRITE_ONCE(tpmu_pkg_cpu, 1);
	c = create_on(test, pmu, 0);
	want = bump(test, 1000);
	KUNIT_EXPECT_EQ(test, test_value(c), want);

	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	perfkmod_cpu_events_flush(c);
	want += bump(test, 1000);
	KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "CPU 1 offline");
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	perfkmod_cpu_events_flush(c);
	want += bump(test, 1000);
	KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "CPU 1 back");

	err = remove_cpu(0);
	if (!err) {
		perfkmod_cpu_events_flush(c);
		want += bump(test, 1000);
		KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "CPU 0 offline");
		KUNIT_ASSERT_EQ(test, add_cpu(0), 0);
		perfkmod_cpu_events_flush(c);
		want += bump(test, 1000);
		KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "CPU 0 back");
	} else {
		kunit_info(test, "CPU 0 stays online here (%d)", err);
	}
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);

	/* each 1000 at most its truth with every CPU online, as now */
	per = truth(test, 1000);
	bound = want;
	h = test_hotplug_start(test);
	for (i = 0; i < 50 && test_hotplug_cycles(h) < 10; i++) {
		atomic64_add(1000, &tpmu_count);
		bound += per;
		msleep(20);
	}
	cycles = test_hotplug_stop(h);
	kunit_info(test, "%d cycles of CPU 1", cycles);
	perfkmod_cpu_events_flush(c);
	got = test_value(c);
	kunit_info(test, "counted %llu of at most %llu while CPU 1 cycled",
		   got - want, bound - want);
	KUNIT_EXPECT_LE_MSG(test, got, bound, "counted more than was added");
	want = got + bump(test, 1000);
	KUNIT_EXPECT_EQ_MSG(test, test_value(c), want, "after the hotplug loop");
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);
}

/* CPU 1 offline and back, @c's events following it. */
static void cycle_cpu1(struct kunit *test, struct perfkmod_counter *c)
{
	KUNIT_ASSERT_EQ(test, remove_cpu(1), 0);
	perfkmod_cpu_events_flush(c);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	perfkmod_cpu_events_flush(c);
}

/*
 * A hybrid PMU, absent from CPU 1: an all-CPUs counter is made, counts on
 * the CPUs the PMU is on, and is not in error for the others, also after
 * an enable and CPU 1's hotplug.
 */
static void hybrid_counts_where_present(struct kunit *test)
{
	struct perfkmod_counter *c;
	struct perfkmod_value v;
	unsigned int cpu, present = 0;
	u64 want;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online");
	c = create_on(test, &hybrid_pmu, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);
	KUNIT_EXPECT_NULL(test, perfkmod_cpu_share(c, 1)->event);
	KUNIT_EXPECT_EQ(test, perfkmod_cpu_share(c, 1)->err, 0);

	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (cpu % 64 != 1)
			present++;
	cpus_read_unlock();
	atomic64_add(1000, &tpmu_count);
	want = 1000 * present;
	KUNIT_EXPECT_EQ(test, test_value(c), want);
	KUNIT_ASSERT_EQ(test, perfkmod_counter_read_cpu(c, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v.value, 0);

	perfkmod_counter_disable(c);
	perfkmod_counter_enable(c);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);
	cycle_cpu1(test, c);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);
	atomic64_add(1000, &tpmu_count);
	KUNIT_EXPECT_EQ(test, test_value(c), want + 1000 * present);
}

static void tpmu_unfill(void *data)
{
	WRITE_ONCE(tpmu_full, 0);
}

/* @c's local read on @cpu, and its error. */
static int read_local_on(struct perfkmod_counter *c, int cpu, u64 *value)
{
	struct local_read r = { .c = c, .err = 1 };

	if (smp_call_function_single(cpu, local_read_fn, &r, 1))
		return -ENXIO;
	*value = r.value;
	return r.err;
}

/*
 * A CPU whose event perf refuses when it comes back online has no count:
 * the counter is in error and the CPU's local read fails (-ENODATA, so
 * that a series record of it has its error bit), while the other CPUs
 * read on. Once perf takes the event again, the CPU counts and reads.
 */
static void refused_cpu_reads_in_error(struct kunit *test)
{
	struct perfkmod_counter *c;
	u64 v;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	c = create_on(test, &hybrid_pmu, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tpmu_unfill,
							NULL), 0);
	WRITE_ONCE(tpmu_full, BIT_ULL(1));
	cycle_cpu1(test, c);
	KUNIT_EXPECT_EQ(test, perfkmod_cpu_share(c, 1)->err, -ENOSPC);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ERROR);
	KUNIT_EXPECT_EQ(test, read_local_on(c, 1, &v), -ENODATA);
	KUNIT_EXPECT_EQ(test, read_local_on(c, 0, &v), 0);

	WRITE_ONCE(tpmu_full, 0);
	cycle_cpu1(test, c);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_state(c), PERFKMOD_STATE_ACTIVE);
	atomic64_add(1000, &tpmu_count);
	KUNIT_EXPECT_EQ(test, read_local_on(c, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000);
}

/*
 * A package PMU's event that its PMU moved to another CPU is read where
 * perf reads it (perf_event_read_local()): from any CPU of its package
 * where the PMU allows (PERF_EV_CAP_READ_ACTIVE_PKG: Intel's uncore,
 * RAPL), with the count as now; on its own CPU only where it does not
 * (AMD's uncore), and elsewhere -EINVAL, never the count of its last
 * update as if it were current. Here CPU 0 holds each counter's event,
 * which its PMU moved to CPU 1 (and serves CPU 1).
 */
static void read_local_where_perf_reads(struct kunit *test)
{
	struct perfkmod_config cfg = { .type = pkg_pmu.type };
	struct perfkmod_counter *pkg, *moved;
	u64 v;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	if (topology_physical_package_id(0) != topology_physical_package_id(1))
		kunit_skip(test, "CPUs 0 and 1 are in different packages");
	WRITE_ONCE(tpmu_pkg_cpu, 1);
	pkg = test_create(test, &cfg);
	cfg.type = moved_pmu.type;
	moved = test_create(test, &cfg);
	KUNIT_ASSERT_NOT_NULL(test, perfkmod_cpu_share(pkg, 0)->event);
	KUNIT_ASSERT_NOT_NULL(test, perfkmod_cpu_share(moved, 0)->event);
	KUNIT_ASSERT_EQ(test, READ_ONCE(perfkmod_cpu_share(moved, 0)->event->cpu), 1);
	KUNIT_ASSERT_EQ(test, READ_ONCE(perfkmod_cpu_share(pkg, 0)->event->cpu), 1);

	atomic64_add(1000, &tpmu_count);
	KUNIT_EXPECT_EQ(test, read_local_on(pkg, 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000);
	KUNIT_EXPECT_EQ(test, read_local_on(moved, 0, &v), -EINVAL);
	/* CPU 1, which the event serves, keeps what it counted before: 0 */
	KUNIT_EXPECT_EQ(test, read_local_on(moved, 1, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0);
	KUNIT_EXPECT_EQ(test, test_value(moved), 1000);
}

static void tpmu_short_periods(void *data)
{
	WRITE_ONCE(tpmu_long_periods, -1);
}

/* Each online CPU's event of @c has @period. */
static void expect_periods(struct kunit *test, struct perfkmod_counter *c,
			   u64 period)
{
	struct perf_event *event;
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		event = perfkmod_cpu_share(c, cpu)->event;
		KUNIT_ASSERT_NOT_NULL_MSG(test, event, "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, event->attr.sample_period, period,
				    "CPU %u", cpu);
	}
	cpus_read_unlock();
}

/*
 * A period that the PMU of one CPU refuses, the last CPU set (as one of a
 * hybrid system's PMUs may): refused for all, every CPU's event keeps the
 * old one. One that every CPU's PMU takes is set on all.
 */
static void set_period_all_or_nothing(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = period_pmu.type,
		.sample_period = 5000,
	};
	struct perfkmod_counter *c;
	unsigned int last;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs online");
	c = test_create(test, &cfg);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tpmu_short_periods,
							NULL), 0);
	last = cpumask_last(cpu_online_mask);
	WRITE_ONCE(tpmu_long_periods, last);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_set_period(c, 500), -EINVAL);
	expect_periods(test, c, 5000);
	KUNIT_EXPECT_EQ(test, perfkmod_counter_set_period(c, 2000), 0);
	expect_periods(test, c, 2000);
}

/*
 * A PMU on no CPU: an all-CPUs counter fails with perf's errno, as does a
 * one-CPU counter of a CPU the PMU is not on.
 */
static void pmu_on_no_cpu(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = hybrid_pmu.type,
		.config = ~0ULL,
	};
	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -ENOENT);
	if (!IS_ERR(c))
		perfkmod_counter_release(c);

	if (!cpu_online(1))
		return;
	cfg.config = BIT_ULL(1);
	cfg.target = PERFKMOD_TARGET_CPU;
	cfg.cpu = 1;
	c = perfkmod_counter_create(&cfg);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -ENOENT);
	if (!IS_ERR(c))
		perfkmod_counter_release(c);
}

#ifdef CONFIG_X86
/* Both reads, in one NMI. */
static void nmi_reads_fn(void *arg, struct pt_regs *regs)
{
	struct local_read *reads = arg;

	local_read_fn(&reads[0]);
	local_read_fn(&reads[1]);
}

/*
 * In a real NMI (sent to this CPU through the local APIC), this CPU's
 * counter of the package PMU is refused (-EOPNOTSUPP: such a PMU's read
 * may take a lock), while one of the hybrid PMU, whose events are each
 * CPU's own, reads as outside NMI.
 */
static void read_local_in_nmi(struct kunit *test)
{
	struct perfkmod_config cfg = { .target = PERFKMOD_TARGET_CPU };
	struct perfkmod_counter *pkg, *hybrid;
	struct local_read nmi_reads[2];
	int cpu, err;
	u64 before;

	cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	WRITE_ONCE(tpmu_pkg_cpu, cpu);
	cfg.cpu = cpu;
	cfg.type = pkg_pmu.type;
	pkg = test_create(test, &cfg);
	cfg.type = hybrid_pmu.type;
	hybrid = test_create(test, &cfg);
	atomic64_add(1000, &tpmu_count);
	KUNIT_ASSERT_EQ(test, perfkmod_counter_read_local(hybrid, &before), 0);
	KUNIT_EXPECT_EQ(test, before, 1000);

	nmi_reads[0] = (struct local_read){ .c = pkg, .err = 1 };
	nmi_reads[1] = (struct local_read){ .c = hybrid, .err = 1 };
	err = test_in_nmi(nmi_reads_fn, nmi_reads);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "no NMI");
	/* outside NMI, on its CPU still, the package counter reads */
	err = perfkmod_counter_read_local(pkg, &before);
	set_cpus_allowed_ptr(current, cpu_possible_mask);

	KUNIT_EXPECT_EQ(test, nmi_reads[0].err, -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, nmi_reads[1].err, 0);
	KUNIT_EXPECT_EQ(test, nmi_reads[1].value, 1000);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, before, 1000);
}

static void tpmu_add_started(void *data)
{
	WRITE_ONCE(tpmu_add_stopped, false);
}

static void read_local_fn(void *arg, struct pt_regs *regs)
{
	local_read_fn(arg);
}

/*
 * An event on the PMU of this CPU but stopped (oncpu is this CPU, the PMU's
 * counter not started: between add() and start(), or throttled): a local
 * read in NMI leaves the PMU alone, whose read() may find a counter index
 * not set up yet, and gives the count as of the stop.
 */
static void read_local_in_nmi_stopped(struct kunit *test)
{
	struct perfkmod_config cfg = {
		.type = hybrid_pmu.type,
		.target = PERFKMOD_TARGET_CPU,
	};
	struct local_read r = { .err = 1 };
	struct perf_event *event;
	int cpu, err;

	cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tpmu_add_started,
							NULL), 0);
	WRITE_ONCE(tpmu_add_stopped, true);
	cfg.cpu = cpu;
	r.c = test_create(test, &cfg);
	event = r.c->pcpu.one.event;
	KUNIT_ASSERT_EQ(test, READ_ONCE(event->oncpu), cpu);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(event->hw.state) & PERF_HES_STOPPED);
	atomic_set(&tpmu_nmi_reads, 0);
	err = test_in_nmi(read_local_fn, &r);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "no NMI");
	KUNIT_EXPECT_EQ(test, r.err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tpmu_nmi_reads), 0);
}
#else
static void read_local_in_nmi(struct kunit *test)
{
	kunit_skip(test, "x86 only: NMIs sent through the local APIC");
}

static void read_local_in_nmi_stopped(struct kunit *test)
{
	kunit_skip(test, "x86 only: NMIs sent through the local APIC");
}
#endif

static struct kunit_case perfkmod_pmu_cases[] = {
	KUNIT_CASE_PARAM(counts_package_once, shared_gen_params),
	KUNIT_CASE_PARAM_ATTR(package_hotplug, shared_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(hybrid_counts_where_present),
	KUNIT_CASE(pmu_on_no_cpu),
	KUNIT_CASE(refused_cpu_reads_in_error),
	KUNIT_CASE(read_local_where_perf_reads),
	KUNIT_CASE(set_period_all_or_nothing),
	KUNIT_CASE(read_local_in_nmi),
	KUNIT_CASE(read_local_in_nmi_stopped),
	{}
};

static struct kunit_suite perfkmod_pmu_suite = {
	.name = "perfkmod_pmu",
	.suite_init = tpmu_suite_init,
	.suite_exit = tpmu_suite_exit,
	.test_cases = perfkmod_pmu_cases,
};

kunit_test_suites(&perfkmod_pmu_suite);
