/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time series: their producers and lifetime (series.c) and their
 * readers' side (series_read.c) share the rings below; what module init
 * and exit, and the module notifier, ask of them, and what the KUnit
 * suites read.
 */
#ifndef _PERFKMOD_SERIES_H
#define _PERFKMOD_SERIES_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/wait.h>

#include <asm/local64.h>

#include "perfkmod.h"

struct module;
struct perfkmod_user;

/* One CPU's timer and ring. */
struct perfkmod_series_cpu {
	struct hrtimer timer;
	struct perfkmod_series *series;
	/* the records written and read; a ring index is one masked */
	unsigned long head;
	unsigned long tail;
	/* records that found the ring full or another producer at work */
	local64_t dropped;
	/* intervals the timer let pass unrecorded; written by it only */
	u64 skipped;
	/* a producer is writing a record; on this CPU only */
	bool busy;
	struct perfkmod_series_record *ring;
	/* wakes the series' pollers, queued by this CPU's producers */
	struct irq_work wakeup;
};

/**
 * struct perfkmod_series - a series of counters, sampled per CPU
 * @config: a copy of the creator's; @config.counters points to @counters.
 *	@config.trigger, an event-driven series' trigger, is set to NULL as
 *	@counters are when it is released under the series (its callback
 *	stays, for the series' release to unregister).
 * @counters: the counters read, in order. A counter released while the
 *	series reads it is set to NULL here, under perfkmod_series_mutex
 *	(WRITE_ONCE(); the timers read it with READ_ONCE()): from then on
 *	it reads as an error.
 * @interval: @config.interval_ns as a ktime.
 * @mask: ring entries - 1 (a power of 2).
 * @watermark: the records a CPU's ring holds when its pollers are woken:
 *	@config.wakeup_records, 1 for 0, at most the ring's size.
 * @waitq: where the readers of the series sleep in poll(); its own
 *	lifetime, a reference held by the series and one by each reader.
 * @bytes: what the rings take of series_max_mb.
 * @cpus: each CPU's timer and ring.
 * @node: the entry in perfkmod's series hotplug state: the timer of a CPU
 *	starts when it comes online and stops when it goes offline, on the
 *	CPU itself.
 * @read_lock: see "Locks" in internal.h.
 * @owner: the module that created it.
 * @all: entry in perfkmod_series_list, under perfkmod_series_mutex, while
 *	its timers or trigger may record: a counter's release finds it there.
 * @claimed: set, under perfkmod_series_mutex, by the one caller that
 *	releases it (its owner, or the module notifier once the owner is
 *	gone); a second release warns.
 * @task: the task whose counters a task series reads (a reference held),
 *	NULL for a series of all-CPUs counters.
 * @switch_event: a task series' context-switches event on @task, period 1,
 *	whose overflow records the task's leaving a CPU; not of an
 *	event-driven series.
 * @trigger_cb: the direct callback on the trigger that records; NULL for a
 *	time series, whose timers record.
 */
struct perfkmod_series {
	struct perfkmod_series_config config;
	struct perfkmod_counter *counters[PERFKMOD_SERIES_MAX_COUNTERS];
	ktime_t interval;
	unsigned long mask;
	unsigned long watermark;
	struct perfkmod_series_waitq *waitq;
	u64 bytes;
	struct perfkmod_series_cpu __percpu *cpus;
	struct hlist_node node;
	struct mutex read_lock;	/* see "Locks" in internal.h */
	struct module *owner;
	struct list_head all;
	bool claimed;
	struct task_struct *task;
	struct perf_event *switch_event;
	struct perfkmod_callback *trigger_cb;
};

/**
 * struct perfkmod_series_waitq - where a series' readers sleep in poll()
 * @wait: the readers asleep; a CPU's irq_work wakes them when its ring
 *	holds the series' watermark, and the series' release wakes them.
 * @ref: the series' reference and each reader's
 *	(perfkmod_series_waitq_get()): an epoll instance can stay on @wait
 *	after the series is released, until its file is closed.
 * @dead: the series is released: set before the release wakes @wait.
 */
struct perfkmod_series_waitq {
	wait_queue_head_t wait;
	refcount_t ref;
	bool dead;
};

/* a user of counters (perfkmod_user_register()) */
extern struct perfkmod_user perfkmod_series_user;

int perfkmod_series_release_owner(struct module *mod);

/* one CPU's share of a series' counts, for the KUnit suites */
u64 perfkmod_series_dropped_on(struct perfkmod_series *s, int cpu);
u64 perfkmod_series_skipped_on(struct perfkmod_series *s, int cpu);

#endif /* _PERFKMOD_SERIES_H */
