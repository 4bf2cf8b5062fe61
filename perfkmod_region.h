/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod's regions: what a stretch of code costs per call, in counters.
 * A module brackets its code with a begin/end pair at a marker; or
 * perfkmod probes a kernel function's entry and return. Per CPU, perfkmod
 * keeps the calls, each counter's sum and, for the first counter, the
 * least and most of a call and a log2 histogram. Part of perfkmod.h, the
 * public interface, which includes it.
 *
 *	static DEFINE_PERFKMOD_MARKER(rx_marker);
 *
 *	void rx(struct sk_buff *skb)
 *	{
 *		struct perfkmod_region_call call;
 *
 *		perfkmod_region_begin(&rx_marker, &call);
 *		...
 *		perfkmod_region_end(&rx_marker, &call);
 *	}
 *
 * and at init, over counters of the module's own:
 *
 *	struct perfkmod_region_config rcfg = {
 *		.name = "rx",
 *		.counters = counters,
 *		.nr_counters = 2,
 *		.marker = &rx_marker,
 *	};
 *	struct perfkmod_region *r = perfkmod_region_create(&rcfg);
 *
 * A marker no region measures, or whose region is off, costs a branch the
 * kernel patches out (a static key) and one store.
 */
#ifndef _PERFKMOD_REGION_API_H
#define _PERFKMOD_REGION_API_H

#ifndef _PERFKMOD_H
#error "include perfkmod.h, which includes this header"
#endif

#include <linux/compiler_types.h>
#include <linux/jump_label.h>

/* The most counters one region reads. */
#define PERFKMOD_REGION_MAX_COUNTERS	8
/* The most calls of a function region followed at once (@max_active). */
#define PERFKMOD_REGION_MAX_ACTIVE	4096
/* The longest region name, without the final NUL. */
#define PERFKMOD_REGION_NAME_MAX	63
/*
 * Buckets of a region's histogram: bucket 0 counts the calls of value 0,
 * bucket i the calls whose value v has fls64(v) == i (2^(i-1) <= v <
 * 2^i), the last also those above it.
 */
#define PERFKMOD_REGION_HIST_BUCKETS	64

struct perfkmod_region;

/**
 * struct perfkmod_marker - a place in a module's code that a region measures
 * @on: the static key: true while a region measures at the marker and is
 *	on. perfkmod's only.
 * @region: the region, under RCU; perfkmod's only.
 *
 * Defined with DEFINE_PERFKMOD_MARKER(), in the module whose code uses
 * it; one region at a time measures at it, from its create to its
 * release. perfkmod_region_begin() and _end() name it directly (&NAME), as
 * a static key is named: its address must be a constant where the branch
 * is patched. Not in code where RCU does not watch (idle, the entry code),
 * as for a tracepoint: a kernel with PROVE_RCU warns there.
 */
struct perfkmod_marker {
	struct static_key_false on;
	struct perfkmod_region __rcu *region;
};

#define DEFINE_PERFKMOD_MARKER(name) \
	struct perfkmod_marker name = { .on = STATIC_KEY_FALSE_INIT }

/**
 * struct perfkmod_region_call - one call of a region, from its begin to its end
 * @region: the region it began in; NULL when it did not begin (the region
 *	was off, or a counter could not be read).
 * @id: the region's id, which tells it from a later region at the same
 *	address.
 * @cpu: the CPU it began on.
 * @seq: that CPU's hotplug generation then.
 * @start: each counter's value at the begin.
 *
 * On the caller's stack, between perfkmod_region_begin() and
 * perfkmod_region_end(). The fields are perfkmod's.
 */
struct perfkmod_region_call {
	struct perfkmod_region *region;
	u32 id;
	u32 cpu;
	u32 seq;
	u64 start[PERFKMOD_REGION_MAX_COUNTERS];
};

/**
 * struct perfkmod_region_config - what a region counts, and where
 * @name: its name: 1 to %PERFKMOD_REGION_NAME_MAX letters, digits, '_',
 *	'-' or '.', unique among the regions (debugfs regions/@name).
 *	perfkmod keeps a copy.
 * @counters: the counters read at each begin and end: all-CPUs counters
 *	(%PERFKMOD_TARGET_ALL_CPUS) of the CPUs' own PMUs or software (not
 *	uncore, RAPL and the like, whose events are not every CPU's), whose
 *	share of the CPU a call runs on is read; or task counters of one
 *	task, without @inherit, read in that task (a call made by another
 *	task is not begun). A counter released under the region stops it
 *	(perfkmod_region_enabled() is false from then on); its figures stay
 *	to read.
 * @counter_names: NULL, or @nr_counters names that debugfs shows for the
 *	counters; perfkmod keeps a copy.
 * @nr_counters: how many, 1 to %PERFKMOD_REGION_MAX_COUNTERS.
 * @marker: where the module's code brackets its calls with
 *	perfkmod_region_begin() and perfkmod_region_end(); or NULL, with
 *	@func.
 * @func: a kernel function (a symbol, "MODULE:SYMBOL" for a module's)
 *	whose every call is a call of the region, from its entry to its
 *	return (a kretprobe with entry data); NULL with @marker. Calls the
 *	compiler inlined, or made to a clone (SYMBOL.constprop.0,
 *	SYMBOL.isra.0: a function of one's own to be probed by name is
 *	noinline __noclone), are not calls of SYMBOL.
 * @max_active: of @func, the calls followed at once on all CPUs (those
 *	asleep in it included), at most %PERFKMOD_REGION_MAX_ACTIVE; 0 for
 *	kretprobes' default. A call beyond them is missed
 *	(&perfkmod_region_stats.missed).
 * @disabled: create the region off: perfkmod_region_enable() turns it
 *	on.
 */
struct perfkmod_region_config {
	const char *name;
	struct perfkmod_counter **counters;
	const char *const *counter_names;
	unsigned int nr_counters;
	struct perfkmod_marker *marker;
	const char *func;
	unsigned int max_active;
	bool disabled;
};

/**
 * struct perfkmod_region_stats - what a region counted, on one CPU or all
 * @calls: the calls folded into the figures below.
 * @lost: calls begun and not folded in, for a counter that could not be
 *	read at the begin or the end (perfkmod_counter_read_local()'s
 *	-%EBUSY as a CPU goes offline or comes back, -%ENODATA), or read
 *	from events that were replaced in between.
 * @migrated: calls that ended on another CPU than the one they began on,
 *	of a region of all-CPUs counters: not folded in, since neither
 *	CPU's counts say what the call cost.
 * @missed: calls of a function region that its probe could not follow
 *	(more than @max_active at once, or a call from within another
 *	probe's handler); 0 for a marker's region, and on one CPU.
 * @min: the least value of the first counter in one call (0 without
 *	calls).
 * @max: the most.
 * @sum: each counter's values summed over the calls; @sum[i] / @calls is
 *	counter i's mean per call.
 * @hist: how many calls had each value of the first counter, in log2
 *	buckets (%PERFKMOD_REGION_HIST_BUCKETS).
 *
 * A call's value is what a counter counted from its begin to its end on
 * the CPU (of task counters: in the task), what ran in between included:
 * a nested region's calls, the same region's call from an interrupt or
 * NMI, and, but of a task's counters, interrupts and other tasks if the
 * caller lets them run. Each call is counted once, at its end.
 */
struct perfkmod_region_stats {
	u64 calls;
	u64 lost;
	u64 migrated;
	u64 missed;
	u64 min;
	u64 max;
	u64 sum[PERFKMOD_REGION_MAX_COUNTERS];
	u64 hist[PERFKMOD_REGION_HIST_BUCKETS];
};

struct perfkmod_region *
__perfkmod_region_create(const struct perfkmod_region_config *config,
			 struct module *owner);

/**
 * perfkmod_region_create() - measure a region of code
 * @config: its counters and where its calls begin and end.
 *
 * The region is on unless @config.disabled: from then on each call
 * begun at its marker, or of its function, is counted. The calling module
 * owns it; if the module unloads without releasing it, perfkmod releases
 * it (before the module's counters).
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 * Return: the region, or an ERR_PTR(): -%EINVAL for a config out of the
 * bounds above, counters that are neither all all-CPUs counters (of the
 * CPUs' own PMUs or software) nor all counters of one task (without
 * inherit), or neither or both of @marker and @func; -%EEXIST for a name
 * taken; -%EBUSY for a marker another region measures at (until that
 * one's release); -%ENOMEM; of @func, register_kretprobe()'s errno:
 * -%ENOENT for a symbol the kernel does not have, -%EINVAL for one
 * kprobes may not probe (on kprobes' blacklist, notrace, in the entry
 * code), -%EILSEQ where it is not an instruction's start.
 */
#define perfkmod_region_create(config) \
	__perfkmod_region_create(config, THIS_MODULE)

/**
 * perfkmod_region_release() - stop a region and free it
 * @region: the region.
 *
 * Calls under way are dropped, not counted. Its counters may be
 * released before or after it; the module code of its marker must stay
 * until this returns.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 */
void perfkmod_region_release(struct perfkmod_region *region);

/**
 * perfkmod_region_enable() - turn a region on
 * @region: the region.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 * Return: 0; -%ENODEV when a counter of the region was released; -%ENOENT
 * when its function went with the function's module.
 */
int perfkmod_region_enable(struct perfkmod_region *region);

/**
 * perfkmod_region_disable() - turn a region off; its figures stay
 * @region: the region.
 *
 * Its marker costs what no marker costs but a patched-out branch; a
 * function region's probe is off. Calls under way are dropped.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 */
void perfkmod_region_disable(struct perfkmod_region *region);

/**
 * perfkmod_region_enabled() - whether a region is on
 * @region: the region.
 *
 * Context: any context.
 * Return: true while its calls are counted.
 */
bool perfkmod_region_enabled(struct perfkmod_region *region);

/**
 * perfkmod_region_reset() - set a region's figures back to zero
 * @region: the region.
 *
 * A call under way on a CPU as its figures are reset is counted whole
 * or not at all.
 *
 * Context: process context, may sleep; not with cpus_read_lock() held.
 */
void perfkmod_region_reset(struct perfkmod_region *region);

/**
 * perfkmod_region_read() - what a region counted
 * @region: the region.
 * @cpu: a possible CPU, or -1 for all summed (@stats.min and @stats.max
 *	the least and most over them).
 * @stats: filled in.
 *
 * Each figure is exact as the calls that ended before the read left it;
 * a call ending on another CPU during the read may be in some figures
 * and not yet in others.
 *
 * Context: process context, may sleep.
 * Return: 0, or -%EINVAL for a @cpu that is not possible.
 */
int perfkmod_region_read(struct perfkmod_region *region, int cpu,
			 struct perfkmod_region_stats *stats);

/**
 * perfkmod_region_get_config() - the config a region was created from
 * @region: the region.
 *
 * Context: any context.
 * Return: perfkmod's copy: its @name, @counter_names (NULL if none were
 * given), @nr_counters, @func, @max_active, @disabled and @marker (NULL
 * once the marker's module is gone: READ_ONCE()); @counters,
 * perfkmod's array of them, whose entry is NULL once that counter is
 * released.
 */
const struct perfkmod_region_config *
perfkmod_region_get_config(const struct perfkmod_region *region);

/* What a region notifier is told, with the region as its data. */
enum perfkmod_region_event {
	PERFKMOD_REGION_CREATED,
	PERFKMOD_REGION_RELEASING,
};

struct notifier_block;

/**
 * perfkmod_region_notifier_register() - be told of every region
 * @nb: its notifier_call gets %PERFKMOD_REGION_CREATED with each region
 *	there is, at once, then with each region created, once it is made;
 *	and %PERFKMOD_REGION_RELEASING with each region released, before it
 *	goes (once the call returns, the region may be freed). Calls are in
 *	process context, under the mutex of perfkmod's that create and
 *	release take: the callback may sleep, and may wait for callers of
 *	the other region functions (debugfs_remove() of a directory whose
 *	files read, reset and turn regions on and off), but must not create
 *	or release a region nor (un)register a notifier.
 *
 * For a view of all regions (debugfs, an exporter).
 *
 * Context: process context, may sleep.
 * Return: 0, or the notifier's own refusal.
 */
int perfkmod_region_notifier_register(struct notifier_block *nb);

/**
 * perfkmod_region_notifier_unregister() - stop being told of regions
 * @nb: a notifier perfkmod_region_notifier_register() took.
 *
 * Context: process context, may sleep.
 */
void perfkmod_region_notifier_unregister(struct notifier_block *nb);

void __perfkmod_region_begin(struct perfkmod_marker *marker,
			     struct perfkmod_region_call *call);
void __perfkmod_region_end(struct perfkmod_marker *marker,
			   struct perfkmod_region_call *call);

/**
 * perfkmod_region_begin() - begin a call at a marker
 * @marker: the marker.
 * @call: the call's state, on the caller's stack until
 *	perfkmod_region_end().
 *
 * With a region on at @marker, reads its counters; else stores NULL in
 * @call->region and does no more.
 *
 * Context: any context, NMI included; takes no lock, allocates nothing,
 * never sleeps.
 */
static __always_inline void
perfkmod_region_begin(struct perfkmod_marker *marker,
		      struct perfkmod_region_call *call)
{
	call->region = NULL;
	if (static_branch_unlikely(&marker->on))
		__perfkmod_region_begin(marker, call);
}

/**
 * perfkmod_region_end() - end a call at a marker, and count it
 * @marker: the marker of the begin.
 * @call: the call perfkmod_region_begin() began.
 *
 * Reads the counters again and folds the call into the CPU's figures; a
 * call of a region released or turned off since its begin is dropped.
 *
 * Context: the context of the begin, or any: any context, NMI included;
 * takes no lock, allocates nothing, never sleeps.
 */
static __always_inline void
perfkmod_region_end(struct perfkmod_marker *marker,
		    struct perfkmod_region_call *call)
{
	if (static_branch_unlikely(&marker->on))
		__perfkmod_region_end(marker, call);
}

#endif /* _PERFKMOD_REGION_API_H */
