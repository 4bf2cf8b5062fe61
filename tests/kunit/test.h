/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's KUnit suites share; they all link into perfkmod_kunit.ko.
 */
#ifndef _PERFKMOD_TEST_H
#define _PERFKMOD_TEST_H

#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/types.h>

struct kunit;
struct perf_event;
struct pt_regs;
struct perfkmod_config;
struct perfkmod_counter;
struct perfkmod_series;
struct perfkmod_series_config;

/*
 * Module parameter: the lane has a hardware PMU, so a hardware case that
 * cannot create its counter fails instead of being skipped.
 */
extern bool require_pmu;

/*
 * Release @c when the case ends, however it ends; when that cannot be
 * arranged (-ENOMEM), @c is released at once and the case fails.
 */
void test_release_at_end(struct kunit *test, struct perfkmod_counter *c);

/* Create a counter released when the case ends, or fail the case. */
struct perfkmod_counter *test_create(struct kunit *test,
				     const struct perfkmod_config *cfg);

/* Create a series released when the case ends, or fail the case. */
struct perfkmod_series *test_series(struct kunit *test,
				    const struct perfkmod_series_config *cfg);

/*
 * A hardware case could not create its counter (@err, an ERR_PTR): fail
 * the case on a lane with a PMU (require_pmu), else skip it with the reason,
 * which ends the case. The caller returns right after.
 */
void test_no_pmu(struct kunit *test, const void *err);

/* perfkmod_counter_read()'s value of @c. */
u64 test_value(struct perfkmod_counter *c);

/*
 * The type perf gives a software event of @config (cpu-clock or
 * task-clock): their PMU's own, where the kernel gives them PMUs of their
 * own (6.12), else %PERF_TYPE_SOFTWARE. Asked of a disabled event made on
 * this task for the purpose; a case that cannot make it fails.
 */
u32 test_sw_type(struct kunit *test, u64 config);

/*
 * A kthread that takes CPU 1 down and up until test_hotplug_stop(), or
 * until the case ends, however it ends (CPU 1 is then brought back).
 * test_hotplug_cycles() tells how many whole cycles it made so far;
 * test_hotplug_stop() stops it, expects CPU 1 back online and returns them.
 *
 * test_hotplug_more() is the condition of a loop that works beside it,
 * @round the loop's count of its rounds: true until @cycles cycles are
 * made, or @rounds rounds are done with a cycle made; false after 60 s
 * from the start in any case. A cycle is the event such a loop needs: a
 * slow machine makes fewer of them in a round.
 */
struct test_hotplug;
struct test_hotplug *test_hotplug_start(struct kunit *test);
int test_hotplug_cycles(struct test_hotplug *h);
bool test_hotplug_more(struct test_hotplug *h, int round, int rounds,
		       int cycles);
int test_hotplug_stop(struct test_hotplug *h);

#ifdef CONFIG_X86
/*
 * Run @fn(@arg, the NMI's registers) once in a real NMI on this CPU (a
 * self-IPI through the local APIC), the calling task kept on the CPU
 * meanwhile. Return: 0, or -ETIMEDOUT when the NMI did not come within
 * 30 s.
 */
int test_in_nmi(void (*fn)(void *arg, struct pt_regs *regs), void *arg);

/*
 * An overflow of @event (a perf event of this CPU) in a real NMI, run
 * through perfkmod's trampoline as perf would, with a period of 1.
 * Return: test_in_nmi()'s.
 */
int test_overflow_in_nmi(struct perf_event *event);
#endif

/*
 * Keep the CPU busy for @ms milliseconds of ktime_get() time. Unlike
 * mdelay(), whose loop calibration is unreliable under TCG, the time spent
 * is what the clock says.
 */
static inline void busy_ms(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

/*
 * Wait until @cond holds, @secs seconds at most, checking it again after
 * each @step; the value is whether it held at the last check. A case waits
 * for the event it needs, never for a stretch of time: under TCG on a
 * loaded host, timers come late and a stretch holds less work than asked.
 */
#define __test_await(secs, cond, step)					\
({									\
	ktime_t __end = ktime_add_ms(ktime_get(), (secs) * MSEC_PER_SEC); \
	bool __met;							\
									\
	while (!(__met = (cond)) && ktime_before(ktime_get(), __end))	\
		step;							\
	__met;								\
})

/* Asleep between the checks: for what other tasks, timers or CPUs do. */
#define test_await(secs, cond)	__test_await(secs, cond, usleep_range(1000, 2000))

/*
 * @t is blocked in @state and has left its CPU: that switch is over (its
 * overflows, a series' record of it, are done).
 */
static inline bool test_asleep(struct task_struct *t, unsigned int state)
{
	/* the state first: on_rq and on_cpu are not those of before it */
	return smp_load_acquire(&t->__state) == state &&
	       !READ_ONCE(t->on_rq) && !READ_ONCE(t->on_cpu);
}

/*
 * Busy on the CPU between the checks (giving it up when asked): for what
 * needs this task running, such as its own clocks and overflows.
 */
#define test_await_busy(secs, cond)					\
	__test_await(secs, cond, ({ busy_ms(1); cond_resched(); }))

#endif /* _PERFKMOD_TEST_H */
