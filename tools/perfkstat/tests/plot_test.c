// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c's reading of record's CSV and its buckets, white-box: plot.c is
 * included here. By time: a bucket is the span / 100, or the mean time
 * between a CPU's records if longer, and a line is an event's count per
 * second over all CPUs; with -x, a bucket is EVENT's total / 100 (at
 * least 1), a row in the bucket of the middle of its EVENT count.
 */
#include "../plot.c"

#include <fcntl.h>
#include <sys/wait.h>

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

struct script_arg {
	char **labels;
	int nev, x;
};

static void scripted(FILE *f, const void *arg)
{
	const struct script_arg *a = arg;

	script(f, "o.svg", "d'ata", "r.csv", a->labels, a->nev, a->x);
}

/* count: how many times NEEDLE is in HAY */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/* the script: a panel per event, each its own y axis and label */
static void script_tests(void)
{
	char clock[] = "cpu-clock", faults[] = "page-faults", quoted[] = "it's";
	struct script_arg a = { NULL, 3, -1 };
	char *labels[3], *s;

	labels[0] = clock;
	labels[1] = faults;
	labels[2] = quoted;
	a.labels = labels;
	s = capture(scripted, &a);

	ok(strstr(s, "set multiplot layout 3,1 ") && count(s, "\nplot ") == 3 &&
	   strstr(s, "set ylabel 'cpu-clock'\nplot 'd''ata' using 1:2 ") &&
	   strstr(s, "set ylabel 'page-faults'\nplot 'd''ata' using 1:3 ") &&
	   strstr(s, "set ylabel 'it''s'\nplot 'd''ata' using 1:4 ") &&
	   count(s, "set yrange") == 1 && !strstr(s, "set yrange [0:*]\nset ylabel"),
	   "script: three events, three panels stacked, a y axis each from 0");
	ok(count(s, "set xrange [GPVAL_X_MIN:GPVAL_X_MAX]") == 1 &&
	   strstr(s, "using 1:2 with lines linewidth 1.5 title 'cpu-clock'\n"
		  "set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n") &&
	   count(s, "set xlabel") == 1 &&
	   strstr(s, "set xlabel 'seconds since the first record'\nset ylabel 'it''s'"),
	   "script: one x range, the first panel's; the x label under the last");
	free(s);

	a.x = 1;
	s = capture(scripted, &a);
	ok(strstr(s, "set multiplot layout 2,1 ") && count(s, "\nplot ") == 2 &&
	   !strstr(s, "using 1:3") && strstr(s, "per ' . 'page-faults'") &&
	   strstr(s, "set xlabel 'page-faults' . ") &&
	   strstr(s, "set ylabel 'it''s'\nplot 'd''ata' using 1:4 "),
	   "script -x page-faults: a panel for each other event");
	free(s);
}

/*
 * svg_tests: plot of a clock and a count into SVG by gnuplot, in a child:
 * it says where it wrote, and the SVG holds a plot and a y label (rotated)
 * for each event
 */
static void svg_tests(void)
{
	char dir[] = "/tmp/perfkstat-plot-test.XXXXXX", *csv, *svg, *err, *text;
	struct sbuf sb = { 0 };
	int i, fd, status = -1;
	char *argv[5];
	pid_t pid;
	FILE *f;

	if (!in_path("gnuplot")) {
		ok(true, "plot's SVG # SKIP no gnuplot");
		return;
	}
	if (!mkdtemp(dir))
		die("mkdtemp failed");
	csv = xasprintf("%s/r.csv", dir);
	svg = xasprintf("%s/r.svg", dir);
	err = xasprintf("%s/err", dir);
	f = fopen(csv, "w");
	if (!f)
		die("%s: %s", csv, strerror(errno));
	fputs("time,cpu,cpu-clock,page-faults\n", f);
	for (i = 0; i < 40; i++)
		fprintf(f, "%d.000000,0,%d,%d\n", i, 1000000000 + i, i % 7);
	fclose(f);
	argv[0] = csv;
	argv[1] = "-o";
	argv[2] = svg;
	argv[3] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (!pid) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(99);
		atexit(cleanup);
		exit(cmd_plot(3, argv));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		status = -1;
	text = read_text(err);
	sb_printf(&sb, "perfkstat: wrote %s: 2 events, a panel each", svg);
	ok(status == 0, "plot: status 0");
	is_str(text, sb.buf, "plot: says where it wrote, on stderr");
	free(text);
	text = read_text(svg);
	ok(text && count(text, "<g id=\"gnuplot_plot_1") == 2 &&
	   count(text, "rotate(270)") == 2 &&
	   strstr(text, "<text>cpu-clock</text>") && strstr(text, "<text>page-faults</text>"),
	   "plot's SVG: two plots, a y label each");
	free(text);
	sb_free(&sb);
	unlink(csv);
	unlink(svg);
	unlink(err);
	rmdir(dir);
	free(csv);
	free(svg);
	free(err);
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

	script_tests();
	svg_tests();
}
