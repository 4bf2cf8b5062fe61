// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat regions [NAME...] [-A] [-x SEP | -j]: perfkmod's regions (a
 * module's markers, root's functions), read from debugfs' regions/NAME/
 * files and shown as perf stat shows counters (stat-display.c prints the
 * rows): a region's header, then a row a counter, its value the mean of
 * a call (the sum over the calls), with perf's ratios between them (insn
 * per cycle, of all branches, of all cache refs ...: the ratio of the
 * sums, which is that of the means); then the region's figures (calls,
 * lost, migrated, missed, counter 0's min and max) and counter 0's log2
 * histogram, drawn as bpftrace's hist() draws one (from its first bucket
 * with calls).
 *
 * The files, as perfkmod writes them (names have no blanks):
 *   stat  "# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:n0 MEAN:n0 ...",
 *         then "all ..." (every CPU's), then a line a possible CPU; MEAN
 *         is SUM / CALLS with 3 decimals
 *   hist  "# LOW HIGH CALLS", then a line a log2 bucket of counter 0 from
 *         bucket 0 ("0 0 N") to the highest non-empty one, bucket i
 *         "2^(i-1) 2^i-1 N", the last (63) to 18446744073709551615
 *   spec  "func=SYMBOL[,maxactive=N] n0 n1..." or "marker n0 n1..."
 *
 * -A shows a row a CPU (the CPU lines of stat; missed is the region's
 * alone, and the histogram all CPUs', so they are shown without -A);
 * -x SEP and -j give every row as perf stat's CSV and JSON give one, the
 * region's name first: CSV "region,[CPUn,]value,unit,event,calls,100.00,
 * metric,metric unit", JSON {"region" : NAME, ["cpu" : "N", ]...}.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regions.h"

#define HIST_WIDTH	52	/* bpftrace's bar */

/* a line's fields, split at single blanks (NULL-terminated; at most MAX) */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, ' ');
		if (!line)
			break;
		*line++ = '\0';
	}
	f[n] = NULL;
	return line ? -1 : n;
}

/* mean_ok: S is a mean as stat writes one: digits, ".", 3 digits */
static bool mean_ok(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && s[n] == '.' && strspn(s + n + 1, "0123456789") == 3 &&
		!s[n + 4];
}

/* the header's names: "SUM:n" and "MEAN:n" pairs after the fixed fields */
static const char * const stat_head[] = {
	"#", "CPU", "CALLS", "LOST", "MIGRATED", "MISSED", "MIN", "MAX",
};

#define STAT_FIGURES	(ARRAY_SIZE(stat_head) - 2)	/* CALLS ... MAX */
#define MAX_FIELDS	(ARRAY_SIZE(stat_head) + 2 * REGION_MAX_COUNTERS + 1)

static const char *parse_stat_head(struct region *r, char *line)
{
	char *f[MAX_FIELDS + 1];
	int n = fields(line, f, MAX_FIELDS), i;
	size_t k;

	if (n < 0)
		return "more than 8 counters";
	for (k = 0; k < ARRAY_SIZE(stat_head); k++)
		if ((int)k >= n || strcmp(f[k], stat_head[k]))
			return "not stat's header";
	n -= ARRAY_SIZE(stat_head);
	if (n < 2 || n % 2)
		return "not stat's header: SUM:NAME MEAN:NAME pairs";
	r->ncounters = n / 2;
	for (i = 0; i < r->ncounters; i++) {
		const char *sum = f[ARRAY_SIZE(stat_head) + 2 * i];
		const char *mean = f[ARRAY_SIZE(stat_head) + 2 * i + 1];

		if (strncmp(sum, "SUM:", 4) || strncmp(mean, "MEAN:", 5) ||
		    !sum[4] || strcmp(sum + 4, mean + 5))
			return "not stat's header: SUM:NAME MEAN:NAME pairs";
		r->counter[i] = xstrdup(sum + 4);
	}
	return NULL;
}

static const char *parse_stat_row(struct region *r, char *line,
				  struct region_row *row)
{
	char *f[MAX_FIELDS + 1];
	int n = fields(line, f, MAX_FIELDS), i;
	u64 v[STAT_FIGURES], cpu;
	size_t k;

	if (n != (int)STAT_FIGURES + 1 + 2 * r->ncounters)
		return "a row's fields are not the header's";
	if (!strcmp(f[0], "all"))
		row->cpu = -1;
	else if (parse_u64(f[0], &cpu) && cpu < 65536)
		row->cpu = (int)cpu;
	else
		return "a row is not all's or a CPU's";
	for (k = 0; k < STAT_FIGURES; k++)
		if (!parse_u64(f[1 + k], &v[k]))
			return "a figure is not a number";
	row->calls = v[0];
	row->lost = v[1];
	row->migrated = v[2];
	row->missed = v[3];
	row->min = v[4];
	row->max = v[5];
	for (i = 0; i < r->ncounters; i++) {
		if (!parse_u64(f[1 + STAT_FIGURES + 2 * i], &row->sum[i]))
			return "a sum is not a number";
		if (!mean_ok(f[2 + STAT_FIGURES + 2 * i]))
			return "a mean is not N.NNN";
	}
	return NULL;
}

const char *region_parse_stat(struct region *r, const char *text)
{
	char *copy = xstrdup(text), *p = copy, *line;
	const char *why = "empty";
	struct region_row row;
	int n = 0;

	r->ncpus = 0;
	while ((line = next_line(&p))) {
		why = n ? parse_stat_row(r, line, &row) : parse_stat_head(r, line);
		if (why)
			break;
		if (n == 1 && row.cpu >= 0) {
			why = "the first row is not all's";
			break;
		}
		if (n >= 2 && (row.cpu < 0 || (r->ncpus && row.cpu <= r->cpus[r->ncpus - 1].cpu))) {
			why = "a CPU's row out of order";
			break;
		}
		if (n == 1) {
			r->all = row;
		} else if (n > 1) {
			r->cpus = xrealloc(r->cpus, (r->ncpus + 1) * sizeof(*r->cpus));
			r->cpus[r->ncpus++] = row;
		}
		n++;
	}
	if (!why && n < 2)
		why = "no row of all CPUs";
	free(copy);
	return why;
}

/* bucket i's bounds, as hist writes them */
static void bucket_bounds(int i, u64 *lo, u64 *hi)
{
	*lo = i ? (u64)1 << (i - 1) : 0;
	*hi = !i ? 0 : i == REGION_HIST_BUCKETS - 1 ? UINT64_MAX :
		((u64)1 << i) - 1;
}

const char *region_parse_hist(struct region *r, const char *text)
{
	char *copy = xstrdup(text), *p = copy, *line, *f[4];
	const char *why = NULL;
	u64 lo, hi, v[3];
	int n = 0, k;

	r->nhist = 0;
	memset(r->hist, 0, sizeof(r->hist));
	line = next_line(&p);
	if (!line || strcmp(line, "# LOW HIGH CALLS"))
		why = "not hist's header";
	while (!why && (line = next_line(&p))) {
		if (n == REGION_HIST_BUCKETS) {
			why = "more than 64 buckets";
			break;
		}
		if (fields(line, f, 3) != 3) {
			why = "a bucket is not LOW HIGH CALLS";
			break;
		}
		for (k = 0; k < 3; k++)
			if (!parse_u64(f[k], &v[k]))
				why = "a bucket's field is not a number";
		bucket_bounds(n, &lo, &hi);
		if (!why && (v[0] != lo || v[1] != hi))
			why = "a bucket's bounds are not the next log2 bucket's";
		if (!why)
			r->hist[n++] = v[2];
	}
	r->nhist = n;
	free(copy);
	return why;
}

const char *region_parse_spec(struct region *r, const char *text)
{
	char *copy = xstrdup(text), *p = copy, *line, *f[2 + REGION_MAX_COUNTERS];
	const char *why = NULL;
	int n;

	line = next_line(&p);
	n = line ? fields(line, f, 1 + REGION_MAX_COUNTERS) : -1;
	if (n < 2)
		why = "not FUNC=SYMBOL or marker, then the counters";
	else if (!strncmp(f[0], "func=", 5) && f[0][5] && f[0][5] != ',')
		r->func = xasprintf("%.*s", (int)strcspn(f[0] + 5, ","), f[0] + 5);
	else if (strcmp(f[0], "marker"))
		why = "not func=SYMBOL or marker";
	if (!why && r->ncounters && n - 1 != r->ncounters)
		why = "not stat's counters";
	if (!why) {
		free(r->spec);
		r->spec = xstrdup(text);
		r->spec[strcspn(r->spec, "\n")] = '\0';
	}
	free(copy);
	return why;
}

void region_free(struct region *r)
{
	int i;

	free(r->name);
	free(r->func);
	free(r->spec);
	for (i = 0; i < r->ncounters; i++)
		free(r->counter[i]);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}

char *region_reason(char *why, const char *cmd)
{
	size_t n = strlen(why), c = strlen(cmd);

	if (n < c + 2 || strcmp(why + n - c, cmd) || strncmp(why + n - c - 2, ": ", 2))
		return NULL;
	why[n - c - 2] = '\0';
	return why;
}

/* read_one: region NAME's file FILE, parsed by PARSE; 0 or -1 (said) */
static int read_one(struct region *r, const char *file,
		    const char *(*parse)(struct region *r, const char *text))
{
	char *path = dbg_path("regions/%s/%s", r->name, file);
	struct sbuf sb = { 0 };
	const char *why;
	int rc = -1;

	if (read_all(path, &sb) < 0) {
		warn("%s: %s", path, strerror(errno));
	} else {
		why = parse(r, sb.buf ? sb.buf : "");
		if (why)
			warn("%s: %s", path, why);
		rc = why ? -1 : 0;
	}
	sb_free(&sb);
	free(path);
	return rc;
}

int region_read(const char *name, struct region *r)
{
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	if (read_one(r, "stat", region_parse_stat) ||
	    read_one(r, "spec", region_parse_spec) ||
	    read_one(r, "hist", region_parse_hist)) {
		region_free(r);
		return -1;
	}
	return 0;
}

/*
 * event_of: SPEC's event, as stat_type_of() takes it, and its modifiers
 * (NAME:MODS,OPTIONS...), into EV
 */
static void event_of(const char *spec, struct stat_event *ev)
{
	size_t n = strcspn(spec, ":,"), m = 0;
	char *name = xasprintf("%.*s", (int)n, spec);

	if (spec[n] == ':')
		m = strcspn(spec + n + 1, ",");
	ev->type = stat_type_of(name);
	ev->msec = ev->type == ST_NSECS;
	ev->modifiers = xasprintf("%.*s", (int)m, m ? spec + n + 1 : "");
	free(name);
}

struct stat_event *region_events(const struct region *r)
{
	struct stat_event *ev = xmalloc(r->ncounters * sizeof(*ev) + 1);
	char *path, *spec;
	int k;

	for (k = 0; k < r->ncounters; k++) {
		path = dbg_path("counters/%s/spec", r->counter[k]);
		spec = read_text(path);
		ev[k] = (struct stat_event){
			.label = xstrdup(r->counter[k]), .supported = true,
			.per_call = true,
		};
		event_of(spec ? spec : r->counter[k], &ev[k]);
		free(spec);
		free(path);
	}
	return ev;
}

/* the rows shown: all CPUs', or (-A) each CPU's */
static const struct region_row *row_of(const struct region_view *v,
				       const struct region *r, int a)
{
	return v->per_cpu ? &r->cpus[a] : &r->all;
}

/* bpftrace's label of 2^POWER: 1, 2 ... 512, 1K ... 16E */
static char *power_label(char *buf, size_t size, int power)
{
	static const char suffix[] = " KMGTPE";
	int s = power / 10 < 6 ? power / 10 : 6;

	snprintf(buf, size, "%llu%.*s", 1ULL << (power - 10 * s), s ? 1 : 0,
		 suffix + s);
	return buf;
}

/* print_hist: counter 0's histogram, as bpftrace's hist() */
static void print_hist(const struct region_view *v, const struct region *r,
		       const char *label)
{
	char lo[24], hi[24], head[64], bar[HIST_WIDTH + 1];
	int i, w, first = -1;
	u64 max = 0;

	for (i = 0; i < r->nhist; i++) {
		if (r->hist[i] > max)
			max = r->hist[i];
		if (r->hist[i] && first < 0)
			first = i;
	}
	if (first < 0)
		return;
	/* as bpftrace's: from the first bucket with calls to the last */
	fprintf(v->f, "\n %s per call, log2 (all CPUs):\n", label);
	for (i = first; i < r->nhist; i++) {
		if (i < 2)
			snprintf(head, sizeof(head), "[%d]", i);
		else
			snprintf(head, sizeof(head), "[%s, %s)",
				 power_label(lo, sizeof(lo), i - 1),
				 /* the last: to U64_MAX, 2^64 - 1 */
				 power_label(hi, sizeof(hi),
					     i == REGION_HIST_BUCKETS - 1 ? i + 1 : i));
		w = max ? (int)((u128)r->hist[i] * HIST_WIDTH / max) : 0;
		memset(bar, '@', w);
		bar[w] = '\0';
		fprintf(v->f, "%-16s%8llu |%-*s|\n", head,
			(unsigned long long)r->hist[i], HIST_WIDTH, bar);
	}
}

/* the figures' rows (not -A's missed, nor the histogram's but in CSV, JSON) */
enum { F_CALLS, F_LOST, F_MIGRATED, F_MISSED, F_MIN, F_MAX, F_HIST };

static u64 figure(const struct region *r, const struct region_row *row, int k)
{
	switch (k) {
	case F_CALLS:
		return row->calls;
	case F_LOST:
		return row->lost;
	case F_MIGRATED:
		return row->migrated;
	case F_MISSED:
		return row->missed;
	case F_MIN:
		return row->min;
	case F_MAX:
		return row->max;
	default:
		return r->hist[k - F_HIST];
	}
}

static void print_figures(const struct region_view *v, const struct region *r,
			  struct stat_out *o, const char *label)
{
	int nfig = F_HIST, naggr = o->naggr, k, a, n = 0;
	struct stat_event *ev;
	struct stat_sum *sum;
	u64 lo, hi;

	if (!v->per_cpu && v->fmt != FMT_STD)
		nfig += r->nhist;
	ev = xmalloc(nfig * sizeof(*ev));
	sum = xmalloc((size_t)nfig * naggr * sizeof(*sum) + 1);
	for (k = 0; k < nfig; k++) {
		if (k == F_MISSED && v->per_cpu)
			continue;
		ev[n] = (struct stat_event){ .modifiers = "", .supported = true };
		if (k == F_MIN || k == F_MAX) {
			ev[n].label = xasprintf("%s(%s)", k == F_MIN ? "min" : "max", label);
		} else if (k >= F_HIST) {
			bucket_bounds(k - F_HIST, &lo, &hi);
			ev[n].label = xasprintf("hist(%s)[%llu..%llu]", label,
						(unsigned long long)lo,
						(unsigned long long)hi);
		} else {
			static const char * const names[] = {
				"calls", "lost", "migrated", "missed",
			};

			ev[n].label = xstrdup(names[k]);
		}
		for (a = 0; a < naggr; a++) {
			const struct region_row *row = row_of(v, r, a);

			sum[n * naggr + a] = (struct stat_sum){
				.val = figure(r, row, k), .ena = row->calls,
				.run = row->calls, .nr = 1,
			};
		}
		n++;
	}
	o->nevents = n;
	o->events = ev;
	o->sums = sum;
	o->no_metrics = true;
	print_rows(o);
	for (k = 0; k < n; k++)
		free(ev[k].label);
	free(ev);
	free(sum);
}

void region_print(const struct region_view *v, const struct region *r,
		  const struct stat_event *events, const int *map, int nevents)
{
	int naggr = v->per_cpu ? r->ncpus : 1, e, a, k;
	struct aggr_id *ids = xmalloc(naggr * sizeof(*ids));
	struct stat_event *ev = xmalloc(nevents * sizeof(*ev) + 1);
	struct stat_sum *sum = xmalloc((size_t)nevents * naggr * sizeof(*sum) + 1);
	const char *label = NULL;
	struct stat_out o = {
		.f = v->f, .fmt = v->fmt, .sep = v->sep,
		.mode = v->per_cpu ? AGGR_NONE : AGGR_GLOBAL,
		.nevents = nevents, .naggr = naggr, .events = ev, .aggr = ids,
		.sums = sum, .thousands = v->thousands, .runs = 1,
		.region = r->name,
	};
	char *what;

	for (a = 0; a < naggr; a++) {
		ids[a] = (struct aggr_id){ -1, -1, -1, -1, -1, -1, -1, -1, -1 };
		ids[a].cpu = row_of(v, r, a)->cpu;
	}
	for (e = 0; e < nevents; e++) {
		k = map ? map[e] : e;
		ev[e] = events[e];
		ev[e].per_call = true;
		ev[e].supported = events[e].supported && k >= 0;
		if (k == 0)
			label = ev[e].label;
		for (a = 0; a < naggr; a++) {
			const struct region_row *row = row_of(v, r, a);

			sum[e * naggr + a] = (struct stat_sum){
				.val = k >= 0 ? row->sum[k] : 0,
				.ena = row->calls, .run = row->calls, .nr = 1,
			};
		}
	}
	what = r->func ?
		xasprintf("region '%s' (func=%s, %llu calls)", r->name, r->func,
			  (unsigned long long)r->all.calls) :
		xasprintf("region '%s' (marker, %llu calls)", r->name,
			  (unsigned long long)r->all.calls);
	/* perf's title (print_header()'s, which counts -I's intervals too) */
	if (v->fmt == FMT_STD)
		fprintf(v->f, "\n Performance counter stats for %s:\n\n", what);
	print_rows(&o);
	print_figures(v, r, &o, label ? label : r->counter[0]);
	if (v->fmt == FMT_STD && !v->per_cpu)
		print_hist(v, r, label ? label : r->counter[0]);
	free(what);
	free(ids);
	free(ev);
	free(sum);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* region_names: every region's name, from regions/, in name order */
static char **region_names(int *n)
{
	char *dir = dbg_path("regions"), **names;
	struct dirent **d;
	int i, k = 0, nd;

	nd = scandir(dir, &d, NULL, by_name);
	if (nd < 0)
		die("%s: %s (a perfkmod without regions?)", dir, strerror(errno));
	names = xmalloc((nd + 1) * sizeof(*names));
	for (i = 0; i < nd; i++) {
		if (d[i]->d_name[0] != '.')
			names[k++] = xstrdup(d[i]->d_name);
		free(d[i]);
	}
	free(d);
	free(dir);
	*n = k;
	return names;
}

int cmd_regions(int argc, char **argv)
{
	struct region_view v = { .f = stdout, .fmt = FMT_STD };
	struct stat_event *ev;
	char **names = NULL;
	bool json = false;
	struct region r;
	int i, k, n = 0, rc = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] != '-') {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(a);
		} else if (!strcmp(a, "-A") || !strcmp(a, "--no-aggr")) {
			v.per_cpu = true;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json-output")) {
			json = true;
		} else if (!strncmp(a, "-x", 2) || !strncmp(a, "--field-separator", 17)) {
			const char *eq = strchr(a, '=');

			if (eq && (a[1] == '-' || eq == a + 2))
				v.sep = eq + 1;
			else if (a[1] == 'x' && a[2])
				v.sep = a + 2;
			else if (a[1] == '-' && a[17])
				bad_option(a);
			else if (i + 1 < argc)
				v.sep = argv[++i];
			else
				die("%s needs a value", a);
		} else {
			bad_option(a);
		}
	}
	for (; i < argc; i++) {
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(argv[i]);
	}
	if (json && v.sep)
		die("-x and -j cannot go together");
	if (v.sep && !strcmp(v.sep, "\\t"))
		v.sep = "\t";
	v.fmt = json ? FMT_JSON : v.sep ? FMT_CSV : FMT_STD;
	if (v.fmt == FMT_STD)
		v.thousands = thousands_sep();
	need_dir();
	if (!n)
		names = region_names(&n);
	for (i = 0; i < n; i++) {
		if (region_read(names[i], &r)) {
			rc = 1;
			continue;
		}
		ev = region_events(&r);
		region_print(&v, &r, ev, NULL, r.ncounters);
		if (v.fmt == FMT_STD)
			fputc('\n', v.f);
		for (k = 0; k < r.ncounters; k++) {
			free(ev[k].label);
			free(ev[k].modifiers);
		}
		free(ev);
		region_free(&r);
		free(names[i]);
	}
	free(names);
	flush_stdout();
	return rc;
}
