/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What stat's parts share: stat.c counts, topology.c says which CPUs a
 * row sums, stat-display.c prints the rows as perf stat prints them.
 */
#ifndef PERFKSTAT_STAT_H
#define PERFKSTAT_STAT_H

#include <stdio.h>
#include <sys/time.h>

#include "perfkstat.h"

/* how CPUs (or threads) make rows: perf stat's --per-* and -A */
enum aggr_mode {
	AGGR_GLOBAL,	/* one row an event */
	AGGR_NONE,	/* -A: a row a CPU */
	AGGR_CORE,
	AGGR_CACHE,
	AGGR_CLUSTER,
	AGGR_DIE,
	AGGR_SOCKET,
	AGGR_NODE,
	AGGR_THREAD,	/* --per-thread: a row a thread */
};

/* a row's place, as perf's struct aggr_cpu_id; -1 where it does not apply */
struct aggr_id {
	int node, socket, die, cluster, cache_lvl, cache, core, cpu, thread;
};

/* topology.c */
void aggr_id_of_cpu(int cpu, enum aggr_mode mode, struct aggr_id *id);
int aggr_id_cmp(const struct aggr_id *a, const struct aggr_id *b);
int *online_cpu_list(int *n);
int possible_cpus(void);

/* what perf's metrics are computed from: perf's enum stat_type */
enum stat_type {
	ST_OTHER, ST_NSECS, ST_CYCLES, ST_INSTRUCTIONS, ST_BRANCHES,
	ST_BRANCH_MISSES, ST_STALLED_FRONT, ST_STALLED_BACK, ST_CACHE_REFS,
	ST_CACHE_MISSES, ST_L1_DCACHE, ST_L1_ICACHE, ST_LL_CACHE, ST_ITLB_CACHE,
	ST_DTLB_CACHE, ST_L1D_MISS, ST_L1I_MISS, ST_LL_MISS, ST_DTLB_MISS,
	ST_ITLB_MISS,
};

/* an event's rows: its name, the type and modifiers that pair it for metrics */
struct stat_event {
	char *label;
	char *modifiers;
	enum stat_type type;
	bool msec;		/* a clock: ns shown as msec */
	bool supported;		/* false: <not supported> */
	bool per_call;		/* a region's: val / run, the mean of a call */
};

/* the sums of one row */
struct stat_sum {
	u128 val;		/* scaled to the enabled time */
	u64 ena, run;
	int nr;			/* CPUs (or threads) summed */
	double stddev;		/* -r: the standard deviation of val's mean */
};

/* how stat-display prints: the format, where, and what the rows are of */
struct stat_out {
	FILE *f;
	enum { FMT_STD, FMT_CSV, FMT_JSON } fmt;
	const char *sep;
	enum aggr_mode mode;
	int nevents, naggr;
	const struct stat_event *events;
	const struct aggr_id *aggr;	/* naggr places */
	char *const *comms;		/* AGGR_THREAD: a place's comm */
	const int *tids;		/* and thread id */
	const struct stat_sum *sums;	/* [event * naggr + place] */
	bool interval;			/* rows of an interval, at ts_ns */
	u64 ts_ns;
	u64 wall_ns;			/* for "CPUs utilized" */
	bool no_metrics;		/* values since each counter began */
	const char *thousands;		/* the table's separator, or NULL */
	int runs;			/* -r: the runs averaged (1: none) */
	double wall_avg_ns, wall_sd_ns;	/* -r: their time elapsed */
	bool summary;			/* CSV rows of --summary: "summary" first */
	bool null_run;			/* -n: no rows, the time alone */
	bool metric_only;		/* the metrics alone, a column each */
	/*
	 * The rows of region REGION (NULL: none): CSV's and JSON's rows name
	 * it first; a row's run and ena are the calls it sums, its event's
	 * value the mean of a call if per_call (<not counted> without calls),
	 * else the sum (counted with no call too).
	 */
	const char *region;
};

/* stat-display.c: perf stat's widths of a row's count, unit and event */
#define COUNTS_LEN	18
#define UNIT_LEN	4	/* strlen("msec"), strlen("unit") */
#define EVNAME_LEN	32

void print_header(const struct stat_out *o, const char *what);
void print_rows(const struct stat_out *o);
void print_metric_headers(const struct stat_out *o, bool interval);
void print_footer(const struct stat_out *o, u64 elapsed_ns,
		  const struct timeval *user, const struct timeval *sys);
enum stat_type stat_type_of(const char *event_name);

/* a value over runs, as perf's struct stats (util/stat.c) */
struct run_stats {
	u64 n;
	double mean, m2;
};

void update_stats(struct run_stats *s, u64 val);
double stddev_stats(const struct run_stats *s);
double rel_stddev(double stddev, double avg);

/* stat.c: the locale's thousands' separator, as perf's "%'" prints it */
const char *thousands_sep(void);

#endif
