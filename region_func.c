// SPDX-License-Identifier: GPL-2.0
/*
 * Function regions: a kretprobe with entry data on a kernel function, its
 * entry handler beginning a region's call in the instance's data, its
 * return handler ending it. Each call of the function, recursion and
 * calls that sleep included, has its own instance, so its own begin.
 */
#include <linux/kprobes.h>
#include <linux/string.h>

#include "compat.h"
#include "internal.h"
#include "region.h"

/*
 * The function's entry: a call begins. Returning non-zero frees the
 * instance at once, without a return handler: a call not begun. Where
 * kretprobes have no rethook (arm64), the instance's kretprobe reads NULL
 * once its unregister has begun (kprobes' own trace_kprobe checks so too):
 * no call begins then.
 */
static int region_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	if (unlikely(!rp))
		return 1;
	return !perfkmod_region_call_begin(container_of(rp,
							struct perfkmod_region,
							func.rp),
					   (void *)ri->data);
}

/*
 * The function's return: the call ends, in the region its begin stored,
 * which its unregister's grace period keeps until no handler runs.
 */
static int region_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct perfkmod_region_call *call = (void *)ri->data;

	perfkmod_region_call_end(call->region, call);
	return 0;
}

/**
 * perfkmod_region_func_register() - put a region's probe on its function
 * @r: a region being created, of @r->config.func and @r->config.max_active.
 *
 * The probe is registered disabled: perfkmod_region_func_switch() turns it
 * on. @r->func.symbol takes a copy of the function's name.
 *
 * Context: process context, may sleep.
 * Return: 0 or register_kretprobe()'s errno.
 */
int perfkmod_region_func_register(struct perfkmod_region *r)
{
	struct kretprobe *rp = &r->func.rp;

	strscpy(r->func.symbol, r->config.func, sizeof(r->func.symbol));
	rp->kp.symbol_name = r->func.symbol;
	rp->kp.flags = KPROBE_FLAG_DISABLED;
	rp->entry_handler = region_entry;
	rp->handler = region_return;
	rp->data_size = sizeof(struct perfkmod_region_call);
	rp->maxactive = r->config.max_active;
	return register_kretprobe(rp);
}

/**
 * perfkmod_region_func_unregister() - take a region's probe off
 * @r: the region, off.
 *
 * Once it returns, no handler runs for @r: kprobes waits for those under
 * way, and the instances of calls still in the function return without
 * one.
 *
 * Context: process context, may sleep.
 */
void perfkmod_region_func_unregister(struct perfkmod_region *r)
{
	unregister_kretprobe(&r->func.rp);
}

/**
 * perfkmod_region_func_switch() - turn a region's probe on or off
 * @r: the region.
 * @on: on or off.
 *
 * Off, calls already in the function still reach the return handler,
 * which drops them (the region's generation has moved).
 *
 * Context: process context, may sleep.
 * Return: 0 or enable_kretprobe()'s errno.
 */
int perfkmod_region_func_switch(struct perfkmod_region *r, bool on)
{
	if (on)
		return enable_kretprobe(&r->func.rp);
	return disable_kretprobe(&r->func.rp);
}

/**
 * perfkmod_region_func_gone() - whether a region's function went with its
 *	module
 * @r: the region.
 *
 * kprobes marks the probe gone, for good, when the function's module goes.
 *
 * Context: process context, the region's lock held.
 * Return: true once the function's module went.
 */
bool perfkmod_region_func_gone(struct perfkmod_region *r)
{
	/* set under kprobe_mutex, which this does not take: a hint, then */
	return data_race(kprobe_gone(&r->func.rp.kp));
}

/* The calls the probe missed since it was registered. */
static u64 missed_raw(struct perfkmod_region *r)
{
	/* kprobes' counts are an int and an unsigned long: both wrap */
	return (u64)(unsigned int)READ_ONCE(r->func.rp.nmissed) +
	       READ_ONCE(r->func.rp.kp.nmissed);
}

/**
 * perfkmod_region_func_missed() - the calls a region's probe missed
 * @r: the region.
 *
 * Calls beyond @max_active at once (the kretprobe's), and hits of the
 * function within another probe's handler (its kprobe's), since the
 * region's last reset.
 *
 * Context: any context.
 * Return: how many.
 */
u64 perfkmod_region_func_missed(struct perfkmod_region *r)
{
	return missed_raw(r) - READ_ONCE(r->func.missed_base);
}

/**
 * perfkmod_region_func_reset() - set a region's missed calls back to zero
 * @r: the region.
 *
 * Context: process context, the region's reset.
 */
void perfkmod_region_func_reset(struct perfkmod_region *r)
{
	WRITE_ONCE(r->func.missed_base, missed_raw(r));
}
