// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c's arithmetic and option words, white-box: stat.c is included
 * here, its static functions called as they are. A row's count is each
 * counter's delta scaled to its enabled time as perf's
 * perf_counts_values__scale() (tools/lib/perf/evsel.c) scales it: 0 if it
 * never ran, val * enabled / running rounded down if it ran less than
 * enabled; in 128 bits where perf goes through a double.
 */
#include "../stat.c"

#include "tap.h"

static void sum_of(const struct sample *cur, const struct sample *prev,
		   s128 val, u64 ena, u64 run, const char *name)
{
	struct stat_sum s = { 0 };
	char n[128];

	add(&s, cur, prev);
	snprintf(n, sizeof(n), "%s: the value", name);
	is_s128(s.val, val, n);
	snprintf(n, sizeof(n), "%s: enabled and running", name);
	ok(s.ena == ena && s.run == run && s.nr == 1, n);
}

static void interval_of(const void *arg)
{
	stat_interval(arg);
}

static const char *value(int argc, char **argv, int *i)
{
	*i = 0;
	return value_of(argc, argv, i);
}

static void header_of(FILE *f, const void *arg)
{
	char *what, *argv[] = { "sleep", "1" };

	opt.target = *(const enum target *)arg;
	opt.pids = "42,43";
	what = what_is_counted(argv, 2);
	fputs(what, f);
	free(what);
}

void stat_tests(void)
{
	static const struct sample zero;
	struct sample cur, prev;
	struct stat_sum s = { 0 };
	char *argv[3];
	int i, *ids = NULL, n;
	enum target t;
	char *what;

	cur = (struct sample){ 1000, 200, 100, true };
	sum_of(&cur, &zero, 2000, 200, 100, "scaled: ran half its enabled time");
	cur = (struct sample){ 1000, 200, 200, true };
	sum_of(&cur, &zero, 1000, 200, 200, "ran all its enabled time: as read");
	cur = (struct sample){ 1000, 300, 0, true };
	sum_of(&cur, &zero, 0, 300, 0, "never ran: no count");
	cur = (struct sample){ 7, 3, 2, true };
	sum_of(&cur, &zero, 10, 3, 2, "scaled: 7 * 3 / 2 rounds down, as perf's (u64) cast");
	cur = (struct sample){ 1500, 400, 300, true };
	prev = (struct sample){ 1000, 200, 100, true };
	sum_of(&cur, &prev, 500, 200, 200, "an interval: the deltas");
	cur = (struct sample){ 1600, 400, 150, true };
	sum_of(&cur, &prev, 2400, 200, 50, "an interval's delta scaled: 600 * 200 / 50");
	cur = (struct sample){ 300, 400, 400, true };
	prev = (struct sample){ 1000, 200, 200, true };
	sum_of(&cur, &prev, 300, 200, 200, "a reset: the value since it");
	cur = (struct sample){ 50, 100, 100, true };
	sum_of(&cur, &prev, 50, 100, 100, "a counter made anew under the name: all of it");
	cur = (struct sample){ UINT64_MAX, 4, 2, true };
	sum_of(&cur, &zero, (s128)UINT64_MAX * 2, 4, 2, "scaled past 64 bits, exactly");

	/* a row sums its CPUs' scaled counts */
	add(&s, &(struct sample){ 100, 10, 5, true }, &zero);
	add(&s, &(struct sample){ 100, 10, 10, true }, &zero);
	is_s128(s.val, 300, "a row sums each CPU's scaled count");
	ok(s.nr == 2 && s.ena == 20 && s.run == 15, "a row sums the times and CPUs");

	/* perf's option words */
	ok(is_opt("-e", "-e") && is_opt("-ecycles", "-e") && !is_opt("-x", "-e"),
	   "is_opt: a short option, alone or with its value");
	ok(is_opt("--event", "--event") && is_opt("--event=cycles", "--event") &&
	   !is_opt("--events", "--event"), "is_opt: a long option, or with =");
	argv[0] = "-e";
	argv[1] = "cycles";
	is_str(value(2, argv, &i), "cycles", "value_of: -e SPEC");
	is_u64(i, 1, "value_of: -e SPEC takes the next word");
	argv[0] = "-ecycles:u";
	is_str(value(1, argv, &i), "cycles:u", "value_of: -eSPEC");
	argv[0] = "--event=cpu-clock,period=1";
	is_str(value(1, argv, &i), "cpu-clock,period=1", "value_of: --event=SPEC");
	argv[0] = "-x;";
	is_str(value(1, argv, &i), ";", "value_of: -xSEP");
	ok(id_list("12,345", &ids, &n) && n == 2 && ids[0] == 12 && ids[1] == 345,
	   "id_list: -p 12,345");
	free(ids);
	ids = NULL;
	ok(!id_list("12,x", &ids, &n) && !id_list("0", &ids, &n) &&
	   !id_list("2147483648", &ids, &n), "id_list: not a pid");
	free(ids);

	/* -I: perf's milliseconds, at least 100us */
	is_u64(stat_interval("100us"), 100000, "-I 100us");
	is_u64(stat_interval("1000"), 1000000000, "-I 1000 is in ms, as perf's");
	is_u64(exit_status(interval_of, "99us"), 1, "-I 99us: too short, an error");
	is_u64(exit_status(interval_of, "1m"), 1, "-I 1m: not a duration, an error");

	/* perf's "Performance counter stats for ..." */
	t = T_SYSTEM;
	what = capture(header_of, &t);
	is_str(what, "'system wide'", "the header's -a");
	free(what);
	t = T_COMMAND;
	what = capture(header_of, &t);
	is_str(what, "'sleep 1'", "the header's command");
	free(what);
	t = T_TASKS;
	what = capture(header_of, &t);
	is_str(what, "process id '42,43'", "the header's -p");
	free(what);
}

/* the options of a command line, from a fresh opt */
static void fresh_opt(void)
{
	memset(&opt, 0, sizeof(opt));
	opt.big_num = true;
	opt.repeat = 1;
	free(cpu_ids);
	cpu_ids = NULL;
	ncpu_ids = 0;
}

/* options: ARGS (NULL-terminated) through stat_options(); the index */
static int options(const char * const *args)
{
	int n = 0;

	while (args[n])
		n++;
	fresh_opt();
	return stat_options(n, (char **)args);
}

static void options_of(const void *arg)
{
	options((const char * const *)arg);
}

/* target_of: ARG's options and what they count, with a command or not */
static void target_of(const void *arg)
{
	const char * const *args = arg;
	int i = options(args);

	stat_target(args[i] ? 1 : 0);
}

static void label_is(const char *spec, const char *want)
{
	char *got = label_of(spec), name[160];

	snprintf(name, sizeof(name), "the row of %s is labelled %s, as perf names it",
		 spec, want);
	is_str(got, want, name);
	free(got);
}

static void privilege_is(bool user, const char *spec, const char *want)
{
	char *got, name[160];

	opt.all_user = user;
	opt.all_kernel = !user;
	got = privilege_spec(spec);
	snprintf(name, sizeof(name), "%s: %s is counted as %s",
		 user ? "--all-user" : "--all-kernel", spec, want);
	is_str(got, want, name);
	free(got);
	opt.all_user = false;
	opt.all_kernel = false;
}

static void privilege_of(const void *arg)
{
	free(privilege_spec(arg));
}

void stat_options_tests(void)
{
	static const char * const all[] = {
		"-r", "3", "-C", "0-2,5", "-dd", "--summary", "--no-csv-summary",
		"-D100", "--timeout=500", "-n", "--all-user", "--no-scale",
		"--metric-only", "--", "true", NULL,
	};
	static const char * const d3[] = { "-ddd", "true", NULL };
	static const char * const d1[] = { "-d", "-e", "page-faults", "true", NULL };
	static const char * const sys[] = { "-e", "cycles", "-I1000", "--summary", NULL };
	static const char * const null[] = { "-n", "true", NULL };
	static const char * const cg[] = { "-G", "foo", "true", NULL };
	static const char * const cg2[] = { "--cgroup=foo", "true", NULL };
	static const char * const bpf[] = { "--bpf-counters", "true", NULL };
	static const char * const r0[] = { "-r", "0", "true", NULL };
	static const char * const rx[] = { "-r", "x", "true", NULL };
	static const char * const cx[] = { "-C", "1-", "true", NULL };
	static const char * const cy[] = { "-C", "3-1", "true", NULL };
	static const char * const cz[] = { "-C", "0,", "true", NULL };
	static const char * const dneg[] = { "-D", "-1", "true", NULL };
	static const char * const rnone[] = { "-r", "2", "-e", "cycles", NULL };
	static const char * const t5[] = { "--timeout", "5", "true", NULL };
	static const char * const ti[] = { "--timeout", "500", "-I", "100", "true", NULL };
	static const char * const mr[] = { "--metric-only", "-r", "2", "true", NULL };
	static const char * const uk[] = { "--all-user", "--all-kernel", "true", NULL };
	static const char * const fa[] = { "--func", "vfs_read", "true", NULL };
	static const char * const fc[] = { "--func", "vfs_read", "-a", "-C", "0", "true", NULL };
	static const char * const fr[] = { "--func", "vfs_read", "-a", "-r", "2", "true", NULL };
	static const char * const fd[] = { "--func", "vfs_read", "-a", "-dd", "true", NULL };
	static const char * const fs[] = { "--func", "vfs_read,off", "-a", "true", NULL };
	static const char * const fok[] = {
		"--func", "vfs_read", "-a", "-A", "-e", "cycles,instructions", "true", NULL
	};
	static const char * const fdef[] = { "--func=vfs_read", "-a", "true", NULL };
	int i;

	i = options(all);
	ok(i == 14 && opt.repeat == 3 && !strcmp(opt.cpus, "0-2,5") &&
	   opt.detailed == 2 && opt.summary && opt.no_csv_summary &&
	   opt.delay_ms == 100 && opt.timeout_ms == 500 && opt.null_run &&
	   opt.all_user && !opt.all_kernel && opt.no_scale && opt.metric_only,
	   "stat's options: -r -C -dd --summary --no-csv-summary -D --timeout -n --all-user --no-scale --metric-only");
	ok(ncpu_ids == 4 && cpu_ids[0] == 0 && cpu_ids[2] == 2 && cpu_ids[3] == 5,
	   "-C 0-2,5: CPUs 0, 1, 2 and 5");

	/* the events: perf's default ones, then -d's */
	target_of(d3);
	ok(opt.target == T_COMMAND && opt.nspecs == 8 + 12 &&
	   !strcmp(opt.specs[8], "L1-dcache-loads") &&
	   !strcmp(opt.specs[19], "L1-dcache-prefetch-misses"),
	   "-ddd: perf's default events and its 12 detailed ones");
	target_of(d1);
	ok(opt.nspecs == 1 + 4 && !strcmp(opt.specs[0], "page-faults") &&
	   !strcmp(opt.specs[4], "LLC-load-misses"),
	   "-d -e page-faults: the event, then -d's 4");
	target_of(null);
	ok(opt.target == T_COMMAND && !opt.nspecs, "-n: no events");
	target_of(sys);
	ok(opt.target == T_SYSTEM && opt.nspecs == 1,
	   "-e without a command or target counts every CPU, as perf's");

	/* refused, or not an option's value */
	is_u64(exit_status(options_of, cg), 1, "-G: refused (kernel counters have no cgroup)");
	is_u64(exit_status(options_of, cg2), 1, "--cgroup=: refused");
	is_u64(exit_status(options_of, bpf), 1, "--bpf-counters: refused (perf's BPF path)");
	is_u64(exit_status(options_of, r0), 1, "-r 0: an error");
	is_u64(exit_status(options_of, rx), 1, "-r x: an error");
	is_u64(exit_status(options_of, cx), 1, "-C 1-: not a CPU list");
	is_u64(exit_status(options_of, cy), 1, "-C 3-1: not a CPU list");
	is_u64(exit_status(options_of, cz), 1, "-C 0,: not a CPU list");
	is_u64(exit_status(options_of, dneg), 1, "-D -1: an error (perf's needs --control)");
	is_u64(exit_status(target_of, rnone), 1, "-r without a command: an error");
	is_u64(exit_status(target_of, t5), 1, "--timeout 5: under perf's 10ms, an error");
	is_u64(exit_status(target_of, ti), 1, "--timeout with -I: an error, as perf's");
	is_u64(exit_status(target_of, mr), 1, "--metric-only with -r: an error, as perf's");
	is_u64(exit_status(target_of, uk), 1, "--all-user and --all-kernel: an error");
	fresh_opt();

	/* --func: a region over all-CPUs counters, at most 8 of them */
	is_u64(exit_status(target_of, fa), 1, "--func without -a: refused");
	is_u64(exit_status(target_of, fc), 1, "--func with -C: refused");
	is_u64(exit_status(target_of, fr), 1, "--func with -r: refused");
	is_u64(exit_status(target_of, fd), 1, "--func -dd: 16 events, over 8: refused");
	is_u64(exit_status(target_of, fs), 1, "--func with a spec's comma: refused");
	is_u64(exit_status(target_of, fok), -1, "--func -a -A -e cycles,instructions: taken");
	target_of(fok);
	ok(opt.target == T_SYSTEM && opt.nspecs == 2 && opt.mode == AGGR_NONE &&
	   !strcmp(opt.func, "vfs_read"), "--func vfs_read -a -A: every CPU, a row a CPU");
	fresh_opt();
	target_of(fdef);
	ok(opt.nspecs == 8 && !strcmp(opt.specs[0], "cpu-clock") && opt.func,
	   "--func=SYMBOL -a: perf's 8 default events of -a");
	fresh_opt();

	/* labels: perf's names of events with terms */
	label_is("cycles,period=1000", "cycles/period=1000/");
	label_is("cycles:u,period=1000,pinned", "cycles/period=1000,pinned/u");
	label_is("cpu/event=0x3c,umask=0/", "cpu/event=0x3c,umask=0/");
	label_is("page-faults", "page-faults");
	label_is("page-faults:k", "page-faults:k");

	/* --all-user, --all-kernel: perf's exclude_kernel and exclude_user */
	privilege_is(true, "page-faults", "page-faults:uh");
	privilege_is(true, "page-faults:k", "page-faults:u");
	privilege_is(true, "page-faults:kh", "page-faults:uh");
	privilege_is(false, "cycles:up,period=1000", "cycles:kp,period=1000");
	privilege_is(true, "cpu/event=0x3c/", "cpu/event=0x3c/uh");
	privilege_is(false, "cpu/event=0x3c/u", "cpu/event=0x3c/k");
	privilege_is(true, "sched:sched_switch", "sched:sched_switch:uh");
	opt.all_user = true;
	is_u64(exit_status(privilege_of, "tracepoint=319"), 1,
	       "--all-user: refused for tracepoint=ID, which has no privilege levels");
	opt.all_user = false;

	/* --no-scale: the count as read, not scaled to the enabled time */
	opt.no_scale = true;
	sum_of(&(struct sample){ 1000, 200, 100, true },
	       &(struct sample){ 0, 0, 0, true }, 1000, 200, 100,
	       "--no-scale: ran half its enabled time, not scaled");
	opt.no_scale = false;

	/* -r: the mean of the runs' rows, and its deviation */
	{
		struct run_stats rs = { 0 };
		struct stat_sum s[3] = { { .val = 100 }, { .val = 111 }, { .val = 125 } };

		opt.mode = AGGR_GLOBAL;
		nevents = 1;
		nplaces = 1;
		for (i = 0; i < 3; i++)
			runs_stat(&rs, &s[i]);
		runs_mean(&s[0], &rs);
		/* (100 + 111 + 125) / 3 = 112, its u64 */
		ok(s[0].val == 112, "-r: a row's count is the runs' mean, as perf's u64");
		nevents = 0;
		nplaces = 0;
	}
}
