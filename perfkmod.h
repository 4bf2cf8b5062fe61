/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod: in-kernel performance counters for other kernel code.
 *
 * This is the public interface other modules include. A counter is made from
 * a struct perfkmod_config (filled in by hand, or by perfkmod_parse() from the
 * same text users write in debugfs), counts from then on (unless made
 * disabled), is read and is released:
 *
 *	struct perfkmod_config cfg = {
 *		.type = PERF_TYPE_SOFTWARE,
 *		.config = PERF_COUNT_SW_PAGE_FAULTS,
 *	};
 *	struct perfkmod_counter *c = perfkmod_counter_create(&cfg);
 *	struct perfkmod_value v;
 *
 *	if (IS_ERR(c))
 *		return PTR_ERR(c);
 *	...
 *	perfkmod_counter_read(c, &v);
 *	perfkmod_counter_release(c);
 *
 * A zeroed config counts on every CPU; see &enum perfkmod_target.
 *
 * Each function says in its Context: where it may be called. One that may
 * sleep checks where it is: called from a direct or %PERFKMOD_DELIVER_IRQ
 * callback, or with interrupts or preemption off, it warns once (naming
 * itself) and refuses: it returns -%EDEADLK (or ERR_PTR(-%EDEADLK)), a
 * void one does nothing, perfkmod_counter_read() gives zeros and
 * perfkmod_counter_state() %PERFKMOD_STATE_ERROR. So does one that may
 * wait for an RCU grace period (all but the reads) inside rcu_read_lock(),
 * where the grace period would wait for the caller.
 */
#ifndef _PERFKMOD_H
#define _PERFKMOD_H

#include <linux/perf_event.h>
#include <linux/types.h>

/*
 * The version of this interface, which MODULE_VERSION, dkms.conf and the
 * Debian packages name MAJOR.MINOR: within a major version it only grows
 * (README, "Stability").
 */
#define PERFKMOD_VERSION_MAJOR	0
#define PERFKMOD_VERSION_MINOR	4

struct module;
struct pt_regs;
struct task_struct;
struct perfkmod_counter;

/**
 * enum perfkmod_target - where a counter counts
 * @PERFKMOD_TARGET_ALL_CPUS: on every CPU, one perf event per online CPU
 *	summed on read. A CPU that comes online gets its event; one that goes
 *	offline keeps the count it had. This is the zero value. A PMU that
 *	counts for several CPUs at once (uncore, RAPL, cstate_pkg: a PMU that
 *	moves its events to the CPU serving the package, or has a scope) is
 *	counted once for each package (die, cluster, core): one CPU's event
 *	counts for the CPUs it serves, whose shares (in
 *	perfkmod_counter_read_cpu(), perfkmod_counter_read_local() and series
 *	records) keep what they counted before and do not grow, while that
 *	CPU's share holds the package's count. When the CPU that event was
 *	made for goes offline, another CPU of the package gets the next
 *	event; what the package counts in between is lost. A PMU that is on
 *	some CPUs only (a hybrid system's cpu_core or cpu_atom) counts on
 *	those: perf's -%ENOENT or -%ENODEV for the others is no error, unless
 *	no online CPU has the event (create fails with it).
 * @PERFKMOD_TARGET_CPU: on &perfkmod_config.cpu only. When that CPU goes
 *	offline the counter keeps its count, and counts again once the CPU
 *	is back (perf alone would detach the event for good).
 * @PERFKMOD_TARGET_TASK: in one task (&perfkmod_config.task, or the task
 *	with pid &perfkmod_config.pid) on whichever CPU it runs.
 */
enum perfkmod_target {
	PERFKMOD_TARGET_ALL_CPUS,
	PERFKMOD_TARGET_CPU,
	PERFKMOD_TARGET_TASK,
};

/**
 * PERFKMOD_HW_CACHE() - &perfkmod_config.config of a hardware cache event
 * @cache: an enum perf_hw_cache_id, e.g. %PERF_COUNT_HW_CACHE_L1D
 * @op: an enum perf_hw_cache_op_id, e.g. %PERF_COUNT_HW_CACHE_OP_READ
 * @result: an enum perf_hw_cache_op_result_id, e.g.
 *	%PERF_COUNT_HW_CACHE_RESULT_MISS
 */
#define PERFKMOD_HW_CACHE(cache, op, result) \
	((u64)(cache) | ((u64)(op) << 8) | ((u64)(result) << 16))

/**
 * struct perfkmod_config - what to count, how to sample it, and where
 * @type: the PMU: %PERF_TYPE_HARDWARE, %PERF_TYPE_SOFTWARE,
 *	%PERF_TYPE_HW_CACHE, %PERF_TYPE_RAW, %PERF_TYPE_BREAKPOINT,
 *	%PERF_TYPE_TRACEPOINT, or the type number of any other PMU (as in
 *	/sys/bus/event_source/devices/NAME/type).
 * @config: the event within @type: an enum perf_hw_id, an enum perf_sw_ids,
 *	a PERFKMOD_HW_CACHE() value, a raw PMU config, or a tracepoint id.
 * @config1: PMU-specific extra config (perf's attr.config1).
 * @config2: PMU-specific extra config (perf's attr.config2).
 * @bp_addr: %PERF_TYPE_BREAKPOINT: the address watched.
 * @bp_len: %PERF_TYPE_BREAKPOINT: %HW_BREAKPOINT_LEN_1 to %HW_BREAKPOINT_LEN_8.
 * @bp_type: %PERF_TYPE_BREAKPOINT: %HW_BREAKPOINT_R, %HW_BREAKPOINT_W,
 *	%HW_BREAKPOINT_RW or %HW_BREAKPOINT_X.
 * @sample_period: overflow every @sample_period events (nanoseconds for
 *	cpu-clock and task-clock); 0 for none.
 * @sample_freq: overflow about @sample_freq times a second (perf adjusts
 *	the period); 0 for none. At most one of @sample_period and
 *	@sample_freq may be set. A counter with either calls its overflow
 *	callbacks; a counter with neither only counts.
 * @precise_ip: skid constraint, 0 (any skid) to 3 (none), as perf's.
 * @target: see &enum perfkmod_target. The fields of a target are @cpu
 *	(%PERFKMOD_TARGET_CPU), and @task or @pid, @inherit and
 *	@enable_on_exec (%PERFKMOD_TARGET_TASK); the bp_* fields are
 *	%PERF_TYPE_BREAKPOINT's.
 *	Any of them set for another target or type (a @cpu with the zero
 *	target, which is all CPUs) is refused with -%EINVAL, not ignored.
 * @cpu: %PERFKMOD_TARGET_CPU: the CPU.
 * @task: %PERFKMOD_TARGET_TASK: the task (perfkmod takes its own reference),
 *	or NULL to name it by @pid; not both.
 * @pid: %PERFKMOD_TARGET_TASK with no @task: the task's pid, in the pid
 *	namespace of the caller of perfkmod_counter_create().
 * @disabled: create the counter off; perfkmod_counter_enable() starts it.
 * @inherit: a task counter also counts the children the task creates later.
 *	perf's kernel interface reaches the task's own event only: disable,
 *	stop, refresh and a new period act on the task and on the children
 *	it forks afterwards, while children already running go on as they
 *	were, and a read includes them. Not with @disabled (-%EINVAL); with
 *	@enable_on_exec, yes.
 * @enable_on_exec: a task counter starts off, and perf turns it on when
 *	the task next calls execve() (perf's attr.enable_on_exec): how a tool
 *	counts a command from its exec, as perf stat does (fork; the child
 *	waits; the counter is made on the child's pid; the child execs).
 *	Until that exec the counter is %PERFKMOD_STATE_OFF and counts
 *	nothing; then %PERFKMOD_STATE_ACTIVE. Only the first exec turns it
 *	on. With @inherit the children the task forks after the exec count
 *	from their start (they inherit the event on), those it forks before
 *	from their own exec. perfkmod_counter_enable() before the exec turns
 *	it on at once; perfkmod_counter_disable() before the exec does not
 *	cancel the exec's (as in perf), nor do perfkmod_overflow_stop() and an
 *	overflow limit of 0: after the exec the counter counts, with its
 *	overflows dropped. A sampling counter takes it too: its
 *	overflows begin at the exec. Task counters only, and not with
 *	@disabled (-%EINVAL).
 * @pinned: always on the PMU; when it cannot be, the counter stops in
 *	%PERFKMOD_STATE_ERROR.
 * @exclusive: alone on the PMU whenever it is on it.
 * @exclude_user: do not count in user space.
 * @exclude_kernel: do not count in the kernel.
 * @exclude_hv: do not count in the hypervisor.
 * @exclude_idle: do not count while the CPU is idle.
 */
struct perfkmod_config {
	u32 type;
	u64 config;
	u64 config1;
	u64 config2;
	u64 bp_addr;
	u32 bp_len;
	u32 bp_type;
	u64 sample_period;
	u64 sample_freq;
	u8 precise_ip;
	enum perfkmod_target target;
	int cpu;
	struct task_struct *task;
	pid_t pid;
	bool disabled;
	bool inherit;
	bool enable_on_exec;
	bool pinned;
	bool exclusive;
	bool exclude_user;
	bool exclude_kernel;
	bool exclude_hv;
	bool exclude_idle;
};

/**
 * struct perfkmod_value - a counter's reading
 * @value: events counted since creation or the last reset.
 * @enabled: nanoseconds the counter was enabled.
 * @running: nanoseconds it was on a PMU; less than @enabled when perf
 *	multiplexed it with other events.
 * @scaled: @value scaled to the whole enabled time as perf stat scales it,
 *	@value * @enabled / @running; 0 when it never ran, %U64_MAX when the
 *	product does not fit in 64 bits.
 *
 * For an all-CPUs counter each field is the sum over its CPUs: @enabled
 * and @running are CPU-nanoseconds (about the wall time times the number
 * of CPUs), and the sums wrap modulo 2^64 as perf's own counts do (the
 * cycles of 1,000 CPUs at 4 GHz in about 53 days).
 */
struct perfkmod_value {
	u64 value;
	u64 enabled;
	u64 running;
	u64 scaled;
};

/**
 * enum perfkmod_state - what a counter is doing
 * @PERFKMOD_STATE_ACTIVE: enabled: counting whenever perf schedules it.
 * @PERFKMOD_STATE_OFF: disabled.
 * @PERFKMOD_STATE_ERROR: perf stopped it: a pinned counter that could not
 *	be put on the PMU, or a CPU of an all-CPUs counter whose event could
 *	not be created when the CPU came online. perfkmod_counter_enable()
 *	tries again.
 * @PERFKMOD_STATE_EXIT: its task exited; the value is final, except for a
 *	counter made with inherit: children of the task still running add
 *	their counts as they exit.
 */
enum perfkmod_state {
	PERFKMOD_STATE_ACTIVE,
	PERFKMOD_STATE_OFF,
	PERFKMOD_STATE_ERROR,
	PERFKMOD_STATE_EXIT,
};

struct perfkmod_counter *
__perfkmod_counter_create(const struct perfkmod_config *config,
			  struct module *owner);

/**
 * perfkmod_counter_create() - create a counter
 * @config: what to count; perfkmod keeps a copy.
 *
 * Creates one perf event, or for %PERFKMOD_TARGET_ALL_CPUS one per online
 * CPU (and later for each CPU that comes online). A counter with a sample
 * period or frequency gets perfkmod's overflow trampoline as its handler.
 * The kernel path skips most of perf_event_open()'s permission checks, not
 * all: perf asks of the calling task, for a per-CPU event (all CPUs, one
 * CPU), what it asks of a CPU-wide perf_event_open() (with
 * kernel.perf_event_paranoid above 0, CAP_PERFMON or CAP_SYS_ADMIN; and
 * the LSM's perf hook) and answers -%EACCES; some PMUs check the caller
 * too (the function tracepoint, kprobe and uprobe PMUs, some raw x86
 * events: -%EACCES or -%EPERM). What the caller may do matters wherever
 * perf makes an event: here, and in perfkmod_counter_enable() and
 * perfkmod_counter_set_period(), which may make one; the events of CPUs
 * that come online later are made from a kworker, which passes. perfkmod
 * adds the checks perf_event_open() makes that the kernel path lacks:
 * sampling is refused on PMUs that cannot interrupt, and @config.sample_freq must not
 * exceed kernel.perf_event_max_sample_rate (for cpu-clock and task-clock,
 * whose frequency perf turns into a fixed period of at least 10 us, it
 * must not exceed 100000).
 *
 * The calling module is recorded as the counter's owner: it must release
 * its counters before it unloads; if it does not, perfkmod releases them
 * when the module goes away and logs a warning.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 * Return: the counter, or an ERR_PTR() of the errno perf gave, unchanged:
 * -%ENOENT no PMU has this event (hardware events in a VM), -%EOPNOTSUPP
 * the PMU cannot do what @config asks, -%EINVAL invalid settings (also
 * both a period and a frequency, or a field set that @config.target does
 * not use: see &struct perfkmod_config), -%ENODEV the CPU is offline,
 * -%ESRCH no such task or it is exiting, -%EBUSY an exclusive event holds
 * the PMU, -%ENOSPC no free breakpoint slot, -%ENOMEM, -%EACCES or
 * -%EPERM what the calling task may not do (see above).
 * perfkmod_strerror() words them.
 */
#define perfkmod_counter_create(config) \
	__perfkmod_counter_create(config, THIS_MODULE)

/**
 * perfkmod_counter_release() - stop a counter and free it
 * @counter: the counter, or NULL or an ERR_PTR() (then nothing happens).
 *
 * Callbacks still registered on @counter are detached first: none runs
 * once this returns. Their handles stay valid, detached (never called,
 * their statistics final), whichever module holds them, until it
 * unregisters them, which it must still do (or perfkmod does when it
 * unloads, and warns): a handle's owner may not know when the counter
 * goes, and one rule holds for every handle. Likewise a series that reads
 * @counter, whoever made it, stays valid and reads @counter no more: its
 * records have @counter's error bit set from then on.
 *
 * A sampling counter's release waits for an RCU grace period after the
 * events are released, so that an overflow perf was still delivering
 * cannot touch the freed counter. It waits for a callback that is running:
 * not with a lock held that the callbacks take.
 *
 * From a %PERFKMOD_DELIVER_PROCESS callback (of this counter or another)
 * it returns at once: @counter stops as by perfkmod_overflow_stop(), no
 * later overflow of it is delivered, and perfkmod releases it afterwards,
 * as above, once the calls under way have ended (see
 * perfkmod_callback_unregister()). The calls of one callback of @counter
 * on several CPUs may each release @counter: the first does. Any other
 * second release is a caller's bug: it warns, where the counter is not
 * freed already. From a direct or
 * %PERFKMOD_DELIVER_IRQ callback, or with interrupts or preemption off, it
 * warns and does nothing.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 */
void perfkmod_counter_release(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_enable() - start counting
 * @counter: the counter.
 *
 * Also re-arms a counter in %PERFKMOD_STATE_ERROR, and one stopped by
 * perfkmod_overflow_stop() or by the end of a refresh.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 */
void perfkmod_counter_enable(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_disable() - stop counting; the value is kept
 * @counter: the counter.
 *
 * Context: process context, may sleep; also with cpus_read_lock() held.
 */
void perfkmod_counter_disable(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_reset() - set the counted value back to zero
 * @counter: the counter.
 *
 * Like perf's PERF_EVENT_IOC_RESET: the enabled and running times go on.
 *
 * Context: process context, may sleep; also with cpus_read_lock() held.
 */
void perfkmod_counter_reset(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_read() - read a counter
 * @counter: the counter.
 * @val: filled in; for an all-CPUs counter, the sum over every CPU that
 *	ever counted, scaled as perf stat scales the sum.
 *
 * Context: process context, may sleep (perf may send an IPI to the CPU
 *	the event is on, and takes mutexes); also with cpus_read_lock() held.
 */
void perfkmod_counter_read(struct perfkmod_counter *counter,
			   struct perfkmod_value *val);

/**
 * perfkmod_counter_read_cpu() - read one CPU's share of an all-CPUs counter
 * @counter: the counter.
 * @cpu: a possible CPU; an offline one reads what it counted while online,
 *	and one that another CPU's event of a package PMU serves reads what
 *	it counted before (see %PERFKMOD_TARGET_ALL_CPUS).
 * @val: filled in on success.
 *
 * Context: process context, may sleep; also with cpus_read_lock() held.
 * Return: 0; -%EINVAL if @counter is not an all-CPUs counter or @cpu is not
 * a possible CPU.
 */
int perfkmod_counter_read_cpu(struct perfkmod_counter *counter, int cpu,
			      struct perfkmod_value *val);

/**
 * perfkmod_counter_read_local() - read a counter here and now, in any context
 * @counter: the counter.
 * @value: on success, the count since the last reset, unscaled.
 *
 * What perfkmod_counter_read() gives as @val.value, read without sleeping
 * or locking, for measuring a region of code: for a one-CPU counter on its
 * CPU; for a task counter by the task itself; for an all-CPUs counter this
 * CPU's share (what perfkmod_counter_read_cpu() gives for this CPU). The
 * caller keeps itself on the CPU between two reads it subtracts (interrupts
 * or preemption off, or a region known not to migrate). Interrupts are off
 * around the read, which reads the PMU when the event is on it, as perf's
 * perf_event_read_local() does, but where the PMU's read would put the
 * count ahead of what the event counted, or below what an earlier read
 * gave: there the value is the count as of the event's last update. That
 * is while perf holds the event's context lock (it is scheduling the event
 * in or out or changing what is on the PMU, and an NMI or a probe in
 * perf's code lands there; a hardware event on x86, whose PMU marks the
 * event stopped in each such window, only while it is stopped), while perf
 * has a hardware event stopped (between its add and its start, or
 * throttled), and for cpu-clock and task-clock in NMI always (an update of
 * theirs that the NMI interrupts would put the count back). Software
 * events, tracepoints, kprobes and breakpoints count as they happen: their
 * value is always current. Without the enabled and running times: a
 * multiplexed event's count is not scaled. A read racing with
 * perfkmod_counter_reset() gives the value before the reset or 0.
 *
 * Context: any context, NMI-safe (a direct overflow callback included);
 *	not concurrently with perfkmod_counter_release() of @counter.
 * Return: 0; -%EINVAL if @counter is a one-CPU counter of another CPU, a
 * task counter of another task, or an @inherit task counter (its children's
 * events are elsewhere), or if this CPU's event is on another CPU that
 * perf does not read it from (a PMU that moves its events to a CPU of its
 * choosing, without reads from the rest of its package, as AMD's uncore:
 * its count read here would not be current; perf_event_read_local()
 * answers the same); -%EBUSY if the event is pinned and not on the PMU
 * (as perf answers), or this CPU is going offline or came back online a
 * moment ago, and its event is being replaced or not made yet (also on
 * a CPU that a package PMU's event of another CPU served, while that
 * CPU goes offline and the event moves); -%ENODATA
 * if perf refused this CPU's event when the CPU came online (the counter's
 * state is then %PERFKMOD_STATE_ERROR); -%EOPNOTSUPP in NMI for a
 * one-CPU or all-CPUs counter of a PMU that is not the CPUs' own (one
 * that takes no task events, as uncore, RAPL and cstate, or that counts
 * for several CPUs, see %PERFKMOD_TARGET_ALL_CPUS): such a PMU's read may
 * take a lock (a PCI uncore box's, for its config space).
 */
int perfkmod_counter_read_local(struct perfkmod_counter *counter, u64 *value);

/**
 * perfkmod_counter_set_period() - change how often a counter overflows
 * @counter: a sampling counter.
 * @value: the new period, or for a counter created with a sample frequency
 *	the new frequency in Hz.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 * Return: 0, or the errno perf gave: -%EINVAL for a counter that does not
 * sample, a zero @value, a period with the top bit set, or a frequency
 * above kernel.perf_event_max_sample_rate. When none of the counter's CPUs
 * has an event (its CPU is offline), a frequency is asked of an event made
 * for the purpose, which perf may refuse as it refuses a new counter
 * (-%EBUSY, -%ENOMEM, ...). A value that one CPU's event refuses (a hybrid
 * system's PMUs limit periods differently) is set on no CPU, though perf
 * starts each period anew when it sets one.
 */
int perfkmod_counter_set_period(struct perfkmod_counter *counter, u64 value);

/**
 * perfkmod_counter_state() - what a counter is doing
 * @counter: the counter.
 *
 * For an all-CPUs counter, %PERFKMOD_STATE_ERROR if any CPU is in error.
 *
 * Context: process context, may sleep; also with cpus_read_lock() held.
 * Return: the state.
 */
enum perfkmod_state perfkmod_counter_state(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_config() - the config a counter was created from
 * @counter: the counter.
 *
 * Context: any context.
 * Return: perfkmod's copy; its @task is NULL and a task is named by @pid.
 */
const struct perfkmod_config *
perfkmod_counter_config(const struct perfkmod_counter *counter);

/**
 * perfkmod_config_samples() - whether a config samples
 * @config: a config, or perfkmod's copy from perfkmod_counter_config().
 *
 * A config samples when it has a sample period or frequency: its counter
 * gets the overflow trampoline, overflow statistics
 * (perfkmod_counter_stats()) and callbacks. perfkmod_counter_set_period()
 * rewrites the period or frequency of a live counter (never to or from 0)
 * with WRITE_ONCE(): the answer for a counter never changes, and it is
 * read without a lock.
 *
 * Context: any context.
 * Return: true when @config has a sample period or frequency.
 */
static inline bool perfkmod_config_samples(const struct perfkmod_config *config)
{
	return READ_ONCE(config->sample_period) || READ_ONCE(config->sample_freq);
}

/**
 * perfkmod_scale() - scale a count to the whole enabled time
 * @value: the count.
 * @enabled: nanoseconds enabled.
 * @running: nanoseconds running.
 *
 * Context: any context.
 * Return: @value * @enabled / @running without intermediate overflow;
 * @value when @running >= @enabled; 0 when @running is 0; %U64_MAX when the
 * result does not fit in 64 bits.
 */
u64 perfkmod_scale(u64 value, u64 enabled, u64 running);

/**
 * perfkmod_strerror() - a sentence for an errno from perfkmod
 * @err: a negative errno, as perfkmod_counter_create() or perfkmod_parse()
 *	returned it.
 *
 * Context: any context.
 * Return: a static string, e.g. for -%ENOENT "no PMU has this event: the
 * CPU's PMU lacks it, or there is no PMU (as in most VMs)".
 */
const char *perfkmod_strerror(int err);

/**
 * struct perfkmod_sample - what a callback learns of one overflow
 * @counter: the counter that overflowed.
 * @time: for a deferred callback, local_clock() at the overflow, in
 *	nanoseconds. 0 for a direct callback: it runs at the overflow, where
 *	local_clock() is the time (a clock read on every overflow was a third
 *	of the trampoline's cost, whether a callback wanted it or not).
 * @ip: the interrupted instruction pointer.
 * @period: events counted since the previous overflow (perf's period).
 * @count: the overflowing event's count (for an all-CPUs counter, that
 *	CPU's), as perf last updated it.
 * @cpu: the CPU the overflow happened on.
 * @pid: the thread group id of the task that was running (0: idle).
 * @tid: its thread id.
 *
 * Small on purpose: it is built on the overflow context's stack, which may
 * be the NMI stack.
 */
struct perfkmod_sample {
	struct perfkmod_counter *counter;
	u64 time;
	u64 ip;
	u64 period;
	u64 count;
	u32 cpu;
	u32 pid;
	u32 tid;
};

/**
 * enum perfkmod_delivery - where a callback runs
 * @PERFKMOD_DELIVER_DIRECT: in the overflow context itself: NMI for
 *	hardware PMUs, hard IRQ for cpu-clock and task-clock, the
 *	instrumented code's context for other software events, breakpoints
 *	and tracepoints. The callback must be NMI-safe: no locks shared with
 *	other contexts, no allocation, no sleeping; it gets the registers.
 * @PERFKMOD_DELIVER_IRQ: deferred: the sample goes through a per-CPU ring
 *	to an irq_work, and the callback runs in hard IRQ context on the same
 *	CPU, never in NMI. It may take spinlocks (irqsave), not sleep. On
 *	PREEMPT_RT kernels the irq_work runs in the CPU's irq_work thread
 *	instead, not in hard IRQ: the same rules hold there. Samples are
 *	delivered in batches, in the order they came: at the CPU's next tick
 *	(so up to 1/HZ late), or at once when the ring is half full or the
 *	CPU's tick is stopped (on PREEMPT_RT, at once). A batch delivers at
 *	most what the ring held when it began; samples that came during it
 *	wait a tick, on a timer, also where the tick is stopped (counted in
 *	&perfkmod_stats.requeued).
 * @PERFKMOD_DELIVER_PROCESS: deferred further, to a workqueue: the callback
 *	runs in process context and may sleep. A batch delivers at most what
 *	the ring held when it began, rescheduling between the calls; the work
 *	item is then queued again for the rest, behind the other work items
 *	(counted in &perfkmod_stats.requeued).
 *
 * A deferred sample that finds its ring full is dropped and counted.
 *
 * A deferred callback must not cause overflows of its own counter: write
 * the variable its breakpoint watches, allocate under a kmem:kmalloc
 * counter, arm a timer under a timer:hrtimer_start counter. perf does not
 * throttle these (the first overflow of each software event, tracepoint or
 * breakpoint hit never is), and deferral takes the callback out of perf's
 * recursion protection: each call would queue the next. perfkmod
 * does not let such a callback, nor one slower than its counter, hold the
 * CPU: its ring fills, the samples that find it full are dropped and
 * counted, and the CPU runs other things (other tasks, RCU) between
 * batches. What the callback was meant to see is lost, though.
 */
enum perfkmod_delivery {
	PERFKMOD_DELIVER_DIRECT,
	PERFKMOD_DELIVER_IRQ,
	PERFKMOD_DELIVER_PROCESS,
};

/**
 * typedef perfkmod_callback_fn - an overflow callback
 * @sample: the overflow; valid during the call only.
 * @regs: the interrupted registers for %PERFKMOD_DELIVER_DIRECT, else NULL.
 * @context: the pointer given at registration.
 */
typedef void (*perfkmod_callback_fn)(const struct perfkmod_sample *sample,
				     struct pt_regs *regs, void *context);

struct perfkmod_callback;

/**
 * struct perfkmod_stats - overflow statistics of a counter or a callback
 * @overflows: overflows perf reported (counter), or offered (callback).
 * @throttled: times perf throttled the counter for overflowing too often
 *	(kernel.perf_event_max_sample_rate); perfkmod does not hide it.
 * @runs: callback calls.
 * @deferred: samples put in a ring for deferred delivery.
 * @dropped: deferred samples dropped because the ring was full.
 * @requeued: deferred samples a delivery batch left for a later one: they
 *	came while it ran (see &enum perfkmod_delivery). Counted each time
 *	one is left; it grows with the calls of a callback that feeds itself
 *	or cannot keep up, and of one whose counter overflows while it runs.
 *
 * Once deferred deliveries are done, @runs + @dropped == @overflows for a
 * callback (until it is unregistered: unregistering discards the samples
 * still waiting, counted in neither).
 */
struct perfkmod_stats {
	u64 overflows;
	u64 throttled;
	u64 runs;
	u64 deferred;
	u64 dropped;
	u64 requeued;
};

struct perfkmod_callback *
__perfkmod_callback_register(struct perfkmod_counter *counter,
			     perfkmod_callback_fn fn, void *context,
			     enum perfkmod_delivery delivery,
			     struct module *owner);

/**
 * perfkmod_callback_register() - call a function on each overflow of a counter
 * @counter: a sampling counter (created with a period or a frequency).
 * @fn: the callback.
 * @context: passed to @fn.
 * @delivery: where @fn runs; see &enum perfkmod_delivery.
 *
 * Any number of callbacks may be registered on a counter, at any time, also
 * while it overflows. On each overflow the direct callbacks are called
 * first, in the order they were registered, then the deferred ones are
 * queued. The calling module is recorded as the owner: it must
 * unregister its callbacks before it unloads; if it does not, perfkmod
 * unregisters them when the module goes away and logs a warning.
 *
 * A deferred @fn must not cause overflows of @counter itself (see
 * &enum perfkmod_delivery): if it does, its samples are dropped, not
 * delivered, though the CPU is not held.
 *
 * Context: process context, may sleep.
 * Return: a handle for perfkmod_callback_unregister(), or ERR_PTR():
 * -%EINVAL for a counter that does not sample, a NULL @fn or an unknown
 * @delivery; -%ENOMEM.
 */
#define perfkmod_callback_register(counter, fn, context, delivery) \
	__perfkmod_callback_register(counter, fn, context, delivery, THIS_MODULE)

/**
 * perfkmod_callback_unregister() - stop calling a callback
 * @cb: the handle; NULL or an ERR_PTR() is ignored.
 *
 * Once it returns, the callback is not running and never runs again, its
 * context may be freed, and @cb is freed (its statistics stay in the
 * counter's: perfkmod_counter_stats()). Also for a handle on a counter
 * since released (see perfkmod_counter_release()), by any module. Samples
 * still waiting in its rings are discarded. It waits for a callback that
 * is running: not with a lock held that the callback takes.
 *
 * From a %PERFKMOD_DELIVER_PROCESS callback, which runs in a work item, it
 * waits for no such work item, its own included: two such callbacks that
 * unregister each other (or each other's counters) would wait for each
 * other for ever, and a callback that unregisters itself for itself.
 * There, unregistering a %PERFKMOD_DELIVER_PROCESS callback, itself or
 * another, returns at once: the callback is not called for any later
 * sample, but a call of it under way (on another CPU, or the calling one)
 * may still be running. perfkmod waits for those and frees @cb afterwards,
 * and before the module that registered it finishes unloading: its context
 * must stay valid until then. Two callbacks may unregister each other this
 * way. Unregistering a direct or %PERFKMOD_DELIVER_IRQ callback from there
 * waits, as from any process context.
 *
 * A direct or %PERFKMOD_DELIVER_IRQ callback may not sleep: from there, as
 * with interrupts or preemption off, this warns and does nothing; such a
 * callback stops its counter's overflows with perfkmod_overflow_stop().
 *
 * Context: process context, may sleep (waits for an RCU grace period);
 *	not with cpus_read_lock() held nor from a CPU hotplug callback (it
 *	takes the CPU hotplug lock to run the CPUs' pending deliveries).
 */
void perfkmod_callback_unregister(struct perfkmod_callback *cb);

/**
 * perfkmod_callback_stats() - a callback's statistics
 * @cb: the callback.
 * @stats: filled in; @stats->throttled is 0.
 *
 * Context: any context.
 */
void perfkmod_callback_stats(struct perfkmod_callback *cb,
			     struct perfkmod_stats *stats);

/**
 * perfkmod_counter_stats() - a counter's overflow statistics
 * @counter: the counter.
 * @stats: filled in: @stats->runs, @stats->deferred, @stats->dropped and
 *	@stats->requeued add up those of all its callbacks, past and present.
 *
 * Context: any context.
 */
void perfkmod_counter_stats(struct perfkmod_counter *counter,
			    struct perfkmod_stats *stats);

/**
 * perfkmod_overflow_stop() - stop a counter from an overflow callback
 * @counter: the counter; a counting counter, which has no overflows, is
 *	left as it is.
 *
 * No callback of @counter is called for later overflows; the counter is
 * disabled soon after, from a workqueue. perfkmod_counter_enable() or
 * perfkmod_counter_refresh() starts it again.
 *
 * Context: any context, NMI included; takes no lock.
 */
void perfkmod_overflow_stop(struct perfkmod_counter *counter);

/**
 * perfkmod_overflow_limit() - deliver only the next @n overflows
 * @counter: the counter; a counting counter is left as it is.
 * @n: how many more overflows reach the callbacks; after the last one the
 *	counter stops as with perfkmod_overflow_stop(). 0 stops it now.
 *
 * The limit of perf's PERF_EVENT_IOC_REFRESH, without its enable, which
 * perfkmod_counter_refresh() adds.
 *
 * Context: any context, NMI included; takes no lock.
 */
void perfkmod_overflow_limit(struct perfkmod_counter *counter, unsigned int n);

/**
 * perfkmod_overflow_refresh() - perfkmod_overflow_limit(), by its old name
 * @counter: the counter.
 * @n: how many more overflows reach the callbacks.
 *
 * Deprecated: the name of version 0.1, kept until version 1.0.
 *
 * Context: any context, NMI included; takes no lock.
 */
static inline void perfkmod_overflow_refresh(struct perfkmod_counter *counter,
					     unsigned int n)
{
	perfkmod_overflow_limit(counter, n);
}

/**
 * perfkmod_counter_refresh() - enable a counter for its next @n overflows
 * @counter: a sampling counter.
 * @n: overflows to deliver before the counter stops; at least 1.
 *
 * perf's PERF_EVENT_IOC_REFRESH: a limit as perfkmod_overflow_limit()
 * sets, and the enable.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 * Return: 0; -%EINVAL if @counter does not sample or @n is 0.
 */
int perfkmod_counter_refresh(struct perfkmod_counter *counter, unsigned int n);

/* The most counters one series reads. */
#define PERFKMOD_SERIES_MAX_COUNTERS	8
/*
 * The shortest interval of a series: 100 us. Each interval is a timer
 * interrupt on every online CPU.
 */
#define PERFKMOD_SERIES_MIN_INTERVAL_NS	100000ULL
/* Records per CPU of a series' ring: the default, and the most. */
#define PERFKMOD_SERIES_DEFAULT_RECORDS	4096
#define PERFKMOD_SERIES_MAX_RECORDS	BIT(20)

/**
 * struct perfkmod_series_config - what a series samples, and when
 * @counters: the counters to read: all-CPUs counters
 *	(%PERFKMOD_TARGET_ALL_CPUS), whose share of each CPU the series reads
 *	on that CPU; or task counters of one task, without @inherit, which it
 *	reads in the task (it follows the task). A counter released while
 *	the series reads it (by its own module or another) reads as an error
 *	in every later record; the series goes on with the others. As with
 *	any use of a counter, not one whose release has begun.
 * @nr_counters: how many, 1 to %PERFKMOD_SERIES_MAX_COUNTERS.
 * @interval_ns: a time series' interval, at least
 *	%PERFKMOD_SERIES_MIN_INTERVAL_NS; 0 for an event-driven series.
 * @ring_records: records each CPU's ring holds (rounded up to a power of
 *	2; 0 for %PERFKMOD_SERIES_DEFAULT_RECORDS), at most
 *	%PERFKMOD_SERIES_MAX_RECORDS.
 * @trigger: NULL for a time series. For an event-driven series, a
 *	sampling counter (a period or a frequency) of the same target as
 *	@counters (all CPUs, or the same task), perhaps one of them: the
 *	series records at each of its overflows, on the CPU of the overflow,
 *	in the overflow's context (NMI where the PMU interrupts so), and
 *	never by time. The same lifetime rule as @counters: a trigger
 *	released under the series stops its records; the series stays its
 *	owner's to read and release.
 */
struct perfkmod_series_config {
	struct perfkmod_counter **counters;
	unsigned int nr_counters;
	u64 interval_ns;
	unsigned int ring_records;
	struct perfkmod_counter *trigger;
};

/* &perfkmod_series_record.flags */
#define PERFKMOD_RECORD_TRIGGERED	BIT(0)
#define PERFKMOD_RECORD_USER		BIT(1)

/**
 * struct perfkmod_series_record - one interval, or one trigger, of one CPU
 * @time: when the values were read, in CLOCK_MONOTONIC nanoseconds.
 * @cpu: the CPU; of a task series, the CPU the task ran on.
 * @nr_values: how many of @values are set: the series' counters, in order.
 * @errors: bit i set: counter i could not be read on @cpu that time
 *	(perfkmod_counter_read_local() refused it: its event was being
 *	replaced after CPU hotplug, or perf refused it), or it was released;
 *	its value is then 0.
 * @values: each counter's value on @cpu since its last reset, as
 *	perfkmod_counter_read_local() reads it. The difference of two
 *	records of a CPU is what the CPU counted in between. Of a task
 *	series, the task's values: the difference of two records in time
 *	order, whatever their CPUs, is what the task counted in between.
 * @ip: of an event-driven series, the instruction pointer the trigger's
 *	overflow interrupted; 0 in a time series.
 * @pid: the thread group id of the task it interrupted (0: idle), in the
 *	initial pid namespace; 0 in a time series.
 * @tid: that task's thread id; 0 in a time series.
 * @reserved: 0.
 * @flags: %PERFKMOD_RECORD_TRIGGERED in a record of an event-driven
 *	series, with %PERFKMOD_RECORD_USER when the overflow interrupted user
 *	mode; 0 in a time series.
 */
struct perfkmod_series_record {
	u64 time;
	u32 cpu;
	u16 nr_values;
	u16 errors;
	u64 values[PERFKMOD_SERIES_MAX_COUNTERS];
	u64 ip;
	u32 pid;
	u32 tid;
	u32 flags;
	u32 reserved;
};

struct perfkmod_series;

struct perfkmod_series *
__perfkmod_series_create(const struct perfkmod_series_config *config,
			 struct module *owner);

/**
 * perfkmod_series_create() - sample counters into a series
 * @config: what to read and when; perfkmod keeps a copy.
 *
 * A pinned hrtimer on every online CPU (and each CPU that comes online
 * later) reads the counters' share of the CPU every @config.interval_ns,
 * in hard interrupt context, and appends a record to the CPU's ring. A
 * record that finds the ring full is dropped and counted
 * (perfkmod_series_dropped()). A CPU's next tick comes no sooner after
 * the end of one than that one held the CPU, from when it was due (up to
 * an interval late) to its end: a tick slower than half its interval (a
 * debug or emulated kernel; several series) lets intervals pass rather
 * than take the CPU. Intervals passed without a record, so, or because
 * the timer came late, are counted (perfkmod_series_skipped()). A CPU
 * that goes offline stops recording until it comes back. The calling
 * module owns the series: if it unloads without releasing it, perfkmod
 * releases it (before the module's counters).
 *
 * A series of one task's counters follows the task: a CPU's timer records
 * only when it interrupts the task, and the task records as it leaves a
 * CPU (a context-switches event of the series' own on the task, whose
 * overflow perf calls before the task's events stop), so the last record
 * of a task that sleeps holds its values then. Once the task has exited
 * its counters keep their final values and the timers stop; until then
 * every online CPU takes the timer interrupt.
 *
 * An event-driven series (@config.trigger) has no timer: each overflow of
 * its trigger reads the counters' share of the CPU it happens on (of a
 * task series, the task's values) with perfkmod_counter_read_local(), in
 * the overflow's context, and appends a record with what the overflow
 * interrupted (&perfkmod_series_record.ip, pid, tid, flags). The cost of
 * a record is the trigger's: a hardware trigger, or one of perf's hrtimer
 * clocks (cpu-clock, task-clock, whose period is 10 us at least), that
 * overflows too often is throttled by perf (perfkmod_counter_stats()),
 * and its time in NMI counts in perf's sample rate limit
 * (perf_event_max_sample_rate); perf throttles no other software trigger
 * (page-faults, context-switches, breakpoints, most tracepoints), whose
 * period alone bounds its records.
 * An overflow that comes while the same CPU is recording (the trigger's
 * in an interrupt of its own recording) is dropped and counted as a full
 * ring's are.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 * Return: the series, or an ERR_PTR(): -%EINVAL for a config out of the
 * bounds above, counters that are neither all all-CPUs counters nor all
 * counters of one task (without inherit), or a trigger that does not
 * sample or counts another target than the counters; -%ENOMEM, also when
 * the rings would take all series past the series_max_mb module parameter
 * (the rings take about 104 bytes a record for each possible CPU); perf's
 * errno from making a task series' context-switches event (-%ESRCH: the
 * task exits).
 */
#define perfkmod_series_create(config) \
	__perfkmod_series_create(config, THIS_MODULE)

/**
 * perfkmod_series_release() - stop a series and free it
 * @series: the series; records not read are discarded.
 *
 * Its counters may be released before or after it.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held nor
 *	from a CPU hotplug callback (it takes the CPU hotplug lock).
 */
void perfkmod_series_release(struct perfkmod_series *series);

/**
 * perfkmod_series_read() - take the oldest records of one CPU
 * @series: the series.
 * @cpu: a possible CPU.
 * @records: filled in with up to @max records, oldest first.
 * @max: room in @records.
 *
 * The records returned are removed from the ring, making room for new
 * ones. Readers of one series are serialised.
 *
 * Context: process context, may sleep.
 * Return: how many records were taken (0 when none is waiting), or
 * -%EINVAL if @cpu is not a possible CPU.
 */
int perfkmod_series_read(struct perfkmod_series *series, int cpu,
			 struct perfkmod_series_record *records,
			 unsigned int max);

/**
 * perfkmod_series_dropped() - records lost to a full ring, or nested
 * @series: the series.
 *
 * Records that found their CPU's ring full, and those of an event-driven
 * series' trigger overflowing while its CPU was recording.
 *
 * Context: any context; takes no lock.
 * Return: the records dropped so far, summed over the CPUs.
 */
u64 perfkmod_series_dropped(struct perfkmod_series *series);

/**
 * perfkmod_series_skipped() - intervals that passed unrecorded
 * @series: the series.
 *
 * Intervals a CPU's timer let pass without a record because it came late
 * or its ticks took more than half the interval (see
 * perfkmod_series_create()); a task series' intervals while the task ran
 * elsewhere are not among them.
 *
 * Context: any context; takes no lock.
 * Return: the intervals skipped so far, summed over the CPUs.
 */
u64 perfkmod_series_skipped(struct perfkmod_series *series);

/* The longest event spec perfkmod_parse() takes, without the final NUL. */
#define PERFKMOD_SPEC_MAX	256

/**
 * perfkmod_parse() - fill in a config from an event spec
 * @spec: the text, e.g. "cycles:u,period=100000" or "page-faults,pid=42";
 *	the grammar is in Documentation/perfkmod.rst, with examples.
 * @config: filled in on success, untouched on failure.
 *
 * The one parser of the event grammar: the module parameters and the
 * debugfs control file use it too. It does not check that the event exists
 * on this machine; perfkmod_counter_create() does.
 *
 * Context: any context; allocates nothing, takes no lock. Uses about
 * %PERFKMOD_SPEC_MAX bytes of stack.
 * Return: 0; -%EINVAL for malformed text, an unknown name or option, an
 * option given twice, or options that cannot go together (period and freq,
 * cpu and pid, enable_on_exec and disabled); -%ERANGE for a number out of range; -%E2BIG for a spec
 * longer than %PERFKMOD_SPEC_MAX.
 */
int perfkmod_parse(const char *spec, struct perfkmod_config *config);

/**
 * perfkmod_event_name() - the names of the grammar's named events, in turn
 * @index: which name: 0 for the first, then 1, 2, ... until -%ENOENT.
 * @buf: where the name is written, with its NUL.
 * @size: the size of @buf; a name fits in %PERFKMOD_SPEC_MAX + 1 bytes.
 *
 * The named events perfkmod_parse() knows, each once under perf's name
 * (no alias): the generic hardware events, the software events, then each
 * hardware cache event CACHE-OP-RESULT, for every cache, operation and
 * result. Every name is a spec perfkmod_parse() takes; whether this
 * machine can count it is perfkmod_counter_create()'s to say.
 *
 * Context: any context; allocates nothing, takes no lock.
 * Return: 0 with the name in @buf; -%ENOENT when @index is past the last
 * name; -%E2BIG when the name does not fit in @size bytes (@buf then holds
 * what fits).
 */
int perfkmod_event_name(unsigned int index, char *buf, size_t size);

#endif /* _PERFKMOD_H */
