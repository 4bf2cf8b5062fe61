// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat plot FILE.csv [-x EVENT] [-o FILE.svg]: record's CSV drawn by
 * gnuplot into SVG, a panel per event, stacked over one time axis, each
 * with its own y axis (a clock's millions do not flatten a count of
 * tens): its count per second summed over the CPUs, in time buckets of
 * the span / 100, or of the mean time between a CPU's records if longer;
 * with -x, against EVENT's count instead (an --every trigger's, say):
 * each other event's count per EVENT, in buckets of EVENT's total / 100.
 * It says on standard error where it wrote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkstat.h"

/* the height of an event's panel, in pixels of the SVG */
#define PANEL_H 150

/* grow: A, N things of SIZE bytes, with room for one more (*CAP doubled) */
static void *grow(void *a, int n, int *cap, size_t size)
{
	if (n < *cap)
		return a;
	*cap = *cap ? 2 * *cap : 16;
	return xrealloc(a, (size_t)*cap * size);
}

/* csv_fields: a CSV line's fields, "quotes" undone; their number */
static int csv_fields(const char *s, char ***f)
{
	struct sbuf cur = { 0 };
	bool q = false;
	int n = 0, cap = 0;

	*f = NULL;
	sb_add(&cur, "", 0);
	for (; ; s++) {
		if (*s && q && *s == '"' && s[1] == '"') {
			sb_add(&cur, s, 1);
			s++;
		} else if (*s == '"') {
			q = !q;
		} else if (!*s || (!q && *s == ',')) {
			*f = grow(*f, n, &cap, sizeof(**f));
			(*f)[n++] = cur.buf;
			memset(&cur, 0, sizeof(cur));
			sb_add(&cur, "", 0);
			if (!*s)
				break;
		} else {
			sb_add(&cur, s, 1);
		}
	}
	sb_free(&cur);
	return n;
}

/* split: LINE's comma-separated fields, in place (as awk -F, splits) */
static int split(char *line, char ***f)
{
	int n = 1;
	char *c;

	*f = NULL;
	if (!*line)
		return 0;
	for (c = line; (c = strchr(c, ',')); c++)
		n++;
	*f = xmalloc(n * sizeof(**f));
	n = 0;
	for (;;) {
		(*f)[n++] = line;
		line = strchr(line, ',');
		if (!line)
			return n;
		*line++ = '\0';
	}
}

static bool match_time(const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (!d)
		return false;
	if (!s[d])
		return true;
	return s[d] == '.' && s[d + 1] && all_digits(s + d + 1);
}

static bool match_count(const char *s)
{
	if (*s == '-')
		s++;
	else if (!*s)
		return true;
	return *s && all_digits(s);
}

/* quote: S for gnuplot, in single quotes, a quote in it doubled */
static void quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/*
 * The CSV: its header's fields, the events' columns (2 to nev + 1; those
 * of --every's "ip,pid,tid,mode[,symbol]" after them are not drawn), and
 * the data lines split.
 */
struct data {
	char **h;
	int nf, nev;
	bool every;
	char ***f;
	int *nfs;
	int n;
};

/* where_cols: the header ends in --every's columns (ip,pid,tid,mode[,symbol]) */
static bool where_cols(char **h, int nf, int *nev)
{
	static const char * const w[] = { "ip", "pid", "tid", "mode" };
	int k, i;

	for (k = nf - 5; k <= nf - 4; k++) {
		if (k < 3 || (k == nf - 5 && strcmp(h[nf - 1], "symbol")))
			continue;
		for (i = 0; i < 4 && !strcmp(h[k + i], w[i]); i++)
			;
		if (i == 4) {
			*nev = k - 2;
			return true;
		}
	}
	return false;
}

/* load: CSV as record writes it into D; false if it is not that, or empty */
static bool load(char *csv, struct data *d)
{
	char *line, *p = csv;
	int i, k, cap = 0;

	line = next_line(&p);
	if (!line)
		return false;
	d->nf = csv_fields(line, &d->h);
	if (d->nf < 3 || strcmp(d->h[0], "time") || strcmp(d->h[1], "cpu"))
		return false;
	d->every = where_cols(d->h, d->nf, &d->nev);
	if (!d->every)
		d->nev = d->nf - 2;
	while ((line = next_line(&p))) {
		if (d->n == cap) {
			cap = cap ? 2 * cap : 1024;
			d->f = xrealloc(d->f, (size_t)cap * sizeof(*d->f));
			d->nfs = xrealloc(d->nfs, (size_t)cap * sizeof(*d->nfs));
		}
		d->nfs[d->n] = split(line, &d->f[d->n]);
		k = d->nfs[d->n];
		/* (a symbol in quotes may hold a comma) */
		if ((d->every ? k < d->nf : k != d->nf) || !match_time(d->f[d->n][0]) ||
		    !*d->f[d->n][1] || !all_digits(d->f[d->n][1]))
			return false;
		for (i = 2; i < d->nev + 2; i++)
			if (!match_count(d->f[d->n][i]))
				return false;
		d->n++;
	}
	return d->n > 0;
}

/*
 * The sums of the events' counts per bucket, nev a bucket, in cap
 * buckets, of which 0 to last are used.
 */
struct sums {
	s128 *sum;
	int cap, last;
};

/* add_row: the counts of D's row K to bucket B of S */
static void add_row(struct sums *s, int b, struct data *d, int k)
{
	int i, n = s->cap;

	/* a negative count (a NAMEd counter reset) goes to the first */
	if (b < 0)
		b = 0;
	if (b >= n) {
		s->cap = 2 * n > b ? 2 * n : b + 1;
		s->sum = xrealloc(s->sum, (size_t)s->cap * d->nev * sizeof(*s->sum));
		memset(s->sum + (size_t)n * d->nev, 0,
		       (size_t)(s->cap - n) * d->nev * sizeof(*s->sum));
	}
	if (b > s->last)
		s->last = b;
	for (i = 0; i < d->nev; i++)
		s->sum[b * d->nev + i] += strtoll(d->f[k][i + 2], NULL, 10);
}

/*
 * by_time: "TIME RATE..." per bucket of time to OUT, RATE an event's count
 * per second summed over the CPUs
 */
static void by_time(struct data *d, FILE *out)
{
	int ncpus = 0, ccap = 0, i, k, b;
	struct sums s = { 0 };
	char **cpus = NULL;
	double span = 0, w;

	for (k = 0; k < d->n; k++) {
		for (i = 0; i < ncpus && strcmp(cpus[i], d->f[k][1]); i++)
			;
		if (i == ncpus) {
			cpus = grow(cpus, ncpus, &ccap, sizeof(*cpus));
			cpus[ncpus++] = d->f[k][1];
		}
		if (strtod(d->f[k][0], NULL) > span)
			span = strtod(d->f[k][0], NULL);
	}
	w = span / 100;
	if (span * ncpus / d->n > w)
		w = span * ncpus / d->n;
	if (w <= 0)
		w = 1;
	for (k = 0; k < d->n; k++)
		add_row(&s, (int)(strtod(d->f[k][0], NULL) / w), d, k);
	for (b = 0; b <= s.last; b++) {
		fprintf(out, "%.6f", (b + 0.5) * w);
		for (i = 0; i < d->nev; i++)
			fprintf(out, " %.6f", (double)s.sum[b * d->nev + i] / w);
		fputc('\n', out);
	}
	free(s.sum);
	free(cpus);
}

/*
 * by_event: "COUNT RATIO..." per bucket of event X's count (summed over
 * the CPUs, rows in time order) to OUT, RATIO an event's count per X in
 * the bucket (X's own column is 1)
 */
static void by_event(struct data *d, int x, FILE *out)
{
	s128 total = 0, at = 0, dx, *sum;
	struct sums s = { 0 };
	int i, k, b;
	double w;

	for (k = 0; k < d->n; k++)
		total += strtoll(d->f[k][x + 2], NULL, 10);
	w = (double)total / 100;
	if (w < 1)
		w = 1;
	for (k = 0; k < d->n; k++) {
		dx = strtoll(d->f[k][x + 2], NULL, 10);
		/* a row goes where the middle of its count falls */
		add_row(&s, (int)(((double)at + (double)dx / 2) / w), d, k);
		at += dx;
	}
	sum = s.sum;
	for (b = 0; b <= s.last; b++) {
		if (sum[b * d->nev + x] <= 0)
			continue;
		fprintf(out, "%.0f", (b + 0.5) * w);
		for (i = 0; i < d->nev; i++)
			fprintf(out, " %.9g", (double)sum[b * d->nev + i] /
				(double)sum[b * d->nev + x]);
		fputc('\n', out);
	}
	free(sum);
}

/*
 * script: gnuplot's script to F, which draws DATA (by_time()'s or
 * by_event()'s, against NEV events LABELS, X the event of -x or -1) into
 * SVG, titled CSV: a panel per event, stacked, each with its own y axis
 * from 0, labelled with the event; their x axes one, labelled under the
 * lowest. Strings are in single quotes, a quote in one doubled.
 */
static void script(FILE *f, const char *svg, const char *data, const char *csv,
		   char **labels, int nev, int x)
{
	int n = nev - (x >= 0), h = PANEL_H * n + 90, i, k = 0;

	if (h < 480)
		h = 480;
	fprintf(f, "set terminal svg size 800,%d dynamic noenhanced font 'sans,10'\n", h);
	fputs("set output ", f);
	quote(f, svg);
	/* margins in pixels: room for the title above, the x axis below */
	fputs("\nset multiplot layout ", f);
	fprintf(f, "%d,1 margins 0.12,0.97,%.4f,%.4f spacing 0,%.4f title ", n,
		60.0 / h, 1 - 30.0 / h, 12.0 / h);
	quote(f, csv);
	fputs(x < 0 ? " . ': per second, all CPUs'\n" : " . ': per ' . ", f);
	if (x >= 0) {
		quote(f, labels[x]);
		fputs(" . ', all CPUs'\n", f);
	}
	fputs("unset key\nset yrange [0:*]\nset format x ''\n", f);
	for (i = 0; i < nev; i++) {
		if (i == x)
			continue;
		if (++k == n) {
			fputs("set format x\nset xlabel ", f);
			if (x < 0) {
				fputs("'seconds since the first record'", f);
			} else {
				quote(f, labels[x]);
				fputs(" . ', all CPUs, since the first record'", f);
			}
			fputc('\n', f);
		}
		fputs("set ylabel ", f);
		quote(f, labels[i]);
		fputs("\nplot ", f);
		quote(f, data);
		fprintf(f, " using 1:%d with lines linewidth 1.5 title ", i + 2);
		quote(f, labels[i]);
		fputc('\n', f);
		/* the first panel's x range is every panel's */
		if (k == 1)
			fputs("set xrange [GPVAL_X_MIN:GPVAL_X_MAX]\n", f);
	}
	fputs("unset multiplot\n", f);
}

/* move: FROM renamed to TO, or copied when on another file system */
static bool move(const char *from, const char *to)
{
	struct sbuf sb = { 0 };
	FILE *f;
	bool ok;

	if (!rename(from, to))
		return true;
	if (errno != EXDEV || read_all(from, &sb) < 0)
		return false;
	f = fopen(to, "w");
	if (!f)
		return false;
	ok = fwrite(sb.buf, 1, sb.len, f) == sb.len;
	ok = !fclose(f) && ok;
	sb_free(&sb);
	return ok;
}

int cmd_plot(int argc, char **argv)
{
	const char *csv = NULL, *svg = NULL, *xev = NULL, *tmpdir = getenv("TMPDIR");
	char *work, *data, *outsvg, *gp, *argv_gp[3], **labels;
	struct sbuf text = { 0 };
	struct data d = { 0 };
	int i, x = -1;
	size_t n;
	FILE *f;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				usage();
			svg = argv[++i];
		} else if (!strcmp(argv[i], "-x")) {
			if (i + 1 >= argc)
				usage();
			xev = argv[++i];
		} else if (argv[i][0] == '-') {
			bad_option(argv[i]);
		} else {
			if (csv)
				usage();
			csv = argv[i];
		}
	}
	if (!csv || !*csv)
		usage();
	if (!in_path("gnuplot"))
		die("plot needs gnuplot (Debian: apt-get install gnuplot-nox)");
	if (access(csv, R_OK) || read_all(csv, &text) < 0)
		die("cannot read %s", csv);
	if (!svg || !*svg) {
		n = strlen(csv);
		if (n >= 4 && !strcmp(csv + n - 4, ".csv"))
			n -= 4;
		svg = xasprintf("%.*s.svg", (int)n, csv);
	}
	catch_signals(false, false);
	work = xasprintf("%s/perfkstat.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(work))
		die("cannot make a directory in %s: %s", tmpdir && *tmpdir ? tmpdir : "/tmp",
		    strerror(errno));
	remove_at_exit(work);
	data = xasprintf("%s/data", work);
	outsvg = xasprintf("%s/out.svg", work);
	gp = xasprintf("%s/plot.gp", work);
	remove_at_exit(data);
	remove_at_exit(outsvg);
	remove_at_exit(gp);

	f = fopen(data, "w");
	if (!f)
		die("%s: %s", data, strerror(errno));
	if (!load(text.buf, &d))
		die("%s: not the CSV of perfkstat record, or no records", csv);
	labels = d.h + 2;
	for (i = 0; xev && i < d.nev; i++)
		if (!strcmp(labels[i], xev))
			x = i;
	if (xev && x < 0)
		die("-x %s: no such event in %s", xev, csv);
	if (x >= 0 && d.nev < 2)
		die("-x %s: no other event to draw", xev);
	if (x < 0)
		by_time(&d, f);
	else
		by_event(&d, x, f);
	if (fclose(f) == EOF)
		die("%s: %s", data, strerror(errno));

	f = fopen(gp, "w");
	if (!f)
		die("%s: %s", gp, strerror(errno));
	script(f, outsvg, data, csv, labels, d.nev, x);
	if (fclose(f) == EOF)
		die("%s: %s", gp, strerror(errno));

	argv_gp[0] = "gnuplot";
	argv_gp[1] = gp;
	argv_gp[2] = NULL;
	defer_signals(true);
	i = wait_command(run_command(argv_gp));
	defer_signals(false);
	if (i)
		die("gnuplot failed");
	if (!move(outsvg, svg))
		die("could not write %s", svg);
	fprintf(stderr, ME ": wrote %s: %d event%s, a panel each\n", svg,
		d.nev - (x >= 0), d.nev - (x >= 0) == 1 ? "" : "s");
	sb_free(&text);
	return 0;
}
