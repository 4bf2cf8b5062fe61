/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regions: their lifetime (region.c), their calls (region_call.c) and
 * their functions' probes (region_func.c) share the region below; what
 * module init and exit, and the module notifier, ask of them.
 */
#ifndef _PERFKMOD_REGION_H
#define _PERFKMOD_REGION_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include <asm/local64.h>

#include "perfkmod.h"

struct module;
struct perfkmod_user;

/*
 * One CPU's figures of a region (&struct perfkmod_region_stats), written
 * by the calls that end on the CPU only, with local64 operations: a call
 * ending in an interrupt or NMI of another's end on the same CPU leaves
 * both whole. @min is U64_MAX until a call. @resetting: the CPU is
 * resetting them (a task bound to it, interrupts off), and an NMI's end
 * is not counted.
 */
struct perfkmod_region_cpu {
	local64_t calls;
	local64_t lost;
	local64_t migrated;
	local64_t min;
	local64_t max;
	local64_t sum[PERFKMOD_REGION_MAX_COUNTERS];
	local64_t hist[PERFKMOD_REGION_HIST_BUCKETS];
	bool resetting;
};

/**
 * struct perfkmod_region_func - a function region's probe
 * @rp: the kretprobe on the function: its entry handler begins a call in
 *	its instance's data (a struct perfkmod_region_call), its handler
 *	ends it. Registered disabled by create, enabled and disabled by
 *	perfkmod_region_func_switch(), unregistered by the release.
 * @symbol: the function, as the config named it; &perfkmod_region.config's
 *	@func points here.
 * @missed_base: the probe's misses at the region's last reset
 *	(WRITE_ONCE(), READ_ONCE()).
 */
struct perfkmod_region_func {
	struct kretprobe rp;
	char symbol[KSYM_NAME_LEN];
	u64 missed_base;
};

/**
 * struct perfkmod_region - a region: its counters, figures and calls' source
 * @config: perfkmod's copy of the creator's (perfkmod_region_get_config()):
 *	its @counters, @counter_names, @name and @func point to the copies
 *	below. @config.marker is set to NULL when the marker's module goes
 *	before the region's owner releases it (under perfkmod_region_mutex,
 *	WRITE_ONCE()).
 * @counters: the counters, in order. One released under the region is
 *	set to NULL, under perfkmod_region_mutex, once the region is off for
 *	good (@orphan): begins and ends no longer read it.
 * @names: copies of the counter names, NULL if none were given.
 * @name: the name.
 * @lock: serialises turning the region on and off; protects @gen and
 *	@orphan (see "Locks" in internal.h).
 * @gen: the calls' generation, odd while the region is on: a call begins
 *	only while it is odd and ends only with the @gen it began with. A new
 *	one (unique among all regions) each time the region is turned on or
 *	off. Written under @lock (WRITE_ONCE()), read by the begins and ends
 *	(READ_ONCE()).
 * @orphan: a counter or the marker went: never on again. Under @lock.
 * @task: the counters are one task's, not all CPUs'.
 * @owner: the module that created it.
 * @node: entry in the list of regions, under perfkmod_region_mutex.
 * @cpus: each CPU's figures.
 * @func: the probe of a function region.
 */
struct perfkmod_region {
	struct perfkmod_region_config config;
	struct perfkmod_counter *counters[PERFKMOD_REGION_MAX_COUNTERS];
	char *names[PERFKMOD_REGION_MAX_COUNTERS];
	char name[PERFKMOD_REGION_NAME_MAX + 1];
	struct mutex lock;	/* see "Locks" in internal.h */
	u32 gen;
	bool orphan;
	bool task;
	struct module *owner;
	struct list_head node;
	struct perfkmod_region_cpu __percpu *cpus;
	struct perfkmod_region_func func;
};

/* region_call.c: a call's begin and end, in any context */
bool perfkmod_region_call_begin(struct perfkmod_region *r,
				struct perfkmod_region_call *call);
void perfkmod_region_call_end(struct perfkmod_region *r,
			      struct perfkmod_region_call *call);

/* region.c: for module init, exit and notifier */
extern struct perfkmod_user perfkmod_region_user;
int perfkmod_regions_release_owner(struct module *mod);

/* region_func.c: the probe of a function region */
int perfkmod_region_func_register(struct perfkmod_region *r);
void perfkmod_region_func_unregister(struct perfkmod_region *r);
int perfkmod_region_func_switch(struct perfkmod_region *r, bool on);
bool perfkmod_region_func_gone(struct perfkmod_region *r);
u64 perfkmod_region_func_missed(struct perfkmod_region *r);
void perfkmod_region_func_reset(struct perfkmod_region *r);

#endif /* _PERFKMOD_REGION_H */
