/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every CPU hotplug participant of perfkmod, and its state. Both states
 * are dynamic ones of the online section (CPUHP_AP_ONLINE_DYN): their
 * callbacks run on the CPU, in its hotplug thread, cpu_hotplug_lock held
 * for writing, after perf's CPUHP_AP_PERF_ONLINE as the CPU comes up and
 * before it as the CPU goes down.
 *
 *   PERFKMOD_CPUHP_COUNTERS  counter_list.c  a single-instance state whose
 *	callbacks walk perfkmod_per_cpu_counters: each notes the CPU's change
 *	in every counter's share (perfkmod_cpu_changed(), cpu_events.c) and
 *	queues the counter's hotplug work,
 *	which makes or retires the events (see "Locks" in internal.h: no
 *	event is made or released there).
 *   PERFKMOD_CPUHP_SERIES    series.c  multi-instance, one instance a
 *	series: starts the CPU's timer as it comes up, cancels it as it
 *	goes down.
 *
 * Each is set up once from module init, before any counter or series is
 * made, and removed from module exit, after the last one is released.
 */
#ifndef _PERFKMOD_CPUHOTPLUG_H
#define _PERFKMOD_CPUHOTPLUG_H

#define PERFKMOD_CPUHP_COUNTERS	"perfkmod:online"
#define PERFKMOD_CPUHP_SERIES	"perfkmod/series:online"

/* counter_list.c */
int perfkmod_counters_hotplug_init(void);
void perfkmod_counters_hotplug_exit(void);

/* series.c */
int perfkmod_series_hotplug_init(void);
void perfkmod_series_hotplug_exit(void);

#endif /* _PERFKMOD_CPUHOTPLUG_H */
