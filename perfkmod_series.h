/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod's series: counters sampled into per-CPU rings of records, at
 * every interval of a timer on each CPU or at every Nth event of a
 * trigger counter. Part of perfkmod.h, the public interface, which
 * includes it.
 */
#ifndef _PERFKMOD_SERIES_API_H
#define _PERFKMOD_SERIES_API_H

#ifndef _PERFKMOD_H
#error "include perfkmod.h, which includes this header"
#endif

#include <linux/bits.h>

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
 * @wakeup_records: the watermark: a reader asleep in poll()
 *	(perfkmod_series_poll_wait()) is woken by each record that finds a
 *	CPU's ring holding at least this many records, and
 *	perfkmod_series_ready() is true from then until the ring is read
 *	below it. 0 is 1 (every record wakes a sleeper); more
 *	than the ring holds is the ring's size (a full ring wakes); at most
 *	%PERFKMOD_SERIES_MAX_RECORDS. Records below the watermark wake
 *	nobody: a reader that stops the series reads once more for them, as
 *	perf's do at the end of a recording.
 */
struct perfkmod_series_config {
	struct perfkmod_counter **counters;
	unsigned int nr_counters;
	u64 interval_ns;
	unsigned int ring_records;
	struct perfkmod_counter *trigger;
	unsigned int wakeup_records;
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

/*
 * The binary form of a series' records (debugfs series/NAME/records.bin):
 * a header, then records as &struct perfkmod_series_record, in the
 * kernel's byte order.
 */
/* compared as a u32: "pksr" as a big-endian number, "rskp" in bytes on x86 */
#define PERFKMOD_SERIES_FILE_MAGIC	0x706b7372U
#define PERFKMOD_SERIES_FILE_VERSION	1
/* &perfkmod_series_file_header.flags: an event-driven series' records */
#define PERFKMOD_SERIES_FILE_TRIGGERED	BIT(0)

/**
 * struct perfkmod_series_file_header - what begins a binary records file
 * @magic: %PERFKMOD_SERIES_FILE_MAGIC; another value (of another byte
 *	order, say) is not this format.
 * @version: %PERFKMOD_SERIES_FILE_VERSION. Fields added at the end of the
 *	header or of a record grow @header_size or @record_size and keep the
 *	version; any other change of layout, one an older reader would
 *	misread, raises it. A reader refuses a version it does not know.
 * @header_size: the bytes of this header: the records begin there. A
 *	reader skips what follows the fields it knows.
 * @record_size: the bytes of each record, at least sizeof(struct
 *	perfkmod_series_record) of this version, 104: a reader steps
 *	through the records by it and reads the fields it knows.
 * @nr_counters: the series' counters: &perfkmod_series_record.nr_values
 *	of each record.
 * @flags: %PERFKMOD_SERIES_FILE_TRIGGERED for an event-driven series.
 */
struct perfkmod_series_file_header {
	u32 magic;
	u16 version;
	u16 header_size;
	u32 record_size;
	u16 nr_counters;
	u16 flags;
};

struct perfkmod_series;
struct perfkmod_series_waitq;
struct file;
struct poll_table_struct;

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
 * (the rings take sizeof(struct perfkmod_series_record) a record for
 * each possible CPU); perf's
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

/**
 * perfkmod_series_waitq_get() - a reference to a series' wait queue
 * @series: the series, not released.
 *
 * For a reader that sleeps in poll() (a file's poll operation): the queue
 * outlives the series for as long as a reference is held, since an epoll
 * instance stays on it until its file is closed. The series' release
 * marks it dead and wakes it.
 *
 * Context: any context.
 * Return: the queue, to be given back with perfkmod_series_waitq_put().
 */
struct perfkmod_series_waitq *
perfkmod_series_waitq_get(struct perfkmod_series *series);

/**
 * perfkmod_series_waitq_put() - give back a reference to a wait queue
 * @wq: the queue; freed with its last reference.
 *
 * Context: process or hard interrupt context, not NMI; nobody may be
 * left on the queue when the last reference goes (a file that polled
 * holds one until it is released).
 */
void perfkmod_series_waitq_put(struct perfkmod_series_waitq *wq);

/**
 * perfkmod_series_poll_wait() - join a series' wait queue, in poll()
 * @wq: the series' queue (perfkmod_series_waitq_get()).
 * @file: the file being polled.
 * @pt: the poll table poll() was given.
 *
 * A file's poll operation calls this, then, while the series is not
 * released, perfkmod_series_ready(): a record that brings a CPU's ring
 * to the watermark after that answered no wakes the poller, from the
 * record's CPU through an irq_work (the record may be made in NMI), and
 * so does the series' release.
 *
 * Context: process context (a poll operation).
 * Return: %EPOLLHUP | %EPOLLERR when the series is released, else 0.
 */
__poll_t perfkmod_series_poll_wait(struct perfkmod_series_waitq *wq,
				   struct file *file,
				   struct poll_table_struct *pt);

/**
 * perfkmod_series_ready() - whether a CPU's ring holds the watermark
 * @series: the series, not released.
 *
 * Context: any context; takes no lock.
 * Return: true when a CPU's ring holds at least the series' watermark of
 * records (&perfkmod_series_config.wakeup_records), which a poll()
 * reports as readable.
 */
bool perfkmod_series_ready(struct perfkmod_series *series);

#endif /* _PERFKMOD_SERIES_API_H */
