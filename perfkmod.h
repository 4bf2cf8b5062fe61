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
 * A zeroed config counts on every CPU; see &enum perfkmod_target. A
 * sampling counter calls other modules' functions on its overflows
 * (perfkmod_callback.h, with the overflow limit, refresh and statistics);
 * a series samples counters into per-CPU rings (perfkmod_series.h); a
 * region counts what a stretch of code costs per call (perfkmod_region.h).
 * This header includes the three.
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
 * Context: process context, may sleep; not with cpus_read_lock() held.
 */
void perfkmod_counter_disable(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_reset() - set the counted value back to zero
 * @counter: the counter.
 *
 * Like perf's PERF_EVENT_IOC_RESET: the enabled and running times go on.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 */
void perfkmod_counter_reset(struct perfkmod_counter *counter);

/**
 * perfkmod_counter_read() - read a counter
 * @counter: the counter.
 * @val: filled in; for an all-CPUs counter, the sum over every CPU that
 *	ever counted, scaled as perf stat scales the sum.
 *
 * Context: process context, may sleep (perf may send an IPI to the CPU
 *	the event is on, and takes mutexes); not with cpus_read_lock() held.
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
 * Context: process context, may sleep; not with cpus_read_lock() held.
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
 * or preemption off, or a region known not to migrate). It reads the PMU
 * when the event is on it, interrupts off, as perf's
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
 * Context: process context, may sleep; not with cpus_read_lock() held.
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

/* the overflow callbacks, the series and the regions: one header each */
#include "perfkmod_callback.h"
#include "perfkmod_series.h"
#include "perfkmod_region.h"

#endif /* _PERFKMOD_H */
