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
