/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels perfkmod builds against (Debian's 5.10,
 * 6.1, 6.12), in one place. Features are probed by Kbuild (PERFKMOD_HAVE_*),
 * not inferred from version numbers.
 */
#ifndef _PERFKMOD_COMPAT_H
#define _PERFKMOD_COMPAT_H

/*
 * Internal symbols the KUnit suites use are exported to them only, in the
 * EXPORTED_FOR_KUNIT_TESTING namespace, where the kernel has the helper
 * (6.2 and later); elsewhere, not at all (the macro only names them, as __ADDRESSABLE).
 */
#ifdef PERFKMOD_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(sym)	__ADDRESSABLE(sym)
#endif

/*
 * cgroup-switches came in 5.13 (5.10 lacks it). The value is perf's ABI:
 * named here, so that the grammar takes the name on every kernel and an
 * older perf answers its own -ENOENT, as for any event it does not have.
 */
#include <uapi/linux/perf_event.h>
#ifndef PERFKMOD_HAVE_SW_CGROUP_SWITCHES
#define PERF_COUNT_SW_CGROUP_SWITCHES	11
#endif

/*
 * An irq_work that runs from the next tick rather than raising an interrupt
 * (unless the tick is stopped). 5.10 has the flag but not the initialiser.
 * Not on PREEMPT_RT, where every irq_work but the hard ones waits on the
 * lazy list, and only the first queued raises the interrupt that wakes
 * the irq_work thread: a lazy one there would hold the others back.
 */
#include <linux/irq_work.h>
static inline void perfkmod_init_irq_work_lazy(struct irq_work *work,
					       void (*func)(struct irq_work *))
{
#if defined(CONFIG_PREEMPT_RT)
	init_irq_work(work, func);
#elif defined(PERFKMOD_HAVE_IRQ_WORK_INIT_LAZY)
	*work = IRQ_WORK_INIT_LAZY(func);
#else
	init_irq_work(work, func);
	atomic_set(&work->flags, IRQ_WORK_LAZY);
#endif
}

#ifndef PERFKMOD_HAVE_IRQ_WORK_IS_PENDING
static inline bool irq_work_is_pending(struct irq_work *work)
{
	return atomic_read(&work->flags) & IRQ_WORK_PENDING;
}
#endif

/* get_kretprobe() (5.12): an instance's kretprobe, ri->rp before it */
#ifndef PERFKMOD_HAVE_GET_KRETPROBE
#include <linux/kprobes.h>

static inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return ri->rp;
}
#endif

#endif /* _PERFKMOD_COMPAT_H */
