// SPDX-License-Identifier: GPL-2.0
/*
 * stat-display.c against perf stat's own output: the expected lines are
 * what perf 6.12's util/stat-display.c and stat-shadow.c print for the
 * same counts (their fprintf()s, one after the other: counts in 18
 * columns, the unit in 4, the event in 32, the metric in 38; CSV's fields
 * in the order Documentation/perf-stat.txt gives, JSON's keys). The counts
 * are those of Documentation/security.txt's 'system wide' example, whose
 * metrics perf printed there: 7.999 CPUs utilized, 0.007 GHz, 0.67 insn
 * per cycle, 6.42% of all branches.
 */
#include <stdlib.h>
#include <string.h>

#include "../stat.h"
#include "tap.h"

#define NS 36387412345ULL	/* cpu-clock: 36,387.41 msec */
#define WALL 4549061439ULL	/* 4.549061439 seconds time elapsed */
#define THIRD 12129137448ULL	/* a third of NS, less a bit */

enum { CLOCK, CS, MIGR, PF, CYC, INS, BR, BRM, NEV };

static struct stat_event events[NEV] = {
	{ "cpu-clock", "", ST_NSECS, true, true, false },
	{ "context-switches", "", ST_OTHER, false, true, false },
	{ "cpu-migrations", "", ST_OTHER, false, true, false },
	{ "page-faults", "", ST_OTHER, false, true, false },
	{ "cycles", "", ST_CYCLES, false, true, false },
	{ "instructions", "", ST_INSTRUCTIONS, false, true, false },
	{ "branches", "", ST_BRANCHES, false, true, false },
	{ "branch-misses", "", ST_BRANCH_MISSES, false, true, false },
};

static const u64 counts[NEV] = {
	NS, 2629, 57, 1, 263721559, 175746713, 19628798, 1259201,
};

/* perf stat -a, as perf prints it: the table (with the locale's ","), -x, -j */
static const char * const std_rows[NEV] = {
	"         36,387.41 msec cpu-clock                        #    7.999 CPUs utilized             ",
	"             2,629      context-switches                 #   72.250 /sec                      ",
	"                57      cpu-migrations                   #    1.566 /sec                      ",
	"                 1      page-faults                      #    0.027 /sec                      ",
	"       263,721,559      cycles                           #    0.007 GHz                       ",
	"       175,746,713      instructions                     #    0.67  insn per cycle            ",
	"        19,628,798      branches                         #  539.439 K/sec                     ",
	"         1,259,201      branch-misses                    #    6.42% of all branches             (33.33%)",
};

static const char * const csv_rows[NEV] = {
	"36387.41,msec,cpu-clock,36387412345,100.00,7.999,CPUs utilized",
	"2629,,context-switches,36387412345,100.00,72.250,/sec",
	"57,,cpu-migrations,36387412345,100.00,1.566,/sec",
	"1,,page-faults,36387412345,100.00,0.027,/sec",
	"263721559,,cycles,36387412345,100.00,0.007,GHz",
	"175746713,,instructions,36387412345,100.00,0.67,insn per cycle",
	"19628798,,branches,36387412345,100.00,539.439,K/sec",
	/* perf's CSV percentage is 100 * run / ena in integers */
	"1259201,,branch-misses,12129137448,33.00,6.42,of all branches",
};

static const char * const json_rows[NEV] = {
	"{\"counter-value\" : \"36387.412345\", \"unit\" : \"msec\", \"event\" : \"cpu-clock\", \"event-runtime\" : 36387412345, \"pcnt-running\" : 100.00, \"metric-value\" : \"7.998883\", \"metric-unit\" : \"CPUs utilized\"}",
	NULL, NULL, NULL, NULL,
	"{\"counter-value\" : \"175746713.000000\", \"unit\" : \"\", \"event\" : \"instructions\", \"event-runtime\" : 36387412345, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.666410\", \"metric-unit\" : \"insn per cycle\"}",
	NULL,
	"{\"counter-value\" : \"1259201.000000\", \"unit\" : \"\", \"event\" : \"branch-misses\", \"event-runtime\" : 12129137448, \"pcnt-running\" : 33.00, \"metric-value\" : \"6.415069\", \"metric-unit\" : \"of all branches\"}",
};

static struct stat_sum sums[NEV];
static struct aggr_id global = { -1, -1, -1, -1, -1, -1, -1, -1, 0 };

static void system_wide(struct stat_out *o, int fmt)
{
	int e;

	for (e = 0; e < NEV; e++) {
		sums[e].val = counts[e];
		sums[e].ena = NS;
		sums[e].run = e == BRM ? THIRD : NS;
		sums[e].nr = 8;
	}
	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	o->sep = ",";
	o->mode = AGGR_GLOBAL;
	o->nevents = NEV;
	o->naggr = 1;
	o->events = events;
	o->aggr = &global;
	o->sums = sums;
	o->wall_ns = WALL;
	o->thousands = fmt == FMT_STD ? "," : NULL;
}

static void rows(FILE *f, const void *arg)
{
	struct stat_out o = *(const struct stat_out *)arg;

	o.f = f;
	print_rows(&o);
}

static void header(FILE *f, const void *arg)
{
	struct stat_out o = *(const struct stat_out *)arg;

	o.f = f;
	print_header(&o, "'system wide'");
}

static void footer(FILE *f, const void *arg)
{
	struct stat_out o = *(const struct stat_out *)arg;
	struct timeval user = { 1, 250000 }, sys = { 0, 5 };

	o.f = f;
	print_footer(&o, WALL, &user, &sys);
}

/* line K of TEXT (from 0), in a string to free */
static char *line_of(const char *text, int k)
{
	const char *nl;

	for (; k && text; k--) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	if (!text)
		return NULL;
	nl = strchr(text, '\n');
	return strndup(text, nl ? (size_t)(nl - text) : strlen(text));
}

static void each_row(const struct stat_out *o, const char * const *expected,
		     const char *what)
{
	char *out = capture(rows, o), *line, name[96];
	int e;

	for (e = 0; e < NEV; e++) {
		if (!expected[e])
			continue;
		line = line_of(out, e);
		snprintf(name, sizeof(name), "%s: %s", what, events[e].label);
		is_str(line, expected[e], name);
		free(line);
	}
	free(out);
}

/* a row with an aggregation's place, as perf's aggr_printout() writes it */
static void place(int fmt, enum aggr_mode mode, bool interval,
		  const char *expected, const char *name)
{
	struct aggr_id id = { 0, 1, 0, 2, 3, 4, 5, 6, 0 };
	char *comm = "true", *out, *line;
	int tid = 1234;
	struct stat_out o;

	system_wide(&o, fmt);
	o.mode = mode;
	o.nevents = 1;
	o.aggr = &id;
	o.comms = &comm;
	o.tids = &tid;
	o.interval = interval;
	o.ts_ns = 1000123456;
	o.wall_ns = 0;
	out = capture(rows, &o);
	line = line_of(out, 0);
	if (line && strlen(line) > strlen(expected))
		line[strlen(expected)] = '\0';
	is_str(line, expected, name);
	free(line);
	free(out);
}

static void not_counted(int fmt, bool supported, const char *expected,
			const char *name)
{
	struct stat_event ev = { "cycles", "", ST_CYCLES, false, supported, false };
	struct stat_sum s = { 0, 1000, 0, supported, 0 };
	struct stat_out o;
	char *out, *line;

	system_wide(&o, fmt);
	o.nevents = 1;
	o.events = &ev;
	o.sums = &s;
	if (!supported)
		s.ena = 0;
	out = capture(rows, &o);
	line = line_of(out, 0);
	is_str(line, expected, name);
	ok(out && !strcmp(out + strlen(line), "\n"), "a row is a line");
	free(line);
	free(out);
}

void stat_display_tests(void)
{
	struct stat_out o;
	char *out, *line;

	system_wide(&o, FMT_STD);
	each_row(&o, std_rows, "perf stat -a");
	system_wide(&o, FMT_CSV);
	each_row(&o, csv_rows, "perf stat -a -x,");
	system_wide(&o, FMT_JSON);
	each_row(&o, json_rows, "perf stat -a -j");

	/* --no-big-num, and perf's C locale: no separators */
	system_wide(&o, FMT_STD);
	o.thousands = NULL;
	o.nevents = 1;
	out = capture(rows, &o);
	line = line_of(out, 0);
	is_str(line,
	       "          36387.41 msec cpu-clock                        #    7.999 CPUs utilized             ",
	       "perf stat -a --no-big-num: cpu-clock");
	free(line);
	free(out);

	/* a clock's msec: perf's "%.2f" of an exact value rounds a half to even */
	sums[CLOCK].val = 1125000;
	out = capture(rows, &o);
	ok(out && !strncmp(out, "              1.12 msec cpu-clock ", 34),
	   "a clock's msec: 1.125 is 1.12, as printf's %.2f");
	free(out);
	sums[CLOCK].val = 1375000;
	out = capture(rows, &o);
	ok(out && !strncmp(out, "              1.38 msec cpu-clock ", 34),
	   "a clock's msec: 1.375 is 1.38, as printf's %.2f");
	free(out);
	sums[CLOCK].val = 1234994999;
	out = capture(rows, &o);
	ok(out && !strncmp(out, "           1234.99 msec cpu-clock ", 34),
	   "a clock's msec: 1234.994999 is 1234.99");
	free(out);

	place(FMT_STD, AGGR_NONE, true, "     1.000123456 CPU6   ",
	      "-A -I: the time, then CPU%-3d");
	place(FMT_CSV, AGGR_NONE, false, "CPU6,36387.41,msec,", "-A -x,: CPUn,");
	place(FMT_JSON, AGGR_NONE, false, "{\"cpu\" : \"6\", \"counter-value\"",
	      "-A -j: \"cpu\"");
	place(FMT_STD, AGGR_CORE, false, "S1-D0-C5              8          36,387.41 msec",
	      "--per-core: S-D-C in 18, the CPUs in 4");
	place(FMT_CSV, AGGR_CORE, true, "1.000123456,S1-D0-C5,8,36387.41,",
	      "--per-core -I -x,: time, core, CPUs");
	place(FMT_JSON, AGGR_SOCKET, true,
	      "{\"interval\" : 1.000123456, \"socket\" : \"S1\", \"aggregate-number\" : 8, ",
	      "--per-socket -I -j: interval, socket, aggregate-number");
	place(FMT_STD, AGGR_CACHE, false, "S1-D0-L3-ID4              8 ",
	      "--per-cache: S-D-L-ID in 22");
	place(FMT_CSV, AGGR_CLUSTER, false, "S1-D0-CLS2,8,", "--per-cluster -x,");
	place(FMT_JSON, AGGR_DIE, false, "{\"die\" : \"S1-D0\", \"aggregate-number\" : 8, ",
	      "--per-die -j");
	place(FMT_STD, AGGR_NODE, false, "N0        8 ", "--per-node: N in 6");
	place(FMT_STD, AGGR_THREAD, false, "            true-1234             36,387.41",
	      "--per-thread: comm in 16, pid in 7");
	place(FMT_CSV, AGGR_THREAD, false, "true-1234,36387.41,", "--per-thread -x,");

	not_counted(FMT_STD, true,
		    "     <not counted>      cycles                                                                  (0.00%)",
		    "<not counted>: no metric, the percentage running");
	not_counted(FMT_CSV, true,
		    "<not counted>,,cycles,0,0.00,,",
		    "-x,: <not counted>, empty metric fields");
	not_counted(FMT_JSON, false,
		    "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.000000\", \"metric-unit\" : \"\"}",
		    "-j: <not supported>");

	system_wide(&o, FMT_STD);
	out = capture(header, &o);
	is_str(out, "\n Performance counter stats for 'system wide':\n\n",
	       "the table's header");
	free(out);
	o.interval = true;
	o.mode = AGGR_CORE;
	out = capture(header, &o);
	is_str(out, "#           time core               cpus             counts unit events\n",
	       "-I --per-core: the column header");
	free(out);
	o.interval = false;
	out = capture(footer, &o);
	is_str(out, "\n       4.549061439 seconds time elapsed\n\n"
	       "       1.250000000 seconds user\n       0.000005000 seconds sys\n\n\n",
	       "the footer: elapsed, user, sys");
	free(out);

	is_u64(stat_type_of("cpu-cycles"), ST_CYCLES, "stat_type_of: cpu-cycles is cycles");
	is_u64(stat_type_of("idle-cycles-backend"), ST_STALLED_BACK,
	       "stat_type_of: perf's alias idle-cycles-backend");
	is_u64(stat_type_of("page-faults"), ST_OTHER, "stat_type_of: others");
}

/*
 * -r: a row of three runs, 100, 111 and 125 page faults, as perf prints
 * it: their mean (perf's u64 of it), and 100 * the deviation of the mean
 * (perf's update_stats() and stddev_stats(): 7.2342) / 112, 6.46%
 */
static void runs_row(int fmt, const char *expected, const char *name)
{
	struct stat_event ev = { "page-faults", "", ST_OTHER, false, true, false };
	struct run_stats rs = { 0 };
	struct stat_sum s = { 0, 5000, 5000, 1, 0 };
	struct stat_out o;
	char *out, *line;

	update_stats(&rs, 100);
	update_stats(&rs, 111);
	update_stats(&rs, 125);
	s.val = (u64)rs.mean;
	s.stddev = stddev_stats(&rs);
	system_wide(&o, fmt);
	o.nevents = 1;
	o.events = &ev;
	o.sums = &s;
	o.runs = 3;
	out = capture(rows, &o);
	line = line_of(out, 0);
	is_str(line, expected, name);
	free(line);
	free(out);
}

static void summary_row(FILE *f, const void *arg)
{
	struct stat_out o = *(const struct stat_out *)arg;

	o.f = f;
	o.nevents = 1;
	print_rows(&o);
	o.interval = true;
	print_rows(&o);
}

void stat_display_runs_tests(void)
{
	struct run_stats rs = { 0 };
	struct stat_event ev[2] = {
		{ "L1-dcache-loads", "", stat_type_of("L1-dcache-loads"), false, true, false },
		{ "L1-dcache-load-misses", "", stat_type_of("L1-dcache-load-misses"),
		  false, true, false },
	};
	struct stat_sum s[2] = { { 4000, 10, 10, 1, 0 }, { 100, 10, 10, 1, 0 } };
	struct stat_out o;
	char *out, *line;

	/* perf's stats: the deviation of the mean, none of a single run */
	update_stats(&rs, 7);
	ok(stddev_stats(&rs) == 0.0 && rs.mean == 7.0, "one run: no deviation");
	update_stats(&rs, 9);
	ok(stddev_stats(&rs) == 1.0 && rs.mean == 8.0,
	   "runs 7 and 9: mean 8, deviation of the mean sqrt(2 / 1 / 2) = 1");
	ok(rel_stddev(1.0, 8.0) == 12.5 && rel_stddev(1.0, 0) == 0.0,
	   "the relative deviation: 100 * 1 / 8; 0 of a mean of 0");

	runs_row(FMT_STD,
		 "               112      page-faults                                                             ( +-  6.46% )",
		 "-r 3: the table's ( +- x.xx% ) after the metric's column");
	runs_row(FMT_CSV, "112,,page-faults,6.46%,5000,100.00,,",
		 "-r 3 -x,: the variance after the event");
	runs_row(FMT_JSON,
		 "{\"counter-value\" : \"112.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"variance\" : 6.46, \"event-runtime\" : 5000, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.000000\", \"metric-unit\" : \"\"}",
		 "-r 3 -j: \"variance\" after \"event\"");

	/* -r's footer: the mean time, its deviation in perf's precision */
	system_wide(&o, FMT_STD);
	rs = (struct run_stats){ 0 };
	update_stats(&rs, 1000000000);
	update_stats(&rs, 1100000000);
	update_stats(&rs, 1250000000);
	o.runs = 3;
	o.wall_avg_ns = rs.mean;
	o.wall_sd_ns = stddev_stats(&rs);
	out = capture(footer, &o);
	is_str(out, "\n            1.1167 +- 0.0726 seconds time elapsed  ( +-  6.51% )\n\n",
	       "-r 3: the footer's mean time +- its deviation, no user and sys");
	free(out);

	/* -n: no rows, and no blank line before the time */
	system_wide(&o, FMT_STD);
	o.null_run = true;
	out = capture(footer, &o);
	ok(out && !strncmp(out, "       4.549061439 seconds time elapsed\n", 40),
	   "-n: the footer without its blank line");
	free(out);

	/* --summary -x: "summary" first, not in an interval's row */
	system_wide(&o, FMT_CSV);
	o.summary = true;
	o.ts_ns = 1000000001;
	out = capture(summary_row, &o);
	line = line_of(out, 0);
	is_str(line, "summary,36387.41,msec,cpu-clock,36387412345,100.00,7.999,CPUs utilized",
	       "--summary -x,: the summary's row");
	free(line);
	line = line_of(out, 1);
	is_str(line, "1.000000001,36387.41,msec,cpu-clock,36387412345,100.00,7.999,CPUs utilized",
	       "--summary -x,: an interval's row has its time");
	free(line);
	free(out);

	/* -d's cache events and perf's ratio of their misses */
	system_wide(&o, FMT_CSV);
	o.nevents = 2;
	o.events = ev;
	o.sums = s;
	out = capture(rows, &o);
	line = line_of(out, 1);
	is_str(line, "100,,L1-dcache-load-misses,10,100.00,2.50,of all L1-dcache accesses",
	       "-d: L1-dcache-load-misses of all L1-dcache accesses");
	free(line);
	free(out);
	ok(stat_type_of("LLC-load-misses") == ST_LL_MISS &&
	   stat_type_of("dTLB-loads") == ST_DTLB_CACHE &&
	   stat_type_of("iTLB-load-misses") == ST_ITLB_MISS &&
	   stat_type_of("L1-icache-loads") == ST_L1_ICACHE &&
	   stat_type_of("L1-dcache-prefetches") == ST_OTHER,
	   "the cache events' types, as perf's evsel__stat_type()");

	/* after an interval, a table (--summary's) has no title: perf's count */
	system_wide(&o, FMT_STD);
	out = capture(header, &o);
	is_str(out, "", "--summary after intervals: no title, as perf's print_header()");
	free(out);
}

static void metric_only_table(FILE *f, const void *arg)
{
	struct stat_out o = *(const struct stat_out *)arg;

	o.f = f;
	print_metric_headers(&o, o.interval);
	print_rows(&o);
}

/*
 * --metric-only, perf stat -a's counts: its metrics but "/sec" and "CPUs
 * utilized" (perf's valid_only_metric()), a column each, a ratio named
 * after its event (fixunit()), in 20 columns or the unit's length and one
 */
void stat_display_metric_only_tests(void)
{
	struct stat_out o;
	char *out, *line;

	system_wide(&o, FMT_STD);
	o.metric_only = true;
	out = capture(metric_only_table, &o);
	line = line_of(out, 0);
	is_str(line, "                  GHz       insn per cycle branch-misses of all branches ",
	       "--metric-only: the header, a unit a column");
	free(line);
	line = line_of(out, 1);
	is_str(line, "               0.007                0.67                           6.42% ",
	       "--metric-only: the row, a metric a column");
	free(line);
	line = line_of(out, 2);
	is_str(line, "", "--metric-only: two lines");
	free(line);
	free(out);
	system_wide(&o, FMT_CSV);
	o.metric_only = true;
	out = capture(metric_only_table, &o);
	is_str(out, "GHz,insn per cycle,branch-misses of all branches,\n0.007,0.67,6.42,\n",
	       "--metric-only -x,: the header and the row");
	free(out);
	system_wide(&o, FMT_JSON);
	o.metric_only = true;
	out = capture(metric_only_table, &o);
	is_str(out,
	       "{\"GHz\" : \"0.007\", \"insn per cycle\" : \"0.67\", \"branch-misses of all branches\" : \"6.42\"}\n",
	       "--metric-only -j: no header, the metrics as keys");
	free(out);
	system_wide(&o, FMT_JSON);
	o.metric_only = true;
	o.nevents = 4;
	out = capture(metric_only_table, &o);
	is_str(out, "{\"metric-value\" : \"none\"}\n",
	       "--metric-only -j without metrics: perf's \"none\"");
	free(out);
}
