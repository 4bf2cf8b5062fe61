/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf events of a counter (counter_event.c): what the counter core
 * and the per-CPU events ask of it. It alone writes a counter's @read_kind.
 */
#ifndef _PERFKMOD_COUNTER_EVENT_H
#define _PERFKMOD_COUNTER_EVENT_H

#include <linux/perf_event.h>

#include "perfkmod.h"

struct perfkmod_counter;
struct task_struct;

/*
 * The highest frequency of cpu-clock and task-clock, whose frequency perf
 * turns into a period: their timer's 10 us floor, and the default of
 * kernel.perf_event_max_sample_rate, which perfkmod cannot read.
 */
#define PERFKMOD_TIMER_FREQ_MAX	100000

struct perf_event *perfkmod_create_event(struct perfkmod_counter *c, int cpu,
					 struct task_struct *task, bool disabled);
int perfkmod_probe_freq(struct perfkmod_counter *c, u64 freq);
int perfkmod_pmus_init(void);
bool perfkmod_config_is_timer(const struct perfkmod_config *cfg);
int perfkmod_event_set_period(struct perfkmod_counter *c,
			      struct perf_event *event, u64 value);
void perfkmod_events_read_as_system(struct perfkmod_counter *c);

#endif /* _PERFKMOD_COUNTER_EVENT_H */
