// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c's reading of record's CSV and its buckets, white-box: plot.c is
 * included here. By time: a bucket is the span / 100, or the mean time
 * between a CPU's records if longer, and a line is an event's count per
 * second over all CPUs; with -x, a bucket is EVENT's total / 100 (at
 * least 1), a row in the bucket of the middle of its EVENT count.
 */
#include "../plot.c"

#include "tap.h"

static void drawn(FILE *f, const void *arg)
{
	const int *x = arg;
	char *csv = xstrdup("time,cpu,a,b\n"
			    "0.000000,0,10,100\n"
			    "0.500000,1,20,0\n"
			    "1.000000,0,30,50\n");
	struct data d = { 0 };

	if (!load(csv, &d)) {
		fputs("(not loaded)", f);
		return;
	}
	if (*x < 0)
		by_time(&d, f);
	else
		by_event(&d, *x, f);
}

static bool loads(const char *text, int *nev, bool *by_event)
{
	char *csv = xstrdup(text);
	struct data d = { 0 };
	bool ok = load(csv, &d);

	*nev = d.nev;
	*by_event = d.every;
	return ok;
}

void plot_tests(void)
{
	char **f, *s, line[] = "1,,3";
	int n, nev, x;
	bool by_ev;

	n = csv_fields("a,\"b,c\",\"d\"\"e\",", &f);
	ok(n == 4 && !strcmp(f[0], "a") && !strcmp(f[1], "b,c") &&
	   !strcmp(f[2], "d\"e") && !strcmp(f[3], ""),
	   "csv_fields: quoted commas, doubled quotes, an empty last field");
	n = split(line, &f);
	ok(n == 3 && !strcmp(f[1], "") && !strcmp(f[2], "3"), "split: as awk -F,");
	free(f);

	ok(match_time("1") && match_time("0.250000") && !match_time("1.") &&
	   !match_time(".5") && !match_time("-1"), "a time: digits, a point and digits");
	ok(match_count("") && match_count("-5") && match_count("12") &&
	   !match_count("-") && !match_count("5x"), "a count: a delta, or empty (not read)");

	ok(loads("time,cpu,cycles,ip,pid,tid,mode\n0.000000,0,5,0x1,1,1,user\n", &nev,
		 &by_ev) && by_ev && nev == 1, "load: --every's CSV, one event");
	ok(loads("time,cpu,cycles,instructions,ip,pid,tid,mode,symbol\n"
		 "0.000000,0,5,6,0x1,0,0,kernel,\"f+0x1 [m,x]\"\n", &nev, &by_ev) &&
	   by_ev && nev == 2, "load: --symbols' CSV, a symbol holding a comma");
	ok(loads("time,cpu,a,b\n0.5,0,1,\n", &nev, &by_ev) && !by_ev && nev == 2,
	   "load: -I's CSV");
	ok(!loads("time,cpu\n0.5,0\n", &nev, &by_ev) &&
	   !loads("time,cpu,a\n", &nev, &by_ev) &&
	   !loads("time,cpu,a\n0.5,0,x\n", &nev, &by_ev) &&
	   !loads("t,cpu,a\n0.5,0,1\n", &nev, &by_ev), "load: not record's CSV");

	x = -1;
	s = capture(drawn, &x);
	is_str(s, "0.333333 45.000000 150.000000\n1.000000 45.000000 75.000000\n",
	       "by time: buckets of the mean time between a CPU's records, per second");
	free(s);
	x = 0;
	s = capture(drawn, &x);
	is_str(s, "6 1 10\n20 1 0\n46 1 1.66666667\n",
	       "by event a: a row where the middle of its a falls, b per a");
	free(s);
}
