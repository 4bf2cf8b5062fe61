// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod_bench: what perfkmod costs, measured next to raw perf in the
 * same kernel, run by scripts/bench.sh inside QEMU ("make bench").
 *
 *	insmod perfkmod_bench.ko sections=dispatch,trigger,read,scale,workload,region
 *	insmod perfkmod_bench.ko hold=4096 kind=perfkmod   (memory, see below)
 *
 * It is a client module like any other: it uses perfkmod's exported API
 * only, and raw perf through perf_event_create_kernel_counter().
 *
 * Every figure is a duration measured with ktime_get_ns() on CPU 0 (the
 * module pins the loading task there), divided by the operations done,
 * the median of @reps repetitions in which perfkmod and its raw anchor
 * alternate. Under QEMU's -icount shift=0 one guest nanosecond is one
 * guest instruction, so the same figures are instructions per operation.
 * Nothing here depends on wall time: sources fire per event or per guest
 * nanosecond, and loops are counted.
 *
 * Results are kernel log lines scripts/bench.sh reads:
 *
 *	PERFKMOD-BENCH KEY VALUE
 *
 * where VALUE is a count, a per-operation figure in thousandths of a
 * nanosecond for keys that end in ".ns", or the nanoseconds of one whole
 * workload run for keys that end in ".run".
 *
 * With hold=N the module only creates N counters of @kind at load and
 * releases them at unload, so that the guest can read the kernel's memory
 * counters in between.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/hw_breakpoint.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "perfkmod.h"

static char *sections = "dispatch,trigger,read,scale,workload,region";
module_param(sections, charp, 0400);
MODULE_PARM_DESC(sections, "comma-separated: dispatch, trigger, read, scale, workload, region");

static unsigned int iters = 20000;
module_param(iters, uint, 0400);
MODULE_PARM_DESC(iters, "breakpoint overflows and reads per measurement");

static unsigned int reps = 5;
module_param(reps, uint, 0400);
MODULE_PARM_DESC(reps, "repetitions; the median is reported (1-15)");

static unsigned long work = 20000000;
module_param(work, ulong, 0400);
MODULE_PARM_DESC(work, "loop iterations of the CPU-bound workload");

static unsigned int scale_max = 4096;
module_param(scale_max, uint, 0400);
MODULE_PARM_DESC(scale_max, "scale: skip the counts above this (the smoke run's 64)");

static int hold = -1;
module_param(hold, int, 0400);
MODULE_PARM_DESC(hold, "only create this many counters and keep them until unload");

static char *kind = "perfkmod";
module_param(kind, charp, 0400);
MODULE_PARM_DESC(kind, "counters hold= creates: perfkmod or raw");

#define BENCH_CPU	0
#define MAX_REPS	15
/* The most CPUs the all-CPUs read figure reads raw events on. */
#define READ_MAX_CPUS	16
/* What perf stores in hw.interrupts when it throttles, as in overflow.c. */
#define BENCH_THROTTLED	(~0ULL)
/* The shortest cpu-clock period perf accepts, in ns. */
#define CLOCK_PERIOD	10000
/*
 * The cycles source's period: 100 us of the loop at the 1 GHz of QEMU's
 * emulated PMU cycle counter (arm64 -cpu max), about 30 us on a CPU of
 * 3 GHz.
 */
#define CYCLES_PERIOD	100000
/*
 * Its loop, in turns per @iters: a turn takes about 2 ns under QEMU's arm64
 * TCG, so the full run's 160M turns take about 300 ms: 3,000 overflows.
 */
#define CYCLES_TURNS	8000

static void report(const char *key, u64 value)
{
	pr_info("PERFKMOD-BENCH %s %llu\n", key, value);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n samples, reported as KEY. */
static void report_median(const char *key, u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	report(key, v[n / 2]);
}

/* Thousandths of a nanosecond per operation. */
static u64 per_op(u64 ns, u64 ops)
{
	return ops ? div64_u64(ns * 1000, ops) : 0;
}

/* --- what raw perf does, with a handler of our own ---------------------- */

struct raw_ctx {
	u64 overflows;
	u64 throttled;
	u64 nmi;
};

/* Context: perf's overflow context (here an exception, hard IRQ or NMI). */
static void raw_handler(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	struct raw_ctx *r = event->overflow_handler_context;

	WRITE_ONCE(r->overflows, r->overflows + 1);
	/* counted as perfkmod counts it */
	if (READ_ONCE(event->hw.interrupts) == BENCH_THROTTLED)
		WRITE_ONCE(r->throttled, r->throttled + 1);
}

/* The same, also counting the overflows that came in NMI. */
static void raw_nmi_handler(struct perf_event *event,
			    struct perf_sample_data *data, struct pt_regs *regs)
{
	struct raw_ctx *r = event->overflow_handler_context;

	raw_handler(event, data, regs);
	if (in_nmi())
		WRITE_ONCE(r->nmi, r->nmi + 1);
}

/*
 * The raw-perf baseline's attr, built as perfkmod builds it
 * (config_to_attr() in counter_event.c, which perfkmod does not export): a
 * copy on purpose, so that the baseline does not depend on the code it is
 * measured against.
 */
static void config_to_raw(const struct perfkmod_config *cfg,
			  struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = cfg->type;
	attr->config = cfg->config;
	attr->bp_addr = cfg->bp_addr;
	attr->bp_len = cfg->bp_len;
	attr->bp_type = cfg->bp_type;
	if (cfg->sample_freq) {
		attr->freq = 1;
		attr->sample_freq = cfg->sample_freq;
	} else {
		attr->sample_period = cfg->sample_period;
	}
	if (cfg->sample_freq || cfg->sample_period)
		attr->wakeup_events = 1;
}

static struct perf_event *raw_create_fn(const struct perfkmod_config *cfg,
					int cpu, perf_overflow_handler_t fn,
					struct raw_ctx *r)
{
	struct perf_event_attr attr;
	bool sampling = cfg->sample_period || cfg->sample_freq;

	config_to_raw(cfg, &attr);
	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						sampling ? fn : NULL,
						sampling ? r : NULL);
}

static struct perf_event *raw_create(const struct perfkmod_config *cfg,
				     int cpu, struct raw_ctx *r)
{
	return raw_create_fn(cfg, cpu, raw_handler, r);
}

/* --- overflow sources ---------------------------------------------------- */

/* The variable the breakpoint watches. */
static unsigned long bench_var;
static u64 bench_sink;

/* One write, so one overflow of a period-1 write breakpoint, each turn. */
static noinline void spin_writes(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(bench_var, i);
}

/* The CPU-bound workload: @n turns of a linear congruential generator. */
static noinline void spin_work(unsigned long n)
{
	u64 x = 1;
	unsigned long i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		OPTIMIZER_HIDE_VAR(x);
	}
	WRITE_ONCE(bench_sink, x);
}

/* An event of CPU 0 (BENCH_CPU), sampling or not. */
static void cpu0_config(struct perfkmod_config *cfg, u32 type, u64 config,
			u64 period, u64 freq)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->type = type;
	cfg->config = config;
	cfg->sample_period = period;
	cfg->sample_freq = freq;
	cfg->target = PERFKMOD_TARGET_CPU;
	cfg->cpu = BENCH_CPU;
}

static void bp_config(struct perfkmod_config *cfg)
{
	cpu0_config(cfg, PERF_TYPE_BREAKPOINT, 0, 1, 0);
	cfg->bp_addr = (unsigned long)&bench_var;
	cfg->bp_len = HW_BREAKPOINT_LEN_8;
	cfg->bp_type = HW_BREAKPOINT_W;
}

static void clock_config(struct perfkmod_config *cfg, u64 period, u64 freq)
{
	cpu0_config(cfg, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, period,
		    freq);
}

/*
 * Hardware cycles on CPU 0: a PMU's overflow interrupt, an NMI on x86 and a
 * pseudo-NMI on arm64 (irqchip.gicv3_pseudo_nmi=1).
 */
static void cycles_config(struct perfkmod_config *cfg)
{
	cpu0_config(cfg, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
		    CYCLES_PERIOD, 0);
}

/* Time one run of a source: @n writes, or @n workload turns. */
static u64 run_source(bool bp, unsigned long n)
{
	u64 t0, t1;

	cond_resched();
	t0 = ktime_get_ns();
	if (bp)
		spin_writes(n);
	else
		spin_work(n);
	t1 = ktime_get_ns();
	return t1 - t0;
}

/* --- 1. overflow dispatch ------------------------------------------------ */

/* Context: perfkmod's trampoline; one CPU, so a plain increment. */
static void count_cb(const struct perfkmod_sample *s, struct pt_regs *regs,
		     void *context)
{
	u64 *n = context;

	WRITE_ONCE(*n, *n + 1);
}

struct nmi_calls {
	u64 calls;
	u64 nmi;
};

/* The same for the cycles source, also counting the calls made in NMI. */
static void count_nmi_cb(const struct perfkmod_sample *s, struct pt_regs *regs,
			 void *context)
{
	struct nmi_calls *n = context;

	WRITE_ONCE(n->calls, n->calls + 1);
	if (in_nmi())
		WRITE_ONCE(n->nmi, n->nmi + 1);
}

enum dispatch_source { SRC_BP, SRC_CLOCK, SRC_CYCLES };

static const char * const source_names[] = { "bp", "clock", "cycles" };

enum dispatch_case { D_RAW, D_PK0, D_PK1, D_PK8, D_PK64, D_DEFER, D_CASES };

static const char * const dispatch_names[D_CASES] = {
	"raw", "pk0", "pk1", "pk8", "pk64", "pkdefer",
};

struct dispatch_result {
	u64 ns[D_CASES][MAX_REPS];
	u64 none[MAX_REPS];
	u64 overflows[D_CASES];
	u64 throttled[D_CASES];
	u64 dropped;
	/* calls, and calls made in NMI (cycles): raw, direct, deferred */
	u64 raw_calls, raw_nmi;
	struct nmi_calls direct, deferred;
};

/* Per-overflow cost of a run beyond the run without any event. */
static u64 extra_per_overflow(u64 t, u64 t_none, u64 overflows)
{
	return per_op(t > t_none ? t - t_none : 0, overflows);
}

/* The handles of a dispatch case: 64 direct callbacks at most. */
struct cb_set {
	struct perfkmod_callback *cb[64];
	int n;
};

static int register_n(struct cb_set *set, struct perfkmod_counter *c, int n,
		      perfkmod_callback_fn fn, void *ctx,
		      enum perfkmod_delivery delivery)
{
	struct perfkmod_callback *cb;

	while (n--) {
		if (set->n == ARRAY_SIZE(set->cb))
			return -ENOSPC;
		cb = perfkmod_callback_register(c, fn, ctx, delivery);
		if (IS_ERR(cb))
			return PTR_ERR(cb);
		set->cb[set->n++] = cb;
	}
	return 0;
}

/* Once their counter is released, which detached them. */
static void unregister_all(struct cb_set *set)
{
	while (set->n)
		perfkmod_callback_unregister(set->cb[--set->n]);
}

static void source_config(enum dispatch_source src, struct perfkmod_config *cfg)
{
	if (src == SRC_BP)
		bp_config(cfg);
	else if (src == SRC_CLOCK)
		clock_config(cfg, CLOCK_PERIOD, 0);
	else
		cycles_config(cfg);
}

/*
 * One repetition of every dispatch case on one source. Callbacks stay
 * registered until their counter is released, which detaches them, and
 * are unregistered after it, untimed. The cycles source's handler and
 * callbacks also count the overflows that came in NMI.
 */
static int dispatch_rep(enum dispatch_source src, unsigned long n,
			struct dispatch_result *res, unsigned int rep)
{
	static const int more[] = { [D_PK1] = 1, [D_PK8] = 7, [D_PK64] = 56 };
	static struct cb_set cbs;	/* the cases run one at a time */
	bool bp = src == SRC_BP, nmi = src == SRC_CYCLES;
	perfkmod_callback_fn fn = nmi ? count_nmi_cb : count_cb;
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perfkmod_stats st;
	struct perf_event *event;
	struct raw_ctx r = {};
	u64 t_none, calls = 0, before, ran;
	void *direct = nmi ? (void *)&res->direct : &calls;
	void *deferred = nmi ? (void *)&res->deferred : &calls;
	int i, err;

	source_config(src, &cfg);

	/* the first run also pays QEMU's translation of the loop: not timed */
	run_source(bp, n);
	t_none = run_source(bp, n);
	res->none[rep] = t_none;

	event = raw_create_fn(&cfg, BENCH_CPU,
			      nmi ? raw_nmi_handler : raw_handler, &r);
	if (IS_ERR(event))
		return PTR_ERR(event);
	/*
	 * Here and below, only the overflows of the timed run: a timer or a
	 * cycles counter also overflows between its creation and the run.
	 */
	before = READ_ONCE(r.overflows);
	res->ns[D_RAW][rep] = run_source(bp, n);
	ran = READ_ONCE(r.overflows) - before;
	res->ns[D_RAW][rep] = extra_per_overflow(res->ns[D_RAW][rep], t_none,
						 ran);
	perf_event_release_kernel(event);
	res->overflows[D_RAW] += ran;
	res->throttled[D_RAW] += r.throttled;
	res->raw_calls += r.overflows;
	res->raw_nmi += r.nmi;

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	for (i = D_PK0; i <= D_PK64; i++) {
		err = register_n(&cbs, c, more[i], fn, direct,
				 PERFKMOD_DELIVER_DIRECT);
		if (err)
			goto out;
		perfkmod_counter_stats(c, &st);
		before = st.overflows;
		res->ns[i][rep] = run_source(bp, n);
		perfkmod_counter_stats(c, &st);
		res->ns[i][rep] = extra_per_overflow(res->ns[i][rep], t_none,
						     st.overflows - before);
		res->overflows[i] += st.overflows - before;
	}
	res->throttled[D_PK64] += st.throttled;
	perfkmod_counter_release(c);
	unregister_all(&cbs);

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	err = register_n(&cbs, c, 1, fn, deferred, PERFKMOD_DELIVER_IRQ);
	if (err)
		goto out;
	perfkmod_counter_stats(c, &st);
	before = st.overflows;
	res->ns[D_DEFER][rep] = run_source(bp, n);
	perfkmod_counter_stats(c, &st);
	res->ns[D_DEFER][rep] = extra_per_overflow(res->ns[D_DEFER][rep],
						   t_none, st.overflows - before);
	res->overflows[D_DEFER] += st.overflows - before;
	res->throttled[D_DEFER] += st.throttled;
	res->dropped += st.dropped;
out:
	perfkmod_counter_release(c);
	unregister_all(&cbs);
	return err;
}

/*
 * Whether perf and perfkmod can make @src's event here: 0, or the errno of
 * a missing PMU (-ENOENT: none has the event, as in x86 guests under TCG;
 * -EOPNOTSUPP: it cannot sample). Any other error is the source's failure.
 */
static int source_probe(enum dispatch_source src)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perf_event *event;
	struct raw_ctx r = {};

	source_config(src, &cfg);
	event = raw_create(&cfg, BENCH_CPU, &r);
	if (IS_ERR(event))
		return PTR_ERR(event);
	perf_event_release_kernel(event);
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	perfkmod_counter_release(c);
	return 0;
}

static int bench_dispatch_source(enum dispatch_source src)
{
	const char *name = source_names[src];
	struct dispatch_result *res;
	char key[64];
	unsigned long n;
	unsigned int i;
	int err;

	if (src == SRC_CYCLES) {
		err = source_probe(src);
		if (err == -ENOENT || err == -EOPNOTSUPP) {
			/* no PMU: the table says so, the section goes on */
			report("dispatch.cycles.skipped", -err);
			return 0;
		}
		if (err)
			return err;
	}
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	/*
	 * cpu-clock: enough work for about iters / 4 overflows of 10 us;
	 * cycles: for a few thousand of CYCLES_PERIOD (QEMU's arm64 PMU).
	 */
	if (src == SRC_BP)
		n = iters;
	else if (src == SRC_CLOCK)
		n = (unsigned long)iters * 1000;
	else
		n = (unsigned long)iters * CYCLES_TURNS;
	err = 0;
	for (i = 0; i < reps && !err; i++)
		err = dispatch_rep(src, n, res, i);
	if (err)
		goto out;
	snprintf(key, sizeof(key), "dispatch.%s.none.run", name);
	report_median(key, res->none, reps);
	for (i = 0; i < D_CASES; i++) {
		snprintf(key, sizeof(key), "dispatch.%s.%s.ns", name,
			 dispatch_names[i]);
		report_median(key, res->ns[i], reps);
		snprintf(key, sizeof(key), "dispatch.%s.%s.overflows", name,
			 dispatch_names[i]);
		report(key, res->overflows[i]);
	}
	snprintf(key, sizeof(key), "dispatch.%s.raw.throttled", name);
	report(key, res->throttled[D_RAW]);
	snprintf(key, sizeof(key), "dispatch.%s.pk.throttled", name);
	report(key, res->throttled[D_PK64]);
	snprintf(key, sizeof(key), "dispatch.%s.pkdefer.dropped", name);
	report(key, res->dropped);
	if (src == SRC_CYCLES) {
		/* calls of the raw handler and of perfkmod's callbacks */
		report("dispatch.cycles.raw.calls", res->raw_calls);
		report("dispatch.cycles.raw.nmi", res->raw_nmi);
		report("dispatch.cycles.pk.calls", res->direct.calls);
		report("dispatch.cycles.pk.nmi", res->direct.nmi);
		report("dispatch.cycles.pkdefer.calls", res->deferred.calls);
		report("dispatch.cycles.pkdefer.nmi", res->deferred.nmi);
	}
out:
	kfree(res);
	return err;
}

/*
 * What @clock costs a call, in a loop (the loop without it subtracted),
 * reported as @key. Always inlined: @clock is called directly, as perfkmod
 * calls it, not through a pointer.
 */
static __always_inline void bench_clock(const char *key, u64 (*clock)(void))
{
	u64 t0, t1, t2, sum = 0, v[MAX_REPS];
	unsigned int i, r;

	for (r = 0; r < reps; r++) {
		t0 = ktime_get_ns();
		for (i = 0; i < iters; i++) {
			sum += i;
			OPTIMIZER_HIDE_VAR(sum);
		}
		t1 = ktime_get_ns();
		for (i = 0; i < iters; i++) {
			sum += clock();
			OPTIMIZER_HIDE_VAR(sum);
		}
		t2 = ktime_get_ns();
		v[r] = per_op(t2 - t1 > t1 - t0 ? (t2 - t1) - (t1 - t0) : 0,
			      iters);
	}
	WRITE_ONCE(bench_sink, sum);
	report_median(key, v, reps);
}

/* What the trampoline spends on the sample's timestamp: local_clock(). */
static void bench_local_clock(void)
{
	bench_clock("dispatch.local_clock.ns", local_clock);
}

static int bench_dispatch(void)
{
	/* perfkmod refuses sampling breakpoints on arm64 */
	int err = IS_ENABLED(CONFIG_X86) ? bench_dispatch_source(SRC_BP) : 0;

	/* the overflows keys are sums over the repetitions */
	report("dispatch.reps", reps);
	bench_local_clock();
	return err ?: bench_dispatch_source(SRC_CLOCK) ?:
	       bench_dispatch_source(SRC_CYCLES);
}

/* --- 7. event-driven series: a record per overflow of a trigger ---------- */

/*
 * The counters an event-driven series reads here: the first 1, 4 or 8 of
 * these software events, counting in the benchmark's own task. A software
 * event's PMU read does nothing (perf updates the count as it happens),
 * and none of them happens in the timed loops: what a record reads costs
 * what perfkmod_counter_read_local() itself costs.
 */
static const u64 trigger_events[PERFKMOD_SERIES_MAX_COUNTERS] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	PERF_COUNT_SW_EMULATION_FAULTS, PERF_COUNT_SW_CGROUP_SWITCHES,
};

enum trigger_case { T_PK0, T_BARE1, T_BARE4, T_BARE8, T_SER1, T_SER4, T_SER8,
		    T_CASES };

static const char * const trigger_names[T_CASES] = {
	"pk0", "bare1", "bare4", "bare8", "series1", "series4", "series8",
};

/* The counters each bare or series case reads: bareN and seriesN read N. */
static const unsigned int trigger_reads[T_CASES] = {
	[T_BARE1] = 1, [T_BARE4] = 4, [T_BARE8] = 8,
	[T_SER1] = 1, [T_SER4] = 4, [T_SER8] = 8,
};

struct trigger_result {
	u64 ns[T_CASES][MAX_REPS];
	u64 none[MAX_REPS];
	u64 overflows[T_CASES];
	u64 throttled;
	/* the series' records taken from the rings, and their faults */
	u64 records, dropped, bad;
};

/* The bare callback's context: the counters it reads, and where to. */
struct bare_reads {
	struct perfkmod_counter **counters;
	unsigned int n;
	u64 values[PERFKMOD_SERIES_MAX_COUNTERS];
};

/*
 * The anchor of a record: a direct callback on the same trigger that makes
 * the same perfkmod_counter_read_local() calls of the same counters, each
 * value stored as a record stores it, and nothing else. Context: the
 * trigger's overflow (an exception for a breakpoint, a pseudo-NMI for
 * arm64's cycles); in the benchmark's task, whose counters it reads.
 */
static void bare_read_cb(const struct perfkmod_sample *s, struct pt_regs *regs,
			 void *context)
{
	struct bare_reads *b = context;
	unsigned int i;

	for (i = 0; i < b->n; i++)
		perfkmod_counter_read_local(b->counters[i], &b->values[i]);
}

/*
 * The trigger's overflows during one run of @src's loop, with its per-
 * overflow cost beyond the loop alone (@t_none) stored in @ns.
 */
static u64 trigger_run(struct perfkmod_counter *trigger, bool bp,
		       unsigned long n, u64 t_none, u64 *ns)
{
	struct perfkmod_stats st;
	u64 before, t;

	perfkmod_counter_stats(trigger, &st);
	before = st.overflows;
	t = run_source(bp, n);
	perfkmod_counter_stats(trigger, &st);
	*ns = extra_per_overflow(t, t_none, st.overflows - before);
	return st.overflows - before;
}

/*
 * Take every record of @s, untimed: count them, and those that are not
 * what a record of the loop must be (a triggered record of this task on
 * CPU 0, every counter read).
 */
static int trigger_drain(struct perfkmod_series *s, unsigned int n,
			 struct perfkmod_series_record *buf, unsigned int max,
			 struct trigger_result *res)
{
	unsigned int i;
	int cpu, got;

	for_each_possible_cpu(cpu) {
		while ((got = perfkmod_series_read(s, cpu, buf, max)) > 0) {
			res->records += got;
			for (i = 0; i < got; i++)
				if (buf[i].cpu != BENCH_CPU || buf[i].errors ||
				    buf[i].nr_values != n ||
				    buf[i].tid != current->pid ||
				    !(buf[i].flags & PERFKMOD_RECORD_TRIGGERED))
					res->bad++;
		}
		if (got < 0)
			return got;
	}
	return 0;
}

/*
 * One repetition of every trigger case on one source: the trigger with no
 * callback, then for 1, 4 and 8 counters the bare callback and the series,
 * in turn, each on its own and timed over one run of the loop. A series'
 * rings hold more records than a run has overflows (@ring) and are drained
 * after each run, untimed: a dropped record would cost less than a kept
 * one, so drops are reported, and fail the rows.
 */
static int trigger_rep(enum dispatch_source src, unsigned long n,
		       struct perfkmod_counter **counters, unsigned int ring,
		       struct perfkmod_series_record *buf, unsigned int max,
		       struct trigger_result *res, unsigned int rep)
{
	bool bp = src == SRC_BP;
	struct perfkmod_series_config scfg = {
		.counters = counters,
		.ring_records = ring,
	};
	struct bare_reads bare = { .counters = counters };
	struct perfkmod_callback *cb;
	struct perfkmod_series *s;
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perfkmod_stats st;
	u64 t_none, ran;
	int i, err = 0;

	source_config(src, &cfg);
	/* the same target as the series' counters: this task */
	cfg.target = PERFKMOD_TARGET_TASK;
	cfg.cpu = 0;
	cfg.task = current;

	run_source(bp, n);
	t_none = run_source(bp, n);
	res->none[rep] = t_none;

	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	scfg.trigger = c;
	/* first: a new counter's first run may pay for its creation */
	res->overflows[T_PK0] += trigger_run(c, bp, n, t_none,
					     &res->ns[T_PK0][rep]);
	for (i = T_BARE1; i <= T_BARE8 && !err; i++) {
		bare.n = trigger_reads[i];
		cb = perfkmod_callback_register(c, bare_read_cb, &bare,
						PERFKMOD_DELIVER_DIRECT);
		if (IS_ERR(cb)) {
			err = PTR_ERR(cb);
			break;
		}
		res->overflows[i] += trigger_run(c, bp, n, t_none,
						 &res->ns[i][rep]);
		perfkmod_callback_unregister(cb);

		scfg.nr_counters = trigger_reads[i];
		s = perfkmod_series_create(&scfg);
		if (IS_ERR(s)) {
			err = PTR_ERR(s);
			break;
		}
		ran = trigger_run(c, bp, n, t_none,
				  &res->ns[i - T_BARE1 + T_SER1][rep]);
		res->overflows[i - T_BARE1 + T_SER1] += ran;
		res->dropped += perfkmod_series_dropped(s);
		err = trigger_drain(s, scfg.nr_counters, buf, max, res);
		perfkmod_series_release(s);
	}
	perfkmod_counter_stats(c, &st);
	res->throttled += st.throttled;
	perfkmod_counter_release(c);
	return err;
}

/*
 * An untimed run of the cycles trigger with a series of 8 counters and a
 * callback that counts the calls made in NMI beside it: the trampoline
 * calls both in the same context, so this shows the records are made in
 * NMI without timing a counting callback.
 */
static int trigger_nmi_check(struct perfkmod_counter **counters,
			     unsigned long n)
{
	struct perfkmod_series_config scfg = {
		.counters = counters,
		.nr_counters = PERFKMOD_SERIES_MAX_COUNTERS,
	};
	struct nmi_calls calls = {};
	struct perfkmod_callback *cb;
	struct perfkmod_series *s;
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	int err = 0;

	cycles_config(&cfg);
	cfg.target = PERFKMOD_TARGET_TASK;
	cfg.cpu = 0;
	cfg.task = current;
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	scfg.trigger = c;
	s = perfkmod_series_create(&scfg);
	if (IS_ERR(s)) {
		err = PTR_ERR(s);
		goto out;
	}
	cb = perfkmod_callback_register(c, count_nmi_cb, &calls,
					PERFKMOD_DELIVER_DIRECT);
	if (IS_ERR(cb)) {
		err = PTR_ERR(cb);
		goto out_series;
	}
	run_source(false, n);
	perfkmod_callback_unregister(cb);
	report("trigger.cycles.check.calls", calls.calls);
	report("trigger.cycles.check.nmi", calls.nmi);
	report("trigger.cycles.check.dropped", perfkmod_series_dropped(s));
out_series:
	perfkmod_series_release(s);
out:
	perfkmod_counter_release(c);
	return err;
}

/* What a record spends on its timestamp: ktime_get_mono_fast_ns(). */
static void bench_mono_clock(const char *key)
{
	bench_clock(key, ktime_get_mono_fast_ns);
}

static int bench_trigger_source(enum dispatch_source src)
{
	struct perfkmod_counter *counters[PERFKMOD_SERIES_MAX_COUNTERS] = {};
	const char *name = source_names[src];
	struct perfkmod_series_record *buf;
	struct trigger_result *res;
	struct perfkmod_config cfg;
	unsigned int i, ring, max = 256;
	unsigned long n;
	char key[64];
	u64 v;
	int err;

	if (src == SRC_CYCLES) {
		err = source_probe(src);
		if (err == -ENOENT || err == -EOPNOTSUPP) {
			report("trigger.cycles.skipped", -err);
			return 0;
		}
		if (err)
			return err;
	}
	n = src == SRC_BP ? iters : (unsigned long)iters * CYCLES_TURNS;
	/*
	 * Twice the breakpoint's overflows of a run (one per write), and many
	 * times the cycles': some 6,000 of the full run's 160M turns.
	 */
	ring = min_t(unsigned long, roundup_pow_of_two(2UL * iters),
		     PERFKMOD_SERIES_MAX_RECORDS);
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	buf = kvmalloc_array(max, sizeof(*buf), GFP_KERNEL);
	err = -ENOMEM;
	if (!res || !buf)
		goto out;
	memset(&cfg, 0, sizeof(cfg));
	cfg.type = PERF_TYPE_SOFTWARE;
	cfg.target = PERFKMOD_TARGET_TASK;
	cfg.task = current;
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		cfg.config = trigger_events[i];
		counters[i] = perfkmod_counter_create(&cfg);
		if (IS_ERR(counters[i])) {
			err = PTR_ERR(counters[i]);
			counters[i] = NULL;
			goto out;
		}
		/* the reads the callbacks make, here in the task */
		err = perfkmod_counter_read_local(counters[i], &v);
		if (err)
			goto out;
	}
	/*
	 * One repetition untimed first: under plain TCG the first run of
	 * the callbacks' code pays its translation, which would fall on
	 * whichever case ran it first.
	 */
	err = trigger_rep(src, n, counters, ring, buf, max, res, 0);
	memset(res, 0, sizeof(*res));
	for (i = 0; i < reps && !err; i++)
		err = trigger_rep(src, n, counters, ring, buf, max, res, i);
	if (!err && src == SRC_CYCLES)
		err = trigger_nmi_check(counters, n / 4);
	if (err)
		goto out;
	snprintf(key, sizeof(key), "trigger.%s.none.run", name);
	report_median(key, res->none, reps);
	for (i = 0; i < T_CASES; i++) {
		snprintf(key, sizeof(key), "trigger.%s.%s.ns", name,
			 trigger_names[i]);
		report_median(key, res->ns[i], reps);
		snprintf(key, sizeof(key), "trigger.%s.%s.overflows", name,
			 trigger_names[i]);
		report(key, res->overflows[i]);
	}
	snprintf(key, sizeof(key), "trigger.%s.throttled", name);
	report(key, res->throttled);
	snprintf(key, sizeof(key), "trigger.%s.records", name);
	report(key, res->records);
	snprintf(key, sizeof(key), "trigger.%s.dropped", name);
	report(key, res->dropped);
	snprintf(key, sizeof(key), "trigger.%s.bad", name);
	report(key, res->bad);
	snprintf(key, sizeof(key), "trigger.%s.ring", name);
	report(key, ring);
	/* beside the source's figures, in the same kernel */
	snprintf(key, sizeof(key), "trigger.%s.mono_clock.ns", name);
	bench_mono_clock(key);
out:
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		perfkmod_counter_release(counters[i]);
	kvfree(buf);
	kfree(res);
	return err;
}

static int bench_trigger(void)
{
	/* perfkmod refuses sampling breakpoints on arm64 */
	int err = IS_ENABLED(CONFIG_X86) ? bench_trigger_source(SRC_BP) : 0;

	report("trigger.reps", reps);
	return err ?: bench_trigger_source(SRC_CYCLES);
}

/* --- 2. in-kernel read --------------------------------------------------- */

static u64 time_pk_reads(struct perfkmod_counter *c)
{
	struct perfkmod_value v;
	unsigned int i;
	u64 t0;

	cond_resched();
	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++)
		perfkmod_counter_read(c, &v);
	return per_op(ktime_get_ns() - t0, iters);
}

static u64 time_raw_reads(struct perf_event **events, int n)
{
	u64 t0, enabled, running, sum = 0;
	unsigned int i;
	int e;

	cond_resched();
	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++)
		for (e = 0; e < n; e++)
			sum += perf_event_read_value(events[e], &enabled,
						     &running);
	WRITE_ONCE(bench_sink, sum);
	return per_op(ktime_get_ns() - t0, iters);
}

/* perfkmod's read of @cfg's counter against perf_event_read_value(). */
static int bench_read_one(const char *name, struct perfkmod_config *cfg)
{
	struct perf_event *events[READ_MAX_CPUS];
	u64 pk[MAX_REPS], raw[MAX_REPS];
	struct perfkmod_counter *c;
	int cpu, n = 0, err = 0;
	unsigned int i;
	char key[64];

	c = perfkmod_counter_create(cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	/*
	 * Not in cpus_read_lock(): perf takes it as it makes a software
	 * event. No CPU comes or goes during the bench; one that did would
	 * be perf's -ENODEV.
	 */
	for_each_online_cpu(cpu) {
		if (cfg->target == PERFKMOD_TARGET_CPU && cpu != cfg->cpu)
			continue;
		if (n == ARRAY_SIZE(events))
			break;
		events[n] = raw_create(cfg, cpu, NULL);
		if (IS_ERR(events[n])) {
			err = PTR_ERR(events[n]);
			break;
		}
		n++;
	}
	if (err)
		goto out;
	/* warm-up: perf's and perfkmod's paths run once before timing */
	time_pk_reads(c);
	time_raw_reads(events, n);
	for (i = 0; i < reps; i++) {
		pk[i] = time_pk_reads(c);
		raw[i] = time_raw_reads(events, n);
	}
	snprintf(key, sizeof(key), "read.%s.pk.ns", name);
	report_median(key, pk, reps);
	snprintf(key, sizeof(key), "read.%s.raw.ns", name);
	report_median(key, raw, reps);
out:
	while (n--)
		perf_event_release_kernel(events[n]);
	perfkmod_counter_release(c);
	return err;
}

static u64 time_pk_local_reads(struct perfkmod_counter *c)
{
	unsigned int i;
	u64 t0, v, sum = 0;

	cond_resched();
	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++) {
		perfkmod_counter_read_local(c, &v);
		sum += v;
	}
	WRITE_ONCE(bench_sink, sum);
	return per_op(ktime_get_ns() - t0, iters);
}

/*
 * The cheapest read of an event there is, the core of perf's
 * perf_event_read_local() (not exported): the PMU's own read, interrupts
 * off, when the event is on this CPU.
 */
static u64 time_pmu_reads(struct perf_event *event)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, sum = 0;

	cond_resched();
	t0 = ktime_get_ns();
	for (i = 0; i < iters; i++) {
		local_irq_save(flags);
		if (READ_ONCE(event->oncpu) == smp_processor_id())
			event->pmu->read(event);
		sum += local64_read(&event->count);
		local_irq_restore(flags);
	}
	WRITE_ONCE(bench_sink, sum);
	return per_op(ktime_get_ns() - t0, iters);
}

/*
 * perfkmod_counter_read_local() of a one-CPU counter of @config on this
 * CPU (BENCH_CPU, where the loading task is pinned) against the PMU read.
 */
static int bench_read_local(const char *name, u64 config)
{
	u64 pk[MAX_REPS], raw[MAX_REPS];
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perf_event *event;
	unsigned int i;
	char key[64];
	int err = 0;

	clock_config(&cfg, 0, 0);
	cfg.config = config;
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	event = raw_create(&cfg, cfg.cpu, NULL);
	if (IS_ERR(event)) {
		err = PTR_ERR(event);
		goto out;
	}
	err = perfkmod_counter_read_local(c, &pk[0]);
	if (err)
		goto out_event;
	time_pk_local_reads(c);
	time_pmu_reads(event);
	for (i = 0; i < reps; i++) {
		pk[i] = time_pk_local_reads(c);
		raw[i] = time_pmu_reads(event);
	}
	snprintf(key, sizeof(key), "read.local.%s.pk.ns", name);
	report_median(key, pk, reps);
	snprintf(key, sizeof(key), "read.local.%s.raw.ns", name);
	report_median(key, raw, reps);
out_event:
	perf_event_release_kernel(event);
out:
	perfkmod_counter_release(c);
	return err;
}

static int bench_read(void)
{
	struct perfkmod_config cfg;
	char name[16];
	int err;

	clock_config(&cfg, 0, 0);
	err = bench_read_one("cpu", &cfg);
	if (err)
		return err;
	err = bench_read_local("cs", PERF_COUNT_SW_CONTEXT_SWITCHES) ?:
	      bench_read_local("clock", PERF_COUNT_SW_CPU_CLOCK);
	if (err)
		return err;
	cfg.target = PERFKMOD_TARGET_ALL_CPUS;
	cfg.cpu = 0;	/* a one-CPU counter's field */
	snprintf(name, sizeof(name), "all%u", num_online_cpus());
	return bench_read_one(name, &cfg);
}

/* --- 9. regions: a call's cost at a marker and over a function ---------- */

/*
 * A region over the first 1, 4 or 8 of trigger_events[], all-CPUs
 * counters, against the bare PMU read of raw events of the same events on
 * CPU 0, as time_pmu_reads() makes it: a begin/end pair against two bare
 * reads of each counter. Then the marker with its region off against the
 * same loop without a marker, and a function region against a bare
 * kretprobe of the module's own, on two functions alike.
 */
static DEFINE_PERFKMOD_MARKER(bench_marker);

static unsigned long region_var_a, region_var_b;

/* The loop a region's marker brackets, empty but for a store. */
static noinline void region_loop_marker(unsigned int n)
{
	struct perfkmod_region_call call;
	unsigned int i;

	for (i = 0; i < n; i++) {
		perfkmod_region_begin(&bench_marker, &call);
		WRITE_ONCE(region_var_a, i);
		perfkmod_region_end(&bench_marker, &call);
	}
}

/* The same loop without a marker. */
static noinline void region_loop_plain(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(region_var_a, i);
}

/* The bare PMU read of time_pmu_reads(), once. */
static __always_inline u64 bare_pmu_read(struct perf_event *event)
{
	unsigned long flags;
	u64 count;

	local_irq_save(flags);
	if (READ_ONCE(event->oncpu) == smp_processor_id())
		event->pmu->read(event);
	count = local64_read(&event->count);
	local_irq_restore(flags);
	return count;
}

/* The anchor of a pair over @n counters: two bare reads of each. */
static noinline void region_loop_bare(struct perf_event **events,
				      unsigned int n, unsigned int turns)
{
	u64 start[PERFKMOD_REGION_MAX_COUNTERS], sum = 0;
	unsigned int i, k;

	for (i = 0; i < turns; i++) {
		for (k = 0; k < n; k++)
			start[k] = bare_pmu_read(events[k]);
		WRITE_ONCE(region_var_a, i);
		for (k = 0; k < n; k++)
			sum += bare_pmu_read(events[k]) - start[k];
	}
	WRITE_ONCE(bench_sink, sum);
}

/*
 * The two functions alike that the function region and the bare
 * kretprobe probe: each stores to its own variable, so that the compiler
 * does not fold them into one, and neither is inlined or cloned, so that
 * each call is one of the symbol probed.
 */
static noinline __noclone int region_fn_pk(unsigned long x)
{
	WRITE_ONCE(region_var_a, x);
	return 0;
}

static noinline __noclone int region_fn_bare(unsigned long x)
{
	WRITE_ONCE(region_var_b, x);
	return 0;
}

static noinline void region_loop_fn(int (*fn)(unsigned long), unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fn(i);
}

/* The bare kretprobe's counter, and what its calls summed. */
static struct perf_event *kret_event;
static u64 kret_sum;

static int kret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(u64 *)ri->data = bare_pmu_read(kret_event);
	return 0;
}

static int kret_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kret_sum += bare_pmu_read(kret_event) - *(u64 *)ri->data;
	return 0;
}

static struct kretprobe bench_kret = {
	.entry_handler = kret_entry,
	.handler = kret_return,
	.data_size = sizeof(u64),
	.kp.symbol_name = "region_fn_bare",
};

enum region_case { R_PK1, R_BARE1, R_PK4, R_BARE4, R_PK8, R_BARE8, R_OFF,
		   R_PLAIN, R_FN, R_KRET, R_CASES };

static const char * const region_names[R_CASES] = {
	"pk1", "bare1", "pk4", "bare4", "pk8", "bare8", "off", "plain",
	"fn", "kret",
};

static u64 region_time(enum region_case rc, struct perf_event **events)
{
	u64 t0;

	cond_resched();
	t0 = ktime_get_ns();
	switch (rc) {
	case R_PK1:
	case R_PK4:
	case R_PK8:
	case R_OFF:
		region_loop_marker(iters);
		break;
	case R_BARE1:
		region_loop_bare(events, 1, iters);
		break;
	case R_BARE4:
		region_loop_bare(events, 4, iters);
		break;
	case R_BARE8:
		region_loop_bare(events, 8, iters);
		break;
	case R_PLAIN:
		region_loop_plain(iters);
		break;
	case R_FN:
		region_loop_fn(region_fn_pk, iters);
		break;
	case R_KRET:
		region_loop_fn(region_fn_bare, iters);
		break;
	default:
		break;
	}
	return per_op(ktime_get_ns() - t0, iters);
}

/* A region over the first @n counters, at the marker or over region_fn_pk. */
static struct perfkmod_region *region_make(struct perfkmod_counter **counters,
					   unsigned int n, bool fn)
{
	struct perfkmod_region_config rcfg = {
		.name = "bench",
		.counters = counters,
		.nr_counters = n,
	};

	if (fn)
		rcfg.func = "perfkmod_bench:region_fn_pk";
	else
		rcfg.marker = &bench_marker;
	return perfkmod_region_create(&rcfg);
}

/* The median of @rc's runs, run untimed once first (translation). */
static u64 region_median(enum region_case rc, struct perf_event **events)
{
	u64 v[MAX_REPS];
	unsigned int i;

	region_time(rc, events);
	for (i = 0; i < reps; i++)
		v[i] = region_time(rc, events);
	sort(v, reps, sizeof(*v), cmp_u64, NULL);
	return v[reps / 2];
}

static void region_report(enum region_case rc, u64 ns)
{
	char key[64];

	snprintf(key, sizeof(key), "region.%s.ns", region_names[rc]);
	report(key, ns);
}

/* The calls @r counted, logged to show that each run was counted. */
static void region_calls(struct perfkmod_region *r, const char *name)
{
	struct perfkmod_region_stats st;
	char key[64];

	if (perfkmod_region_read(r, -1, &st))
		return;
	snprintf(key, sizeof(key), "region.%s.calls", name);
	report(key, st.calls);
	snprintf(key, sizeof(key), "region.%s.lost", name);
	report(key, st.lost + st.migrated + st.missed);
}

static int bench_region(void)
{
	static const enum region_case pk[] = { R_PK1, R_PK4, R_PK8 };
	static const unsigned int nr[] = { 1, 4, 8 };
	struct perfkmod_counter *counters[PERFKMOD_REGION_MAX_COUNTERS] = {};
	struct perf_event *events[PERFKMOD_REGION_MAX_COUNTERS] = {};
	struct perfkmod_config cfg;
	struct perfkmod_region *r;
	unsigned int i;
	int err = 0;

	for (i = 0; i < PERFKMOD_REGION_MAX_COUNTERS; i++) {
		cpu0_config(&cfg, PERF_TYPE_SOFTWARE, trigger_events[i], 0, 0);
		events[i] = raw_create(&cfg, BENCH_CPU, NULL);
		if (IS_ERR(events[i])) {
			err = PTR_ERR(events[i]);
			events[i] = NULL;
			goto out;
		}
		cfg.target = PERFKMOD_TARGET_ALL_CPUS;
		cfg.cpu = 0;
		counters[i] = perfkmod_counter_create(&cfg);
		if (IS_ERR(counters[i])) {
			err = PTR_ERR(counters[i]);
			counters[i] = NULL;
			goto out;
		}
	}
	for (i = 0; i < ARRAY_SIZE(pk); i++) {
		r = region_make(counters, nr[i], false);
		if (IS_ERR(r)) {
			err = PTR_ERR(r);
			goto out;
		}
		region_report(pk[i], region_median(pk[i], events));
		region_report(pk[i] + 1, region_median(pk[i] + 1, events));
		region_calls(r, region_names[pk[i]]);
		if (i == 0) {
			perfkmod_region_disable(r);
			region_report(R_OFF, region_median(R_OFF, events));
			region_report(R_PLAIN, region_median(R_PLAIN, events));
		}
		perfkmod_region_release(r);
	}
	r = region_make(counters, 1, true);
	if (IS_ERR(r)) {
		err = PTR_ERR(r);
		goto out;
	}
	kret_event = events[0];
	err = register_kretprobe(&bench_kret);
	if (err) {
		perfkmod_region_release(r);
		goto out;
	}
	region_report(R_FN, region_median(R_FN, events));
	region_report(R_KRET, region_median(R_KRET, events));
	region_calls(r, "fn");
	report("region.kret.missed", bench_kret.nmissed);
	unregister_kretprobe(&bench_kret);
	perfkmod_region_release(r);
out:
	for (i = 0; i < PERFKMOD_REGION_MAX_COUNTERS; i++) {
		if (counters[i])
			perfkmod_counter_release(counters[i]);
		if (events[i])
			perf_event_release_kernel(events[i]);
	}
	return err;
}

/* --- 4. scale ------------------------------------------------------------ */

/*
 * The counters of the scale runs and of hold=: one-CPU cpu-clock, counting
 * only. Not context-switches: every context switch updates each of those
 * on the CPU, and perfkmod's create and release switch to the CPU's
 * hotplug thread and back, which would make each cost grow with n.
 */
static void scale_config(struct perfkmod_config *cfg)
{
	clock_config(cfg, 0, 0);
}

/* Create @n counters of either kind into @v; on failure none is left. */
static int create_n(bool pk, void **v, int n)
{
	struct perfkmod_config cfg;
	int i, err;

	scale_config(&cfg);
	for (i = 0; i < n; i++) {
		v[i] = pk ? (void *)perfkmod_counter_create(&cfg) :
			    (void *)raw_create(&cfg, BENCH_CPU, NULL);
		if (IS_ERR(v[i])) {
			err = PTR_ERR(v[i]);
			goto err_release;
		}
	}
	return 0;

err_release:
	while (i--)
		pk ? perfkmod_counter_release(v[i]) :
		     (void)perf_event_release_kernel(v[i]);
	return err;
}

static void release_n(bool pk, void **v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (pk)
			perfkmod_counter_release(v[i]);
		else
			perf_event_release_kernel(v[i]);
	}
}

static int bench_scale(void)
{
	static const int counts[] = { 1, 64, 1024, 4096 };
	u64 create[2][MAX_REPS], release[2][MAX_REPS], t0;
	unsigned int c, i, k, nreps;
	char key[64];
	void **v;
	int err;

	v = kvmalloc_array(4096, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		if (counts[c] > scale_max) {
			snprintf(key, sizeof(key), "scale.%d.skipped", counts[c]);
			report(key, 1);
			continue;
		}
		/*
		 * Creating n events on one CPU costs perf O(n^2) (each install
		 * reschedules the CPU's whole context): 4096 is timed once.
		 */
		nreps = counts[c] > 1024 ? 1 : reps;
		for (i = 0; i < nreps; i++) {
			for (k = 0; k < 2; k++) {
				cond_resched();
				t0 = ktime_get_ns();
				err = create_n(k, v, counts[c]);
				if (err)
					goto out;
				create[k][i] = per_op(ktime_get_ns() - t0,
						      counts[c]);
				t0 = ktime_get_ns();
				release_n(k, v, counts[c]);
				release[k][i] = per_op(ktime_get_ns() - t0,
						       counts[c]);
			}
		}
		for (k = 0; k < 2; k++) {
			snprintf(key, sizeof(key), "scale.%d.%s.create.ns",
				 counts[c], k ? "pk" : "raw");
			report_median(key, create[k], nreps);
			snprintf(key, sizeof(key), "scale.%d.%s.release.ns",
				 counts[c], k ? "pk" : "raw");
			report_median(key, release[k], nreps);
		}
	}
out:
	kvfree(v);
	return err;
}

/* --- 5. workload overhead ------------------------------------------------ */

enum work_case { W_RAW, W_PK, W_PKFREQ, W_CASES };

static const char * const work_names[W_CASES] = { "raw", "pk", "pkfreq" };

/*
 * The workload with one counter of @wc sampling cpu-clock at @freq on
 * CPU 0: the raw anchor with a no-op handler asks perf for @freq; perfkmod
 * with one direct callback gets the period perf derives from @freq for
 * cpu-clock (W_PK), or asks for @freq itself (W_PKFREQ).
 */
static int work_run(enum work_case wc, u64 freq, u64 *ns, u64 *overflows,
		    u64 *throttled)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perfkmod_callback *cb;
	struct perfkmod_stats st;
	struct perf_event *event;
	struct raw_ctx r = {};
	u64 calls = 0;

	if (wc == W_PK)
		clock_config(&cfg, div64_u64(NSEC_PER_SEC, freq), 0);
	else
		clock_config(&cfg, 0, freq);
	if (wc == W_RAW) {
		event = raw_create(&cfg, BENCH_CPU, &r);
		if (IS_ERR(event))
			return PTR_ERR(event);
		*ns = run_source(false, work);
		perf_event_release_kernel(event);
		*overflows += r.overflows;
		*throttled += r.throttled;
		return 0;
	}
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c))
		return PTR_ERR(c);
	cb = perfkmod_callback_register(c, count_cb, &calls,
					PERFKMOD_DELIVER_DIRECT);
	if (IS_ERR(cb)) {
		perfkmod_counter_release(c);
		return PTR_ERR(cb);
	}
	*ns = run_source(false, work);
	perfkmod_counter_stats(c, &st);
	perfkmod_counter_release(c);
	perfkmod_callback_unregister(cb);
	*overflows += st.overflows;
	*throttled += st.throttled;
	return 0;
}

static int bench_workload(void)
{
	static const u64 freqs[] = { 100, 1000, 10000 };
	u64 none[MAX_REPS], ns[W_CASES][MAX_REPS];
	u64 overflows[W_CASES], throttled[W_CASES];
	unsigned int f, i, k;
	char key[64];
	int err;

	run_source(false, work);	/* warm-up */
	report("work.iterations", work);
	for (f = 0; f < ARRAY_SIZE(freqs); f++) {
		memset(overflows, 0, sizeof(overflows));
		memset(throttled, 0, sizeof(throttled));
		/* no counter, raw, perfkmod, in turn: the same noise for all */
		for (i = 0; i < reps; i++) {
			none[i] = run_source(false, work);
			for (k = 0; k < W_CASES; k++) {
				err = work_run(k, freqs[f], &ns[k][i],
					       &overflows[k], &throttled[k]);
				if (err)
					return err;
			}
		}
		snprintf(key, sizeof(key), "work.%llu.none.run", freqs[f]);
		report_median(key, none, reps);
		for (k = 0; k < W_CASES; k++) {
			snprintf(key, sizeof(key), "work.%llu.%s.run", freqs[f],
				 work_names[k]);
			report_median(key, ns[k], reps);
			snprintf(key, sizeof(key), "work.%llu.%s.overflows",
				 freqs[f], work_names[k]);
			report(key, div_u64(overflows[k], reps));
			snprintf(key, sizeof(key), "work.%llu.%s.throttled",
				 freqs[f], work_names[k]);
			report(key, throttled[k]);
		}
	}
	return 0;
}

/* --- hold=: counters kept for the guest's memory figures ----------------- */

static void **held;

static int hold_counters(void)
{
	bool pk = !strcmp(kind, "perfkmod");
	int err;

	if (!pk && strcmp(kind, "raw"))
		return -EINVAL;
	if (!hold)
		return 0;
	held = kvmalloc_array(hold, sizeof(*held), GFP_KERNEL);
	if (!held)
		return -ENOMEM;
	err = create_n(pk, held, hold);
	if (err) {
		kvfree(held);
		held = NULL;
	}
	return err;
}

static bool section_wanted(const char *name)
{
	const char *s = sections;
	size_t len = strlen(name);

	while ((s = strstr(s, name))) {
		if ((s == sections || s[-1] == ',') &&
		    (s[len] == ',' || !s[len]))
			return true;
		s += len;
	}
	return false;
}

static int __init bench_init(void)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} all[] = {
		{ "workload", bench_workload },
		{ "dispatch", bench_dispatch },
		{ "trigger", bench_trigger },
		{ "read", bench_read },
		{ "scale", bench_scale },
		{ "region", bench_region },
	};
	unsigned int i;
	int err = 0;

	if (!reps || reps > MAX_REPS || !iters || !work)
		return -EINVAL;
	/*
	 * Every figure is taken on one CPU, the CPU of every one-CPU counter:
	 * the module's own task goes there, so that perf's calls on those
	 * counters are local, not IPIs.
	 */
	err = set_cpus_allowed_ptr(current, cpumask_of(BENCH_CPU));
	if (err)
		return err;
	if (hold >= 0)
		return hold_counters();
	for (i = 0; i < ARRAY_SIZE(all) && !err; i++) {
		if (!section_wanted(all[i].name))
			continue;
		err = all[i].fn();
		pr_info("PERFKMOD-BENCH-SECTION %s %d\n", all[i].name, err);
	}
	/* the figures are in the log; nothing stays loaded */
	return err;
}

static void __exit bench_exit(void)
{
	if (held) {
		/* as in init: local calls (failing to move is only slower) */
		set_cpus_allowed_ptr(current, cpumask_of(BENCH_CPU));
		release_n(!strcmp(kind, "perfkmod"), held, hold);
		kvfree(held);
	}
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("perfkmod's costs next to raw perf: dispatch, series records, reads, scale, workload overhead, regions");
