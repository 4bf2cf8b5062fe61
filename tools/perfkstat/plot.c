// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat plot FILE.csv [-o FILE.svg]: record's CSV drawn by gnuplot
 * into SVG, a line per event: its count per second summed over the CPUs,
 * in time buckets of the span / 100, or of the mean time between a CPU's
 * records if longer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkstat.h"

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

/* rows: the data lines of CSV (after its header), split */
struct data {
	char ***f;
	int *nf;
	int n;
};

/* buckets: write "TIME RATE..." per bucket to OUT; false if CSV is not record's */
static bool buckets(char *csv, FILE *out, char ***labels, int *nlabels)
{
	char *line, *p = csv, **h, **cpus = NULL;
	int nf, rows = 0, ncpus = 0, i, k, last = 0, b, cap = 0, ccap = 0, scap = 1;
	double span = 0, w;
	struct data d = { 0 };
	s128 *sum = NULL;
	bool bad = false;

	line = next_line(&p);
	if (!line)
		return false;
	nf = csv_fields(line, &h);
	if (nf < 3 || strcmp(h[0], "time") || strcmp(h[1], "cpu"))
		return false;
	*labels = h + 2;
	*nlabels = nf - 2;
	while ((line = next_line(&p))) {
		if (d.n == cap) {
			cap = cap ? 2 * cap : 1024;
			d.f = xrealloc(d.f, (size_t)cap * sizeof(*d.f));
			d.nf = xrealloc(d.nf, (size_t)cap * sizeof(*d.nf));
		}
		d.nf[d.n] = split(line, &d.f[d.n]);
		k = d.nf[d.n];
		if (k != nf || !match_time(d.f[d.n][0]) || !*d.f[d.n][1] ||
		    !all_digits(d.f[d.n][1]))
			bad = true;
		for (i = 2; i < k && !bad; i++)
			if (!match_count(d.f[d.n][i]))
				bad = true;
		if (bad)
			return false;
		rows++;
		for (i = 0; i < ncpus && strcmp(cpus[i], d.f[d.n][1]); i++)
			;
		if (i == ncpus) {
			cpus = grow(cpus, ncpus, &ccap, sizeof(*cpus));
			cpus[ncpus++] = d.f[d.n][1];
		}
		if (strtod(d.f[d.n][0], NULL) > span)
			span = strtod(d.f[d.n][0], NULL);
		d.n++;
	}
	if (!rows)
		return false;
	w = span / 100;
	if (span * ncpus / rows > w)
		w = span * ncpus / rows;
	if (w <= 0)
		w = 1;
	sum = xmalloc(nf * sizeof(*sum));
	memset(sum, 0, nf * sizeof(*sum));
	for (k = 0; k < d.n; k++) {
		b = (int)(strtod(d.f[k][0], NULL) / w);
		if (b > last) {
			if (b >= scap) {
				scap = 2 * scap > b ? 2 * scap : b + 1;
				sum = xrealloc(sum, (size_t)scap * nf * sizeof(*sum));
			}
			memset(sum + (size_t)(last + 1) * nf, 0,
			       (size_t)(b - last) * nf * sizeof(*sum));
			last = b;
		}
		for (i = 2; i < d.nf[k]; i++)
			sum[b * nf + i] += strtoll(d.f[k][i], NULL, 10);
	}
	for (b = 0; b <= last; b++) {
		fprintf(out, "%.6f", (b + 0.5) * w);
		for (i = 2; i < nf; i++)
			fprintf(out, " %.6f", (double)sum[b * nf + i] / w);
		fputc('\n', out);
	}
	return true;
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
	const char *csv = NULL, *svg = NULL, *tmpdir = getenv("TMPDIR");
	char *work, *data, *outsvg, *gp, *argv_gp[3], **labels;
	struct sbuf text = { 0 };
	int i, nlabels;
	size_t n;
	FILE *f;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				usage();
			svg = argv[++i];
		} else if (argv[i][0] == '-') {
			usage();
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
	if (!buckets(text.buf, f, &labels, &nlabels))
		die("%s: not the CSV of perfkstat record, or no records", csv);
	if (fclose(f) == EOF)
		die("%s: %s", data, strerror(errno));

	/* the script: strings in single quotes, a quote in one doubled */
	f = fopen(gp, "w");
	if (!f)
		die("%s: %s", gp, strerror(errno));
	fputs("set terminal svg size 800,480 dynamic noenhanced font 'sans,10'\n", f);
	fputs("set output ", f);
	quote(f, outsvg);
	fputs("\nset title ", f);
	quote(f, csv);
	fputs("\nset xlabel 'seconds since the first record'\n", f);
	fputs("set ylabel 'per second, all CPUs'\n", f);
	fputs("set yrange [0:*]\n", f);
	fputs("set key outside bottom center horizontal\n", f);
	for (i = 0; i < nlabels; i++) {
		fputs(i ? ", " : "plot ", f);
		quote(f, data);
		fprintf(f, " using 1:%d with lines linewidth 1.5 title ", i + 2);
		quote(f, labels[i]);
	}
	fputc('\n', f);
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
	sb_free(&text);
	return 0;
}
