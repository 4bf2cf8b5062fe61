/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod's regions, as perfkstat reads them: the files of debugfs'
 * regions/NAME/ (stat, hist, spec) parsed, and shown as perf stat shows
 * counters (regions.c). perfkstat regions shows them; perfkstat stat
 * --func makes one and shows it.
 */
#ifndef PERFKSTAT_REGIONS_H
#define PERFKSTAT_REGIONS_H

#include "stat.h"

/* a region reads 1 to this many counters */
#define REGION_MAX_COUNTERS	8
/* log2 buckets of counter 0: 0, then [2^(i-1), 2^i - 1], the last to U64_MAX */
#define REGION_HIST_BUCKETS	64

/* a line of stat: all CPUs', or a CPU's */
struct region_row {
	int cpu;			/* -1: all CPUs */
	u64 calls, lost, migrated, missed, min, max;
	u64 sum[REGION_MAX_COUNTERS];
};

struct region {
	char *name;
	char *func;			/* a function's symbol; NULL: a marker's */
	char *spec;			/* spec's line, as read */
	int ncounters;
	char *counter[REGION_MAX_COUNTERS];	/* stat's names of them */
	struct region_row all;
	struct region_row *cpus;
	int ncpus;
	u64 hist[REGION_HIST_BUCKETS];
	int nhist;			/* the buckets hist lists */
};

/* the parsers: NULL, or why TEXT is not such a file (R holds the rest) */
const char *region_parse_stat(struct region *r, const char *text);
const char *region_parse_hist(struct region *r, const char *text);
const char *region_parse_spec(struct region *r, const char *text);
void region_free(struct region *r);

/*
 * region_reason: WHY, last_error's line after command CMD failed, cut
 * before the ": CMD" it ends with (the kernel's reason alone); NULL if
 * it does not name CMD
 */
char *region_reason(char *why, const char *cmd);

/* region_read: region NAME's files, from perfkmod's debugfs; 0 or -1 (said) */
int region_read(const char *name, struct region *r);

/* how a region is shown */
struct region_view {
	FILE *f;
	int fmt;			/* stat_out's FMT_STD, FMT_CSV, FMT_JSON */
	const char *sep;		/* CSV's */
	const char *thousands;		/* the table's separator, or NULL */
	bool per_cpu;			/* -A */
};

/*
 * region_events: the rows of R's counters: a counter's name, its event's
 * type from its spec in counters/ when it has one (else from its name)
 */
struct stat_event *region_events(const struct region *r);

/*
 * region_print: R as perf stat prints counters, its counters' rows
 * EVENTS; MAP (NULL: the identity) gives each event's counter of R, -1
 * for an event R has none of (<not supported>), for NEVENTS events
 */
void region_print(const struct region_view *v, const struct region *r,
		  const struct stat_event *events, const int *map, int nevents);

#endif
