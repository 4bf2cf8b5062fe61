// SPDX-License-Identifier: GPL-2.0
/*
 * stat's output, as perf stat prints it (its display and shadow-stat
 * code in tools/perf/util/): the table, CSV with -x SEP, JSON lines with -j; a
 * row an event and place (the CPUs, core, socket ... or thread it sums),
 * with perf's widths, its "<not counted>" and "<not supported>", its
 * percentage running, and its metrics ("CPUs utilized", "/sec", "GHz",
 * "insn per cycle", "of all branches" ...) from the other rows of the same
 * place and modifiers.
 *
 * Counts are exact: 128-bit integers, where perf goes through doubles; a
 * clock's nanoseconds shown as msec are rounded to the nearest (a half to
 * even). The metrics, ratios, are doubles as in perf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

#define METRIC_LEN	38
#define INTERVAL_LEN	16
#define COMM_LEN	16
#define PID_LEN		7
#define METRIC_ONLY_LEN	20

static const int aggr_len[] = {
	[AGGR_CORE] = 18, [AGGR_CACHE] = 22, [AGGR_CLUSTER] = 20,
	[AGGR_DIE] = 12, [AGGR_SOCKET] = 6, [AGGR_NODE] = 6, [AGGR_NONE] = 6,
};

/* --metric-only: the indent of the table's header, and CSV's first fields */
static const int aggr_header_len[] = {
	[AGGR_CORE] = 18, [AGGR_CACHE] = 22, [AGGR_CLUSTER] = 20,
	[AGGR_DIE] = 12, [AGGR_SOCKET] = 6, [AGGR_NODE] = 6, [AGGR_NONE] = 6,
	[AGGR_THREAD] = 16, [AGGR_GLOBAL] = 0,
};

static const char * const aggr_header_csv[] = {
	[AGGR_CORE] = "core,cpus,", [AGGR_CACHE] = "cache,cpus,",
	[AGGR_CLUSTER] = "cluster,cpus,", [AGGR_DIE] = "die,cpus,",
	[AGGR_SOCKET] = "socket,cpus,", [AGGR_NONE] = "cpu,",
	[AGGR_THREAD] = "comm-pid,", [AGGR_NODE] = "node,", [AGGR_GLOBAL] = "",
};

static const char * const aggr_name[] = {
	[AGGR_CORE] = "core", [AGGR_CACHE] = "cache", [AGGR_CLUSTER] = "cluster",
	[AGGR_DIE] = "die", [AGGR_SOCKET] = "socket", [AGGR_NODE] = "node",
	[AGGR_NONE] = "cpu",
};

/*
 * cache_type_of: the type perf's evsel__stat_type() gives a cache event
 * NAME (CACHE-OP[-RESULT], as perfkmod's grammar reads it): its reads,
 * accesses or misses, of the caches perf's metrics pair; ST_OTHER else
 */
static enum stat_type cache_type_of(const char *name)
{
	static const struct {
		const char *cache;
		enum stat_type access, miss;
	} caches[] = {
		{ "L1-dcache-", ST_L1_DCACHE, ST_L1D_MISS },
		{ "L1-icache-", ST_L1_ICACHE, ST_L1I_MISS },
		{ "LLC-", ST_LL_CACHE, ST_LL_MISS },
		{ "dTLB-", ST_DTLB_CACHE, ST_DTLB_MISS },
		{ "iTLB-", ST_ITLB_CACHE, ST_ITLB_MISS },
	};
	static const char * const access[] = {
		"load", "loads", "load-accesses", "load-access", "load-refs",
		"loads-accesses", "loads-access", "loads-refs",
	};
	static const char * const miss[] = {
		"load-misses", "load-miss", "loads-misses", "loads-miss",
	};
	const char *op;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		if (strncmp(name, caches[i].cache, strlen(caches[i].cache)))
			continue;
		op = name + strlen(caches[i].cache);
		for (k = 0; k < ARRAY_SIZE(access); k++)
			if (!strcmp(op, access[k]))
				return caches[i].access;
		for (k = 0; k < ARRAY_SIZE(miss); k++)
			if (!strcmp(op, miss[k]))
				return caches[i].miss;
	}
	return ST_OTHER;
}

/* update_stats: VAL, one run's, into S: perf's update_stats() (Welford) */
void update_stats(struct run_stats *s, u64 val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (val - s->mean);
}

/* stddev_stats: the standard deviation of S's mean, perf's stddev_stats() */
double stddev_stats(const struct run_stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->m2 / (s->n - 1);
	return sqrt(variance / s->n);
}

/* rel_stddev: STDDEV in percent of AVG (0 if AVG is), perf's rel_stddev_stats() */
double rel_stddev(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

enum stat_type stat_type_of(const char *name)
{
	static const struct {
		const char *name;
		enum stat_type type;
	} types[] = {
		{ "cpu-clock", ST_NSECS }, { "task-clock", ST_NSECS },
		{ "cycles", ST_CYCLES }, { "cpu-cycles", ST_CYCLES },
		{ "instructions", ST_INSTRUCTIONS },
		{ "branches", ST_BRANCHES }, { "branch-instructions", ST_BRANCHES },
		{ "branch-misses", ST_BRANCH_MISSES },
		{ "stalled-cycles-frontend", ST_STALLED_FRONT },
		{ "idle-cycles-frontend", ST_STALLED_FRONT },
		{ "stalled-cycles-backend", ST_STALLED_BACK },
		{ "idle-cycles-backend", ST_STALLED_BACK },
		{ "cache-references", ST_CACHE_REFS },
		{ "cache-misses", ST_CACHE_MISSES },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(name, types[i].name))
			return types[i].type;
	return cache_type_of(name);
}

static const struct stat_sum *sum_of(const struct stat_out *o, int e, int a)
{
	return &o->sums[e * o->naggr + a];
}

/* counted: row S of event EV has a value (a region's sums always have) */
static bool counted(const struct stat_out *o, const struct stat_event *ev,
		    const struct stat_sum *s)
{
	if (o->region && !ev->per_call)
		return true;
	return s->run && s->ena;
}

/* digits: V in decimal, thousands separated by SEP (or not: NULL) */
static char *digits(char *buf, size_t size, u128 v, const char *sep)
{
	char tmp[48 + 12 * 8], *p = tmp + sizeof(tmp) - 1;
	size_t n = 0, i = 0, k;

	*p = '\0';
	do {
		for (k = sep && n && n % 3 == 0 ? strlen(sep) : 0; k; k--)
			*--p = sep[k - 1];
		*--p = '0' + (int)(v % 10);
		v /= 10;
		n++;
	} while (v);
	while (p[i] && i + 1 < size) {
		buf[i] = p[i];
		i++;
	}
	buf[i] = '\0';
	return buf;
}

/*
 * quotient: NUM / DEN with DECIMALS decimals (at most 6), a half to even,
 * thousands separated by SEP (or not: NULL)
 */
static char *quotient(char *buf, size_t size, u128 num, u128 den,
		      int decimals, const char *sep)
{
	u128 q, pow = 1;
	char whole[48 + 12 * 8];
	int i;

	for (i = 0; i < decimals; i++)
		pow *= 10;
	q = div_round_even((s128)(num * pow), (s128)den);
	digits(whole, sizeof(whole), q / pow, sep);
	snprintf(buf, size, "%s.%0*llu", whole, decimals,
		 (unsigned long long)(q % pow));
	return buf;
}

/* fixed: NS as msec with DECIMALS (at most 6) decimals, a half to even */
static char *fixed(char *buf, size_t size, u128 ns, int decimals,
		   const char *sep)
{
	return quotient(buf, size, ns, 1000000, decimals, sep);
}

/* the value of row E, A as the format shows it */
static char *value(const struct stat_out *o, const struct stat_event *ev,
		   const struct stat_sum *s, char *buf, size_t size)
{
	const char *sep = o->fmt == FMT_STD ? o->thousands : NULL;
	u128 den = ev->msec ? 1000000 : 1;

	/*
	 * a call's mean: 2 decimals, as perf's msec (JSON: 6, as its %f); a
	 * clock's msec 6, to the ns: a call takes microseconds
	 */
	if (ev->per_call)
		return quotient(buf, size, s->val, den * s->run,
				o->fmt == FMT_JSON || ev->msec ? 6 : 2, sep);
	if (o->fmt == FMT_JSON)
		return ev->msec ? fixed(buf, size, s->val, 6, NULL) :
			(digits(buf, size - 7, s->val, NULL),
			 strcat(buf, ".000000"));
	return ev->msec ? fixed(buf, size, s->val, 2, sep) :
		digits(buf, size, s->val, sep);
}

/* a metric: perf's print_metric() arguments */
struct metric {
	const char *fmt;	/* NULL: no value */
	const char *unit;	/* NULL: no metric at all */
	double val;
	char unit_buf[8];
};

/*
 * find: the count of the row of type T with E's modifiers at place A
 * (perf's find_stat()); nanoseconds for a clock.
 */
static double find(const struct stat_out *o, int e, int a, enum stat_type t)
{
	int f;

	for (f = 0; f < o->nevents; f++)
		if (f != e && o->events[f].type == t &&
		    !strcmp(o->events[f].modifiers, o->events[e].modifiers))
			return (double)sum_of(o, f, a)->val;
	return 0;
}

static void ratio(struct metric *m, double num, double den, const char *unit)
{
	m->unit = unit;
	if (num && den) {
		m->fmt = "%7.2f%%";
		m->val = num / den * 100.0;
	}
}

/*
 * metric_calc: the metric perf's shadow stats give row E, A of count V
 * (ns for a clock), counted or not (--metric-only's header asks)
 */
static void metric_calc(const struct stat_out *o, int e, int a, double v,
			struct metric *m)
{
	/* perf's ratios: a count over another event's, in percent */
	static const struct {
		enum stat_type type, of;
		const char *unit;
	} ratios[] = {
		{ ST_BRANCH_MISSES, ST_BRANCHES, "of all branches" },
		{ ST_STALLED_FRONT, ST_CYCLES, "frontend cycles idle" },
		{ ST_STALLED_BACK, ST_CYCLES, "backend cycles idle" },
		{ ST_CACHE_MISSES, ST_CACHE_REFS, "of all cache refs" },
		{ ST_L1D_MISS, ST_L1_DCACHE, "of all L1-dcache accesses" },
		{ ST_L1I_MISS, ST_L1_ICACHE, "of all L1-icache accesses" },
		{ ST_LL_MISS, ST_LL_CACHE, "of all LL-cache accesses" },
		{ ST_DTLB_MISS, ST_DTLB_CACHE, "of all dTLB cache accesses" },
		{ ST_ITLB_MISS, ST_ITLB_CACHE, "of all iTLB cache accesses" },
	};
	double d;
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < ARRAY_SIZE(ratios); i++) {
		if (o->events[e].type == ratios[i].type) {
			ratio(m, v, find(o, e, a, ratios[i].of), ratios[i].unit);
			return;
		}
	}
	switch (o->events[e].type) {
	case ST_NSECS:
		m->unit = "CPUs utilized";
		/* -r's: the runs' mean time, perf's avg_stats() */
		d = o->runs > 1 ? o->wall_avg_ns : (double)o->wall_ns;
		if (d) {
			m->fmt = "%8.3f";
			m->val = v / d;
		}
		return;
	case ST_CYCLES:
		m->unit = "GHz";
		d = find(o, e, a, ST_NSECS);
		if (v && d) {
			m->fmt = "%8.3f";
			m->val = v / d;
		}
		return;
	case ST_INSTRUCTIONS:
		m->unit = "insn per cycle";
		d = find(o, e, a, ST_CYCLES);
		if (d) {
			m->fmt = "%7.2f ";
			m->val = v / d;
		}
		return;
	default:
		break;
	}
	d = find(o, e, a, ST_NSECS);
	if (!d)
		return;		/* perf's "num = 0": no metric */
	m->val = 1e9 * v / d;
	m->fmt = "%8.3f";
	m->unit = "/sec";
	if (m->val > 1000.0) {
		const char *k = "KMG";

		while (m->val > 1000.0 && *k) {
			m->val /= 1000.0;
			snprintf(m->unit_buf, sizeof(m->unit_buf), "%c/sec", *k++);
		}
		m->unit = m->unit_buf;
	}
}

/* metric_of: the metric perf shows for row E, A of count V (ns for a clock) */
static void metric_of(const struct stat_out *o, int e, int a, double v,
		      struct metric *m)
{
	if (!counted(o, &o->events[e], sum_of(o, e, a)) || o->no_metrics) {
		memset(m, 0, sizeof(*m));
		m->unit = "";
		return;
	}
	metric_calc(o, e, a, v, m);
}

/* a JSON string: ", \ and the control characters escaped */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void print_metric(const struct stat_out *o, const struct metric *m)
{
	char buf[64], *v, *end;
	int n;

	switch (o->fmt) {
	case FMT_STD:
		if (!m->unit || !m->fmt) {
			fprintf(o->f, "%-*s", METRIC_LEN, "");
			return;
		}
		n = fprintf(o->f, " # ");
		n += fprintf(o->f, m->fmt, m->val);
		fprintf(o->f, " %-*s", METRIC_LEN - n - 1, m->unit);
		return;
	case FMT_CSV:
		if (!m->unit || !m->fmt) {
			fprintf(o->f, "%s%s", o->sep, o->sep);
			return;
		}
		snprintf(buf, sizeof(buf), m->fmt, m->val);
		v = buf + strspn(buf, " ");
		for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
			;
		*end = '\0';
		fprintf(o->f, "%s%s%s%s", o->sep, v, o->sep,
			m->unit + strspn(m->unit, " "));
		return;
	case FMT_JSON:
		fprintf(o->f, "\"metric-value\" : \"%f\", \"metric-unit\" : ",
			m->fmt ? m->val : 0.0);
		json_str(o->f, m->unit ? m->unit : "");
		fputc('}', o->f);
		return;
	}
}

/*
 * print_noise: -r's variance of row S, perf's print_noise(): in CSV and
 * JSON before the metric, in the table after it (and only if not 0)
 */
static void print_noise(const struct stat_out *o, const struct stat_sum *s,
			bool before_metric)
{
	bool before = o->fmt != FMT_STD;
	double pct;

	if (o->runs <= 1 || before_metric != before)
		return;
	pct = rel_stddev(s->stddev, (double)s->val);
	if (o->fmt == FMT_JSON)
		fprintf(o->f, "\"variance\" : %.2f, ", pct);
	else if (o->fmt == FMT_CSV)
		fprintf(o->f, "%s%.2f%%", o->sep, pct);
	else if (pct)
		fprintf(o->f, "  ( +-%6.2f%% )", pct);
}

/* where a row is: perf's aggr_printout() */
static void print_place(const struct stat_out *o, int a, int nr)
{
	const struct aggr_id *id = &o->aggr[a];
	char buf[128];

	switch (o->mode) {
	case AGGR_GLOBAL:
		return;
	case AGGR_NONE:
		if (o->fmt == FMT_STD)
			fprintf(o->f, "CPU%-*d ", aggr_len[AGGR_NONE] - 3, id->cpu);
		else if (o->fmt == FMT_CSV)
			fprintf(o->f, "CPU%d%s", id->cpu, o->sep);
		else
			fprintf(o->f, "\"cpu\" : \"%d\", ", id->cpu);
		return;
	case AGGR_THREAD:
		if (o->fmt == FMT_STD)
			fprintf(o->f, "%*s-%-*d ", COMM_LEN, o->comms[a], PID_LEN,
				o->tids[a]);
		else if (o->fmt == FMT_CSV)
			fprintf(o->f, "%s-%d%s", o->comms[a], o->tids[a], o->sep);
		else
			fprintf(o->f, "\"thread\" : \"%s-%d\", ", o->comms[a],
				o->tids[a]);
		return;
	case AGGR_CORE:
		snprintf(buf, sizeof(buf), "S%d-D%d-C%d", id->socket, id->die,
			 id->core);
		break;
	case AGGR_CACHE:
		snprintf(buf, sizeof(buf), "S%d-D%d-L%d-ID%d", id->socket,
			 id->die, id->cache_lvl, id->cache);
		break;
	case AGGR_CLUSTER:
		snprintf(buf, sizeof(buf), "S%d-D%d-CLS%d", id->socket, id->die,
			 id->cluster);
		break;
	case AGGR_DIE:
		snprintf(buf, sizeof(buf), "S%d-D%d", id->socket, id->die);
		break;
	case AGGR_SOCKET:
		snprintf(buf, sizeof(buf), "S%d", id->socket);
		break;
	case AGGR_NODE:
		snprintf(buf, sizeof(buf), "N%d", id->node);
		break;
	}
	if (o->fmt == FMT_STD)
		fprintf(o->f, "%-*s %4d ", aggr_len[o->mode], buf, nr);
	else if (o->fmt == FMT_CSV)
		fprintf(o->f, "%s%s%d%s", buf, o->sep, nr, o->sep);
	else
		fprintf(o->f, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ",
			aggr_name[o->mode], buf, nr);
}

static void print_row(const struct stat_out *o, int e, int a)
{
	const struct stat_event *ev = &o->events[e];
	const struct stat_sum *s = sum_of(o, e, a);
	const char *bad = ev->supported ? "<not counted>" : "<not supported>";
	const char *unit = ev->msec ? "msec" : "";
	unsigned long long sec = o->ts_ns / 1000000000, ns = o->ts_ns % 1000000000;
	bool ok = ev->supported && counted(o, ev, s);
	double pct = 100;
	struct metric m;
	char val[48 + 12 * 8 + 16];

	/* perf's integer percentage in CSV and JSON, a double in the table */
	if (s->run != s->ena)
		pct = (double)(100 * (u128)s->run / s->ena);
	if (ok)
		value(o, ev, s, val, sizeof(val));
	metric_of(o, e, a, (double)s->val, &m);
	switch (o->fmt) {
	case FMT_STD:
		if (o->interval)
			fprintf(o->f, "%6llu.%09llu ", sec, ns);
		print_place(o, a, s->nr);
		fprintf(o->f, "%*s %-*s %-*s", COUNTS_LEN, ok ? val : bad,
			UNIT_LEN, unit, EVNAME_LEN, ev->label);
		print_metric(o, &m);
		print_noise(o, s, false);
		if (s->run != s->ena)
			fprintf(o->f, "  (%.2f%%)", 100.0 * s->run / s->ena);
		break;
	case FMT_CSV:
		if (o->interval)
			fprintf(o->f, "%llu.%09llu%s", sec, ns, o->sep);
		else if (o->summary)
			fprintf(o->f, "summary%s", o->sep);
		if (o->region)
			fprintf(o->f, "%s%s", o->region, o->sep);
		print_place(o, a, s->nr);
		fprintf(o->f, "%s%s%s%s%s", ok ? val : bad, o->sep, unit,
			o->sep, ev->label);
		print_noise(o, s, true);
		fprintf(o->f, "%s%llu%s%.2f", o->sep, (unsigned long long)s->run,
			o->sep, pct);
		print_metric(o, &m);
		break;
	case FMT_JSON:
		fputc('{', o->f);
		if (o->interval)
			fprintf(o->f, "\"interval\" : %llu.%09llu, ", sec, ns);
		if (o->region) {
			fputs("\"region\" : ", o->f);
			json_str(o->f, o->region);
			fputs(", ", o->f);
		}
		print_place(o, a, s->nr);
		fputs("\"counter-value\" : ", o->f);
		json_str(o->f, ok ? val : bad);
		fprintf(o->f, ", \"unit\" : \"%s\", \"event\" : ", unit);
		json_str(o->f, ev->label);
		fputs(", ", o->f);
		print_noise(o, s, true);
		fprintf(o->f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)s->run, pct);
		print_metric(o, &m);
		break;
	}
	fputc('\n', o->f);
}

/* only_metric: the metrics --metric-only shows: perf's valid_only_metric() */
static bool only_metric(const char *unit)
{
	return unit && !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

/* only_unit: a ratio's unit named after its event: perf's fixunit() */
static const char *only_unit(char *buf, size_t size, const struct stat_event *ev,
			     const char *unit)
{
	if (strncmp(unit, "of all", 6))
		return unit;
	snprintf(buf, size, "%s %s", ev->label, unit);
	return buf;
}

/*
 * print_metric_headers: --metric-only's header, a metric's unit a
 * column, perf's print_metric_headers(): every event's metrics, counted
 * or not; the table's indented past the place's column (but an
 * interval's, INTERVAL)
 */
void print_metric_headers(const struct stat_out *o, bool interval)
{
	const char *p, *unit;
	struct metric m;
	char buf[160];
	int e;

	if (o->fmt == FMT_JSON)
		return;
	if (o->fmt == FMT_CSV) {
		if (o->interval)
			fprintf(o->f, "time%s", o->sep);
		for (p = aggr_header_csv[o->mode]; *p; p++)
			if (*p == ',')
				fputs(o->sep, o->f);
			else
				fputc(*p, o->f);
	} else {
		fputc(' ', o->f);
		if (!interval)
			fprintf(o->f, "%*s", aggr_header_len[o->mode], "");
	}
	for (e = 0; e < o->nevents; e++) {
		metric_calc(o, e, 0, 0, &m);
		if (!only_metric(m.unit))
			continue;
		unit = only_unit(buf, sizeof(buf), &o->events[e], m.unit);
		if (o->fmt == FMT_CSV)
			fprintf(o->f, "%s%s", unit, o->sep);
		else
			fprintf(o->f, "%*s ", METRIC_ONLY_LEN, unit);
	}
	fputc('\n', o->f);
}

/*
 * print_metric_only: --metric-only's row of place A, its metrics a
 * column each: perf's print_metric_only() and its CSV and JSON ones (an
 * event not counted, an empty column; JSON leaves it out)
 */
static void print_metric_only(const struct stat_out *o, int a, int nr)
{
	unsigned long long sec = o->ts_ns / 1000000000, ns = o->ts_ns % 1000000000;
	char ubuf[160], vbuf[64], *v, *end;
	const char *unit;
	bool first = true;
	struct metric m;
	int e, len;

	if (o->fmt == FMT_JSON)
		fputc('{', o->f);
	if (o->interval && o->fmt == FMT_JSON)
		fprintf(o->f, "\"interval\" : %llu.%09llu, ", sec, ns);
	else if (o->interval && o->fmt == FMT_CSV)
		fprintf(o->f, "%llu.%09llu%s", sec, ns, o->sep);
	else if (o->interval)
		fprintf(o->f, "%6llu.%09llu ", sec, ns);
	print_place(o, a, nr);
	for (e = 0; e < o->nevents; e++) {
		metric_of(o, e, a, (double)sum_of(o, e, a)->val, &m);
		if (!o->events[e].supported)
			m = (struct metric){ .unit = "" };
		if (!only_metric(m.unit))
			continue;
		unit = only_unit(ubuf, sizeof(ubuf), &o->events[e], m.unit);
		vbuf[0] = '\0';
		if (m.fmt)
			snprintf(vbuf, sizeof(vbuf), m.fmt, m.val);
		if (o->fmt == FMT_STD) {
			len = METRIC_ONLY_LEN;
			if ((size_t)len < strlen(unit))
				len = strlen(unit) + 1;
			fprintf(o->f, "%*s ", len, vbuf);
			continue;
		}
		v = vbuf + strspn(vbuf, " ");
		for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
			;
		*end = '\0';
		if (o->fmt == FMT_CSV) {
			fprintf(o->f, "%s%s", v, o->sep);
		} else if (*unit && *v) {
			fprintf(o->f, "%s\"%s\" : \"%s\"", first ? "" : ", ", unit, v);
			first = false;
		}
	}
	if (o->fmt == FMT_JSON)
		fprintf(o->f, "%s}", first ? "\"metric-value\" : \"none\"" : "");
	fputc('\n', o->f);
}

/* print_metric_only_rows: --metric-only's rows, a place each */
static void print_metric_only_rows(const struct stat_out *o)
{
	int a, e, nr;

	for (a = 0; a < o->naggr; a++) {
		for (e = nr = 0; e < o->nevents && !nr; e++)
			nr = sum_of(o, e, a)->nr;
		if (nr || o->mode == AGGR_GLOBAL)
			print_metric_only(o, a, nr);
	}
}

/*
 * print_rows: every row, in perf's order: by place, then event, for
 * --per-core and the like; by event, then place, otherwise. A place
 * where a counter has no CPU (a CPU counter's other CPUs) has no row.
 */
void print_rows(const struct stat_out *o)
{
	bool by_place = o->mode != AGGR_GLOBAL && o->mode != AGGR_NONE &&
			o->mode != AGGR_THREAD;
	int i, j, e, a;

	if (o->metric_only) {
		print_metric_only_rows(o);
		return;
	}
	for (i = 0; i < (by_place ? o->naggr : o->nevents); i++)
		for (j = 0; j < (by_place ? o->nevents : o->naggr); j++) {
			e = by_place ? j : i;
			a = by_place ? i : j;
			if (o->events[e].supported && !sum_of(o, e, a)->nr)
				continue;
			print_row(o, e, a);
		}
}

/*
 * print_header: the table's "Performance counter stats for WHAT:", or
 * with -I, its column header now and again: perf's print_header(), whose
 * count of intervals starts anew after 26 of them; a table after
 * intervals (--summary's) has its title only where the count starts
 * anew. CSV and JSON have none.
 */
void print_header(const struct stat_out *o, const char *what)
{
	static int intervals;
	bool show = !intervals;

	if (o->interval && intervals++ == 25)
		intervals = 0;
	if (!show || o->fmt == FMT_JSON)
		return;
	if (o->fmt == FMT_CSV) {
		if (o->metric_only)
			print_metric_headers(o, true);
		return;
	}
	if (!o->interval) {
		fprintf(o->f, "\n Performance counter stats for %s:\n\n", what);
		if (o->metric_only)
			print_metric_headers(o, false);
		return;
	}
	switch (o->mode) {
	case AGGR_GLOBAL:
		fprintf(o->f, "#%*s", INTERVAL_LEN - 1, "time");
		break;
	case AGGR_NONE:
		fprintf(o->f, "#%*s %-*s", INTERVAL_LEN - 1, "time",
			aggr_len[o->mode], aggr_name[o->mode]);
		break;
	case AGGR_THREAD:
		fprintf(o->f, "#%*s %*s-%-*s", INTERVAL_LEN - 1, "time",
			COMM_LEN, "comm", PID_LEN, "pid");
		break;
	default:
		fprintf(o->f, "#%*s %-*s cpus", INTERVAL_LEN - 1, "time",
			aggr_len[o->mode], aggr_name[o->mode]);
		break;
	}
	if (o->metric_only)
		print_metric_headers(o, true);
	else
		fprintf(o->f, " %*s %*s events\n", COUNTS_LEN, "counts", UNIT_LEN,
			"unit");
}

/* the decimals perf shows of a time of deviation SD: its get_precision() */
static int precision_of(double sd)
{
	if (sd > 1)
		return 0;
	return lround(ceil(-log10(sd)));
}

/*
 * print_footer: the table's time elapsed, and the command's user and sys
 * (not of -r's runs, whose mean time and its deviation it shows instead)
 */
void print_footer(const struct stat_out *o, u64 elapsed_ns,
		  const struct timeval *user, const struct timeval *sys)
{
	double avg = o->wall_avg_ns / 1e9, sd = o->wall_sd_ns / 1e9;
	int prec;

	if (o->fmt != FMT_STD || o->interval)
		return;
	if (!o->null_run)
		fputc('\n', o->f);
	if (o->runs > 1) {
		prec = precision_of(sd) + 2;
		fprintf(o->f, " %17.*f +- %.*f seconds time elapsed", prec, avg,
			prec, sd);
		sd = rel_stddev(sd, avg);
		if (sd)
			fprintf(o->f, "  ( +-%6.2f%% )", sd);
		fputs("\n\n", o->f);
		return;
	}
	fprintf(o->f, " %17.9f seconds time elapsed", elapsed_ns / 1e9);
	if (user)
		fprintf(o->f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n",
			user->tv_sec + user->tv_usec / 1e6,
			sys->tv_sec + sys->tv_usec / 1e6);
	fputs("\n\n", o->f);
}
