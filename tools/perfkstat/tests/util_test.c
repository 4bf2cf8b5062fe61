// SPDX-License-Identifier: GPL-2.0
/*
 * util.c: the numbers perfkstat reads (durations as perf's -I takes them,
 * counts, the leading number of a field) and writes (128-bit decimals, a
 * quotient rounded as printf rounds), and the small string helpers.
 */
#include <stdlib.h>

#include "tap.h"

static void duration(const char *s, bool ok_expected, u64 ns_expected)
{
	u64 ns = 0;
	char name[96];
	bool got = duration_ns(s, &ns);

	snprintf(name, sizeof(name), "duration_ns(\"%s\")", s);
	if (!ok_expected) {
		ok(!got, name);
		return;
	}
	if (ok(got, name))
		is_u64(ns, ns_expected, name);
}

static void round_even(s128 num, s128 den, s128 expected)
{
	char name[96], n[48], d[48];

	snprintf(name, sizeof(name), "div_round_even(%s, %s)", fmt_s128(n, num),
		 fmt_s128(d, den));
	is_s128(div_round_even(num, den), expected, name);
}

void util_tests(void)
{
	char buf[48], *s, *p, *argv[] = { "sleep", "1", "x y" };
	u64 v;

	/* perf's -I: milliseconds; perfkstat's units besides */
	duration("100", true, 100000000);
	duration("100ms", true, 100000000);
	duration("250us", true, 250000);
	duration("7ns", true, 7);
	duration("2s", true, 2000000000);
	duration("0", true, 0);
	duration("", false, 0);
	duration("ms", false, 0);
	duration("1.5ms", false, 0);
	duration("10m", false, 0);
	duration("-1", false, 0);
	duration("18446744073709551615ns", true, UINT64_MAX);
	duration("18446744073709552s", false, 0);

	ok(parse_u64("18446744073709551615", &v) && v == UINT64_MAX,
	   "parse_u64: 2^64-1 fits");
	ok(!parse_u64("18446744073709551616", &v), "parse_u64: 2^64 does not");
	ok(!parse_u64("", &v) && !parse_u64("12a", &v) && !parse_u64(" 1", &v),
	   "parse_u64: digits only, at least one");
	is_u64(leading_u64("  42 17"), 42, "leading_u64: blanks, then a number");
	is_u64(leading_u64("-"), 0, "leading_u64: no number is 0");
	is_u64(leading_u64("99999999999999999999"), UINT64_MAX,
	       "leading_u64: too large is 2^64-1");
	ok(all_digits("0123") && all_digits("") && !all_digits("1 "),
	   "all_digits: as sh's *[!0-9]*");

	is_str(fmt_s128(buf, 0), "0", "fmt_s128(0)");
	is_str(fmt_s128(buf, -(s128)1), "-1", "fmt_s128(-1)");
	is_str(fmt_s128(buf, (s128)UINT64_MAX * 2), "36893488147419103230",
	       "fmt_s128: past 64 bits");
	is_str(fmt_s128(buf, -(s128)(((u128)1 << 127) - 1) - 1),
	       "-170141183460469231731687303715884105728", "fmt_s128: the least s128");

	/* printf("%.0f") of an exact half goes to the even neighbour: 2.5 is 2 */
	round_even(5, 2, 2);
	round_even(7, 2, 4);
	round_even(-5, 2, -2);
	round_even(-7, 2, -4);
	round_even(1234499, 1000, 1234);
	round_even(1234501, 1000, 1235);
	round_even(1125, 10, 112);
	round_even(0, 3, 0);

	s = dir_of("/var/lib/x.prom");
	is_str(s, "/var/lib", "dir_of: a path's directory");
	free(s);
	s = dir_of("x.prom");
	is_str(s, ".", "dir_of: no directory is .");
	free(s);
	s = dir_of("/x");
	is_str(s, "/", "dir_of: the root's file");
	free(s);
	s = dir_of("a//b//");
	is_str(s, "a", "dir_of: slashes doubled and trailing, as dirname(1)");
	free(s);

	s = join_args(argv, 3);
	is_str(s, "sleep 1 x y", "join_args: as sh's \"$*\"");
	free(s);

	s = xstrdup("a\n\nb");
	p = s;
	is_str(next_line(&p), "a", "next_line: the first line");
	is_str(next_line(&p), "", "next_line: an empty line is one");
	is_str(next_line(&p), "b", "next_line: a last line without newline");
	ok(!next_line(&p), "next_line: then no more");
	free(s);
}
