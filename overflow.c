// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow trampoline: the one handler perf calls on counter overflow.
 *
 * It may run in NMI context (hardware PMUs), hard IRQ context (hrtimer
 * software events) or the context of the instrumented code (other software
 * events, breakpoints, tracepoints): it takes no lock, allocates nothing and
 * never sleeps.
 */
#include <linux/perf_event.h>

#include "internal.h"

/**
 * perfkmod_overflow() - perf's overflow handler of every sampling counter
 * @event: the perf event that overflowed; its context is the counter.
 * @data: perf's sample data (not copied).
 * @regs: the interrupted registers.
 *
 * Context: NMI-safe: any context perf calls it in.
 */
void perfkmod_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct perfkmod_counter *c = event->overflow_handler_context;

	atomic64_inc(&c->overflows);
}
