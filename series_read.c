// SPDX-License-Identifier: GPL-2.0
/*
 * The readers' side of a series (series.c makes and records): the records
 * each CPU's ring holds, taken oldest first under @read_lock; poll(),
 * whose sleepers the producers wake through their CPU's irq_work; and the
 * counts of records dropped and intervals skipped. Each ring's @tail is
 * the reader's, published with release after the records are read;
 * @head is loaded with acquire (see series.c).
 */
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/slab.h>

#include "compat.h"
#include "internal.h"
#include "series.h"

int perfkmod_series_read(struct perfkmod_series *s, int cpu,
			 struct perfkmod_series_record *records,
			 unsigned int max)
{
	struct perfkmod_series_cpu *sc;
	unsigned long head, tail;
	unsigned int n = 0;

	if (perfkmod_refuse_atomic_read())
		return -EDEADLK;
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	sc = per_cpu_ptr(s->cpus, cpu);
	mutex_lock(&s->read_lock);
	tail = sc->tail;
	/* pairs with smp_store_release() in series_record() */
	head = smp_load_acquire(&sc->head);
	while (tail != head && n < max)
		records[n++] = sc->ring[tail++ & s->mask];
	/* the records read first: pairs with smp_load_acquire() there */
	smp_store_release(&sc->tail, tail);
	mutex_unlock(&s->read_lock);
	return n;
}
EXPORT_SYMBOL_GPL(perfkmod_series_read);

struct perfkmod_series_waitq *
perfkmod_series_waitq_get(struct perfkmod_series *s)
{
	refcount_inc(&s->waitq->ref);
	return s->waitq;
}
EXPORT_SYMBOL_GPL(perfkmod_series_waitq_get);

void perfkmod_series_waitq_put(struct perfkmod_series_waitq *wq)
{
	if (refcount_dec_and_test(&wq->ref))
		kfree(wq);
}
EXPORT_SYMBOL_GPL(perfkmod_series_waitq_put);

__poll_t perfkmod_series_poll_wait(struct perfkmod_series_waitq *wq,
				   struct file *file, poll_table *pt)
{
	poll_wait(file, &wq->wait, pt);
	/*
	 * Joined before the rings are looked at: pairs with the barrier of
	 * wq_has_sleeper() in series_wake_pollers(), and with the release's
	 * wake_up_all() after it sets @dead.
	 */
	smp_mb();
	return READ_ONCE(wq->dead) ? EPOLLHUP | EPOLLERR : 0;
}
EXPORT_SYMBOL_GPL(perfkmod_series_poll_wait);

bool perfkmod_series_ready(struct perfkmod_series *s)
{
	struct perfkmod_series_cpu *sc;
	int cpu;

	for_each_possible_cpu(cpu) {
		sc = per_cpu_ptr(s->cpus, cpu);
		if (READ_ONCE(sc->head) - READ_ONCE(sc->tail) >= s->watermark)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_GPL(perfkmod_series_ready);

static u64 dropped_on(struct perfkmod_series *s, int cpu)
{
	return local64_read(&per_cpu_ptr(s->cpus, cpu)->dropped);
}

static u64 skipped_on(struct perfkmod_series *s, int cpu)
{
	return READ_ONCE(per_cpu_ptr(s->cpus, cpu)->skipped);
}

/* @on's figure of each possible CPU, summed. */
static u64 sum_cpus(struct perfkmod_series *s,
		    u64 (*on)(struct perfkmod_series *s, int cpu))
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += on(s, cpu);
	return sum;
}

u64 perfkmod_series_dropped(struct perfkmod_series *s)
{
	return sum_cpus(s, dropped_on);
}
EXPORT_SYMBOL_GPL(perfkmod_series_dropped);

u64 perfkmod_series_skipped(struct perfkmod_series *s)
{
	return sum_cpus(s, skipped_on);
}
EXPORT_SYMBOL_GPL(perfkmod_series_skipped);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * perfkmod_series_dropped_on() - the records one CPU's ring dropped
 * @s: a series.
 * @cpu: a possible CPU.
 *
 * For the KUnit suites: perfkmod_series_dropped()'s share of @cpu, so
 * that a case can wait until every CPU's ring has been full.
 *
 * Context: any context.
 * Return: the records of @cpu dropped: made when its ring was full, or
 * (of an event-driven series) when @cpu was recording already.
 */
u64 perfkmod_series_dropped_on(struct perfkmod_series *s, int cpu)
{
	return dropped_on(s, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_series_dropped_on);

/**
 * perfkmod_series_skipped_on() - the intervals one CPU's timer skipped
 * @s: a series.
 * @cpu: a possible CPU.
 *
 * For the KUnit suites: perfkmod_series_skipped()'s share of @cpu.
 *
 * Context: any context.
 * Return: the intervals @cpu's timer came too late to record.
 */
u64 perfkmod_series_skipped_on(struct perfkmod_series *s, int cpu)
{
	return skipped_on(s, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(perfkmod_series_skipped_on);
#endif
