// SPDX-License-Identifier: GPL-2.0
/*
 * regions.c against the debugfs files' format (regions/NAME/stat, hist,
 * spec, as perfkmod writes them: Documentation/perfkmod.rst): the
 * parsers on fixtures of several CPUs, a CPU without calls, 8 counters
 * and the last log2 bucket, and their refusals; the rows perfkstat
 * regions prints from them: a call's mean, perf's ratios, -A, CSV with
 * as many fields on every line, JSON lines each one object (checked by
 * a strict parser); and perfkstat regions itself on a debugfs directory
 * made here (PERFKMOD_DEBUGFS).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../regions.h"
#include "tap.h"

/* 3 CPUs (CPU 2 without calls), 8 counters: the means are SUM / CALLS */
static const char * const cnames[] = { "cyc", "ins", "ref", "miss", "br", "brm", "c6", "c7" };

static const struct {
	const char *cpu;
	u64 fig[6], sum[REGION_MAX_COUNTERS];	/* CALLS ... MAX; SUM:n */
} rows8[] = {
	{ "all", { 12, 1, 2, 5, 3, 900 }, { 6000, 12000, 400, 100, 2400, 24, 0, 7 } },
	{ "0", { 10, 1, 2, 0, 3, 900 }, { 5000, 10000, 300, 80, 2000, 20, 0, 7 } },
	{ "1", { 2, 0, 0, 0, 400, 600 }, { 1000, 2000, 100, 20, 400, 4, 0, 0 } },
	{ "2", { 0 }, { 0 } },
};

/* stat8: stat's text of rows8, as perfkmod writes it */
static char *stat8(void)
{
	struct sbuf sb = { 0 };
	size_t i, k;
	u64 m;

	sb_printf(&sb, "# CPU CALLS LOST MIGRATED MISSED MIN MAX");
	for (k = 0; k < ARRAY_SIZE(cnames); k++)
		sb_printf(&sb, " SUM:%s MEAN:%s", cnames[k], cnames[k]);
	for (i = 0; i < ARRAY_SIZE(rows8); i++) {
		sb_printf(&sb, "\n%s", rows8[i].cpu);
		for (k = 0; k < 6; k++)
			sb_printf(&sb, " %llu", (unsigned long long)rows8[i].fig[k]);
		for (k = 0; k < ARRAY_SIZE(cnames); k++) {
			m = rows8[i].fig[0] ? 1000 * rows8[i].sum[k] / rows8[i].fig[0] : 0;
			sb_printf(&sb, " %llu %llu.%03llu", (unsigned long long)rows8[i].sum[k],
				  (unsigned long long)m / 1000, (unsigned long long)m % 1000);
		}
	}
	sb_printf(&sb, "\n");
	return sb.buf;
}

static const char spec8[] = "func=vfs_read,maxactive=64 cyc ins ref miss br brm c6 c7\n";

/* every bucket, the last to U64_MAX: one call of 2^63 or more */
static char *hist_all(void)
{
	struct sbuf sb = { 0 };
	int i;

	sb_printf(&sb, "# LOW HIGH CALLS\n0 0 2\n");
	for (i = 1; i < 63; i++)
		sb_printf(&sb, "%llu %llu %d\n", 1ULL << (i - 1), (1ULL << i) - 1,
			  i == 9 ? 8 : 0);
	sb_printf(&sb, "%llu 18446744073709551615 1\n", 1ULL << 62);
	return sb.buf;
}

static const char * const names8[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "c6", "c7",
};

static struct stat_event events8[REGION_MAX_COUNTERS];

static void make_events(void)
{
	int k;

	for (k = 0; k < REGION_MAX_COUNTERS; k++)
		events8[k] = (struct stat_event){
			.label = (char *)names8[k], .modifiers = "",
			.type = stat_type_of(names8[k]), .supported = true,
		};
}

static struct region fixture;

/* stat's texts refused, and why */
#define HEAD "# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:a MEAN:a\n"
static const struct {
	const char *text, *what;
} bad_stat[] = {
	{ HEAD "all 1 0 0 0 1 1 5 5.00\n", "stat: a mean without 3 decimals refused" },
	{ "# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:a MEAN:b\nall 1 0 0 0 1 1 5 5.000\n",
	  "stat: SUM and MEAN of different names refused" },
	{ HEAD "0 1 0 0 0 1 1 5 5.000\n", "stat: a CPU's row before all's refused" },
	{ HEAD "all 1 0 0 0 1 1 5 5.000\n1 1 0 0 0 1 1 5 5.000\n0 0 0 0 0 0 0 0 0.000\n",
	  "stat: CPUs out of order refused" },
	{ HEAD "all 1 0 0 0 1 1 5\n", "stat: a row short of a field refused" },
	{ HEAD "all 1 0  0 0 1 1 5 5.000\n", "stat: two blanks between fields refused" },
	{ HEAD, "stat: the header alone refused" },
};

static void parse_tests(void)
{
	char *hist = hist_all(), *text = stat8(), *bad;
	struct region r = { 0 };
	size_t i;

	ok(!region_parse_stat(&fixture, text), "stat: 8 counters, 3 CPUs parsed");
	ok(fixture.ncounters == 8 && !strcmp(fixture.counter[0], "cyc") &&
	   !strcmp(fixture.counter[7], "c7"), "stat: the counters' names, from SUM:n");
	ok(fixture.all.cpu == -1 && fixture.all.calls == 12 && fixture.all.lost == 1 &&
	   fixture.all.migrated == 2 && fixture.all.missed == 5 &&
	   fixture.all.min == 3 && fixture.all.max == 900 &&
	   fixture.all.sum[1] == 12000 && fixture.all.sum[7] == 7,
	   "stat: all's figures and sums");
	ok(fixture.ncpus == 3 && fixture.cpus[1].cpu == 1 && fixture.cpus[1].calls == 2 &&
	   fixture.cpus[1].sum[3] == 20 && fixture.cpus[2].calls == 0,
	   "stat: a row a CPU, CPU 2 without calls");
	ok(!region_parse_hist(&fixture, hist), "hist: 64 buckets parsed");
	ok(fixture.nhist == 64 && fixture.hist[0] == 2 && fixture.hist[9] == 8 &&
	   fixture.hist[63] == 1, "hist: bucket 0, bucket 9 [256, 511], the last");
	ok(!region_parse_spec(&fixture, spec8) && !strcmp(fixture.func, "vfs_read"),
	   "spec: func=vfs_read,maxactive=64: the symbol");
	fixture.name = xstrdup("rx");

	ok(!region_parse_spec(&r, "marker cyc\n") && !r.func, "spec: a marker's");
	ok(!region_parse_hist(&r, "# LOW HIGH CALLS\n") && r.nhist == 0,
	   "hist: no calls, the header alone");
	ok(!region_parse_stat(&r, "# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:c0 MEAN:c0\n"
			      "all 0 0 0 0 0 0 0 0.000\n0 0 0 0 0 0 0 0 0.000\n") &&
	   r.all.calls == 0 && r.ncpus == 1, "stat: a region without calls");
	region_free(&r);

	/* refusals */
	for (i = 0; i < ARRAY_SIZE(bad_stat); i++) {
		ok(region_parse_stat(&r, bad_stat[i].text) && 1, bad_stat[i].what);
		region_free(&r);
	}
	ok(region_parse_hist(&r, "# LOW HIGH CALLS\n0 0 1\n2 3 1\n") && 1,
	   "hist: a bucket skipped refused");
	bad = xasprintf("%s0 0 1\n", hist);
	ok(region_parse_hist(&r, bad) && 1, "hist: a 65th bucket refused");
	free(bad);
	r.ncounters = 2;
	ok(region_parse_spec(&r, "func=f a\n") && 1, "spec: fewer counters than stat's refused");
	ok(region_parse_spec(&r, "kprobe=f a b\n") && 1, "spec: not func= nor marker refused");
	r.ncounters = 0;
	region_free(&r);
	free(hist);
	free(text);
}

struct print_arg {
	int fmt;
	bool per_cpu;
};

static void print_fixture(FILE *f, const void *arg)
{
	const struct print_arg *a = arg;
	struct region_view v = {
		.f = f, .fmt = a->fmt, .sep = ",", .thousands = ",",
		.per_cpu = a->per_cpu,
	};

	region_print(&v, &fixture, events8, NULL, REGION_MAX_COUNTERS);
}

/* has_line: TEXT has LINE whole */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static int nlines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* the table's lines, perf's widths: 18, 4, 32, then the metric's " # " and 38 in all */
static const char * const table_lines[] = {
	/* cycles: 6000 / 12 calls */
	"            500.00      cycles                                                                ",
	/* thousands separated; insn per cycle, of the sums */
	"          1,000.00      instructions                     #    2.00  insn per cycle            ",
	/* 400 / 12, to the nearest */
	"             33.33      cache-references                                                      ",
	"              8.33      cache-misses                     #   25.00% of all cache refs         ",
	"              2.00      branch-misses                    #    1.00% of all branches           ",
	"                12      calls                                                                 ",
	"                 5      missed                                                                ",
	"                 3      min(cycles)                                                           ",
	"               900      max(cycles)                                                           ",
	/* bpftrace's hist(), to the last bucket */
	" cycles per call, log2 (all CPUs):",
	"[0]                    2 |@@@@@@@@@@@@@                                       |",
	"[256, 512)             8 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|",
	"[4E, 16E)              1 |@@@@@@                                              |",
};

static const char * const clock_line[] = {
	"          0.002500 msec cpu-clock                                                             ",
};

static const char table_head[] =
	"\n Performance counter stats for region 'rx' (func=vfs_read, 12 calls):\n\n";

/* -A's: a row a CPU, <not counted> without calls */
static const char * const table_cpu_lines[] = {
	"CPU1               500.00      cycles                                                                ",
	"CPU2        <not counted>      cycles                                                                ",
	"CPU0                   10      calls                                                                 ",
};

/* print_clock: counter 0 a clock: 30000 ns over 12 calls */
static void print_clock(FILE *f, const void *arg)
{
	struct region_view v = { .f = f, .fmt = *(const int *)arg, .sep = "," };
	struct stat_event ev = {
		.label = "cpu-clock", .modifiers = "", .type = ST_NSECS,
		.msec = true, .supported = true,
	};
	struct region r = {
		.name = "clk", .ncounters = 1, .all = { .calls = 12, .sum = { 30000 } },
	};

	region_print(&v, &r, &ev, NULL, 1);
}

static void table_tests(void)
{
	struct print_arg a = { FMT_STD, false };
	char *t = capture(print_fixture, &a), name[160];
	size_t i;

	ok(!strncmp(t, table_head, strlen(table_head)),
	   "table: perf's header, the region's function and calls");
	for (i = 0; i < ARRAY_SIZE(table_lines); i++) {
		snprintf(name, sizeof(name), "table: \"%.40s\"", table_lines[i]);
		if (!ok(has_line(t, table_lines[i]), name))
			fputs(t, stdout);
	}
	free(t);

	t = capture(print_clock, &a.fmt);
	ok(has_line(t, clock_line[0]),
	   "table: a clock's mean in msec to the ns, no CPUs utilized without a time");
	free(t);
	a.fmt = FMT_CSV;
	t = capture(print_clock, &a.fmt);
	ok(has_line(t, "clk,0.002500,msec,cpu-clock,12,100.00,,"), "CSV: a clock's mean, msec");
	free(t);
	a.fmt = FMT_STD;

	a.per_cpu = true;
	t = capture(print_fixture, &a);
	for (i = 0; i < ARRAY_SIZE(table_cpu_lines); i++) {
		snprintf(name, sizeof(name), "-A: \"%.40s\"", table_cpu_lines[i]);
		ok(has_line(t, table_cpu_lines[i]), name);
	}
	ok(!strstr(t, "missed") && !strstr(t, "log2"),
	   "-A: no missed, the region's alone, nor the histogram, all CPUs'");
	free(t);
}

/* CSV's last bucket, 2^62 to U64_MAX */
static const char csv_last[] =
	"rx,1,,hist(cycles)[4611686018427387904..18446744073709551615],12,100.00,,";

/* the fields of a CSV line, SEP "," */
static int csv_fields(const char *line, size_t n)
{
	int k = 1;

	for (; n--; line++)
		k += *line == ',';
	return k;
}

static void csv_tests(void)
{
	struct print_arg a = { FMT_CSV, false };
	char *t = capture(print_fixture, &a), *p, *nl;
	bool same = true;
	int n = 0;

	for (p = t; *p; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		same = same && csv_fields(p, nl - p) == 8;
	}
	ok(same && n == 8 + 6 + 64, "CSV: 8 counters, 6 figures, 64 buckets, 8 fields each");
	ok(has_line(t, "rx,1000.00,,instructions,12,100.00,2.00,insn per cycle") &&
	   has_line(t, "rx,12,,calls,12,100.00,,") &&
	   has_line(t, csv_last),
	   "CSV: region,value,unit,event,calls,100.00,metric,unit");
	free(t);

	a.per_cpu = true;
	t = capture(print_fixture, &a);
	same = true;
	for (p = t, n = 0; (nl = strchr(p, '\n')); p = nl + 1, n++)
		same = same && csv_fields(p, nl - p) == 9;
	ok(same && n == 3 * (8 + 5), "CSV -A: the CPU's field too, 9 each");
	ok(has_line(t, "rx,CPU2,<not counted>,,cycles,0,100.00,,"),
	   "CSV -A: a CPU without calls");
	free(t);
}

/* -j -A's instructions on CPU 1 */
static const char * const json_cpu1[] = {
	"{\"region\" : \"rx\", \"cpu\" : \"1\", \"counter-value\" : \"1000.000000\", \"unit\" : \"\", \"event\" : \"instructions\", \"event-runtime\" : 2, \"pcnt-running\" : 100.00, \"metric-value\" : \"2.000000\", \"metric-unit\" : \"insn per cycle\"}",
};

/* a strict JSON parser of one object of strings and numbers, a line */
static const char *json_ws(const char *p)
{
	return p + strspn(p, " ");
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p && *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\' && !strchr("\"\\/bfnrtu", *++p))
			return NULL;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else
		for (s = p; *p >= '0' && *p <= '9'; p++)
			;
	if (p == s)
		return NULL;
	if (*p == '.') {
		s = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	return p;
}

/* json_object: LINE is one object; its keys' count in *N */
static bool json_object(const char *p, int *n)
{
	*n = 0;
	if (*p++ != '{')
		return false;
	for (;;) {
		p = json_string(json_ws(p));
		if (!p)
			return false;
		p = json_ws(p);
		if (*p++ != ':')
			return false;
		p = json_ws(p);
		p = *p == '"' ? json_string(p) : json_number(p);
		if (!p)
			return false;
		++*n;
		p = json_ws(p);
		if (*p == '}')
			return !p[1];
		if (*p++ != ',')
			return false;
	}
}

static void json_tests(void)
{
	struct print_arg a = { FMT_JSON, true };
	char *t = capture(print_fixture, &a), *p, *nl;
	bool all = true;
	int n = 0, keys;

	for (p = t; (nl = strchr(p, '\n')); p = nl + 1, n++) {
		*nl = '\0';
		all = all && json_object(p, &keys) && keys == 9 &&
			!strncmp(p, "{\"region\" : \"rx\", \"cpu\" : ", 26);
		*nl = '\n';
	}
	ok(all && n == 3 * 13, "JSON -A: a line an object of 9 keys, region and cpu first");
	ok(has_line(t, json_cpu1[0]),
	   "JSON -A: perf's keys, a mean of 6 decimals, the calls as runtime");
	ok(!json_object("{\"a\" : 1,}", &keys) && !json_object("{\"a\" : 01}", &keys) &&
	   !json_object("{\"a\" : \"x}", &keys), "JSON: the checker refuses what is not JSON");
	free(t);

	a.per_cpu = false;
	t = capture(print_fixture, &a);
	for (p = t, n = 0, all = true; (nl = strchr(p, '\n')); p = nl + 1, n++) {
		*nl = '\0';
		all = all && json_object(p, &keys) && keys == 8;
		*nl = '\n';
	}
	ok(all && n == 8 + 6 + 64, "JSON: 78 objects of 8 keys");
	free(t);
}

/* write: TEXT into DIR/PATH */
static void write_file(const char *dir, const char *path, const char *text)
{
	char *p = xasprintf("%s/%s", dir, path);
	FILE *f = fopen(p, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		die("%s: cannot write it", p);
	free(p);
}

/* run_regions: perfkstat regions ARG in a child, its standard output */
static char *run_regions(const char *dbgdir, const char *arg, int *status)
{
	char **argv = xmalloc(2 * sizeof(*argv));
	FILE *out = tmpfile();
	struct sbuf sb = { 0 };
	char buf[4096];
	size_t n;
	pid_t pid;

	if (!out)
		die("tmpfile failed");
	argv[0] = xstrdup(arg);
	argv[1] = NULL;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		dup2(fileno(out), 1);
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		setenv("PERFKMOD_DEBUGFS", dbgdir, 1);
		set_debugfs();
		exit(cmd_regions(1, argv));
	}
	if (pid < 0 || waitpid(pid, status, 0) != pid)
		die("fork failed");
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	sb_add(&sb, "", 0);
	rewind(out);
	while ((n = fread(buf, 1, sizeof(buf), out)))
		sb_add(&sb, buf, n);
	fclose(out);
	free(argv[0]);
	free(argv);
	return sb.buf;
}

static void command_tests(void)
{
	char tmpl[] = "/tmp/perfkstat-regions-XXXXXX", *dir = mkdtemp(tmpl), *hist = hist_all();
	char *t, *cmd;
	static const char * const sub[] = {
		"regions", "regions/rx", "regions/idle", "counters", "counters/cyc",
		"counters/ins",
	};
	int status, i;

	if (!dir)
		die("mkdtemp failed");
	for (i = 0; i < (int)ARRAY_SIZE(sub); i++) {
		t = xasprintf("%s/%s", dir, sub[i]);
		if (mkdir(t, 0700))
			die("%s: mkdir failed", t);
		free(t);
	}
	t = stat8();
	write_file(dir, "regions/rx/stat", t);
	free(t);
	write_file(dir, "regions/rx/hist", hist);
	write_file(dir, "regions/rx/spec", spec8);
	write_file(dir, "regions/idle/stat",
		   "# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:cyc MEAN:cyc SUM:ins MEAN:ins\n"
		   "all 0 0 0 0 0 0 0 0.000 0 0.000\n0 0 0 0 0 0 0 0 0.000 0 0.000\n");
	write_file(dir, "regions/idle/hist", "# LOW HIGH CALLS\n");
	write_file(dir, "regions/idle/spec", "marker cyc ins\n");
	/* the counters' events, from their specs: cycles and instructions */
	write_file(dir, "counters/cyc/spec", "cycles:k\n");
	write_file(dir, "counters/ins/spec", "instructions:k,cpu=0\n");

	t = run_regions(dir, "-x;", &status);
	ok(status == 0 && strstr(t, "idle;<not counted>;;cyc;0;100.00;;\n") &&
	   strstr(t, "idle;0;;calls;0;100.00;;\n") &&
	   strstr(t, "rx;1000.00;;ins;12;100.00;2.00;insn per cycle\n") &&
	   strstr(t, "idle;") < strstr(t, "rx;"),
	   "regions -x';': every region, in name order; ratios of the counters' specs' events");
	ok(nlines(t) == 2 + 6 + 8 + 6 + 64, "regions -x';': idle's 8 rows, rx's 78");
	free(t);
	t = run_regions(dir, "nosuch", &status);
	ok(status == 1 && !*t, "regions NAME: no such region, status 1");
	free(t);

	for (i = ARRAY_SIZE(sub) - 1; i >= 0; i--) {
		cmd = xasprintf("rm -f %s/%s/* && rmdir %s/%s", dir, sub[i], dir, sub[i]);
		if (system(cmd))
			warn("%s failed", cmd);
		free(cmd);
	}
	rmdir(dir);
	free(hist);
}

void regions_tests(void)
{
	char why[] = "-EINVAL: kprobes may not probe this function: region f func=x a";
	char other[] = "-ENOENT: no counter named b: add b cycles";

	make_events();
	parse_tests();
	table_tests();
	csv_tests();
	json_tests();
	command_tests();
	ok(region_reason(why, "region f func=x a") &&
	   !strcmp(why, "-EINVAL: kprobes may not probe this function") &&
	   !region_reason(other, "region f func=x a"),
	   "region_reason: last_error's reason, without the command it names");
	free(fixture.cpus);
	fixture.cpus = NULL;
	region_free(&fixture);
}
