/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regions: their figures, lifetime and markers (region.c) and their
 * function probes (region_func.c) share the region below; what module
 * init and exit, and the module notifier, ask of them.
 */
#ifndef _PERFKMOD_REGION_H
#define _PERFKMOD_REGION_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include <asm/local64.h>

#include "perfkmod.h"

struct module;

/*
 * One CPU's figures of a region (&struct perfkmod_region_stats), written
 * by the calls that end on the CPU only, with local64 operations: a call
 * ending in an interrupt or NMI of another's end on the same CPU leaves
 * both whole.
 */
struct perfkmod_region_cpu {
	local64_t calls;
	local64_t lost;
	local64_t migrated;
	local64_t min;
	local64_t max;
	local64_t sum[PERFKMOD_REGION_MAX_COUNTERS];
	local64_t hist[PERFKMOD_REGION_HIST_BUCKETS];
};

/**
 * struct perfkmod_region_func - a function region's probe
 * @rp: the kretprobe on the function: its entry handler begins a call in
 *	its instance's data (a struct perfkmod_region_call), its handler
 *	ends it.
 * @symbol: the function, as the config named it.
 */
struct perfkmod_region_func {
	struct kretprobe rp;
	char *symbol;
};

/**
 * struct perfkmod_region - a region: its counters, figures and calls' source
 * @config: perfkmod's copy of the creator's (see perfkmod_region_config()).
 * @counters: the counters, in order; @config.counters points here.
 * @names: copies of the counter names, NULL if none were given.
 * @name: the name; @config.name points here.
 * @id: tells the region from any other made before it.
 * @task: its counters are one task's, not all CPUs'.
 * @enabled: counting is on.
 * @owner: the module that created it.
 * @node: entry in the list of regions.
 * @cpus: each CPU's figures.
 * @func: the probe of a function region.
 */
struct perfkmod_region {
	struct perfkmod_region_config config;
	struct perfkmod_counter *counters[PERFKMOD_REGION_MAX_COUNTERS];
	char *names[PERFKMOD_REGION_MAX_COUNTERS];
	char name[PERFKMOD_REGION_NAME_MAX + 1];
	u32 id;
	bool task;
	bool enabled;
	struct module *owner;
	struct list_head node;
	struct perfkmod_region_cpu __percpu *cpus;
	struct perfkmod_region_func func;
};

/* region.c: a call's begin and end, in any context */
bool perfkmod_region_call_begin(struct perfkmod_region *r,
				struct perfkmod_region_call *call);
void perfkmod_region_call_end(struct perfkmod_region *r,
			      struct perfkmod_region_call *call);

/* region.c: what the module notifier releases */
int perfkmod_regions_release_owner(struct module *mod);

/* region_func.c: the probe of a function region */
int perfkmod_region_func_register(struct perfkmod_region *r);
void perfkmod_region_func_unregister(struct perfkmod_region *r);
int perfkmod_region_func_switch(struct perfkmod_region *r, bool on);
u64 perfkmod_region_func_missed(struct perfkmod_region *r);

#endif /* _PERFKMOD_REGION_H */
