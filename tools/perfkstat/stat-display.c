// SPDX-License-Identifier: GPL-2.0
/*
 * stat's rows in perf stat's three formats: the table, CSV with -x SEP
 * (value, unit, event, run time ns, percent running, metric value, metric
 * unit; with -I the time first) and JSON lines with -j.
 *
 * The value is scaled to the time the counter was enabled, as perf stat
 * does when it did not run all of it: value * enabled / running, in
 * 128-bit integers, to the nearest (a half to even). The percentage is
 * running / enabled, to two decimals.
 */
#include <stdio.h>
#include <string.h>

#include "perfkstat.h"

/* scale: V * E / R to the nearest; R > 0, E >= 0 */
static s128 scale(s128 v, s128 e, s128 r)
{
	u128 mag = (v < 0 ? -(u128)v : (u128)v) * (u128)e;
	u128 q = mag / (u128)r, rem = mag % (u128)r;

	if (2 * rem > (u128)r || (2 * rem == (u128)r && (q & 1)))
		q++;
	return v < 0 ? -(s128)q : (s128)q;
}

/* commas: decimal digits S grouped by thousands into OUT */
static char *commas(char *out, const char *s)
{
	size_t n = strlen(s), i;
	char *o = out;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = s[i];
	}
	*o = '\0';
	return out;
}

/* json_str: S as a JSON string: a backslash before each \ and " */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static bool is_number(const char *s)
{
	return *s && all_digits(s);
}

/*
 * print_row: ROW in MODE; SEP is -x's separator, T the interval's time
 * stamp or NULL.
 */
void print_row(enum stat_mode mode, const char *sep, const char *t,
	       const struct stat_row *row)
{
	s128 v = row->val, e = row->ena, r = row->run;
	char num[48], txt[64], runs[48];
	double pct = e > 0 ? (double)(100 * r) / (double)e : 0;

	if (pct > 100)
		pct = 100;
	if (row->not_supported)
		snprintf(txt, sizeof(txt), "<not supported>");
	else if (r == 0)
		snprintf(txt, sizeof(txt), "<not counted>");
	else
		fmt_s128(txt, r > 0 ? (r < e ? scale(v, e, r) : v) : 0);
	fmt_s128(runs, r);

	switch (mode) {
	case MODE_CSV:
		printf("%s%s%s%s%s%s%s%s%s%.2f%s%s\n", t ? t : "", t ? sep : "",
		       txt, sep, sep, row->label, sep, runs, sep, pct, sep, sep);
		break;
	case MODE_JSON:
		if (is_number(txt))
			strcat(txt, ".000000");
		putchar('{');
		if (t)
			printf("\"interval\" : %s, ", t);
		fputs("\"counter-value\" : ", stdout);
		json_str(txt);
		fputs(", \"unit\" : \"\", \"event\" : ", stdout);
		json_str(row->label);
		printf(", \"event-runtime\" : %s, \"pcnt-running\" : %.2f, ", runs, pct);
		fputs("\"metric-value\" : \"0.000000\", \"metric-unit\" : \"\"}\n", stdout);
		break;
	case MODE_TABLE:
		if (is_number(txt))
			snprintf(txt, sizeof(txt), "%s", commas(num, txt));
		if (t)
			printf("%16s ", t);
		if (txt[0] != '<' && r < e)
			printf("%20s      %-32s  (%.2f%%)\n", txt, row->label, pct);
		else
			printf("%20s      %s\n", txt, row->label);
		break;
	}
}
